"""dnntrace_torch: names PyTorch tensors (parameters, gradients, optimizer
state, activations) and training steps in a dnntrace trace.

    dnntrace record --torch-names -o trace/ -- python train.py

activates it in an unmodified program (see shim/sitecustomize.py); a program
may also call dnntrace_torch.activate() itself after `import torch`.
Names reach libdnntrace.so through its dnntrace_tag (ctypes); step ranges go
through its NVTX injection (_nvtx.py). Without libdnntrace.so in the process,
activate() installs nothing and returns False: no hook, no cost.
What _naming.py names, and when, is described there.
"""
import atexit
import functools
import threading

from . import _library
from ._naming import Namer, STEP_RANGE_NAME

__all__ = ["activate", "active_namer", "STEP_RANGE_NAME"]

_lock = threading.Lock()
_namer = None


def active_namer():
    """The Namer in use, or None when naming is not active."""
    return _namer


def activate(tag_function=None, nvtx=None):
    """Installs the naming hooks once. tag_function (default: dnntrace_tag
    found in the process) takes (int pointer, bytes name); nvtx (default: a
    client of libdnntrace's NVTX injection) has range_start/range_end.
    Returns True when naming is active."""
    global _namer
    with _lock:
        if _namer is not None:
            return True
        if tag_function is None:
            tag_function = _library.find_tag_function()
            if tag_function is None:
                return False
        if nvtx is None:
            from ._nvtx import NvtxClient
            client = NvtxClient(_library.find_nvtx_injection())
            nvtx = client if client.has_ranges else None
        import torch
        namer = Namer(torch, tag_function, nvtx)
        _install_module_hooks(torch, namer)
        _install_optimizer_hooks(torch, namer)
        atexit.register(namer.close_open_step)
        _namer = namer
        return True


def _install_module_hooks(torch, namer):
    from torch.nn.modules import module
    module.register_module_forward_pre_hook(namer.before_forward)
    module.register_module_forward_hook(namer.after_forward)


def _install_optimizer_hooks(torch, namer):
    """Every optimizer class's step is wrapped when its first instance is
    made (PyTorch 1.13 has no global step hooks; one path for all versions)."""
    optimizer_base = torch.optim.Optimizer
    original_init = optimizer_base.__init__

    @functools.wraps(original_init)
    def init_and_wrap_step(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        _wrap_step(type(self), namer)

    optimizer_base.__init__ = init_and_wrap_step


_in_step = threading.local()


def _wrap_step(optimizer_class, namer):
    for owner in optimizer_class.__mro__:
        if "step" in owner.__dict__:
            break
    else:
        return
    step = owner.__dict__["step"]
    if getattr(step, "_dnntrace_wrapped", False) or not callable(step):
        return

    @functools.wraps(step)
    def named_step(self, *args, **kwargs):
        # A subclass's step calling super().step() is one step.
        if getattr(_in_step, "active", False):
            return step(self, *args, **kwargs)
        _in_step.active = True
        try:
            namer.before_step(self)
            result = step(self, *args, **kwargs)
            namer.after_step(self)
            return result
        finally:
            _in_step.active = False

    named_step._dnntrace_wrapped = True
    owner.step = named_step

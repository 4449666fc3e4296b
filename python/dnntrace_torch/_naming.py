"""Gives PyTorch tensors the names users think in, through dnntrace_tag:

  param:<module path>            every parameter of a model (at its forward)
  buffer:<module path>           every buffer (batch-norm running statistics)
  grad:<parameter path>          every gradient (at optimizer.step, and at the
                                 next forward while it is still alive)
  optim:<parameter path>.<key>   every optimizer state tensor (after a step)
  act:<module path>              every module's output (forward hooks); the
                                 outermost module called is named by its class

Module paths are those of named_modules() from the outermost module being
called (the "root", e.g. the model or the loss), so `layer1.0.conv1`.
A module output is named once, by the innermost module that produced it: a
container returning its last child's tensor, an in-place module returning
its input (ReLU(inplace=True)) or a view of its input (Flatten) do not rename
it. Each training step is an NVTX start/end range named "train_step": it opens
at the first forward with gradients enabled and closes when optimizer.step
returns.

On a real GPU (assumed, not tested here: the tests run Debian's CPU build)
a CUDA tensor's data_ptr() is a device address inside the allocation the
tracer saw; with record's default (PyTorch's cudaMallocAsync backend) or
PYTORCH_NO_CUDA_MEMORY_CACHING=1 each tensor is its own allocation, with
the caching allocator a name lands on the
whole cached segment (the analyzer keeps a tensor's last name). CPU tensors
are tagged too (the tracer records them with tensor id -1). Modules run by
TorchScript or torch.compile graphs call no Python hooks and get no act: name.

Everything here runs inside the user's training loop: it must never change
what the program computes, never keep a tensor alive (only ids and weak
references are kept), and never let an exception escape into the program.
"""
import sys
import threading
import weakref

STEP_RANGE_NAME = "train_step"


def _storage_ptr(tensor):
    try:
        if hasattr(tensor, "untyped_storage"):
            return tensor.untyped_storage().data_ptr()
        return tensor.storage().data_ptr()
    except Exception:  # sparse, nested or other storage-less tensors
        return tensor.data_ptr()


def _tensors_in(value, torch, suffix=""):
    """(suffix, tensor) for each tensor of a module's output: a tensor, or
    tuples, lists and dicts of them (suffix [i] or [key])."""
    if isinstance(value, torch.Tensor):
        yield suffix, value
    elif isinstance(value, (tuple, list)):
        for index, item in enumerate(value):
            yield from _tensors_in(item, torch, "%s[%d]" % (suffix, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _tensors_in(item, torch, "%s[%s]" % (suffix, key))


class _RootCall:
    """One call of an outermost module: the paths of its submodules and the
    outputs already named during it (id -> weak reference)."""

    __slots__ = ("root", "paths", "named")

    def __init__(self, root):
        self.root = root
        self.paths = {id(module): path for path, module in root.named_modules()}
        self.named = {}

    def already_named(self, tensor):
        ref = self.named.get(id(tensor))
        return ref is not None and ref() is tensor

    def mark_named(self, tensor):
        try:
            self.named[id(tensor)] = weakref.ref(tensor)
        except TypeError:
            pass


class Namer:
    """The naming logic, independent of how it is hooked into PyTorch, so it
    can be driven and checked directly."""

    def __init__(self, torch, tag_function, nvtx=None):
        self._torch = torch
        self._tag_function = tag_function
        self._nvtx = nvtx
        self._local = threading.local()
        self._param_names = {}  # id(parameter) -> (weak reference, path)
        self._step_range = None  # (thread id, NVTX range id) while a step is open
        self._step_lock = threading.Lock()
        self._failed = False

    # --- tagging -------------------------------------------------------
    def tag(self, tensor, name):
        ptr = tensor.data_ptr()
        if ptr:
            self._tag_function(ptr, name.encode("utf-8", "replace"))

    def _guard(self, action, *args):
        """Runs one hook body; a failure disables naming and is said once."""
        if self._failed:
            return
        try:
            action(*args)
        except Exception as error:  # never break the user's program
            self._failed = True
            print("dnntrace_torch: naming disabled after an error: %r" % (error,), file=sys.stderr)

    # --- modules ------------------------------------------------------
    def _calls(self):
        calls = getattr(self._local, "calls", None)
        if calls is None:
            calls = self._local.calls = []
        return calls

    def before_forward(self, module, inputs):
        self._guard(self._before_forward, module)

    def after_forward(self, module, inputs, output):
        self._guard(self._after_forward, module, inputs, output)

    def _before_forward(self, module):
        calls = self._calls()
        if calls and id(module) in calls[-1].paths:
            return
        # A new outermost call. A call left open by an exception is dropped.
        for depth, call in enumerate(calls):
            if call.root is module:
                del calls[depth:]
                break
        call = _RootCall(module)
        calls.append(call)
        if self._torch.is_grad_enabled():
            self._open_step()
        self._name_model(module)

    def _name_model(self, root):
        for path, parameter in root.named_parameters():
            self.tag(parameter, "param:" + path)
            self._remember_parameter(parameter, path)
            if parameter.grad is not None:
                self.tag(parameter.grad, "grad:" + path)
        for path, buffer in root.named_buffers():
            self.tag(buffer, "buffer:" + path)

    def _remember_parameter(self, parameter, path):
        known = self._param_names.get(id(parameter))
        if known is not None and known[0]() is parameter and known[1] == path:
            return
        key = id(parameter)
        names = self._param_names
        names[key] = (weakref.ref(parameter, lambda _ref: names.pop(key, None)), path)

    def _after_forward(self, module, inputs, output):
        calls = self._calls()
        if not calls:
            return
        call = calls[-1]
        path = call.paths.get(id(module))
        if path is None:
            return
        name = "act:" + (path or type(module).__name__)
        input_storages = {_storage_ptr(t) for _, t in _tensors_in(inputs, self._torch)}
        for suffix, tensor in _tensors_in(output, self._torch):
            if call.already_named(tensor) or _storage_ptr(tensor) in input_storages:
                continue
            self.tag(tensor, name + suffix)
            call.mark_named(tensor)
        if module is call.root:
            calls.pop()

    # --- optimizers ---------------------------------------------------
    def parameter_path(self, parameter, group_index, index):
        known = self._param_names.get(id(parameter))
        if known is not None and known[0]() is parameter:
            return known[1]
        return "group%d.%d" % (group_index, index)

    def _optimizer_parameters(self, optimizer):
        for group_index, group in enumerate(optimizer.param_groups):
            for index, parameter in enumerate(group["params"]):
                yield self.parameter_path(parameter, group_index, index), parameter

    def before_step(self, optimizer):
        self._guard(self._before_step, optimizer)

    def after_step(self, optimizer):
        self._guard(self._after_step, optimizer)

    def _before_step(self, optimizer):
        for path, parameter in self._optimizer_parameters(optimizer):
            if parameter.grad is not None:
                self.tag(parameter.grad, "grad:" + path)

    def _after_step(self, optimizer):
        for path, parameter in self._optimizer_parameters(optimizer):
            state = optimizer.state.get(parameter)
            if not state:
                continue
            for key, value in state.items():
                if isinstance(value, self._torch.Tensor):
                    self.tag(value, "optim:%s.%s" % (path, key))
        self._close_step()

    # --- training steps -----------------------------------------------
    def _open_step(self):
        if self._nvtx is None:
            return
        with self._step_lock:
            if self._step_range is None:
                self._step_range = (threading.get_ident(), self._nvtx.range_start(STEP_RANGE_NAME))

    def _close_step(self):
        if self._nvtx is None:
            return
        with self._step_lock:
            if self._step_range is None or self._step_range[0] != threading.get_ident():
                return
            range_id = self._step_range[1]
            self._step_range = None
        self._nvtx.range_end(range_id)

    def close_open_step(self):
        """At exit: a step opened by a forward that no optimizer step ended."""
        if self._nvtx is None:
            return
        with self._step_lock:
            step, self._step_range = self._step_range, None
        if step is not None:
            self._nvtx.range_end(step[1])

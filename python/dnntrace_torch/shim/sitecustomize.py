"""Activates dnntrace_torch in an unmodified `python train.py`.

`dnntrace record --torch-names` puts this directory (and the one holding the
dnntrace_torch package) first on PYTHONPATH of the traced command only, so
Python's site module imports this file at startup. It then:
  1. runs the sitecustomize it shadows (the next one on sys.path, e.g.
     Debian's /etc/python3.X/sitecustomize.py), so nothing of the user's
     setup is lost;
  2. when libdnntrace.so is in the process (dnntrace_tag resolves), waits
     for `import torch` and activates the naming right after torch finished
     importing. Without the library it installs nothing.
It must never import torch itself (programs that never use it stay as they
are), never write anything, and never let an error stop the program.
"""
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _run_shadowed_sitecustomize():
    search = [entry for entry in sys.path
              if os.path.abspath(entry or os.curdir) != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", search)
    if spec is None or spec.loader is None:
        return
    try:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    except Exception as error:  # what site.py itself does with a failing one
        print("Error in sitecustomize; set PYTHONVERBOSE for traceback:\n%s: %s"
              % (type(error).__name__, error), file=sys.stderr)


def _activate_naming():
    try:
        import dnntrace_torch
        dnntrace_torch.activate()
    except Exception as error:
        print("dnntrace_torch: not activated: %r" % (error,), file=sys.stderr)


class _ActivateAfterLoading(importlib.abc.Loader):
    """Runs torch's own loader, then activates. Puts the real loader back in
    the module's spec first, so torch looks exactly as if loaded directly."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        module.__spec__.loader = self._loader
        module.__loader__ = self._loader
        self._loader.exec_module(module)
        _activate_naming()


class _WatchTorchImport(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != "torch":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("torch")
        if spec is not None and spec.loader is not None:
            spec.loader = _ActivateAfterLoading(spec.loader)
        return spec


def _watch_torch():
    from dnntrace_torch import _library
    if _library.find_tag_function() is None:
        return
    if "torch" in sys.modules:
        _activate_naming()
    else:
        sys.meta_path.insert(0, _WatchTorchImport())


_run_shadowed_sitecustomize()
try:
    _watch_torch()
except Exception as error:
    print("dnntrace_torch: not activated: %r" % (error,), file=sys.stderr)

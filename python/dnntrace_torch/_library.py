"""Finds libdnntrace.so's entry points in the running process, with ctypes.

libdnntrace.so is LD_PRELOADed by `dnntrace record`, so its symbols sit in
the process's global namespace: ctypes.CDLL(None) (dlopen(NULL)) reaches them
without knowing where the library lives. This module must never load the
library itself nor fail: a process without it simply gets None.
"""
import ctypes


def _global_symbol(name):
    try:
        return getattr(ctypes.CDLL(None), name)
    except (AttributeError, OSError):
        return None


def find_tag_function():
    """dnntrace_tag(const void *device_ptr, const char *name), or None."""
    tag = _global_symbol("dnntrace_tag")
    if tag is None:
        return None
    tag.argtypes = (ctypes.c_void_p, ctypes.c_char_p)
    tag.restype = None
    return tag


def find_nvtx_injection():
    """InitializeInjectionNvtx2(NvtxGetExportTableFunc_t), or None."""
    initialize = _global_symbol("InitializeInjectionNvtx2")
    if initialize is None:
        return None
    initialize.restype = ctypes.c_int
    return initialize

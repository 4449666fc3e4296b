"""A minimal NVTX 3 client in ctypes: opens and closes start/end ranges
through an injection library's InitializeInjectionNvtx2 (libdnntrace.so's).

Why not torch.cuda.nvtx: CPU builds of PyTorch have none (it raises), and
PyTorch 1.x offers only push/pop ranges, which nest per thread, while a
training step's backward kernels are launched from autograd's own device
threads on a CUDA build. A start/end range belongs to no thread, so it
covers those kernels too. This client plays the part NVTX's header-only
implementation plays in a C program (nvtx3/nvtxDetail/nvtxImpl.h): it hands
the injection an export table whose GetModuleFunctionTable gives out slots,
the injection fills the slots it implements, and ranges are calls through
those slots. It must never raise into the caller: without an injection, or
when the injection fills no range slots, ranges do nothing.
"""
import ctypes

# nvtx3/nvtxDetail/nvtxTypes.h
_ETID_CALLBACKS = 1
_ETID_VERSIONINFO = 3
_NVTX_VERSION = 3
# NvtxCallbackModule -> NVTX_CBID_<module>_SIZE
_MODULE_TABLE_SIZES = {1: 16, 2: 9, 3: 15, 4: 7, 5: 16, 6: 7}
_MODULE_CORE = 1
_CBID_CORE_RANGE_START_A = 5
_CBID_CORE_RANGE_END = 7

_GetExportTable = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint32)
_GetModuleFunctionTable = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p),
    ctypes.POINTER(ctypes.c_uint))
_SetInjectionNvtxVersion = ctypes.CFUNCTYPE(None, ctypes.c_uint32)
_RangeStartA = ctypes.CFUNCTYPE(ctypes.c_uint64, ctypes.c_char_p)
_RangeEnd = ctypes.CFUNCTYPE(None, ctypes.c_uint64)


class _ExportTableCallbacks(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t),
                ("GetModuleFunctionTable", _GetModuleFunctionTable)]


class _ExportTableVersionInfo(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t),
                ("version", ctypes.c_uint32),
                ("reserved0", ctypes.c_uint32),
                ("SetInjectionNvtxVersion", _SetInjectionNvtxVersion)]


class _ModuleTable:
    """NVTX's layout: an array of pointers to function-pointer slots, index 0
    and one past the end NULL, its size reported as NVTX_CBID_*_SIZE."""

    def __init__(self, size):
        self.size = size
        self.slots = (ctypes.c_void_p * (size + 1))()
        self.pointers = (ctypes.c_void_p * (size + 1))()
        for cbid in range(1, size):
            self.pointers[cbid] = ctypes.addressof(self.slots) + cbid * ctypes.sizeof(ctypes.c_void_p)


class NvtxClient:
    """Start/end ranges in NVTX's default domain."""

    def __init__(self, initialize_injection):
        self._start = None
        self._end = None
        # Everything the injection may keep a pointer to lives as long as we do.
        self._tables = {module: _ModuleTable(size) for module, size in _MODULE_TABLE_SIZES.items()}
        self._get_module_table = _GetModuleFunctionTable(self._give_module_table)
        self._set_version = _SetInjectionNvtxVersion(lambda version: None)
        self._callbacks = _ExportTableCallbacks(ctypes.sizeof(_ExportTableCallbacks),
                                                self._get_module_table)
        self._version_info = _ExportTableVersionInfo(ctypes.sizeof(_ExportTableVersionInfo),
                                                     _NVTX_VERSION, 0, self._set_version)
        self._get_export_table = _GetExportTable(self._give_export_table)
        if initialize_injection is None or not initialize_injection(self._get_export_table):
            return
        core = self._tables[_MODULE_CORE].slots
        if core[_CBID_CORE_RANGE_START_A] and core[_CBID_CORE_RANGE_END]:
            self._start = _RangeStartA(core[_CBID_CORE_RANGE_START_A])
            self._end = _RangeEnd(core[_CBID_CORE_RANGE_END])

    @property
    def has_ranges(self):
        return self._start is not None

    def range_start(self, name):
        """Returns the range id (0 when ranges are not available)."""
        if self._start is None:
            return 0
        return self._start(name.encode("utf-8", "replace"))

    def range_end(self, range_id):
        if self._end is not None:
            self._end(range_id)

    def _give_export_table(self, table_id):
        if table_id == _ETID_CALLBACKS:
            return ctypes.addressof(self._callbacks)
        if table_id == _ETID_VERSIONINFO:
            return ctypes.addressof(self._version_info)
        return None

    def _give_module_table(self, module, out_table, out_size):
        table = self._tables.get(module)
        if table is None:
            return 0
        if out_table:
            out_table[0] = ctypes.addressof(table.pointers)
        if out_size:
            out_size[0] = table.size
        return 1

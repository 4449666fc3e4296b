# tests/nvtx: build rules of the NVTX injection tests (sources here):
# nvtx_ranges, a program using only NVTX 3's header-only API (no CUDA
# library, no link to libdnntrace.so: NVTX finds the injection library through NVTX_INJECTION64_PATH at run time), run by
# tests/nvtx/test_*.sh; and test_nvtx_names, the unit test of the UTF-8
# conversion and the domain / registered-string registry.

NVTX_TEST_DIR := $(BUILD)/tests/nvtx
NVTX_TEST_PROGRAMS := $(NVTX_TEST_DIR)/nvtx_ranges
NVTX_TEST_UNIT := $(BUILD)/tests/test_nvtx_names

TESTS += $(NVTX_TEST_UNIT)
all: $(NVTX_TEST_PROGRAMS) $(NVTX_TEST_UNIT)

$(NVTX_TEST_DIR)/nvtx_ranges: tests/nvtx/nvtx_ranges.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -o $@ $< $(SAN_LDFLAGS) -ldl -lpthread

$(NVTX_TEST_UNIT): tests/nvtx/test_names.c interceptors/nvtx/utf8.c interceptors/nvtx/utf8.h \
		interceptors/nvtx/registry.c interceptors/nvtx/registry.h | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -o $@ $(filter %.c,$^) $(SAN_LDFLAGS) -lpthread

# simgpu/tests: every simgpu unit test, $(BUILD)/tests/test_simgpu_<name>
# from simgpu/tests/test_<name>.c (run_tests.sh runs them, and the
# scripts simgpu/tests/test_*.sh), the programs some of them run (the
# dlsym spy, the ABI probes), and their header-only helpers (*.h here).
# Each group below links what its tests exercise, and no more.

SIMGPU_TESTS_DIR := $(SIMGPU_DIR)/tests
SIMGPU_TEST_HELPERS := $(wildcard $(SIMGPU_TESTS_DIR)/*.h)
simgpu_tests = $(patsubst %,$(BUILD)/tests/test_simgpu_%,$(1))

# The runtime and CUPTI over the driver.
SIMGPU_RUNTIME_TESTS := $(call simgpu_tests,memory errors timeline \
	virtual_time kernels cupti cupti_callbacks threads graphs \
	cupti_subscribers arrays registration)
$(SIMGPU_RUNTIME_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_TESTS_DIR)/test_%.c \
		$(SIMGPU_TEST_HELPERS) $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-lcudart -lcupti -Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# The driver alone (libcuda.so.1 only).
SIMGPU_DRIVER_ALONE_TESTS := $(call simgpu_tests,driver_api \
	driver_proc_address driver_modules driver_h100 driver_graph_memory)
$(SIMGPU_DRIVER_ALONE_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_TESTS_DIR)/test_%.c \
		$(SIMGPU_TEST_HELPERS) $(SIMGPU_DRIVER)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-l:libcuda.so.1 -Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# The whole stack (runtime, CUPTI) reaching the driver.
SIMGPU_DRIVER_STACK_TESTS := $(call simgpu_tests,driver_runtime_path pools_devices)
$(SIMGPU_DRIVER_STACK_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_TESTS_DIR)/test_%.c \
		$(SIMGPU_TEST_HELPERS) $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-lcudart -lcupti -l:libcuda.so.1 -ldl \
		-Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# Graphs on the driver alone, recorded by CUPTI (no runtime: cuInit is
# the test's own).
SIMGPU_DRIVER_CUPTI_TESTS := $(call simgpu_tests,driver_graphs)
$(SIMGPU_DRIVER_CUPTI_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_TESTS_DIR)/test_%.c \
		$(SIMGPU_TEST_HELPERS) $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-lcupti -l:libcuda.so.1 -ldl \
		-Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# The preloaded dlsym spy test_driver_runtime_path re-executes itself under.
SIMGPU_PROC_SPY := $(BUILD)/tests/simgpu_driver/libproc_spy.so
$(BUILD)/tests/test_simgpu_driver_runtime_path: | $(SIMGPU_PROC_SPY)
$(SIMGPU_PROC_SPY): $(SIMGPU_TESTS_DIR)/proc_spy.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -shared -o $@ $< $(SAN_LDFLAGS) -ldl

# Programs linked against the CUDA 12 runtime and CUPTI run on the variant:
# test_driver_cuda12 (library discovery), test_cupti12_records (the records).
SIMGPU12_TESTS := $(call simgpu_tests,driver_cuda12 cupti12_records)
$(SIMGPU12_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_TESTS_DIR)/test_%.c \
		$(SIMGPU_TEST_HELPERS) $(SIMGPU12_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU12_LIB) \
		-lcudart -lcupti -Wl,-rpath,'$$ORIGIN/../simgpu12/lib' $(SAN_LDFLAGS)

# The fatbin reader alone (core/core_fatbin.c) on nvcc's output of
# tests/nvcc/nv_kernels.cu (built by tests/nvcc/module.mk) and corrupted
# copies of it.
SIMGPU_FATBIN_TEST := $(call simgpu_tests,fatbin)
$(SIMGPU_FATBIN_TEST): $(SIMGPU_TESTS_DIR)/test_fatbin.c $(SIMGPU_DIR)/core/core_fatbin.c \
		$(SIMGPU_DIR)/core/core_fatbin.h | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $(filter %.c,$^) -o $@ $(SAN_LDFLAGS) -ldl

# cuBLAS and cuBLASLt over the runtime.
SIMGPU_CUBLAS_TESTS := $(call simgpu_tests,cublas_gemm cublas_lt cublas_batched)
$(SIMGPU_CUBLAS_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_TESTS_DIR)/test_%.c \
		$(SIMGPU_TEST_HELPERS) $(SIMGPU_CUBLAS_LIBS) $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-lcublas -lcublasLt -lcudart -lcupti -Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# cuDNN over the runtime.
SIMGPU_CUDNN_TESTS := $(call simgpu_tests,cudnn_backend cudnn_legacy)
$(SIMGPU_CUDNN_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_TESTS_DIR)/test_%.c \
		$(SIMGPU_TEST_HELPERS) $(SIMCUDNN_LIB) $(SIMCUDNN_LIBDIR)/libcudnn.so $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-lcudnn -lcupti -lcudart -Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# The "not supported" stubs of every library through the real prototypes.
SIMGPU_EXPORTS_TEST := $(call simgpu_tests,not_supported)
$(SIMGPU_EXPORTS_TEST): $(SIMGPU_TESTS_DIR)/test_not_supported.c $(SIMGPU_TEST_HELPERS) \
		$(SIMGPU_CUBLAS_LIB) $(SIMGPU_CUBLASLT_LIB) $(SIMCUDNN_LIB) $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-l:libcublas.so.13 -l:libcublasLt.so.13 -l:libcudnn.so.9 -lcupti -lcudart \
		-l:libcuda.so.1 -ldl -Wl,--no-as-needed -Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# NVML's answers and the power model.
SIMGPU_NVML_TEST := $(call simgpu_tests,nvml)
$(SIMGPU_NVML_TEST): $(SIMGPU_TESTS_DIR)/test_nvml.c $(SIMGPU_TEST_HELPERS) \
		$(SIMGPU_NVML_LIB) $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-l:libnvidia-ml.so.1 -lcudart -ldl -Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

SIMGPU_ALL_TESTS := $(SIMGPU_RUNTIME_TESTS) $(SIMGPU_DRIVER_ALONE_TESTS) \
	$(SIMGPU_DRIVER_STACK_TESTS) $(SIMGPU_DRIVER_CUPTI_TESTS) $(SIMGPU12_TESTS) \
	$(SIMGPU_FATBIN_TEST) $(SIMGPU_CUBLAS_TESTS) $(SIMGPU_CUDNN_TESTS) \
	$(SIMGPU_EXPORTS_TEST) $(SIMGPU_NVML_TEST)
TESTS += $(SIMGPU_ALL_TESTS)
all: $(SIMGPU_ALL_TESTS) $(SIMGPU_PROC_SPY)

# A test source no group above names would silently never build.
SIMGPU_UNBUILT_TESTS := $(filter-out $(SIMGPU_ALL_TESTS),$(patsubst \
	$(SIMGPU_TESTS_DIR)/test_%.c,$(BUILD)/tests/test_simgpu_%,$(wildcard $(SIMGPU_TESTS_DIR)/test_*.c)))
ifneq ($(SIMGPU_UNBUILT_TESTS),)
$(error simgpu/tests/module.mk: no rule builds $(SIMGPU_UNBUILT_TESTS))
endif

# The same probe linked once against the REAL libcudart and once against
# simgpu: test_real_abi.sh swaps the libraries underneath.
SIMGPU_PROBES := $(SIMGPU_OUT)/abi_probe_real $(SIMGPU_OUT)/abi_probe_sim
all: $(SIMGPU_PROBES)
$(SIMGPU_OUT)/abi_probe_real: $(SIMGPU_TESTS_DIR)/abi_probe.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $< -o $@ -L$(CUDA_HOME)/lib64 -lcudart $(SAN_LDFLAGS)
$(SIMGPU_OUT)/abi_probe_sim: $(SIMGPU_TESTS_DIR)/abi_probe.c $(SIMGPU_CUDART) $(SIMGPU_RUNTIME_LINKS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $< -o $@ -L$(SIMGPU_LIB) -lcudart $(SAN_LDFLAGS)

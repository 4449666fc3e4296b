# simgpu: the simulated CUDA stack (README.md). Builds
#   $(BUILD)/simgpu/lib/libcuda.so.1 (the simulated driver: device core and
#   driver API), libcudart.so.13 (a layer over it) and libcupti.so.13 (+ .so
#   links), against the real toolkit headers, and the simgpu tests,
#   simgpu/driver/ included. Owns no other paths.

SIMGPU_DIR := simgpu
SIMGPU_OUT := $(BUILD)/simgpu
SIMGPU_LIB := $(SIMGPU_OUT)/lib
SIMGPU_GEN := $(SIMGPU_OUT)/gen
SIMGPU_OBJ := $(SIMGPU_OUT)/obj

# The driver: the device core (core_*.c) and the driver API (driver/).
SIMGPU_DRIVER_SRCS := core_timeline.c core_memory.c core_sticky_error.c \
	core_kernels.c core_alloc.c core_transfer.c core_sync.c core_report.c \
	core_vmm.c core_graph_memory.c core_graphs.c core_power.c core_fatbin.c core_modules.c driver/cuda_api_device.c driver/cuda_api_memory.c \
	driver/cuda_api_vmm.c \
	driver/cuda_api_transfer.c driver/cuda_api_exec.c \
	driver/cuda_api_graphs.c driver/cuda_api_graph_memory.c \
	driver/cuda_proc_address.c driver/cuda_api_occupancy.c \
	driver/cuda_api_attach.c driver/cuda_api_arrays.c
SIMGPU_CUDART_SRCS := cudart_driver.c cudart_errors.c cudart_api_memory.c \
	cudart_api_exec.c cudart_api_kernels.c cudart_api_graphs.c \
	cudart_api_modules.c cudart_api_properties.c cudart_api_host.c \
	cudart_api_arrays.c cudart_api_graph_memory.c
SIMGPU_CUPTI_SRCS := cupti_activity.c cupti_callbacks.c
SIMGPU_DRIVER_OBJS := $(SIMGPU_DRIVER_SRCS:%.c=$(SIMGPU_OBJ)/%.o)
SIMGPU_CUDART_OBJS := $(SIMGPU_CUDART_SRCS:%.c=$(SIMGPU_OBJ)/%.o)
SIMGPU_CUPTI_OBJS := $(SIMGPU_CUPTI_SRCS:%.c=$(SIMGPU_OBJ)/%.o)

# __CUDA_API_VERSION_INTERNAL makes cuda_runtime_api.h and cuda.h declare
# the plain entry points, their older versions and their _ptds/_ptsz twins,
# so the compiler checks every definition here against the real
# prototypes. (Not for CUPTI: cupti.h does not compile with it.)
SIMGPU_CFLAGS := $(CFLAGS) $(CUDA_CFLAGS) -I$(SIMGPU_GEN) -pthread -MMD -MP
$(SIMGPU_CUDART_OBJS): SIMGPU_API_FLAGS := -D__CUDA_API_VERSION_INTERNAL
# The driver is dlopen()ed: its few thread-locals go in static TLS (as
# glibc allows for small amounts), not dynamic TLS, which LeakSanitizer
# cannot scan.
$(SIMGPU_DRIVER_OBJS): SIMGPU_API_FLAGS := -D__CUDA_API_VERSION_INTERNAL \
	-ftls-model=initial-exec

# Every function the real library exports and these objects do not define
# becomes a "not supported" stub (simgpu/exports/: gen_stubs.sh reads the
# objects' symbols, so an implementation added anywhere wins by itself).
SIMGPU_STUBS := $(BUILD)/simgpu/stubs
SIMGPU_DRIVER_STUB_OBJS := $(SIMGPU_STUBS)/libcuda.so.1.stubs.o $(BUILD)/simgpu/obj/exports/not_supported.o
SIMGPU_CUDART_STUB_OBJS := $(SIMGPU_STUBS)/libcudart.so.13.stubs.o $(BUILD)/simgpu/obj/exports/not_supported.o
SIMGPU_CUPTI_STUB_OBJS := $(SIMGPU_STUBS)/libcupti.so.13.stubs.o $(BUILD)/simgpu/obj/exports/not_supported.o

$(SIMGPU_STUBS)/libcuda.so.1.stubs.c: simgpu/exports/libcuda.so.1.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU_DRIVER_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/cuda.h \
		CUDA_ERROR_NOT_SUPPORTED $(SIMGPU_DRIVER_OBJS) > $@.tmp && mv $@.tmp $@
$(SIMGPU_STUBS)/libcudart.so.13.stubs.c: simgpu/exports/libcudart.so.13.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU_CUDART_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/driver_types.h \
		cudaErrorNotSupported $(SIMGPU_CUDART_OBJS) > $@.tmp && mv $@.tmp $@
$(SIMGPU_STUBS)/libcupti.so.13.stubs.c: simgpu/exports/libcupti.so.13.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU_CUPTI_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/cupti_result.h \
		CUPTI_ERROR_NOT_SUPPORTED $(SIMGPU_CUPTI_OBJS) > $@.tmp && mv $@.tmp $@

SIMGPU_DRIVER := $(SIMGPU_LIB)/libcuda.so.1
SIMGPU_CUDART := $(SIMGPU_LIB)/libcudart.so.13
SIMGPU_CUPTI := $(SIMGPU_LIB)/libcupti.so.13
SIMGPU_LIBS := $(SIMGPU_DRIVER) $(SIMGPU_CUDART) $(SIMGPU_CUPTI) \
	$(SIMGPU_LIB)/libcudart.so $(SIMGPU_LIB)/libcupti.so

all: $(SIMGPU_LIBS)

$(SIMGPU_GEN)/cuda_error_names.h: $(SIMGPU_DIR)/gen_names.sh | check-cuda
	@mkdir -p $(@D)
	$(SIMGPU_DIR)/gen_names.sh $(CUDA_HOME)/include/driver_types.h \
		'^enum __device_builtin__ cudaError$$' '^};' cuda > $@.tmp && mv $@.tmp $@

$(SIMGPU_GEN)/cupti_result_names.h: $(SIMGPU_DIR)/gen_names.sh | check-cuda
	@mkdir -p $(@D)
	$(SIMGPU_DIR)/gen_names.sh $(CUDA_HOME)/include/cupti_result.h \
		'^typedef enum \{' 'CUptiResult;' CUPTI_ > $@.tmp && mv $@.tmp $@

$(SIMGPU_GEN)/cuda_result_names.h: $(SIMGPU_DIR)/gen_names.sh | check-cuda
	@mkdir -p $(@D)
	$(SIMGPU_DIR)/gen_names.sh $(CUDA_HOME)/include/cuda.h \
		'^typedef enum cudaError_enum \{' '^} CUresult;' CUDA_ > $@.tmp && mv $@.tmp $@

$(SIMGPU_GEN)/proc_versions.h: $(SIMGPU_DIR)/driver/gen_proc_versions.sh | check-cuda
	@mkdir -p $(@D)
	$(SIMGPU_DIR)/driver/gen_proc_versions.sh $(CUDA_HOME)/include/cudaTypedefs.h > $@.tmp && mv $@.tmp $@

$(SIMGPU_OBJ)/driver/cuda_proc_address.o: $(SIMGPU_GEN)/proc_versions.h
$(SIMGPU_OBJ)/cudart_errors.o: $(SIMGPU_GEN)/cuda_error_names.h
$(SIMGPU_OBJ)/cupti_activity.o: $(SIMGPU_GEN)/cupti_result_names.h
$(SIMGPU_OBJ)/driver/cuda_api_device.o: $(SIMGPU_GEN)/cuda_result_names.h

# Dependencies name both the relative and the absolute object path: BUILD
# is sometimes given as an absolute path (scripts), sometimes not.
$(SIMGPU_OBJ)/%.o: $(SIMGPU_DIR)/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(SIMGPU_CFLAGS) $(SIMGPU_API_FLAGS) -MT $@ -MT $(abspath $@) -c $< -o $@

# Like the real driver: unversioned symbols; calls inside it never go
# through the PLT, so a preloaded tracer sees only the program's calls.
$(SIMGPU_DRIVER): $(SIMGPU_DRIVER_OBJS) $(SIMGPU_DRIVER_STUB_OBJS) $(SIMGPU_DIR)/driver/libcuda.map
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_DRIVER_OBJS) $(SIMGPU_DRIVER_STUB_OBJS) -Wl,-soname,libcuda.so.1 \
		-Wl,--version-script,$(SIMGPU_DIR)/driver/libcuda.map \
		-Wl,-Bsymbolic-functions -Wl,-z,nodelete $(SAN_LDFLAGS) \
		-pthread -lm -ldl

# cudart and CUPTI dlopen libcuda.so.1 (as the real ones do) and find it
# through their RUNPATH; the driver is a prerequisite, not a dependency.
$(SIMGPU_CUDART): $(SIMGPU_CUDART_OBJS) $(SIMGPU_CUDART_STUB_OBJS) $(SIMGPU_DIR)/libcudart.map $(SIMGPU_DRIVER)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_CUDART_OBJS) $(SIMGPU_CUDART_STUB_OBJS) -Wl,-soname,libcudart.so.13 \
		-Wl,--version-script,$(SIMGPU_DIR)/libcudart.map $(SAN_LDFLAGS) \
		-Wl,-rpath,'$$ORIGIN' -pthread -ldl

$(SIMGPU_CUPTI): $(SIMGPU_CUPTI_OBJS) $(SIMGPU_CUPTI_STUB_OBJS) $(SIMGPU_DIR)/libcupti.map $(SIMGPU_DRIVER)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_CUPTI_OBJS) $(SIMGPU_CUPTI_STUB_OBJS) -Wl,-soname,libcupti.so.13 \
		-Wl,--version-script,$(SIMGPU_DIR)/libcupti.map -Wl,-z,nodelete \
		$(SAN_LDFLAGS) -Wl,-rpath,'$$ORIGIN' \
		-pthread -ldl

$(SIMGPU_LIB)/libcudart.so: $(SIMGPU_CUDART)
	ln -sf libcudart.so.13 $@
$(SIMGPU_LIB)/libcupti.so: $(SIMGPU_CUPTI)
	ln -sf libcupti.so.13 $@

# ---- tests ----
SIMGPU_TEST_NAMES := memory errors timeline virtual_time kernels cupti cupti_callbacks threads graphs \
	cupti_subscribers arrays \
	registration
SIMGPU_TESTS := $(SIMGPU_TEST_NAMES:%=$(BUILD)/tests/test_simgpu_%)
TESTS += $(SIMGPU_TESTS)
all: $(SIMGPU_TESTS)

$(SIMGPU_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_DIR)/test_%.c \
		$(SIMGPU_DIR)/simgpu_test.h $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-lcudart -lcupti -Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# simgpu/driver/test_driver_*.c: the driver alone (libcuda.so.1 only)
# and the whole stack (runtime, CUPTI) reaching it.
SIMGPU_DRIVER_ALONE_TESTS := $(patsubst %,$(BUILD)/tests/test_simgpu_%,\
	driver_api driver_proc_address driver_modules driver_h100 driver_graph_memory)
SIMGPU_DRIVER_STACK_TESTS := $(patsubst %,$(BUILD)/tests/test_simgpu_%,\
	driver_runtime_path pools_devices)
TESTS += $(SIMGPU_DRIVER_ALONE_TESTS) $(SIMGPU_DRIVER_STACK_TESTS)
all: $(SIMGPU_DRIVER_ALONE_TESTS) $(SIMGPU_DRIVER_STACK_TESTS)

$(SIMGPU_DRIVER_ALONE_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_DIR)/driver/test_%.c \
		$(SIMGPU_DIR)/driver/driver_test.h $(SIMGPU_DRIVER)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-l:libcuda.so.1 -Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

$(SIMGPU_DRIVER_STACK_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_DIR)/driver/test_%.c \
		$(SIMGPU_DIR)/driver/driver_test.h $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-lcudart -lcupti -l:libcuda.so.1 -ldl \
		-Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# Graphs on the driver alone, recorded by CUPTI (no runtime: cuInit is
# the test's own).
SIMGPU_DRIVER_CUPTI_TESTS := $(BUILD)/tests/test_simgpu_driver_graphs
TESTS += $(SIMGPU_DRIVER_CUPTI_TESTS)
all: $(SIMGPU_DRIVER_CUPTI_TESTS)
$(SIMGPU_DRIVER_CUPTI_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_DIR)/driver/test_%.c \
		$(SIMGPU_DIR)/driver/driver_test.h $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-lcupti -l:libcuda.so.1 -ldl \
		-Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# The preloaded dlsym spy test_driver_runtime_path re-executes itself under.
SIMGPU_PROC_SPY := $(BUILD)/tests/simgpu_driver/libproc_spy.so
all: $(SIMGPU_PROC_SPY)
$(BUILD)/tests/test_simgpu_driver_runtime_path: | $(SIMGPU_PROC_SPY)
$(SIMGPU_PROC_SPY): $(SIMGPU_DIR)/driver/proc_spy.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -shared -o $@ $< $(SAN_LDFLAGS) -ldl

# The same probe linked once against the REAL libcudart and once against
# simgpu: simgpu/test_real_abi.sh swaps the libraries underneath.
SIMGPU_PROBES := $(SIMGPU_OUT)/abi_probe_real $(SIMGPU_OUT)/abi_probe_sim
all: $(SIMGPU_PROBES)
$(SIMGPU_OUT)/abi_probe_real: $(SIMGPU_DIR)/abi_probe.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $< -o $@ -L$(CUDA_HOME)/lib64 -lcudart $(SAN_LDFLAGS)
$(SIMGPU_OUT)/abi_probe_sim: $(SIMGPU_DIR)/abi_probe.c $(SIMGPU_CUDART) $(SIMGPU_RUNTIME_LINKS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $< -o $@ -L$(SIMGPU_LIB) -lcudart $(SAN_LDFLAGS)

-include $(SIMGPU_CUDART_OBJS:.o=.d) $(SIMGPU_CUPTI_OBJS:.o=.d) \
	$(SIMGPU_DRIVER_OBJS:.o=.d)

# Per-call cost of the simulator itself (README.md, "Cost"): a tool, not a test.
SIMGPU_BENCH := $(SIMGPU_OUT)/bench_cost
all: $(SIMGPU_BENCH)
$(SIMGPU_BENCH): $(SIMGPU_DIR)/bench_cost.c $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $< -o $@ -L$(SIMGPU_LIB) -lcudart -lcupti \
		-Wl,-rpath,'$$ORIGIN/lib' $(SAN_LDFLAGS)

# ---- the CUDA 12 variant (README.md, "CUDA 12 variant") ----
# The same sources with the SONAMEs and version nodes of the CUDA 12
# libraries PyTorch/TensorFlow wheels bring (libcudart.so.12,
# libcupti.so.12), the runtime claiming CUDA 12.8 and CUPTI claiming
# CUDA 12.8's CUPTI API version 26 (so writing its record layouts), beside
# the same driver.
SIMGPU12_OUT := $(BUILD)/simgpu12
SIMGPU12_LIB := $(SIMGPU12_OUT)/lib
SIMGPU12_CUDART_OBJS := $(SIMGPU_CUDART_SRCS:%.c=$(SIMGPU12_OUT)/obj/%.o)
SIMGPU12_CUPTI_OBJS := $(SIMGPU_CUPTI_SRCS:%.c=$(SIMGPU12_OUT)/cupti_obj/%.o)
SIMGPU12_CUPTI_API_VERSION := 26
SIMGPU12_LIBS := $(SIMGPU12_LIB)/libcuda.so.1 $(SIMGPU12_LIB)/libcudart.so.12 \
	$(SIMGPU12_LIB)/libcupti.so.12 $(SIMGPU12_LIB)/libcudart.so \
	$(SIMGPU12_LIB)/libcupti.so
all: $(SIMGPU12_LIBS)

$(SIMGPU12_OUT)/obj/%.o: $(SIMGPU_DIR)/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(SIMGPU_CFLAGS) -D__CUDA_API_VERSION_INTERNAL \
		-DSIMGPU_RUNTIME_VERSION=12080 -MT $@ -MT $(abspath $@) -c $< -o $@
$(SIMGPU12_OUT)/obj/cudart_errors.o: $(SIMGPU_GEN)/cuda_error_names.h

$(SIMGPU12_OUT)/cupti_obj/%.o: $(SIMGPU_DIR)/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(SIMGPU_CFLAGS) -DSIMGPU_CUPTI_API_VERSION=$(SIMGPU12_CUPTI_API_VERSION) \
		-MT $@ -MT $(abspath $@) -c $< -o $@
$(SIMGPU12_OUT)/cupti_obj/cupti_activity.o: $(SIMGPU_GEN)/cupti_result_names.h

$(SIMGPU12_OUT)/%.map: $(SIMGPU_DIR)/%.map
	@mkdir -p $(@D)
	sed 's/\.so\.13/.so.12/g' $< > $@

$(SIMGPU12_LIB)/libcuda.so.1: $(SIMGPU_DRIVER)
	@mkdir -p $(@D)
	cp $< $@

# Stubs from the CUDA 13 lists (the only toolkit here): the variant
# exports CUDA 13's names under the CUDA 12 version nodes.
SIMGPU12_CUDART_STUB_OBJS := $(SIMGPU12_OUT)/stubs/libcudart.so.12.stubs.o $(BUILD)/simgpu/obj/exports/not_supported.o
SIMGPU12_CUPTI_STUB_OBJS := $(SIMGPU12_OUT)/stubs/libcupti.so.12.stubs.o $(BUILD)/simgpu/obj/exports/not_supported.o
$(SIMGPU12_OUT)/stubs/libcudart.so.12.stubs.c: simgpu/exports/libcudart.so.13.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU12_CUDART_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/driver_types.h \
		cudaErrorNotSupported $(SIMGPU12_CUDART_OBJS) > $@.tmp && mv $@.tmp $@
$(SIMGPU12_OUT)/stubs/libcupti.so.12.stubs.c: simgpu/exports/libcupti.so.13.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU12_CUPTI_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/cupti_result.h \
		CUPTI_ERROR_NOT_SUPPORTED $(SIMGPU12_CUPTI_OBJS) > $@.tmp && mv $@.tmp $@

$(SIMGPU12_LIB)/libcudart.so.12: $(SIMGPU12_CUDART_OBJS) $(SIMGPU12_CUDART_STUB_OBJS) $(SIMGPU12_OUT)/libcudart.map \
		$(SIMGPU12_LIB)/libcuda.so.1
	$(CC) -shared -o $@ $(SIMGPU12_CUDART_OBJS) $(SIMGPU12_CUDART_STUB_OBJS) -Wl,-soname,libcudart.so.12 \
		-Wl,--version-script,$(SIMGPU12_OUT)/libcudart.map $(SAN_LDFLAGS) \
		-Wl,-rpath,'$$ORIGIN' -pthread -ldl

$(SIMGPU12_LIB)/libcupti.so.12: $(SIMGPU12_CUPTI_OBJS) $(SIMGPU12_CUPTI_STUB_OBJS) $(SIMGPU12_OUT)/libcupti.map \
		$(SIMGPU12_LIB)/libcuda.so.1
	$(CC) -shared -o $@ $(SIMGPU12_CUPTI_OBJS) $(SIMGPU12_CUPTI_STUB_OBJS) -Wl,-soname,libcupti.so.12 \
		-Wl,--version-script,$(SIMGPU12_OUT)/libcupti.map -Wl,-z,nodelete \
		$(SAN_LDFLAGS) -Wl,-rpath,'$$ORIGIN' -pthread -ldl

$(SIMGPU12_LIB)/libcudart.so: $(SIMGPU12_LIB)/libcudart.so.12
	ln -sf libcudart.so.12 $@
$(SIMGPU12_LIB)/libcupti.so: $(SIMGPU12_LIB)/libcupti.so.12
	ln -sf libcupti.so.12 $@

-include $(SIMGPU12_CUDART_OBJS:.o=.d) $(SIMGPU12_CUPTI_OBJS:.o=.d)

# Programs linked against the CUDA 12 runtime and CUPTI run on the variant:
# test_driver_cuda12 (library discovery), test_cupti12_records (the records).
SIMGPU12_TESTS := $(BUILD)/tests/test_simgpu_driver_cuda12 \
	$(BUILD)/tests/test_simgpu_cupti12_records
TESTS += $(SIMGPU12_TESTS)
all: $(SIMGPU12_TESTS)
$(BUILD)/tests/test_simgpu_driver_cuda12: $(SIMGPU_DIR)/driver/test_driver_cuda12.c
$(BUILD)/tests/test_simgpu_cupti12_records: $(SIMGPU_DIR)/test_cupti12_records.c
$(SIMGPU12_TESTS): $(SIMGPU_DIR)/simgpu_test.h $(SIMGPU12_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $(filter %.c,$^) -o $@ -L$(SIMGPU12_LIB) \
		-lcudart -lcupti -Wl,-rpath,'$$ORIGIN/../simgpu12/lib' $(SAN_LDFLAGS)

# The fatbin reader alone (core_fatbin.c) on nvcc's output of
# tests/nvcc/nv_kernels.cu (built by tests/nvcc/module.mk) and corrupted
# copies of it.
SIMGPU_FATBIN_TEST := $(BUILD)/tests/test_simgpu_fatbin
TESTS += $(SIMGPU_FATBIN_TEST)
all: $(SIMGPU_FATBIN_TEST)
$(SIMGPU_FATBIN_TEST): $(SIMGPU_DIR)/test_fatbin.c $(SIMGPU_DIR)/core_fatbin.c \
		$(SIMGPU_DIR)/core_fatbin.h | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $(SIMGPU_DIR)/test_fatbin.c $(SIMGPU_DIR)/core_fatbin.c \
		-o $@ $(SAN_LDFLAGS) -ldl

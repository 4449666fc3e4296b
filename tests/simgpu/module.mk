# tests/simgpu: the simulated CUDA stack (README.md). Builds
#   $(BUILD)/simgpu/lib/libcudart.so.13 and libcupti.so.13 (+ .so links),
# against the real toolkit headers, and the simgpu tests. Owns no other paths.

SIMGPU_DIR := tests/simgpu
SIMGPU_OUT := $(BUILD)/simgpu
SIMGPU_LIB := $(SIMGPU_OUT)/lib
SIMGPU_GEN := $(SIMGPU_OUT)/gen
SIMGPU_OBJ := $(SIMGPU_OUT)/obj

SIMGPU_CUDART_SRCS := cudart_timeline.c cudart_memory.c cudart_errors.c \
	cudart_kernels.c cudart_api_memory.c cudart_api_exec.c
SIMGPU_CUPTI_SRCS := cupti_activity.c
SIMGPU_CUDART_OBJS := $(SIMGPU_CUDART_SRCS:%.c=$(SIMGPU_OBJ)/%.o)
SIMGPU_CUPTI_OBJS := $(SIMGPU_CUPTI_SRCS:%.c=$(SIMGPU_OBJ)/%.o)

# __CUDA_API_VERSION_INTERNAL makes cuda_runtime_api.h declare both the
# plain entry points and their _ptds/_ptsz twins, so the compiler checks
# every definition here against the real prototypes.
# (Only for cudart: cupti.h does not compile with it.)
SIMGPU_CFLAGS := $(CFLAGS) $(CUDA_CFLAGS) -I$(SIMGPU_GEN) -pthread -MMD -MP
$(SIMGPU_CUDART_OBJS): SIMGPU_API_FLAGS := -D__CUDA_API_VERSION_INTERNAL

SIMGPU_CUDART := $(SIMGPU_LIB)/libcudart.so.13
SIMGPU_CUPTI := $(SIMGPU_LIB)/libcupti.so.13
SIMGPU_LIBS := $(SIMGPU_CUDART) $(SIMGPU_CUPTI) \
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

$(SIMGPU_OBJ)/cudart_errors.o: $(SIMGPU_GEN)/cuda_error_names.h
$(SIMGPU_OBJ)/cupti_activity.o: $(SIMGPU_GEN)/cupti_result_names.h

# Dependencies name both the relative and the absolute object path: BUILD
# is sometimes given as an absolute path (scripts), sometimes not.
$(SIMGPU_OBJ)/%.o: $(SIMGPU_DIR)/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(SIMGPU_CFLAGS) $(SIMGPU_API_FLAGS) -MT $@ -MT $(abspath $@) -c $< -o $@

$(SIMGPU_CUDART): $(SIMGPU_CUDART_OBJS) $(SIMGPU_DIR)/libcudart.map
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_CUDART_OBJS) -Wl,-soname,libcudart.so.13 \
		-Wl,--version-script,$(SIMGPU_DIR)/libcudart.map $(SAN_LDFLAGS) \
		-pthread -lm

$(SIMGPU_CUPTI): $(SIMGPU_CUPTI_OBJS) $(SIMGPU_DIR)/libcupti.map
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_CUPTI_OBJS) -Wl,-soname,libcupti.so.13 \
		-Wl,--version-script,$(SIMGPU_DIR)/libcupti.map -Wl,-z,nodelete \
		$(SAN_LDFLAGS) \
		-pthread -ldl

$(SIMGPU_LIB)/libcudart.so: $(SIMGPU_CUDART)
	ln -sf libcudart.so.13 $@
$(SIMGPU_LIB)/libcupti.so: $(SIMGPU_CUPTI)
	ln -sf libcupti.so.13 $@

# ---- tests ----
SIMGPU_TEST_NAMES := memory errors timeline kernels cupti threads
SIMGPU_TESTS := $(SIMGPU_TEST_NAMES:%=$(BUILD)/tests/test_simgpu_%)
TESTS += $(SIMGPU_TESTS)
all: $(SIMGPU_TESTS)

$(SIMGPU_TESTS): $(BUILD)/tests/test_simgpu_%: $(SIMGPU_DIR)/test_%.c \
		$(SIMGPU_DIR)/simgpu_test.h $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(SIMGPU_LIB) \
		-lcudart -lcupti -Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

# The same probe linked once against the REAL libcudart and once against
# simgpu: tests/simgpu/test_real_abi.sh swaps the libraries underneath.
SIMGPU_PROBES := $(SIMGPU_OUT)/abi_probe_real $(SIMGPU_OUT)/abi_probe_sim
all: $(SIMGPU_PROBES)
$(SIMGPU_OUT)/abi_probe_real: $(SIMGPU_DIR)/abi_probe.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $< -o $@ -L$(CUDA_HOME)/lib64 -lcudart $(SAN_LDFLAGS)
$(SIMGPU_OUT)/abi_probe_sim: $(SIMGPU_DIR)/abi_probe.c $(SIMGPU_CUDART)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $< -o $@ -L$(SIMGPU_LIB) -lcudart $(SAN_LDFLAGS)

-include $(SIMGPU_CUDART_OBJS:.o=.d) $(SIMGPU_CUPTI_OBJS:.o=.d)

# Per-call cost of the simulator itself (README.md, "Cost"): a tool, not a test.
SIMGPU_BENCH := $(SIMGPU_OUT)/bench_cost
all: $(SIMGPU_BENCH)
$(SIMGPU_BENCH): $(SIMGPU_DIR)/bench_cost.c $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $< -o $@ -L$(SIMGPU_LIB) -lcudart -lcupti \
		-Wl,-rpath,'$$ORIGIN/lib' $(SAN_LDFLAGS)

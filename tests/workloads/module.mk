# tests/workloads/module.mk: the simulated-framework workloads with ground
# truth, built as $(BUILD)/workloads/<name> against the simulated libcudart
# ($(BUILD)/simgpu/lib). Run them with that directory on LD_LIBRARY_PATH.
# cnn_train and mxnet_net also link the simulated cuDNN, cuBLAS and cuBLASLt.

WORKLOADS_NAMES := mlp_train stress_threads failed_alloc g10_replay graph_steps nvtx_steps \
	torch_async_alloc mem_categories energy_kernels overhead_ops crash_modes event_flood device_reset \
	host_copies host_register child_graphs
WORKLOADS := $(addprefix $(BUILD)/workloads/,$(WORKLOADS_NAMES))
WORKLOADS_COMMON_OBJS := $(BUILD)/workloads/obj/workload.o $(BUILD)/workloads/obj/truth.o
WORKLOADS_CUDART := $(BUILD)/simgpu/lib/libcudart.so
WORKLOADS_LDLIBS := -L$(BUILD)/simgpu/lib -lcudart -lpthread -ldl

WORKLOADS_LIB_NAMES := cnn_train mxnet_net
WORKLOADS_LIB_OBJS := $(WORKLOADS_COMMON_OBJS) $(BUILD)/workloads/obj/lib_workload.o
WORKLOADS_SIM_LIBS := $(addprefix $(BUILD)/simgpu/lib/,libcudnn.so libcublas.so libcublasLt.so)
WORKLOADS_LIB_LDLIBS := -L$(BUILD)/simgpu/lib -lcudnn -lcublas -lcublasLt -lcudart -lpthread -ldl

all: $(WORKLOADS) $(addprefix $(BUILD)/workloads/,$(WORKLOADS_LIB_NAMES))

$(BUILD)/workloads/obj/lib_workload.o $(addprefix $(BUILD)/workloads/obj/,$(WORKLOADS_LIB_NAMES:=.o)): \
	tests/workloads/lib_workload.h

$(addprefix $(BUILD)/workloads/,$(WORKLOADS_LIB_NAMES)): $(BUILD)/workloads/%: \
		$(BUILD)/workloads/obj/%.o $(WORKLOADS_LIB_OBJS) $(WORKLOADS_CUDART) $(WORKLOADS_SIM_LIBS)
	$(CC) $(CFLAGS) $(SAN_LDFLAGS) -o $@ $< $(WORKLOADS_LIB_OBJS) $(WORKLOADS_LIB_LDLIBS)

$(BUILD)/workloads/obj/%.o: tests/workloads/%.c tests/workloads/workload.h \
		tests/workloads/truth.h simgpu/simgpu.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -c $< -o $@

$(BUILD)/workloads/%: $(BUILD)/workloads/obj/%.o $(WORKLOADS_COMMON_OBJS) $(WORKLOADS_CUDART)
	$(CC) $(CFLAGS) $(SAN_LDFLAGS) -o $@ $< $(WORKLOADS_COMMON_OBJS) $(WORKLOADS_LDLIBS)

# context_reset: the driver API alone (simgpu's libcuda.so.1, which also
# exports simgpu.h's functions), so no runtime holds the primary context.
all: $(BUILD)/workloads/context_reset
$(BUILD)/workloads/context_reset: $(BUILD)/workloads/obj/context_reset.o $(WORKLOADS_CUDART)
	$(CC) $(CFLAGS) $(SAN_LDFLAGS) -o $@ $< -L$(BUILD)/simgpu/lib -l:libcuda.so.1 -lpthread -ldl

# Keep the objects: they are intermediate files of the pattern rules above.
.PRECIOUS: $(BUILD)/workloads/obj/%.o

# The real-library checks (tests/e2e/test_real_libraries.sh): linked to the
# REAL toolkit by SONAME (libcuda.so.1 through the toolkit's link stub, as
# applications link it); the test picks the libraries with LD_LIBRARY_PATH.
WORKLOADS_REAL := $(BUILD)/workloads/real_runtime_calls $(BUILD)/workloads/real_driver_calls
all: $(WORKLOADS_REAL)

$(BUILD)/workloads/real_runtime_calls: $(BUILD)/workloads/obj/real_runtime_calls.o
	$(CC) $(CFLAGS) $(SAN_LDFLAGS) -o $@ $< -L$(CUDA_HOME)/lib64 -lcudnn -lcublas -lcudart -ldl

$(BUILD)/workloads/real_driver_calls: $(BUILD)/workloads/obj/real_driver_calls.o
	$(CC) $(CFLAGS) $(SAN_LDFLAGS) -o $@ $< -L$(CUDA_HOME)/lib64/stubs -lcuda -ldl

# Framework-style loading: a host program linking no CUDA library (built
# from plugin_host.c under each name) dlopen()s NAME_plugin.so RTLD_LOCAL.
# tf_style's plugin dlopen()s libcudart.so.13 and libcuda.so.1 itself
# (TensorFlow); vmm_segments' plugin links libcudart.so.13 (libtorch_cuda)
# and reaches the driver through cudaGetDriverEntryPointByVersion (PyTorch's
# DriverAPI). Both run on the simulated driver (libcuda.so.1).
WORKLOADS_PLUGGED := $(BUILD)/workloads/tf_style $(BUILD)/workloads/vmm_segments
all: $(WORKLOADS_PLUGGED)

$(WORKLOADS_PLUGGED): $(BUILD)/workloads/%: $(BUILD)/workloads/obj/plugin_host.o \
		$(BUILD)/workloads/%_plugin.so
	$(CC) $(CFLAGS) $(SAN_LDFLAGS) -o $@ $< -ldl

$(BUILD)/workloads/tf_style_plugin.so: $(BUILD)/workloads/obj/tf_style_plugin.o $(BUILD)/workloads/obj/truth.o
	$(CC) $(CFLAGS) $(SAN_LDFLAGS) -shared -o $@ $^ -ldl

$(BUILD)/workloads/vmm_segments_plugin.so: $(BUILD)/workloads/obj/vmm_segments_plugin.o \
		$(WORKLOADS_COMMON_OBJS) $(WORKLOADS_CUDART)
	$(CC) $(CFLAGS) $(SAN_LDFLAGS) -shared -o $@ $< $(WORKLOADS_COMMON_OBJS) $(WORKLOADS_LDLIBS)

# Preloaded by tests/e2e/test_compare_real_gpu.sh: a simgpu run that differs
# from its truth as a real GPU's does (library-internal allocations, other
# kernel times), for compare.py's real-GPU mode.
all: $(BUILD)/workloads/real_gpu_like.so

$(BUILD)/workloads/real_gpu_like.so: tests/workloads/real_gpu_like.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN_LDFLAGS) -shared -o $@ $< -ldl

# simgpu/core: the simulated device (timeline, memory, kernels, copies and
# sets, graphs, modules, power, the sticky error, CUPTI reports). Builds its
# objects, $(BUILD)/simgpu/obj/core/*.o, which driver/module.mk links into
# libcuda.so.1 with the driver API; no library of its own. The core never
# calls an API layer (simgpu/tests/test_layering.sh checks these objects).

SIMGPU_CORE_SRCS := $(addprefix core/,core_timeline.c core_memory.c \
	core_sticky_error.c core_kernels.c core_alloc.c core_transfer.c \
	core_sync.c core_report.c core_vmm.c core_graph_memory.c core_graphs.c core_power.c \
	core_fatbin.c core_modules.c core_driver_state.c)
$(call simgpu_all_built,core,$(SIMGPU_CORE_SRCS))
SIMGPU_CORE_OBJS := $(SIMGPU_CORE_SRCS:%.c=$(SIMGPU_OBJ)/%.o)

# Inside the driver, which is dlopen()ed: its few thread-locals go in
# static TLS (as glibc allows for small amounts), not dynamic TLS, which
# LeakSanitizer cannot scan. Dependencies name both the relative and the
# absolute object path: BUILD is sometimes given as an absolute path
# (scripts), sometimes not.
$(SIMGPU_OBJ)/core/%.o: $(SIMGPU_DIR)/core/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(SIMGPU_CFLAGS) -D__CUDA_API_VERSION_INTERNAL -ftls-model=initial-exec \
		-MT $@ -MT $(abspath $@) -c $< -o $@

# The names of cuda.h's CUresult values (cuGetErrorName's table).
$(SIMGPU_GEN)/cuda_result_names.h: $(SIMGPU_GEN_NAMES) | check-cuda
	@mkdir -p $(@D)
	$(SIMGPU_GEN_NAMES) $(CUDA_HOME)/include/cuda.h \
		'^typedef enum cudaError_enum \{' '^} CUresult;' CUDA_ > $@.tmp && mv $@.tmp $@
$(SIMGPU_OBJ)/core/core_driver_state.o: $(SIMGPU_GEN)/cuda_result_names.h

-include $(SIMGPU_CORE_OBJS:.o=.d)

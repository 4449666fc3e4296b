# simgpu/cudart: the simulated runtime, a layer over the driver that keeps
# no device state. Builds $(BUILD)/simgpu/lib/libcudart.so.13 (+ the
# libcudart.so link) and the CUDA 12 variant's
# $(BUILD)/simgpu12/lib/libcudart.so.12 (+ link), which claims CUDA 12.8.

SIMGPU_CUDART_SRCS := $(addprefix cudart/,cudart_driver.c cudart_errors.c \
	cudart_api_memory.c cudart_api_exec.c cudart_api_kernels.c \
	cudart_api_graphs.c cudart_api_modules.c cudart_api_properties.c \
	cudart_api_host.c cudart_api_arrays.c cudart_api_graph_memory.c cudart_api_graph_enable.c)
$(call simgpu_all_built,cudart,$(SIMGPU_CUDART_SRCS))
SIMGPU_CUDART_OBJS := $(SIMGPU_CUDART_SRCS:%.c=$(SIMGPU_OBJ)/%.o)
SIMGPU12_CUDART_OBJS := $(SIMGPU_CUDART_SRCS:%.c=$(SIMGPU12_OUT)/obj/%.o)

$(SIMGPU_GEN)/cuda_error_names.h: $(SIMGPU_GEN_NAMES) | check-cuda
	@mkdir -p $(@D)
	$(SIMGPU_GEN_NAMES) $(CUDA_HOME)/include/driver_types.h \
		'^enum __device_builtin__ cudaError$$' '^};' cuda > $@.tmp && mv $@.tmp $@
$(SIMGPU_OBJ)/cudart/cudart_errors.o $(SIMGPU12_OUT)/obj/cudart/cudart_errors.o: \
	$(SIMGPU_GEN)/cuda_error_names.h

$(SIMGPU_OBJ)/cudart/%.o: $(SIMGPU_DIR)/cudart/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(SIMGPU_CFLAGS) -D__CUDA_API_VERSION_INTERNAL \
		-MT $@ -MT $(abspath $@) -c $< -o $@
$(SIMGPU12_OUT)/obj/cudart/%.o: $(SIMGPU_DIR)/cudart/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(SIMGPU_CFLAGS) -D__CUDA_API_VERSION_INTERNAL \
		-DSIMGPU_RUNTIME_VERSION=12080 -MT $@ -MT $(abspath $@) -c $< -o $@

# "Not supported" stubs (simgpu/exports/); the variant takes the CUDA 13
# list (the only toolkit here) under the CUDA 12 version node.
SIMGPU_CUDART_STUB_OBJS := $(SIMGPU_STUBS)/libcudart.so.13.stubs.o $(SIMGPU_OBJ)/exports/not_supported.o
SIMGPU12_CUDART_STUB_OBJS := $(SIMGPU12_OUT)/stubs/libcudart.so.12.stubs.o $(SIMGPU_OBJ)/exports/not_supported.o
$(SIMGPU_STUBS)/libcudart.so.13.stubs.c: simgpu/exports/libcudart.so.13.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU_CUDART_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/driver_types.h \
		cudaErrorNotSupported $(SIMGPU_CUDART_OBJS) > $@.tmp && mv $@.tmp $@
$(SIMGPU12_OUT)/stubs/libcudart.so.12.stubs.c: simgpu/exports/libcudart.so.13.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU12_CUDART_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/driver_types.h \
		cudaErrorNotSupported $(SIMGPU12_CUDART_OBJS) > $@.tmp && mv $@.tmp $@

all: $(SIMGPU_CUDART) $(SIMGPU_LIB)/libcudart.so \
	$(SIMGPU12_LIB)/libcudart.so.12 $(SIMGPU12_LIB)/libcudart.so

# cudart dlopens libcuda.so.1 (as the real one does) and finds it through
# its RUNPATH; the driver is a prerequisite, not a dependency.
$(SIMGPU_CUDART): $(SIMGPU_CUDART_OBJS) $(SIMGPU_CUDART_STUB_OBJS) \
		$(SIMGPU_DIR)/cudart/libcudart.map $(SIMGPU_DRIVER)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_CUDART_OBJS) $(SIMGPU_CUDART_STUB_OBJS) -Wl,-soname,libcudart.so.13 \
		-Wl,--version-script,$(SIMGPU_DIR)/cudart/libcudart.map $(SAN_LDFLAGS) \
		-Wl,-rpath,'$$ORIGIN' -pthread -ldl
$(SIMGPU_LIB)/libcudart.so: $(SIMGPU_CUDART)
	ln -sf libcudart.so.13 $@

$(SIMGPU12_OUT)/cudart/libcudart.map: $(SIMGPU_DIR)/cudart/libcudart.map
	@mkdir -p $(@D)
	sed 's/\.so\.13/.so.12/g' $< > $@
$(SIMGPU12_LIB)/libcudart.so.12: $(SIMGPU12_CUDART_OBJS) $(SIMGPU12_CUDART_STUB_OBJS) \
		$(SIMGPU12_OUT)/cudart/libcudart.map $(SIMGPU12_LIB)/libcuda.so.1
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU12_CUDART_OBJS) $(SIMGPU12_CUDART_STUB_OBJS) -Wl,-soname,libcudart.so.12 \
		-Wl,--version-script,$(SIMGPU12_OUT)/cudart/libcudart.map $(SAN_LDFLAGS) \
		-Wl,-rpath,'$$ORIGIN' -pthread -ldl
$(SIMGPU12_LIB)/libcudart.so: $(SIMGPU12_LIB)/libcudart.so.12
	ln -sf libcudart.so.12 $@

-include $(SIMGPU_CUDART_OBJS:.o=.d) $(SIMGPU12_CUDART_OBJS:.o=.d)

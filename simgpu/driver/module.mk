# simgpu/driver: the simulated driver API (cuda_api_*.c, cuda_proc_address.c)
# and the library it makes with the core, $(BUILD)/simgpu/lib/libcuda.so.1
# (plus the CUDA 12 variant's copy in $(BUILD)/simgpu12/lib).

SIMGPU_DRIVER_API_SRCS := $(addprefix driver/,cuda_api_device.c \
	cuda_api_memory.c cuda_api_vmm.c cuda_api_transfer.c cuda_api_exec.c \
	cuda_api_graphs.c cuda_api_graph_memory.c cuda_proc_address.c cuda_api_occupancy.c \
	cuda_api_attach.c cuda_api_arrays.c cuda_api_graph_enable.c)
$(call simgpu_all_built,driver,$(SIMGPU_DRIVER_API_SRCS))
SIMGPU_DRIVER_API_OBJS := $(SIMGPU_DRIVER_API_SRCS:%.c=$(SIMGPU_OBJ)/%.o)
# Everything libcuda.so.1 is made of (the stubs are generated from these).
SIMGPU_DRIVER_OBJS := $(SIMGPU_CORE_OBJS) $(SIMGPU_DRIVER_API_OBJS)

# As in core/: static TLS inside the dlopen()ed driver.
$(SIMGPU_OBJ)/driver/%.o: $(SIMGPU_DIR)/driver/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(SIMGPU_CFLAGS) -D__CUDA_API_VERSION_INTERNAL -ftls-model=initial-exec \
		-MT $@ -MT $(abspath $@) -c $< -o $@

# cudaTypedefs.h's versions of every entry point, for cuGetProcAddress's
# names the table lacks (cuda_proc_address.c).
$(SIMGPU_GEN)/proc_versions.h: $(SIMGPU_DIR)/driver/gen_proc_versions.sh | check-cuda
	@mkdir -p $(@D)
	$(SIMGPU_DIR)/driver/gen_proc_versions.sh $(CUDA_HOME)/include/cudaTypedefs.h > $@.tmp && mv $@.tmp $@
$(SIMGPU_OBJ)/driver/cuda_proc_address.o: $(SIMGPU_GEN)/proc_versions.h

# Every function the real library exports and these objects do not define
# becomes a "not supported" stub (simgpu/exports/: gen_stubs.sh reads the
# objects' symbols, so an implementation added anywhere wins by itself).
SIMGPU_DRIVER_STUB_OBJS := $(SIMGPU_STUBS)/libcuda.so.1.stubs.o $(SIMGPU_OBJ)/exports/not_supported.o
$(SIMGPU_STUBS)/libcuda.so.1.stubs.c: simgpu/exports/libcuda.so.1.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU_DRIVER_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/cuda.h \
		CUDA_ERROR_NOT_SUPPORTED $(SIMGPU_DRIVER_OBJS) > $@.tmp && mv $@.tmp $@

all: $(SIMGPU_DRIVER)

# Like the real driver: unversioned symbols; calls inside it never go
# through the PLT, so a preloaded tracer sees only the program's calls.
$(SIMGPU_DRIVER): $(SIMGPU_DRIVER_OBJS) $(SIMGPU_DRIVER_STUB_OBJS) $(SIMGPU_DIR)/driver/libcuda.map
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_DRIVER_OBJS) $(SIMGPU_DRIVER_STUB_OBJS) -Wl,-soname,libcuda.so.1 \
		-Wl,--version-script,$(SIMGPU_DIR)/driver/libcuda.map \
		-Wl,-Bsymbolic-functions -Wl,-z,nodelete $(SAN_LDFLAGS) \
		-pthread -lm -ldl

# The CUDA 12 variant runs on the same driver.
all: $(SIMGPU12_LIB)/libcuda.so.1
$(SIMGPU12_LIB)/libcuda.so.1: $(SIMGPU_DRIVER)
	@mkdir -p $(@D)
	cp $< $@

-include $(SIMGPU_DRIVER_API_OBJS:.o=.d)

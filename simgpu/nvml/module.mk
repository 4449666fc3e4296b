# simgpu/nvml: the simulated libnvidia-ml.so.1 (NVML's real SONAME)
# in $(BUILD)/simgpu/lib, beside the simulated driver whose power model it
# reads (simgpu/README.md, "Power"). It dlopens libcuda.so.1 as the
# simulated runtime does; nothing links to it.

SIMGPU_NVML_DIR := simgpu/nvml
SIMGPU_NVML_OBJ := $(BUILD)/simgpu/obj/nvml
SIMGPU_NVML_LIB := $(BUILD)/simgpu/lib/libnvidia-ml.so.1

all: $(SIMGPU_NVML_LIB)

$(SIMGPU_NVML_OBJ)/%.o: $(SIMGPU_NVML_DIR)/%.c $(SIMGPU_NVML_DIR)/nvml_api.h \
		simgpu/core/simgpu_power_private.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -pthread -c $< -o $@

$(SIMGPU_NVML_LIB): $(SIMGPU_NVML_OBJ)/nvml_device.o $(SIMGPU_NVML_DIR)/libnvidia-ml.map
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_NVML_OBJ)/nvml_device.o -Wl,-soname,libnvidia-ml.so.1 \
		-Wl,--version-script,$(SIMGPU_NVML_DIR)/libnvidia-ml.map $(SAN_LDFLAGS) \
		-pthread -ldl

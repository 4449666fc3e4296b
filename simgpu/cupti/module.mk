# simgpu/cupti: the simulated CUPTI (activity records, callback API), which
# loads libcuda.so.1 and attaches to it. Builds
# $(BUILD)/simgpu/lib/libcupti.so.13 (+ the libcupti.so link) and the CUDA 12
# variant's $(BUILD)/simgpu12/lib/libcupti.so.12 (+ link), claiming CUDA
# 12.8's CUPTI API version 26 (so writing its record layouts).

SIMGPU_CUPTI_SRCS := $(addprefix cupti/,cupti_activity.c cupti_callbacks.c)
$(call simgpu_all_built,cupti,$(SIMGPU_CUPTI_SRCS))
SIMGPU_CUPTI_OBJS := $(SIMGPU_CUPTI_SRCS:%.c=$(SIMGPU_OBJ)/%.o)
SIMGPU12_CUPTI_OBJS := $(SIMGPU_CUPTI_SRCS:%.c=$(SIMGPU12_OUT)/obj/%.o)
SIMGPU12_CUPTI_API_VERSION := 26

$(SIMGPU_GEN)/cupti_result_names.h: $(SIMGPU_GEN_NAMES) | check-cuda
	@mkdir -p $(@D)
	$(SIMGPU_GEN_NAMES) $(CUDA_HOME)/include/cupti_result.h \
		'^typedef enum \{' 'CUptiResult;' CUPTI_ > $@.tmp && mv $@.tmp $@
$(SIMGPU_OBJ)/cupti/cupti_activity.o $(SIMGPU12_OUT)/obj/cupti/cupti_activity.o: \
	$(SIMGPU_GEN)/cupti_result_names.h

# Not with __CUDA_API_VERSION_INTERNAL: cupti.h does not compile with it.
$(SIMGPU_OBJ)/cupti/%.o: $(SIMGPU_DIR)/cupti/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(SIMGPU_CFLAGS) -MT $@ -MT $(abspath $@) -c $< -o $@
$(SIMGPU12_OUT)/obj/cupti/%.o: $(SIMGPU_DIR)/cupti/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(SIMGPU_CFLAGS) -DSIMGPU_CUPTI_API_VERSION=$(SIMGPU12_CUPTI_API_VERSION) \
		-MT $@ -MT $(abspath $@) -c $< -o $@

# "Not supported" stubs (simgpu/exports/), the variant's from the CUDA 13 list.
SIMGPU_CUPTI_STUB_OBJS := $(SIMGPU_STUBS)/libcupti.so.13.stubs.o $(SIMGPU_OBJ)/exports/not_supported.o
SIMGPU12_CUPTI_STUB_OBJS := $(SIMGPU12_OUT)/stubs/libcupti.so.12.stubs.o $(SIMGPU_OBJ)/exports/not_supported.o
$(SIMGPU_STUBS)/libcupti.so.13.stubs.c: simgpu/exports/libcupti.so.13.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU_CUPTI_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/cupti_result.h \
		CUPTI_ERROR_NOT_SUPPORTED $(SIMGPU_CUPTI_OBJS) > $@.tmp && mv $@.tmp $@
$(SIMGPU12_OUT)/stubs/libcupti.so.12.stubs.c: simgpu/exports/libcupti.so.13.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU12_CUPTI_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/cupti_result.h \
		CUPTI_ERROR_NOT_SUPPORTED $(SIMGPU12_CUPTI_OBJS) > $@.tmp && mv $@.tmp $@

all: $(SIMGPU_CUPTI) $(SIMGPU_LIB)/libcupti.so \
	$(SIMGPU12_LIB)/libcupti.so.12 $(SIMGPU12_LIB)/libcupti.so

# Loads libcuda.so.1 through its RUNPATH (a prerequisite, not a
# dependency); -z nodelete: a dlclose must not unmap it under its worker.
$(SIMGPU_CUPTI): $(SIMGPU_CUPTI_OBJS) $(SIMGPU_CUPTI_STUB_OBJS) \
		$(SIMGPU_DIR)/cupti/libcupti.map $(SIMGPU_DRIVER)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_CUPTI_OBJS) $(SIMGPU_CUPTI_STUB_OBJS) -Wl,-soname,libcupti.so.13 \
		-Wl,--version-script,$(SIMGPU_DIR)/cupti/libcupti.map -Wl,-z,nodelete \
		$(SAN_LDFLAGS) -Wl,-rpath,'$$ORIGIN' -pthread -ldl
$(SIMGPU_LIB)/libcupti.so: $(SIMGPU_CUPTI)
	ln -sf libcupti.so.13 $@

$(SIMGPU12_OUT)/cupti/libcupti.map: $(SIMGPU_DIR)/cupti/libcupti.map
	@mkdir -p $(@D)
	sed 's/\.so\.13/.so.12/g' $< > $@
$(SIMGPU12_LIB)/libcupti.so.12: $(SIMGPU12_CUPTI_OBJS) $(SIMGPU12_CUPTI_STUB_OBJS) \
		$(SIMGPU12_OUT)/cupti/libcupti.map $(SIMGPU12_LIB)/libcuda.so.1
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU12_CUPTI_OBJS) $(SIMGPU12_CUPTI_STUB_OBJS) -Wl,-soname,libcupti.so.12 \
		-Wl,--version-script,$(SIMGPU12_OUT)/cupti/libcupti.map -Wl,-z,nodelete \
		$(SAN_LDFLAGS) -Wl,-rpath,'$$ORIGIN' -pthread -ldl
$(SIMGPU12_LIB)/libcupti.so: $(SIMGPU12_LIB)/libcupti.so.12
	ln -sf libcupti.so.12 $@

-include $(SIMGPU_CUPTI_OBJS:.o=.d) $(SIMGPU12_CUPTI_OBJS:.o=.d)

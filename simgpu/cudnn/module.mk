# simgpu/cudnn: the simulated cuDNN 9 (README.md). Builds
#   $(BUILD)/simgpu/lib/libcudnn.so.9 (+ libcudnn.so link), one library with
# the real SONAME and version node, compiled against the real cudnn*.h, linked
# to the simulated libcudart (its tests: simgpu/tests/module.mk).

SIMCUDNN_DIR := simgpu/cudnn
SIMCUDNN_LIBDIR := $(BUILD)/simgpu/lib
SIMCUDNN_OBJ := $(BUILD)/simgpu/cudnn/obj
SIMCUDNN_GEN := $(BUILD)/simgpu/cudnn/gen
SIMCUDNN_SRCS := cudnn_handle.c cudnn_tensor_desc.c cudnn_op_desc.c cudnn_conv.c \
	cudnn_ops_calls.c $(notdir $(wildcard $(SIMCUDNN_DIR)/cudnn_backend*.c))
SIMCUDNN_OBJS := $(SIMCUDNN_SRCS:%.c=$(SIMCUDNN_OBJ)/%.o)
SIMCUDNN_LIB := $(SIMCUDNN_LIBDIR)/libcudnn.so.9
SIMCUDNN_CUDART := $(SIMCUDNN_LIBDIR)/libcudart.so.13

all: $(SIMCUDNN_LIB) $(SIMCUDNN_LIBDIR)/libcudnn.so

$(SIMCUDNN_GEN)/cudnn_status_names.h: $(SIMGPU_GEN_NAMES) | check-cuda
	@mkdir -p $(@D)
	$(SIMGPU_GEN_NAMES) $(CUDA_HOME)/include/cudnn_graph.h \
		'^typedef enum \{' 'cudnnStatus_t;' CUDNN_STATUS_ > $@.tmp && mv $@.tmp $@

$(SIMCUDNN_OBJ)/cudnn_handle.o: $(SIMCUDNN_GEN)/cudnn_status_names.h

$(SIMCUDNN_OBJ)/%.o: $(SIMCUDNN_DIR)/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -I$(SIMCUDNN_GEN) -pthread -MMD -MP \
		-MT $@ -MT $(abspath $@) -c $< -o $@

# "Not supported" stubs for what the real library exports and these
# objects do not define (simgpu/exports/module.mk).
SIMCUDNN_STUB_OBJS := $(BUILD)/simgpu/stubs/libcudnn.so.9.stubs.o $(BUILD)/simgpu/obj/exports/not_supported.o
$(BUILD)/simgpu/stubs/libcudnn.so.9.stubs.c: simgpu/exports/libcudnn.so.9.exports \
		simgpu/exports/gen_stubs.sh $(SIMCUDNN_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/cudnn_graph.h \
		CUDNN_STATUS_NOT_SUPPORTED $(SIMCUDNN_OBJS) > $@.tmp && mv $@.tmp $@

$(SIMCUDNN_LIB): $(SIMCUDNN_OBJS) $(SIMCUDNN_STUB_OBJS) $(SIMCUDNN_DIR)/libcudnn.map $(SIMCUDNN_CUDART) $(SIMGPU_RUNTIME_LINKS)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMCUDNN_OBJS) $(SIMCUDNN_STUB_OBJS) -Wl,-soname,libcudnn.so.9 \
		-Wl,--version-script,$(SIMCUDNN_DIR)/libcudnn.map \
		-L$(SIMCUDNN_LIBDIR) -lcudart -Wl,-rpath,'$$ORIGIN' $(SAN_LDFLAGS) -pthread

$(SIMCUDNN_LIBDIR)/libcudnn.so: $(SIMCUDNN_LIB)
	ln -sf libcudnn.so.9 $@

-include $(SIMCUDNN_OBJS:.o=.d)

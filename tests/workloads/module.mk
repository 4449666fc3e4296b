# tests/workloads/module.mk: the simulated-framework workloads with ground
# truth, built as $(BUILD)/workloads/<name> against the simulated libcudart
# ($(BUILD)/simgpu/lib). Run them with that directory on LD_LIBRARY_PATH.

WORKLOADS_NAMES := mlp_train stress_threads failed_alloc g10_replay
WORKLOADS := $(addprefix $(BUILD)/workloads/,$(WORKLOADS_NAMES))
WORKLOADS_COMMON_OBJS := $(BUILD)/workloads/obj/workload.o $(BUILD)/workloads/obj/truth.o
WORKLOADS_CUDART := $(BUILD)/simgpu/lib/libcudart.so
WORKLOADS_LDLIBS := -L$(BUILD)/simgpu/lib -lcudart -lpthread -ldl

all: $(WORKLOADS)

$(BUILD)/workloads/obj/%.o: tests/workloads/%.c tests/workloads/workload.h \
		tests/workloads/truth.h tests/simgpu/simgpu.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -c $< -o $@

$(BUILD)/workloads/%: $(BUILD)/workloads/obj/%.o $(WORKLOADS_COMMON_OBJS) $(WORKLOADS_CUDART)
	$(CC) $(CFLAGS) $(SAN_LDFLAGS) -o $@ $< $(WORKLOADS_COMMON_OBJS) $(WORKLOADS_LDLIBS)

# Keep the objects: they are intermediate files of the pattern rules above.
.PRECIOUS: $(BUILD)/workloads/obj/%.o

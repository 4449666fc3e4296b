# bench/: `make bench` builds the benchmark programs and runs run_bench.sh,
# which prints each figure of docs/benchmarks.md's table as a ratio measured
# in one run. Benchmarks are never part of `make test`.

BENCH_BIN := $(BUILD)/bench
BENCH_CFLAGS := $(CFLAGS) $(CUDA_CFLAGS)
BENCH_LDFLAGS := $(SAN_LDFLAGS) -L$(BUILD)/simgpu/lib -lcudart

$(BENCH_BIN)/bench_alloc: bench/bench_alloc.c bench/bench_clock.h $(BUILD)/simgpu/lib/libcudart.so
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $< $(BENCH_LDFLAGS)

$(BENCH_BIN)/bench_launch: bench/bench_launch.c bench/bench_clock.h bench/bench_tp.h $(BUILD)/simgpu/lib/libcudart.so
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $< $(BENCH_LDFLAGS) -llttng-ust -ldl

$(BENCH_BIN)/bench_events: bench/bench_events.c bench/bench_clock.h tracepoints/providers.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< tracepoints/providers.c $(SAN_LDFLAGS) -llttng-ust -ldl

# (e): one cuDNN / cuBLASLt call, on the simulated libraries.
$(BENCH_BIN)/bench_libs: bench/bench_libs.c bench/bench_clock.h $(BUILD)/simgpu/lib/libcudart.so \
		$(BUILD)/simgpu/lib/libcudnn.so $(BUILD)/simgpu/lib/libcublasLt.so
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $< $(SAN_LDFLAGS) -L$(BUILD)/simgpu/lib -lcudnn -lcublasLt -lcudart

.PHONY: bench
bench: all $(BENCH_BIN)/bench_alloc $(BENCH_BIN)/bench_launch $(BENCH_BIN)/bench_events \
	$(BENCH_BIN)/bench_libs
	bench/run_bench.sh $(BUILD)

# (g): cuMemAlloc/cuMemFree through cuGetProcAddress. Linked as applications
# link the driver (the toolkit's stub, SONAME libcuda.so.1); run on the
# simulated libcuda.so.1.
$(BENCH_BIN)/bench_driver: bench/bench_driver.c bench/bench_clock.h $(BUILD)/simgpu/lib/libcuda.so.1
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $< $(SAN_LDFLAGS) -L$(CUDA_HOME)/lib64/stubs -lcuda

bench: $(BENCH_BIN)/bench_driver

# The tracer figures as instruction counts (valgrind), for a machine other
# work shares: bench/count_instructions.sh.
.PHONY: bench-instructions
bench-instructions: all $(BENCH_BIN)/bench_alloc $(BENCH_BIN)/bench_launch $(BENCH_BIN)/bench_events \
	$(BENCH_BIN)/bench_libs
	bench/count_instructions.sh $(BUILD)

# What tracing costs on this machine's real GPU (bench/real_gpu.sh): a
# training step (PyTorch) and one call, bare, under each --gpu-records mode
# and under torch.profiler; one markdown table. Needs a GPU, nvcc and
# PyTorch with CUDA (else exit 77); builds its own program with nvcc.
.PHONY: bench-gpu
bench-gpu: all
	bench/real_gpu.sh $(BUILD)

# real_gpu_cost for sm_90, run on simgpu by tests/scripts/test_bench_gpu.sh
# (bench/gpu_cost.py's simgpu mode); make bench-gpu builds its own for the
# GPU it finds. Only where the toolkit's nvcc is (as tests/nvcc).
ifneq ($(wildcard $(CUDA_HOME)/bin/nvcc),)
all: $(BUILD)/nvcc/real_gpu_cost
$(BUILD)/nvcc/real_gpu_cost: bench/real_gpu_cost.cu $(BUILD)/simgpu/lib/libcudart.so.13
	@mkdir -p $(@D)
	$(CUDA_HOME)/bin/nvcc -O2 -arch=sm_90 -cudart shared $< -o $@
endif

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

# The tracer's cost per call on this machine's real GPU (bench/real_gpu.sh):
# needs a GPU and nvcc; builds its own program with nvcc.
.PHONY: bench-gpu
bench-gpu: all
	bench/real_gpu.sh $(BUILD)

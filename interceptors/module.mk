# interceptors/: the LD_PRELOAD tracing library build/lib/libdnntrace.so and
# its tests (tests/interceptors/). No link-time dependency on any CUDA
# library: the toolkit is used for its headers only.

INTERCEPTORS_SRCS := $(wildcard interceptors/*/*.c)
INTERCEPTORS_OBJS := $(patsubst interceptors/%.c,$(BUILD)/interceptors/%.o,$(INTERCEPTORS_SRCS))
INTERCEPTORS_PROVIDERS_OBJ := $(BUILD)/interceptors/providers.o
INTERCEPTORS_LIB := $(BUILD)/lib/libdnntrace.so

all: $(INTERCEPTORS_LIB)

# Only the symbols marked DNNTRACE_EXPORT leave the library: the wrapped
# entry points, dnntrace_tag and the NVTX injection entry. The tracepoints are
# defined and used inside it alone, so LTTng-UST's hidden definitions keep
# them (and the linker's section start/stop symbols) from being exported and
# from interposing on another instrumented module's.
INTERCEPTORS_TP_HIDDEN := -DLTTNG_UST_TRACEPOINT_HIDDEN_DEFINITION \
	-DLTTNG_UST_TRACEPOINT_PROVIDER_HIDDEN_DEFINITION
$(BUILD)/interceptors/%.o: interceptors/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $(INTERCEPTORS_TP_HIDDEN) -fvisibility=hidden -MMD -MP -c $< -o $@

$(INTERCEPTORS_PROVIDERS_OBJ): tracepoints/providers.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(INTERCEPTORS_TP_HIDDEN) -fvisibility=hidden -MMD -MP -c $< -o $@

$(INTERCEPTORS_LIB): $(INTERCEPTORS_OBJS) $(INTERCEPTORS_PROVIDERS_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libdnntrace.so -Wl,-z,start-stop-visibility=hidden -o $@ $^ \
		$(SAN_LDFLAGS) -llttng-ust -ldl -lpthread

# --- tests -------------------------------------------------------------

INTERCEPTORS_TEST_DIR := $(BUILD)/tests/interceptors
INTERCEPTORS_TESTS := $(BUILD)/tests/test_interceptors_tensor_map
# Helper programs the script tests run; linked to libcudart by SONAME only
# (no rpath): each test picks the real or simulated runtime with
# LD_LIBRARY_PATH.
INTERCEPTORS_HELPERS := $(INTERCEPTORS_TEST_DIR)/cuda_calls \
	$(INTERCEPTORS_TEST_DIR)/libcuda_plugin.so $(INTERCEPTORS_TEST_DIR)/plugin_host \
	$(INTERCEPTORS_TEST_DIR)/libcupti_spy.so

TESTS += $(INTERCEPTORS_TESTS)
all: $(INTERCEPTORS_TESTS) $(INTERCEPTORS_HELPERS)

$(BUILD)/tests/test_interceptors_tensor_map: tests/interceptors/test_tensor_map.c \
		$(BUILD)/interceptors/core/tensor_map.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(SAN_LDFLAGS) -lpthread

$(INTERCEPTORS_TEST_DIR)/cuda_calls: tests/interceptors/cuda_calls.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -o $@ $< $(SAN_LDFLAGS) -L$(CUDA_HOME)/lib64 -lcudart -ldl -lpthread

$(INTERCEPTORS_TEST_DIR)/libcuda_plugin.so: tests/interceptors/cuda_plugin.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -shared -o $@ $< $(SAN_LDFLAGS) -L$(CUDA_HOME)/lib64 -lcudart

$(INTERCEPTORS_TEST_DIR)/plugin_host: tests/interceptors/plugin_host.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(SAN_LDFLAGS) -ldl

# Its simulated libcupti dependency comes from DT_RPATH, searched before
# LD_LIBRARY_PATH (which points at the spy's own directory in the test).
$(INTERCEPTORS_TEST_DIR)/libcupti_spy.so: tests/interceptors/cupti_spy.c $(BUILD)/simgpu/lib/libcupti.so.13 | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -shared -Wl,-soname,libcupti_spy.so -o $@ $< $(SAN_LDFLAGS) \
		-L$(BUILD)/simgpu/lib -l:libcupti.so.13 -Wl,--disable-new-dtags,-rpath,$(abspath $(BUILD))/simgpu/lib -ldl

-include $(INTERCEPTORS_OBJS:.o=.d) $(INTERCEPTORS_PROVIDERS_OBJ:.o=.d)

# --- dlsym wrapper test: a program linked to two probe libraries ------------

INTERCEPTORS_HELPERS += $(INTERCEPTORS_TEST_DIR)/libdlsym_probe_a.so \
	$(INTERCEPTORS_TEST_DIR)/libdlsym_probe_b.so $(INTERCEPTORS_TEST_DIR)/dlsym_host
all: $(INTERCEPTORS_HELPERS)

$(INTERCEPTORS_TEST_DIR)/libdlsym_probe_a.so: tests/interceptors/dlsym_probe.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libdlsym_probe_a.so -DPROBE_NAME='"a"' -DPROBE_LOOKS_NEXT \
		-o $@ $< $(SAN_LDFLAGS) -ldl

$(INTERCEPTORS_TEST_DIR)/libdlsym_probe_b.so: tests/interceptors/dlsym_probe.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libdlsym_probe_b.so -DPROBE_NAME='"b"' -o $@ $< $(SAN_LDFLAGS)

# Linked to a then b, found through LD_LIBRARY_PATH (the test sets it).
$(INTERCEPTORS_TEST_DIR)/dlsym_host: tests/interceptors/dlsym_host.c \
		$(INTERCEPTORS_TEST_DIR)/libdlsym_probe_a.so $(INTERCEPTORS_TEST_DIR)/libdlsym_probe_b.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(SAN_LDFLAGS) -L$(INTERCEPTORS_TEST_DIR) -Wl,--no-as-needed -l:libdlsym_probe_a.so \
		-l:libdlsym_probe_b.so -ldl

# Another interposer of cudaMalloc, preloaded beside the tracer.
INTERCEPTORS_HELPERS += $(INTERCEPTORS_TEST_DIR)/libnext_interposer.so
$(INTERCEPTORS_TEST_DIR)/libnext_interposer.so: tests/interceptors/next_interposer.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -shared -Wl,-soname,libnext_interposer.so -o $@ $< $(SAN_LDFLAGS) -ldl

# --- fork and exec under the tracer --------------------------------------------

INTERCEPTORS_HELPERS += $(INTERCEPTORS_TEST_DIR)/fork_exec
all: $(INTERCEPTORS_HELPERS)

$(INTERCEPTORS_TEST_DIR)/fork_exec: tests/interceptors/fork_exec.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -o $@ $< $(SAN_LDFLAGS) -L$(CUDA_HOME)/lib64 -lcudart

# --- driver API: linked to libcuda.so.1 by SONAME (the toolkit's stub) -------

INTERCEPTORS_HELPERS += $(INTERCEPTORS_TEST_DIR)/driver_calls
all: $(INTERCEPTORS_HELPERS)

$(INTERCEPTORS_TEST_DIR)/driver_calls: tests/interceptors/driver_calls.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -o $@ $< $(SAN_LDFLAGS) -L$(CUDA_HOME)/lib64/stubs -lcuda -ldl

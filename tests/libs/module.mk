# tests/libs: build rules of the programs the tracer's library wrapper
# tests run (tests/libs/test_*.sh), and its unit tests. The cuDNN ones
# (tests/libs/test_cudnn_*.sh, sources tests/libs/cudnn_*.c):
# cudnn_calls (legacy API) and cudnn_graph_calls (backend API; its own
# program so the legacy tests run on a libcudnn without the backend API).
# Linked to libcudnn and libcudart by SONAME only, no rpath: each test picks
# the real (toolkit) or simulated libraries with LD_LIBRARY_PATH.

CUDNN_TRACER_DIR := $(BUILD)/tests/libs
CUDNN_TRACER_PROGRAMS := $(CUDNN_TRACER_DIR)/cudnn_calls $(CUDNN_TRACER_DIR)/cudnn_graph_calls

all: $(CUDNN_TRACER_PROGRAMS)

$(CUDNN_TRACER_DIR)/cudnn_%: tests/libs/cudnn_%.c tests/libs/cudnn_expect.c tests/libs/cudnn_expect.h | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -o $@ $(filter %.c,$^) $(SAN_LDFLAGS) \
		-L$(CUDA_HOME)/lib64 -lcudnn -lcudart

# The lock-free cache behind the descriptor shapes and handle streams.
CUDNN_TRACER_UNIT := $(BUILD)/tests/test_cudnn_ptr_cache
TESTS += $(CUDNN_TRACER_UNIT)
all: $(CUDNN_TRACER_UNIT)

$(CUDNN_TRACER_UNIT): tests/libs/cudnn_ptr_cache_test.c interceptors/cudnn/ptr_cache.c interceptors/cudnn/ptr_cache.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(filter %.c,$^) $(SAN_LDFLAGS) -lpthread

# The same programs as plugins (tests/libs/test_libs_rtld_local.sh):
# plugin_host dlopen()s them RTLD_LOCAL, so libcudnn/libcublas are loaded
# outside the global scope, as under Python.
LIBS_PLUGINS := $(CUDNN_TRACER_DIR)/libcudnn_calls_plugin.so $(CUDNN_TRACER_DIR)/libcublas_calls_plugin.so
all: $(LIBS_PLUGINS)

$(CUDNN_TRACER_DIR)/libcudnn_calls_plugin.so: tests/libs/cudnn_calls.c tests/libs/cudnn_expect.c \
		tests/libs/cudnn_expect.h tests/libs/plugin_shim.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -shared -o $@ -Dmain=calls_main tests/libs/cudnn_calls.c \
		tests/libs/cudnn_expect.c tests/libs/plugin_shim.c -DCALLS_MAIN_TAKES_ARGS='"legacy"' \
		$(SAN_LDFLAGS) -L$(CUDA_HOME)/lib64 -lcudnn -lcudart

$(CUDNN_TRACER_DIR)/libcublas_calls_plugin.so: tests/libs/cublas_calls.c tests/libs/plugin_shim.c \
		interceptors/cublas/cublas_cxx_only.h | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -shared -o $@ -Dmain=calls_main tests/libs/cublas_calls.c \
		tests/libs/plugin_shim.c $(SAN_LDFLAGS) -L$(CUDA_HOME)/lib64 -lcublas -lcublasLt -lcudart -ldl

# Programs of the wrapper tests (tests/libs/test_cublas_*.sh), linked
# against the REAL toolkit libraries by SONAME, no rpath: each test runs
# them on simgpu with LD_LIBRARY_PATH (the version nodes must agree).
LIBS_CUBLAS_PROGRAMS := $(BUILD)/tests/libs/cublas_calls
all: $(LIBS_CUBLAS_PROGRAMS)

$(BUILD)/tests/libs/cublas_calls: tests/libs/cublas_calls.c interceptors/cublas/cublas_cxx_only.h | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $< -o $@ $(SAN_LDFLAGS) -L$(CUDA_HOME)/lib64 \
		-lcublas -lcublasLt -lcudart -ldl

# interceptors/cublas/cublas_cxx_only.h (the tracer's C declarations of
# cuBLAS's C++-only calls) checked against cublas_api.h's own.
LIBS_CUBLAS_CXX_CHECK := $(BUILD)/tests/libs/cublas_cxx_only.checked
all: $(LIBS_CUBLAS_CXX_CHECK)
$(LIBS_CUBLAS_CXX_CHECK): interceptors/cublas/cublas_cxx_only.h | check-cuda
	@mkdir -p $(@D)
	printf '#include <cublas_v2.h>\n#include "interceptors/cublas/cublas_cxx_only.h"\n' | \
		$(CXX) -x c++ -fsyntax-only -I. $(CUDA_CFLAGS) -
	touch $@

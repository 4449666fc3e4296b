# simgpu/cublas: the simulated libcublas.so.13 and libcublasLt.so.13
# (README.md beside this file) in $(BUILD)/simgpu/lib; their tests are
# built by simgpu/tests/module.mk. Linked to the simulated libcudart; found
# next to it through $ORIGIN (RUNPATH, so LD_LIBRARY_PATH still wins).

SIMGPU_CUBLAS_DIR := simgpu/cublas
SIMGPU_CUBLAS_OBJ := $(BUILD)/simgpu/obj/cublas
SIMGPU_CUBLAS_LIBDIR := $(BUILD)/simgpu/lib
SIMGPU_CUBLAS_RUNTIME := $(SIMGPU_CUBLAS_LIBDIR)/libcudart.so.13 $(SIMGPU_CUBLAS_LIBDIR)/libcupti.so.13

SIMGPU_CUBLAS_BLAS_OBJS := $(addprefix $(SIMGPU_CUBLAS_OBJ)/,cublas_handle.o cublas_gemm.o cublas_batched.o cublas_transfer.o blas_gemm_kernels.o)
SIMGPU_CUBLAS_LT_OBJS := $(addprefix $(SIMGPU_CUBLAS_OBJ)/,cublaslt_descriptors.o cublaslt_matmul.o lt_gemm_kernels.o)
SIMGPU_CUBLAS_LIB := $(SIMGPU_CUBLAS_LIBDIR)/libcublas.so.13
SIMGPU_CUBLASLT_LIB := $(SIMGPU_CUBLAS_LIBDIR)/libcublasLt.so.13
SIMGPU_CUBLAS_LIBS := $(SIMGPU_CUBLAS_LIB) $(SIMGPU_CUBLASLT_LIB) \
	$(SIMGPU_CUBLAS_LIBDIR)/libcublas.so $(SIMGPU_CUBLAS_LIBDIR)/libcublasLt.so
# Checks cublas_half.h against cublas_api.h's C++-only declarations.
SIMGPU_CUBLAS_CXX_CHECK := $(SIMGPU_CUBLAS_OBJ)/cublas_half.checked

all: $(SIMGPU_CUBLAS_LIBS) $(SIMGPU_CUBLAS_CXX_CHECK)

$(SIMGPU_CUBLAS_OBJ)/%.o: $(SIMGPU_CUBLAS_DIR)/%.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread -MMD -MP -MT $@ -MT $(abspath $@) -c $< -o $@

# gemm_kernels.c goes into both libraries (hidden by the version scripts).
$(SIMGPU_CUBLAS_OBJ)/blas_gemm_kernels.o $(SIMGPU_CUBLAS_OBJ)/lt_gemm_kernels.o: \
		$(SIMGPU_CUBLAS_DIR)/gemm_kernels.c | check-cuda
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread -MMD -MP -MT $@ -MT $(abspath $@) -c $< -o $@

# "Not supported" stubs for what the real libraries export and these
# objects do not define (simgpu/exports/module.mk).
SIMGPU_CUBLAS_STUB_OBJS := $(BUILD)/simgpu/stubs/libcublas.so.13.stubs.o $(BUILD)/simgpu/obj/exports/not_supported.o
SIMGPU_CUBLASLT_STUB_OBJS := $(BUILD)/simgpu/stubs/libcublasLt.so.13.stubs.o $(BUILD)/simgpu/obj/exports/not_supported.o
$(BUILD)/simgpu/stubs/libcublas.so.13.stubs.c: simgpu/exports/libcublas.so.13.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU_CUBLAS_BLAS_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/cublas_api.h \
		CUBLAS_STATUS_NOT_SUPPORTED $(SIMGPU_CUBLAS_BLAS_OBJS) > $@.tmp && mv $@.tmp $@
$(BUILD)/simgpu/stubs/libcublasLt.so.13.stubs.c: simgpu/exports/libcublasLt.so.13.exports \
		simgpu/exports/gen_stubs.sh $(SIMGPU_CUBLAS_LT_OBJS) | check-cuda
	@mkdir -p $(@D)
	simgpu/exports/gen_stubs.sh $< $(CUDA_HOME)/include/cublas_api.h \
		CUBLAS_STATUS_NOT_SUPPORTED $(SIMGPU_CUBLAS_LT_OBJS) > $@.tmp && mv $@.tmp $@

$(SIMGPU_CUBLASLT_LIB): $(SIMGPU_CUBLAS_LT_OBJS) $(SIMGPU_CUBLASLT_STUB_OBJS) $(SIMGPU_CUBLAS_DIR)/libcublasLt.map $(SIMGPU_CUBLAS_RUNTIME)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_CUBLAS_LT_OBJS) $(SIMGPU_CUBLASLT_STUB_OBJS) -Wl,-soname,libcublasLt.so.13 \
		-Wl,--version-script,$(SIMGPU_CUBLAS_DIR)/libcublasLt.map $(SAN_LDFLAGS) \
		-L$(SIMGPU_CUBLAS_LIBDIR) -l:libcudart.so.13 -Wl,-rpath,'$$ORIGIN' -pthread

$(SIMGPU_CUBLAS_LIB): $(SIMGPU_CUBLAS_BLAS_OBJS) $(SIMGPU_CUBLAS_STUB_OBJS) $(SIMGPU_CUBLAS_DIR)/libcublas.map $(SIMGPU_CUBLASLT_LIB)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(SIMGPU_CUBLAS_BLAS_OBJS) $(SIMGPU_CUBLAS_STUB_OBJS) -Wl,-soname,libcublas.so.13 \
		-Wl,--version-script,$(SIMGPU_CUBLAS_DIR)/libcublas.map $(SAN_LDFLAGS) \
		-L$(SIMGPU_CUBLAS_LIBDIR) -l:libcublasLt.so.13 -l:libcudart.so.13 \
		-Wl,-rpath,'$$ORIGIN' -pthread

$(SIMGPU_CUBLAS_LIBDIR)/libcublas.so: $(SIMGPU_CUBLAS_LIB)
	ln -sf libcublas.so.13 $@
$(SIMGPU_CUBLAS_LIBDIR)/libcublasLt.so: $(SIMGPU_CUBLASLT_LIB)
	ln -sf libcublasLt.so.13 $@

$(SIMGPU_CUBLAS_CXX_CHECK): $(SIMGPU_CUBLAS_DIR)/cublas_half.h | check-cuda
	@mkdir -p $(@D)
	printf '#include <cublas_v2.h>\n#include "$(SIMGPU_CUBLAS_DIR)/cublas_half.h"\n' | \
		$(CXX) -x c++ -fsyntax-only -I. $(CUDA_CFLAGS) -
	touch $@

-include $(SIMGPU_CUBLAS_BLAS_OBJS:.o=.d) $(SIMGPU_CUBLAS_LT_OBJS:.o=.d)

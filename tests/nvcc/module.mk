# tests/nvcc: CUDA C++ test programs compiled by the toolkit's own nvcc
# ($(CUDA_HOME)/bin/nvcc: -arch=sm_90, -cudart shared, as users build), run
# on simgpu by tests/e2e/test_nvcc_*.sh, and the device code files the
# fatbin reader's unit test reads (test_simgpu_fatbin). Without nvcc they
# are not built and make says so once; the tests then skip. Owns
# $(BUILD)/nvcc only.

NVCC := $(CUDA_HOME)/bin/nvcc
NV_OUT := $(BUILD)/nvcc
# make SANITIZE=1: the host code too (truth.o is instrumented); nvcc splits
# -Xcompiler values at commas, so one sanitizer per option.
NV_SAN := $(if $(SAN_LDFLAGS),-Xcompiler -fsanitize=address -Xcompiler -fsanitize=undefined)
NV_FLAGS := -arch=sm_90 -cudart shared -I. -Xcompiler -Wall,-Wextra $(NV_SAN)
NV_TRUTH := $(BUILD)/workloads/obj/truth.o
# (literal paths: this file is read before simgpu/module.mk)
NV_SIMGPU := $(BUILD)/simgpu/lib/libcudart.so.13 $(BUILD)/simgpu/lib/libcuda.so.1
NV_PROGRAMS := $(addprefix $(NV_OUT)/,nv_vadd nv_kernels nv_multi nv_graph nv_cublas \
	nv_graph_updates nv_graph_memory nv_graph_add_node nv_graph_children nv_graph_generic \
	nv_graph_generic_memory)
# The fatbin reader's inputs: nv_kernels.cu as a fatbin (plain and with
# every entry zstd-compressed) and as a bare cubin.
NV_IMAGES := $(addprefix $(NV_OUT)/,nv_kernels.fatbin nv_kernels_zstd.fatbin nv_kernels.cubin)

ifneq ($(wildcard $(NVCC)),)
all: $(NV_PROGRAMS) $(NV_IMAGES)

$(NV_OUT)/nv_%: tests/nvcc/nv_%.cu tests/nvcc/nv_common.h $(NV_TRUTH) $(NV_SIMGPU)
	@mkdir -p $(@D)
	$(NVCC) $(NV_FLAGS) $< $(NV_TRUTH) -o $@ -ldl

# The graph programs' shared kernels and node helpers.
$(addprefix $(NV_OUT)/,nv_graph_updates nv_graph_memory nv_graph_children nv_graph_generic \
	nv_graph_generic_memory): tests/nvcc/nv_graph_common.h

$(NV_OUT)/nv_multi: tests/nvcc/nv_multi_main.cu tests/nvcc/nv_multi_lib.cu \
		tests/nvcc/nv_multi.h tests/nvcc/nv_common.h $(NV_TRUTH) $(NV_SIMGPU)
	@mkdir -p $(@D)
	$(NVCC) $(NV_FLAGS) tests/nvcc/nv_multi_main.cu tests/nvcc/nv_multi_lib.cu \
		$(NV_TRUTH) -o $@ -ldl

# Linked as users link it, against the toolkit's libcublas.so.13 (simgpu's
# needs simgpu's libcudart at link time, and nvcc links the toolkit's); it
# runs on simgpu's, which has the same SONAME and version nodes.
$(NV_OUT)/nv_cublas: tests/nvcc/nv_cublas.cu tests/nvcc/nv_common.h $(NV_TRUTH) \
		$(NV_SIMGPU) $(BUILD)/simgpu/lib/libcublas.so
	@mkdir -p $(@D)
	$(NVCC) $(NV_FLAGS) $< $(NV_TRUTH) -o $@ -L$(CUDA_HOME)/lib64 -lcublas -ldl
$(NV_OUT)/nv_graph_updates: tests/nvcc/nv_graph_updates.cu tests/nvcc/nv_common.h $(NV_TRUTH) \
		$(NV_SIMGPU) $(BUILD)/simgpu/lib/libcublas.so
	@mkdir -p $(@D)
	$(NVCC) $(NV_FLAGS) $< $(NV_TRUTH) -o $@ -L$(CUDA_HOME)/lib64 -lcublas -ldl

$(NV_OUT)/nv_kernels.fatbin: tests/nvcc/nv_kernels.cu tests/nvcc/nv_common.h
	@mkdir -p $(@D)
	$(NVCC) -arch=sm_90 -I. -fatbin $< -o $@
$(NV_OUT)/nv_kernels_zstd.fatbin: tests/nvcc/nv_kernels.cu tests/nvcc/nv_common.h
	@mkdir -p $(@D)
	$(NVCC) -arch=sm_90 -I. -fatbin -Xfatbin -compress-all $< -o $@
$(NV_OUT)/nv_kernels.cubin: tests/nvcc/nv_kernels.cu tests/nvcc/nv_common.h
	@mkdir -p $(@D)
	$(NVCC) -arch=sm_90 -I. -cubin $< -o $@
else
all: nvcc-absent
.PHONY: nvcc-absent
nvcc-absent:
	@echo "note: $(NVCC) not found: the nvcc-compiled test programs (tests/nvcc) are not built; their tests will skip"
endif

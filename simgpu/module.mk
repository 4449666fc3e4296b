# simgpu: the simulated CUDA stack (README.md). This file holds what the
# folders share (output paths, compile flags, the error-name generator) and
# includes each folder's module.mk in the order their libraries depend on
# each other; each folder's module.mk builds what lives in that folder:
#   core/    the device model's objects (linked into libcuda.so.1)
#   driver/  libcuda.so.1 (core + driver API), the CUDA 12 variant's copy
#   cudart/  libcudart.so.13 (+ libcudart.so), libcudart.so.12 (variant)
#   cupti/   libcupti.so.13 (+ libcupti.so), libcupti.so.12 (variant)
#   exports/ the "not supported" stubs' shared object
#   cublas/  libcublas.so.13, libcublasLt.so.13    cudnn/ libcudnn.so.9
#   nvml/    libnvidia-ml.so.1                      tests/ every simgpu test
# Here itself: bench_cost (a tool, not a test). Owns no other paths.

SIMGPU_DIR := simgpu
SIMGPU_OUT := $(BUILD)/simgpu
SIMGPU_LIB := $(SIMGPU_OUT)/lib
SIMGPU_GEN := $(SIMGPU_OUT)/gen
SIMGPU_OBJ := $(SIMGPU_OUT)/obj
SIMGPU_STUBS := $(SIMGPU_OUT)/stubs

# __CUDA_API_VERSION_INTERNAL (given per folder) makes cuda_runtime_api.h
# and cuda.h declare the plain entry points, their older versions and their
# _ptds/_ptsz twins, so the compiler checks every definition against the
# real prototypes. (Not for CUPTI: cupti.h does not compile with it.)
SIMGPU_CFLAGS := $(CFLAGS) $(CUDA_CFLAGS) -I$(SIMGPU_GEN) -pthread -MMD -MP

# The CUDA 12 variant (README.md, "CUDA 12 variant"): the same sources with
# the SONAMEs and version nodes of the CUDA 12 libraries PyTorch/TensorFlow
# wheels bring, beside the same driver (driver/, cudart/, cupti/ build it).
SIMGPU12_OUT := $(BUILD)/simgpu12
SIMGPU12_LIB := $(SIMGPU12_OUT)/lib

SIMGPU_DRIVER := $(SIMGPU_LIB)/libcuda.so.1
SIMGPU_CUDART := $(SIMGPU_LIB)/libcudart.so.13
SIMGPU_CUPTI := $(SIMGPU_LIB)/libcupti.so.13
SIMGPU_LIBS := $(SIMGPU_DRIVER) $(SIMGPU_CUDART) $(SIMGPU_CUPTI) \
	$(SIMGPU_LIB)/libcudart.so $(SIMGPU_LIB)/libcupti.so
SIMGPU12_LIBS := $(SIMGPU12_LIB)/libcuda.so.1 $(SIMGPU12_LIB)/libcudart.so.12 \
	$(SIMGPU12_LIB)/libcupti.so.12 $(SIMGPU12_LIB)/libcudart.so \
	$(SIMGPU12_LIB)/libcupti.so

# gen_names.sh HEADER START END PREFIX: an enum's names, for the folders
# whose error-name tables come from a toolkit header.
SIMGPU_GEN_NAMES := $(SIMGPU_DIR)/gen_names.sh

# simgpu_all_built FOLDER,SOURCES: an error naming each FOLDER/*.c that
# SOURCES (paths below simgpu/) lacks: a source no rule builds would
# otherwise be silently left out of its library.
simgpu_all_built = $(foreach unbuilt,$(filter-out $(2),$(patsubst \
	$(SIMGPU_DIR)/%,%,$(wildcard $(SIMGPU_DIR)/$(1)/*.c))),$(error \
	simgpu/$(1)/module.mk builds no simgpu/$(unbuilt): add it to its sources (a test goes in simgpu/tests/)))

# The folders, libraries below the ones that load or link them.
SIMGPU_FOLDERS := core driver cudart cupti exports cublas cudnn nvml tests
include $(SIMGPU_FOLDERS:%=$(SIMGPU_DIR)/%/module.mk)
# A folder's module.mk the list above lacks would silently not build.
SIMGPU_UNLISTED := $(filter-out $(SIMGPU_FOLDERS:%=$(SIMGPU_DIR)/%/module.mk),\
	$(wildcard $(SIMGPU_DIR)/*/module.mk))
ifneq ($(SIMGPU_UNLISTED),)
$(error simgpu/module.mk: add $(SIMGPU_UNLISTED) to SIMGPU_FOLDERS)
endif
# The root holds no library or test source: each lives in its folder.
SIMGPU_ROOT_SOURCES := $(filter-out $(SIMGPU_DIR)/bench_cost.c,$(wildcard $(SIMGPU_DIR)/*.c))
ifneq ($(SIMGPU_ROOT_SOURCES),)
$(error $(SIMGPU_ROOT_SOURCES): simgpu's root holds no library or test source; move it to its folder (simgpu/README.md, "Layout"))
endif

# Per-call cost of the simulator itself (README.md, "Cost"): a tool, not a test.
SIMGPU_BENCH := $(SIMGPU_OUT)/bench_cost
all: $(SIMGPU_BENCH)
$(SIMGPU_BENCH): $(SIMGPU_DIR)/bench_cost.c $(SIMGPU_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) $< -o $@ -L$(SIMGPU_LIB) -lcudart -lcupti \
		-Wl,-rpath,'$$ORIGIN/lib' $(SAN_LDFLAGS)

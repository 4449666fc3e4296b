# dnntrace top-level build. Each part has its own module.mk beside its code
# (interceptors/, analysis/, simgpu/, tests/, bench/); this file holds
# what they share: flags, the toolkit and dependency checks, and the user
# targets named in README.md.

CUDA_HOME ?= /usr/local/cuda
PREFIX ?= /usr/local
BUILD := build

CC ?= cc
# Jobs for the builds `make test` and `make demo` start (a plain `make all`
# runs as make is told): the tree builds in about half the time on 2 cores.
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
BASE_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -fPIC -D_GNU_SOURCE \
	-I. -Iinclude
# make SANITIZE=1: AddressSanitizer + UndefinedBehaviorSanitizer build.
ifeq ($(SANITIZE),1)
BASE_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
SAN_LDFLAGS := -fsanitize=address,undefined
BUILD := build-asan
endif
CFLAGS := $(BASE_CFLAGS) $(EXTRA_CFLAGS)
CUDA_CFLAGS := -I$(CUDA_HOME)/include -I$(CUDA_HOME)/extras/CUPTI/include

# The simulated runtime's unversioned links (libcudart.so, libcupti.so) that
# `-lcudart -lcupti` link against: every rule that links that way lists them.
SIMGPU_RUNTIME_LINKS := $(BUILD)/simgpu/lib/libcudart.so $(BUILD)/simgpu/lib/libcupti.so

.PHONY: all deps deps-test demo test bench install clean check-cuda
all:

check-cuda:
	@test -f "$(CUDA_HOME)/include/cuda_runtime_api.h" || { \
	  echo "error: CUDA toolkit not found at CUDA_HOME=$(CUDA_HOME) (need include/cuda_runtime_api.h); set CUDA_HOME" >&2; exit 1; }

deps:
	@scripts/install_deps.sh

# What `make test` needs beyond `make deps` (installed by `make test` itself).
deps-test:
	@scripts/install_deps.sh --tests

# (simgpu/module.mk includes its folders' module.mk files itself, in order.)
include $(sort $(wildcard */module.mk tests/*/module.mk))

clean:
	rm -rf build build-asan

# simgpu/exports: what each real library exports (the *.exports lists,
# written by gen_export_lists.sh from the toolkit, checked in) and the
# "not supported" stubs every simulated library links for the names its
# hand-written objects do not define (gen_stubs.sh, at build time; each
# library's module.mk has the rule that generates its stubs from its own
# objects). Owns no library; builds the stub objects and the export tests.

SIMGPU_EXPORTS_DIR := simgpu/exports
SIMGPU_NOT_SUPPORTED_OBJ := $(BUILD)/simgpu/obj/exports/not_supported.o

# Generated stub sources (any library, either variant) compile alike.
$(BUILD)/%.stubs.o: $(BUILD)/%.stubs.c $(SIMGPU_EXPORTS_DIR)/not_supported.h
	$(CC) $(CFLAGS) -c $< -o $@

$(SIMGPU_NOT_SUPPORTED_OBJ): $(SIMGPU_EXPORTS_DIR)/not_supported.c \
		$(SIMGPU_EXPORTS_DIR)/not_supported.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

# ---- tests ----
# The stubs called through the real prototypes (test_not_supported.c);
# test_exports.sh compares the libraries' exports with the toolkit's.
SIMGPU_EXPORTS_TEST := $(BUILD)/tests/test_simgpu_not_supported
TESTS += $(SIMGPU_EXPORTS_TEST)
all: $(SIMGPU_EXPORTS_TEST)
$(SIMGPU_EXPORTS_TEST): $(SIMGPU_EXPORTS_DIR)/test_not_supported.c simgpu/simgpu_test.h \
		$(BUILD)/simgpu/lib/libcublas.so.13 $(BUILD)/simgpu/lib/libcublasLt.so.13 \
		$(BUILD)/simgpu/lib/libcudnn.so.9 $(BUILD)/simgpu/lib/libcuda.so.1 \
		$(SIMGPU_RUNTIME_LINKS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CUDA_CFLAGS) -pthread $< -o $@ -L$(BUILD)/simgpu/lib \
		-l:libcublas.so.13 -l:libcublasLt.so.13 -l:libcudnn.so.9 -lcupti -lcudart \
		-l:libcuda.so.1 -ldl -Wl,--no-as-needed -Wl,-rpath,'$$ORIGIN/../simgpu/lib' $(SAN_LDFLAGS)

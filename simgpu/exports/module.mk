# simgpu/exports: what each real library exports (the *.exports lists,
# written by gen_export_lists.sh from the toolkit, checked in) and the
# "not supported" stubs every simulated library links for the names its
# hand-written objects do not define (gen_stubs.sh, at build time; each
# library's module.mk has the rule that generates its stubs from its own
# objects). Owns no library; builds the stub objects (the tests of the
# stubs and exports live in simgpu/tests/).

SIMGPU_EXPORTS_DIR := simgpu/exports
SIMGPU_NOT_SUPPORTED_OBJ := $(BUILD)/simgpu/obj/exports/not_supported.o

# Generated stub sources (any library, either variant) compile alike.
$(BUILD)/%.stubs.o: $(BUILD)/%.stubs.c $(SIMGPU_EXPORTS_DIR)/not_supported.h
	$(CC) $(CFLAGS) -c $< -o $@

$(SIMGPU_NOT_SUPPORTED_OBJ): $(SIMGPU_EXPORTS_DIR)/not_supported.c \
		$(SIMGPU_EXPORTS_DIR)/not_supported.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

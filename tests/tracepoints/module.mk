# tests/tracepoints/: the catalogue of entry points (tracepoints/entry_points.h)
# against the ids traces were written with, and against libdnntrace.so's exports
# (test_catalogue_exports.sh, which uses this test's --wrapped listing); and
# the tensor rule of tracepoints/tensor_rule.h for every memory kind.

TRACEPOINTS_TESTS := $(BUILD)/tests/test_tracepoints_entry_points \
	$(BUILD)/tests/test_tracepoints_tensor_rule
TESTS += $(TRACEPOINTS_TESTS)
all: $(TRACEPOINTS_TESTS)

$(BUILD)/tests/test_tracepoints_entry_points: tests/tracepoints/test_entry_points.c \
		tracepoints/entry_points.h tracepoints/dnntrace_enums.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(SAN_LDFLAGS)

$(BUILD)/tests/test_tracepoints_tensor_rule: tests/tracepoints/test_tensor_rule.c \
		tracepoints/tensor_rule.h tracepoints/dnntrace_enums.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(SAN_LDFLAGS)

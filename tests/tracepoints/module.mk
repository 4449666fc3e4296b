# tests/tracepoints/: the catalogue of entry points (tracepoints/entry_points.h)
# against the ids traces were written with, and against libdnntrace.so's exports
# (test_catalogue_exports.sh, which uses this test's --wrapped listing); and
# the tensor rule of tracepoints/tensor_rule.h for every memory kind; and the
# analyzer's event specs against a trace's metadata (test_event_fields.sh).

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

# The analyzer reader's event specs, printed for test_event_fields.sh, which
# holds them against a trace's metadata.
$(BUILD)/tests/print_event_specs: tests/tracepoints/print_event_specs.c $(ANALYSIS_CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(ANALYSIS_CORE_LIB) $(SAN_LDFLAGS)
all: $(BUILD)/tests/print_event_specs

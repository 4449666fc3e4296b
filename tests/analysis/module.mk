# tests/analysis/: unit tests of the analysis core, the G10 reference test
# and the emitter used by the reader tests (test_reader.sh).

ANALYSIS_TEST_NAMES := analysis_model analysis_library analysis_g10_reference analysis_timeline \
	analysis_nvtx analysis_stream_free analysis_driver analysis_memory analysis_energy \
	analysis_metadata_check analysis_pickle analysis_graph_nodes analysis_graph_memory \
	analysis_graph_copy_write analysis_graph_children analysis_graph_generic_nodes \
	analysis_graph_node_enable analysis_window_build
ANALYSIS_TESTS := $(ANALYSIS_TEST_NAMES:%=$(BUILD)/tests/test_%)
ANALYSIS_EMITTER := $(BUILD)/tests/analysis_emit_scripted
# The same scenarios in trace formats 1 and 2 (tracepoints/README.md): the
# reader tests run on each (test_analysis_reader_format1.sh, _format2.sh).
ANALYSIS_EMITTER_FORMAT1 := $(BUILD)/tests/analysis_emit_scripted_format1
ANALYSIS_EMITTER_FORMAT2 := $(BUILD)/tests/analysis_emit_scripted_format2
TESTS += $(ANALYSIS_TESTS)

all: $(ANALYSIS_TESTS) $(ANALYSIS_EMITTER) $(ANALYSIS_EMITTER_FORMAT1) $(ANALYSIS_EMITTER_FORMAT2)

$(BUILD)/tests/test_analysis_%: tests/analysis/test_analysis_%.c \
		tests/analysis/check.h tests/analysis/group_checks.h tests/analysis/graph_events.h \
		$(ANALYSIS_CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(ANALYSIS_CORE_LIB) -lm $(SAN_LDFLAGS)

$(ANALYSIS_EMITTER_FORMAT1): EMITTER_FORMAT_FLAGS := -DDNNTRACE_TRACE_FORMAT=1
$(ANALYSIS_EMITTER_FORMAT2): EMITTER_FORMAT_FLAGS := -DDNNTRACE_TRACE_FORMAT=2
$(ANALYSIS_EMITTER) $(ANALYSIS_EMITTER_FORMAT1) $(ANALYSIS_EMITTER_FORMAT2): \
		tests/analysis/emit_scripted.c tracepoints/providers.c tracepoints/dnntrace_api.h \
		tracepoints/dnntrace_gpu.h tracepoints/dnntrace_lib.h tracepoints/dnntrace_nvtx.h \
		tracepoints/event_fields.h tracepoints/dnntrace_enums.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EMITTER_FORMAT_FLAGS) -o $@ tests/analysis/emit_scripted.c \
		tracepoints/providers.c -llttng-ust -ldl -pthread $(SAN_LDFLAGS)

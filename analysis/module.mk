# analysis/: build/bin/dnntrace-analyze, the babeltrace2-based post-processor.
# The analysis core (everything but the babeltrace2 reader and main) is also
# a static library that the unit tests link, so tests need no trace.

# By stage, top-down (README.md): decode -> model -> derive -> report. The
# core is every stage but the babeltrace2 side of decode and the driver.
ANALYSIS_DECODE_CORE_SRCS := analysis/decode/damage.c analysis/decode/metadata_check.c \
	analysis/decode/event_specs.c analysis/decode/record_status.c
ANALYSIS_MODEL_SRCS := analysis/model/model.c analysis/model/graph_nodes.c analysis/model/nvtx_ranges.c \
	analysis/model/power_samples.c analysis/model/api_names.c
ANALYSIS_DERIVE_SRCS := analysis/derive/group.c analysis/derive/group_build.c \
	analysis/derive/tensor_uses.c analysis/derive/stream_order.c analysis/derive/window.c \
	analysis/derive/liveness.c analysis/derive/category.c analysis/derive/categories.c analysis/derive/live_bytes.c \
	analysis/derive/swap.c analysis/derive/memory.c analysis/derive/energy.c analysis/derive/gpu_time.c \
	analysis/derive/overheads.c analysis/derive/steps.c
ANALYSIS_REPORT_SRCS := analysis/report/out_buffer.c analysis/report/g10_writer.c \
	analysis/report/csv_writer.c analysis/report/summary.c analysis/report/report_index.c \
	analysis/report/memory_report.c analysis/report/memory_csv.c analysis/report/energy_report.c \
	analysis/report/overheads_csv.c analysis/report/gpu_time_report.c analysis/report/timeline_json.c analysis/report/timeline_pftrace.c analysis/report/protobuf_writer.c analysis/report/pass_outputs.c analysis/report/report_files.c \
	analysis/report/pickle_writer.c analysis/report/memory_snapshot.c \
	analysis/report/report_clear.c analysis/report/steps_csv.c
ANALYSIS_CORE_SRCS := analysis/util.c $(ANALYSIS_DECODE_CORE_SRCS) $(ANALYSIS_MODEL_SRCS) \
	$(ANALYSIS_DERIVE_SRCS) $(ANALYSIS_REPORT_SRCS)
ANALYSIS_CORE_OBJS := $(ANALYSIS_CORE_SRCS:%.c=$(BUILD)/obj/%.o)
ANALYSIS_CORE_LIB := $(BUILD)/obj/analysis/libdtanalysis.a
# The babeltrace2 side of decode, and the driver (CLI, run, supervisor).
ANALYSIS_BIN_SRCS := analysis/decode/trace_reader.c analysis/decode/event_pipe.c \
	analysis/decode/trace_check.c analysis/decode/trace_finder.c analysis/decode/stream_split.c analysis/decode/stream_scan.c \
	analysis/decode/packet_copy.c \
	analysis/main.c analysis/run.c analysis/supervisor.c
ANALYSIS_BIN_OBJS := $(ANALYSIS_BIN_SRCS:%.c=$(BUILD)/obj/%.o)
ANALYSIS_BIN := $(BUILD)/bin/dnntrace-analyze
ANALYSIS_BT_CFLAGS := $(shell pkg-config --cflags babeltrace2 2>/dev/null)
ANALYSIS_BT_LIBS := $(shell pkg-config --libs babeltrace2 2>/dev/null || echo -lbabeltrace2)

all: $(ANALYSIS_BIN)

# The catalogue (entry_points.h) names and sizes the api tables: a new entry
# point must rebuild the analyzer too.
$(BUILD)/obj/analysis/%.o: analysis/%.c $(wildcard analysis/*.h analysis/*/*.h) tracepoints/dnntrace_enums.h \
		tracepoints/event_fields.h $(wildcard tracepoints/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ANALYSIS_BT_CFLAGS) -c $< -o $@

$(ANALYSIS_CORE_LIB): $(ANALYSIS_CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(ANALYSIS_BIN): $(ANALYSIS_BIN_OBJS) $(ANALYSIS_CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(ANALYSIS_BIN_OBJS) $(ANALYSIS_CORE_LIB) \
		$(ANALYSIS_BT_LIBS) -pthread -lm $(SAN_LDFLAGS)

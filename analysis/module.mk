# analysis/: build/bin/dnntrace-analyze, the babeltrace2-based post-processor.
# The analysis core (everything but the babeltrace2 reader and main) is also
# a static library that the unit tests link, so tests need no trace.

ANALYSIS_CORE_SRCS := analysis/util.c analysis/out_buffer.c analysis/model.c analysis/nvtx_ranges.c \
	analysis/liveness.c analysis/category.c \
	analysis/api_names.c analysis/stream_order.c \
	analysis/group.c analysis/group_build.c analysis/tensor_uses.c \
	analysis/window.c analysis/g10_writer.c analysis/csv_writer.c \
	analysis/summary.c analysis/report_index.c analysis/swap.c \
	analysis/categories_report.c analysis/memory_report.c \
	analysis/power_samples.c analysis/energy.c analysis/energy_report.c \
	analysis/gpu_time.c analysis/overheads.c \
	analysis/timeline_json.c analysis/pass_outputs.c analysis/report_files.c \
	analysis/damage.c analysis/metadata_check.c analysis/event_specs.c \
	analysis/record_status.c analysis/report_clear.c
ANALYSIS_CORE_OBJS := $(ANALYSIS_CORE_SRCS:%.c=$(BUILD)/obj/%.o)
ANALYSIS_CORE_LIB := $(BUILD)/obj/analysis/libdtanalysis.a
ANALYSIS_BIN_OBJS := $(BUILD)/obj/analysis/trace_reader.o $(BUILD)/obj/analysis/event_pipe.o $(BUILD)/obj/analysis/main.o \
	$(BUILD)/obj/analysis/run.o \
	$(BUILD)/obj/analysis/supervisor.o $(BUILD)/obj/analysis/trace_check.o \
	$(BUILD)/obj/analysis/stream_scan.o
ANALYSIS_BIN := $(BUILD)/bin/dnntrace-analyze
ANALYSIS_BT_CFLAGS := $(shell pkg-config --cflags babeltrace2 2>/dev/null)
ANALYSIS_BT_LIBS := $(shell pkg-config --libs babeltrace2 2>/dev/null || echo -lbabeltrace2)

all: $(ANALYSIS_BIN)

$(BUILD)/obj/analysis/%.o: analysis/%.c $(wildcard analysis/*.h) tracepoints/dnntrace_enums.h \
		tracepoints/event_fields.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ANALYSIS_BT_CFLAGS) -c $< -o $@

$(ANALYSIS_CORE_LIB): $(ANALYSIS_CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(ANALYSIS_BIN): $(ANALYSIS_BIN_OBJS) $(ANALYSIS_CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(ANALYSIS_BIN_OBJS) $(ANALYSIS_CORE_LIB) \
		$(ANALYSIS_BT_LIBS) -pthread -lm $(SAN_LDFLAGS)

# scripts/module.mk: `make demo` (dependencies, build, trace the MLP workload
# on the simulated GPU with `dnntrace record`, analyze it, show the summary)
# and `make install PREFIX=...`:
#   PREFIX/bin/dnntrace, PREFIX/bin/dnntrace-analyze
#   PREFIX/lib/dnntrace/libdnntrace.so (+ simgpu/ when built: --simgpu)
#   PREFIX/share/dnntrace/scripts/{start_tracing,stop_tracing,set_env,post_process}.sh,
#     lib/ (the session functions, dnntrace_plot.py)
#   PREFIX/share/dnntrace/python/dnntrace_torch/ (record --torch-names)
#   PREFIX/include/dnntrace.h

SCRIPTS_HELPERS := start_tracing.sh stop_tracing.sh set_env.sh post_process.sh
SCRIPTS_DEMO_DIR := $(BUILD)/demo
SCRIPTS_PYTHON_PACKAGE := $(wildcard python/dnntrace_torch/*.py)
SCRIPTS_PYTHON_SHIM := $(wildcard python/dnntrace_torch/shim/*.py)

.PHONY: demo install
demo: deps
	$(MAKE) --no-print-directory -j$(BUILD_JOBS) all
	rm -rf $(SCRIPTS_DEMO_DIR)
	mkdir -p $(SCRIPTS_DEMO_DIR)
	SIMGPU_TIME_SCALE=1 DNNTRACE_BUILD=$(abspath $(BUILD)) scripts/dnntrace record --simgpu \
	  -o $(SCRIPTS_DEMO_DIR)/trace -- $(BUILD)/workloads/cnn_train $(SCRIPTS_DEMO_DIR)/truth
	DNNTRACE_BUILD=$(abspath $(BUILD)) scripts/dnntrace analyze $(SCRIPTS_DEMO_DIR)/trace \
	  -o $(SCRIPTS_DEMO_DIR)/report --name cnn_train \
	  --categories tests/workloads/cnn_train_categories.txt
	@echo "demo: report in $(SCRIPTS_DEMO_DIR)/report (kernels.config, liveness_analysis.config, *.csv, timeline.json, plots/)"

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/dnntrace \
	  $(DESTDIR)$(PREFIX)/share/dnntrace/scripts/lib $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/share/dnntrace/python/dnntrace_torch/shim
	install -m 755 scripts/dnntrace $(DESTDIR)$(PREFIX)/bin/dnntrace
	install -m 755 $(BUILD)/bin/dnntrace-analyze $(DESTDIR)$(PREFIX)/bin/dnntrace-analyze
	install -m 755 $(BUILD)/lib/libdnntrace.so $(DESTDIR)$(PREFIX)/lib/dnntrace/libdnntrace.so
	install -m 755 $(addprefix scripts/,$(SCRIPTS_HELPERS)) $(DESTDIR)$(PREFIX)/share/dnntrace/scripts/
	install -m 644 scripts/lib/dnntrace-session.sh $(DESTDIR)$(PREFIX)/share/dnntrace/scripts/lib/
	install -m 644 scripts/lib/dnntrace-record.sh $(DESTDIR)$(PREFIX)/share/dnntrace/scripts/lib/
	install -m 644 scripts/lib/dnntrace_plot.py $(DESTDIR)$(PREFIX)/share/dnntrace/scripts/lib/
	install -m 644 include/dnntrace.h $(DESTDIR)$(PREFIX)/include/dnntrace.h
	install -m 644 $(SCRIPTS_PYTHON_PACKAGE) $(DESTDIR)$(PREFIX)/share/dnntrace/python/dnntrace_torch/
	install -m 644 $(SCRIPTS_PYTHON_SHIM) $(DESTDIR)$(PREFIX)/share/dnntrace/python/dnntrace_torch/shim/
	if [ -d $(BUILD)/simgpu/lib ]; then \
	  install -d $(DESTDIR)$(PREFIX)/lib/dnntrace/simgpu && \
	  cp -P $(BUILD)/simgpu/lib/* $(DESTDIR)$(PREFIX)/lib/dnntrace/simgpu/; fi

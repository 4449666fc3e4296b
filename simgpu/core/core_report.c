/*
 * Reports to the simulated CUPTI (in libcuda.so.1): correlation ids, the
 * attach point libcupti looks up (simgpu_cupti_hook.h), and the runtime's
 * frames, which merge a runtime call and the driver calls it makes into one
 * report, as CUPTI sees one runtime API call with its driver call nested
 * inside. It must never call the sink while holding sim_lock.
 */
#include "simgpu/core/sim_internal.h"

#include <stdatomic.h>
#include <stdlib.h>

static _Atomic uint32_t last_correlation_id;
static _Atomic(simgpu_work_sink) cupti_sink;
static _Atomic(simgpu_api_filter) cupti_api_filter;
/* The innermost runtime call in progress on this thread, if any. */
static _Thread_local struct simgpu_runtime_frame *current_frame;
/* A graph launch's kernels, delivered after the frame that launched it. */
static _Thread_local struct simgpu_runtime_frame *graph_frame;
static _Thread_local struct simgpu_work *graph_kernels;
static _Thread_local size_t graph_kernel_count;

uint32_t sim_next_correlation_id(void)
{
	return atomic_fetch_add(&last_correlation_id, 1) + 1;
}

/* Work is reported from the thread that submitted it: its current
 * context's device is the device the work ran on (a stream belongs to the
 * context it was created in; the simulator does not check that). */
static void deliver(const struct simgpu_work *work)
{
	simgpu_work_sink sink = atomic_load(&cupti_sink);
	if (!sink)
		return;
	struct simgpu_work copy = *work;
	copy.device_id = (uint32_t)sim_current_device();
	sink(&copy);
}

static int api_wanted(int runtime_cbid, int driver_cbid)
{
	simgpu_api_filter filter =
		atomic_load_explicit(&cupti_api_filter, memory_order_acquire);
	return filter && filter(runtime_cbid, driver_cbid);
}

void sim_report_work(struct simgpu_work *work)
{
	struct simgpu_runtime_frame *frame = current_frame;
	if (!frame) {
		deliver(work);
		return;
	}
	work->api_cbid = frame->runtime_cbid;
	if (frame->start_ns)
		work->api_start_ns = frame->start_ns;
	frame->work = *work;
	frame->reported = 1;
}

static void deliver_kernels(struct simgpu_work *kernels, size_t n)
{
	for (size_t i = 0; i < n; i++)
		deliver(&kernels[i]);
	free(kernels);
}

void sim_report_graph_launch(struct simgpu_work *api,
			     struct simgpu_work *kernels, size_t n)
{
	struct simgpu_runtime_frame *frame = current_frame;
	sim_report_work(api);
	if (!frame) {
		deliver_kernels(kernels, n);
		return;
	}
	graph_frame = frame;
	graph_kernels = kernels;
	graph_kernel_count = n;
}

uint64_t sim_api_begin(int driver_cbid)
{
	struct simgpu_runtime_frame *frame = current_frame;
	if (frame && frame->start_ns)
		return frame->start_ns;
	return api_wanted(frame ? frame->runtime_cbid : 0, driver_cbid)
		       ? sim_now_ns() : 0;
}

void sim_api_end(int driver_cbid, uint64_t api_start_ns, int driver_result)
{
	if (!api_start_ns)
		return;
	struct simgpu_work work = {
		.kind = SIMGPU_WORK_NONE,
		.api_start_ns = api_start_ns,
		.driver_cbid = driver_cbid,
		.driver_result = driver_result,
	};
	sim_report_work(&work);
}

void sim_runtime_begin(struct simgpu_runtime_frame *frame, int runtime_cbid,
		       int submits_work)
{
	frame->runtime_cbid = runtime_cbid;
	frame->submits_work = submits_work;
	frame->reported = 0;
	frame->start_ns = submits_work || api_wanted(runtime_cbid, 0)
				  ? sim_now_ns() : 0;
	frame->outer = current_frame;
	current_frame = frame;
}

/*
 * The frame is closed before the sink runs: bufferCompleted may make CUDA
 * calls of its own, which must not land in this frame.
 */
int sim_runtime_end(struct simgpu_runtime_frame *frame, int result)
{
	current_frame = frame->outer;
	if (frame->reported) {
		frame->work.api_result = result;
		deliver(&frame->work);
		if (graph_frame == frame) {
			graph_frame = NULL;
			deliver_kernels(graph_kernels, graph_kernel_count);
		}
	} else if (!frame->submits_work && frame->start_ns) {
		struct simgpu_work work = {
			.kind = SIMGPU_WORK_NONE,
			.api_start_ns = frame->start_ns,
			.api_cbid = frame->runtime_cbid,
			.api_result = result,
		};
		deliver(&work);
	}
	return result;
}

uint32_t simgpu_internal_next_correlation_id(void);
uint32_t simgpu_internal_next_correlation_id(void)
{
	return sim_next_correlation_id();
}

int simgpu_internal_driver_initialized(void);
int simgpu_internal_driver_initialized(void)
{
	return sim_driver_initialized();
}

int simgpu_internal_attach_cupti(unsigned int version, simgpu_work_sink sink,
				 simgpu_api_filter filter);
int simgpu_internal_attach_cupti(unsigned int version, simgpu_work_sink sink,
				 simgpu_api_filter filter)
{
	if (version != SIMGPU_CUPTI_HOOK_VERSION)
		return -1;
	sim_init();
	atomic_store(&cupti_sink, sink);
	atomic_store(&cupti_api_filter, filter);
	return 0;
}

/*
 * timeline.json writer (timeline_json.h): Chrome's trace-event format in
 * the PyTorch profiler's (Kineto's) conventions, so that Holistic Trace
 * Analysis and PyTorch tooling read it as they read a Kineto trace, while
 * Perfetto UI and chrome://tracing still load it. One file per traced
 * process (a Kineto trace is one per rank): its host threads and the GPU
 * work it caused.
 *   header: "schemaVersion", "distributedInfo" {"rank": N} (a space after
 *     the colon: HTA finds the rank with the pattern "rank":\s+(\d+); N is
 *     the rank the process's launcher gave it (RANK, ...: the status
 *     event's, trace format 6), else its index in order of appearance),
 *     "deviceProperties" (written at the end: the devices the process
 *     used; the trace carries no device properties);
 *   host thread (pid = vpid, tid = vtid): one "X" slice per traced call,
 *     cat "cuda_runtime" / "cuda_driver" for CUDA calls (cudaX / cuX),
 *     "cpu_op" for library calls (cuDNN, cuBLAS); args "correlation" and
 *     "External id" (both the call's id) and its stream as a hex string (a
 *     number there would make HTA count the call as GPU work); NVTX
 *     push/pop ranges as "X" slices, cat "user_annotation", written when
 *     they end; the step range's occurrences named "ProfilerStep#N" (N
 *     from 1; the range's own name in args);
 *   GPU (pid = the device, tid = CUPTI's stream id, as Kineto): "X" per
 *     kernel (cat "kernel"), copy ("gpu_memcpy", named as Kineto names
 *     them from CUPTI's copy kind and each end's memory kind, "Memcpy HtoD
 *     (Pinned -> Device)"; a trace before format 7 has no memory kinds:
 *     the host side is then Unknown) and set ("gpu_memset", "Memset
 *     (Device)"); args "device", "stream", "correlation" and "External
 *     id" (the call's id: the same as on its call's slice), copies and
 *     sets "bytes" and
 *     "memory bandwidth (GB/s)". A record whose call is not known yet
 *     (its correlation record comes later) waits, and is written once its
 *     call is known or at the end;
 *   flows (cat "ac2g"): an "s" at the call's slice, an "f" (binding point
 *     "e") at the GPU slice, one fresh id per pair;
 *   NVTX start/end ranges: async "b"/"e" (cat "user_annotation"), they
 *     may end on another thread;
 *   tensors: async "b"/"e" (cat "tensor") from alloc to free, named for
 *     the tensor ("tensor <id>" when it has no name), written together
 *     when the tensor is freed (or at the end), when its name is final;
 *   counters "C": "live bytes (device D)" at each alloc and free (host
 *     call times), "active bytes (device D)" = bytes of the tensors of a
 *     kernel's call, set at its start and back to 0 at its end.
 * Timestamps: whole µs, every time rounded to the nearest (so a slice's
 * duration is round(end) - round(start), and containment and order on a
 * track are kept: rounding is monotonic). Not ns with three decimals, as
 * Kineto now writes: HTA then rounds each start up and each end down,
 * which takes up to 1 µs off every kernel (111 µs of the demo's 12.2 ms
 * of GPU busy time) and gives a call shorter than 1 µs a negative
 * duration; integers it takes as they are. Exact ns times are in
 * kernels.csv and the other tables.
 * Records the GPU delivers late are written when they arrive: the format
 * does not need events sorted.
 * Must never hold more output than two 1 MiB buffers per process
 * (out_buffer.h), and never write a string unescaped.
 */
#include "analysis/report/timeline_json.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/model/api_names.h"
#include "analysis/model/nvtx_ranges.h"
#include "analysis/report/out_buffer.h"
#include "analysis/report/timeline_pftrace.h"
#include "analysis/util.h"
#include "dnntrace_version.h"
#include "tracepoints/dnntrace_enums.h"

#define NO_PENDING UINT64_MAX
#define PARTIAL_PREFIX "timeline-pid"
#define JSON_SUFFIX ".json"
#define PFTRACE_SUFFIX ".pftrace"
#define PARTIAL ".partial"
#define THREADED_WRITERS 4       /* processes whose buffers a thread writes */
#define RANK_PREFIX "{\"schemaVersion\":1,\"distributedInfo\":{\"rank\": "
#define RANK_WIDTH 10                /* INT_MAX's digits */

/* Who made a call, for its flow arrows: the thread and its slice's time. */
struct tl_call {
	int64_t vtid;
	uint64_t ts;
};

/* A GPU record whose call is not known yet (its correlation came later). */
struct tl_pending {
	uint64_t start, end, bytes;
	uint64_t next;               /* index of the next one, NO_PENDING */
	const char *name;            /* a kernel's, interned by the model */
	uint32_t device, stream, correlation, copy_kind;
	uint8_t src_mem_kind, dst_mem_kind;
	enum dt_event_kind kind;
};

/* An open NVTX push range, written as one slice when it is popped. */
struct tl_push {
	int64_t vtid;
	const char *domain, *name;   /* interned by the model */
	uint64_t start;
};

/* A thread's name: LTTng's procname context, sent with its first event. */
struct tl_thread_name {
	int64_t vtid;
	const char *name;            /* interned by the model */
};

struct tl_device {
	int32_t device;
	uint64_t live;               /* bytes of live tensors */
	/* its timeline.pftrace tracks, 0 until used */
	uint64_t gpu_track, live_track, active_track;
};

/* A track named in the files, and its timeline.pftrace track (0: none). */
struct tl_track {
	uint64_t key;
	uint64_t uuid;
};

/* The text ","pid":P,"tid":T,"ts":" of a track (begin_event). */
struct tl_track_text {
	int64_t pid, tid;            /* tid -1: a counter's, none */
	size_t len;                  /* 0: unused */
	char text[64];               /* 8 + 20 + 7 + 20 + 6 = 61 at most */
};
#define TRACK_TEXTS 4

struct tl_process {
	int64_t vpid;
	size_t rank;
	struct dt_out out;
	bool json;                   /* out (the JSON) is open */
	uint64_t json_events;        /* events written to it */
	struct dt_pftrace *pf;       /* timeline.pftrace, or NULL */
	bool writing;                /* json or pf */
	bool first;                  /* no event written yet */
	struct tl_track_text tracks[TRACK_TEXTS];
	size_t next_track;           /* the one replaced next */
	uint64_t ts_value;           /* the last time written, as text: */
	char ts_text[24];
	size_t ts_len;               /* 0: none yet */
	struct dt_u64map call_index;     /* call_id -> index in calls */
	struct tl_call *calls;
	size_t n_calls, cap_calls;
	struct dt_u64map pending_head;   /* correlation -> first pending */
	struct tl_pending *pending;
	size_t n_pending, cap_pending;
	struct tl_track *threads;        /* host tracks named so far: vtid */
	size_t n_threads, cap_threads;
	struct tl_track *streams;        /* GPU tracks named: device << 32 | stream */
	size_t n_streams, cap_streams;
	struct tl_push *pushes;          /* open push ranges, oldest first */
	size_t n_pushes, cap_pushes;
	struct tl_device *devices;
	size_t n_devices, cap_devices;
	uint64_t steps;                  /* ProfilerStep slices so far */
	struct tl_thread_name *names;
	size_t n_names, cap_names;
	bool named;                      /* process_name written with a
	                                  * program's name */
	bool windowed;                   /* only [win_start, win_end] */
	uint64_t win_start, win_end;
};

/* A process's window, given before its first event. */
struct tl_window {
	int64_t vpid;
	uint64_t start, end;
};

struct dt_timeline {
	char dir[4096];
	struct dt_timeline_formats formats;
	char *step_range;            /* the range whose occurrences are steps */
	uint64_t next_flow;
	uint64_t last_ts;            /* the latest time seen: ends open things */
	int error;                   /* the first failure to open a file */
	struct tl_process *processes;
	size_t n_processes, cap_processes;
	size_t last_process;
	struct tl_window *windows;
	size_t n_windows, cap_windows;
};

/* Whether [start, end] lies inside p's window (GPU work; calls by their
 * return). */
static bool inside(const struct tl_process *p, uint64_t start, uint64_t end)
{
	return !p->windowed || (start >= p->win_start && end <= p->win_end);
}

/* Whether [start, end] meets p's window (ranges, tensor lifetimes). */
static bool meets(const struct tl_process *p, uint64_t start, uint64_t end)
{
	return !p->windowed || (end >= p->win_start && start <= p->win_end);
}

/* ---- JSON output ------------------------------------------------------ */

/* strlen of a literal folds at compile time, and so the copy inlines. */
static inline void put(struct dt_out *o, const char *s)
{
	dt_out_str(o, s);
}

static void json_string(struct dt_out *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	dt_out_c(f, '"');
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		const unsigned char *run = p;
		while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
			p++;       /* plain ASCII goes out in one copy */
		dt_out_mem(f, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		unsigned char c = *p;
		if (c == '"' || c == '\\') {
			dt_out_c(f, '\\');
			dt_out_c(f, (char)c);
			p++;
		} else if (c < 0x20) {
			const char *short_form = c == '\n' ? "\\n" : c == '\t' ?
				"\\t" : c == '\r' ? "\\r" : c == '\b' ? "\\b" :
				c == '\f' ? "\\f" : NULL;
			if (short_form) {
				put(f, short_form);
			} else {
				put(f, "\\u00");
				dt_out_c(f, hex[c >> 4]);
				dt_out_c(f, hex[c & 15]);
			}
			p++;
		} else {
			int n = dt_utf8_length(p);
			if (n == 0) {
				put(f, "\\ufffd");
				p++;
				continue;
			}
			for (int i = 0; i < n; i++)
				dt_out_c(f, (char)p[i]);
			p += n;
		}
	}
	dt_out_c(f, '"');
}

void dt_json_put_string(FILE *f, const char *s)
{
	struct dt_out o;
	dt_out_open_stream(&o, f);
	json_string(&o, s);
	dt_out_close(&o);
}

/* ns as whole µs, rounded to the nearest. */
static inline uint64_t whole_us(uint64_t ns)
{
	return ns / 1000 + (ns % 1000 >= 500);
}

/* A duration: the rounded end less the rounded start. */
static inline void put_dur(struct dt_out *f, uint64_t start, uint64_t end)
{
	dt_out_u64(f, whole_us(end) - whole_us(start));
}

static void put_hex(struct dt_out *f, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char buf[20];
	char *p = buf + sizeof(buf);
	*--p = '\0';
	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v);
	put(f, "\"0x");
	put(f, p);
	dt_out_c(f, '"');
}

/*
 * Opens one event object: {"ph":"X","pid":P,"tid":T,"ts":... This is the
 * most frequent code of the file, so it writes straight into the buffer,
 * and reuses the text of recent tracks and of the last time: the events
 * of one call share both (a call's slice, its tensor's lifetime and the
 * live-bytes counter), and a few tracks take turns (the host thread and
 * a GPU stream). Texts are copied in whole slots of fixed size (the
 * buffer has the room), the length then says how much counts.
 */
#define EVENT_HEAD_ROOM 128  /* ",\n{"ph":"X" and the two slots: 98 */

static char *track_text(struct tl_process *tp, char *p, int64_t pid,
		int64_t tid)
{
	struct tl_track_text *t = tp->tracks;
	for (size_t i = 0; i < TRACK_TEXTS; i++, t++)
		if (t->pid == pid && t->tid == tid && t->len) {
			memcpy(p, t->text, sizeof(t->text));
			return p + t->len;
		}
	t = &tp->tracks[tp->next_track++ % TRACK_TEXTS];
	t->pid = pid;
	t->tid = tid;
	char *q = t->text;
	memcpy(q, "\",\"pid\":", 8);
	q = dt_fmt_i64(q + 8, pid);
	if (tid >= 0) {          /* counters belong to the process: no tid */
		memcpy(q, ",\"tid\":", 7);
		q = dt_fmt_i64(q + 7, tid);
	}
	memcpy(q, ",\"ts\":", 6);
	t->len = (size_t)(q + 6 - t->text);
	memcpy(p, t->text, sizeof(t->text));
	return p + t->len;
}

/* An event on track (pid, tid) of process tp's file; tid < 0: none. */
static void begin_event(struct tl_process *tp, char ph, int64_t pid,
		int64_t tid, uint64_t ts)
{
	char *p = dt_out_room(&tp->out, EVENT_HEAD_ROOM);
	tp->json_events++;
	if (!tp->first)
		*p++ = ',';
	tp->first = false;
	memcpy(p, "\n{\"ph\":\"", 8);
	p[8] = ph;
	p = track_text(tp, p + 9, pid, tid < 0 ? -1 : tid);
	if (ts != tp->ts_value || !tp->ts_len) {
		tp->ts_value = ts;
		tp->ts_len = (size_t)(dt_fmt_u64(tp->ts_text, whole_us(ts)) -
				tp->ts_text);
	}
	memcpy(p, tp->ts_text, sizeof(tp->ts_text));
	dt_out_end(&tp->out, p + tp->ts_len);
}

static void put_name(struct dt_out *f, const char *key, const char *value)
{
	put(f, ",\"");
	put(f, key);
	put(f, "\":");
	json_string(f, value);
}

static void put_int_arg(struct dt_out *f, bool *first, const char *key, int64_t v)
{
	put(f, *first ? "\"" : ",\"");
	*first = false;
	put(f, key);
	put(f, "\":");
	dt_out_i64(f, v);
}

/* ---- per-process state ------------------------------------------------- */

/* suffix: JSON_SUFFIX or PFTRACE_SUFFIX */
static void partial_path(const struct dt_timeline *tl, int64_t vpid,
		const char *suffix, char *path, size_t size)
{
	snprintf(path, size, "%s/" PARTIAL_PREFIX "%lld%s" PARTIAL,
			tl->dir, (long long)vpid, suffix);
}

static void open_file(struct dt_timeline *tl, struct tl_process *p)
{
	char path[4200];
	bool threaded = tl->n_processes <= THREADED_WRITERS;
	if (tl->formats.pftrace) {
		partial_path(tl, p->vpid, PFTRACE_SUFFIX, path, sizeof(path));
		p->pf = dt_pftrace_open(path, threaded, p->vpid);
		if (!p->pf) {
			if (!tl->error)
				tl->error = errno ? errno : EIO;
			return;
		}
		p->writing = true;
	}
	if (!tl->formats.json)
		return;
	partial_path(tl, p->vpid, JSON_SUFFIX, path, sizeof(path));
	if (dt_out_open(&p->out, path, threaded) != 0) {
		if (!tl->error)
			tl->error = errno ? errno : EIO;
		return;
	}
	p->json = true;
	p->writing = true;
	p->first = true;
	struct dt_out *f = &p->out;
	/* The rank on the first line, with the space HTA's pattern wants;
	 * the index for now, in room for any rank: the one the launcher
	 * gave, known once the process's status event has come, goes over
	 * it when the file is closed (patch_rank). */
	put(f, RANK_PREFIX);
	char rank[RANK_WIDTH + 1];
	snprintf(rank, sizeof(rank), "%-*zu", RANK_WIDTH, p->rank);
	put(f, rank);
	put(f, "},\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":"
			"\"dnntrace-analyze\",\"version\":\"" DNNTRACE_VERSION
			"\",\"pid\":");
	dt_out_i64(f, p->vpid);
	put(f, "},\"traceEvents\":[");
	begin_event(p, 'M', p->vpid, 0, 0);
	put(f, ",\"name\":\"process_labels\",\"args\":{\"labels\":\"CPU\"}}");
}

static struct tl_process *process_of(struct dt_timeline *tl, int64_t vpid)
{
	if (tl->last_process < tl->n_processes &&
	    tl->processes[tl->last_process].vpid == vpid)
		return &tl->processes[tl->last_process];
	for (size_t i = 0; i < tl->n_processes; i++) {
		if (tl->processes[i].vpid == vpid) {
			tl->last_process = i;
			return &tl->processes[i];
		}
	}
	struct tl_process *p = DT_PUSH_SLOT(tl->processes, tl->n_processes,
			tl->cap_processes);
	memset(p, 0, sizeof(*p));
	p->vpid = vpid;
	p->rank = tl->n_processes - 1;
	for (size_t i = 0; i < tl->n_windows; i++)
		if (tl->windows[i].vpid == vpid) {
			p->windowed = true;
			p->win_start = tl->windows[i].start;
			p->win_end = tl->windows[i].end;
		}
	tl->last_process = tl->n_processes - 1;
	open_file(tl, p);
	return p;
}

static struct tl_device *device_of(struct tl_process *p, int32_t device)
{
	for (size_t i = 0; i < p->n_devices; i++)
		if (p->devices[i].device == device)
			return &p->devices[i];
	struct tl_device *d = DT_PUSH_SLOT(p->devices, p->n_devices,
			p->cap_devices);
	*d = (struct tl_device){.device = device};
	return d;
}

/* The process's name: the program's (its main thread's procname, or the
 * first thread's until the main one shows up), else "process <vpid>". */
static void name_process(struct tl_process *p, const char *program)
{
	if (p->pf && program)
		dt_pftrace_name_process(p->pf, program);
	if (!p->json)
		return;
	struct dt_out *f = &p->out;
	begin_event(p, 'M', p->vpid, 0, 0);
	put(f, ",\"name\":\"process_name\",\"args\":{\"name\":");
	if (program) {
		json_string(f, program);
	} else {
		put(f, "\"process ");
		dt_out_i64(f, p->vpid);
		dt_out_c(f, '"');
	}
	put(f, "}}");
}

/* A thread's first event brings its name (report/pass_hooks.h). */
static void thread_named(struct dt_model *m, struct tl_process *p,
		const struct dt_event *e)
{
	const char *name = dt_strpool_intern(&m->names, e->procname);
	*DT_PUSH_SLOT(p->names, p->n_names, p->cap_names) =
		(struct tl_thread_name){e->vtid, name};
	if (!p->named || e->vtid == p->vpid)
		name_process(p, name);
	p->named = true;
}

/* Names a host thread's track the first time it is used; its pftrace
 * track (0 without one). */
static uint64_t name_thread(struct tl_process *p, int64_t tid)
{
	for (size_t i = 0; i < p->n_threads; i++)
		if (p->threads[i].key == (uint64_t)tid)
			return p->threads[i].uuid;
	const char *program = NULL;
	for (size_t i = 0; i < p->n_names && !program; i++)
		if (p->names[i].vtid == tid)
			program = p->names[i].name;
	uint64_t track = 0;
	if (p->pf) {
		char name[320];
		snprintf(name, sizeof(name), "%s %lld%s%.256s%s",
				tid == p->vpid ? "main thread" : "thread",
				(long long)tid, program ? " (" : "",
				program ? program : "", program ? ")" : "");
		track = dt_pftrace_thread_track(p->pf, tid, name);
	}
	*DT_PUSH_SLOT(p->threads, p->n_threads, p->cap_threads) =
		(struct tl_track){(uint64_t)tid, track};
	if (!p->json)
		return track;
	struct dt_out *f = &p->out;
	begin_event(p, 'M', p->vpid, tid, 0);
	put(f, ",\"name\":\"thread_name\",\"args\":{\"name\":\"");
	put(f, tid == p->vpid ? "main thread " : "thread ");
	dt_out_i64(f, tid);
	if (program) {
		/* the name goes in a JSON string: its text escaped, the
		 * quotes around it dropped */
		put(f, " (");
		struct dt_out *o = f;
		size_t before = o->len;
		json_string(o, program);
		size_t after = o->len;
		memmove(o->buf + before, o->buf + before + 1, after - before - 2);
		o->len = after - 2;
		dt_out_c(f, ')');
	}
	put(f, "\"}}");
	begin_event(p, 'M', p->vpid, tid, 0);
	put(f, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":");
	dt_out_i64(f, tid == p->vpid ? 0 : 1);
	put(f, "}}");
	return track;
}

/* Names a GPU stream's track (pid = device, tid = stream, as Kineto),
 * and the device's process the first time it is used; its pftrace
 * track ("stream S" under "GPU D" under the process), 0 without one. */
static uint64_t name_stream(struct tl_process *p, uint32_t device,
		uint32_t stream)
{
	uint64_t key = (uint64_t)device << 32 | stream;
	bool device_named = false;
	for (size_t i = 0; i < p->n_streams; i++) {
		if (p->streams[i].key == key)
			return p->streams[i].uuid;
		device_named |= p->streams[i].key >> 32 == device;
	}
	struct tl_device *d = device_of(p, (int32_t)device);
	uint64_t track = 0;
	if (p->pf) {
		char name[40];
		if (!d->gpu_track) {
			snprintf(name, sizeof(name), "GPU %u", device);
			d->gpu_track = dt_pftrace_track(p->pf,
					dt_pftrace_process_track(p->pf), name);
		}
		snprintf(name, sizeof(name), "stream %u", stream);
		track = dt_pftrace_track(p->pf, d->gpu_track, name);
	}
	*DT_PUSH_SLOT(p->streams, p->n_streams, p->cap_streams) =
		(struct tl_track){key, track};
	if (!p->json)
		return track;
	struct dt_out *f = &p->out;
	if (!device_named) {
		begin_event(p, 'M', device, 0, 0);
		put(f, ",\"name\":\"process_name\",\"args\":{\"name\":\"GPU ");
		dt_out_u64(f, device);
		put(f, "\"}}");
		begin_event(p, 'M', device, 0, 0);
		put(f, ",\"name\":\"process_labels\",\"args\":{\"labels\":\"GPU ");
		dt_out_u64(f, device);
		put(f, " (of process ");
		dt_out_i64(f, p->vpid);
		put(f, ")\"}}");
		begin_event(p, 'M', device, 0, 0);
		put(f, ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":");
		dt_out_u64(f, 1000000u + device);
		put(f, "}}");
	}
	begin_event(p, 'M', device, stream, 0);
	put(f, ",\"name\":\"thread_name\",\"args\":{\"name\":\"stream ");
	dt_out_u64(f, stream);
	put(f, "\"}}");
	return track;
}

static void remember_call(struct tl_process *p, uint64_t call_id,
		int64_t vtid, uint64_t ts)
{
	if (call_id == DT_MAP_EMPTY)
		return;
	dt_u64map_put(&p->call_index, call_id, p->n_calls);
	*DT_PUSH_SLOT(p->calls, p->n_calls, p->cap_calls) =
		(struct tl_call){vtid, ts};
}

/* The pftrace track of counter what ("live bytes" or "active bytes")
 * of device, described the first time (0: no pftrace). */
static uint64_t counter_track(struct tl_process *p, const char *what,
		int64_t device)
{
	if (!p->pf)
		return 0;
	struct tl_device *d = device_of(p, (int32_t)device);
	uint64_t *track = what[0] == 'l' ? &d->live_track : &d->active_track;
	if (!*track) {
		char name[64];
		snprintf(name, sizeof(name), "%s (device %lld)", what,
				(long long)device);
		*track = dt_pftrace_counter_track(p->pf,
				dt_pftrace_process_track(p->pf), name);
	}
	return *track;
}

/* A counter's value in the JSON (in the pftrace a slice's packet
 * carries it: dt_pf_slice's counters). */
static void counter(struct tl_process *p, const char *what, int64_t device,
		uint64_t ts, uint64_t bytes)
{
	if (!p->json)
		return;
	struct dt_out *f = &p->out;
	begin_event(p, 'C', p->vpid, -1, ts);
	put(f, ",\"name\":\"");
	put(f, what);
	put(f, " (device ");
	dt_out_i64(f, device);
	put(f, ")\",\"args\":{\"bytes\":");
	dt_out_u64(f, bytes);
	put(f, "}}");
}

/* A tensor's lifetime: an async pair, one id per (process, tensor),
 * named for the tensor, both written once its name is final. */
static void tensor_lifetime(struct tl_process *p, int64_t vtid,
		const struct dt_tensor *t, uint64_t end)
{
	if (!meets(p, t->alloc_ns, end))
		return;
	struct dt_out *f = &p->out;
	char fallback[32];
	const char *name = t->name;
	if (!name) {            /* "tensor %lld", without printf's cost */
		memcpy(fallback, "tensor ", 7);
		*dt_fmt_i64(fallback + 7, t->id) = '\0';
		name = fallback;
	}
	if (p->pf) {
		/* lanes (lifetimes overlap without nesting), all named
		 * "tensors": Perfetto shows them as one group */
		struct dt_pf_arg args[4] = {
			{"tensor", DT_PF_INT, (uint64_t)t->id, NULL},
			{"bytes", DT_PF_UINT, t->bytes, NULL},
			{"device", DT_PF_INT, (uint64_t)(int64_t)t->device, NULL},
			{"addr", DT_PF_POINTER, t->ptr, NULL}};
		uint64_t last = end > t->alloc_ns ? end : t->alloc_ns;
		struct dt_pf_slice slice = {
			.track = dt_pftrace_lane(p->pf, DT_PF_TENSOR_LANES,
					"tensors", t->alloc_ns, last),
			.start = t->alloc_ns, .end = last,
			.category = "tensor", .name = name,
			/* "tensor N" is this tensor's alone; a tag's name
			 * may repeat (interned) */
			.name_unique = !t->name,
			.args = args, .n_args = t->ptr ? 4 : 3};
		dt_pftrace_slice(p->pf, &slice);
	}
	if (!p->json)
		return;
	for (int half = 0; half < 2; half++) {
		begin_event(p, half ? 'e' : 'b', p->vpid, vtid,
				half ? end : t->alloc_ns);
		put(f, ",\"cat\":\"tensor\"");
		put_name(f, "name", name);
		put(f, ",\"id\":\"");
		dt_out_i64(f, p->vpid);
		dt_out_c(f, ':');
		dt_out_i64(f, t->id);
		if (half) {
			put(f, "\"}");
			break;
		}
		put(f, "\",\"args\":{\"tensor\":");
		dt_out_i64(f, t->id);
		put(f, ",\"bytes\":");
		dt_out_u64(f, t->bytes);
		put(f, ",\"device\":");
		dt_out_i64(f, t->device);
		if (t->ptr) {
			put(f, ",\"addr\":");
			put_hex(f, t->ptr);
		}
		put(f, "}}");
	}
}

/* An NVTX start/end range [r's start, end]: in JSON an async pair
 * whose id is its index in the process, in pftrace a track of its own
 * lane (named "NVTX ranges", as the tensors'). */
static void range_event(struct tl_process *p, char ph, uint64_t ts,
		const struct dt_range *r, size_t index);
static void range_async(struct tl_process *p, const struct dt_range *r,
		size_t index, uint64_t end)
{
	if (!meets(p, r->start_ns, end))
		return;
	if (p->pf) {
		struct dt_pf_arg domain = {"domain", DT_PF_STRING, 0, r->domain};
		uint64_t last = end > r->start_ns ? end : r->start_ns;
		struct dt_pf_slice slice = {
			.track = dt_pftrace_lane(p->pf, DT_PF_RANGE_LANES,
					"NVTX ranges", r->start_ns, last),
			.start = r->start_ns, .end = last,
			.category = "user_annotation", .name = r->name,
			.args = &domain, .n_args = r->domain ? 1 : 0};
		dt_pftrace_slice(p->pf, &slice);
	}
	if (!p->json)
		return;
	range_event(p, 'b', r->start_ns, r, index);
	range_event(p, 'e', end, r, index);
}

static void range_event(struct tl_process *p, char ph, uint64_t ts,
		const struct dt_range *r, size_t index)
{
	struct dt_out *f = &p->out;
	begin_event(p, ph, p->vpid, r->vtid, ts);
	put(f, ",\"cat\":\"user_annotation\"");
	put_name(f, "name", r->name);
	put(f, ",\"id\":\"");
	dt_out_i64(f, p->vpid);
	put(f, ":r");
	dt_out_u64(f, index);
	put(f, "\",\"args\":{\"domain\":");
	json_string(f, r->domain);
	put(f, "}}");
}

/* ---- host calls -------------------------------------------------------- */

static const char *call_name(const struct dt_event *e)
{
	const char *name = e->kind == DT_EVENT_LIB_CALL ?
		dt_lib_api_name(e->api) : dt_launch_api_name(e->api);
	if (name[0])
		return name;
	switch (e->kind) {
	case DT_EVENT_ALLOC: return "alloc";
	case DT_EVENT_FREE: return "free";
	case DT_EVENT_MEMCPY: return "memcpy";
	case DT_EVENT_MEMSET: return "memset";
	case DT_EVENT_LIB_CALL: return "library call";
	default: return "launch";
	}
}

/* Kineto's category of a host call: library calls are ops, CUDA entry
 * points the runtime's (cudaX) or the driver's (cuX). */
static const char *call_category(const struct dt_event *e,
		const char *name)
{
	if (e->kind == DT_EVENT_LIB_CALL)
		return "cpu_op";
	if (strncmp(name, "cu", 2) == 0 && strncmp(name, "cuda", 4) != 0)
		return "cuda_driver";
	return "cuda_runtime";
}

/* Bytes of the distinct tensors among ids (the model knows their sizes). */
static uint64_t tensor_bytes(const struct dt_process *mp, const int64_t *ids,
		size_t n)
{
	uint64_t bytes = 0;
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = ids[j] == ids[i];
		const struct dt_tensor *t = seen || ids[i] < 0 ? NULL :
			dt_process_find_tensor(mp, ids[i]);
		if (t)
			bytes += t->bytes;
	}
	return bytes;
}

/* The flow id of a call's arrows in timeline.pftrace (0: none). */
static uint64_t call_flow(uint64_t call_id)
{
	return call_id == DT_MAP_EMPTY ? 0 : call_id + 1;
}

/* A call's slice in timeline.pftrace: the JSON's args, but the call's
 * id once (the JSON repeats it as correlation and External id for
 * HTA) and not the kernel's name (the arrow's end has it). Its flow
 * starts here; it shows once a GPU slice takes it up. */
struct tl_live {              /* the live bytes an alloc or free sets */
	bool changed;
	int32_t device;
	uint64_t bytes;
};

static void host_call_pftrace(struct tl_process *p, uint64_t track,
		const struct dt_process *mp, const struct dt_event *e,
		const char *name, const char *category, uint64_t start,
		const struct tl_live *live)
{
	struct dt_pf_arg args[8];
	size_t n = 0;
	char tensors[256];
	const struct dt_tensor *t;
	switch (e->kind) {
	case DT_EVENT_ALLOC:
		args[n++] = (struct dt_pf_arg){"bytes", DT_PF_UINT, e->bytes, NULL};
		args[n++] = (struct dt_pf_arg){"tensor", DT_PF_INT,
			(uint64_t)e->tensor, NULL};
		args[n++] = (struct dt_pf_arg){"device", DT_PF_INT,
			(uint64_t)(int64_t)e->device, NULL};
		break;
	case DT_EVENT_FREE:
		args[n++] = (struct dt_pf_arg){"tensor", DT_PF_INT,
			(uint64_t)e->tensor, NULL};
		t = e->tensor >= 0 ? dt_process_find_tensor(mp, e->tensor) : NULL;
		if (t)
			args[n++] = (struct dt_pf_arg){"bytes", DT_PF_UINT,
				t->bytes, NULL};
		break;
	case DT_EVENT_MEMCPY:
		args[n++] = (struct dt_pf_arg){"bytes", DT_PF_UINT, e->bytes, NULL};
		args[n++] = (struct dt_pf_arg){"dst_tensor", DT_PF_INT,
			(uint64_t)e->tensor, NULL};
		args[n++] = (struct dt_pf_arg){"src_tensor", DT_PF_INT,
			(uint64_t)e->src_tensor, NULL};
		break;
	case DT_EVENT_MEMSET:
		args[n++] = (struct dt_pf_arg){"bytes", DT_PF_UINT, e->bytes, NULL};
		args[n++] = (struct dt_pf_arg){"tensor", DT_PF_INT,
			(uint64_t)e->tensor, NULL};
		break;
	case DT_EVENT_GRAPH_LAUNCH:
		break;
	default:             /* launches, library calls */
		if (e->n_tensors) {
			size_t len = 0;
			tensors[0] = '\0';
			/* "%s%lld" each, without printf's cost: at most
			 * 21 bytes and the NUL, room checked before */
			for (uint32_t i = 0; i < e->n_tensors &&
					len + 24 < sizeof(tensors); i++) {
				char *at = tensors + len;
				if (i)
					*at++ = ',';
				at = dt_fmt_i64(at, e->tensors[i]);
				*at = '\0';
				len = (size_t)(at - tensors);
			}
			args[n++] = (struct dt_pf_arg){"tensors", DT_PF_STRING,
				0, tensors};
			args[n++] = (struct dt_pf_arg){"bytes", DT_PF_UINT,
				tensor_bytes(mp, e->tensors, e->n_tensors), NULL};
		}
		break;
	}
	bool calls_gpu = e->kind != DT_EVENT_ALLOC && e->kind != DT_EVENT_FREE;
	if (calls_gpu) {
		args[n++] = (struct dt_pf_arg){"correlation", DT_PF_UINT,
			e->call_id, NULL};
		if (e->stream)
			args[n++] = (struct dt_pf_arg){"stream", DT_PF_POINTER,
				e->stream, NULL};
	}
	if (e->result)
		args[n++] = (struct dt_pf_arg){"result", DT_PF_INT,
			(uint64_t)(int64_t)e->result, NULL};
	struct dt_pf_slice slice = {
		.track = track, .start = start, .end = e->ts,
		.category = category, .name = name, .args = args, .n_args = n,
		.flow_out = calls_gpu ? call_flow(e->call_id) : 0};
	if (live->changed) {
		slice.end_counter_track = counter_track(p, "live bytes",
				live->device);
		slice.end_counter = (int64_t)live->bytes;
	}
	dt_pftrace_slice(p->pf, &slice);
}

/* A host call's slice; live: the live bytes it sets (its end's time). */
static void host_call(struct tl_process *p, const struct dt_process *mp,
		const struct dt_event *e, const struct tl_live *live)
{
	struct dt_out *f = &p->out;
	uint64_t start = e->start_ns && e->start_ns <= e->ts ? e->start_ns : e->ts;
	uint64_t end = e->ts;
	const char *name = call_name(e);
	/* in the window when it returned in it (the time the trace
	 * stamps a call by, as the window's own kernel calls) */
	if (!inside(p, end, end))
		return;          /* outside the window: no slice, no arrow */
	uint64_t track = name_thread(p, e->vtid);
	if (p->pf)
		host_call_pftrace(p, track, mp, e, name, call_category(e, name),
				start, live);
	if (!p->json)
		goto remember;
	begin_event(p, 'X', e->vpid, e->vtid, start);
	put(f, ",\"dur\":");
	put_dur(f, start, end);
	put(f, ",\"cat\":\"");
	put(f, call_category(e, name));
	dt_out_c(f, '"');
	put_name(f, "name", name);
	put(f, ",\"args\":{");
	bool first = true;
	const struct dt_tensor *t;
	switch (e->kind) {
	case DT_EVENT_ALLOC:
		put_int_arg(f, &first, "bytes", (int64_t)e->bytes);
		put_int_arg(f, &first, "tensor", e->tensor);
		put_int_arg(f, &first, "device", e->device);
		break;
	case DT_EVENT_FREE:
		put_int_arg(f, &first, "tensor", e->tensor);
		t = e->tensor >= 0 ? dt_process_find_tensor(mp, e->tensor) : NULL;
		if (t) {
			put_int_arg(f, &first, "bytes", (int64_t)t->bytes);
			put_int_arg(f, &first, "device", t->device);
		}
		break;
	case DT_EVENT_MEMCPY:
		put_int_arg(f, &first, "bytes", (int64_t)e->bytes);
		put_int_arg(f, &first, "dst_tensor", e->tensor);
		put_int_arg(f, &first, "src_tensor", e->src_tensor);
		break;
	case DT_EVENT_MEMSET:
		put_int_arg(f, &first, "bytes", (int64_t)e->bytes);
		put_int_arg(f, &first, "tensor", e->tensor);
		break;
	default:             /* launches, graph launches, library calls */
		if (e->kind == DT_EVENT_LAUNCH) {
			put(f, first ? "\"kernel\":" : ",\"kernel\":");
			first = false;
			json_string(f, e->name);
		}
		if (e->kind != DT_EVENT_GRAPH_LAUNCH) {
			put(f, first ? "\"tensors\":[" : ",\"tensors\":[");
			first = false;
			for (uint32_t i = 0; i < e->n_tensors; i++) {
				if (i)
					dt_out_c(f, ',');
				dt_out_i64(f, e->tensors[i]);
			}
			dt_out_c(f, ']');
			put_int_arg(f, &first, "bytes", (int64_t)tensor_bytes(mp,
					e->tensors, e->n_tensors));
		}
		break;
	}
	if (e->kind != DT_EVENT_ALLOC && e->kind != DT_EVENT_FREE) {
		put_int_arg(f, &first, "call_id", (int64_t)e->call_id);
		put_int_arg(f, &first, "correlation", (int64_t)e->call_id);
		put_int_arg(f, &first, "External id", (int64_t)e->call_id);
		if (e->stream != 0) {
			put(f, ",\"stream\":");
			put_hex(f, e->stream);
		}
	}
	put_int_arg(f, &first, "result", e->result);
	put(f, "}}");
	if (live->changed)
		counter(p, "live bytes", live->device, e->ts, live->bytes);
remember:
	if (e->kind == DT_EVENT_ALLOC || e->kind == DT_EVENT_FREE)
		return;
	remember_call(p, e->call_id, e->vtid, start);
}

/* The tensor an alloc or free event made or ended (the model has
 * already taken the event), NULL for a failed call, a second free, or
 * an event about another tensor. */
static const struct dt_tensor *changed_tensor(const struct dt_process *mp,
		const struct dt_event *e)
{
	if (e->result != 0 || e->tensor < 0)
		return NULL;
	const struct dt_tensor *t = dt_process_find_tensor(mp, e->tensor);
	if (!t || !t->allocated)
		return NULL;
	if (e->kind == DT_EVENT_ALLOC)
		return t->alloc_ns == e->ts ? t : NULL;
	return t->free_ns == e->ts ? t : NULL;
}

/* Allocations and frees of tensors move the live counter (written with
 * the call's slice); a free ends the tensor's lifetime. */
static void alloc_or_free(struct tl_process *p, const struct dt_process *mp,
		const struct dt_event *e)
{
	const struct dt_tensor *t = changed_tensor(mp, e);
	struct tl_live live = {0};
	if (t) {
		uint64_t *bytes = &device_of(p, t->device)->live;
		if (e->kind == DT_EVENT_ALLOC)
			*bytes += t->bytes;
		else
			*bytes -= *bytes < t->bytes ? *bytes : t->bytes;
		live = (struct tl_live){true, t->device, *bytes};
	}
	host_call(p, mp, e, &live);
	if (t && e->kind == DT_EVENT_FREE)
		tensor_lifetime(p, e->vtid, t, e->ts);
}

/* ---- GPU work and its links -------------------------------------------- */

static void flow(struct dt_timeline *tl, struct tl_process *p,
		const struct tl_call *c, const struct tl_pending *w)
{
	uint64_t id = ++tl->next_flow;
	struct dt_out *f = &p->out;
	begin_event(p, 's', p->vpid, c->vtid, c->ts);
	put(f, ",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":");
	dt_out_u64(f, id);
	put(f, "}");
	begin_event(p, 'f', w->device, w->stream, w->start);
	put(f, ",\"bp\":\"e\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":");
	dt_out_u64(f, id);
	put(f, "}");
}

/* Bytes of the tensors a call passed: launch tensors or library arguments. */
static uint64_t call_tensor_bytes(const struct dt_process *mp, uint64_t call_id)
{
	uint64_t i;
	if (dt_u64map_get(&mp->launch_index, call_id, &i)) {
		const struct dt_launch *l = &mp->launches[i];
		return tensor_bytes(mp, mp->launch_tensors + l->tensors_at,
				l->n_tensors);
	}
	if (dt_u64map_get(&mp->lib_call_index, call_id, &i)) {
		const struct dt_lib_call *c = &mp->lib_calls[i];
		int64_t ids[64];
		size_t n = 0;
		for (uint32_t a = 0; a < c->n_args && n < 64; a++)
			ids[n++] = mp->lib_args[c->args_at + a].tensor;
		return tensor_bytes(mp, ids, n);
	}
	return 0;
}

/* CUPTI's memory kinds (CUpti_ActivityMemoryKind) as Kineto names them;
 * NULL: one it has no word for. */
static const char *memory_kind_name(uint8_t kind)
{
	static const char *const names[] = {"Unknown", "Pageable", "Pinned",
		"Device", "Array", "Managed", "Device Static", "Managed Static"};
	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : NULL;
}

/* CUPTI's copy kinds (CUpti_ActivityMemcpyKind) as Kineto names them. */
static const char *copy_kind_name(uint32_t kind)
{
	static const char *const names[] = {NULL, "HtoD", "DtoH", "HtoA",
		"AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"};
	return kind < sizeof(names) / sizeof(names[0]) && names[kind] ?
		names[kind] : "Unknown";
}

/* CUPTI's copy kinds (CUpti_ActivityMemcpyKind) as Kineto names them,
 * where the trace does not say each end's memory (formats 1 to 6). */
static const char *copy_name(uint32_t kind)
{
	switch (kind) {
	case 1: return "Memcpy HtoD (Unknown -> Device)";
	case 2: return "Memcpy DtoH (Device -> Unknown)";
	case 3: return "Memcpy HtoA (Unknown -> Array)";
	case 4: return "Memcpy AtoH (Array -> Unknown)";
	case 5: return "Memcpy AtoA (Array -> Array)";
	case 6: return "Memcpy AtoD (Array -> Device)";
	case 7: return "Memcpy DtoA (Device -> Array)";
	case 8: return "Memcpy DtoD (Device -> Device)";
	case 9: return "Memcpy HtoH (Unknown -> Unknown)";
	case 10: return "Memcpy PtoP (Device -> Device)";
	default: return "Memcpy Unknown (Unknown -> Unknown)";
	}
}

/* A copy's name as Kineto writes it, "Memcpy HtoD (Pinned -> Device)":
 * from each end's memory kind in the record (format 7) into buf, else
 * (older traces: both unknown) the device side from the copy kind and the
 * host side Unknown (copy_name). */
static const char *copy_name_of(const struct tl_pending *w, char *buf,
		size_t size)
{
	const char *src = memory_kind_name(w->src_mem_kind);
	const char *dst = memory_kind_name(w->dst_mem_kind);
	if ((w->src_mem_kind == 0 && w->dst_mem_kind == 0) || !src || !dst)
		return copy_name(w->copy_kind);
	snprintf(buf, size, "Memcpy %s (%s -> %s)", copy_kind_name(w->copy_kind),
			src, dst);
	return buf;
}

/* Writes GPU record w, call_id its call's (DT_MAP_EMPTY: none known):
 * its slice, its arrow, and for a kernel the active bytes while it runs. */
static void gpu_slice(struct dt_timeline *tl, struct tl_process *p,
		const struct dt_process *mp, const struct tl_pending *w,
		uint64_t call_id)
{
	struct dt_out *f = &p->out;
	bool kernel = w->kind == DT_EVENT_GPU_KERNEL;
	if (!inside(p, w->start, w->end))
		return;
	uint64_t track = name_stream(p, w->device, w->stream);
	const char *category = kernel ? "kernel" :
		w->kind == DT_EVENT_GPU_MEMSET ? "gpu_memset" : "gpu_memcpy";
	char copy_buf[64];
	const char *name = kernel ? w->name : w->kind == DT_EVENT_GPU_MEMSET ?
		"Memset (Device)" : copy_name_of(w, copy_buf, sizeof(copy_buf));
	uint64_t i;
	bool arrow = call_id != DT_MAP_EMPTY &&
		dt_u64map_get(&p->call_index, call_id, &i);
	if (p->windowed && call_id != DT_MAP_EMPTY && !arrow)
		return;      /* a window's GPU work comes with its call */
	/* a kernel whose call is known: the bytes of that call's tensors
	 * are active while it runs */
	bool active = arrow && kernel;
	uint64_t active_bytes = active ? call_tensor_bytes(mp, call_id) : 0;
	if (p->pf) {
		/* the JSON's args less the device and stream (its track's),
		 * the repeats of the call's id and the bandwidth (bytes and
		 * duration give it) */
		struct dt_pf_arg args[3] = {
			{"correlation_id", DT_PF_UINT, w->correlation, NULL}};
		size_t n = 1;
		if (call_id != DT_MAP_EMPTY)
			args[n++] = (struct dt_pf_arg){"correlation", DT_PF_UINT,
				call_id, NULL};
		if (!kernel)
			args[n++] = (struct dt_pf_arg){"bytes", DT_PF_UINT,
				w->bytes, NULL};
		/* the call's flow arrives here (and goes on to the call's
		 * next GPU slice, if any: Perfetto's flows are chains) */
		struct dt_pf_slice slice = {
			.track = track, .start = w->start, .end = w->end,
			.category = category, .name = name, .args = args,
			.n_args = n, .flow_in = arrow ? call_flow(call_id) : 0};
		if (active) {
			slice.begin_counter_track = slice.end_counter_track =
				counter_track(p, "active bytes", w->device);
			slice.begin_counter = (int64_t)active_bytes;
		}
		dt_pftrace_slice(p->pf, &slice);
	}
	if (!p->json)
		return;
	begin_event(p, 'X', w->device, w->stream, w->start);
	put(f, ",\"dur\":");
	put_dur(f, w->start, w->end);
	put(f, ",\"cat\":\"");
	put(f, category);
	dt_out_c(f, '"');
	put_name(f, "name", name);
	put(f, ",\"args\":{");
	bool first = true;
	put_int_arg(f, &first, "device", w->device);
	put_int_arg(f, &first, "stream", w->stream);
	put_int_arg(f, &first, "correlation_id", w->correlation);
	if (call_id != DT_MAP_EMPTY) {
		put_int_arg(f, &first, "call_id", (int64_t)call_id);
		put_int_arg(f, &first, "correlation", (int64_t)call_id);
		put_int_arg(f, &first, "External id", (int64_t)call_id);
	}
	if (!kernel) {
		put_int_arg(f, &first, "bytes", (int64_t)w->bytes);
		uint64_t ns = w->end - w->start;
		/* bytes per ns are GB/s */
		dt_out_printf(f, ",\"memory bandwidth (GB/s)\":%.6g",
				ns ? (double)w->bytes / (double)ns : 0.0);
	}
	put(f, "}}");
	if (arrow)   /* none when its call came after its record */
		flow(tl, p, &p->calls[i], w);
	if (!active)
		return;
	counter(p, "active bytes", w->device, w->start, active_bytes);
	counter(p, "active bytes", w->device, w->end, 0);
}

static void gpu_work(struct dt_timeline *tl, struct tl_process *p,
		struct dt_model *m, const struct dt_process *mp,
		const struct dt_event *e)
{
	struct tl_pending w = {
		.start = e->gpu_start,
		.end = e->gpu_end > e->gpu_start ? e->gpu_end : e->gpu_start,
		.bytes = e->bytes, .next = NO_PENDING,
		.name = e->kind == DT_EVENT_GPU_KERNEL ? e->name : NULL,
		.device = e->gpu_device, .stream = e->gpu_stream,
		.correlation = e->correlation_id, .copy_kind = e->copy_kind,
		.src_mem_kind = e->src_mem_kind, .dst_mem_kind = e->dst_mem_kind,
		.kind = e->kind};
	if (w.end > tl->last_ts)
		tl->last_ts = w.end;
	uint64_t call_id;
	if (mp && dt_u64map_get(&mp->call_of_correlation, e->correlation_id,
			&call_id)) {
		gpu_slice(tl, p, mp, &w, call_id);
		return;
	}
	/* Waits for its call: the name must outlive the event. */
	if (w.name)
		w.name = dt_strpool_intern(&m->names, w.name);
	uint64_t head;
	if (dt_u64map_get(&p->pending_head, e->correlation_id, &head))
		w.next = head;
	dt_u64map_put(&p->pending_head, e->correlation_id, p->n_pending);
	*DT_PUSH_SLOT(p->pending, p->n_pending, p->cap_pending) = w;
}

static void correlation(struct dt_timeline *tl, struct tl_process *p,
		const struct dt_process *mp, const struct dt_event *e)
{
	uint64_t i;
	if (!dt_u64map_get(&p->pending_head, e->correlation_id, &i) ||
	    i == NO_PENDING)
		return;
	dt_u64map_put(&p->pending_head, e->correlation_id, NO_PENDING);
	for (; i != NO_PENDING; i = p->pending[i].next) {
		gpu_slice(tl, p, mp, &p->pending[i], e->call_id);
		p->pending[i].kind = DT_EVENT_NVTX_PUSH;     /* written */
	}
}

/* ---- NVTX -------------------------------------------------------------- */

/* Whether a range named name marks a training step (nvtx_ranges.h). */
static bool is_step(const struct dt_timeline *tl, const char *name)
{
	return dt_range_is_step(name, tl->step_range);
}

/* A range as one complete slice on its thread (a step: ProfilerStep#N). */
static void range_slice(struct dt_timeline *tl, struct tl_process *p,
		int64_t vtid, const char *name, const char *domain,
		uint64_t start, uint64_t end)
{
	struct dt_out *f = &p->out;
	bool step = is_step(tl, name);
	if (step)
		p->steps++;          /* numbered in the whole trace */
	if (!meets(p, start, end))
		return;
	if (p->pf) {
		char step_name[40];
		snprintf(step_name, sizeof(step_name), "ProfilerStep#%llu",
				(unsigned long long)p->steps);
		struct dt_pf_arg args[2] = {
			{"domain", DT_PF_STRING, 0, domain},
			{"range", DT_PF_STRING, 0, name}};
		struct dt_pf_slice slice = {
			.track = name_thread(p, vtid), .start = start,
			.end = end, .category = "user_annotation",
			.name = step ? step_name : name,
			.args = domain ? args : args + 1,
			.n_args = (domain ? 1 : 0) + step};
		dt_pftrace_slice(p->pf, &slice);
	}
	if (!p->json)
		return;
	begin_event(p, 'X', p->vpid, vtid, start);
	put(f, ",\"dur\":");
	put_dur(f, start, end);
	put(f, ",\"cat\":\"user_annotation\",\"name\":");
	if (step) {
		put(f, "\"ProfilerStep#");
		dt_out_u64(f, p->steps);
		put(f, "\",\"args\":{\"range\":");
		json_string(f, name);
		put(f, ",\"domain\":");
	} else {
		json_string(f, name);
		put(f, ",\"args\":{\"domain\":");
	}
	json_string(f, domain);
	put(f, "}}");
}

static void nvtx(struct dt_timeline *tl, struct tl_process *p,
		struct dt_model *m, struct dt_process *mp,
		const struct dt_event *e)
{
	const char *domain = e->domain ?
		dt_strpool_intern(&m->names, e->domain) : NULL;
	uint64_t range;
	switch (e->kind) {
	case DT_EVENT_NVTX_PUSH:
		name_thread(p, e->vtid);
		*DT_PUSH_SLOT(p->pushes, p->n_pushes, p->cap_pushes) =
			(struct tl_push){e->vtid, domain,
				dt_strpool_intern(&m->names, e->name ? e->name : ""),
				e->ts};
		break;
	case DT_EVENT_NVTX_POP:
		for (size_t i = p->n_pushes; i-- > 0;) {
			struct tl_push *r = &p->pushes[i];
			if (r->vtid != e->vtid || r->domain != domain)
				continue;
			range_slice(tl, p, r->vtid, r->name, r->domain,
					r->start, e->ts);
			memmove(r, r + 1, (p->n_pushes - i - 1) * sizeof(*r));
			p->n_pushes--;
			break;
		}                        /* a pop with nothing open: ignored */
		break;
	case DT_EVENT_NVTX_START:
		name_thread(p, e->vtid);
		break;
	case DT_EVENT_NVTX_END:
		if (e->id != DT_MAP_EMPTY &&
		    dt_u64map_get(&mp->range_of_id, e->id, &range) &&
		    mp->ranges[range].end_ns == e->ts) {
			const struct dt_range *r = &mp->ranges[range];
			if (is_step(tl, r->name)) {
				range_slice(tl, p, r->vtid, r->name, r->domain,
						r->start_ns, r->end_ns);
			} else {
				range_async(p, r, range, e->ts);
			}
		}
		break;
	default:
		break;
	}
}

/* ---- the pass ------------------------------------------------------------ */

struct dt_timeline *dt_timeline_open(const char *out_dir,
		const char *step_range, struct dt_timeline_formats formats)
{
	struct dt_timeline *tl = dt_xcalloc(1, sizeof(*tl));
	if (strlen(out_dir) >= sizeof(tl->dir) - 64) {
		free(tl);
		errno = ENAMETOOLONG;
		return NULL;
	}
	strcpy(tl->dir, out_dir);
	tl->formats = formats;
	if (!formats.pftrace)
		tl->formats.json_max_events = 0;
	tl->step_range = step_range ? dt_xstrdup(step_range) : NULL;
	return tl;
}

/* The JSON of a large trace: too large to load where JSON is read
 * (chrome://tracing, Perfetto UI's JSON import), so it is left to the
 * pftrace, which has the same slices, and said so. */
static void give_up_json(struct dt_timeline *tl, struct tl_process *p)
{
	char path[4200];
	dt_out_close(&p->out);
	p->json = false;
	partial_path(tl, p->vpid, JSON_SUFFIX, path, sizeof(path));
	unlink(path);
	fprintf(stderr, "dnntrace-analyze: the JSON timeline of process %lld "
			"is left out past %llu events (too large to load); "
			"the .pftrace has them all (--timeline both writes "
			"both)\n", (long long)p->vpid,
			(unsigned long long)tl->formats.json_max_events);
}

void dt_timeline_window(struct dt_timeline *tl, int64_t vpid, uint64_t start,
		uint64_t end)
{
	*DT_PUSH_SLOT(tl->windows, tl->n_windows, tl->cap_windows) =
		(struct tl_window){vpid, start, end};
}

void dt_timeline_on_event(struct dt_timeline *tl, struct dt_model *m,
		const struct dt_event *e)
{
	struct tl_process *p = process_of(tl, e->vpid);
	if (!p->writing)
		return;
	struct dt_process *mp = dt_model_process(m, e->vpid);
	if (e->ts > tl->last_ts)
		tl->last_ts = e->ts;
	switch (e->kind) {
	case DT_EVENT_ALLOC:
	case DT_EVENT_FREE:
		alloc_or_free(p, mp, e);
		break;
	case DT_EVENT_MEMCPY:
	case DT_EVENT_MEMSET:
	case DT_EVENT_LAUNCH:
	case DT_EVENT_GRAPH_LAUNCH:
	case DT_EVENT_LIB_CALL:
		host_call(p, mp, e, &(struct tl_live){0});
		break;
	case DT_EVENT_GPU_KERNEL:
	case DT_EVENT_GPU_MEMCPY:
	case DT_EVENT_GPU_MEMSET:
		gpu_work(tl, p, m, mp, e);
		break;
	case DT_EVENT_EXTERNAL_CORRELATION:
		correlation(tl, p, mp, e);
		break;
	case DT_EVENT_NVTX_PUSH:
	case DT_EVENT_NVTX_POP:
	case DT_EVENT_NVTX_START:
	case DT_EVENT_NVTX_END:
		nvtx(tl, p, m, mp, e);
		break;
	default:             /* never handed here (report/pass_hooks.h) */
		break;
	}
	if (p->json && tl->formats.json_max_events &&
	    p->json_events > tl->formats.json_max_events)
		give_up_json(tl, p);
}

void dt_timeline_thread_name(struct dt_timeline *tl, struct dt_model *m,
		const struct dt_event *e)
{
	struct tl_process *p = process_of(tl, e->vpid);
	if (p->writing && e->procname)
		thread_named(m, p, e);
}

static void free_timeline(struct dt_timeline *tl)
{
	for (size_t i = 0; i < tl->n_processes; i++) {
		struct tl_process *p = &tl->processes[i];
		dt_u64map_free(&p->call_index);
		dt_u64map_free(&p->pending_head);
		if (p->json)
			dt_out_close(&p->out);
		if (p->pf)
			dt_pftrace_close(p->pf);
		free(p->calls);
		free(p->pending);
		free(p->threads);
		free(p->streams);
		free(p->pushes);
		free(p->devices);
		free(p->names);
	}
	free(tl->processes);
	free(tl->windows);
	free(tl->step_range);
	free(tl);
}

/* The launcher's rank over the index in the closed JSON of process p
 * (its status event comes after the file's first line). */
static int patch_rank(const struct dt_timeline *tl, const struct tl_process *p,
		int rank)
{
	char path[4200], text[RANK_WIDTH + 1];
	partial_path(tl, p->vpid, JSON_SUFFIX, path, sizeof(path));
	snprintf(text, sizeof(text), "%-*d", RANK_WIDTH, rank);
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t n = pwrite(fd, text, RANK_WIDTH, (off_t)strlen(RANK_PREFIX));
	int rc = n == RANK_WIDTH ? 0 : -1;
	if (n >= 0 && n != RANK_WIDTH)
		errno = EIO;
	if (close(fd) != 0)
		rc = -1;
	return rc;
}

/* Ends what is still open, the events list, and the file of process p. */
static int finish_process(struct dt_timeline *tl, struct tl_process *p,
		const struct dt_model *m)
{
	struct dt_out *f = &p->out;
	const struct dt_process *mp = dt_model_find_process(m, p->vpid);
	/* what is still open ends with its process (its last event), not
	 * with the trace: another process may have run on long after */
	uint64_t end = mp && mp->last_ns ? mp->last_ns : tl->last_ts;
	for (size_t i = 0; i < p->n_pending; i++)
		if (p->pending[i].kind != DT_EVENT_NVTX_PUSH)
			gpu_slice(tl, p, mp, &p->pending[i], DT_MAP_EMPTY);
	for (size_t i = 0; i < p->n_pushes; i++)
		range_slice(tl, p, p->pushes[i].vtid, p->pushes[i].name,
				p->pushes[i].domain, p->pushes[i].start, end);
	if (mp) {
		for (size_t r = 0; r < mp->n_ranges; r++)
			if (mp->ranges[r].by_id &&
			    mp->ranges[r].end_ns == DT_NO_TIME) {
				range_async(p, &mp->ranges[r], r, end);
			}
		for (size_t t = 0; t < mp->n_tensors; t++) {
			const struct dt_tensor *tensor = &mp->tensors[t];
			if (tensor->allocated && tensor->free_ns == DT_NO_TIME)
				tensor_lifetime(p, p->vpid, tensor, end);
		}
	}
	if (!p->named)
		name_process(p, NULL);
	int rc = 0;
	if (p->pf) {
		rc = dt_pftrace_close(p->pf);
		p->pf = NULL;
	}
	p->writing = false;
	if (!p->json)
		return rc;
	p->json = false;
	put(f, "\n],\"deviceProperties\":[");
	for (size_t d = 0; d < p->n_devices; d++) {
		put(f, d ? ",{\"id\":" : "{\"id\":");
		dt_out_i64(f, p->devices[d].device);
		put(f, ",\"name\":\"GPU ");
		dt_out_i64(f, p->devices[d].device);
		put(f, "\"}");
	}
	put(f, "]}\n");
	int json_rc = dt_out_close(f);
	if (json_rc == 0 && mp && mp->rank >= 0)
		json_rc = patch_rank(tl, p, mp->rank);
	return rc ? rc : json_rc;
}

int dt_timeline_close(struct dt_timeline *tl, const struct dt_model *m,
		char *error, size_t error_size)
{
	int rc = 0;
	if (tl->n_processes == 0)       /* an empty trace: an empty timeline */
		process_of(tl, 0);
	for (size_t i = 0; i < tl->n_processes; i++) {
		struct tl_process *p = &tl->processes[i];
		if (!p->writing)
			continue;
		if (finish_process(tl, p, m) != 0 && !tl->error)
			tl->error = errno ? errno : EIO;
	}
	for (size_t i = 0; i < tl->n_processes && !tl->error; i++) {
		for (int pftrace = 0; pftrace < 2 && !tl->error; pftrace++) {
			const char *suffix = pftrace ? PFTRACE_SUFFIX : JSON_SUFFIX;
			char from[4200], to[4200];
			partial_path(tl, tl->processes[i].vpid, suffix, from,
					sizeof(from));
			if (access(from, F_OK) != 0)
				continue;    /* not asked for, or given up */
			if (tl->n_processes == 1)
				snprintf(to, sizeof(to), "%s/timeline%s", tl->dir,
						suffix);
			else
				snprintf(to, sizeof(to), "%s/" PARTIAL_PREFIX
						"%lld%s", tl->dir, (long long)
						tl->processes[i].vpid, suffix);
			if (rename(from, to) != 0)
				tl->error = errno;
		}
	}
	if (tl->error) {
		snprintf(error, error_size, "cannot write the timeline in %s: %s",
				tl->dir, strerror(tl->error));
		dt_timeline_remove(tl->dir);
		rc = -1;
	}
	free_timeline(tl);
	return rc;
}

void dt_timeline_discard(struct dt_timeline *tl, const struct dt_model *m)
{
	for (size_t i = 0; i < tl->n_processes; i++)
		if (tl->processes[i].writing)
			finish_process(tl, &tl->processes[i], m);
	dt_timeline_remove(tl->dir);
	free_timeline(tl);
}

/* Whether name is one of the timeline's files: timeline.json,
 * timeline-pid<N>.json, either's partial, and the same in .pftrace. */
static bool timeline_file(const char *name)
{
	if (strcmp(name, "timeline" JSON_SUFFIX) == 0 ||
	    strcmp(name, "timeline" PFTRACE_SUFFIX) == 0)
		return true;
	size_t n = strlen(PARTIAL_PREFIX);
	if (strncmp(name, PARTIAL_PREFIX, n) != 0)
		return false;
	const char *p = name + n;
	if (*p == '-')
		p++;
	size_t digits = strspn(p, "0123456789");
	if (digits == 0)
		return false;
	p += digits;
	return strcmp(p, JSON_SUFFIX) == 0 ||
		strcmp(p, JSON_SUFFIX PARTIAL) == 0 ||
		strcmp(p, PFTRACE_SUFFIX) == 0 ||
		strcmp(p, PFTRACE_SUFFIX PARTIAL) == 0;
}

void dt_timeline_remove(const char *out_dir)
{
	DIR *d = opendir(out_dir);
	if (!d)
		return;
	struct dirent *entry;
	char path[4400];
	while ((entry = readdir(d)) != NULL) {
		if (!timeline_file(entry->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", out_dir, entry->d_name);
		unlink(path);
	}
	closedir(d);
}

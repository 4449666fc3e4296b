/*
 * timeline.json writer (timeline_json.h), in Chrome's trace-event format.
 * Tracks: pid = the traced process's vpid; tid = the host thread's vtid,
 * or GPU_TID + device * 100000 + CUPTI stream id for a GPU stream.
 *   host thread: one "X" slice per traced call (launches, graph launches,
 *     copies, sets and library calls from their start_ns to their event,
 *     allocs and frees at their event with duration 0: the trace stamps
 *     calls when they return), NVTX push/pop ranges as "B"/"E";
 *   GPU stream: one "X" slice per kernel, copy and set;
 *   flows: an "s" at the call's slice, an "f" (binding point "e") at the
 *     GPU slice, one fresh id per pair, written together once the GPU
 *     record's correlation and its call are both known, so every start
 *     has its finish;
 *   NVTX start/end ranges: async "b"/"e" (category nvtx), they may end on
 *     another thread;
 *   tensors: async "b"/"e" (category tensor, name "tensor") from alloc to
 *     free, one pair per tensor;
 *   counters "C": "live bytes (device D)" at each alloc and free (host
 *     call times), "active bytes (device D)" = bytes of the tensors of a
 *     kernel's call, set at its start and back to 0 at its end.
 * Timestamps: µs with three decimals, i.e. exact ns. Records the GPU
 * delivers late are written when they arrive: the format does not need
 * events sorted, only B/E to come in order on their track, which they do
 * (host events arrive in time order).
 * Must never hold more output than its two 1 MiB buffers (out_buffer.h),
 * and never write a string unescaped.
 */
#include "analysis/report/timeline_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/api_names.h"
#include "analysis/report/out_buffer.h"
#include "analysis/util.h"
#include "tracepoints/dnntrace_enums.h"

#define GPU_TID 2000000000LL
#define NO_PENDING UINT64_MAX

/* Who made a call, for its flow arrows: the thread and its slice's time. */
struct tl_call {
	int64_t vtid;
	uint64_t ts;
};

/* A GPU record whose call is not known yet (its correlation came later). */
struct tl_pending {
	int64_t tid;
	uint64_t start, end;
	uint64_t next;               /* index of the next one, NO_PENDING */
	uint32_t device;
	bool kernel;
};

struct tl_depth {                    /* open push ranges per (thread, domain) */
	int64_t vtid;
	const char *domain;          /* interned by the model */
	uint64_t depth;
};

struct tl_device_bytes {
	int32_t device;
	uint64_t live;
};

struct tl_process {
	int64_t vpid;
	struct dt_u64map call_index;     /* call_id -> index in calls */
	struct tl_call *calls;
	size_t n_calls, cap_calls;
	struct dt_u64map pending_head;   /* correlation -> first pending */
	struct tl_pending *pending;
	size_t n_pending, cap_pending;
	int64_t *threads;                /* tracks named so far */
	size_t n_threads, cap_threads;
	struct tl_depth *depths;
	size_t n_depths, cap_depths;
	struct tl_device_bytes *devices;
	size_t n_devices, cap_devices;
};

/* The text ","pid":P,"tid":T,"ts":" of a track (begin_event). */
struct tl_track_text {
	int64_t pid, tid;            /* tid -1: a counter's, none */
	size_t len;                  /* 0: unused */
	char text[64];               /* 8 + 20 + 7 + 20 + 6 = 61 at most */
};
#define TRACK_TEXTS 4

struct dt_timeline {
	struct dt_out out;           /* full buffers written on a thread of
	                              * their own: the second core is idle
	                              * while the pass decodes */
	bool first;
	struct tl_track_text tracks[TRACK_TEXTS];
	size_t next_track;           /* the one replaced next */
	uint64_t ts_value;           /* the last time written, as text: */
	char ts_text[24];
	size_t ts_len;               /* 0: none yet */
	uint64_t next_flow;
	uint64_t last_ts;                /* the latest time seen: ends open things */
	struct tl_process *processes;
	size_t n_processes, cap_processes;
	size_t last_process;
};

/* ---- JSON output ------------------------------------------------------ */

/* strlen of a literal folds at compile time, and so the copy inlines. */
static inline void put(struct dt_out *o, const char *s)
{
	dt_out_str(o, s);
}

/* Length of the valid UTF-8 sequence at s (1-4), 0 if it is not one. */
static int utf8_length(const unsigned char *s)
{
	unsigned char c = s[0];
	int n;
	uint32_t min, cp;
	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0) {
		n = 2; min = 0x80; cp = c & 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3; min = 0x800; cp = c & 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4; min = 0x10000; cp = c & 0x07;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;    /* also stops at the terminating NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;    /* overlong, beyond Unicode, or a surrogate */
	return n;
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
			int n = utf8_length(p);
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

/* ns as µs with exactly three decimals: no precision lost to a double. */
static inline void put_us(struct dt_out *f, uint64_t ns)
{
	dt_out_us3(f, ns);
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

static char *track_text(struct dt_timeline *tl, char *p, int64_t pid,
		int64_t tid)
{
	struct tl_track_text *t = tl->tracks;
	for (size_t i = 0; i < TRACK_TEXTS; i++, t++)
		if (t->pid == pid && t->tid == tid && t->len) {
			memcpy(p, t->text, sizeof(t->text));
			return p + t->len;
		}
	t = &tl->tracks[tl->next_track++ % TRACK_TEXTS];
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

static void begin_event(struct dt_timeline *tl, char ph, int64_t pid,
		int64_t tid, uint64_t ts)
{
	char *p = dt_out_room(&tl->out, EVENT_HEAD_ROOM);
	if (!tl->first)
		*p++ = ',';
	tl->first = false;
	memcpy(p, "\n{\"ph\":\"", 8);
	p[8] = ph;
	p = track_text(tl, p + 9, pid, tid < 0 ? -1 : tid);
	if (ts != tl->ts_value || !tl->ts_len) {
		tl->ts_value = ts;
		tl->ts_len = (size_t)(dt_fmt_us3(tl->ts_text, ts) - tl->ts_text);
	}
	memcpy(p, tl->ts_text, sizeof(tl->ts_text));
	dt_out_end(&tl->out, p + tl->ts_len);
	if (ts > tl->last_ts)
		tl->last_ts = ts;
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
	tl->last_process = tl->n_processes - 1;
	begin_event(tl, 'M', vpid, 0, 0);
	put(&tl->out, ",\"name\":\"process_name\",\"args\":{\"name\":\"process ");
	dt_out_i64(&tl->out, vpid);
	put(&tl->out, "\"}}");
	return p;
}

static int64_t gpu_tid(uint32_t device, uint32_t stream)
{
	return GPU_TID + (int64_t)device * 100000 + stream % 100000;
}

/* Names a track the first time it is used: "thread T" or "GPU d stream s",
 * GPU streams sorted after the host threads. */
static void name_track(struct dt_timeline *tl, struct tl_process *p,
		int64_t tid, bool gpu, uint32_t device, uint32_t stream)
{
	for (size_t i = 0; i < p->n_threads; i++)
		if (p->threads[i] == tid)
			return;
	*DT_PUSH_SLOT(p->threads, p->n_threads, p->cap_threads) = tid;
	struct dt_out *f = &tl->out;
	begin_event(tl, 'M', p->vpid, tid, 0);
	put(f, ",\"name\":\"thread_name\",\"args\":{\"name\":\"");
	if (gpu) {
		put(f, "GPU ");
		dt_out_u64(f, device);
		put(f, " stream ");
		dt_out_u64(f, stream);
	} else {
		put(f, "thread ");
		dt_out_i64(f, tid);
	}
	put(f, "\"}}");
	begin_event(tl, 'M', p->vpid, tid, 0);
	put(f, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":");
	dt_out_i64(f, gpu ? tid - GPU_TID + 1000000 : 0);
	put(f, "}}");
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

static uint64_t *live_of(struct tl_process *p, int32_t device)
{
	for (size_t i = 0; i < p->n_devices; i++)
		if (p->devices[i].device == device)
			return &p->devices[i].live;
	struct tl_device_bytes *d = DT_PUSH_SLOT(p->devices, p->n_devices,
			p->cap_devices);
	*d = (struct tl_device_bytes){device, 0};
	return &d->live;
}

static void counter(struct dt_timeline *tl, int64_t vpid, const char *what,
		int64_t device, uint64_t ts, uint64_t bytes)
{
	struct dt_out *f = &tl->out;
	begin_event(tl, 'C', vpid, -1, ts);
	put(f, ",\"name\":\"");
	put(f, what);
	put(f, " (device ");
	dt_out_i64(f, device);
	put(f, ")\",\"args\":{\"bytes\":");
	dt_out_u64(f, bytes);
	put(f, "}}");
}

/* Tensor lifetimes: async events, one id per (process, tensor). */
static void tensor_event(struct dt_timeline *tl, char ph, int64_t vpid,
		int64_t vtid, uint64_t ts, const struct dt_tensor *t)
{
	struct dt_out *f = &tl->out;
	begin_event(tl, ph, vpid, vtid, ts);
	put(f, ",\"cat\":\"tensor\",\"name\":\"tensor\",\"id\":\"");
	dt_out_i64(f, vpid);
	dt_out_c(f, ':');
	dt_out_i64(f, t->id);
	if (ph == 'e') {      /* the b has the sizes; the e the final name */
		if (t->name) {
			put(f, "\",\"args\":{\"name\":");
			json_string(f, t->name);
			put(f, "}}");
		} else {
			put(f, "\"}");
		}
		return;
	}
	put(f, "\",\"args\":{\"tensor\":");
	dt_out_i64(f, t->id);
	put(f, ",\"bytes\":");
	dt_out_u64(f, t->bytes);
	if (t->name) {
		put(f, ",\"name\":");
		json_string(f, t->name);
	}
	put(f, "}}");
}

/* The async id of an NVTX start/end range: its index in the process. */
static void range_event(struct dt_timeline *tl, char ph, int64_t vpid,
		uint64_t ts, const struct dt_range *r, size_t index)
{
	struct dt_out *f = &tl->out;
	begin_event(tl, ph, vpid, r->vtid, ts);
	put(f, ",\"cat\":\"nvtx\"");
	put_name(f, "name", r->name);
	put(f, ",\"id\":\"");
	dt_out_i64(f, vpid);
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

static void host_call(struct dt_timeline *tl, struct tl_process *p,
		const struct dt_process *mp, const struct dt_event *e)
{
	struct dt_out *f = &tl->out;
	uint64_t start = e->start_ns && e->start_ns <= e->ts ? e->start_ns : e->ts;
	name_track(tl, p, e->vtid, false, 0, 0);
	begin_event(tl, 'X', e->vpid, e->vtid, start);
	put(f, ",\"dur\":");
	put_us(f, e->ts - start);
	put_name(f, "name", call_name(e));
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
		if (t)
			put_int_arg(f, &first, "bytes", (int64_t)t->bytes);
		break;
	case DT_EVENT_MEMCPY:
		put_int_arg(f, &first, "bytes", (int64_t)e->bytes);
		put_int_arg(f, &first, "dst_tensor", e->tensor);
		put_int_arg(f, &first, "src_tensor", e->src_tensor);
		put_int_arg(f, &first, "call_id", (int64_t)e->call_id);
		break;
	case DT_EVENT_MEMSET:
		put_int_arg(f, &first, "bytes", (int64_t)e->bytes);
		put_int_arg(f, &first, "tensor", e->tensor);
		put_int_arg(f, &first, "call_id", (int64_t)e->call_id);
		break;
	default:             /* launches, graph launches, library calls */
		put_int_arg(f, &first, "call_id", (int64_t)e->call_id);
		if (e->kind == DT_EVENT_LAUNCH) {
			put(f, ",\"kernel\":");
			json_string(f, e->name);
		}
		if (e->kind != DT_EVENT_GRAPH_LAUNCH) {
			put(f, ",\"tensors\":[");
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
	if (e->kind != DT_EVENT_ALLOC && e->kind != DT_EVENT_FREE &&
	    e->stream != 0) {
		put(f, ",\"stream\":");
		put_hex(f, e->stream);
	}
	put_int_arg(f, &first, "result", e->result);
	put(f, "}}");
	if (e->kind == DT_EVENT_ALLOC || e->kind == DT_EVENT_FREE)
		return;
	remember_call(p, e->call_id, e->vtid, start);
}

/* Allocations and frees of tensors move the live counter and open or
 * close the tensor's lifetime. The model has already taken the event. */
static void tensor_change(struct dt_timeline *tl, struct tl_process *p,
		const struct dt_process *mp, const struct dt_event *e)
{
	if (e->result != 0 || e->tensor < 0)
		return;
	const struct dt_tensor *t = dt_process_find_tensor(mp, e->tensor);
	if (!t || !t->allocated)
		return;
	uint64_t *live = live_of(p, t->device);
	if (e->kind == DT_EVENT_ALLOC) {
		if (t->alloc_ns != e->ts)
			return;              /* not this event's tensor */
		*live += t->bytes;
		tensor_event(tl, 'b', e->vpid, e->vtid, e->ts, t);
	} else {
		if (t->free_ns != e->ts)
			return;              /* a second free: already closed */
		*live -= *live < t->bytes ? *live : t->bytes;
		tensor_event(tl, 'e', e->vpid, e->vtid, e->ts, t);
	}
	counter(tl, e->vpid, "live bytes", t->device, e->ts, *live);
}

/* ---- GPU work and its links -------------------------------------------- */

static void flow(struct dt_timeline *tl, int64_t vpid, const struct tl_call *c,
		int64_t gpu, uint64_t start)
{
	uint64_t id = ++tl->next_flow;
	struct dt_out *f = &tl->out;
	begin_event(tl, 's', vpid, c->vtid, c->ts);
	put(f, ",\"cat\":\"flow\",\"name\":\"launch\",\"id\":");
	dt_out_u64(f, id);
	put(f, "}");
	begin_event(tl, 'f', vpid, gpu, start);
	put(f, ",\"bp\":\"e\",\"cat\":\"flow\",\"name\":\"launch\",\"id\":");
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

/* A GPU record whose call is call_id: its arrow, and for a kernel the
 * active bytes while it runs. */
static void link_work(struct dt_timeline *tl, struct tl_process *p,
		const struct dt_process *mp, uint64_t call_id,
		const struct tl_pending *w)
{
	uint64_t i;
	if (!dt_u64map_get(&p->call_index, call_id, &i))
		return;      /* its call came after its record: no arrow */
	flow(tl, p->vpid, &p->calls[i], w->tid, w->start);
	if (!w->kernel)
		return;
	counter(tl, p->vpid, "active bytes", w->device, w->start,
			call_tensor_bytes(mp, call_id));
	counter(tl, p->vpid, "active bytes", w->device, w->end, 0);
}

static void gpu_work(struct dt_timeline *tl, struct tl_process *p,
		const struct dt_process *mp, const struct dt_event *e)
{
	struct dt_out *f = &tl->out;
	bool kernel = e->kind == DT_EVENT_GPU_KERNEL;
	int64_t tid = gpu_tid(e->gpu_device, e->gpu_stream);
	uint64_t end = e->gpu_end > e->gpu_start ? e->gpu_end : e->gpu_start;
	name_track(tl, p, tid, true, e->gpu_device, e->gpu_stream);
	uint64_t call_id;
	bool linked = mp && dt_u64map_get(&mp->call_of_correlation,
			e->correlation_id, &call_id);
	begin_event(tl, 'X', e->vpid, tid, e->gpu_start);
	put(f, ",\"dur\":");
	put_us(f, end - e->gpu_start);
	put(f, ",\"cat\":\"gpu\"");
	put_name(f, "name", kernel ? e->name :
			e->kind == DT_EVENT_GPU_MEMSET ? "memset" : "memcpy");
	put(f, ",\"args\":{");
	bool first = true;
	put_int_arg(f, &first, "correlation_id", e->correlation_id);
	if (linked)
		put_int_arg(f, &first, "call_id", (int64_t)call_id);
	if (!kernel)
		put_int_arg(f, &first, "bytes", (int64_t)e->bytes);
	put(f, "}}");
	if (end > tl->last_ts)
		tl->last_ts = end;

	struct tl_pending w = {.tid = tid, .start = e->gpu_start, .end = end,
		.next = NO_PENDING, .device = e->gpu_device, .kernel = kernel};
	if (linked) {
		link_work(tl, p, mp, call_id, &w);
		return;
	}
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
	for (; i != NO_PENDING; i = p->pending[i].next)
		link_work(tl, p, mp, e->call_id, &p->pending[i]);
}

/* ---- NVTX -------------------------------------------------------------- */

static uint64_t *depth_of(struct tl_process *p, int64_t vtid, const char *domain)
{
	for (size_t i = 0; i < p->n_depths; i++)
		if (p->depths[i].vtid == vtid && p->depths[i].domain == domain)
			return &p->depths[i].depth;
	struct tl_depth *d = DT_PUSH_SLOT(p->depths, p->n_depths, p->cap_depths);
	*d = (struct tl_depth){vtid, domain, 0};
	return &d->depth;
}

static void nvtx(struct dt_timeline *tl, struct tl_process *p,
		struct dt_model *m, struct dt_process *mp,
		const struct dt_event *e)
{
	struct dt_out *f = &tl->out;
	const char *domain = e->domain ?
		dt_strpool_intern(&m->names, e->domain) : NULL;
	uint64_t range;
	switch (e->kind) {
	case DT_EVENT_NVTX_PUSH:
		name_track(tl, p, e->vtid, false, 0, 0);
		++*depth_of(p, e->vtid, domain);
		begin_event(tl, 'B', e->vpid, e->vtid, e->ts);
		put(f, ",\"cat\":\"nvtx\"");
		put_name(f, "name", e->name);
		put(f, ",\"args\":{\"domain\":");
		json_string(f, e->domain);
		put(f, "}}");
		break;
	case DT_EVENT_NVTX_POP: {
		uint64_t *depth = depth_of(p, e->vtid, domain);
		if (*depth == 0)
			break;           /* a pop with nothing open: ignored */
		--*depth;
		begin_event(tl, 'E', e->vpid, e->vtid, e->ts);
		put(f, "}");
		break;
	}
	case DT_EVENT_NVTX_START:
		name_track(tl, p, e->vtid, false, 0, 0);
		if (mp->n_ranges > 0)   /* the model has just opened it */
			range_event(tl, 'b', e->vpid, e->ts,
					&mp->ranges[mp->n_ranges - 1],
					mp->n_ranges - 1);
		break;
	case DT_EVENT_NVTX_END:
		if (e->id != DT_MAP_EMPTY &&
		    dt_u64map_get(&mp->range_of_id, e->id, &range) &&
		    mp->ranges[range].end_ns == e->ts)
			range_event(tl, 'e', e->vpid, e->ts, &mp->ranges[range],
					range);
		break;
	default:
		break;
	}
}

/* ---- the pass ------------------------------------------------------------ */

struct dt_timeline *dt_timeline_open(const char *path)
{
	struct dt_timeline *tl = dt_xcalloc(1, sizeof(*tl));
	if (dt_out_open(&tl->out, path, true) != 0) {
		free(tl);
		return NULL;
	}
	tl->first = true;
	put(&tl->out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":"
			"\"dnntrace-analyze\"},\"traceEvents\":[");
	return tl;
}

void dt_timeline_on_event(struct dt_timeline *tl, struct dt_model *m,
		const struct dt_event *e)
{
	struct tl_process *p = process_of(tl, e->vpid);
	struct dt_process *mp = dt_model_process(m, e->vpid);
	if (e->ts > tl->last_ts)
		tl->last_ts = e->ts;
	switch (e->kind) {
	case DT_EVENT_ALLOC:
	case DT_EVENT_FREE:
		host_call(tl, p, mp, e);
		tensor_change(tl, p, mp, e);
		break;
	case DT_EVENT_MEMCPY:
	case DT_EVENT_MEMSET:
	case DT_EVENT_LAUNCH:
	case DT_EVENT_GRAPH_LAUNCH:
	case DT_EVENT_LIB_CALL:
		host_call(tl, p, mp, e);
		break;
	case DT_EVENT_GPU_KERNEL:
	case DT_EVENT_GPU_MEMCPY:
	case DT_EVENT_GPU_MEMSET:
		gpu_work(tl, p, mp, e);
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
	default:             /* never handed here (pass_hooks.h) */
		break;
	}
}

static void free_timeline(struct dt_timeline *tl)
{
	for (size_t i = 0; i < tl->n_processes; i++) {
		struct tl_process *p = &tl->processes[i];
		dt_u64map_free(&p->call_index);
		dt_u64map_free(&p->pending_head);
		free(p->calls);
		free(p->pending);
		free(p->threads);
		free(p->depths);
		free(p->devices);
	}
	free(tl->processes);
	free(tl);
}

int dt_timeline_close(struct dt_timeline *tl, const struct dt_model *m)
{
	uint64_t end = tl->last_ts;
	for (size_t i = 0; i < tl->n_processes; i++) {
		struct tl_process *p = &tl->processes[i];
		for (size_t d = 0; d < p->n_depths; d++)
			for (; p->depths[d].depth > 0; p->depths[d].depth--) {
				begin_event(tl, 'E', p->vpid, p->depths[d].vtid, end);
				put(&tl->out, "}");
			}
		const struct dt_process *mp = dt_model_find_process(m, p->vpid);
		if (!mp)
			continue;
		for (size_t r = 0; r < mp->n_ranges; r++)
			if (mp->ranges[r].by_id && mp->ranges[r].end_ns == DT_NO_TIME)
				range_event(tl, 'e', p->vpid, end, &mp->ranges[r], r);
		for (size_t t = 0; t < mp->n_tensors; t++) {
			const struct dt_tensor *tensor = &mp->tensors[t];
			if (tensor->allocated && tensor->free_ns == DT_NO_TIME)
				tensor_event(tl, 'e', p->vpid, 0, end, tensor);
		}
	}
	put(&tl->out, "\n]}\n");
	int rc = dt_out_close(&tl->out);
	int error = errno;
	free_timeline(tl);
	errno = error;
	return rc;
}

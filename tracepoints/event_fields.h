/*
 * The fields of every dnntrace event, one list per event, in the order the
 * trace carries them. Both sides of the trace are expanded from these lists
 * and from nowhere else:
 *
 *   the tracepoint definitions  tracepoints/dnntrace_*.h (LTTNG_UST_TP_FIELDS,
 *                               through DT_TP_FIELD below)
 *   the analyzer's reader       analysis/decode/event_specs.h (the names it looks up
 *                               and the slot of each)
 *
 * so a field the tracer writes is a field the reader knows by the same name,
 * and tests/tracepoints/test_event_fields.sh checks a recorded trace's
 * metadata against the reader's specs. Must hold nothing but lists.
 *
 * DNNTRACE_FIELDS_<provider>_<event>(F), one F per field:
 *   F(need, kind, type, name, source...)
 *   need    REQ: every trace holding this event has the field; OPT: traces
 *           of older tracers may lack it (the reader then reads 0, or "")
 *   kind    INT, HEX (an integer shown in hex), API (the dnntrace_api `api`
 *           enum), LIB_API (dnntrace_lib's), MEM_KIND, STRING, SEQ / SEQ_HEX
 *           (a sequence: source, length), ARRAY (fixed length: source, length)
 *   type    the integer's (or element's) C type; a STRING's is char
 *   name    the field's name in the trace
 *   source  what the tracepoint writes, from its arguments
 *
 * The trace format (tracepoints/README.md, "Format versions") is
 * DNNTRACE_TRACE_FORMAT: the lists of the previous formats are kept for the
 * analyzer's tests, which build emitters of old traces
 * (-DDNNTRACE_TRACE_FORMAT=1 or 2) that the analyzer must keep reading.
 * Format 3 (the tracer's): alloc/free carry what the analysis reads (kind
 * from the catalogue, the stream only in the stream-ordered events);
 * launches name their kernel by function id and nothing else of it;
 * library calls carry no name strings; GPU kernel records name their
 * kernel by a name id and carry its geometry. Format 4: CUDA graph nodes
 * (captured_node, graph_node, graph_node_clone, graph_exec_update) and the
 * graph node of each GPU kernel record (graph_node_id). Format 5: graph
 * memory nodes (graph_mem_node). Format 6: status's rank. Format 7: the
 * memory kind of each end of a GPU copy (gpu_memcpy src_kind, dst_kind).
 * Format 8: an exec's node disabled or enabled again (graph_node_enable).
 */
#ifndef DNNTRACE_EVENT_FIELDS_H
#define DNNTRACE_EVENT_FIELDS_H

/* The trace format the tracepoint definitions write (status.format). */
#ifndef DNNTRACE_TRACE_FORMAT
#define DNNTRACE_TRACE_FORMAT 8
#endif

/* --- provider dnntrace_api ------------------------------------------------ */

#if DNNTRACE_TRACE_FORMAT >= 3
/* The memory's kind comes from the api (memory_kinds.h); a stream-ordered
 * entry point's events are alloc_async / free_async, the same fields and
 * then the stream. */
#define DNNTRACE_FIELDS_api_alloc(F) \
	F(REQ, API, int,      api,       api) \
	F(REQ, INT, int32_t,  device,    device) \
	F(REQ, HEX, uint64_t, ptr,       (uintptr_t)ptr) \
	F(REQ, INT, uint64_t, bytes,     bytes) \
	F(REQ, INT, int64_t,  tensor_id, tensor_id) \
	F(REQ, INT, int32_t,  result,    result)

#define DNNTRACE_FIELDS_api_alloc_async(F) \
	DNNTRACE_FIELDS_api_alloc(F) \
	F(REQ, HEX, uint64_t, stream, (uintptr_t)stream)

#define DNNTRACE_FIELDS_api_free(F) \
	F(REQ, API, int,     api,       api) \
	F(REQ, INT, int64_t, tensor_id, tensor_id) \
	F(REQ, INT, int32_t, result,    result)

#define DNNTRACE_FIELDS_api_free_async(F) \
	DNNTRACE_FIELDS_api_free(F) \
	F(REQ, HEX, uint64_t, stream, (uintptr_t)stream)
#else
#define DNNTRACE_FIELDS_api_alloc(F) \
	F(REQ, API,      int,      api,             api) \
	F(REQ, MEM_KIND, int,      kind,            kind) \
	F(REQ, INT,      int32_t,  device,          device) \
	F(REQ, HEX,      uint64_t, stream,          (uintptr_t)stream) \
	F(REQ, HEX,      uint64_t, ptr,             (uintptr_t)ptr) \
	F(REQ, INT,      uint64_t, requested_bytes, requested_bytes) \
	F(REQ, INT,      uint64_t, bytes,           bytes) \
	F(REQ, INT,      int64_t,  tensor_id,       tensor_id) \
	F(REQ, INT,      int32_t,  result,          result)

#define DNNTRACE_FIELDS_api_free(F) \
	F(REQ, API,      int,      api,       api) \
	F(REQ, MEM_KIND, int,      kind,      kind) \
	F(REQ, HEX,      uint64_t, stream,    (uintptr_t)stream) \
	F(REQ, HEX,      uint64_t, ptr,       (uintptr_t)ptr) \
	F(REQ, INT,      int64_t,  tensor_id, tensor_id) \
	F(REQ, INT,      int32_t,  result,    result)
#endif

#define DNNTRACE_FIELDS_api_memcpy(F) \
	F(REQ, INT, uint64_t, call_id,    call_id) \
	F(OPT, API, int,      api,        api) \
	F(REQ, INT, int32_t,  direction,  direction) \
	F(REQ, HEX, uint64_t, dst,        (uintptr_t)dst) \
	F(REQ, HEX, uint64_t, src,        (uintptr_t)src) \
	F(OPT, INT, uint64_t, bytes,      bytes) \
	F(OPT, HEX, uint64_t, stream,     (uintptr_t)stream) \
	F(REQ, INT, int64_t,  dst_tensor, tensors[0]) \
	F(OPT, INT, int64_t,  src_tensor, tensors[1]) \
	F(REQ, INT, int32_t,  result,     result) \
	F(OPT, INT, uint64_t, start_ns,   start_ns)

#define DNNTRACE_FIELDS_api_memset(F) \
	F(REQ, INT, uint64_t, call_id,   call_id) \
	F(OPT, API, int,      api,       api) \
	F(REQ, HEX, uint64_t, ptr,       (uintptr_t)ptr) \
	F(REQ, INT, int32_t,  value,     value) \
	F(OPT, INT, uint64_t, bytes,     bytes) \
	F(OPT, HEX, uint64_t, stream,    (uintptr_t)stream) \
	F(REQ, INT, int64_t,  tensor_id, tensor_id) \
	F(REQ, INT, int32_t,  result,    result) \
	F(OPT, INT, uint64_t, start_ns,  start_ns)

#if DNNTRACE_TRACE_FORMAT >= 3
/* The kernel by its function id (its handle and name are in the function
 * event); its grid, block and shared memory are in the GPU kernel record. */
#define DNNTRACE_FIELDS_api_launch(F) \
	F(REQ, INT, uint64_t, call_id,     call_id) \
	F(REQ, API, int,      api,         api) \
	F(OPT, INT, uint64_t, function_id, function_id) \
	F(REQ, HEX, uint64_t, stream,      (uintptr_t)stream) \
	F(REQ, SEQ, int64_t,  tensors,     tensors, n_tensors) \
	F(REQ, INT, int32_t,  result,      result) \
	F(OPT, INT, uint64_t, start_ns,    start_ns)
#else
/* How a launch names its kernel: by function id (format 2), or by the name
 * string itself (format 1). */
#if DNNTRACE_TRACE_FORMAT >= 2
#define DNNTRACE_LAUNCH_KERNEL_FIELD_(F) F(OPT, INT, uint64_t, function_id, function_id)
#else
#define DNNTRACE_LAUNCH_KERNEL_FIELD_(F) F(REQ, STRING, char, name, name)
#endif

#define DNNTRACE_FIELDS_api_launch(F) \
	F(REQ, INT,     uint64_t, call_id,    call_id) \
	F(REQ, API,     int,      api,        api) \
	F(REQ, HEX,     uint64_t, func,       (uintptr_t)func) \
	DNNTRACE_LAUNCH_KERNEL_FIELD_(F) \
	F(REQ, INT,     uint32_t, grid_x,     geom->grid[0]) \
	F(REQ, INT,     uint32_t, grid_y,     geom->grid[1]) \
	F(REQ, INT,     uint32_t, grid_z,     geom->grid[2]) \
	F(REQ, INT,     uint32_t, block_x,    geom->block[0]) \
	F(REQ, INT,     uint32_t, block_y,    geom->block[1]) \
	F(REQ, INT,     uint32_t, block_z,    geom->block[2]) \
	F(REQ, INT,     uint64_t, shared_mem, geom->shared_mem) \
	F(REQ, HEX,     uint64_t, stream,     (uintptr_t)stream) \
	F(REQ, SEQ,     int64_t,  tensors,    tensors, n_tensors) \
	F(REQ, INT,     int32_t,  result,     result) \
	F(OPT, INT,     uint64_t, start_ns,   start_ns)
#endif

/* Format 2 on. */
#define DNNTRACE_FIELDS_api_function(F) \
	F(REQ, INT,    uint64_t, function_id, function_id) \
	F(REQ, HEX,    uint64_t, func,        (uintptr_t)func) \
	F(REQ, STRING, char,     name,        name) \
	F(REQ, INT,    uint32_t, n_params,    n_params)

#define DNNTRACE_FIELDS_api_tag(F) \
	F(REQ, HEX,    uint64_t, ptr,       (uintptr_t)ptr) \
	F(REQ, INT,    int64_t,  tensor_id, tensor_id) \
	F(REQ, STRING, char,     name,      name)

#if DNNTRACE_TRACE_FORMAT >= 2
#define DNNTRACE_STATUS_FORMAT_FIELD_(F) F(OPT, INT, int32_t, format, format)
#else
#define DNNTRACE_STATUS_FORMAT_FIELD_(F)
#endif

/* version: the tracer's (include/dnntrace_version.h); absent in traces
 * of tracers older than it. */
#if DNNTRACE_TRACE_FORMAT >= 3
#define DNNTRACE_STATUS_VERSION_FIELD_(F) F(OPT, STRING, char, version, version)
#else
#define DNNTRACE_STATUS_VERSION_FIELD_(F)
#endif

/* rank: the process's rank in its job as its launcher's environment
 * says (interceptors/core/process_rank.c), -1: none; absent before
 * format 6. */
#if DNNTRACE_TRACE_FORMAT >= 6
#define DNNTRACE_STATUS_RANK_FIELD_(F) F(OPT, INT, int32_t, rank, rank)
#else
#define DNNTRACE_STATUS_RANK_FIELD_(F)
#endif

#define DNNTRACE_FIELDS_api_status(F) \
	F(REQ, INT,    int32_t, cupti_ok, cupti_ok) \
	F(REQ, INT,    int32_t, code,     code) \
	F(REQ, STRING, char,    message,  message) \
	DNNTRACE_STATUS_FORMAT_FIELD_(F) \
	DNNTRACE_STATUS_VERSION_FIELD_(F) \
	DNNTRACE_STATUS_RANK_FIELD_(F)

#define DNNTRACE_FIELDS_api_graph_launch(F) \
	F(REQ, INT, uint64_t, call_id,    call_id) \
	F(REQ, API, int,      api,        api) \
	F(REQ, HEX, uint64_t, graph_exec, (uintptr_t)graph_exec) \
	F(REQ, HEX, uint64_t, stream,     (uintptr_t)stream) \
	F(REQ, INT, int32_t,  result,     result) \
	F(OPT, INT, uint64_t, start_ns,   start_ns)

/*
 * Format 4: how kernels enter CUDA graphs (tracepoints/README.md, "CUDA
 * graphs"). Node ids are CUPTI's (cuptiGetGraphNodeId), the ids GPU
 * kernel records carry in graph_node_id.
 */
/* A call made on a capturing stream (launch, library call, copy, set)
 * became the graph node node_id. */
#define DNNTRACE_FIELDS_api_captured_node(F) \
	F(REQ, INT, uint64_t, call_id, call_id) \
	F(REQ, INT, uint64_t, node_id, node_id)

/* A kernel node given its parameters by a graph call (add, set params;
 * graph_exec non-zero: the exec's copy of node_id). */
#define DNNTRACE_FIELDS_api_graph_node(F) \
	F(REQ, INT, uint64_t, call_id,     call_id) \
	F(REQ, API, int,      api,         api) \
	F(REQ, HEX, uint64_t, graph_exec,  (uintptr_t)graph_exec) \
	F(REQ, INT, uint64_t, node_id,     node_id) \
	F(REQ, INT, uint64_t, function_id, function_id) \
	F(REQ, SEQ, int64_t,  tensors,     tensors, n_tensors) \
	F(REQ, INT, int32_t,  result,      result) \
	F(OPT, INT, uint64_t, start_ns,    start_ns)

/* CUPTI's CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED: node_id is a copy of
 * original_node_id (graph_exec: the exec being instantiated; 0: a clone). */
#define DNNTRACE_FIELDS_api_graph_node_clone(F) \
	F(REQ, INT, uint64_t, node_id,          node_id) \
	F(REQ, INT, uint64_t, original_node_id, original_node_id) \
	F(REQ, HEX, uint64_t, graph_exec,       (uintptr_t)graph_exec)

/* cudaGraphExecUpdate & co.: the graph's nodes, in cuGraphGetNodes order. */
#define DNNTRACE_FIELDS_api_graph_exec_update(F) \
	F(REQ, INT, uint64_t, call_id,    call_id) \
	F(REQ, API, int,      api,        api) \
	F(REQ, HEX, uint64_t, graph_exec, (uintptr_t)graph_exec) \
	F(REQ, SEQ, int64_t,  node_ids,   node_ids, n_node_ids) \
	F(REQ, INT, int32_t,  result,     result) \
	F(OPT, INT, uint64_t, start_ns,   start_ns)

/*
 * Format 5: a graph memory node (cudaGraphAddMemAllocNode / FreeNode, the
 * driver twins, or cudaMallocAsync / cudaFreeAsync & co. captured into a
 * graph: api then the allocation's entry point). tensor_id is the graph
 * allocation's own id, fixed with its address for every launch (the
 * tracer's tensor map holds it, so kernels scanned for pointers into it
 * name it); each launch of a graph allocates and frees it anew.
 */
#define DNNTRACE_FIELDS_api_graph_mem_node(F) \
	F(REQ, INT, uint64_t, call_id,   call_id) \
	F(REQ, API, int,      api,       api) \
	F(REQ, INT, uint64_t, node_id,   node_id) \
	F(REQ, HEX, uint64_t, ptr,       (uintptr_t)ptr) \
	F(REQ, INT, uint64_t, bytes,     bytes) \
	F(REQ, INT, int64_t,  tensor_id, tensor_id) \
	F(REQ, INT, int32_t,  is_free,   is_free) \
	F(REQ, INT, int32_t,  result,    result) \
	F(OPT, INT, uint64_t, start_ns,  start_ns)

/*
 * Format 8: cudaGraphNodeSetEnabled / cuGraphNodeSetEnabled: node_id is
 * the graph's node passed (the exec's copy of it is the one disabled or
 * enabled, from the exec's next launch on); enabled is isEnabled != 0.
 */
#define DNNTRACE_FIELDS_api_graph_node_enable(F) \
	F(REQ, INT, uint64_t, call_id,    call_id) \
	F(REQ, API, int,      api,        api) \
	F(REQ, HEX, uint64_t, graph_exec, (uintptr_t)graph_exec) \
	F(REQ, INT, uint64_t, node_id,    node_id) \
	F(REQ, INT, int32_t,  enabled,    enabled) \
	F(REQ, INT, int32_t,  result,     result) \
	F(OPT, INT, uint64_t, start_ns,   start_ns)

#define DNNTRACE_FIELDS_api_mem_info(F) \
	F(REQ, INT, int32_t,  device,      device) \
	F(REQ, INT, uint64_t, free_bytes,  free_bytes) \
	F(REQ, INT, uint64_t, total_bytes, total_bytes)

/* --- provider dnntrace_gpu ------------------------------------------------ */

/* Where every kernel, copy and set record begins: the CUPTI ids of the
 * work and its GPU times; src: what the tracepoint reaches them through
 * (empty for its own arguments). */
#define DNNTRACE_GPU_WORK_FIELDS_(F, src) \
	F(REQ, INT, uint32_t, correlation_id, src correlation_id) \
	F(REQ, INT, uint32_t, device,         src device) \
	F(REQ, INT, uint32_t, context,        src context) \
	F(REQ, INT, uint32_t, stream,         src stream) \
	F(REQ, INT, uint64_t, start,          src start) \
	F(REQ, INT, uint64_t, end,            src end)

#if DNNTRACE_TRACE_FORMAT >= 4
/* The graph node that ran it (CUPTI's graphNodeId; 0: no graph launch). */
#define DNNTRACE_GPU_KERNEL_GRAPH_FIELD_(F) F(OPT, INT, uint64_t, graph_node_id, k->graph_node_id)
#else
#define DNNTRACE_GPU_KERNEL_GRAPH_FIELD_(F)
#endif

#if DNNTRACE_TRACE_FORMAT >= 3
/* The kernel's name by the id of its kernel_name event; grid and block
 * are (x, y, z). */
#define DNNTRACE_FIELDS_gpu_kernel(F) \
	DNNTRACE_GPU_WORK_FIELDS_(F, k->) \
	F(OPT, INT,   uint32_t, name_id,        k->name_id) \
	F(OPT, ARRAY, uint32_t, grid,           k->grid, 3) \
	F(OPT, ARRAY, uint32_t, block,          k->block, 3) \
	F(OPT, INT,   uint32_t, shared_mem,     k->shared_mem) \
	DNNTRACE_GPU_KERNEL_GRAPH_FIELD_(F)

/* A kernel name, once per distinct name per process. */
#define DNNTRACE_FIELDS_gpu_kernel_name(F) \
	F(REQ, INT,    uint32_t, name_id, name_id) \
	F(REQ, STRING, char,     name,    name)
#else
#define DNNTRACE_FIELDS_gpu_kernel(F) \
	DNNTRACE_GPU_WORK_FIELDS_(F, ) \
	F(REQ, STRING, char,     name,           name)
#endif

#if DNNTRACE_TRACE_FORMAT >= 7
/* The memory of each end as CUPTI names it (CUpti_ActivityMemoryKind:
 * pageable or pinned host memory, device, array, managed): what the
 * PyTorch profiler names a copy by. */
#define DNNTRACE_GPU_COPY_MEMORY_FIELDS_(F) \
	F(OPT, INT, uint8_t,  src_kind,       src_kind) \
	F(OPT, INT, uint8_t,  dst_kind,       dst_kind)
#else
#define DNNTRACE_GPU_COPY_MEMORY_FIELDS_(F)
#endif

#define DNNTRACE_FIELDS_gpu_memcpy(F) \
	DNNTRACE_GPU_WORK_FIELDS_(F, ) \
	F(REQ, INT, uint32_t, copy_kind,      copy_kind) \
	F(OPT, INT, uint64_t, bytes,          bytes) \
	DNNTRACE_GPU_COPY_MEMORY_FIELDS_(F)

#define DNNTRACE_FIELDS_gpu_memset(F) \
	DNNTRACE_GPU_WORK_FIELDS_(F, ) \
	F(REQ, INT, uint32_t, value,          value) \
	F(OPT, INT, uint64_t, bytes,          bytes)

#define DNNTRACE_FIELDS_gpu_external_correlation(F) \
	F(REQ, INT, uint32_t, correlation_id, correlation_id) \
	F(REQ, INT, uint64_t, call_id,        call_id)

#define DNNTRACE_FIELDS_gpu_records_dropped(F) \
	F(REQ, INT, uint64_t, count, count)

#define DNNTRACE_FIELDS_gpu_power(F) \
	F(REQ, INT, uint32_t, device,    device) \
	F(REQ, INT, uint64_t, sample_ns, sample_ns) \
	F(REQ, INT, uint32_t, read_ns,   read_ns) \
	F(REQ, INT, uint32_t, power_mw,  power_mw) \
	F(REQ, INT, uint8_t,  power_ok,  power_ok) \
	F(REQ, INT, uint64_t, energy_mj, energy_mj) \
	F(REQ, INT, uint8_t,  energy_ok, energy_ok)

/* --- provider dnntrace_lib ------------------------------------------------ */

#if DNNTRACE_TRACE_FORMAT >= 3
/* The names of the arguments and params are the catalogue's (entry_points.h,
 * DNNTRACE_LIB_ENTRIES), one list per entry point. */
#define DNNTRACE_FIELDS_lib_call(F) \
	F(REQ, INT,     uint64_t, call_id,  c->call_id) \
	F(REQ, LIB_API, int,      api,      c->api) \
	F(REQ, HEX,     uint64_t, stream,   (uintptr_t)c->stream) \
	F(REQ, SEQ,     int64_t,  tensors,  c->tensors, c->n_args) \
	F(REQ, SEQ_HEX, uint64_t, ptrs,     c->ptrs, c->n_args) \
	F(REQ, SEQ,     uint8_t,  roles,    c->roles, c->n_args) \
	F(REQ, SEQ,     uint8_t,  dtypes,   c->dtypes, c->n_args) \
	F(REQ, SEQ,     uint8_t,  ranks,    c->ranks, c->n_args) \
	F(REQ, SEQ,     int64_t,  dims,     c->dims, c->n_dims) \
	F(REQ, SEQ,     int64_t,  params,   c->params, c->n_params) \
	F(REQ, INT,     int32_t,  result,   c->result) \
	F(OPT, INT,     uint64_t, start_ns, c->start_ns)
#else
#define DNNTRACE_FIELDS_lib_call(F) \
	F(REQ, INT,     uint64_t, call_id,     c->call_id) \
	F(REQ, LIB_API, int,      api,         c->api) \
	F(REQ, HEX,     uint64_t, handle,      (uintptr_t)c->handle) \
	F(REQ, HEX,     uint64_t, stream,      (uintptr_t)c->stream) \
	F(REQ, SEQ,     int64_t,  tensors,     c->tensors, c->n_args) \
	F(REQ, SEQ_HEX, uint64_t, ptrs,        c->ptrs, c->n_args) \
	F(REQ, SEQ,     uint8_t,  roles,       c->roles, c->n_args) \
	F(REQ, SEQ,     uint8_t,  dtypes,      c->dtypes, c->n_args) \
	F(REQ, SEQ,     uint8_t,  ranks,       c->ranks, c->n_args) \
	F(REQ, STRING,  char,     arg_names,   c->arg_names) \
	F(REQ, SEQ,     int64_t,  dims,        c->dims, c->n_dims) \
	F(REQ, SEQ,     int64_t,  params,      c->params, c->n_params) \
	F(REQ, STRING,  char,     param_names, c->param_names) \
	F(REQ, INT,     int32_t,  result,      c->result) \
	F(OPT, INT,     uint64_t, start_ns,    c->start_ns)
#endif

#define DNNTRACE_FIELDS_lib_set_stream(F) \
	F(REQ, LIB_API, int,      api,    api) \
	F(REQ, HEX,     uint64_t, handle, (uintptr_t)handle) \
	F(REQ, HEX,     uint64_t, stream, (uintptr_t)stream) \
	F(REQ, INT,     int32_t,  result, result)

/* --- provider dnntrace_nvtx ----------------------------------------------- */

#define DNNTRACE_FIELDS_nvtx_push(F) \
	F(REQ, STRING, char, domain, domain) \
	F(REQ, STRING, char, name,   name)

#define DNNTRACE_FIELDS_nvtx_pop(F) \
	F(REQ, STRING, char, domain, domain)

#define DNNTRACE_FIELDS_nvtx_start(F) \
	F(REQ, INT,    uint64_t, id,     id) \
	F(REQ, STRING, char,     domain, domain) \
	F(REQ, STRING, char,     name,   name)

#define DNNTRACE_FIELDS_nvtx_end(F) \
	F(REQ, INT, uint64_t, id, id)

/* --- how the tracepoint definitions expand a list ------------------------- */

/*
 * LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_x(DT_TP_FIELD)). The lttng_ust_field_*
 * macros these expand to are LTTng-UST's, redefined by each of its passes
 * over the provider header: they are expanded where the event is defined,
 * in each pass.
 */
#define DT_TP_FIELD(need, kind, type, name, ...) DT_TP_##kind(type, name, __VA_ARGS__)
#define DT_TP_INT(type, name, source) lttng_ust_field_integer(type, name, source)
#define DT_TP_HEX(type, name, source) lttng_ust_field_integer_hex(type, name, source)
#define DT_TP_API(type, name, source) lttng_ust_field_enum(dnntrace_api, api, type, name, source)
#define DT_TP_LIB_API(type, name, source) \
	lttng_ust_field_enum(dnntrace_lib, api, type, name, source)
#define DT_TP_MEM_KIND(type, name, source) \
	lttng_ust_field_enum(dnntrace_api, mem_kind, type, name, source)
#define DT_TP_STRING(type, name, source) lttng_ust_field_string(name, source)
#define DT_TP_SEQ(type, name, source, length) \
	lttng_ust_field_sequence(type, name, source, uint32_t, length)
#define DT_TP_SEQ_HEX(type, name, source, length) \
	lttng_ust_field_sequence_hex(type, name, source, uint32_t, length)
#define DT_TP_ARRAY(type, name, source, length) lttng_ust_field_array(type, name, source, length)

#endif

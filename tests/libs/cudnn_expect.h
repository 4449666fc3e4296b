/*
 * What the cuDNN test programs (cudnn_calls, cudnn_graph_calls) share: the
 * `EXPECT {json}` line printed after each traced call - the event it must
 * produce, known by construction - and small helpers. One expectation:
 *   expect(api, status, handle, stream); arg(...)...; param(...)...; expect_end();
 * Roles "R" "W" "RW" "WS" "U" (unknown); dtypes "f32" "f16" "f64" "u8"; dims
 * end with -1 (use D(...)). Every argument the catalogue names for the api
 * (tracepoints/entry_points.h), in its order: one the call leaves unused
 * with unused(). Must never depend on the tracer.
 */
#ifndef DNNTRACE_TESTS_CUDNN_EXPECT_H
#define DNNTRACE_TESTS_CUDNN_EXPECT_H

#include <stddef.h>

#define die cudnn_calls_die
#define expect cudnn_calls_expect
#define arg cudnn_calls_arg
#define unused cudnn_calls_unused
#define pack_arg cudnn_calls_pack_arg
#define param cudnn_calls_param
#define expect_end cudnn_calls_expect_end
#define expect_kernels cudnn_calls_expect_kernels
#define device cudnn_calls_device
#define free_devices cudnn_calls_free_devices

void die(const char *what, long long status) __attribute__((noreturn));
void expect(const char *api, int status, const void *handle, const void *stream);
void arg(const char *name, const void *ptr, const char *role, const char *dtype, ...);
/* An argument the call's other arguments leave unused (role unused, no tensor). */
void unused(const char *name, const void *ptr);
/* A cudnnBackendExecute variant-pack argument: its uid and the attribute
 * naming it in the graph (-1: none) are expected as the params after the
 * others, in argument order. */
void pack_arg(long long uid, long long attribute, const void *ptr, const char *role,
	      const char *dtype, ...);
void param(const char *name, long long value);
/* GPU kernels the call launches when it succeeds, if not the test's default. */
void expect_kernels(int count);
void expect_end(void);
/* cudaMalloc or die; free_devices frees all of them */
void *device(size_t bytes);
void free_devices(void);

#define D(...) __VA_ARGS__, -1LL
#define CHECK_CUDNN(call) do { int s_ = (int)(call); if (s_) die(#call, s_); } while (0)
#define CHECK_CUDA(call) do { int e_ = (int)(call); if (e_) die(#call, e_); } while (0)

#endif

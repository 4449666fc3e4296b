// real_gpu_cost: what one call costs on a real GPU, for bench/real_gpu.sh,
// which runs it bare and under `dnntrace record` (make bench-gpu). Needs a
// GPU: on simgpu the figures mean nothing. Never part of make test.
//   real_gpu_cost alloc N    ns per cudaMalloc(64 KiB) + cudaFree pair
//   real_gpu_cost launch N   ns per <<<>>> launch of a kernel with a 304-byte
//                            parameter block holding 4 device pointers (bench
//                            (c)'s shape), the launch calls only (batches of
//                            128, synchronised between batches, the sync not
//                            timed)
// Each: the best of 5 rounds of N after one round of warm-up.
//   real_gpu_cost steps N    the training-step benchmark's stand-in for a
//                            program without PyTorch (bench/gpu_cost.py on
//                            simgpu): N "steps" of each model after N/10 of
//                            warm-up, printed as bench/train_step.py prints
//                            them (one JSON line): launch_bound, 64 launches
//                            of `touch` and a synchronize per step;
//                            gpu_bound, 4 launches of `spin` (a kernel
//                            looping 2^20 times) and a synchronize.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cuda_runtime.h>

struct Params {
  float *p[4];
  char pad[272];
};

__global__ void touch(Params prm) {
  if (threadIdx.x == 0 && blockIdx.x == 0) prm.p[0][0] = prm.pad[0];
}

__global__ void spin(float *out) {
  float x = threadIdx.x;
  for (int i = 0; i < (1 << 20); i++) x = x * 0.999f + 1.0f;
  if (x == -1.0f) out[0] = x;  // never: keeps the loop
}

static double now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "real_gpu_cost: %s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

static double alloc_round(long n) {
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    void *p;
    check(cudaMalloc(&p, 64 << 10), "cudaMalloc");
    check(cudaFree(p), "cudaFree");
  }
  return (now_ns() - t0) / n;
}

static double launch_round(long n, Params prm) {
  double timed = 0;
  for (long done = 0; done < n; done += 128) {
    double t0 = now_ns();
    for (int i = 0; i < 128; i++) touch<<<1, 32>>>(prm);
    timed += now_ns() - t0;
    check(cudaDeviceSynchronize(), "sync");
  }
  return timed / ((n + 127) / 128 * 128);
}

// Seconds per step of `launches` launches (of touch, or spin) and a sync.
static double step_seconds(long n, int launches, bool spinning, Params prm) {
  for (long step = 0; step < n / 10 + 1; step++) {  // warm-up
    for (int i = 0; i < launches; i++)
      spinning ? spin<<<1, 32>>>(prm.p[1]) : touch<<<1, 32>>>(prm);
    check(cudaDeviceSynchronize(), "sync");
  }
  double t0 = now_ns();
  for (long step = 0; step < n; step++) {
    for (int i = 0; i < launches; i++)
      spinning ? spin<<<1, 32>>>(prm.p[1]) : touch<<<1, 32>>>(prm);
    check(cudaDeviceSynchronize(), "sync");
  }
  return (now_ns() - t0) / 1e9 / n;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "alloc") && strcmp(argv[1], "launch") &&
                    strcmp(argv[1], "steps")) || atol(argv[2]) <= 0) {
    fprintf(stderr, "usage: real_gpu_cost alloc|launch|steps N\n");
    return 2;
  }
  long n = atol(argv[2]);
  bool launch = strcmp(argv[1], "launch") == 0;
  Params prm;
  memset(&prm, 1, sizeof prm);
  for (int i = 0; i < 4; i++) check(cudaMalloc(&prm.p[i], 4096), "cudaMalloc");
  if (strcmp(argv[1], "steps") == 0) {
    double launch_bound = step_seconds(n, 64, false, prm);
    double gpu_bound = step_seconds(n, 4, true, prm);
    printf("{\"launch_bound\": {\"model\": \"64 launches + sync (C stand-in)\", "
           "\"s_per_step\": %.9g, \"steps\": %ld}, \"gpu_bound\": {\"model\": "
           "\"4 spin kernels + sync (C stand-in)\", \"s_per_step\": %.9g, \"steps\": %ld}}\n",
           launch_bound, n, gpu_bound, n);
    return 0;
  }
  double best = 1e18;
  for (int round = 0; round < 6; round++) {  // round 0 warms up
    double ns = launch ? launch_round(n, prm) : alloc_round(n);
    if (round > 0 && ns < best) best = ns;
  }
  printf("%.1f\n", best);
  return 0;
}

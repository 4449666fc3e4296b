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

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: real_gpu_cost alloc|launch N\n");
    return 2;
  }
  long n = atol(argv[2]);
  bool launch = strcmp(argv[1], "launch") == 0;
  Params prm;
  memset(&prm, 1, sizeof prm);
  for (int i = 0; i < 4; i++) check(cudaMalloc(&prm.p[i], 4096), "cudaMalloc");
  double best = 1e18;
  for (int round = 0; round < 6; round++) {  // round 0 warms up
    double ns = launch ? launch_round(n, prm) : alloc_round(n);
    if (round > 0 && ns < best) best = ns;
  }
  printf("%.1f\n", best);
  return 0;
}

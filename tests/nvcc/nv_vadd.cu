// nv_vadd: the 10-line vector add of issue 7, as a user writes it (no ground
// truth, no error checks beyond the last): it must start, run and print the
// same line traced and untraced on simgpu.
#include <cstdio>
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main() {
  int n = 1024; float *a, *b, *c;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&c, n * 4);
  vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}

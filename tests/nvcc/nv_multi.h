// nv_multi.h: what nv_multi's two translation units share.
#ifndef NV_MULTI_H
#define NV_MULTI_H
#include "tests/nvcc/nv_common.h"
// Launches the library unit's kernels on x and y (n a multiple of 256).
void lib_step(struct truth *truth, float *x, float *y, int n);
#endif

/*
 * The simulated runtime's CUDA arrays, texture and surface objects (through
 * the driver's cuArray / cuTexObject / cuSurfObject calls), against what a
 * program knows by construction: bytes copied into an array at an offset
 * come back out unchanged (2D, the deprecated 1D forms wrapping across
 * rows, device-to-device), an array takes its bytes from the device's
 * capacity, descriptors read back as made; and the errors of
 * cuda_runtime_api.h's contracts. Also cudaGetDeviceProperties (the
 * driver's H100 attributes) and cudaStreamAttachMemAsync.
 */
#include <stdint.h>
#include <string.h>

#include "simgpu/tests/simgpu_test.h"

/* cuda_runtime_api.h's make_cudaExtent is C++-only (driver_functions.h). */
static struct cudaExtent extent_of(size_t w, size_t h, size_t d)
{
	struct cudaExtent e = { w, h, d };
	return e;
}

/* The 1D forms are deprecated, not gone: programs still call them. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static void check_arrays(void)
{
	struct cudaChannelFormatDesc f4 = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
	struct cudaChannelFormatDesc u8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
	size_t free0, free1, total;
	CHECK_CUDA(cudaMemGetInfo(&free0, &total));
	cudaArray_t a = NULL;
	CHECK_CUDA(cudaMallocArray(&a, &f4, 100, 30, 0)); /* 16 bytes an element */
	CHECK_CUDA(cudaMemGetInfo(&free1, &total));
	CHECK_EQ_U64(free0 - free1, (100 * 16 * 30 + 255) / 256 * 256);

	struct cudaChannelFormatDesc got;
	struct cudaExtent extent;
	unsigned int flags = 77;
	CHECK_CUDA(cudaArrayGetInfo(&got, &extent, &flags, a));
	CHECK(got.x == 32 && got.y == 32 && got.z == 32 && got.w == 32 && got.f == cudaChannelFormatKindFloat);
	CHECK(extent.width == 100 && extent.height == 30 && extent.depth == 0 && flags == 0);
	CHECK_CUDA(cudaGetChannelDesc(&got, a));
	CHECK(got.x == 32 && got.w == 32);

	/* 2D in at (element 3, row 5), out again, through a pitched host buffer. */
	uint8_t in[10][64], out[10][64];
	for (int r = 0; r < 10; r++)
		for (int c = 0; c < 64; c++)
			in[r][c] = (uint8_t)(r * 64 + c), out[r][c] = 0;
	CHECK_CUDA(cudaMemcpy2DToArray(a, 3 * 16, 5, in, 64, 48, 10, cudaMemcpyHostToDevice));
	CHECK_CUDA(cudaMemcpy2DFromArray(out, 64, a, 3 * 16, 5, 48, 10, cudaMemcpyDeviceToHost));
	for (int r = 0; r < 10; r++) {
		CHECK(memcmp(out[r], in[r], 48) == 0);
		CHECK(out[r][48] == 0); /* the pitch's padding is not written */
	}
	/* Device to device, from pitched memory, on a stream. */
	void *pitched;
	size_t pitch;
	CHECK_CUDA(cudaMallocPitch(&pitched, &pitch, 48, 10));
	CHECK_CUDA(cudaMemcpy2D(pitched, pitch, in, 64, 48, 10, cudaMemcpyHostToDevice));
	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	CHECK_CUDA(cudaMemcpy2DToArrayAsync(a, 0, 0, pitched, pitch, 48, 10, cudaMemcpyDeviceToDevice, s));
	memset(out, 0, sizeof(out));
	CHECK_CUDA(cudaMemcpy2DFromArrayAsync(out, 64, a, 0, 0, 48, 10, cudaMemcpyDefault, s));
	CHECK_CUDA(cudaStreamSynchronize(s));
	for (int r = 0; r < 10; r++)
		CHECK(memcmp(out[r], in[r], 48) == 0);

	/* The deprecated 1D forms wrap across the rows (1600 bytes each). */
	uint8_t line[4000], back[4000];
	for (int i = 0; i < 4000; i++)
		line[i] = (uint8_t)(i * 7);
	CHECK_CUDA(cudaMemcpyToArray(a, 1000, 2, line, sizeof(line), cudaMemcpyHostToDevice));
	memset(back, 0, sizeof(back));
	CHECK_CUDA(cudaMemcpy2DFromArray(back, 1600, a, 1000, 2, 600, 1, cudaMemcpyDeviceToHost));
	CHECK(memcmp(back, line, 600) == 0);     /* rest of row 2 */
	CHECK_CUDA(cudaMemcpy2DFromArray(back, 1600, a, 0, 3, 1600, 2, cudaMemcpyDeviceToHost));
	CHECK(memcmp(back, line + 600, 3200) == 0); /* rows 3 and 4 */
	CHECK_CUDA(cudaMemcpy2DFromArray(back, 1600, a, 0, 5, 200, 1, cudaMemcpyDeviceToHost));
	CHECK(memcmp(back, line + 3800, 200) == 0); /* start of row 5 */
	memset(back, 0, sizeof(back));
	CHECK_CUDA(cudaMemcpyFromArray(back, a, 1000, 2, sizeof(back), cudaMemcpyDeviceToHost));
	CHECK(memcmp(back, line, sizeof(back)) == 0);

	/* Errors. */
	CHECK_CUDA_IS(cudaMemcpy2DToArray(a, 99 * 16, 0, in, 64, 48, 1, cudaMemcpyHostToDevice),
		      cudaErrorInvalidValue); /* past the row */
	CHECK_CUDA_IS(cudaMemcpy2DToArray(a, 0, 25, in, 64, 48, 10, cudaMemcpyHostToDevice),
		      cudaErrorInvalidValue); /* past the last row */
	CHECK_CUDA_IS(cudaMemcpy2DToArray(a, 0, 0, in, 64, 48, 10, cudaMemcpyDeviceToHost),
		      cudaErrorInvalidMemcpyDirection);
	CHECK_CUDA_IS(cudaMemcpy2DToArray(a, 0, 0, in, 32, 48, 10, cudaMemcpyHostToDevice),
		      cudaErrorInvalidPitchValue);
	CHECK_CUDA_IS(cudaMemcpy2DFromArray(out, 64, a, 0, 0, 48, 1, cudaMemcpyHostToDevice),
		      cudaErrorInvalidMemcpyDirection);
	/* Host to host names no device side for the array. */
	CHECK_CUDA_IS(cudaMemcpy2DToArray(a, 0, 0, in, 64, 48, 1, cudaMemcpyHostToHost),
		      cudaErrorInvalidMemcpyDirection);
	CHECK_CUDA_IS(cudaMemcpy2DFromArray(out, 64, a, 0, 0, 48, 1, cudaMemcpyHostToHost),
		      cudaErrorInvalidMemcpyDirection);
	cudaArray_t bad = NULL;
	struct cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
	struct cudaChannelFormatDesc mixed = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindSigned);
	struct cudaChannelFormatDesc f8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat);
	CHECK_CUDA_IS(cudaMallocArray(&bad, &three, 4, 4, 0), cudaErrorInvalidChannelDescriptor);
	CHECK_CUDA_IS(cudaMallocArray(&bad, &mixed, 4, 4, 0), cudaErrorInvalidChannelDescriptor);
	CHECK_CUDA_IS(cudaMallocArray(&bad, &f8, 4, 4, 0), cudaErrorInvalidChannelDescriptor);
	CHECK_CUDA_IS(cudaMallocArray(&bad, &u8, 0, 4, 0), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMallocArray(&bad, &u8, 4, 4, 0x100), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMallocArray(NULL, &u8, 4, 4, 0), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMallocArray(&bad, &u8, 200000, 1, 0), cudaErrorInvalidValue);
	CHECK(bad == NULL);
	CHECK_CUDA(cudaFreeArray(NULL));

	/* 3D and layered arrays. */
	cudaArray_t vol, layers;
	CHECK_CUDA(cudaMalloc3DArray(&vol, &u8, extent_of(16, 8, 4), 0));
	CHECK_CUDA(cudaArrayGetInfo(NULL, &extent, NULL, vol));
	CHECK(extent.width == 16 && extent.height == 8 && extent.depth == 4);
	CHECK_CUDA(cudaMalloc3DArray(&layers, &u8, extent_of(16, 0, 3), cudaArrayLayered));
	CHECK_CUDA_IS(cudaMalloc3DArray(&bad, &u8, extent_of(16, 0, 3), 0), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMalloc3DArray(&bad, &u8, extent_of(16, 8, 5), cudaArrayCubemap),
		      cudaErrorInvalidValue);
	CHECK_CUDA(cudaFreeArray(vol));
	CHECK_CUDA(cudaFreeArray(layers));

	/* Texture objects on the array and on pitched memory; surfaces. */
	struct cudaResourceDesc res;
	memset(&res, 0, sizeof(res));
	res.resType = cudaResourceTypeArray;
	res.res.array.array = a;
	struct cudaTextureDesc td;
	memset(&td, 0, sizeof(td));
	td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
	td.filterMode = cudaFilterModeLinear;
	td.normalizedCoords = 1;
	cudaTextureObject_t tex = 0, tex2 = 0;
	CHECK_CUDA(cudaCreateTextureObject(&tex, &res, &td, NULL));
	CHECK(tex != 0);
	struct cudaResourceDesc back_res;
	CHECK_CUDA(cudaGetTextureObjectResourceDesc(&back_res, tex));
	CHECK(back_res.resType == cudaResourceTypeArray && back_res.res.array.array == a);
	res.resType = cudaResourceTypePitch2D;
	res.res.pitch2D.devPtr = pitched;
	res.res.pitch2D.desc = u8;
	res.res.pitch2D.width = 48;
	res.res.pitch2D.height = 10;
	res.res.pitch2D.pitchInBytes = pitch;
	CHECK_CUDA(cudaCreateTextureObject(&tex2, &res, &td, NULL));
	CHECK(tex2 != tex);
	CHECK_CUDA(cudaGetTextureObjectResourceDesc(&back_res, tex2));
	CHECK(back_res.res.pitch2D.devPtr == pitched && back_res.res.pitch2D.pitchInBytes == pitch &&
	      back_res.res.pitch2D.desc.x == 8 && back_res.res.pitch2D.desc.f == cudaChannelFormatKindUnsigned);
	res.res.pitch2D.pitchInBytes = 50; /* not a multiple of 32 */
	CHECK_CUDA_IS(cudaCreateTextureObject(&tex2, &res, &td, NULL), cudaErrorInvalidValue);
	res.res.pitch2D.pitchInBytes = pitch;
	res.res.pitch2D.height = 100000; /* past the allocation */
	CHECK_CUDA_IS(cudaCreateTextureObject(&tex2, &res, &td, NULL), cudaErrorInvalidValue);
	td.filterMode = (enum cudaTextureFilterMode)5;
	res.res.pitch2D.height = 10;
	CHECK_CUDA_IS(cudaCreateTextureObject(&tex2, &res, &td, NULL), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaCreateTextureObject(NULL, &res, &td, NULL), cudaErrorInvalidValue);

	cudaSurfaceObject_t surf = 0;
	res.resType = cudaResourceTypeArray;
	res.res.array.array = a; /* made without cudaArraySurfaceLoadStore */
	CHECK_CUDA_IS(cudaCreateSurfaceObject(&surf, &res), cudaErrorInvalidValue);
	cudaArray_t sa;
	CHECK_CUDA(cudaMallocArray(&sa, &u8, 64, 64, cudaArraySurfaceLoadStore));
	res.res.array.array = sa;
	CHECK_CUDA(cudaCreateSurfaceObject(&surf, &res));
	CHECK_CUDA(cudaGetSurfaceObjectResourceDesc(&back_res, surf));
	CHECK(back_res.res.array.array == sa);
	CHECK_CUDA_IS(cudaDestroyTextureObject(surf), cudaErrorInvalidResourceHandle); /* a surface */
	CHECK_CUDA(cudaDestroySurfaceObject(surf));
	CHECK_CUDA_IS(cudaDestroySurfaceObject(surf), cudaErrorInvalidResourceHandle);
	CHECK_CUDA(cudaDestroyTextureObject(tex));
	CHECK_CUDA(cudaDestroyTextureObject(tex2));
	CHECK_CUDA_IS(cudaDestroyTextureObject(tex), cudaErrorInvalidResourceHandle);

	CHECK_CUDA(cudaFreeArray(sa));
	CHECK_CUDA(cudaFreeArray(a));
	CHECK_CUDA_IS(cudaFreeArray(a), cudaErrorInvalidResourceHandle);
	CHECK_CUDA(cudaMemGetInfo(&free1, &total));
	CHECK_EQ_U64(free1 + (pitch * 10 + 255) / 256 * 256, free0); /* only the pitched block left */
	CHECK_CUDA_IS(cudaMemcpy2DToArray(a, 0, 0, in, 64, 48, 1, cudaMemcpyHostToDevice),
		      cudaErrorInvalidValue); /* freed */
	CHECK_CUDA(cudaStreamDestroy(s));
	CHECK_CUDA(cudaFree(pitched));
}

static void check_properties_and_attach(void)
{
	struct cudaDeviceProp p;
	CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
	int clock = 0, mem_clock = 0;
	CHECK_CUDA(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0));
	CHECK_CUDA(cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, 0));
	CHECK(clock == 1980000 && mem_clock == 2619000);
	CHECK(p.major == 9 && p.minor == 0 && p.multiProcessorCount == 132);
	CHECK(p.maxTexture1D == 131072 && p.maxTexture2D[0] == 131072 && p.maxTexture2D[1] == 65536);
	CHECK(p.maxTexture3D[2] == 16384 && p.maxTexture2DLayered[2] == 2048);
	CHECK(p.memoryBusWidth == 5120 && p.l2CacheSize == 50 * 1024 * 1024);
	CHECK(p.sharedMemPerBlock == 48 * 1024 && p.sharedMemPerMultiprocessor == 228 * 1024);
	CHECK(p.memPitch == 2147483647 && p.textureAlignment == 512 && p.surfaceAlignment == 512);
	CHECK(p.maxThreadsDim[2] == 64 && p.maxGridSize[0] == 2147483647);
	size_t total = 0;
	CHECK_CUDA(cudaMemGetInfo(&total, &total));
	CHECK(p.totalGlobalMem == total);

	float *m;
	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	CHECK_CUDA(cudaMallocManaged((void **)&m, 4096, cudaMemAttachGlobal));
	CHECK_CUDA(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle));
	CHECK_CUDA(cudaStreamAttachMemAsync(s, m, 4096, cudaMemAttachHost));
	CHECK_CUDA_IS(cudaStreamAttachMemAsync(s, m, 8, cudaMemAttachSingle), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaStreamAttachMemAsync(NULL, m, 0, cudaMemAttachSingle), cudaErrorInvalidValue);
	CHECK_CUDA(cudaStreamSynchronize(s));
	m[0] = 1.0f; /* the host may touch it */
	CHECK_CUDA(cudaStreamDestroy(s));
	CHECK_CUDA(cudaFree(m));
}

int main(void)
{
	simgpu_test_setup();
	check_arrays();
	check_properties_and_attach();
	printf("arrays, textures, surfaces, properties, stream attach\n");
	return 0;
}

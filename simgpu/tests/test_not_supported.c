/*
 * The generated "not supported" stubs, called as a program calls them:
 * through the real headers' prototypes (argument lists the stub ignores),
 * each library's own status (cudaErrorNotSupported, CUDA_ERROR_NOT_SUPPORTED,
 * CUBLAS_STATUS_NOT_SUPPORTED, CUDNN_STATUS_NOT_SUPPORTED,
 * CUPTI_ERROR_NOT_SUPPORTED), zero from cuBLAS's legacy reductions, and
 * exactly one stderr line per function however many threads call it how
 * often. Also the hand-written functions whose return type is not a status
 * (versions, channel descriptors): the values the real libraries answer.
 * The stubbed names are ones simgpu has no reason to model (graphics
 * interop, cublasXt, RNN descriptors, ...); if one gets a real
 * implementation, pick another from build/simgpu/stubs/.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include <cublasLt.h>
#include <cublasXt.h>
#include <cuda.h>
#include <cudnn.h>
#include <cupti.h>

#include "simgpu/tests/simgpu_test.h"

static void *call_unmap_many(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++)
		if (cudaGraphicsUnmapResources(0, NULL, 0) != cudaErrorNotSupported)
			return (void *)1;
	return NULL;
}

/* How many lines of `text` contain `needle`. */
static int lines_naming(const char *text, const char *needle)
{
	int n = 0;
	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[512];
		snprintf(buf, sizeof buf, "%.*s", (int)len, line);
		if (strstr(buf, needle))
			n++;
		line += len + (end != NULL);
	}
	return n;
}

int main(void)
{
	simgpu_test_setup();
	/* stderr into a file while the stubs run. */
	char path[] = "/tmp/simgpu_not_supported_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	unlink(path);
	int saved_stderr = dup(2);
	CHECK(saved_stderr >= 0 && dup2(fd, 2) == 2);

	/* Runtime, from 4 threads at once plus this one. */
	pthread_t threads[4];
	for (int i = 0; i < 4; i++)
		CHECK(pthread_create(&threads[i], NULL, call_unmap_many, NULL) == 0);
	CHECK(call_unmap_many(NULL) == NULL);
	for (int i = 0; i < 4; i++) {
		void *bad = (void *)1;
		CHECK(pthread_join(threads[i], &bad) == 0 && bad == NULL);
	}
	/* errno survives the stub's write. */
	errno = 1234;
	CHECK(cudaGraphicsUnregisterResource(NULL) == cudaErrorNotSupported);
	CHECK(errno == 1234);

	/* Driver. */
	CHECK(cuGraphicsUnmapResources(0, NULL, 0) == CUDA_ERROR_NOT_SUPPORTED);
	CHECK(cuGraphicsUnmapResources(0, NULL, 0) == CUDA_ERROR_NOT_SUPPORTED);

	/* cuBLAS, cuBLASLt (the status type they share). */
	cublasXtHandle_t xt = NULL;
	CHECK(cublasXtCreate(&xt) == CUBLAS_STATUS_NOT_SUPPORTED);
	CHECK(cublasLtMatrixTransform(NULL, NULL, NULL, NULL, NULL, NULL, NULL,
				      NULL, NULL, NULL, NULL) ==
	      CUBLAS_STATUS_NOT_SUPPORTED);
	/* Legacy cuBLAS (cublas.h cannot share a file with cublas_v2.h): a
	   reduction answers zero, a void call returns. */
	float (*sdot)(int, const float *, int, const float *, int) =
		(float (*)(int, const float *, int, const float *, int))
			dlsym(RTLD_DEFAULT, "cublasSdot");
	int (*isamax)(int, const float *, int) =
		(int (*)(int, const float *, int))dlsym(RTLD_DEFAULT, "cublasIsamax");
	cuDoubleComplex (*zdotc)(int, const cuDoubleComplex *, int,
				 const cuDoubleComplex *, int) =
		(cuDoubleComplex (*)(int, const cuDoubleComplex *, int,
				     const cuDoubleComplex *, int))
			dlsym(RTLD_DEFAULT, "cublasZdotc");
	void (*sscal)(int, float, float *, int) =
		(void (*)(int, float, float *, int))dlsym(RTLD_DEFAULT, "cublasSscal");
	CHECK(sdot && isamax && zdotc && sscal);
	CHECK(sdot(4, NULL, 1, NULL, 1) == 0.0f);
	CHECK(isamax(4, NULL, 1) == 0);
	cuDoubleComplex z = zdotc(4, NULL, 1, NULL, 1);
	CHECK(z.x == 0.0 && z.y == 0.0);
	sscal(4, 2.0f, NULL, 1);

	/* cuDNN, CUPTI. */
	cudnnRNNDataDescriptor_t rnn = NULL;
	CHECK(cudnnCreateRNNDataDescriptor(&rnn) == CUDNN_STATUS_NOT_SUPPORTED);
	CHECK(cuptiActivityEnableLatencyTimestamps(1) == CUPTI_ERROR_NOT_SUPPORTED);

	fflush(stderr);
	CHECK(dup2(saved_stderr, 2) == 2);
	char text[8192];
	ssize_t n = pread(fd, text, sizeof text - 1, 0);
	CHECK(n > 0);
	text[n] = 0;
	close(fd);
	fputs(text, stderr);

	static const char *const once[] = {
		"cudaGraphicsUnmapResources is not supported by the simulated libcudart.so.13 (cudaErrorNotSupported)",
		"cudaGraphicsUnregisterResource is not supported",
		"cuGraphicsUnmapResources is not supported by the simulated libcuda.so.1 (CUDA_ERROR_NOT_SUPPORTED)",
		"cublasXtCreate is not supported by the simulated libcublas.so.13 (CUBLAS_STATUS_NOT_SUPPORTED)",
		"cublasLtMatrixTransform is not supported by the simulated libcublasLt.so.13",
		"cublasSdot is not supported", "cublasIsamax is not supported",
		"cublasZdotc is not supported", "cublasSscal is not supported",
		"cudnnCreateRNNDataDescriptor is not supported by the simulated libcudnn.so.9 (CUDNN_STATUS_NOT_SUPPORTED)",
		"cuptiActivityEnableLatencyTimestamps is not supported by the simulated libcupti.so.13 (CUPTI_ERROR_NOT_SUPPORTED)",
	};
	for (size_t i = 0; i < sizeof once / sizeof once[0]; i++) {
		int lines = lines_naming(text, once[i]);
		if (lines != 1) {
			fprintf(stderr, "%d lines name \"%s\", expected 1\n", lines, once[i]);
			return 1;
		}
	}
	/* Nothing else was printed: one line per function above. */
	CHECK_EQ_U64(lines_naming(text, "simgpu: "), sizeof once / sizeof once[0]);

	/* Non-status returns, hand-written: the real libraries' answers
	   (observed here, without a GPU, on the 13.0 / 9.19 libraries). */
	struct cudaChannelFormatDesc d = cudaCreateChannelDesc(8, 16, 0, 32, cudaChannelFormatKindFloat);
	CHECK(d.x == 8 && d.y == 16 && d.z == 0 && d.w == 32 && d.f == cudaChannelFormatKindFloat);
	CHECK_EQ_U64(cudnnGetMaxDeviceVersion(), 1210);
	CHECK_EQ_U64(cublasLtGetVersion(), 130100);
	CHECK_EQ_U64(cublasLtGetCudartVersion(), 13000);
	size_t (*cudart_of_cublas)(void) =
		(size_t (*)(void))dlsym(RTLD_DEFAULT, "cublasGetCudartVersion");
	CHECK(cudart_of_cublas && cudart_of_cublas() == 13000);
	printf("not-supported stubs: statuses, zeros, one line each\n");
	return 0;
}

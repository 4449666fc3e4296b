/*
 * A pass-through libcupti for the API-record test: installed as
 * libcupti.so.13 next to a libcudart.so.13 link in a scratch directory, so
 * the tracer loads it; it forwards everything to the simulated libcupti (its
 * DT_RPATH dependency) and logs to $CUPTI_SPY_LOG what the tracer enabled
 * and which runtime API records CUPTI delivered:
 *   kind K RESULT            cuptiActivityEnable(K)
 *   runtime_api CBID EN RESULT  cuptiActivityEnableRuntimeApi(CBID, EN)
 *   driver_api CBID EN RESULT   cuptiActivityEnableDriverApi(CBID, EN)
 *   api_record CBID          one CUPTI_ACTIVITY_KIND_RUNTIME record
 * CUPTI_SPY_NO_RUNTIME_API=1 makes cuptiActivityEnableRuntimeApi fail with
 * CUPTI_ERROR_NOT_SUPPORTED, as an older CUPTI without it would.
 * Must never change a record or a result it passes on.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cupti.h>

static int log_fd = -1;
static CUpti_BuffersCallbackCompleteFunc tracer_completed;

__attribute__((constructor)) static void spy_init(void)
{
	const char *path = getenv("CUPTI_SPY_LOG");
	if (path)
		log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind)
{
	__typeof__(&cuptiActivityEnable) real =
		(__typeof__(real))dlsym(RTLD_NEXT, "cuptiActivityEnable");
	CUptiResult result = real ? real(kind) : CUPTI_ERROR_NOT_SUPPORTED;
	dprintf(log_fd, "kind %d %d\n", (int)kind, (int)result);
	return result;
}

CUptiResult CUPTIAPI cuptiActivityEnableRuntimeApi(CUpti_CallbackId cbid, uint8_t enable)
{
	__typeof__(&cuptiActivityEnableRuntimeApi) real =
		(__typeof__(real))dlsym(RTLD_NEXT, "cuptiActivityEnableRuntimeApi");
	const char *refuse = getenv("CUPTI_SPY_NO_RUNTIME_API");
	CUptiResult result = CUPTI_ERROR_NOT_SUPPORTED;
	if (real && !(refuse && refuse[0] == '1'))
		result = real(cbid, enable);
	dprintf(log_fd, "runtime_api %u %u %d\n", (unsigned)cbid, (unsigned)enable, (int)result);
	return result;
}

CUptiResult CUPTIAPI cuptiActivityEnableDriverApi(CUpti_CallbackId cbid, uint8_t enable)
{
	__typeof__(&cuptiActivityEnableDriverApi) real =
		(__typeof__(real))dlsym(RTLD_NEXT, "cuptiActivityEnableDriverApi");
	CUptiResult result = real ? real(cbid, enable) : CUPTI_ERROR_NOT_SUPPORTED;
	dprintf(log_fd, "driver_api %u %u %d\n", (unsigned)cbid, (unsigned)enable, (int)result);
	return result;
}

static void CUPTIAPI spy_completed(CUcontext context, uint32_t stream_id, uint8_t *buffer,
				   size_t size, size_t valid_size)
{
	CUpti_Activity *record = NULL;

	while (valid_size > 0 &&
	       cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS)
		if (record->kind == CUPTI_ACTIVITY_KIND_RUNTIME)
			dprintf(log_fd, "api_record %u\n", (unsigned)((CUpti_ActivityAPI *)record)->cbid);
	tracer_completed(context, stream_id, buffer, size, valid_size);
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc requested,
						    CUpti_BuffersCallbackCompleteFunc completed)
{
	__typeof__(&cuptiActivityRegisterCallbacks) real =
		(__typeof__(real))dlsym(RTLD_NEXT, "cuptiActivityRegisterCallbacks");
	tracer_completed = completed;
	return real ? real(requested, completed ? spy_completed : NULL) : CUPTI_ERROR_NOT_SUPPORTED;
}

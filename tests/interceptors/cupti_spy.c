/*
 * A pass-through libcupti for the API-record test: installed as
 * libcupti.so.13 next to a libcudart.so.13 link in a scratch directory, so
 * the tracer loads it; it forwards everything to the simulated libcupti (its
 * DT_RPATH dependency) and logs to $CUPTI_SPY_LOG what the tracer enabled
 * and which runtime API records CUPTI delivered:
 *   kind K RESULT            cuptiActivityEnable(K)
 *   runtime_api CBID EN RESULT  cuptiActivityEnableRuntimeApi(CBID, EN)
 *   driver_api CBID EN RESULT   cuptiActivityEnableDriverApi(CBID, EN)
 *   api_record CBID CORR     one CUPTI_ACTIVITY_KIND_RUNTIME record
 *   driver_record CBID CORR  one CUPTI_ACTIVITY_KIND_DRIVER record
 * CUPTI_SPY_RUNTIME_CBIDS / CUPTI_SPY_DRIVER_CBIDS (space-separated cbids)
 * switch those API records on as well, once the tracer has registered its
 * callbacks, to observe which driver function a runtime call reached (the
 * tracer reads no API records: they only cost it buffer space).
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
		if (record->kind == CUPTI_ACTIVITY_KIND_RUNTIME ||
		    record->kind == CUPTI_ACTIVITY_KIND_DRIVER) {
			const CUpti_ActivityAPI *api = (const CUpti_ActivityAPI *)record;
			dprintf(log_fd, "%s %u %u\n",
				record->kind == CUPTI_ACTIVITY_KIND_RUNTIME ? "api_record" : "driver_record",
				(unsigned)api->cbid, (unsigned)api->correlationId);
		}
	tracer_completed(context, stream_id, buffer, size, valid_size);
}

/* Switches on the API records of each cbid listed in the environment variable. */
static void enable_listed(const char *variable, const char *real_name)
{
	const char *list = getenv(variable);
	CUptiResult (*enable)(CUpti_CallbackId, uint8_t) =
		(CUptiResult (*)(CUpti_CallbackId, uint8_t))dlsym(RTLD_NEXT, real_name);
	char *end;

	while (list && enable && *list) {
		unsigned long cbid = strtoul(list, &end, 10);
		if (end == list)
			break;
		dprintf(log_fd, "spy_enabled %s %lu %d\n", real_name, cbid,
			(int)enable((CUpti_CallbackId)cbid, 1));
		list = end;
	}
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc requested,
						    CUpti_BuffersCallbackCompleteFunc completed)
{
	__typeof__(&cuptiActivityRegisterCallbacks) real =
		(__typeof__(real))dlsym(RTLD_NEXT, "cuptiActivityRegisterCallbacks");
	tracer_completed = completed;
	CUptiResult result = real ? real(requested, completed ? spy_completed : NULL)
				  : CUPTI_ERROR_NOT_SUPPORTED;
	if (result == CUPTI_SUCCESS) {
		enable_listed("CUPTI_SPY_RUNTIME_CBIDS", "cuptiActivityEnableRuntimeApi");
		enable_listed("CUPTI_SPY_DRIVER_CBIDS", "cuptiActivityEnableDriverApi");
	}
	return result;
}

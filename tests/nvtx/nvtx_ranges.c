/*
 * An NVTX 3 program (header-only NVTX, no CUDA) for tests/nvtx/test_*.sh:
 * push/pop ranges in the default domain and two created domains (one named
 * through the W entry point) on two worker threads at once, in A, W and Ex
 * forms with ASCII, Unicode and registered-string messages; start/end ranges
 * that cross threads; marks, which must leave no event.
 *
 *   nvtx_ranges TRUTH_FILE [ITERATIONS]
 *
 * TRUTH_FILE gets, per NVTX range call just made, one tab-separated line
 * `tid kind domain name id` (kind push/pop/start/end; domain "" is NVTX's
 * default domain; names as UTF-8, written from the compiler's own narrow
 * literals, never from a conversion of ours). stdout gets only what does not
 * depend on a tool being attached (what push/pop returned), so runs with and
 * without the injection library must print the same. Must never depend on
 * thread scheduling for its output.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nvtx3/nvToolsExt.h>

static FILE *truth;
static pthread_mutex_t truth_lock = PTHREAD_MUTEX_INITIALIZER;
static int iterations = 20;

static nvtxDomainHandle_t alpha, beta;
static nvtxStringHandle_t registered_step, registered_wide;
static nvtxRangeId_t crossing_to_worker1, crossing_to_main;

#define ALPHA "dnntrace.test.alpha"
#define BETA_UTF8 "dnntrace.test.βeta"
#define BETA_WIDE L"dnntrace.test.βeta"

static void note(const char *kind, const char *domain, const char *name, nvtxRangeId_t id)
{
	pthread_mutex_lock(&truth_lock);
	fprintf(truth, "%ld\t%s\t%s\t%s\t%" PRIu64 "\n", (long)syscall(SYS_gettid), kind, domain,
		name, (uint64_t)id);
	pthread_mutex_unlock(&truth_lock);
}

static nvtxEventAttributes_t ascii_attributes(const char *message)
{
	nvtxEventAttributes_t attributes = { 0 };

	attributes.version = NVTX_VERSION;
	attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
	attributes.message.ascii = message;
	return attributes;
}

static nvtxEventAttributes_t wide_attributes(const wchar_t *message)
{
	nvtxEventAttributes_t attributes = ascii_attributes(NULL);

	attributes.messageType = NVTX_MESSAGE_TYPE_UNICODE;
	attributes.message.unicode = message;
	return attributes;
}

static nvtxEventAttributes_t registered_attributes(nvtxStringHandle_t message)
{
	nvtxEventAttributes_t attributes = ascii_attributes(NULL);

	attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
	attributes.message.registered = message;
	return attributes;
}

/* What one thread's push/pop calls returned: the same value every time, or not. */
struct returns {
	int first;
	int calls;
	int differing;
};

static void returned(struct returns *returns, int value)
{
	if (returns->calls++ == 0)
		returns->first = value;
	else if (value != returns->first)
		returns->differing++;
}

struct worker {
	int number;
	const char *iteration, *alpha_ascii, *ex_default;
	const wchar_t *wide_default, *alpha_wide, *start_wide;
	const char *wide_default_utf8, *alpha_wide_utf8, *start_wide_utf8;
	struct returns returns;
};

/* One iteration: ranges of three domains interleaved, each domain nested. */
static void iterate(struct worker *w)
{
	nvtxEventAttributes_t attributes;

	returned(&w->returns, nvtxRangePushA(w->iteration));
	note("push", "", w->iteration, 0);

	attributes = ascii_attributes(w->alpha_ascii);
	returned(&w->returns, nvtxDomainRangePushEx(alpha, &attributes));
	note("push", ALPHA, w->alpha_ascii, 0);

	attributes = registered_attributes(w->number == 1 ? registered_wide : registered_step);
	returned(&w->returns, nvtxDomainRangePushEx(beta, &attributes));
	note("push", BETA_UTF8, w->number == 1 ? "registered.wide.ø" : "registered.step", 0);

	returned(&w->returns, nvtxRangePushW(w->wide_default));
	note("push", "", w->wide_default_utf8, 0);
	nvtxMarkA("mark.ignored");
	returned(&w->returns, nvtxRangePop());
	note("pop", "", "", 0);

	returned(&w->returns, nvtxDomainRangePop(beta));
	note("pop", BETA_UTF8, "", 0);

	attributes = wide_attributes(w->alpha_wide);
	returned(&w->returns, nvtxDomainRangePushEx(alpha, &attributes));
	note("push", ALPHA, w->alpha_wide_utf8, 0);
	returned(&w->returns, nvtxDomainRangePop(alpha));
	note("pop", ALPHA, "", 0);
	returned(&w->returns, nvtxDomainRangePop(alpha));
	note("pop", ALPHA, "", 0);

	attributes = ascii_attributes(w->ex_default);
	returned(&w->returns, nvtxRangePushEx(&attributes));
	note("push", "", w->ex_default, 0);
	returned(&w->returns, nvtxRangePop());
	note("pop", "", "", 0);

	returned(&w->returns, nvtxRangePop());
	note("pop", "", "", 0);

	nvtxRangeId_t id = nvtxRangeStartW(w->start_wide);
	note("start", "", w->start_wide_utf8, id);
	nvtxRangeEnd(id);
	note("end", "", "", id);
}

static void *run_worker(void *argument)
{
	struct worker *w = argument;

	if (w->number == 1) {
		nvtxRangeEnd(crossing_to_worker1);
		note("end", "", "", crossing_to_worker1);
	} else {
		nvtxEventAttributes_t attributes = wide_attributes(L"crossing.tö_main");
		crossing_to_main = nvtxDomainRangeStartEx(beta, &attributes);
		note("start", BETA_UTF8, "crossing.tö_main", crossing_to_main);
	}
	for (int i = 0; i < iterations; i++)
		iterate(w);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: nvtx_ranges TRUTH_FILE [ITERATIONS]\n");
		return 2;
	}
	truth = fopen(argv[1], "w");
	if (!truth) {
		fprintf(stderr, "nvtx_ranges: cannot write %s\n", argv[1]);
		return 2;
	}
	if (argc == 3)
		iterations = atoi(argv[2]);

	struct returns main_returns = { 0 };
	returned(&main_returns, nvtxRangePushA("main"));
	note("push", "", "main", 0);

	returned(&main_returns, nvtxRangePushA(""));
	note("push", "", "", 0);
	returned(&main_returns, nvtxRangePop());
	note("pop", "", "", 0);

	alpha = nvtxDomainCreateA(ALPHA);
	beta = nvtxDomainCreateW(BETA_WIDE);
	registered_step = nvtxDomainRegisterStringA(alpha, "registered.step");
	registered_wide = nvtxDomainRegisterStringW(beta, L"registered.wide.ø");

	nvtxEventAttributes_t mark = ascii_attributes("mark.ignored");
	nvtxDomainMarkEx(alpha, &mark);

	crossing_to_worker1 = nvtxRangeStartA("crossing.to_worker1");
	note("start", "", "crossing.to_worker1", crossing_to_worker1);

	struct worker workers[2] = {
		{ 1, "w1.iteration", "w1.alpha.ascii", "w1.ex", L"w1.wide.é", L"w1.alpha.ü",
		  L"w1.start.Ω", "w1.wide.é", "w1.alpha.ü", "w1.start.Ω", { 0 } },
		{ 2, "w2.iteration", "w2.alpha.ascii", "w2.ex", L"w2.wide.日本", L"w2.alpha.ß",
		  L"w2.start.€", "w2.wide.日本", "w2.alpha.ß", "w2.start.€", { 0 } },
	};
	pthread_t threads[2];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&threads[i], NULL, run_worker, &workers[i]) != 0) {
			fprintf(stderr, "nvtx_ranges: pthread_create failed\n");
			return 1;
		}
	for (int i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);

	nvtxDomainRangeEnd(beta, crossing_to_main);
	note("end", "", "", crossing_to_main);

	returned(&main_returns, nvtxRangePop());
	note("pop", "", "", 0);

	for (int i = 0; i < 2; i++)
		printf("worker %d: %d push/pop calls returned %d, %d differing\n", workers[i].number,
		       workers[i].returns.calls, workers[i].returns.first, workers[i].returns.differing);
	printf("main: %d push/pop calls returned %d, %d differing\n", main_returns.calls,
	       main_returns.first, main_returns.differing);
	return fclose(truth) == 0 ? 0 : 1;
}

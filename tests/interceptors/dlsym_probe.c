/*
 * Two copies of this file are built, libdlsym_probe_a.so (-DPROBE_NAME="a")
 * and libdlsym_probe_b.so ("b"), both defining probe_which(): the dlsym
 * test links a program to a then b, so dlsym(RTLD_NEXT, "probe_which")
 * from inside a must find b's. A preloaded dlsym that forwarded through an
 * ordinary call would make the lookup look as if libdnntrace made it and
 * find a's own. Must never depend on libdnntrace.so.
 */
#include <dlfcn.h>

const char *probe_which(void)
{
	return PROBE_NAME;
}

#ifdef PROBE_LOOKS_NEXT
/* What the next probe_which after this library answers, or "none". */
const char *probe_next_which(void)
{
	const char *(*next)(void) = (const char *(*)(void))dlsym(RTLD_NEXT, "probe_which");
	return next ? next() : "none";
}
#endif

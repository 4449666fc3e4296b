/*
 * Our dlsym (see dlsym_wrapper.h). For the EXACT name of a function we wrap
 * (a required entry of real_functions.h that libdnntrace.so exports),
 * looked up in a given object (a dlopen() handle), it asks the real dlsym
 * and, when that finds the real function, remembers it
 * (real_function_offer) and hands back our wrapper instead. Every other
 * lookup (other names, RTLD_DEFAULT, RTLD_NEXT) goes to the real dlsym
 * untouched.
 *
 * "Untouched" includes the caller: glibc's dlsym resolves RTLD_NEXT (and
 * RTLD_DEFAULT's local scope) relative to its return address, so forwarding
 * through an ordinary C call would make every RTLD_NEXT lookup look as if
 * libdnntrace made it (HAMi-core PR 315: another interposer's
 * dlsym(RTLD_NEXT, "malloc") would find itself and recurse). On x86-64,
 * dlsym is therefore a small assembly trampoline that asks a C function
 * where to go and then JUMPS there, with the caller's return address still
 * on the stack. Elsewhere it is a plain C call (documented limitation).
 *
 * Must never recurse: our own lookups (real_functions.c, cupti_session.c)
 * use dnntrace_real_dlsym; a wrapped name looked up from inside
 * libdnntrace.so, or by a library that exports that very name itself (a
 * front-end resolving its implementation), is answered by the real dlsym
 * alone. Never prefix matches.
 * Never allocates: dlsym may be called from any library's constructor,
 * before ours ran.
 */
#include "interceptors/core/dlsym_wrapper.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#include "interceptors/core/real_functions.h"
#include "interceptors/core/tracer.h"

typedef void *(*dlsym_fn)(void *handle, const char *name);

/*
 * The path every dlsym call takes (finding glibc's dlsym, the first test of
 * the name) runs uninstrumented: under AddressSanitizer, libasan calls dlsym
 * while it sets itself up, before its shadow memory exists.
 */
#define EARLY_SAFE __attribute__((no_sanitize_address))

static _Atomic(dlsym_fn) real_dlsym;
static atomic_bool real_dlsym_warned;

EARLY_SAFE static dlsym_fn find_real_dlsym(void)
{
	dlsym_fn fn = atomic_load_explicit(&real_dlsym, memory_order_acquire);

	if (fn)
		return fn;
	fn = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
	if (!fn)
		fn = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
	if (fn)
		atomic_store_explicit(&real_dlsym, fn, memory_order_release);
	else if (!atomic_exchange(&real_dlsym_warned, true))
		fputs("dnntrace: cannot find the C library's dlsym; dlsym lookups fail\n", stderr);
	return fn;
}

void *dnntrace_real_dlsym(void *handle, const char *name)
{
	dlsym_fn real = find_real_dlsym();
	return real ? real(handle, name) : NULL;
}

/* --- which names we answer ---------------------------------------------- */

/* Our exported wrapper for each id: NULL not asked yet, NOT_EXPORTED none. */
static _Atomic(void *) our_wrappers[REAL_FUNCTION_COUNT];
static char not_exported_marker;
#define NOT_EXPORTED ((void *)&not_exported_marker)

static void *self_handle(void)
{
	static _Atomic(void *) handle;
	void *h = atomic_load_explicit(&handle, memory_order_acquire);
	Dl_info info;

	if (h)
		return h;
	if (!dladdr((const void *)&self_handle, &info) || !info.dli_fname)
		return NULL;
	/* NOLOAD: we are loaded; the reference it takes is kept for good. */
	h = dlopen(info.dli_fname, RTLD_NOLOAD | RTLD_LAZY);
	if (h)
		atomic_store_explicit(&handle, h, memory_order_release);
	return h;
}

void *dnntrace_our_wrapper(enum real_function_id id)
{
	void *wrapper = atomic_load_explicit(&our_wrappers[id], memory_order_acquire);

	if (wrapper)
		return wrapper == NOT_EXPORTED ? NULL : wrapper;
	void *self = self_handle();
	wrapper = self ? dnntrace_real_dlsym(self, real_function_name(id)) : NULL;
	/* The handle's scope holds our dependencies too: only our own code counts. */
	if (!wrapper || !real_function_is_ours(wrapper))
		wrapper = NOT_EXPORTED;
	atomic_store_explicit(&our_wrappers[id], wrapper, memory_order_release);
	return wrapper == NOT_EXPORTED ? NULL : wrapper;
}

/* Cheap first test: every function we wrap is named cu... or __cuda... */
EARLY_SAFE static bool may_be_wrapped(const char *name)
{
	static const char nvcc_prefix[] = "__cuda";

	if (!name)
		return false;
	if (name[0] == 'c' && name[1] == 'u')
		return true;
	for (size_t i = 0; i < sizeof(nvcc_prefix) - 1; i++)
		if (name[i] != nvcc_prefix[i])
			return false;
	return true;
}

static enum real_function_id wrapped_id(const char *name)
{
	if (!may_be_wrapped(name))
		return REAL_FUNCTION_COUNT;
	enum real_function_id id = real_function_id_of(name);
	if (id == REAL_FUNCTION_COUNT || !dnntrace_our_wrapper(id))
		return REAL_FUNCTION_COUNT;
	return id;
}

/*
 * Whether the caller's own object exports name: then the caller is a
 * front-end looking up its own implementation (the real libcudnn.so.9
 * dlopen()s libcudnn_graph.so.9 and resolves cudnnSetTensor4dDescriptor
 * there), and our wrapper already sits in front of its export. Handing it
 * our wrapper would make the front-end call us, and us it, forever.
 */
static bool caller_exports(const void *caller, const char *name)
{
	Dl_info caller_info, found_info;

	if (!dladdr(caller, &caller_info) || !caller_info.dli_fname)
		return false;
	void *caller_object = dlopen(caller_info.dli_fname, RTLD_NOLOAD | RTLD_LAZY);
	if (!caller_object)
		return false;
	void *own = dnntrace_real_dlsym(caller_object, name);
	dlclose(caller_object); /* NOLOAD took a reference; the object stays loaded */
	return own && dladdr(own, &found_info) && found_info.dli_fbase == caller_info.dli_fbase;
}

/*
 * Reached by a jump from dlsym, so its return address is dlsym's caller's.
 * Only ever called for a wrapped name.
 */
static void *dlsym_substituting(void *handle, const char *name)
{
	const void *caller = __builtin_return_address(0);
	void *fn = dnntrace_real_dlsym(handle, name);

	if (!fn || real_function_is_ours(caller) || real_function_is_ours(fn) ||
	    caller_exports(caller, name))
		return fn;
	enum real_function_id id = wrapped_id(name);
	real_function_offer(id, fn);
	return dnntrace_our_wrapper(id);
}

static void *dlsym_unavailable(void *handle, const char *name)
{
	(void)handle; (void)name;
	return NULL;
}

/*
 * Where dlsym goes for this name: glibc's dlsym, or dlsym_substituting.
 * Only a lookup in a given object (a dlopen() handle: TensorFlow's way) is
 * substituted. RTLD_DEFAULT and RTLD_NEXT search the global scope, where our
 * exported wrapper already stands in front of the real function; and
 * RTLD_NEXT is relative to its caller, which dlsym_substituting's own lookup
 * could not keep: another interposer preloaded after the tracer asking for
 * the next cudaMalloc would be answered its own and call itself forever
 * (tests/interceptors/test_next_interposer.sh).
 */
EARLY_SAFE __attribute__((visibility("hidden"), used)) dlsym_fn
dnntrace_dlsym_target(void *handle, const char *name)
{
	dlsym_fn real = find_real_dlsym();

	if (!real)
		return dlsym_unavailable;
	if (handle == RTLD_NEXT || handle == RTLD_DEFAULT || !may_be_wrapped(name))
		return real;
	return wrapped_id(name) == REAL_FUNCTION_COUNT ? real : dlsym_substituting;
}

#if defined(__x86_64__)
/*
 * dlsym(handle, name): saves the two arguments, asks dnntrace_dlsym_target
 * (16-byte aligned call), restores them and jumps to the answer, so the
 * function reached sees dlsym's caller as its own.
 */
__asm__(
	"	.text\n"
	"	.globl dlsym\n"
	"	.type dlsym, @function\n"
	"dlsym:\n"
	"	.cfi_startproc\n"
	"	pushq %rdi\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	pushq %rsi\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	subq $8, %rsp\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	call dnntrace_dlsym_target\n"
	"	addq $8, %rsp\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	popq %rsi\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	popq %rdi\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	jmp *%rax\n"
	"	.cfi_endproc\n"
	"	.size dlsym, .-dlsym\n");
#else
/* Not x86-64: an ordinary call, so RTLD_NEXT lookups see libdnntrace as the caller. */
DNNTRACE_EXPORT void *dlsym(void *handle, const char *name)
{
	return dnntrace_dlsym_target(handle, name)(handle, name);
}
#endif

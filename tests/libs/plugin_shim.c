/*
 * Turns a library test program (tests/libs/cublas_calls.c, cudnn_calls.c,
 * compiled with -Dmain=calls_main) into a plugin for plugin_host, which
 * dlopen()s it RTLD_LOCAL as Python imports extension modules: the cuDNN
 * and cuBLAS libraries it links are then outside the global scope, and the
 * preloaded tracer must still find them. Test code only.
 */
#ifdef CALLS_MAIN_TAKES_ARGS
int calls_main(int argc, char **argv);

int plugin_run(void)
{
	char *argv[] = { "plugin", CALLS_MAIN_TAKES_ARGS, 0 };
	return calls_main(2, argv);
}
#else
int calls_main(void);

int plugin_run(void)
{
	return calls_main();
}
#endif

/*
 * The pickle writer (analysis/report/pickle_writer.c) against Python's own
 * unpickler: integers at every encoding's edges (BININT1, BININT2, BININT,
 * LONG1 of 5..9 bytes, negative ones, UINT64_MAX), strings short and long,
 * bytes that are not UTF-8 (U+FFFD), None, booleans, a float, containers
 * nested and past a batch (2500 list items, 1500 dict pairs), and the
 * memo: shared strings (more than the table keeps), lists written once
 * and referred to again past memo index 255 (BINGET, LONG_BINGET), each
 * the same object for the reader: python3 loads the file and compares it
 * with the value built here in Python.
 * Skips (77) without python3. Must never compare bytes written by hand.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/report/pickle_writer.h"
#include "tests/analysis/check.h"

static const char expected_python[] =
	"import pickle, sys\n"
	"got = pickle.load(open(sys.argv[1], 'rb'))\n"
	"ints = [0, 1, 255, 256, 65535, 65536, -1, -2**31, 2**31 - 1, 2**31,\n"
	"        -2**31 - 1, 2**32, 2**40 + 7, 2**47 - 1, -2**47, 2**63 - 1,\n"
	"        -2**63, 2**64 - 1, 2**63]\n"
	"want = {'ints': ints, 'short': 'tensor', 'long': 'x' * 300,\n"
	"        'bad': 'a\\ufffdb\\ufffd', 'utf8': 'caf\\u00e9',\n"
	"        'none': None, 'yes': True, 'no': False, 'half': 0.5,\n"
	"        'many': list(range(2500)),\n"
	"        'pairs': {str(i): i for i in range(1500)},\n"
	"        'nested': [[{'a': []}], []],\n"
	"        'shared': [f'name{i % 200}' for i in range(600)],\n"
	"        'lists': [[i] for i in range(300)] + [[0], [299]]}\n"
	"l = got['lists']\n"
	"same = l[300] is l[0] and l[301] is l[299] and l[1] is not l[0]\n"
	"sys.exit(0 if got == want and same and type(got['yes']) is bool else 1)\n";

int main(void)
{
	if (system("python3 -c 'import pickle' >/dev/null 2>&1") != 0)
		return 77;
	char dir[] = "/tmp/dnntrace-test-pickle.XXXXXX";
	CHECK(mkdtemp(dir));
	struct dt_out out;
	CHECK_EQ_INT(dt_out_open_in(&out, dir, "t.pickle"), 0);
	struct dt_pickle p;
	dt_pickle_begin(&p, &out);
	dt_pickle_dict_begin(&p);
	dt_pickle_str(&p, "ints");
	dt_pickle_list_begin(&p);
	const int64_t ints[] = {0, 1, 255, 256, 65535, 65536, -1, INT32_MIN,
		INT32_MAX, (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1,
		(int64_t)1 << 32, ((int64_t)1 << 40) + 7, ((int64_t)1 << 47) - 1,
		-((int64_t)1 << 47), INT64_MAX, INT64_MIN};
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		dt_pickle_int(&p, ints[i]);
	dt_pickle_uint(&p, UINT64_MAX);
	dt_pickle_uint(&p, (uint64_t)1 << 63);
	dt_pickle_list_end(&p);
	dt_pickle_key_str(&p, "short", "tensor");
	char long_text[301];
	for (int i = 0; i < 300; i++)
		long_text[i] = 'x';
	long_text[300] = '\0';
	dt_pickle_key_str(&p, "long", long_text);
	dt_pickle_key_str(&p, "bad", "a\xff" "b\xc3");
	dt_pickle_key_str(&p, "utf8", "caf\xc3\xa9");
	dt_pickle_str(&p, "none");
	dt_pickle_str(&p, NULL);
	dt_pickle_str(&p, "yes");
	dt_pickle_bool(&p, true);
	dt_pickle_str(&p, "no");
	dt_pickle_bool(&p, false);
	dt_pickle_str(&p, "half");
	dt_pickle_float(&p, 0.5);
	dt_pickle_str(&p, "many");
	dt_pickle_list_begin(&p);
	for (int i = 0; i < 2500; i++)
		dt_pickle_int(&p, i);
	dt_pickle_list_end(&p);
	dt_pickle_str(&p, "pairs");
	dt_pickle_dict_begin(&p);
	for (int i = 0; i < 1500; i++) {
		char key[16];
		snprintf(key, sizeof(key), "%d", i);
		dt_pickle_key_int(&p, key, i);
	}
	dt_pickle_dict_end(&p);
	dt_pickle_str(&p, "nested");
	dt_pickle_list_begin(&p);
	dt_pickle_list_begin(&p);
	dt_pickle_dict_begin(&p);
	dt_pickle_str(&p, "a");
	dt_pickle_list_begin(&p);
	dt_pickle_list_end(&p);
	dt_pickle_dict_end(&p);
	dt_pickle_list_end(&p);
	dt_pickle_list_begin(&p);
	dt_pickle_list_end(&p);
	dt_pickle_list_end(&p);
	/* 200 strings, each at its own address, three times over: the
	 * first 128 from the memo after their first time, the rest written
	 * out each time */
	static char names[200][16];
	for (int i = 0; i < 200; i++)
		snprintf(names[i], sizeof(names[i]), "name%d", i);
	dt_pickle_str(&p, "shared");
	dt_pickle_list_begin(&p);
	for (int i = 0; i < 600; i++)
		dt_pickle_str_shared(&p, names[i % 200]);
	dt_pickle_list_end(&p);
	dt_pickle_str(&p, "lists");
	dt_pickle_list_begin(&p);
	uint32_t memo[300];
	for (int i = 0; i < 300; i++) {
		memo[i] = dt_pickle_list_begin_memo(&p);
		dt_pickle_int(&p, i);
		dt_pickle_list_end(&p);
	}
	CHECK(memo[299] > 255);          /* LONG_BINGET */
	dt_pickle_memo_get(&p, memo[0]);
	dt_pickle_memo_get(&p, memo[299]);
	dt_pickle_list_end(&p);
	dt_pickle_dict_end(&p);
	CHECK_EQ_INT(dt_pickle_end(&p), 0);
	CHECK_EQ_INT(dt_out_close(&out), 0);

	char script[128], pickle_path[128], command[512];
	snprintf(script, sizeof(script), "%s/check.py", dir);
	snprintf(pickle_path, sizeof(pickle_path), "%s/t.pickle", dir);
	FILE *f = fopen(script, "w");
	CHECK(f);
	fputs(expected_python, f);
	CHECK(fclose(f) == 0);
	snprintf(command, sizeof(command), "python3 %s %s", script, pickle_path);
	int status = system(command);
	/* an unbalanced pickle is refused by the writer itself */
	struct dt_out out2;
	CHECK_EQ_INT(dt_out_open_in(&out2, dir, "open.pickle"), 0);
	struct dt_pickle q;
	dt_pickle_begin(&q, &out2);
	dt_pickle_list_begin(&q);
	CHECK_EQ_INT(dt_pickle_end(&q), -1);
	CHECK_EQ_INT(dt_out_close(&out2), 0);
	snprintf(command, sizeof(command), "rm -rf %s", dir);
	CHECK_EQ_INT(system(command), 0);
	CHECK_EQ_INT(status, 0);
	puts("test_analysis_pickle: ok");
	return 0;
}

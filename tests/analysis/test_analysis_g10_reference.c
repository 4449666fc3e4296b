/*
 * G10 reference test, pure model: feeds the kernels of G10's published
 * ResNet-50 run (kernels.config: inputs and outputs per kernel) as kernels
 * with known roles, lets our analysis decide everything else, and checks the
 * G10 files it writes against G10's own outputs: tensors.config byte for
 * byte, every Birth, Death and Period of liveness_analysis.config (Estimated
 * Time lines depend on per-kernel times G10 did not publish: skipped), the
 * tensor lines of kernels.config with their Dimensions (fed as the shapes
 * the calls passed; G10's rank-0 `i64[]` cannot be: a trace's rank 0 means
 * unknown, so those are compared without it), and the memory and period logs (except
 * sd_time, for the same reason). Tensor names and sizes come from
 * tensors.config (kernels.config names the per-use views, e.g. unsqueeze_3
 * for primals_3); global/local comes out of our own rule (allocated before
 * the first kernel and never freed), fed as allocation times. Skips (77)
 * when the reference files are absent. Must never read G10's liveness or
 * period results as input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/report/g10_writer.h"
#include "analysis/derive/group.h"
#include "analysis/derive/window.h"
#include "tests/analysis/check.h"
#include "tracepoints/dnntrace_enums.h"

#define MAX_TENSORS 100000

struct ref_tensor {
	bool seen;
	bool global;
	char *name;
	uint64_t bytes;
	int64_t first_kernel;
};

static struct ref_tensor tensors[MAX_TENSORS];

static FILE *open_ref(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	return f;
}

/* "tensor<ID>, Name: <name>, Is global?: <g>: Size in byte: <n>, ..."
 * Records the tensor from tensors.config (kernel -1); from kernels.config
 * only notes its first kernel. */
static int64_t parse_tensor_line(const char *line, int64_t kernel)
{
	long long id;
	CHECK(sscanf(line, "tensor%lld, Name: ", &id) == 1);
	CHECK(id >= 0 && id < MAX_TENSORS);
	const char *name = strstr(line, ", Name: ") + 8;
	const char *global = strstr(name, ", Is global?: ");
	CHECK(global);
	int g;
	unsigned long long bytes;
	CHECK(sscanf(global, ", Is global?: %d: Size in byte: %llu, ", &g,
			&bytes) == 2);
	struct ref_tensor *t = &tensors[id];
	if (kernel < 0) {
		CHECK(!t->seen);
		t->seen = true;
		t->name = strndup(name, (size_t)(global - name));
		t->global = g;
		t->bytes = bytes;
		t->first_kernel = -1;
	} else {
		CHECK(t->seen && t->bytes == bytes && t->global == g);
		if (t->first_kernel < 0)
			t->first_kernel = kernel;
	}
	return id;
}

static int64_t parse_tensors(const char *dir)
{
	FILE *f = open_ref(dir, "tensors.config");
	char *line = NULL;
	size_t cap = 0;
	int64_t n = 0;
	while (getline(&line, &cap, f) > 0) {
		CHECK_EQ_INT(parse_tensor_line(line, -1), n);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

struct ref_kernel {
	struct dt_touch *touches;
	uint32_t n;
};

/* Dimensions of the touches, touch.dims_at indexes this array until the
 * dims are handed to the group. */
static int64_t *ref_dims;
static size_t n_ref_dims, cap_ref_dims;

/* ", Dimensions: f32[64, 3, 7, 7]" -> dtype, rank and dims; rank 0 for
 * none and for G10's scalars ("i64[]"). */
static void parse_dimensions(const char *line, struct dt_touch *touch)
{
	static const struct { const char *name; uint8_t dtype; } dtypes[] = {
		{"f32", DNNTRACE_DTYPE_F32}, {"i64", DNNTRACE_DTYPE_I64},
		{"b8", DNNTRACE_DTYPE_BOOL}, {"f16", DNNTRACE_DTYPE_F16},
	};
	const char *dims = strstr(line, "Dimensions: ");
	if (!dims)
		return;
	dims += strlen("Dimensions: ");
	const char *open = strchr(dims, '[');
	CHECK(open);
	bool known = false;
	for (size_t i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++) {
		if (strlen(dtypes[i].name) == (size_t)(open - dims) &&
		    strncmp(dims, dtypes[i].name, (size_t)(open - dims)) == 0) {
			touch->dtype = dtypes[i].dtype;
			known = true;
		}
	}
	CHECK(known);
	touch->dims_at = (uint32_t)n_ref_dims;
	touch->rank = 0;
	for (const char *p = open + 1; *p != ']';) {
		char *end;
		long long d = strtoll(p, &end, 10);
		CHECK(end != p);
		*DT_PUSH_SLOT(ref_dims, n_ref_dims, cap_ref_dims) = d;
		touch->rank++;
		p = end;
		if (*p == ',')
			p += 2;
	}
}

/* Reads kernels.config; fills tensors[] and returns the kernels. */
static size_t parse_kernels(const char *dir, struct ref_kernel **out)
{
	FILE *f = open_ref(dir, "kernels.config");
	char *line = NULL;
	size_t cap = 0, n = 0, kcap = 0;
	struct ref_kernel *kernels = NULL;
	uint8_t role = 0;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "Kernel ID: ", 11) == 0) {
			struct ref_kernel *k = DT_PUSH_SLOT(kernels, n, kcap);
			memset(k, 0, sizeof(*k));
			role = 0;
		} else if (strcmp(line, "Input Tensors:\n") == 0) {
			role = DT_ROLE_READ;
		} else if (strcmp(line, "Output Tensors:\n") == 0) {
			role = DT_ROLE_WRITE;
		} else if (strncmp(line, "tensor", 6) == 0) {
			CHECK(n > 0 && role != 0);
			int64_t id = parse_tensor_line(line, (int64_t)n - 1);
			struct ref_kernel *k = &kernels[n - 1];
			bool merged = false;
			for (uint32_t i = 0; i < k->n; i++) {
				if (k->touches[i].tensor == (uint32_t)id) {
					k->touches[i].roles |= role;
					merged = true;
					/* one shape per use: G10 must agree */
					struct dt_touch again = {0};
					size_t mark = n_ref_dims;
					parse_dimensions(line, &again);
					CHECK_EQ_INT(again.rank, k->touches[i].rank);
					for (uint8_t d = 0; d < again.rank; d++)
						CHECK_EQ_INT(ref_dims[again.dims_at + d],
							ref_dims[k->touches[i].dims_at + d]);
					n_ref_dims = mark;
				}
			}
			if (!merged) {
				k->touches = realloc(k->touches,
						(k->n + 1) * sizeof(*k->touches));
				CHECK(k->touches);
				/* tensor ids are dense 0..N-1: id = group index */
				struct dt_touch *touch = &k->touches[k->n++];
				memset(touch, 0, sizeof(*touch));
				touch->tensor = (uint32_t)id;
				touch->roles = role;
				parse_dimensions(line, touch);
			}
		}
	}
	free(line);
	fclose(f);
	*out = kernels;
	return n;
}

static char *slurp(const char *dir, const char *name, size_t *len)
{
	FILE *f = open_ref(dir, name);
	char *buf = NULL;
	size_t cap = 0, n = 0;
	for (;;) {
		dt_grow((void **)&buf, n + 65536, &cap, 1);
		if (cap < n + 65536) {
			buf = dt_xrealloc(buf, n + 65536);
			cap = n + 65536;
		}
		size_t got = fread(buf + n, 1, 65536, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Next line of *cursor (without newline) into a static buffer, or NULL. */
static char *next_line(char **cursor)
{
	if (!**cursor)
		return NULL;
	char *start = *cursor, *nl = strchr(start, '\n');
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = start + strlen(start);
	}
	return start;
}

static void compare_liveness(const char *ref_dir, const char *out_dir)
{
	size_t n1, n2;
	char *ref = slurp(ref_dir, "liveness_analysis.config", &n1);
	char *ours = slurp(out_dir, "liveness_analysis.config", &n2);
	char *a = ref, *b = ours, *la, *lb;
	size_t line = 0, births = 0, periods = 0;
	while ((la = next_line(&a)) != NULL) {
		line++;
		lb = next_line(&b);
		if (!lb) {
			fprintf(stderr, "liveness: ours ends at line %zu\n", line);
			exit(1);
		}
		if (strncmp(la, "Estimated Time:", 15) == 0) {
			CHECK(strncmp(lb, "Estimated Time:", 15) == 0);
			continue;
		}
		if (strcmp(la, lb) != 0) {
			fprintf(stderr, "liveness line %zu differs:\n  G10:  %s\n"
					"  ours: %s\n", line, la, lb);
			exit(1);
		}
		births += strncmp(la, "Liveness:", 9) == 0;
		periods += strncmp(la, "Period ", 7) == 0;
	}
	CHECK(next_line(&b) == NULL);
	printf("liveness_analysis.config: %zu lines, %zu Birth/Death, %zu periods match\n",
			line, births, periods);
	CHECK(births > 0 && periods > 0);
	free(ref);
	free(ours);
}

/* kernels.config: kernel ids and every tensor line with its Dimensions
 * (but G10's scalar ones, "[]"), without the name (G10 prints the per-use
 * view's name). */
static void strip_name(char *line)
{
	char *name = strstr(line, ", Name: ");
	char *global = name ? strstr(name, ", Is global?: ") : NULL;
	if (global)
		memmove(name, global, strlen(global) + 1);
}

static void compare_kernels(const char *ref_dir, const char *out_dir)
{
	size_t n1, n2;
	char *ref = slurp(ref_dir, "kernels.config", &n1);
	char *ours = slurp(out_dir, "kernels.config", &n2);
	char *a = ref, *b = ours, *la, *lb;
	size_t line = 0, skipped = 0;
	/* G10 repeats a tensor passed twice (mul(x, x)); a trace names each
	 * tensor once per kernel: skip repeats within one section */
	char *section[64];
	size_t n_section = 0;
	while ((la = next_line(&a)) != NULL) {
		line++;
		if (strncmp(la, "tensor", 6) != 0) {
			n_section = 0;
		} else {
			char *dims = strstr(la, "Dimensions: ");
			if (dims && strstr(dims, "[]"))
				*dims = '\0';
			strip_name(la);
			bool repeat = false;
			for (size_t i = 0; i < n_section; i++)
				repeat |= strcmp(section[i], la) == 0;
			if (repeat) {
				skipped++;
				continue;
			}
			CHECK(n_section < 64);
			section[n_section++] = la;
		}
		lb = next_line(&b);
		CHECK(lb);
		if (strncmp(la, "Kernel ID: ", 11) == 0) {
			size_t prefix = (size_t)(strstr(la, "Name: ") - la);
			CHECK(strncmp(la, lb, prefix) == 0);
			continue;
		}
		strip_name(lb);
		if (strcmp(la, lb) != 0) {
			fprintf(stderr, "kernels line %zu differs:\n  G10:  %s\n"
					"  ours: %s\n", line, la, lb);
			exit(1);
		}
	}
	CHECK(next_line(&b) == NULL);
	printf("kernels.config: %zu lines match (%zu repeated arguments skipped)\n",
			line - skipped, skipped);
	free(ref);
	free(ours);
}

static void compare_exact(const char *ref_dir, const char *out_dir,
		const char *name)
{
	size_t n1, n2;
	char *ref = slurp(ref_dir, name, &n1);
	char *ours = slurp(out_dir, name, &n2);
	if (n1 != n2 || memcmp(ref, ours, n1) != 0) {
		fprintf(stderr, "%s differs from G10's\n", name);
		exit(1);
	}
	printf("%s: %zu bytes identical\n", name, n1);
	free(ref);
	free(ours);
}

/* One "key = [...]" or "key = N" line of a G10 .py log. */
static char *py_line(char *text, const char *key)
{
	char *p = strstr(text, key);
	CHECK(p);
	char *nl = strchr(p, '\n');
	return strndup(p, nl ? (size_t)(nl - p) : strlen(p));
}

/* G10 sums sizes as `long sum += std::ceil((float)size)`, which adds in
 * float: sums above 2^24 lose their low bits. Ours are exact; the
 * reference must equal the same sums in G10's float arithmetic. */
static uint64_t g10_float_add(uint64_t sum, uint64_t bytes)
{
	return (uint64_t)((float)sum + (float)bytes);
}

static unsigned long long next_number(char **p)
{
	while (**p && (**p < '0' || **p > '9'))
		(*p)++;
	char *end;
	unsigned long long v = strtoull(*p, &end, 10);
	CHECK(end != *p);
	*p = end;
	return v;
}

static void compare_active(char *ref, char *ours, const struct dt_group *g)
{
	char *ra = strstr(ref, "active = [") + 10;
	char *oa = strstr(ours, "active = [") + 10;
	char *rb = strstr(ref, "active_breakdown = [") + 20;
	char *ob = strstr(ours, "active_breakdown = [") + 20;
	size_t rounded = 0;
	for (size_t k = 0; k < g->win_count; k++) {
		const struct dt_kernel *kernel = &g->kernels[k];
		uint64_t exact[3] = {0, 0, 0}, g10[3] = {0, 0, 0}, g10_all = 0;
		for (uint32_t i = 0; i < kernel->n_touches; i++) {
			const struct dt_touch *t = &g->touches[kernel->touches_at + i];
			uint64_t bytes = g->tensors[t->tensor].bytes;
			int part = k == 0 && (t->roles & DT_ROLE_WRITE) ? 0 :
				g->results[t->tensor].global ? 1 : 2;
			exact[part] += bytes;
			g10[part] = g10_float_add(g10[part], bytes);
			g10_all = g10_float_add(g10_all, bytes);
		}
		CHECK_EQ_INT(next_number(&oa), exact[0] + exact[1] + exact[2]);
		CHECK_EQ_INT(next_number(&ra), g10_all);
		rounded += exact[0] + exact[1] + exact[2] != g10_all;
		for (int part = 0; part < 3; part++) {
			CHECK_EQ_INT(next_number(&ob), exact[part]);
			CHECK_EQ_INT(next_number(&rb), g10[part]);
		}
	}
	printf("active, active_breakdown: %zu kernels match (%zu differ only by "
			"G10's float rounding)\n", g->win_count, rounded);
}

static void compare_logs(const char *ref_dir, const char *out_dir,
		const struct dt_group *g)
{
	size_t n;
	char *ref = slurp(ref_dir, "pytorch64_NNMemConsumptionLog.py", &n);
	char *ours = slurp(out_dir, "pytorch64_NNMemConsumptionLog.py", &n);
	const char *same[] = {"global_weight = ", "input_size = "};
	for (size_t i = 0; i < 2; i++) {
		char *x = py_line(ref, same[i]), *y = py_line(ours, same[i]);
		if (strcmp(x, y) != 0) {
			fprintf(stderr, "NNMemConsumptionLog: %s line differs\n", same[i]);
			exit(1);
		}
		free(x);
		free(y);
	}
	compare_active(ref, ours, g);
	/* G10 adds its tensor 0's size (input_size) to every total; we print
	 * globals + live locals only (analysis/DECISIONS.md). */
	unsigned long long input_size;
	CHECK(sscanf(strstr(ref, "input_size = "), "input_size = %llu",
			&input_size) == 1);
	char *p = strstr(ref, "total = [") + 9;
	for (size_t k = 0; k < g->win_count; k++) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		CHECK(end != p && *end == ',');
		CHECK_EQ_INT(v, g->g10_total_bytes[k] + input_size);
		p = end + 1;
	}
	CHECK(*p == ']');
	free(ref);
	free(ours);
	ref = slurp(ref_dir, "pytorch64_TensorPeriodLog.py", &n);
	ours = slurp(out_dir, "pytorch64_TensorPeriodLog.py", &n);
	char *x = py_line(ref, "sd_size = ["), *y = py_line(ours, "sd_size = [");
	CHECK(strcmp(x, y) == 0);
	free(x);
	free(y);
	x = py_line(ref, "\n# ");
	y = py_line(ours, "\n# ");
	CHECK(strcmp(x, y) == 0);
	free(x);
	free(y);
	free(ref);
	free(ours);
	printf("memory and period logs match (total: + input_size, as G10)\n");
}

int main(void)
{
	const char *root = getenv("DNNTRACE_ROOT");
	char ref_dir[4096];
	snprintf(ref_dir, sizeof(ref_dir), "%s/../shared/g10/resnet50-pytorch64",
			root ? root : ".");
	if (access(ref_dir, R_OK) != 0) {
		printf("G10 reference outputs not found at %s\n", ref_dir);
		return 77;
	}
	struct ref_kernel *kernels;
	int64_t n_ids = parse_tensors(ref_dir);
	size_t n_kernels = parse_kernels(ref_dir, &kernels);
	CHECK(n_kernels > 0 && n_ids > 0);

	struct dt_group g;
	dt_group_init(&g, 1, 0);
	for (int64_t id = 0; id < n_ids; id++) {
		struct ref_tensor *r = &tensors[id];
		CHECK(r->seen && r->first_kernel >= 0);
		/* global: allocated before kernel 0 starts (at 1000), never
		 * freed; local: allocated when its first kernel starts */
		struct dt_tensor t = {
			.id = id, .name = r->name, .bytes = r->bytes,
			.alloc_ns = r->global ? 0 : 1000 + 1000 * (uint64_t)r->first_kernel,
			.free_ns = DT_NO_TIME,
			.allocated = true,
		};
		dt_group_add_tensor(&g, &t);
	}
	for (size_t k = 0; k < n_kernels; k++) {
		for (uint32_t i = 0; i < kernels[k].n; i++) {
			struct dt_touch *touch = &kernels[k].touches[i];
			if (touch->rank)
				touch->dims_at = dt_group_add_dims(&g,
						&ref_dims[touch->dims_at], touch->rank);
		}
		/* arbitrary durations: G10's were not published */
		struct dt_kernel kernel = {
			.start = 1000 + 1000 * k, .end = 1000 + 1000 * k + 1 + k % 97,
			.duration_ns = 1 + k % 97, .name = "op", .api = -1,
		};
		dt_group_add_kernel(&g, &kernel, kernels[k].touches, kernels[k].n);
	}
	dt_group_analyze(&g, 0, n_kernels);

	char out_dir[] = "/tmp/dnntrace-g10ref-XXXXXX";
	CHECK(mkdtemp(out_dir));
	CHECK_EQ_INT(dt_write_g10_files(&g, out_dir, "pytorch64",
			DT_G10_ALL), 0);
	compare_exact(ref_dir, out_dir, "tensors.config");
	compare_liveness(ref_dir, out_dir);
	compare_kernels(ref_dir, out_dir);
	compare_logs(ref_dir, out_dir, &g);

	char command[4200];
	snprintf(command, sizeof(command), "rm -rf '%s'", out_dir);
	CHECK_EQ_INT(system(command), 0);
	for (size_t k = 0; k < n_kernels; k++)
		free(kernels[k].touches);
	free(kernels);
	free(ref_dims);
	for (int64_t id = 0; id < n_ids; id++)
		free(tensors[id].name);
	dt_group_free(&g);
	puts("G10 reference test passed");
	return 0;
}

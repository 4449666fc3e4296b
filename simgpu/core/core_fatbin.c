/*
 * Reads nvcc's device code as a driver does before loading it: a fatbin
 * (its entries: the sm_90 cubin, zstd-decompressed if need be) or a bare
 * cubin, whose ELF symbol table names the kernels and device variables and
 * whose .nv.info.<kernel> sections give each kernel's parameter layout
 * (EIATTR_KPARAM_INFO). The format facts used, and where they come from,
 * are in README.md ("Fatbins"). Every field is bounds-checked against the
 * image's own declared extent before it is read; a bad image is an error
 * code and one line of why, never a crash. It must never execute, patch or
 * keep a pointer into the image it is given.
 */
#include "simgpu/core/core_fatbin.h"

#include <dlfcn.h>
#include <elf.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fatbin entry kinds and flags (README.md, "Fatbins"). */
#define ENTRY_PTX 1
#define ENTRY_ELF 2
#define ENTRY_FLAG_ZSTD 0x8000ULL
#define ENTRY_FLAG_LZ4 0x2000ULL
#define FATBIN_HEADER_SIZE 16
#define ENTRY_HEADER_MIN 64

/* The .nv.info records (README.md): format byte, attribute byte, value. */
#define EIFMT_NVAL 0x01
#define EIFMT_BVAL 0x02
#define EIFMT_HVAL 0x03
#define EIFMT_SVAL 0x04
#define EIATTR_KPARAM_INFO 0x17
#define KPARAM_INFO_SIZE 12
#define STO_CUDA_ENTRY 0x10 /* st_other of a __global__ function */

/* The most parameters a kernel can have: 32764 bytes of 1-byte params. */
#define MAX_PARAMS 32764

static uint16_t rd16(const unsigned char *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static CUresult fail(CUresult r, char *why, size_t why_len, const char *fmt, ...)
{
	if (why && why_len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, why_len, fmt, ap);
		va_end(ap);
	}
	return r;
}

/* Whether [off, off + n) lies within a region of size len, overflow-safe. */
static int in_bounds(uint64_t off, uint64_t n, uint64_t len)
{
	return off <= len && n <= len - off;
}

/* The NUL-terminated string at off in a string table of size n, or NULL. */
static const char *str_at(const unsigned char *tab, uint64_t n, uint64_t off)
{
	if (off >= n || !memchr(tab + off, '\0', n - off))
		return NULL;
	return (const char *)tab + off;
}

/* ---- zstd, through the system's libzstd.so.1 (Debian's libzstd1) ---- */

typedef size_t (*zstd_decompress_fn)(void *, size_t, const void *, size_t);
typedef unsigned (*zstd_is_error_fn)(size_t);
typedef unsigned long long (*zstd_content_size_fn)(const void *, size_t);

/* Loaded once, kept for the process (a driver keeps its decompressor). */
static pthread_once_t zstd_once = PTHREAD_ONCE_INIT;
static zstd_decompress_fn zstd_decompress_p;
static zstd_is_error_fn zstd_is_error_p;
static zstd_content_size_fn zstd_content_size_p;
static char zstd_error[160];

static void zstd_load(void)
{
	void *lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(zstd_error, sizeof(zstd_error), "%s", dlerror());
		return;
	}
	zstd_decompress_p = (zstd_decompress_fn)dlsym(lib, "ZSTD_decompress");
	zstd_is_error_p = (zstd_is_error_fn)dlsym(lib, "ZSTD_isError");
	zstd_content_size_p = (zstd_content_size_fn)dlsym(lib, "ZSTD_getFrameContentSize");
	if (!zstd_decompress_p || !zstd_is_error_p)
		snprintf(zstd_error, sizeof(zstd_error), "no ZSTD_decompress in it");
}

static unsigned char *zstd_decompress(const unsigned char *src, size_t n,
				      size_t out_len, char *why, size_t why_len)
{
	pthread_once(&zstd_once, zstd_load);
	if (!zstd_decompress_p || !zstd_is_error_p) {
		fail(0, why, why_len, "compressed (zstd) entry, and libzstd.so.1 "
		     "cannot be used: %s", zstd_error);
		return NULL;
	}
	/* The frame states its size (nvcc's do): check before allocating. */
	unsigned long long frame = zstd_content_size_p ? zstd_content_size_p(src, n)
						       : ~0ULL;
	if (frame != ~0ULL && frame != out_len) {
		fail(0, why, why_len, "zstd entry holds %llu bytes, its header "
		     "says %zu", frame, out_len);
		return NULL;
	}
	unsigned char *out = malloc(out_len ? out_len : 1);
	if (!out) {
		fail(0, why, why_len, "out of host memory for a zstd entry");
		return NULL;
	}
	size_t got = zstd_decompress_p(out, out_len, src, n);
	if (zstd_is_error_p(got) || got != out_len) {
		fail(0, why, why_len, "zstd entry does not decompress to the %zu "
		     "bytes its header says", out_len);
		free(out);
		return NULL;
	}
	return out;
}

/* ---- the cubin (ELF) ---- */

struct elf {
	const unsigned char *base;
	uint64_t len;
	const unsigned char *shdrs;
	uint16_t shnum;
	const unsigned char *shstr;
	uint64_t shstr_len;
};

static void shdr(const struct elf *e, unsigned i, Elf64_Shdr *out)
{
	memcpy(out, e->shdrs + (size_t)i * sizeof(Elf64_Shdr), sizeof(*out));
}

static const char *section_name(const struct elf *e, const Elf64_Shdr *s)
{
	return str_at(e->shstr, e->shstr_len, s->sh_name);
}

static CUresult elf_open(const unsigned char *p, uint64_t len, struct elf *e,
			 char *why, size_t why_len)
{
	if (len < sizeof(Elf64_Ehdr) || memcmp(p, ELFMAG, SELFMAG) != 0)
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    "not an ELF cubin");
	Elf64_Ehdr h;
	memcpy(&h, p, sizeof(h));
	if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB ||
	    h.e_machine != EM_CUDA)
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    "ELF is not a 64-bit little-endian CUDA cubin "
			    "(machine %u)", h.e_machine);
	if (h.e_shentsize != sizeof(Elf64_Shdr) || h.e_shnum == 0 ||
	    h.e_shstrndx >= h.e_shnum ||
	    !in_bounds(h.e_shoff, (uint64_t)h.e_shnum * sizeof(Elf64_Shdr), len))
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    "cubin section headers out of bounds");
	*e = (struct elf){ .base = p, .len = len, .shdrs = p + h.e_shoff,
			   .shnum = h.e_shnum };
	for (unsigned i = 0; i < e->shnum; i++) {
		Elf64_Shdr s;
		shdr(e, i, &s);
		if (s.sh_type != SHT_NOBITS && s.sh_type != SHT_NULL &&
		    !in_bounds(s.sh_offset, s.sh_size, len))
			return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
				    "cubin section %u out of bounds", i);
	}
	Elf64_Shdr strs;
	shdr(e, h.e_shstrndx, &strs);
	if (strs.sh_type != SHT_STRTAB)
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    "cubin has no section name table");
	e->shstr = p + strs.sh_offset;
	e->shstr_len = strs.sh_size;
	return CUDA_SUCCESS;
}

/* The index of the section named name, or 0. */
static unsigned find_section(const struct elf *e, const char *prefix,
			     const char *name)
{
	size_t plen = strlen(prefix);
	for (unsigned i = 1; i < e->shnum; i++) {
		Elf64_Shdr s;
		shdr(e, i, &s);
		const char *n = section_name(e, &s);
		if (n && strncmp(n, prefix, plen) == 0 && strcmp(n + plen, name) == 0)
			return i;
	}
	return 0;
}

/*
 * The parameter layout from .nv.info.<kernel>: one KPARAM_INFO record per
 * parameter, in any order; ordinals must be exactly 0..n-1.
 */
static CUresult kernel_params(const struct elf *e, struct sim_fatbin_kernel *k,
			      char *why, size_t why_len)
{
	unsigned idx = find_section(e, ".nv.info.", k->name);
	if (!idx)
		return CUDA_SUCCESS; /* no attributes: no parameters */
	Elf64_Shdr s;
	shdr(e, idx, &s);
	if (s.sh_type == SHT_NOBITS)
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    ".nv.info.%s has no contents", k->name);
	const unsigned char *p = e->base + s.sh_offset;
	uint64_t n = s.sh_size;
	/* Two passes: count, then fill. */
	size_t count = 0;
	for (int pass = 0; pass < 2; pass++) {
		uint64_t off = 0;
		while (off < n) {
			if (!in_bounds(off, 4, n))
				return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
					    ".nv.info.%s: truncated record", k->name);
			unsigned fmt = p[off], attr = p[off + 1];
			uint64_t value_len = 0;
			switch (fmt) {
			case EIFMT_NVAL: case EIFMT_BVAL: case EIFMT_HVAL:
				break; /* value in the record's last two bytes */
			case EIFMT_SVAL:
				value_len = rd16(p + off + 2);
				break;
			default:
				return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
					    ".nv.info.%s: unknown record format "
					    "0x%x", k->name, fmt);
			}
			if (!in_bounds(off + 4, value_len, n))
				return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
					    ".nv.info.%s: record overruns the "
					    "section", k->name);
			const unsigned char *v = p + off + 4;
			if (fmt == EIFMT_SVAL && attr == EIATTR_KPARAM_INFO) {
				if (value_len < KPARAM_INFO_SIZE)
					return fail(CUDA_ERROR_INVALID_IMAGE, why,
						    why_len, ".nv.info.%s: short "
						    "KPARAM_INFO", k->name);
				uint16_t ordinal = rd16(v + 4);
				uint16_t offset = rd16(v + 6);
				size_t size = (rd32(v + 8) >> 18) & 0x3fff;
				if (pass == 0) {
					count++;
				} else {
					if (ordinal >= count || k->sizes[ordinal])
						return fail(CUDA_ERROR_INVALID_IMAGE,
							    why, why_len,
							    ".nv.info.%s: parameter "
							    "ordinal %u repeated or "
							    "out of range", k->name,
							    ordinal);
					if (size == 0)
						return fail(CUDA_ERROR_INVALID_IMAGE,
							    why, why_len,
							    ".nv.info.%s: parameter "
							    "%u has size 0", k->name,
							    ordinal);
					k->offsets[ordinal] = offset;
					k->sizes[ordinal] = size;
				}
			}
			off += 4 + value_len;
		}
		if (pass == 0) {
			if (count > MAX_PARAMS)
				return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
					    ".nv.info.%s: %zu parameters",
					    k->name, count);
			if (!count)
				return CUDA_SUCCESS;
			k->offsets = calloc(count, sizeof(size_t));
			k->sizes = calloc(count, sizeof(size_t));
			if (!k->offsets || !k->sizes)
				return fail(CUDA_ERROR_OUT_OF_MEMORY, why, why_len,
					    "out of host memory");
			k->nparams = count;
		}
	}
	return CUDA_SUCCESS;
}

static int is_var_section(const char *name)
{
	return strncmp(name, ".nv.global", 10) == 0 ||
	       (strncmp(name, ".nv.constant", 12) == 0 &&
		strncmp(name, ".nv.constant0", 13) != 0);
}

static CUresult add_var(const struct elf *e, const Elf64_Sym *sym,
			const char *name, struct sim_fatbin_module *m,
			char *why, size_t why_len)
{
	Elf64_Shdr s;
	shdr(e, sym->st_shndx, &s);
	const char *sname = section_name(e, &s);
	if (!sname || !is_var_section(sname))
		return CUDA_SUCCESS; /* shared memory, reserved symbols, ... */
	struct sim_fatbin_var *v = &m->vars[m->nvars];
	*v = (struct sim_fatbin_var){ .name = strdup(name), .size = sym->st_size };
	if (!v->name)
		return fail(CUDA_ERROR_OUT_OF_MEMORY, why, why_len, "out of host memory");
	m->nvars++;
	if (s.sh_type != SHT_NOBITS && sym->st_size) {
		if (!in_bounds(sym->st_value, sym->st_size, s.sh_size))
			return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
				    "variable %s outside its section", name);
		v->init = malloc(sym->st_size);
		if (!v->init)
			return fail(CUDA_ERROR_OUT_OF_MEMORY, why, why_len,
				    "out of host memory");
		memcpy(v->init, e->base + s.sh_offset + sym->st_value, sym->st_size);
	}
	return CUDA_SUCCESS;
}

static CUresult parse_cubin(const unsigned char *p, uint64_t len,
			    struct sim_fatbin_module *m, char *why, size_t why_len)
{
	struct elf e = { 0 };
	CUresult r = elf_open(p, len, &e, why, why_len);
	if (r != CUDA_SUCCESS)
		return r;
	unsigned symtab = 0;
	for (unsigned i = 1; i < e.shnum && !symtab; i++) {
		Elf64_Shdr s;
		shdr(&e, i, &s);
		if (s.sh_type == SHT_SYMTAB)
			symtab = i;
	}
	if (!symtab)
		return CUDA_SUCCESS; /* no symbols: no kernels, no variables */
	Elf64_Shdr st, strs;
	shdr(&e, symtab, &st);
	if (st.sh_entsize != sizeof(Elf64_Sym) || st.sh_link >= e.shnum)
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    "cubin symbol table malformed");
	shdr(&e, st.sh_link, &strs);
	if (strs.sh_type != SHT_STRTAB)
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    "cubin symbol names missing");
	size_t nsyms = st.sh_size / sizeof(Elf64_Sym);
	m->kernels = calloc(nsyms ? nsyms : 1, sizeof(*m->kernels));
	m->vars = calloc(nsyms ? nsyms : 1, sizeof(*m->vars));
	if (!m->kernels || !m->vars)
		return fail(CUDA_ERROR_OUT_OF_MEMORY, why, why_len, "out of host memory");
	for (size_t i = 1; i < nsyms; i++) {
		Elf64_Sym sym;
		memcpy(&sym, p + st.sh_offset + i * sizeof(sym), sizeof(sym));
		int type = ELF64_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_OBJECT)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= e.shnum)
			continue; /* external or special: not defined here */
		const char *name = str_at(p + strs.sh_offset, strs.sh_size, sym.st_name);
		if (!name)
			return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
				    "cubin symbol %zu has no name", i);
		if (type == STT_OBJECT) {
			r = add_var(&e, &sym, name, m, why, why_len);
			if (r != CUDA_SUCCESS)
				return r;
			continue;
		}
		if (!(sym.st_other & STO_CUDA_ENTRY))
			continue; /* a device function, not a kernel */
		struct sim_fatbin_kernel *k = &m->kernels[m->nkernels];
		k->name = strdup(name);
		if (!k->name)
			return fail(CUDA_ERROR_OUT_OF_MEMORY, why, why_len,
				    "out of host memory");
		m->nkernels++;
		r = kernel_params(&e, k, why, why_len);
		if (r != CUDA_SUCCESS)
			return r;
	}
	return CUDA_SUCCESS;
}

/* ---- the fatbin ---- */

static CUresult parse_fatbin(const unsigned char *p, size_t len,
			     struct sim_fatbin_module *m, char *why, size_t why_len)
{
	if (len < FATBIN_HEADER_SIZE)
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    "fatbin shorter than its header");
	uint16_t header_size = rd16(p + 6);
	uint64_t fat_size = rd64(p + 8);
	if (header_size < FATBIN_HEADER_SIZE ||
	    (len != SIZE_MAX && !in_bounds(header_size, fat_size, len)) ||
	    fat_size > ((uint64_t)1 << 40))
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    "fatbin header declares %llu bytes beyond %zu",
			    (unsigned long long)fat_size, len);
	uint64_t end = header_size + fat_size;
	uint64_t off = header_size;
	const unsigned char *cubin = NULL;
	uint64_t cubin_len = 0, cubin_stored = 0;
	uint64_t cubin_flags = 0;
	int saw_ptx = 0;
	while (off < end) {
		if (!in_bounds(off, ENTRY_HEADER_MIN, end))
			return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
				    "fatbin entry header at %llu truncated",
				    (unsigned long long)off);
		const unsigned char *h = p + off;
		uint16_t kind = rd16(h);
		uint32_t entry_header = rd32(h + 4);
		uint64_t size = rd64(h + 8);
		uint32_t compressed = rd32(h + 16);
		uint32_t arch = rd32(h + 28);
		uint64_t flags = rd64(h + 40);
		uint64_t decompressed = rd64(h + 56);
		if (entry_header < ENTRY_HEADER_MIN ||
		    !in_bounds(off + entry_header, size, end))
			return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
				    "fatbin entry at %llu overruns the fatbin",
				    (unsigned long long)off);
		if (kind == ENTRY_ELF && arch == SIM_FATBIN_SM && !cubin) {
			cubin = h + entry_header;
			cubin_flags = flags;
			cubin_stored = size;
			if (flags & ENTRY_FLAG_ZSTD) {
				if (compressed > size)
					return fail(CUDA_ERROR_INVALID_IMAGE, why,
						    why_len, "compressed size "
						    "beyond the entry");
				cubin_stored = compressed;
				cubin_len = decompressed;
			} else {
				cubin_len = size;
			}
		}
		saw_ptx |= kind == ENTRY_PTX;
		off += entry_header + size;
	}
	if (!cubin)
		return fail(CUDA_ERROR_NO_BINARY_FOR_GPU, why, why_len,
			    "fatbin has no sm_%d cubin%s", SIM_FATBIN_SM,
			    saw_ptx ? " (PTX is not compiled by the simulator)" : "");
	if (cubin_flags & ENTRY_FLAG_LZ4)
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    "LZ4-compressed cubin not supported");
	if (!(cubin_flags & ENTRY_FLAG_ZSTD))
		return parse_cubin(cubin, cubin_len, m, why, why_len);
	if (cubin_len > ((uint64_t)1 << 30))
		return fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			    "implausible decompressed size %llu",
			    (unsigned long long)cubin_len);
	unsigned char *plain = zstd_decompress(cubin, cubin_stored, cubin_len,
					       why, why_len);
	if (!plain)
		return CUDA_ERROR_INVALID_IMAGE;
	CUresult r = parse_cubin(plain, cubin_len, m, why, why_len);
	free(plain);
	return r;
}

CUresult sim_fatbin_parse(const void *image, size_t len,
			  struct sim_fatbin_module *out, char *why, size_t why_len)
{
	if (why && why_len)
		why[0] = '\0';
	if (!image || !out)
		return fail(CUDA_ERROR_INVALID_VALUE, why, why_len, "no image");
	memset(out, 0, sizeof(*out));
	const unsigned char *p = image;
	CUresult r;
	if (len >= 4 && rd32(p) == SIM_FATBIN_MAGIC) {
		r = parse_fatbin(p, len, out, why, why_len);
	} else if (len >= SELFMAG && memcmp(p, ELFMAG, SELFMAG) == 0) {
		/* A bare cubin has no declared size until its headers are read. */
		uint64_t elf_len = len;
		if (len == SIZE_MAX) {
			Elf64_Ehdr h;
			memcpy(&h, p, sizeof(h));
			elf_len = h.e_shoff + (uint64_t)h.e_shnum * h.e_shentsize;
			for (unsigned i = 0; i < h.e_shnum && h.e_shentsize == sizeof(Elf64_Shdr); i++) {
				Elf64_Shdr s;
				memcpy(&s, p + h.e_shoff + (size_t)i * sizeof(s), sizeof(s));
				if (s.sh_type != SHT_NOBITS &&
				    s.sh_offset + s.sh_size > elf_len)
					elf_len = s.sh_offset + s.sh_size;
			}
		}
		r = parse_cubin(p, elf_len, out, why, why_len);
	} else {
		r = fail(CUDA_ERROR_INVALID_IMAGE, why, why_len,
			 "neither a fatbin (magic 0x%08x) nor a cubin",
			 SIM_FATBIN_MAGIC);
	}
	if (r == CUDA_SUCCESS)
		out->arch = SIM_FATBIN_SM;
	else
		sim_fatbin_free(out);
	return r;
}

void sim_fatbin_free(struct sim_fatbin_module *m)
{
	if (!m)
		return;
	for (size_t i = 0; m->kernels && i < m->nkernels; i++) {
		free(m->kernels[i].name);
		free(m->kernels[i].offsets);
		free(m->kernels[i].sizes);
	}
	for (size_t i = 0; m->vars && i < m->nvars; i++) {
		free(m->vars[i].name);
		free(m->vars[i].init);
	}
	free(m->kernels);
	free(m->vars);
	memset(m, 0, sizeof(*m));
}

const struct sim_fatbin_kernel *sim_fatbin_kernel(const struct sim_fatbin_module *m,
						  const char *name)
{
	for (size_t i = 0; m && name && i < m->nkernels; i++)
		if (strcmp(m->kernels[i].name, name) == 0)
			return &m->kernels[i];
	return NULL;
}

const struct sim_fatbin_var *sim_fatbin_var(const struct sim_fatbin_module *m,
					    const char *name)
{
	for (size_t i = 0; m && name && i < m->nvars; i++)
		if (strcmp(m->vars[i].name, name) == 0)
			return &m->vars[i];
	return NULL;
}

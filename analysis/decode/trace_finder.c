/*
 * Finding the CTF traces under a directory (trace_finder.h), by their
 * `metadata` file, and their stream files. Must never read the files.
 */
#include "analysis/decode/trace_finder.h"

#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/util.h"

/* nftw has no user data pointer */
static struct {
	char **items;
	size_t n, cap;
} found;

static int visit(const char *path, const struct stat *st, int type,
		struct FTW *ftw)
{
	(void)ftw;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (type == FTW_F && S_ISREG(st->st_mode) && strcmp(base, "metadata") == 0) {
		size_t dir_len = (size_t)(base - path);
		char *dir = dt_xmalloc(dir_len + 2);
		if (dir_len == 0) {
			strcpy(dir, ".");
		} else {
			memcpy(dir, path, dir_len - 1);
			dir[dir_len - 1] = '\0';
		}
		*DT_PUSH_SLOT(found.items, found.n, found.cap) = dir;
	}
	return 0;
}

int dt_find_trace_dirs(const char *root, char ***dirs, size_t *n_dirs)
{
	found.items = NULL;
	found.n = found.cap = 0;
	int walk = nftw(root, visit, 32, FTW_PHYS);
	*dirs = found.items;
	*n_dirs = found.n;
	found.items = NULL;
	found.n = found.cap = 0;
	return walk == 0 ? 0 : -1;
}

void dt_trace_dirs_free(char **dirs, size_t n_dirs)
{
	for (size_t i = 0; i < n_dirs; i++)
		free(dirs[i]);
	free(dirs);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(((const struct dt_stream_file *)a)->name,
			((const struct dt_stream_file *)b)->name);
}

void dt_list_stream_files(const char *dir, struct dt_stream_file **files,
		size_t *n, size_t *cap)
{
	size_t first = *n;
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "metadata") == 0)
			continue;
		char path[PATH_MAX];
		struct stat st;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
				(int)sizeof(path) || stat(path, &st) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		*DT_PUSH_SLOT(*files, *n, *cap) = (struct dt_stream_file){
			dt_xstrdup(e->d_name), st.st_size};
	}
	closedir(d);
	dt_sort(*files + first, *n - first, sizeof(**files), compare_names);
}

/*
 * Finding the CTF traces under a directory (trace_finder.h), by their
 * `metadata` file. Must never read the files.
 */
#include "analysis/decode/trace_finder.h"

#include <ftw.h>
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

/*
 * The process's rank from its launcher's environment (process_rank.h):
 * torchrun and torch.distributed (RANK, LOCAL_RANK), Open MPI
 * (OMPI_COMM_WORLD_RANK, ..._LOCAL_RANK), MPICH and Intel MPI (PMI_RANK),
 * PMIx (PMIX_RANK), Slurm (SLURM_PROCID, SLURM_LOCALID). Global ranks
 * come first: on one node a local rank is the same number, on several
 * only a global one tells the processes apart.
 * Must never write the environment, allocate, or fail: -1 when unknown.
 */
#include "interceptors/core/process_rank.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>

static int whole_number(const char *s)
{
	if (!s || *s == '\0')
		return -1;
	long v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (INT_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (int)v;
}

int dnntrace_process_rank(void)
{
	static const char *const names[] = {
		"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
		"SLURM_PROCID", "LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
		"SLURM_LOCALID",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int rank = whole_number(getenv(names[i]));
		if (rank >= 0)
			return rank;
	}
	return -1;
}

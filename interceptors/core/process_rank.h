/*
 * The traced process's rank in a distributed job, as its launcher's
 * environment says it (the status event's rank: the timeline's
 * distributedInfo rank). Must never change the environment.
 */
#ifndef DNNTRACE_INTERCEPTORS_PROCESS_RANK_H
#define DNNTRACE_INTERCEPTORS_PROCESS_RANK_H

/* The first of RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK,
 * SLURM_PROCID, LOCAL_RANK, OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID
 * that holds a whole number 0..INT_MAX; -1 when none does. */
int dnntrace_process_rank(void);

#endif

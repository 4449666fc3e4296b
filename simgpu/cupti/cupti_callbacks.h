/*
 * The simulated CUPTI's callback API (cupti_callbacks.c), as the activity
 * side (cupti_activity.c) sees it: which calls a subscriber wants to hear
 * about, and the call back itself. Internal to libcupti: never exported.
 */
#ifndef SIMGPU_CUPTI_CALLBACKS_H
#define SIMGPU_CUPTI_CALLBACKS_H

#include <cupti.h>
#include <stdint.h>

#include "simgpu/core/simgpu_cupti_hook.h"

/* Attaches to the simulated driver (cupti_activity.c). */
__attribute__((visibility("hidden"))) CUptiResult simgpu_cupti_attach(void);

/* Whether a call of this runtime and/or driver cbid (0: none) has an enabled
 * callback. Lock-free: asked on every call. */
__attribute__((visibility("hidden"))) int simgpu_cupti_callback_wanted(int runtime_cbid,
								      int driver_cbid);

/* Calls the subscriber back for the call w reports, which CUPTI numbered
 * correlation_id: runtime domain, then driver domain, each enabled one
 * ENTER then EXIT. */
__attribute__((visibility("hidden"))) void simgpu_cupti_call_back(const struct simgpu_work *w,
								 uint32_t correlation_id);

#endif

#ifndef CSWIFT_RUNTIME_HOOKS_H
#define CSWIFT_RUNTIME_HOOKS_H
/*
 * The Swift concurrency runtime's hook for the global executor (swift/Runtime/Concurrency.h):
 * when set, the runtime calls it with each job instead of handing the job to libdispatch's
 * worker pool, whose monitor, once started, wakes the process every second for good.
 *
 * Declared opaque: Swift stores in it a function of the hook's own (Swift) calling convention.
 * The variable belongs to the runtime; the linker resolves it from libswift_Concurrency.so or
 * from the static archive alike (dlsym cannot: a static runtime does not export it).
 */
extern void *_Nullable swift_task_enqueueGlobal_hook;

/* Swift reads and writes it through these (it may not touch C globals from concurrent code). */
static inline int cswift_enqueue_hook_is_unset(void) { return swift_task_enqueueGlobal_hook == 0; }

static inline void cswift_set_enqueue_hook(void *_Nonnull hook) {
    swift_task_enqueueGlobal_hook = hook;
}
#endif

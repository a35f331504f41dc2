/*
 * Counts heap allocations, for StatecraftBenchmarks' allocations per transition.
 *
 * Preloaded (LD_PRELOAD=malloc_count.so), it replaces glibc's allocation functions with
 * ones that add one to `statecraft_allocation_count` and call glibc's own; the benchmark
 * finds the counter with dlsym and reads it before and after its timed loop. Frees are
 * not counted: an allocation freed at once is still one too many on a hot path.
 *
 * Build: cc -O2 -shared -fPIC -o malloc_count.so malloc_count.c
 */

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

unsigned long statecraft_allocation_count;

static void counted(void) { __atomic_fetch_add(&statecraft_allocation_count, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    counted();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    counted();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}

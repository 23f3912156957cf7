#ifndef BENCH_CMALLOC_SHIM_H
#define BENCH_CMALLOC_SHIM_H
#include <stddef.h>
#if defined(__linux__)
#include <features.h> /* defines __GLIBC__ on glibc (not on musl) */
#endif
#if defined(__GLIBC__)
#include <malloc.h>
/// Bytes malloc has handed out and not yet had back, summed over every arena, including the large blocks it maps
/// on their own (glibc's mallinfo2 `uordblks` + `hblkhd`).
static inline size_t bench_live_heap_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
static inline size_t bench_live_heap_bytes(void) { return 0; }
#endif
#endif

#ifndef SANDNET_CMALLOC_SHIM_H
#define SANDNET_CMALLOC_SHIM_H
#if defined(__linux__)
#include <features.h> /* defines __GLIBC__ on glibc (not on musl) */
#endif
#if defined(__GLIBC__)
#include <malloc.h>
/// glibc's M_ARENA_MAX (a macro Swift does not import): at most `arenas` malloc arenas for the process's threads.
/// Returns 1 on success, 0 when not applied.
static inline int sandnet_limit_malloc_arenas(int arenas) { return mallopt(M_ARENA_MAX, arenas); }
#else
static inline int sandnet_limit_malloc_arenas(int arenas) { (void)arenas; return 0; }
#endif
#endif

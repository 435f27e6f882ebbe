/* make bench: counting the allocations of a timed loop (issue 12/13: no allocation per WQE or
 * frame). Included by one file of a bench program, which it gives malloc, calloc, realloc,
 * aligned_alloc, posix_memalign and free: each forwards to glibc and, while `counting` is 1,
 * adds one to `allocations`. */
#ifndef NICREF_BENCH_ALLOC_COUNT_H
#define NICREF_BENCH_ALLOC_COUNT_H

#include <stddef.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t k);
void *__libc_realloc(void *p, size_t n);
void *__libc_memalign(size_t a, size_t n);
void __libc_free(void *p);

static volatile int counting;
static volatile unsigned long allocations;

void *malloc(size_t n)
{
	allocations += counting;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t k)
{
	allocations += counting;
	return __libc_calloc(n, k);
}

void *realloc(void *p, size_t n)
{
	allocations += counting;
	return __libc_realloc(p, n);
}

void *aligned_alloc(size_t a, size_t n)
{
	allocations += counting;
	return __libc_memalign(a, n);
}

int posix_memalign(void **p, size_t a, size_t n)
{
	allocations += counting;
	*p = __libc_memalign(a, n);
	return *p ? 0 : 12; /* ENOMEM */
}

void free(void *p)
{
	__libc_free(p);
}

#endif

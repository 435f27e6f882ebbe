/* Private to libnicref: a handle space hands out the lowest free handle of [base, limit)
 * (D-OBJ-2), tells whether a handle is live, and frees it, each in O(levels) with levels <= 4
 * for 24-bit spaces: a bitmap of used handles under summary bitmaps of full words. */
#ifndef NICREF_OBJ_HANDLES_H
#define NICREF_OBJ_HANDLES_H

#include <stdbool.h>
#include <stdint.h>

#define HANDLE_LEVELS 4

struct handle_space {
	uint32_t base, limit; /* handles [base, limit) may be live; limit <= capacity */
	uint32_t capacity;    /* bits allocated at init */
	uint32_t nlive;
	uint8_t levels;
	uint64_t *bits[HANDLE_LEVELS]; /* bits[0]: handle used; bits[k]: word of k-1 full */
	uint32_t words[HANDLE_LEVELS];
};

/* capacity: the largest limit the space will ever get. 0 on success. */
int handle_space_init(struct handle_space *hs, uint32_t capacity);
void handle_space_fini(struct handle_space *hs);
/* Frees every handle and sets the range; limit is clamped to the capacity. */
void handle_space_reset(struct handle_space *hs, uint32_t base, uint32_t limit);
/* The lowest free handle, now live; -1 when none is free. */
int64_t handle_alloc(struct handle_space *hs);
/* 0, or -1 when h is not live. */
int handle_free(struct handle_space *hs, uint32_t h);
bool handle_live(const struct handle_space *hs, uint32_t h);

#endif

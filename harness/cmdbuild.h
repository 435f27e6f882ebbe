/* Host side of the command queue (PRM §7.14.1): lays out a command queue entry and its mailbox
 * chains in host memory exactly as a driver must, with the §7.14.1.1.1 signatures, and reads a
 * completed entry back, checking the device's signatures. Used by the vector runner, the fuzz
 * targets and the reference driver; it writes through a callback so the same bytes can go to
 * the model's host memory, to an op stream, or to a device under test. */
#ifndef NICREF_CMDBUILD_H
#define NICREF_CMDBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CMD_INLINE 16u
#define CMD_MBOX_SIZE 0x240u
#define CMD_MBOX_DATA 512u
#define CMD_MBOX_STRIDE 0x400u /* blocks are laid 1 KiB apart: next_pointer has bits 63:10 */

typedef int (*host_write_fn)(void *ctx, uint64_t addr, const void *buf, size_t len);
typedef int (*host_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

/* A patch applied to the entry or to one mailbox block: set `field` (a name of the cmdq_entry
 * or cmd_mailbox layout) to `value`. Patches of signature fields apply after signing, all
 * others before, so a vector breaks exactly one thing. */
struct cmd_patch {
	int block;         /* -1: the entry; k: mailbox block k */
	bool output_chain; /* for blocks: the output chain */
	const char *field;
	uint64_t value;
};

struct cmd_post {
	uint64_t entry_addr;            /* cmdq base + (slot << log_stride) */
	const uint8_t *in;              /* command input bytes */
	size_t in_len;                  /* bytes of `in` */
	uint32_t input_length;          /* as written to the entry (normally in_len) */
	uint32_t output_length;         /* as written to the entry */
	uint64_t in_mbox, out_mbox;     /* first block of each chain; blocks 1 KiB apart */
	uint8_t token;
	bool sign;                      /* compute the signatures (cmdif_checksum = 3) */
	const struct cmd_patch *patches;
	size_t npatches;
};

/* Number of mailbox blocks a length needs (T96: 16 bytes inline, 512 per block). */
uint32_t cmd_blocks_for(uint32_t length);

/* Writes the entry (ownership 1) and both chains. Returns 0, or -1 if a write failed or a patch
 * names no field. */
int cmd_post_write(const struct cmd_post *p, host_write_fn write, void *ctx);

struct cmd_result {
	uint8_t entry[64];
	unsigned delivery;  /* entry 3Ch[7:1] */
	unsigned ownership; /* entry 3Ch[0] */
	uint8_t status;     /* output byte 0 */
	uint32_t syndrome;
	bool entry_sig_ok;  /* the whole entry XORs to 0xFF */
	bool out_sigs_ok;   /* every output block: ctrl part and block XOR to 0xFF */
	size_t out_len;     /* bytes in `out` */
};

/* Reads the entry and output chain of a posted command back; `out` receives min(out_cap,
 * output_length) bytes: inline output first, then the output mailbox data. */
int cmd_result_read(const struct cmd_post *p, host_read_fn read, void *ctx, uint8_t *out,
		    size_t out_cap, struct cmd_result *r);

uint8_t cmd_xor8(const uint8_t *p, size_t n);

#endif

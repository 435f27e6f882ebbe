/* Shared by the vport test files (vport_*test.c): the NIC vport (PRM §7.3 T15-T20), the vport
 * commands (§12.16 T470-T485) and the vport counters (§12.17 T486-T492), with the decisions of
 * docs/vport.md (D-VP-*).
 *
 * Commands are built byte by byte at the offsets the PRM tables print (big-endian dwords, "Byte
 * Endianness") and run through the reference driver's command transport (refdrv_cmd); outputs
 * are read back at the PRM's offsets. Expected values come from the PRM or from the decisions,
 * never from what the model prints.
 *
 * Each test file that includes this header has its own device (the static state below), made
 * by setup(). */
#ifndef NICREF_TESTS_VPORT_UTIL_H
#define NICREF_TESTS_VPORT_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "prm/layouts.h"
#include "testlib.h"

#define OP_QUERY_VPORT_STATE 0x750u
#define OP_MODIFY_VPORT_STATE 0x751u
#define OP_QUERY_NIC_VPORT_CONTEXT 0x754u
#define OP_MODIFY_NIC_VPORT_CONTEXT 0x755u
#define OP_QUERY_VPORT_COUNTER 0x770u

/* T128. */
#define OK 0x00u
#define BAD_OP 0x02u
#define BAD_PARAM 0x03u
#define BAD_INPUT_LEN 0x50u
#define BAD_OUTPUT_LEN 0x51u

/* Sizes of the layout grids (T470-T490) and the context offsets (T480, T482). */
#define Q_CTX 0x10u    /* context in QUERY_NIC_VPORT_CONTEXT output */
#define M_CTX 0x100u   /* context in MODIFY_NIC_VPORT_CONTEXT input */
#define CTX_FIXED 0x100u
#define M_IN (M_CTX + CTX_FIXED)  /* 200h: the first list element of MODIFY */
#define Q_OUT (Q_CTX + CTX_FIXED) /* 110h: the first list element of QUERY */

/* The T483 field_select bits. */
#define FS_LIST (1u << 2)
#define FS_PROMISC (1u << 4)
#define FS_MTU (1u << 6)

/* HCA_CAP defaults (core/caps_default.c, T145 7Ch/90h). */
#define MAX_UC 128u   /* 2^7 */
#define MAX_MC 1024u  /* 2^10 */

/* D-VP-3 power-on values. */
#define PERMANENT_MAC 0x024E49435246ull
#define MIN_INLINE_L2 1u

/* The device of the test, brought up by the reference driver. */
static struct tl_dev *tdev;

static inline void setup(void)
{
	tdev = tl_up_to(NULL, REFDRV_INITIALIZED);
}

static inline void teardown(void)
{
	tl_down(tdev);
	tdev = NULL;
}

/* T19: mac[47:32] at 00h[15:0], mac[31:0] at 04h. */
static inline void put_mac(uint8_t *b, unsigned off, uint64_t mac)
{
	tl_setf(b, off, 15, 0, (uint32_t)(mac >> 32));
	tl_put32(b + off + 4, (uint32_t)mac);
}

static inline uint64_t get_mac(const uint8_t *b, unsigned off)
{
	return (uint64_t)tl_getf(b, off, 15, 0) << 32 | tl_get32(b + off + 4);
}

static inline void header(uint8_t *in, unsigned opcode, unsigned op_mod)
{
	tl_setf(in, 0x00, 31, 16, opcode);
	tl_setf(in, 0x04, 15, 0, op_mod);
}

static inline void query_state(unsigned *admin, unsigned *state)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	header(in, OP_QUERY_VPORT_STATE, 0);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK);
	*admin = tl_getf(out, 0x0C, 7, 4); /* T473 */
	*state = tl_getf(out, 0x0C, 3, 0);
}

static inline unsigned modify_state(unsigned admin)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	header(in, OP_MODIFY_VPORT_STATE, 0);
	tl_setf(in, 0x0C, 7, 4, admin); /* T475 */
	return tl_cmd(tdev, in, sizeof in, out, sizeof out);
}

/* QUERY of list `type` into out (out_len bytes); returns the status. */
static inline unsigned query_ctx(unsigned type, uint8_t *out, uint32_t out_len)
{
	uint8_t in[0x10] = { 0 };
	header(in, OP_QUERY_NIC_VPORT_CONTEXT, 0);
	tl_setf(in, 0x0C, 26, 24, type); /* T479 */
	memset(out, 0xEE, out_len);
	return tl_cmd(tdev, in, sizeof in, out, out_len);
}

/* A MODIFY input with room for n list elements, header and field_select set. */
static inline uint8_t *modify_in(uint32_t fs, uint32_t n, uint32_t *len)
{
	*len = M_IN + 8 * n;
	uint8_t *in = calloc(1, *len);
	cr_assert_not_null(in);
	header(in, OP_MODIFY_NIC_VPORT_CONTEXT, 0);
	tl_put32(in + 0x0C, fs); /* T483 */
	return in;
}

static inline unsigned modify_run(uint8_t *in, uint32_t len)
{
	uint8_t out[0x10];
	unsigned st = tl_cmd(tdev, in, len, out, sizeof out);
	free(in);
	return st;
}

/* MODIFY of one list: type, n elements from v[]. */
static inline unsigned modify_list(unsigned type, uint32_t n, const uint64_t *v)
{
	uint32_t len;
	uint8_t *in = modify_in(FS_LIST, n, &len);
	tl_setf(in, M_CTX + 0xF0, 26, 24, type); /* T16 allowed_list_type */
	tl_setf(in, M_CTX + 0xF0, 11, 0, n);     /* allowed_list_size */
	for (uint32_t i = 0; i < n; i++) {
		if (type == 2)
			tl_setf(in, M_IN + 8 * i, 11, 0, (uint32_t)v[i]); /* T17 */
		else
			put_mac(in, M_IN + 8 * i, v[i]); /* T19 */
	}
	return modify_run(in, len);
}

static inline unsigned modify_mtu(unsigned mtu)
{
	uint32_t len;
	uint8_t *in = modify_in(FS_MTU, 0, &len);
	tl_setf(in, M_CTX + 0x24, 15, 0, mtu);
	return modify_run(in, len);
}

static inline void expect_list(unsigned type, uint32_t n, const uint64_t *v)
{
	uint32_t olen = Q_OUT + 8 * n;
	uint8_t *out = calloc(1, olen);
	cr_assert_not_null(out);
	cr_assert_eq(query_ctx(type, out, olen), OK);
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 26, 24), type);
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 11, 0), n, "list %u size", type);
	for (uint32_t i = 0; i < n; i++) {
		if (type == 2) {
			cr_expect_eq(tl_getf(out, Q_OUT + 8 * i, 11, 0), v[i], "vlan[%u]", i);
			cr_expect_eq(tl_getf(out, Q_OUT + 8 * i, 31, 12), 0, "T17 reserved");
			cr_expect_eq(tl_get32(out + Q_OUT + 8 * i + 4), 0, "T17 04h reserved");
		} else {
			cr_expect_eq(get_mac(out, Q_OUT + 8 * i), v[i], "mac[%u]", i);
			cr_expect_eq(tl_getf(out, Q_OUT + 8 * i, 31, 16), 0, "T19 reserved");
		}
	}
	free(out);
}

static inline unsigned query_counters(bool clear, uint8_t out[0x210])
{
	uint8_t in[0x20] = { 0 };
	header(in, OP_QUERY_VPORT_COUNTER, 0);
	tl_setf(in, 0x18, 31, 31, clear); /* T488 */
	memset(out, 0xEE, 0x210);
	return tl_cmd(tdev, in, sizeof in, out, 0x210);
}

#endif

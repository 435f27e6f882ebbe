/* Shared by the capability test files (caps_*test.c): the layouts of PRM T144-T153
 * (reference/prm/layouts_caps.h), the default profile (reference/core/caps_default.c,
 * docs/caps.md), QUERY_HCA_CAP and SET_HCA_CAP (reference/cmd/cmd_caps.c, PRM §12.3.3-§12.3.4).
 *
 * Commands go through the real queue, posted by the reference driver (harness/driver.h). The
 * expected offsets are transcribed from the PRM field-description tables; the expected values
 * from docs/caps.md, which the caps_doc suite checks field by field against the device.
 *
 * Each test file that includes this header has its own device (the static state below), made
 * by start() and taken down by stop(). */
#ifndef NICREF_TESTS_CAPS_UTIL_H
#define NICREF_TESTS_CAPS_UTIL_H

#include <stdint.h>
#include <string.h>

#include "testlib.h"

#define CAP 0x1000u      /* T143: capability 10h-100Ch */
#define CAP_IN 0x10u     /* offset of the capability in the command */
#define QUERY_OUT 0x1010u

enum { T_GENERAL = 0, T_ETH = 1, T_FLOW = 7 }; /* T141 op_mod[15:1] */

/* ---- a device, the reference driver, and what the trace said ---------------------------- */

static struct tl_dev *tdev;

/* A fresh device with the default profile (reserved_check as given), brought to `stage`
 * without a violation. */
static inline void start(enum refdrv_stage stage, unsigned reserved_check)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.reserved_check = (uint8_t)reserved_check;
	tdev = tl_up_to(&p, stage);
}

static inline void stop(void)
{
	tl_down(tdev);
	tdev = NULL;
}

/* ---- field access through the layouts, by name ------------------------------------------ */

static inline uint64_t get(const uint8_t *cap, const char *layout, const char *name)
{
	uint64_t v = 0;
	cr_assert_eq(nicref_field_get(cap, CAP, tl_field(layout, name), &v), 0);
	return v;
}

static inline void put(uint8_t *cap, const char *layout, const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(cap, CAP, tl_field(layout, name), v), 0, "%s.%s = %llu", layout,
		     name, (unsigned long long)v);
}

#define GEN(cap, n) get((cap), "hca_cap", #n)
#define GEN_SET(cap, n, v) put((cap), "hca_cap", #n, (v))

static inline void put_cmd_header(uint8_t *in, const char *opcode, unsigned op_mod)
{
	cr_assert_eq(nicref_field_set(in, 16, tl_field("cmd_in", "opcode"),
				      (uint64_t)nicref_opcode_find(opcode)),
		     0);
	cr_assert_eq(nicref_field_set(in, 16, tl_field("cmd_in", "op_mod"), op_mod), 0);
}

/* ---- the two commands --------------------------------------------------------------------- */

/* QUERY_HCA_CAP; the 4 KB capability into cap (when not NULL). Returns the status. */
static inline int query(unsigned op_mod, uint8_t *cap)
{
	static uint8_t out[QUERY_OUT];
	uint8_t in[16] = { 0 };
	put_cmd_header(in, "QUERY_HCA_CAP", op_mod);
	int st = refdrv_cmd(&tdev->d, in, sizeof in, out, QUERY_OUT);
	cr_assert_geq(st, 0, "%s", tdev->d.error);
	if (cap)
		memcpy(cap, out + CAP_IN, CAP);
	return st;
}

static inline void query_ok(unsigned op_mod, uint8_t *cap)
{
	cr_assert_eq(query(op_mod, cap), 0, "QUERY_HCA_CAP op_mod 0x%x: status 0x%x", op_mod,
		     tdev->d.last_status);
}

/* SET_HCA_CAP with the capability `cap`. Returns the status, or -1 when not delivered. */
static inline int set(unsigned op_mod, const uint8_t *cap)
{
	static uint8_t in[CAP_IN + CAP];
	uint8_t out[16];
	memset(in, 0, sizeof in);
	put_cmd_header(in, "SET_HCA_CAP", op_mod);
	memcpy(in + CAP_IN, cap, CAP);
	return refdrv_cmd(&tdev->d, in, sizeof in, out, sizeof out);
}

/* A SET the device accepts with nothing to report. */
static inline void set_ok(unsigned op_mod, const uint8_t *cap)
{
	cr_assert_eq(set(op_mod, cap), 0, "SET_HCA_CAP: status 0x%x rule %s", tdev->d.last_status,
		     tl_count(&tdev->tr, NICREF_EV_CMD_FAIL) ? nicref_cmd_rule_name(tdev->tr.last_rule) : "-");
}

#endif

/* Private to libnicref: flow steering classification (PRM §7.11.2, §7.11.4). The
 * tables, groups, entries and counters it walks are the objects of obj/flow.h, built by the
 * commands of §12.14; this layer reads a frame into a match key and walks them. Decisions:
 * docs/steer.md (D-FT-*, D-FC-*). */
#ifndef NICREF_STEER_STEER_H
#define NICREF_STEER_STEER_H

#include <stddef.h>
#include <stdint.h>

#include "eth/pkt_parse.h"
#include "obj/flow.h"

struct nicref_dev;

/* The packet's side of a match: an fte_match_param (PRM T407) filled from the frame, with
 * outer_headers (T409/T410) and misc_parameters (T415/T416); fields absent from the frame read 0
 * (D-FT-5, docs/steer.md). inner_headers stay 0 (no tunnel parsing). */
#define STEER_KEY_LEN 0xC0u
_Static_assert(STEER_KEY_LEN == FLOW_MATCH_LEN, "the key is the matchable part of T407");
void steer_key_build(const uint8_t *frame, size_t len, const struct pkt_info *pi,
		     uint8_t key[STEER_KEY_LEN]);

enum steer_table_type { STEER_NIC_RX = 0, STEER_NIC_TX = 1 };
enum steer_action { STEER_DROP, STEER_DEFAULT, STEER_DELIVER };
/* Why a verdict is what it is (for the trace). */
enum steer_why {
	STEER_WHY_NO_ROOT,   /* no root table of the type (§7.11.2.5): the default */
	STEER_WHY_MISS,      /* no flow matched and the miss is the default (T388 00h 0x0) */
	STEER_WHY_ALLOW,     /* an ALLOW flow: the type's default (D-FT-7) */
	STEER_WHY_RULE_DROP, /* a DROP flow (§7.11.2.2) */
	STEER_WHY_FORWARD,   /* forwarded to one or more TIRs */
};
#define STEER_MAX_TIRS 64 /* copies one frame may produce; more is a counted overflow (D-FT-20) */
struct steer_verdict {
	enum steer_action action; /* DELIVER: ntirs > 0 (NIC_RX only) */
	unsigned why;             /* enum steer_why */
	unsigned ntirs;
	uint32_t tirn[STEER_MAX_TIRS];
	uint32_t flow_tag[STEER_MAX_TIRS];
};
/* Classifies one frame through the function's tables of type t (§7.11.2; docs/steer.md),
 * counting flow counters with frame_len. Never fails; DEFAULT means the type's default
 * (NIC_RX: drop; NIC_TX: transmit). No allocation. */
void steer_classify(struct nicref_dev *dev, enum steer_table_type t, const uint8_t key[STEER_KEY_LEN],
		    uint32_t frame_len, struct steer_verdict *v);
/* The same for a parsed frame (len bytes, counted as frame_len): its key built (only when the
 * type has a root) and classified, the root looked up once. */
void steer_classify_frame(struct nicref_dev *dev, enum steer_table_type t, const uint8_t *frame,
			  size_t len, const struct pkt_info *pi, struct steer_verdict *v);

#endif

/* The interfaces the receive engine calls in the two parts built beside it (issue 13's plan):
 * flow steering (steer/steer.h: steer_key_build, steer_classify) and RSS (eth/rss.h:
 * rss_compute, rss_rqt_index). RSS has joined (eth/rss.h); the steering declarations are the
 * plan's, word for word, and eth/rx_glue_stub.c defines them trivially until steer/ lands. Then
 * this header becomes two #include lines and the stub goes. */
#ifndef NICREF_ETH_RX_GLUE_H
#define NICREF_ETH_RX_GLUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eth/pkt_parse.h"

struct nicref_dev;

/* ---- steer/steer.h ---------------------------------------------------------------------- */
/* The packet's side of a match: an fte_match_param (PRM T407) filled from the frame. */
#define STEER_KEY_LEN 0xC0u
void steer_key_build(const uint8_t *frame, size_t len, const struct pkt_info *pi,
		     uint8_t key[STEER_KEY_LEN]);
enum steer_table_type { STEER_NIC_RX = 0, STEER_NIC_TX = 1 };
enum steer_action { STEER_DROP, STEER_DEFAULT, STEER_DELIVER };
#define STEER_MAX_TIRS 64 /* copies one frame may produce */
struct steer_verdict {
	enum steer_action action; /* DELIVER: ntirs > 0 (NIC_RX only) */
	unsigned why;             /* for the trace */
	unsigned ntirs;
	uint32_t tirn[STEER_MAX_TIRS];
	uint32_t flow_tag[STEER_MAX_TIRS];
};
/* Classifies one frame through the function's tables of type t (§7.11.2). Never fails;
 * DEFAULT means the type's default (NIC_RX: drop; NIC_TX: transmit). */
void steer_classify(struct nicref_dev *dev, enum steer_table_type t,
		    const uint8_t key[STEER_KEY_LEN], uint32_t frame_len, struct steer_verdict *v);

/* ---- eth/rss.h: joined -------------------------------------------------------------- */
#include "eth/rss.h"

#endif

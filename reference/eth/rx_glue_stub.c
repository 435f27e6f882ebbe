/* Stand-ins for flow steering (steer/steer.h) until that part of issue 13 lands (eth/rx_glue.h):
 * the key is zeros; NIC_RX classification answers DEFAULT (drop, §7.11.2 with no root), unless a
 * test forced a verdict (rx_stub_force, kept in the engine's state). Deleted when steer/ joins. */
#include <string.h>

#include "eth/rx.h"

void steer_key_build(const uint8_t *frame, size_t len, const struct pkt_info *pi,
		     uint8_t key[STEER_KEY_LEN])
{
	(void)frame;
	(void)len;
	(void)pi;
	memset(key, 0, STEER_KEY_LEN);
}

void steer_classify(struct nicref_dev *dev, enum steer_table_type t,
		    const uint8_t key[STEER_KEY_LEN], uint32_t frame_len, struct steer_verdict *v)
{
	(void)key;
	(void)frame_len;
	const struct rx_state *rs = rx_state_of(dev);
	if (t == STEER_NIC_RX && rs && rs->stub_forced) {
		*v = rs->stub_verdict;
		return;
	}
	v->action = STEER_DEFAULT;
	v->why = 0;
	v->ntirs = 0;
}

void rx_stub_force(struct nicref_dev *dev, const struct steer_verdict *v)
{
	struct rx_state *rs = rx_state_of(dev);
	if (!rs)
		return;
	rs->stub_forced = v != NULL;
	if (v)
		rs->stub_verdict = *v;
}

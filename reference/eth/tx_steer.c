/* NIC_TX classification of each frame an SQ sends (PRM §7.11.4.2, §7.11.2; D-TX-16, docs/tx.md):
 * after the offloads made it (LSO segments one by one) and the frame checks (vport down, MTU:
 * D-TX-16), before the loopback decision (tx_loopback.c). The frame is parsed by the one parser
 * (eth/pkt_parse.h) and its match key built as for the receive side (steer/key.c); the flow
 * counters it hits count it (§7.11.2.8, D-FC-2). Only a DROP stops it: DEFAULT (no root, a
 * miss, an ALLOW flow) is NIC_TX's default, transmit (§7.11.2.5), and a NIC_TX flow cannot name
 * a TIR (T151 NIC_TX properties; FWD_DEST there names tables). Nothing allocates. */
#include "eth/eth.h"
#include "steer/steer.h"

bool tx_steer_allows(struct nicref_dev *dev, const uint8_t *frame, size_t len)
{
	/* Without a NIC_TX root the verdict is the default whatever the frame: no parse. */
	if (!flow_root(dev, FLOW_NIC_TX))
		return true;
	struct pkt_info pi;
	uint8_t key[STEER_KEY_LEN];
	struct steer_verdict v;
	pkt_parse(frame, len, &pi);
	steer_key_build(frame, len, &pi, key);
	steer_classify(dev, STEER_NIC_TX, key, (uint32_t)len, &v);
	return v.action != STEER_DROP;
}

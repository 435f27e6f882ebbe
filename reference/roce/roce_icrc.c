/* The ICRC of RoCEv2 (InfiniBand Architecture Specification Vol. 1 §7.8.1 "Invariant CRC";
 * Annex A17 RoCEv2 §A17.3.3): CRC-32 of the Ethernet FCS polynomial over the packet from the
 * IP header to the end of the payload, with the fields that may change on the way masked to
 * 1s and 8 bytes of 1s in front for the LRH RoCEv2 has not. docs/roce.md D-ROCE-5 records the
 * check against Scapy's scapy.contrib.roce (IPv4) and the masks. */
#include <string.h>

#include "eth/eth.h"
#include "roce/roce.h"

#define IPV4_MIN 20u
#define IPV6_LEN 40u
#define UDP_LEN 8u

int nicref_roce_icrc(const uint8_t *ip, size_t len, uint32_t *icrc)
{
	if (!ip || !icrc || len < 1)
		return -1;
	uint8_t h[8 + 60 + UDP_LEN + NICREF_ROCE_BTH_LEN];
	size_t ihl;
	memset(h, 0xFF, 8);
	if (ip[0] >> 4 == 4) {
		ihl = (size_t)(ip[0] & 0xF) * 4;
		if (ihl < IPV4_MIN || len < ihl + UDP_LEN + NICREF_ROCE_BTH_LEN + NICREF_ROCE_ICRC_LEN ||
		    ip[9] != 17)
			return -1;
		memcpy(h + 8, ip, ihl);
		h[8 + 1] = 0xFF;                 /* TOS (DSCP, ECN) */
		h[8 + 8] = 0xFF;                 /* TTL */
		h[8 + 10] = h[8 + 11] = 0xFF;    /* header checksum */
	} else if (ip[0] >> 4 == 6) {
		ihl = IPV6_LEN;
		if (len < ihl + UDP_LEN + NICREF_ROCE_BTH_LEN + NICREF_ROCE_ICRC_LEN || ip[6] != 17)
			return -1;
		memcpy(h + 8, ip, ihl);
		h[8 + 0] |= 0x0F;                /* traffic class (low half), */
		h[8 + 1] = 0xFF;                 /* its high half and the flow label */
		h[8 + 2] = h[8 + 3] = 0xFF;
		h[8 + 7] = 0xFF;                 /* hop limit */
	} else {
		return -1;
	}
	uint8_t *u = h + 8 + ihl;
	memcpy(u, ip + ihl, UDP_LEN + NICREF_ROCE_BTH_LEN);
	u[6] = u[7] = 0xFF;                      /* UDP checksum */
	u[UDP_LEN + 4] = 0xFF;                   /* BTH byte 4: FECN, BECN, resv6 */
	size_t hn = 8 + ihl + UDP_LEN + NICREF_ROCE_BTH_LEN;
	size_t done = ihl + UDP_LEN + NICREF_ROCE_BTH_LEN;
	uint32_t crc = eth_crc32_update(0, h, hn);
	crc = eth_crc32_update(crc, ip + done, len - NICREF_ROCE_ICRC_LEN - done);
	*icrc = crc;
	return 0;
}

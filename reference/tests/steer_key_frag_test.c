/* The match key of an IPv4 fragment (PRM T410 outer_frag, tcp/udp ports; steer/key.c, D-FT-5):
 * a fragment other than the first carries no TCP/UDP header, so its ports read 0 whatever its
 * payload holds (found by the steer fuzz target: the payload's first bytes were read as ports);
 * the first fragment (offset 0, MF) has its header and keeps them. */
#include "steer_util.h"

static uint64_t kget(const uint8_t *key, const char *name)
{
	return refdrv_field_get(key, STEER_KEY_LEN, "fte_match_param", name);
}

static void key_of(const uint8_t *p, size_t n, uint8_t *key)
{
	struct pkt_info pi;
	pkt_parse(p, n, &pi);
	steer_key_build(p, n, &pi, key);
}

Test(steer_key, a_later_fragment_has_no_ports)
{
	struct sframe f = { .dst = 0x0a000002, .proto = 17, .dport = 4791 };
	uint8_t p[128], key[STEER_KEY_LEN];
	size_t n = sframe_build(&f, p);
	uint8_t *ip = p + 14;
	ip[6] = 0x00, ip[7] = 0x10; /* fragment offset 16 (128 bytes), MF 0 */
	key_of(p, n, key);
	cr_expect_eq(kget(key, "outer_frag"), 1);
	cr_expect_eq(kget(key, "outer_ip_protocol"), 17, "the protocol is the IP header's");
	cr_expect_eq(kget(key, "outer_udp_sport"), 0, "payload bytes are not ports");
	cr_expect_eq(kget(key, "outer_udp_dport"), 0);
	/* the first fragment: offset 0, MF 1 */
	ip[6] = 0x20, ip[7] = 0x00;
	key_of(p, n, key);
	cr_expect_eq(kget(key, "outer_frag"), 1);
	cr_expect_eq(kget(key, "outer_udp_sport"), 1000);
	cr_expect_eq(kget(key, "outer_udp_dport"), 4791);
	/* the same for TCP: ports and flags */
	struct sframe t = { .dst = 0x0a000002, .proto = 6, .dport = 80, .tcp_flags = 0x12 };
	n = sframe_build(&t, p);
	ip[6] = 0x00, ip[7] = 0x20;
	key_of(p, n, key);
	cr_expect_eq(kget(key, "outer_tcp_dport"), 0);
	cr_expect_eq(kget(key, "outer_tcp_flags"), 0);
}

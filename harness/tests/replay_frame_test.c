/* The replay's record-to-frame step (harness/replay_frame.c, docs/replay.md "Messy captures"):
 * each link type's header into an Ethernet header, runts padded, records the port cannot be
 * given skipped with their reason. Records are written byte by byte from the public formats
 * (tcpdump.org LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2, LINKTYPE_RAW). */
#include <criterion/criterion.h>
#include <string.h>

#include "replay_int.h"

static const uint8_t MAC[6] = { 0x02, 0x4E, 0x49, 0x43, 0x52, 0x46 };
static uint8_t out[REPLAY_FRAME_MAX];

static struct cap_frame rec(enum cap_link l, const uint8_t *d, uint32_t caplen, uint32_t wirelen)
{
	return (struct cap_frame){ .link = l, .caplen = caplen, .wirelen = wirelen, .data = d };
}

/* An IPv6 header's first bytes, 70 bytes in all. */
static void ipv6(uint8_t *p)
{
	memset(p, 0xAB, 70);
	p[0] = 0x60;
}

Test(replay_frame, sll2_broadcast_record_gets_broadcast_and_its_source)
{
	uint8_t d[20 + 70] = { 0x86, 0xDD, 0, 0, 0, 0, 0, 3, 0, 1, /* packet type */ 1,
			       /* address length */ 6, 0x02, 0, 0, 0, 0, 0x99, 0, 0 };
	ipv6(d + 20);
	struct replay_pred p;
	struct cap_frame f = rec(CAP_LINK_LINUX_SLL2, d, sizeof d, sizeof d);
	uint32_t n = replay_frame(&f, MAC, true, out, &p);
	cr_assert_eq(p.skip, REPLAY_SKIP_NONE);
	cr_assert(p.converted);
	cr_assert_eq(n, 14 + 70);
	static const uint8_t hdr[14] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0, 0, 0, 0, 0x99,
					 0x86, 0xDD };
	cr_assert_arr_eq(out, hdr, 14);
	cr_assert_arr_eq(out + 14, d + 20, 70);
}

Test(replay_frame, sll_host_record_goes_to_the_function)
{
	uint8_t d[16 + 70] = { 0, 0, 0, 1, 0, 6, 0x02, 0, 0, 0, 0, 0x42, 0, 0, 0x86, 0xDD };
	ipv6(d + 16);
	struct cap_frame f = rec(CAP_LINK_LINUX_SLL, d, sizeof d, sizeof d);
	struct replay_pred p;
	cr_assert_eq(replay_frame(&f, MAC, true, out, &p), 14 + 70);
	cr_assert_arr_eq(out, MAC, 6);
	cr_assert_eq(out[11], 0x42);
	cr_assert_eq(out[12], 0x86);
}

Test(replay_frame, raw_ip_by_its_version_and_a_runt_padded)
{
	uint8_t d[28] = { 0x45 };
	struct cap_frame f = rec(CAP_LINK_RAW_IP, d, sizeof d, sizeof d);
	struct replay_pred p;
	cr_assert_eq(replay_frame(&f, MAC, true, out, &p), 60, "14 + 28 bytes padded to 60");
	cr_assert(p.padded && p.converted);
	cr_assert_eq(out[12], 0x08);
	cr_assert_eq(out[13], 0x00);
	cr_assert_eq(out[59], 0);
	cr_assert_eq(replay_frame(&f, MAC, false, out, &p), 42, "--no-pad: as captured");
	cr_assert(!p.padded);
	d[0] = 0x50; /* neither IPv4 nor IPv6 */
	replay_frame(&f, MAC, true, out, &p);
	cr_assert_eq(p.skip, REPLAY_SKIP_NOT_ETHERNET);
}

Test(replay_frame, truncated_and_too_long_records_are_skipped)
{
	static uint8_t d[REPLAY_FRAME_MAX + 1];
	struct replay_pred p;
	struct cap_frame f = rec(CAP_LINK_ETHERNET, d, 96, 200);
	replay_frame(&f, MAC, true, out, &p);
	cr_assert_eq(p.skip, REPLAY_SKIP_TRUNCATED);
	f = rec(CAP_LINK_ETHERNET, d, sizeof d, sizeof d);
	replay_frame(&f, MAC, true, out, &p);
	cr_assert_eq(p.skip, REPLAY_SKIP_TOO_LONG);
	f = rec(CAP_LINK_ETHERNET, d, REPLAY_FRAME_MAX, REPLAY_FRAME_MAX);
	cr_assert_eq(replay_frame(&f, MAC, true, out, &p), REPLAY_FRAME_MAX);
	cr_assert_eq(p.skip, REPLAY_SKIP_NONE);
}

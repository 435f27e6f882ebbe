/* `nicref lro explain` (harness/lro_explain.c): the shipped example against the explanation an
 * independent model of PRM §3.3.6 wrote (examples/lro/expected_explain.json, from
 * vectors/lro/gen/lro_model.py), captures written here byte by byte in the libpcap file format
 * (a merged stream, frames LRO does not see, a truncated record), and bad input. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lro_explain.h"

#define EXAMPLE "examples/lro/stream.pcap"
#define EXPECTED "examples/lro/expected_explain.json"

/* Runs explain; its JSON (or NULL when it printed none) and its exit status, stderr in err. */
static json_t *explain(struct lro_explain_opts *o, int *rc, char *err, size_t errlen)
{
	FILE *out = tmpfile(), *e = tmpfile();
	cr_assert(out && e);
	o->json = true;
	*rc = lro_explain_run(o, out, e);
	rewind(out);
	rewind(e);
	size_t n = fread(err, 1, errlen - 1, e);
	err[n] = '\0';
	json_error_t je;
	json_t *doc = json_loadf(out, 0, &je);
	fclose(out);
	fclose(e);
	return doc;
}

/* Every member of `want` is in `got` with the same value; arrays of the same length, element
 * by element. The first difference into why. */
static bool subset(const json_t *want, const json_t *got, const char *path, char *why, size_t n)
{
	if (json_is_object(want)) {
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)want, k, v)
		{
			char p[256];
			snprintf(p, sizeof p, "%s.%s", path, k);
			const json_t *g = json_object_get(got, k);
			if (!g) {
				snprintf(why, n, "%s: missing", p);
				return false;
			}
			if (!subset(v, g, p, why, n))
				return false;
		}
		return true;
	}
	if (json_is_array(want)) {
		if (!json_is_array(got) || json_array_size(got) != json_array_size(want)) {
			snprintf(why, n, "%s: %zu elements, explain gives %zu", path,
				 json_array_size(want), json_array_size(got));
			return false;
		}
		for (size_t i = 0; i < json_array_size(want); i++) {
			char p[256];
			snprintf(p, sizeof p, "%s[%zu]", path, i);
			if (!subset(json_array_get(want, i), json_array_get(got, i), p, why, n))
				return false;
		}
		return true;
	}
	if (!json_equal((json_t *)want, (json_t *)got)) {
		char *a = json_dumps(want, JSON_ENCODE_ANY), *b = json_dumps(got, JSON_ENCODE_ANY);
		snprintf(why, n, "%s: expected %s, explain gives %s", path, a, b);
		free(a);
		free(b);
		return false;
	}
	return true;
}

Test(lro_explain, example_matches_the_independent_model)
{
	if (access(EXPECTED, R_OK) != 0 || access(EXAMPLE, R_OK) != 0)
		cr_skip_test("%s and %s are not in this tree (the lrogen branch ships them)", EXAMPLE,
			     EXPECTED);
	json_error_t je;
	json_t *want = json_load_file(EXPECTED, 0, &je);
	cr_assert(want, "%s: %s", EXPECTED, je.text);
	struct lro_explain_opts o;
	lro_explain_defaults(&o);
	const json_t *tir = json_object_get(want, "tir");
	o.enable_mask = (unsigned)json_integer_value(json_object_get(tir, "lro_enable_mask"));
	o.timeout_usecs =
		(unsigned)json_integer_value(json_object_get(tir, "lro_timeout_period_usecs"));
	o.max_msg_sz = (unsigned)json_integer_value(json_object_get(tir, "lro_max_msg_sz"));
	o.capture = EXAMPLE;
	int rc;
	char err[1024], why[512];
	json_t *got = explain(&o, &rc, err, sizeof err);
	cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
	cr_assert(got);
	/* what it says of the capture; "capture", "command" and "note" are the file's own */
	static const char *const keys[] = { "tir", "sessions", "alone", "summary" };
	for (unsigned i = 0; i < 4; i++)
		cr_expect(subset(json_object_get(want, keys[i]), json_object_get(got, keys[i]),
				 keys[i], why, sizeof why),
			  "%s", why);
	json_decref(want);
	json_decref(got);
}

/* ---- captures written here ---- */

struct cap {
	uint8_t b[16384];
	size_t n;
};

static void le32(struct cap *c, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		c->b[c->n++] = (uint8_t)(v >> 8 * i);
}

/* The libpcap file header: microsecond timestamps, snaplen 65535, link type `link`. */
static void header(struct cap *c, uint32_t link)
{
	c->n = 0;
	le32(c, 0xA1B2C3D4u);
	le32(c, 2u | 4u << 16);
	le32(c, 0);
	le32(c, 0);
	le32(c, 65535);
	le32(c, link);
}

static void record(struct cap *c, uint32_t usec, const uint8_t *f, uint32_t caplen,
		   uint32_t wirelen)
{
	le32(c, 100);
	le32(c, usec);
	le32(c, caplen);
	le32(c, wirelen);
	memcpy(c->b + c->n, f, caplen);
	c->n += caplen;
}

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static void csum(uint8_t *at, uint32_t s)
{
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	at[0] = (uint8_t)(~s >> 8), at[1] = (uint8_t)~s;
}

/* Ethernet, IPv4 (TTL 64, DF), 10.0.0.1:4000 -> 10.0.0.2:80, protocol proto, l4 bytes from
 * l4 (a TCP header's checksum is filled): the frame's length. */
static size_t ipv4(uint8_t *f, uint8_t proto, const uint8_t *l4, size_t l4len)
{
	static const uint8_t eth[14] = { 2, 0x4E, 0x49, 0x43, 0x52, 0x46, 2, 0, 0, 0, 0, 1, 8, 0 };
	memcpy(f, eth, 14);
	uint8_t *ip = f + 14;
	memset(ip, 0, 20);
	ip[0] = 0x45, ip[2] = (uint8_t)((20 + l4len) >> 8), ip[3] = (uint8_t)(20 + l4len);
	ip[6] = 0x40, ip[8] = 64, ip[9] = proto;
	ip[12] = 10, ip[15] = 1, ip[16] = 10, ip[19] = 2;
	csum(ip + 10, sum16(ip, 20, 0));
	memcpy(ip + 20, l4, l4len);
	if (proto == 6)
		csum(ip + 20 + 16, sum16(ip + 20, l4len, 0x0A00 + 1 + 0x0A00 + 2 + 6 + (uint32_t)l4len));
	return 14 + 20 + l4len;
}

/* A TCP segment of the flow from port sport: ACK, window 1000, no options, `len` payload
 * bytes. */
static size_t tcp_from(uint8_t *f, unsigned sport, uint32_t seq, size_t len)
{
	uint8_t t[1500] = { (uint8_t)(sport >> 8), (uint8_t)sport, 0, 80 };
	t[4] = (uint8_t)(seq >> 24), t[5] = (uint8_t)(seq >> 16), t[6] = (uint8_t)(seq >> 8);
	t[7] = (uint8_t)seq;
	t[11] = 7; /* ack 7 */
	t[12] = 5 << 4, t[13] = 0x10, t[14] = 0x03, t[15] = 0xE8;
	for (size_t i = 0; i < len; i++)
		t[20 + i] = (uint8_t)(seq + i);
	return ipv4(f, 6, t, 20 + len);
}

static size_t tcp(uint8_t *f, uint32_t seq, size_t len)
{
	return tcp_from(f, 4000, seq, len);
}

static void write_cap(const char *path, const struct cap *c)
{
	FILE *f = fopen(path, "wb");
	cr_assert(f && fwrite(c->b, 1, c->n, f) == c->n && fclose(f) == 0);
}

/* The capture c written to a file of its own, explained with the defaults, the file removed. */
static json_t *explain_capture(const struct cap *c, int *rc, char *err, size_t errlen)
{
	char path[] = "/tmp/nicref-lro-explain-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	write_cap(path, c);
	struct lro_explain_opts o;
	lro_explain_defaults(&o);
	o.capture = path;
	json_t *got = explain(&o, rc, err, errlen);
	unlink(path);
	return got;
}

/* Three segments in sequence, 1 µs apart: one session of three (§3.3.6.4), which the timer
 * ends after the capture (the replay's end runs the timers); a UDP datagram beside it, an ARP
 * frame and a record cut by the snap length are counted, not explained. */
Test(lro_explain, a_stream_merges_and_the_rest_is_counted)
{
	struct cap c;
	uint8_t f[1600];
	header(&c, 1);
	size_t n = tcp(f, 1000, 500);
	record(&c, 0, f, (uint32_t)n, (uint32_t)n);
	n = tcp(f, 1500, 500);
	record(&c, 1, f, (uint32_t)n, (uint32_t)n);
	n = tcp(f, 2000, 300);
	record(&c, 2, f, (uint32_t)n, (uint32_t)n);
	const uint8_t udp[16] = { 0x0F, 0xA0, 0, 53, 0, 16 };
	n = ipv4(f, 17, udp, sizeof udp);
	record(&c, 3, f, (uint32_t)n, (uint32_t)n);
	uint8_t arp[60] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 2, 0, 0, 0, 0, 1, 0x08, 0x06 };
	record(&c, 4, arp, sizeof arp, sizeof arp);
	n = tcp(f, 2300, 500);
	record(&c, 5, f, 100, (uint32_t)n); /* cut */
	int rc;
	char err[1024];
	json_t *got = explain_capture(&c, &rc, err, sizeof err);
	cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
	cr_assert(got);
	const json_t *ss = json_object_get(got, "sessions");
	cr_assert_eq(json_array_size(ss), 1);
	const json_t *s = json_array_get(ss, 0), *cqe = json_object_get(s, "cqe");
	const json_t *fr = json_object_get(s, "frames");
	cr_expect_eq(json_array_size(fr), 3);
	cr_expect_eq(json_integer_value(json_array_get(fr, 2)), 3);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(s, "end"), "cause")),
			 "timer");
	/* T5/T68: the first frame (14 + 20 + 20 + 500) and the two payloads; timeout abort 01 */
	cr_expect_eq(json_integer_value(json_object_get(cqe, "byte_cnt")), 554 + 500 + 300);
	cr_expect_eq(json_integer_value(json_object_get(cqe, "lro_num_seg")), 3);
	cr_expect_eq(json_integer_value(json_object_get(cqe, "lro_abrt")), 1);
	cr_expect_eq(json_integer_value(json_object_get(cqe, "lro_tcp_win")), 1000);
	cr_expect_eq(json_integer_value(json_object_get(cqe, "lro_ack_seq_num")), 7);
	/* the session ends at its deadline: N = 32 µs after it opened (D-LRO-5) */
	cr_expect_eq(json_integer_value(json_object_get(s, "end_ns")),
		     json_integer_value(json_object_get(s, "open_ns")) + 32000);
	const json_t *other = json_object_get(got, "not_lro"), *sk = json_object_get(got, "skipped");
	cr_assert_eq(json_array_size(other), 2);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(other, 0), "frame")), 4);
	cr_expect(strstr(json_string_value(json_object_get(json_array_get(other, 0), "why")),
			 "protocol 17"));
	cr_expect(strstr(json_string_value(json_object_get(json_array_get(other, 1), "why")),
			 "0x0806"));
	cr_assert_eq(json_array_size(sk), 1);
	cr_expect(strstr(json_string_value(json_object_get(json_array_get(sk, 0), "why")),
			 "truncated"));
	const json_t *sum = json_object_get(got, "summary");
	cr_expect_eq(json_integer_value(json_object_get(sum, "frames")), 6);
	cr_expect_eq(json_integer_value(json_object_get(sum, "left_open")), 0);
	json_decref(got);
}

/* A capture of another link layer: every frame counted as not replayed, none silently. */
Test(lro_explain, raw_ip_frames_are_counted)
{
	struct cap c;
	uint8_t f[200];
	header(&c, 101); /* LINKTYPE_RAW */
	size_t n = tcp(f, 1, 100);
	record(&c, 0, f + 14, (uint32_t)n - 14, (uint32_t)n - 14);
	int rc;
	char err[1024];
	json_t *got = explain_capture(&c, &rc, err, sizeof err);
	cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
	const json_t *sk = json_object_get(got, "skipped");
	cr_assert_eq(json_array_size(sk), 1);
	cr_expect(strstr(json_string_value(json_object_get(json_array_get(sk, 0), "why")),
			 "not Ethernet"));
	json_decref(got);
}

Test(lro_explain, bad_input_names_the_file_and_the_frame)
{
	struct lro_explain_opts o;
	lro_explain_defaults(&o);
	o.capture = "/nonexistent/x.pcap";
	int rc;
	char err[1024];
	json_t *got = explain(&o, &rc, err, sizeof err);
	cr_expect_eq(rc, 2);
	cr_expect_null(got);
	cr_expect(strstr(err, "/nonexistent/x.pcap"), "%s", err);
	/* a record that runs past the end of the file */
	struct cap c;
	uint8_t f[600];
	header(&c, 1);
	size_t n = tcp(f, 1, 400);
	record(&c, 0, f, (uint32_t)n, (uint32_t)n);
	record(&c, 1, f, (uint32_t)n, (uint32_t)n);
	c.n -= 100;
	char path[] = "/tmp/nicref-lro-explain-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	write_cap(path, &c);
	o.capture = path;
	got = explain(&o, &rc, err, sizeof err);
	unlink(path);
	cr_expect_eq(rc, 2);
	cr_expect(strstr(err, path) && strstr(err, "2"), "%s", err);
	json_decref(got);
}

/* --profile lro_max_sessions=1: a second flow finds no free session and goes alone
 * (no_resources, D-LRO-1); with the default 256 both open one. */
Test(lro_explain, the_profile_limits_the_sessions)
{
	struct cap c;
	uint8_t f[1600];
	header(&c, 1);
	size_t n = tcp_from(f, 4000, 1000, 500);
	record(&c, 0, f, (uint32_t)n, (uint32_t)n);
	n = tcp_from(f, 4001, 9000, 500);
	record(&c, 1, f, (uint32_t)n, (uint32_t)n);
	char path[] = "/tmp/nicref-lro-explain-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	write_cap(path, &c);
	for (unsigned limit = 0; limit < 2; limit++) {
		struct lro_explain_opts o;
		char err[1024];
		lro_explain_defaults(&o);
		if (limit)
			cr_assert_eq(lro_explain_profile_set(&o, "lro_max_sessions=1", err, sizeof err),
				     0, "%s", err);
		o.capture = path;
		int rc;
		json_t *got = explain(&o, &rc, err, sizeof err);
		cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
		const json_t *al = json_object_get(got, "alone");
		cr_expect_eq(json_array_size(json_object_get(got, "sessions")), limit ? 1 : 2);
		cr_expect_eq(json_array_size(al), limit ? 1 : 0);
		if (limit)
			cr_expect_str_eq(json_string_value(json_object_get(json_array_get(al, 0),
									   "cause")),
					 "no_resources");
		json_decref(got);
	}
	unlink(path);
}

Test(lro_explain, options_are_checked)
{
	struct lro_explain_opts o;
	char err[256];
	lro_explain_defaults(&o);
	cr_expect_eq(lro_explain_profile_set(&o, "no_such=1", err, sizeof err), -1);
	cr_expect(strstr(err, "no_such"), "%s", err);
	cr_expect_eq(lro_explain_profile_set(&o, "timer_khz", err, sizeof err), -1);
	cr_expect_eq(lro_explain_caps_set(&o, "per_protocol_networking_offload_caps.lro_psh_flag=0",
					  err, sizeof err), 0);
	cr_expect_eq(lro_explain_caps_set(&o, "per_protocol_networking_offload_caps.lro_cap=2",
					  err, sizeof err), -1);
	cr_expect_eq(lro_explain_caps_set(&o, "lro_psh_flag=0", err, sizeof err), -1);
}

/* The command line of `nicref adp` (harness/adp_cmd.c): exit statuses on the shipped captures,
 * the timeline's text, JSON and SVG for the example profile of docs/adp.md, the inputs it
 * refuses, durations and loss patterns, and a capture with nothing to check. The example
 * profile: adp_tool_util.h. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adp_cmd.h"
#include "adp_tool_util.h"

/* ---- the command line ---- */

/* Runs `nicref adp ARGS...` keeping stdout and stderr apart (caller frees both). */
static void run_split(int *rc, const char *const *args, int argc, char **out, char **errs)
{
	char po[] = "/tmp/nicref_adp_o_XXXXXX", pe[] = "/tmp/nicref_adp_e_XXXXXX";
	int fo = mkstemp(po), fe = mkstemp(pe);
	cr_assert(fo >= 0 && fe >= 0);
	fflush(stdout);
	fflush(stderr);
	int so = dup(1), se = dup(2);
	dup2(fo, 1);
	dup2(fe, 2);
	*rc = adp_main(argc, (char **)args);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(fo);
	close(fe);
	const char *paths[2] = { po, pe };
	char **bufs[2] = { out, errs };
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(paths[i], "r");
		cr_assert(f);
		*bufs[i] = calloc(1, 1 << 20);
		size_t n = fread(*bufs[i], 1, (1 << 20) - 1, f);
		(*bufs[i])[n] = '\0';
		fclose(f);
		unlink(paths[i]);
	}
}

/* Runs `nicref adp ARGS...`; returns stdout (caller frees) and the exit status. */
static char *run(int *rc, const char *const *args, int argc)
{
	char *out, *errs;
	run_split(rc, args, argc, &out, &errs);
	free(errs);
	return out;
}

#define RUN(rc, ...)                                                                            \
	run(rc, (const char *const[]){ __VA_ARGS__ },                                            \
	    (int)(sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *)))

Test(adp_cli, check_exit_status_per_capture)
{
	int rc;
	char *o = RUN(&rc, "check", "corpora/adp_captures/conforming_adp.pcap", "--profile", EXAMPLE,
		      "--timeout", "10");
	cr_expect_eq(rc, 0, "%s", o);
	cr_expect(strstr(o, "result: conforming (2 flows)") != NULL, "%s", o);
	free(o);
	o = RUN(&rc, "check", "corpora/adp_captures/nonconf_skip_escalation.pcap", "--profile", EXAMPLE,
		"--timeout", "10");
	cr_expect_eq(rc, 1);
	cr_expect(strstr(o, "QP 0x12 PSN 100 retransmission 5: gap 128.000 us; allowed {64.000 "
			    "us} +- 1000 ns") != NULL, "%s", o);
	free(o);
	o = RUN(&rc, "check", "corpora/adp_captures/nonconf_classic_retry_cnt.pcap", "--classic",
		"--timeout", "3", "--retry-cnt", "3", "--json");
	cr_expect_eq(rc, 1);
	json_t *j = json_loads(o, 0, NULL);
	cr_assert(j, "%s", o);
	json_t *u = json_object_get(json_array_get(json_object_get(j, "flows"), 0),
				    "first_unexplained");
	cr_expect_eq(json_integer_value(json_object_get(u, "retransmission")), 4);
	cr_expect_str_eq(json_string_value(json_object_get(u, "kind")), "after_total_timeout");
	json_decref(j);
	free(o);
	/* Input errors: no such file, no profile, a profile the register refuses. */
	free(RUN(&rc, "check", "corpora/adp_captures/no_such.pcap", "--classic"));
	cr_expect_eq(rc, 2);
	free(RUN(&rc, "check", "corpora/adp_captures/conforming_adp.pcap"));
	cr_expect_eq(rc, 2);
	free(RUN(&rc, "check", "corpora/adp_captures/conforming_adp.pcap", "--profile-hex",
		 "00000000" "00000000" "00000000" "00000000" "00000000" "00000000" "00000000"
		 "00000000" "00000000" "00000000" "00000000" "00000000"));
	cr_expect_eq(rc, 2, "time_unit 0 is refused");
}

Test(adp_cli, exit_status_of_every_capture)
{
	json_t *m = json_load_file("corpora/adp_captures/captures.json", 0, NULL);
	cr_assert(m);
	json_t *caps = json_object_get(m, "captures");
	for (size_t ci = 0; ci < json_array_size(caps); ci++) {
		const json_t *cap = json_array_get(caps, ci);
		const json_t *args = json_object_get(cap, "args");
		const char *argv[16] = { "check", json_string_value(json_object_get(cap, "file")) };
		int argc = 2;
		for (size_t i = 0; i < json_array_size(args) && argc < 16; i++)
			argv[argc++] = json_string_value(json_array_get(args, i));
		int rc;
		free(run(&rc, argv, argc));
		cr_expect_eq(rc, json_integer_value(json_object_get(cap, "exit")), "%s", argv[1]);
	}
	json_decref(m);
}

Test(adp_cli, timeline_of_the_example_profile)
{
	/* Seed 1: splitmix64's first output from state 1 is 0x910a2dec89025cc1, which is 1
	 * modulo 4, so the initial exponent is 1 + 1 = 2 (16 us). Everything lost: the gaps of
	 * total_timeout_ends_retransmission above, the 17th expiry fails the QP. */
	int rc;
	char *o = RUN(&rc, "timeline", "--profile", EXAMPLE, "--timeout", "10", "--seed", "1",
		      "--loss", "0-40", "--json");
	cr_assert_eq(rc, 0);
	json_t *j = json_loads(o, 0, NULL);
	cr_assert(j, "%s", o);
	free(o);
	static const uint64_t armed_us1000[] = { 16000,	  16000,   32000,   32000,   64000,
						 64000,	  128000,  128000,  256000,  256000,
						 512000,  512000,  1024000, 2048000, 4096000,
						 4194304, 4194304 };
	static const int range[] = { -1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2 };
	static const int e[] = { 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 9, 10, 11, 11 };
	static const char *const reason[] = { "init",	    "enter_range", "double",	 "retry_same",
					       "double",    "retry_same",  "next_range", "retry_same",
					       "double",    "retry_same",  "double",	 "retry_same",
					       "next_range", "double",	   "double",	 "double",
					       "ceiling" };
	json_t *at = json_object_get(j, "attempts");
	cr_assert_eq(json_array_size(at), 17);
	uint64_t t = 0;
	for (size_t i = 0; i < 17; i++) {
		json_t *x = json_array_get(at, i);
		cr_expect_eq((uint64_t)json_integer_value(json_object_get(x, "sent_ns")), t, "#%zu", i);
		cr_expect_eq((uint64_t)json_integer_value(json_object_get(x, "armed_ns")),
			     armed_us1000[i], "#%zu", i);
		cr_expect_eq(json_integer_value(json_object_get(x, "range")), range[i], "#%zu", i);
		cr_expect_eq(json_integer_value(json_object_get(x, "e")), e[i], "#%zu", i);
		cr_expect_str_eq(json_string_value(json_object_get(x, "reason")), reason[i], "#%zu", i);
		cr_expect_str_eq(json_string_value(json_object_get(x, "outcome")), "lost");
		t += armed_us1000[i];
	}
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(at, 15), "note")),
			 "capped by QP timeout");
	cr_expect_str_eq(json_string_value(json_object_get(j, "end")), "retry_exc");
	cr_expect_eq(json_integer_value(json_object_get(j, "end_ns")), 17572608);
	json_t *ctr = json_object_get(j, "counters");
	cr_expect_eq(json_integer_value(json_object_get(ctr, "roce_adp_retrans")), 16);
	cr_expect_eq(json_integer_value(json_object_get(ctr, "roce_adp_retrans_to")), 1);
	json_decref(j);
}

Test(adp_cli, timeline_text_and_register_hex_input)
{
	int rc;
	char *o = RUN(&rc, "timeline", "--profile", EXAMPLE, "--timeout", "10", "--seed", "1",
		      "--messages", "3", "--loss", "0-2,5-9");
	cr_assert_eq(rc, 0);
	/* Message 0: 16, 16, 32 us lost, acked at 64 + 2 us; TO_DIV_2 takes exponent 3 to 2,
	 * so message 1 goes at 66 us armed 16 us. */
	cr_expect(strstr(o, "      3     0           64.000           32.000     0    3  "
			    "retry_same   acked\n") != NULL, "%s", o);
	cr_expect(strstr(o, "      4     1           66.000           16.000     0    2  "
			    "decrease     acked\n") != NULL, "%s", o);
	cr_expect(strstr(o, "ended: done at 230.000 us: every message acknowledged\n") != NULL,
		  "%s", o);
	/* The same profile as the 48 register bytes (seed 000 layout), and inside the whole
	 * ROCE_ACCL data with roce_adp_retrans_en 1 and profile id 1: the same timeline. */
	struct nicref_adp_profile p;
	char err[256];
	cr_assert_eq(adp_profile_from_file(EXAMPLE, &p, err, sizeof err), 0);
	uint8_t b[0x40] = { 0 };
	cr_assert_eq(nicref_adp_profile_encode(&p, b + 0x10, 0x30), 0);
	char hex[0x81], arg[0x61];
	for (int i = 0; i < 0x30; i++)
		snprintf(arg + 2 * i, 3, "%02x", b[0x10 + i]);
	char *o2 = RUN(&rc, "timeline", "--profile-hex", arg, "--timeout", "10", "--seed", "1",
		       "--messages", "3", "--loss", "0-2,5-9");
	cr_assert_eq(rc, 0);
	cr_expect_str_eq(strchr(o2, '\n'), strchr(o, '\n'), "same rows from the hex profile");
	b[0x04] = 0x10; /* adp_retx_profile_id 1 (04h 30:28) */
	b[0x07] = 0x01; /* roce_adp_retrans_en (04h 0) */
	for (int i = 0; i < 0x40; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	char *o3 = RUN(&rc, "timeline", "--profile-hex", hex, "--timeout", "10", "--seed", "1",
		       "--messages", "3", "--loss", "0-2,5-9");
	cr_assert_eq(rc, 0);
	cr_expect_str_eq(strchr(o3, '\n'), strchr(o, '\n'), "same rows from the register");
	free(o3);
	/* Profile id 0: firmware-defined timeouts, the classic IB timer (seed 001 L68-72). */
	b[0x04] = 0x00;
	for (int i = 0; i < 0x40; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	o3 = RUN(&rc, "timeline", "--profile-hex", hex, "--timeout", "3", "--loss", "0");
	cr_assert_eq(rc, 0);
	cr_expect(strstr(o3, "      0     0            0.000           32.768     -    -  "
			     "classic      lost\n") != NULL, "%s", o3);
	free(o);
	free(o2);
	free(o3);
}

/* A minimal well-formedness check: every element closed in order. */
static bool balanced(const char *s)
{
	char stack[64][16];
	int depth = 0;
	for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
		if (p[1] == '?' || p[1] == '!')
			continue;
		const char *end = strchr(p, '>');
		if (!end)
			return false;
		bool closing = p[1] == '/', self = end[-1] == '/';
		char name[16] = { 0 };
		size_t k = 0;
		for (const char *q = p + 1 + closing; *q != ' ' && *q != '>' && *q != '/' && k < 15;
		     q++)
			name[k++] = *q;
		if (self)
			continue;
		if (closing) {
			if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
				return false;
			depth--;
		} else {
			if (depth == 64)
				return false;
			strcpy(stack[depth++], name);
		}
	}
	return depth == 0;
}

Test(adp_cli, plot_is_standalone_svg)
{
	char path[] = "/tmp/nicref_adp_plot_XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	int rc;
	free(RUN(&rc, "timeline", "--profile", EXAMPLE, "--timeout", "10", "--seed", "1",
		 "--messages", "3", "--loss", "0-2,5-9", "--plot", path));
	cr_assert_eq(rc, 0);
	FILE *f = fopen(path, "r");
	cr_assert(f);
	static char svg[1 << 18];
	size_t n = fread(svg, 1, sizeof svg - 1, f);
	svg[n] = '\0';
	fclose(f);
	unlink(path);
	cr_expect_eq(strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"", 36), 0);
	cr_expect(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"") != NULL);
	cr_expect(balanced(svg), "elements are nested and closed");
	/* One group per transmission (11), the axis with its unit, the legend. */
	size_t rows = 0;
	for (const char *p = strstr(svg, "<g id=\"t"); p; p = strstr(p + 1, "<g id=\"t"))
		rows++;
	cr_expect_eq(rows, 11);
	cr_expect(strstr(svg, "time since the QP became ready to send (\xc2\xb5s)") != NULL);
	cr_expect(strstr(svg, ">Legend<") != NULL);
	cr_expect(strstr(svg, "timeout range 0") != NULL);
	cr_expect(strstr(svg, "every message acknowledged") != NULL);
}

Test(adp_cli, bad_inputs)
{
	int rc;
	char path[] = "/tmp/nicref_adp_prof_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	fputs("{\"time_unit\":1,\"time_base\":4,\"range_num\":8}", f); /* 3-bit field */
	fclose(f);
	free(RUN(&rc, "timeline", "--profile", path));
	cr_expect_eq(rc, 2);
	f = fopen(path, "w");
	fputs("{\"time_unit\":1,\"time_bsae\":4}", f);
	fclose(f);
	free(RUN(&rc, "timeline", "--profile", path));
	cr_expect_eq(rc, 2, "unknown field");
	unlink(path);
	free(RUN(&rc, "timeline", "--classic", "--loss", "0,x"));
	cr_expect_eq(rc, 2);
	free(RUN(&rc, "timeline", "--classic", "--loss", "70", "--max-attempts", "64"));
	cr_expect_eq(rc, 2, "transmission beyond --max-attempts");
	free(RUN(&rc, "timeline", "--classic", "--timeout", "32"));
	cr_expect_eq(rc, 2);
	free(RUN(&rc, "timeline", "--profile", EXAMPLE, "--dec", "by-guess"));
	cr_expect_eq(rc, 2);
	free(RUN(&rc, "frobnicate"));
	cr_expect_eq(rc, 2);
}

Test(adp_inputs, durations_and_loss_patterns)
{
	uint64_t ns;
	cr_expect_eq(adp_parse_duration("1.5ms", &ns), 0);
	cr_expect_eq(ns, 1500000);
	cr_expect_eq(adp_parse_duration("4096ns", &ns), 0);
	cr_expect_eq(ns, 4096);
	cr_expect_eq(adp_parse_duration("2us", &ns), 0);
	cr_expect_eq(ns, 2000);
	cr_expect_eq(adp_parse_duration("7", &ns), 0);
	cr_expect_eq(ns, 7);
	cr_expect_eq(adp_parse_duration("0.0001us", &ns), -1, "below a nanosecond");
	cr_expect_eq(adp_parse_duration("5 us", &ns), -1);
	cr_expect_eq(adp_parse_duration("99999999999999999999s", &ns), -1);
	uint64_t w[2];
	cr_expect_eq(adp_loss_list("0,1,2,5,64-65", w, 2), 0);
	cr_expect_eq(w[0], 0x27u);
	cr_expect_eq(w[1], 3u);
	cr_expect_eq(adp_loss_list("3-1", w, 2), -1);
	cr_expect_eq(adp_loss_list("128", w, 2), -1);
	cr_expect_eq(adp_loss_bits("1101", w, 2), 0);
	cr_expect_eq(w[0], 0xbu);
	cr_expect_eq(adp_loss_bits("12", w, 2), -1);
	struct nicref_adp_options o = { 0 };
	cr_expect_eq(adp_option_set(&o, "dec", "by-factor"), 0);
	cr_expect_eq(o.dec_reading, NICREF_ADP_DEC_BY_FACTOR);
	cr_expect_eq(adp_option_set(&o, "dec-trigger", "clean-progress"), 0);
	cr_expect_eq(o.dec_trigger, NICREF_ADP_DEC_CLEAN_PROGRESS);
	cr_expect_eq(adp_option_set(&o, "retry-uses", "retransmissions"), 0);
	cr_expect_eq(o.retry_uses, NICREF_ADP_USES_RETRANSMISSIONS);
	cr_expect_eq(adp_option_set(&o, "retry-uses", "arms"), 0);
	cr_expect_eq(o.retry_uses, NICREF_ADP_USES_ARMS);
	cr_expect_eq(adp_option_set(&o, "first-timeout", "maybe"), -1);
	cr_expect_eq(adp_option_set(&o, "colour", "red"), 1);
}

/* A classic pcap (microsecond timestamps, Ethernet) holding the given frames. */
static void write_pcap(const char *path, const uint8_t *const *frames, const size_t *lens,
		       size_t n)
{
	FILE *f = fopen(path, "wb");
	cr_assert(f);
	const uint32_t hdr[6] = { 0xa1b2c3d4, 2 | 4u << 16, 0, 0, 65535, 1 };
	cr_assert_eq(fwrite(hdr, sizeof hdr, 1, f), 1);
	for (size_t i = 0; i < n; i++) {
		const uint32_t rec[4] = { 1700000000u, (uint32_t)i, (uint32_t)lens[i],
					  (uint32_t)lens[i] };
		cr_assert_eq(fwrite(rec, sizeof rec, 1, f), 1);
		cr_assert_eq(fwrite(frames[i], lens[i], 1, f), 1);
	}
	fclose(f);
}

/* A capture with no RoCEv2 RC request has nothing to check: exit 2 (bad input, as the tool's
 * convention for what it cannot judge), one line on stderr naming the file, nothing on stdout,
 * in text and in JSON. Before issue 11 stdout said "result: conforming (0 flows)" while stderr
 * said "no RoCEv2 RC requests". */
Test(adp_cli, capture_with_nothing_to_check)
{
	char empty[] = "/tmp/nicref_adp_empty_XXXXXX", arp[] = "/tmp/nicref_adp_arp_XXXXXX";
	close(mkstemp(empty));
	close(mkstemp(arp));
	write_pcap(empty, NULL, NULL, 0);
	/* One Ethernet frame of another protocol (ARP, 0806h). */
	static const uint8_t frame[42] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1,
					   0x08, 0x06 };
	const uint8_t *frames[1] = { frame };
	const size_t lens[1] = { sizeof frame };
	write_pcap(arp, frames, lens, 1);
	const char *files[2] = { empty, arp };
	const char *counts[2] = { "among its 0 frames (none)", "among its 1 frames (not_roce 1)" };
	for (int i = 0; i < 2; i++)
		for (int json = 0; json < 2; json++) {
			int rc;
			char *o, *e;
			const char *args[] = { "check", files[i], "--classic", "--json" };
			run_split(&rc, args, json ? 4 : 3, &o, &e);
			cr_expect_eq(rc, 2, "%s: exit 2", files[i]);
			cr_expect_str_eq(o, "", "%s: nothing on stdout", files[i]);
			cr_expect(strstr(e, files[i]) && strstr(e, counts[i]) &&
					  strstr(e, "nothing to check"),
				  "stderr: %s", e);
			cr_expect_eq(strchr(e, '\n'), e + strlen(e) - 1, "one line: %s", e);
			free(o);
			free(e);
		}
	unlink(empty);
	unlink(arp);
}

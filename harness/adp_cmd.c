/* `nicref adp`: the ADP engine's timeline for a profile and a loss pattern, and the check of a
 * capture's retransmissions against the engine. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adp_check.h"
#include "adp_cmd.h"
#include "adp_plot.h"
#include "adp_pkt.h"
#include "adp_profile.h"
#include "jsonval.h"
#include "roce_capture.h"


static const char timeline_usage[] =
	"usage: nicref adp timeline PROFILE [QP] [OPTIONS] [--seed N] [--rtt D] [--messages N]\n"
	"                           [--loss LIST | --loss-bits BITS] [--max-attempts N]\n"
	"                           [--json] [--plot FILE.svg]\n"
	"The ADP engine's retransmission timeline for a profile and a loss pattern: one row per\n"
	"transmission, how the run ended, the counters (docs/adp.md, \"Tools\").\n"
	"\n"
	"  --seed N          PRNG seed of the initial timeout (default 1)\n"
	"  --rtt D           ACK delay of a transmission not lost (default 2us); D is a duration,\n"
	"                    5us 1.5ms 4096ns (a bare number is ns)\n"
	"  --messages N      messages sent one after the other (default 1)\n"
	"  --loss LIST       transmissions that get no ACK: 0,1,2,5 or 0-9\n"
	"  --loss-bits BITS  the same as bits: 1110010 (character k = transmission k)\n"
	"  --max-attempts N  stop after N transmissions (default 64)\n"
	"  --json            print the timeline as one JSON object\n"
	"  --plot FILE.svg   also draw it as an SVG file\n"
	"  -h, --help        print this usage and exit\n"
	ADP_SETUP_USAGE
	"\n"
	"Exit status: 0 the timeline was computed, 2 bad input or a usage error.\n";

static const char check_usage[] =
	"usage: nicref adp check CAPTURE.pcap PROFILE [QP] [OPTIONS] [--tolerance-ns N]\n"
	"                        [--ack-qp DATA_QP:ACK_QP]... [--roce-port N]\n"
	"                        [--reorder-tolerance-ns N] [--json]\n"
	"Checks that every retransmission of the RoCEv1 and RoCEv2 RC flows in a pcap or pcapng\n"
	"capture is one the ADP engine allows, and names the first one it does not; every frame is\n"
	"classified and counted (docs/adp.md, \"Tools\"; docs/captures.md).\n"
	"\n"
	"  --tolerance-ns N          timestamp tolerance of a gap (default 1000, less when two\n"
	"                            values the QP can arm lie within 2000 ns: below half\n"
	"                            their difference)\n"
	"  --ack-qp DATA_QP:ACK_QP   the requester QP whose ACKs belong to the flow to DATA_QP\n"
	"                            (overrides the automatic pairing; repeatable)\n"
	"  --roce-port N             RoCEv2 UDP destination port (default 4791)\n"
	"  --reorder-tolerance-ns N  a frame stamped up to N ns before the previous one is\n"
	"                            tolerated and counted (default 100000); a larger\n"
	"                            inversion refuses the capture\n"
	"  --json                    print the verdict as one JSON object\n"
	"  -h, --help                print this usage and exit\n"
	ADP_SETUP_USAGE
	"\n"
	"Exit status: 0 every flow conforms, 1 a flow does not, 2 bad input or a usage error.\n";


static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "nicref adp: %s: %s\n", what, arg);
	return -1;
}

/* A setup option's refusal, under the name of the command that took it. */
static int sbad(const struct adp_setup *s, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s: %s\n", s->tool, what, arg);
	return -1;
}

static long read_hex(const char *arg, uint8_t *buf, size_t cap)
{
	if (arg[0] != '@')
		return hex_parse(arg, buf, cap);
	FILE *f = fopen(arg + 1, "r");
	if (!f)
		return -1;
	char text[4096];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	return hex_parse(text, buf, cap);
}


/* One setup option (its name without "--", its value or NULL): 0 taken, -1 bad. */
int adp_setup_opt(struct adp_setup *s, const char *name, const char *v)
{
	if (!strcmp(name, "classic")) {
		s->classic = true;
		return 0;
	}
	char err[256];
	uint64_t x;
	if (!strcmp(name, "profile")) {
		if (s->have_profile)
			return sbad(s, "one profile only", v);
		if (adp_profile_from_file(v, &s->img.profile, err, sizeof err) != 0)
			return sbad(s, "profile", err);
		snprintf(s->source, sizeof s->source, "%s", v);
		s->have_profile = true;
	} else if (!strcmp(name, "profile-hex")) {
		uint8_t b[ADP_ROCE_ACCL_BYTES + 1];
		if (s->have_profile)
			return sbad(s, "one profile only", v);
		long n = read_hex(v, b, sizeof b);
		if (n < 0)
			return sbad(s, "not hex (or too long)", v);
		if (adp_profile_from_bytes(b, (size_t)n, &s->img, err, sizeof err) != 0)
			return sbad(s, "--profile-hex", err);
		snprintf(s->source, sizeof s->source, "%s (%s)",
			 s->img.whole_register ? "ROCE_ACCL register" : "adp_retx_profile",
			 v[0] == '@' ? v + 1 : "hex");
		s->have_profile = true;
	} else if (!strcmp(name, "timeout")) {
		if (adp_parse_uint(v, 31, &x))
			return sbad(s, "--timeout takes 0-31 (IB local ACK timeout)", v);
		s->attr.timeout = (uint8_t)x;
	} else if (!strcmp(name, "retry-cnt")) {
		if (adp_parse_uint(v, 7, &x))
			return sbad(s, "--retry-cnt takes 0-7", v);
		s->attr.retry_cnt = (uint8_t)x;
	} else if (!strcmp(name, "base-min-ns")) {
		if (adp_parse_uint(v, 0xFFFFF, &x)) /* seed 000: a 20-bit field */
			return sbad(s, "--base-min-ns takes 0-1048575", v);
		s->mode.base_timeout_min_ns = (uint32_t)x;
		s->base_min_set = true;
	} else if (adp_option_set(&s->opt, name, v) != 0) {
		char opt[32];
		snprintf(opt, sizeof opt, "--%s", name);
		return sbad(s, opt, v);
	}
	return 0;
}

/* Defaults before the options: QP timeout 14 (67.1 ms), retry_cnt 7, the 4 us minimum. */
void adp_setup_init(struct adp_setup *s)
{
	memset(s, 0, sizeof *s);
	s->tool = "nicref adp";
	s->attr.timeout = 14;
	s->attr.retry_cnt = 7;
	s->mode.base_timeout_min_ns = 4000; /* seed 001 L58 "(4 us)"; seed 000 L85: in ns */
}

/* The mode from what was given; 0, or -1 after a message. */
int adp_setup_finish(struct adp_setup *s)
{
	s->mode.opt = s->opt;
	if (s->classic) {
		s->mode.adp = false;
		s->mode.retrans_en = false;
		snprintf(s->source, sizeof s->source, "classic IB timer (ADP off)");
		return 0;
	}
	if (!s->have_profile) {
		fprintf(stderr, "%s: give --profile FILE.json, --profile-hex or --classic\n", s->tool);
		return -1;
	}
	s->mode.profile = s->img.profile;
	s->mode.adp = true;
	s->mode.retrans_en = true;
	unsigned max_ranges = NICREF_ADP_MAX_RANGES;
	if (s->img.whole_register) {
		/* The register says which mode is active: seed 001 L68-72, profile id 0 is the
		 * firmware-defined timeouts (the classic timer, D-ADP-3); roce_adp_retrans_en 0 is
		 * ADP off. */
		s->mode.retrans_en = s->img.adp_retrans_en;
		s->mode.adp = s->img.adp_retrans_en && s->img.profile_id != 0;
		if (!s->base_min_set && s->img.base_timeout_min_ns)
			s->mode.base_timeout_min_ns = s->img.base_timeout_min_ns;
		if (s->img.max_range_num && s->img.max_range_num < max_ranges)
			max_ranges = s->img.max_range_num;
		if (!s->mode.adp) {
			size_t l = strlen(s->source);
			snprintf(s->source + l, sizeof s->source - l, ": %s, classic IB timer",
				 s->img.adp_retrans_en ? "no profile selected" : "ADP disabled");
		}
	}
	if (!nicref_adp_options_ok(&s->mode.opt)) {
		fprintf(stderr, "%s: unknown option value\n", s->tool);
		return -1;
	}
	if (!s->mode.adp)
		return 0;
	enum nicref_adp_rule r =
		nicref_adp_profile_check(&s->mode.profile, s->mode.base_timeout_min_ns, max_ranges);
	if (r != NICREF_ADP_OK) {
		fprintf(stderr, "%s: %s: the register would refuse this profile: %s (%s)\n",
			s->tool, s->source, nicref_adp_rule_name(r), nicref_adp_rule_citation(r));
		return -1;
	}
	return 0;
}

static json_t *profile_json(const struct nicref_adp_profile *p)
{
	json_t *o = json_object();
	json_object_set_new(o, "qp_total_timeout", json_integer(p->qp_total_timeout));
	json_object_set_new(o, "range_num", json_integer(p->range_num));
	json_object_set_new(o, "start_range_index", json_integer(p->start_range_index));
	json_object_set_new(o, "time_unit", json_integer(p->time_unit));
	json_object_set_new(o, "time_base", json_integer(p->time_base));
	json_object_set_new(o, "retx_total_timeout", json_integer(p->retx_total_timeout));
	json_object_set_new(o, "timeout_init_low_bound", json_integer(p->timeout_init_low_bound));
	json_object_set_new(o, "timeout_init_range_size",
			    json_integer(p->timeout_init_range_size));
	json_t *rs = json_array();
	for (unsigned i = 0; i < p->range_num && i < NICREF_ADP_MAX_RANGES; i++) {
		const struct nicref_adp_range *r = &p->range[i];
		json_t *x = json_object();
		json_object_set_new(x, "prev_range_index", json_integer(r->prev_range_index));
		json_object_set_new(x, "dec_mode", json_integer(r->dec_mode));
		json_object_set_new(x, "timeout_retry_num", json_integer(r->timeout_retry_num));
		json_object_set_new(x, "range_low_bound", json_integer(r->range_low_bound));
		json_object_set_new(x, "range_size", json_integer(r->range_size));
		json_array_append_new(rs, x);
	}
	json_object_set_new(o, "range", rs);
	return o;
}

json_t *adp_setup_json(const struct adp_setup *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "mode", json_string(s->mode.adp ? "adp" : "classic"));
	json_object_set_new(o, "source", json_string(s->source));
	if (s->mode.adp) {
		json_object_set_new(o, "profile", profile_json(&s->mode.profile));
		json_object_set_new(o, "base_timeout_min_ns",
				    json_integer(s->mode.base_timeout_min_ns));
		json_t *op = json_object();
		json_object_set_new(op, "first_timeout", json_string(adp_option_value_name(
								 "first-timeout", s->mode.opt.first_timeout)));
		json_object_set_new(op, "dec", json_string(adp_option_value_name(
						       "dec", s->mode.opt.dec_reading)));
		json_object_set_new(op, "init_range", json_string(adp_option_value_name(
							      "init-range", s->mode.opt.init_range)));
		json_object_set_new(op, "dec_trigger", json_string(adp_option_value_name(
							       "dec-trigger", s->mode.opt.dec_trigger)));
		json_object_set_new(op, "retry_uses", json_string(adp_option_value_name(
							      "retry-uses", s->mode.opt.retry_uses)));
		json_object_set_new(o, "options", op);
	}
	json_t *qp = json_object();
	json_object_set_new(qp, "timeout", json_integer(s->attr.timeout));
	json_object_set_new(qp, "retry_cnt", json_integer(s->attr.retry_cnt));
	json_object_set_new(o, "qp", qp);
	return o;
}

/* "ADP profile FILE (base 4 us), QP timeout 14 (67108.864 us), retry_cnt 7". */
void adp_setup_line(const struct adp_setup *s, char *buf, size_t len)
{
	char to[48];
	uint64_t ib = nicref_adp_ib_timeout_ns(s->attr.timeout);
	if (ib == 0)
		snprintf(to, sizeof to, "infinite");
	else
		adp_fmt_us(ib, to, sizeof to);
	if (s->mode.adp) {
		const char *opt = "";
		const struct nicref_adp_options *o = &s->mode.opt;
		if (o->first_timeout || o->dec_reading || o->init_range || o->dec_trigger ||
		    o->retry_uses)
			opt = ", non-default readings (see --json)";
		snprintf(buf, len, "ADP profile %s, QP timeout %u (%s), retry_cnt %u%s", s->source,
			 s->attr.timeout, to, s->attr.retry_cnt, opt);
	} else {
		snprintf(buf, len, "%s, QP timeout %u (%s), retry_cnt %u", s->source,
			 s->attr.timeout, to, s->attr.retry_cnt);
	}
}

static const char *outcome_name(uint8_t lost)
{
	return lost == 0 ? "acked" : lost == 1 ? "lost" : "late-ack";
}

static int write_text(const char *path, const char *what)
{
	fprintf(stderr, "nicref adp: cannot write %s: %s\n", what, path);
	return 2;
}

static int cmd_timeline(const struct cli_call *call, int argc, char **argv)
{
	enum { OPT_JSON = OPT_OWN, OPT_SEED, OPT_RTT, OPT_MESSAGES, OPT_MAX_ATTEMPTS, OPT_LOSS,
	       OPT_LOSS_BITS, OPT_PLOT };
	static const struct option longopts[] = {
		ADP_SETUP_OPTIONS,
		{ "json", no_argument, NULL, OPT_JSON },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "rtt", required_argument, NULL, OPT_RTT },
		{ "messages", required_argument, NULL, OPT_MESSAGES },
		{ "max-attempts", required_argument, NULL, OPT_MAX_ATTEMPTS },
		{ "loss", required_argument, NULL, OPT_LOSS },
		{ "loss-bits", required_argument, NULL, OPT_LOSS_BITS },
		{ "plot", required_argument, NULL, OPT_PLOT },
		CLI_HELP_OPTION,
		{ 0 }
	};
	struct adp_setup s;
	adp_setup_init(&s);
	uint64_t seed = 1, rtt = 2000, messages = 1, max_attempts = 64;
	const char *loss = NULL, *loss_bits = NULL, *plot = NULL;
	bool json = false;
	int code;
	while ((code = cli_getopt(call, argc, argv, "h", longopts, NULL)) != -1) {
		const char *v = optarg;
		int ok = 0;
		if (code >= OPT_SETUP && code <= OPT_SETUP_END)
			ok = adp_setup_opt(&s, longopts[code - OPT_SETUP].name, v);
		else if (code == OPT_JSON)
			json = true;
		else if (code == OPT_SEED)
			ok = adp_parse_uint(v, UINT64_MAX, &seed);
		else if (code == OPT_RTT)
			ok = adp_parse_duration(v, &rtt);
		else if (code == OPT_MESSAGES)
			ok = adp_parse_uint(v, 1000000, &messages);
		else if (code == OPT_MAX_ATTEMPTS)
			ok = adp_parse_uint(v, NICREF_ADP_TIMELINE_MAX, &max_attempts) ||
			     max_attempts == 0 ? -1 : 0;
		else if (code == OPT_LOSS)
			loss = v;
		else if (code == OPT_LOSS_BITS)
			loss_bits = v;
		else if (code == OPT_PLOT)
			plot = v;
		else
			return cli_getopt_exit(code);
		if (ok != 0) {
			if (code > OPT_SETUP_END) /* setup_opt said what was wrong */
				bad("bad value", v);
			return 2;
		}
	}
	if (optind < argc)
		return cli_usage_error(call, "unexpected operand '%s'", argv[optind]);
	if (adp_setup_finish(&s) != 0)
		return 2;
	if (loss && loss_bits) {
		bad("one loss pattern only", "--loss and --loss-bits");
		return 2;
	}
	size_t words = (size_t)(max_attempts + 63) / 64;
	uint64_t *lw = calloc(words, sizeof *lw);
	struct nicref_adp_attempt *at = calloc((size_t)max_attempts, sizeof *at);
	if (!lw || !at) {
		free(lw);
		free(at);
		fprintf(stderr, "nicref adp: out of memory\n");
		return 2;
	}
	if ((loss && adp_loss_list(loss, lw, words) != 0) ||
	    (loss_bits && adp_loss_bits(loss_bits, lw, words) != 0)) {
		bad("bad loss pattern (or a transmission beyond --max-attempts)",
		    loss ? loss : loss_bits);
		free(lw);
		free(at);
		return 2;
	}
	struct nicref_adp_run run = { .mode = s.mode, .attr = s.attr, .seed = seed, .loss = lw,
				      .loss_words = words, .rtt_ns = rtt,
				      .messages = (uint32_t)messages,
				      .max_attempts = (uint32_t)max_attempts };
	struct nicref_adp_counters ctr = { 0 };
	size_t n = 0;
	enum nicref_adp_end end = nicref_adp_timeline(&run, at, (size_t)max_attempts, &n, &ctr);
	uint64_t end_ns = adp_timeline_end_ns(at, n, rtt, end);
	char line[512], rtts[48], ends[48];
	adp_setup_line(&s, line, sizeof line);
	adp_fmt_us(rtt, rtts, sizeof rtts);
	adp_fmt_us(end_ns, ends, sizeof ends);
	int rc = 0;
	if (json) {
		json_t *o = adp_setup_json(&s);
		json_object_set_new(o, "seed", json_integer((json_int_t)seed));
		json_object_set_new(o, "rtt_ns", json_integer((json_int_t)rtt));
		json_object_set_new(o, "messages", json_integer((json_int_t)messages));
		json_t *arr = json_array();
		for (size_t i = 0; i < n; i++) {
			json_t *x = json_object();
			json_object_set_new(x, "attempt", json_integer(at[i].attempt));
			json_object_set_new(x, "message", json_integer(at[i].message));
			json_object_set_new(x, "sent_ns", json_integer((json_int_t)at[i].sent_ns));
			json_object_set_new(x, "armed_ns", json_integer((json_int_t)at[i].armed_ns));
			json_object_set_new(x, "range", json_integer(at[i].range));
			json_object_set_new(x, "e", json_integer(at[i].e));
			json_object_set_new(x, "reason", json_string(nicref_adp_reason_name(
								 (enum nicref_adp_reason)at[i].reason)));
			json_object_set_new(x, "outcome", json_string(outcome_name(at[i].lost)));
			const char *lim = adp_limit_note(s.mode.adp ? &s.mode.profile : NULL, &at[i]);
			json_object_set_new(x, "note", *lim ? json_string(lim) : json_null());
			json_array_append_new(arr, x);
		}
		json_object_set_new(o, "attempts", arr);
		json_object_set_new(o, "end", json_string(nicref_adp_end_name(end)));
		json_object_set_new(o, "end_ns", json_integer((json_int_t)end_ns));
		json_t *c = json_object();
		json_object_set_new(c, "roce_adp_retrans", json_integer((json_int_t)ctr.roce_adp_retrans));
		json_object_set_new(c, "roce_adp_retrans_to",
				    json_integer((json_int_t)ctr.roce_adp_retrans_to));
		json_object_set_new(o, "counters", c);
		json_dumpf(o, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
		json_decref(o);
	} else {
		printf("nicref adp timeline: %s\nseed %llu, rtt %s, %llu message%s\n", line,
		       (unsigned long long)seed, rtts, (unsigned long long)messages,
		       messages == 1 ? "" : "s");
		printf("%7s %5s %16s %16s %5s %4s  %-12s %-9s %s\n", "attempt", "msg", "sent (us)",
		       "armed (us)", "range", "e", "reason", "outcome", "note");
		for (size_t i = 0; i < n; i++) {
			char sent[48], armed[48], range[8], e[8];
			adp_fmt_us(at[i].sent_ns, sent, sizeof sent);
			sent[strlen(sent) - 3] = '\0'; /* the unit is in the heading */
			if (at[i].armed_ns == 0) {
				snprintf(armed, sizeof armed, "none");
			} else {
				adp_fmt_us(at[i].armed_ns, armed, sizeof armed);
				armed[strlen(armed) - 3] = '\0';
			}
			if (at[i].range >= 0)
				snprintf(range, sizeof range, "%d", at[i].range);
			else
				snprintf(range, sizeof range, "-");
			if (s.mode.adp)
				snprintf(e, sizeof e, "%u", at[i].e);
			else
				snprintf(e, sizeof e, "-");
			const char *lim = adp_limit_note(s.mode.adp ? &s.mode.profile : NULL, &at[i]);
			char tail[64];
			if (*lim)
				snprintf(tail, sizeof tail, "%-9s %s", outcome_name(at[i].lost), lim);
			else
				snprintf(tail, sizeof tail, "%s", outcome_name(at[i].lost));
			printf("%7u %5u %16s %16s %5s %4s  %-12s %s\n", at[i].attempt, at[i].message,
			       sent, armed, range, e,
			       nicref_adp_reason_name((enum nicref_adp_reason)at[i].reason), tail);
		}
		const char *how = end == NICREF_ADP_END_DONE ? "every message acknowledged"
				  : end == NICREF_ADP_END_STALL ? "a lost transmission and no timer"
				  : end == NICREF_ADP_END_LIMIT ? "--max-attempts reached"
				  : s.mode.adp ? "IBV_WC_RETRY_EXC_ERR: no forward progress within the "
						 "total timeout"
					       : "IBV_WC_RETRY_EXC_ERR: retry_cnt exhausted";
		printf("ended: %s at %s: %s\n", nicref_adp_end_name(end), ends, how);
		printf("counters: roce_adp_retrans %llu, roce_adp_retrans_to %llu\n",
		       (unsigned long long)ctr.roce_adp_retrans,
		       (unsigned long long)ctr.roce_adp_retrans_to);
	}
	if (plot) {
		FILE *f = fopen(plot, "w");
		char title[600], sub[256];
		snprintf(title, sizeof title, "ADP timeline: %s", line);
		snprintf(sub, sizeof sub, "seed %llu, rtt %s, %llu message%s; ended: %s at %s; "
			 "roce_adp_retrans %llu, roce_adp_retrans_to %llu",
			 (unsigned long long)seed, rtts, (unsigned long long)messages,
			 messages == 1 ? "" : "s", nicref_adp_end_name(end), ends,
			 (unsigned long long)ctr.roce_adp_retrans,
			 (unsigned long long)ctr.roce_adp_retrans_to);
		struct adp_plot_info info = { .title = title, .subtitle = sub, .adp = s.mode.adp,
					      .profile = s.mode.adp ? &s.mode.profile : NULL,
					      .rtt_ns = rtt, .end = end };
		if (!f || adp_plot_svg(f, at, n, &info) != 0)
			rc = write_text(plot, "the plot");
		if (f && fclose(f) != 0)
			rc = write_text(plot, "the plot");
	}
	free(lw);
	free(at);
	return rc;
}

static void flow_name(const struct adp_flow *fl, char *buf, size_t len)
{
	char a[48], b[48], q[64] = "";
	adp_addr_format(fl->ipver, fl->src, a, sizeof a);
	adp_addr_format(fl->ipver, fl->dst, b, sizeof b);
	if (fl->ack_qp != ~0u)
		snprintf(q, sizeof q, ", ACKs to QP 0x%x paired by %s", fl->ack_qp,
			 adp_paired_name((enum adp_paired)fl->paired_by));
	snprintf(buf, len, "QP 0x%x (%s%s -> %s%s)", fl->dqp, fl->roce_ver == 1 ? "RoCEv1 " : "",
		 a, b, q);
}

static json_t *u64_array(const uint64_t *v, uint32_t n)
{
	json_t *a = json_array();
	for (uint32_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

static json_t *u8_array(const uint8_t *v, uint32_t n)
{
	json_t *a = json_array();
	for (uint32_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static int cmd_check(const struct cli_call *call, int argc, char **argv)
{
	enum { OPT_JSON = OPT_OWN, OPT_TOLERANCE, OPT_ACK_QP, OPT_ROCE_PORT, OPT_REORDER };
	static const struct option longopts[] = {
		ADP_SETUP_OPTIONS,
		{ "json", no_argument, NULL, OPT_JSON },
		{ "tolerance-ns", required_argument, NULL, OPT_TOLERANCE },
		{ "ack-qp", required_argument, NULL, OPT_ACK_QP },
		{ "roce-port", required_argument, NULL, OPT_ROCE_PORT },
		{ "reorder-tolerance-ns", required_argument, NULL, OPT_REORDER },
		CLI_HELP_OPTION,
		{ 0 }
	};
	struct adp_setup s;
	adp_setup_init(&s);
	const char *capture = NULL;
	uint64_t tol = ADP_CHECK_DEFAULT_TOL_NS;
	bool json = false, tol_given = false;
	struct adp_pair pairs[64];
	size_t npairs = 0;
	struct roce_load_opts lo = { .roce_port = ROCE_UDP_PORT,
				     .reorder_tol_ns = CAP_REORDER_TOL_DEFAULT_NS };
	int o;
	while ((o = cli_getopt(call, argc, argv, "h", longopts, NULL)) != -1) {
		if (o >= OPT_SETUP && o <= OPT_SETUP_END) {
			if (adp_setup_opt(&s, longopts[o - OPT_SETUP].name, optarg) != 0)
				return 2;
		} else if (o == OPT_JSON) {
			json = true;
		} else if (o == OPT_TOLERANCE) {
			if (adp_parse_uint(optarg, UINT64_MAX / 4, &tol)) {
				bad("--tolerance-ns takes a number of ns", optarg);
				return 2;
			}
			tol_given = true;
		} else if (o == OPT_ROCE_PORT) {
			uint64_t port;
			if (adp_parse_uint(optarg, 65535, &port) || port == 0) {
				bad("--roce-port takes a UDP port, 1-65535", optarg);
				return 2;
			}
			lo.roce_port = (uint16_t)port;
		} else if (o == OPT_REORDER) {
			if (adp_parse_uint(optarg, UINT64_MAX / 4, &lo.reorder_tol_ns)) {
				bad("--reorder-tolerance-ns takes a number of ns", optarg);
				return 2;
			}
		} else if (o == OPT_ACK_QP) {
			const char *v = optarg;
			char d[32];
			const char *colon = strchr(v, ':');
			uint64_t dq, aq;
			if (!colon || (size_t)(colon - v) >= sizeof d || npairs == 64) {
				bad("--ack-qp takes DATA_QP:ACK_QP", v);
				return 2;
			}
			memcpy(d, v, (size_t)(colon - v));
			d[colon - v] = '\0';
			if (adp_parse_uint(d, 0xFFFFFF, &dq) || adp_parse_uint(colon + 1, 0xFFFFFF, &aq)) {
				bad("--ack-qp takes DATA_QP:ACK_QP (24-bit QP numbers)", v);
				return 2;
			}
			pairs[npairs++] = (struct adp_pair){ .data_qp = (uint32_t)dq,
							     .ack_qp = (uint32_t)aq };
		} else {
			return cli_getopt_exit(o);
		}
	}
	if (optind == argc)
		return cli_usage_error(call, "no CAPTURE given");
	if (argc - optind > 1)
		return cli_usage_error(call, "unexpected operand '%s'", argv[optind + 1]);
	capture = argv[optind];
	if (adp_setup_finish(&s) != 0)
		return 2;
	struct roce_capture rcap;
	char err[1024];
	if (roce_capture_load(capture, &lo, &rcap, err, sizeof err) != 0) {
		fprintf(stderr, "nicref adp check: %s\n", err);
		return 2;
	}
	struct adp_flowset fs;
	if (adp_flows_build(rcap.rc, rcap.nrc, rcap.cm, rcap.ncm, pairs, npairs, &fs, err,
			    sizeof err) != 0) {
		fprintf(stderr, "nicref adp check: %s: %s\n", capture, err);
		roce_capture_free(&rcap);
		return 2;
	}
	struct cap_summary st = rcap.sum;
	roce_capture_free(&rcap);
	st.rc_flows = fs.nflows;
	if (fs.nflows == 0) {
		/* Nothing to check is bad input, not a pass (exit 2, one message, nothing on
		 * stdout): a gate must not pass on an empty or unrelated capture. The message says
		 * what the capture held instead. */
		char classes[512] = "";
		size_t w = 0;
		for (int c = 0; c < ROCE_CLASS_COUNT && w < sizeof classes; c++)
			if (st.cls[c]) {
				int k = snprintf(classes + w, sizeof classes - w, "%s%s %llu",
						 w ? ", " : "", roce_class_name((enum roce_class)c),
						 (unsigned long long)st.cls[c]);
				w += k > 0 ? (size_t)k : 0;
			}
		fprintf(stderr, "nicref adp check: %s: no RC request (RoCEv1 or RoCEv2 on UDP port "
			"%u) among its %llu frames (%s): nothing to check. A capture taken at the "
			"requester's port holds its requests; RoCEv2 on another UDP port needs "
			"--roce-port\n", capture, lo.roce_port, (unsigned long long)st.frames,
			w ? classes : "none");
		adp_flows_free(&fs);
		return 2;
	}
	if (!tol_given)
		tol = adp_check_default_tol(&s.mode, &s.attr);
	struct adp_check_cfg cfg = { .mode = s.mode, .attr = s.attr, .tol_ns = tol };
	struct adp_verdict *v = malloc(sizeof *v);
	struct adp_flow_index ix;
	if (!v || adp_flow_index_build(fs.recs, fs.nrecs, fs.nflows, &ix) != 0) {
		fprintf(stderr, "nicref adp check: out of memory\n");
		free(v);
		adp_flows_free(&fs);
		return 2;
	}
	char line[512];
	adp_setup_line(&s, line, sizeof line);
	json_t *jo = json ? adp_setup_json(&s) : NULL, *jflows = json ? json_array() : NULL;
	if (!json) {
		printf("nicref adp check: %s: %zu RC flow%s\n", capture, fs.nflows,
		       fs.nflows == 1 ? "" : "s");
		cap_summary_print(stdout, &st);
		if (fs.ignored_acks)
			printf("responses whose requests are not in the capture: %zu (not checked)\n",
			       fs.ignored_acks);
		printf("%s, tolerance %llu ns\n", line, (unsigned long long)tol);
	}
	size_t bad_flows = 0;
	int rc = 0;
	for (size_t f = 0; f < fs.nflows; f++) {
		const struct adp_flow *fl = &fs.flows[f];
		if (adp_check_flow_indexed(&cfg, fs.recs, &ix, (uint32_t)f, v, err, sizeof err)) {
			fprintf(stderr, "nicref adp check: %s\n", err);
			rc = 2;
			break;
		}
		uint64_t t0 = v->t0_ns;
		char name[256], why[2048], rel[48];
		flow_name(fl, name, sizeof name);
		adp_verdict_explain(v, &cfg, fl->dqp, why, sizeof why);
		adp_fmt_us(v->conforming ? 0 : v->t_ns - t0, rel, sizeof rel);
		bad_flows += !v->conforming;
		if (json) {
			char a[48], b[48];
			json_t *x = json_object();
			json_object_set_new(x, "qp", json_integer(fl->dqp));
			adp_addr_format(fl->ipver, fl->src, a, sizeof a);
			adp_addr_format(fl->ipver, fl->dst, b, sizeof b);
			json_object_set_new(x, "src", json_string(a));
			json_object_set_new(x, "dst", json_string(b));
			json_object_set_new(x, "ack_qp", fl->ack_qp == ~0u ? json_null()
									  : json_integer(fl->ack_qp));
			const char *pb = adp_paired_name((enum adp_paired)fl->paired_by);
			json_object_set_new(x, "paired_by", pb ? json_string(pb) : json_null());
			json_object_set_new(x, "requests", json_integer(v->data));
			json_object_set_new(x, "retransmissions", json_integer(v->retransmissions));
			json_object_set_new(x, "timer_expiries", json_integer(v->expiries));
			json_object_set_new(x, "forward_progress", json_integer(v->progress));
			json_object_set_new(x, "candidates", u8_array(v->cand_e, s.mode.adp ? v->ncand : 0));
			json_object_set_new(x, "conforming", json_boolean(v->conforming));
			if (v->conforming) {
				json_object_set_new(x, "initial_exponents",
						    u8_array(v->explain_e, s.mode.adp ? v->nexplain : 0));
			} else {
				json_t *u = json_object();
				json_object_set_new(u, "frame", json_integer(v->frame));
				json_object_set_new(u, "t_ns", json_integer((json_int_t)(v->t_ns - t0)));
				json_object_set_new(u, "psn", json_integer(v->psn));
				json_object_set_new(u, "retransmission", json_integer(v->retx));
				json_object_set_new(u, "kind", json_string(adp_fail_name(v->kind)));
				json_object_set_new(u, "gap_ns", json_integer((json_int_t)v->gap_ns));
				json_object_set_new(u, "allowed_ns", u64_array(v->allowed, v->nallowed));
				json_object_set_new(u, "initial_exponents",
						    u8_array(v->reach_e, s.mode.adp ? v->nreach : 0));
				json_object_set_new(u, "explanation", json_string(why));
				json_object_set_new(x, "first_unexplained", u);
			}
			json_array_append_new(jflows, x);
		} else {
			printf("%s: %u requests, %u retransmissions (%u timer expiries), %u ACKs with "
			       "forward progress\n",
			       name, v->data, v->retransmissions, v->expiries, v->progress);
			if (v->conforming)
				printf("  %s\n", why);
			else
				printf("  NON-CONFORMING at frame %u (+%s from the flow's first packet):\n"
				       "  %s\n", v->frame, rel, why);
		}
	}
	if (rc == 0) {
		if (json) {
			json_object_set_new(jo, "capture", json_string(capture));
			json_object_set_new(jo, "tolerance_ns", json_integer((json_int_t)tol));
			json_object_set_new(jo, "summary", cap_summary_json(&st));
			json_object_set_new(jo, "ignored_responses",
					    json_integer((json_int_t)fs.ignored_acks));
			json_object_set_new(jo, "flows", jflows);
			jflows = NULL;
			json_object_set_new(jo, "conforming", json_boolean(bad_flows == 0));
			json_dumpf(jo, stdout, JSON_INDENT(2));
			fputc('\n', stdout);
		} else if (bad_flows == 0) {
			printf("result: conforming (%zu flow%s)\n", fs.nflows, fs.nflows == 1 ? "" : "s");
		} else {
			printf("result: non-conforming (%zu of %zu flows)\n", bad_flows, fs.nflows);
		}
		rc = bad_flows ? 1 : 0;
	}
	json_decref(jflows);
	json_decref(jo);
	adp_flow_index_free(&ix);
	free(v);
	adp_flows_free(&fs);
	return rc;
}

const struct cli_cmd adp_commands[] = {
	{ "timeline", "the ADP engine's retransmission timeline for a profile and losses",
	  timeline_usage, cmd_timeline, NULL },
	{ "check", "check a capture's retransmissions against the ADP engine", check_usage,
	  cmd_check, NULL },
	{ 0 }
};

int adp_main(int argc, char **argv)
{
	static const struct cli_cmd adp[] = { ADP_CLI_ROW, { 0 } };
	char name[] = "adp";
	char **args = calloc((size_t)argc + 2, sizeof *args);
	if (!args)
		return 2;
	args[0] = name;
	memcpy(args + 1, argv, (size_t)argc * sizeof *args);
	int rc = cli_dispatch("", adp, argc + 1, args);
	free(args);
	return rc;
}

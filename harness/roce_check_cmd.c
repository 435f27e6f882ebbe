/* `nicref roce check`: a capture of RoCE traffic against the transport's rules (roce_check.h,
 * docs/roce_check.md): the frames read and judged one by one (roce_check_pkt.c) while the
 * capture is walked, the RC flows and their acknowledgements paired as `nicref adp check` pairs
 * them (adp_pkt.h), each flow judged (roce_check_flow.c) and, with a PROFILE, its retransmission
 * timing (adp_check.h); the first violation of each flow, and of each other QP, reported. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adp_check.h"
#include "adp_cmd.h"
#include "adp_pkt.h"
#include "adp_profile.h"
#include "roce_capture.h"
#include "roce_check.h"
#include "roce_check_cmd.h"

static const char check_usage[] =
	"usage: nicref roce check CAPTURE [PROFILE [QP] [OPTIONS]] [--pmtu N] [--at-senders]\n"
	"                         [--seed004-window]\n"
	"                         [--cnp-timer-ns N] [--cnp-interval-ns N] [--tolerance-ns N]\n"
	"                         [--ack-qp DATA_QP:ACK_QP]... [--roce-port N]\n"
	"                         [--reorder-tolerance-ns N] [--json]\n"
	"Checks a pcap or pcapng capture of RoCE traffic, taken at the requester's port, against\n"
	"the transport's rules: every RoCE frame (ICRC, BTH version, opcode, header lengths, CNP\n"
	"format), and every RC flow with its responses (PSN and opcode sequences, path-MTU\n"
	"packetisation, each ACK/NAK against the requests seen, Go-Back-N retransmissions with\n"
	"the original opcode and RETH, a resumed RDMA READ's RETH, the RNR timer, CE marks answered\n"
	"by CNPs; with a PROFILE the retransmission timing, as `nicref adp check`). Names the first\n"
	"non-conforming frame of each QP with its rule and citation (docs/roce_check.md).\n"
	"\n"
	"  --pmtu N                  path MTU, 256-4096 (default: learnt from the flow)\n"
	"  --at-senders              the capture shows what both ends sent (before a lossy\n"
	"                            link, as `nicref vectors --pcap`), not what the requester\n"
	"                            received\n"
	"  --seed004-window          the seed 004 window: 16 outstanding messages per QP, 8 after\n"
	"                            a CNP until CNP_TIMER_THRD\n"
	"  --cnp-timer-ns N          CNP_TIMER_THRD for --seed004-window (default 100000)\n"
	"  --cnp-interval-ns N       a CNP up to N ns before a CE-marked packet answers it too\n"
	"                            (the notification point's rate limit; default 50000)\n"
	"  --tolerance-ns N          timestamp tolerance of a retransmission gap (default 1000)\n"
	"  --ack-qp DATA_QP:ACK_QP   the requester QP whose responses belong to the flow to\n"
	"                            DATA_QP (overrides the automatic pairing; repeatable)\n"
	"  --roce-port N             RoCEv2 UDP destination port (default 4791)\n"
	"  --reorder-tolerance-ns N  a frame stamped up to N ns before the previous one is\n"
	"                            tolerated and counted (default 100000)\n"
	"  --json                    print the verdict as one JSON object\n"
	"  -h, --help                print this usage and exit\n"
	"Without a PROFILE the retransmission timing is not checked.\n"
	ADP_SETUP_USAGE
	"\n"
	"Exit status: 0 everything conforms, 1 a frame or a flow does not, 2 bad input or a usage\n"
	"error.\n";

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "nicref roce check: %s: %s\n", what, arg);
	return 2;
}

/* The QPs of the capture's RoCE frames, numbered in order of first appearance: a QP is its IP
 * version, source, destination and DestQP as 40 key bytes (ipver, 3 zero bytes, source,
 * destination, DestQP big-endian), with an open-addressing index over them. A frame keeps its
 * QP's number (4 bytes), not 37 bytes of addresses; the keys' byte order is the order the other
 * QPs are reported in. */
struct qpkey {
	uint8_t k[40];
};
struct qps {
	struct qpkey *key;
	size_t n, cap;
	uint32_t *slot; /* a QP's number + 1, 0 empty; nslot a power of two, at most half full */
	size_t nslot;
};

static void qp_key(uint8_t *k, uint8_t ipver, const uint8_t *src, const uint8_t *dst, uint32_t dqp)
{
	memset(k, 0, 40);
	k[0] = ipver;
	memcpy(k + 4, src, 16);
	memcpy(k + 20, dst, 16);
	k[36] = (uint8_t)(dqp >> 24);
	k[37] = (uint8_t)(dqp >> 16);
	k[38] = (uint8_t)(dqp >> 8);
	k[39] = (uint8_t)dqp;
}

static uint32_t key_dqp(const uint8_t *k)
{
	return (uint32_t)k[36] << 24 | (uint32_t)k[37] << 16 | (uint32_t)k[38] << 8 | k[39];
}

/* The key's slot: its five 64-bit words, each mixed by MurmurHash3's 64-bit finaliser (every
 * bit reaches every bit). The numbering is by first appearance: nothing printed depends on it. */
static uint64_t fmix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ h >> 33;
}

static size_t key_slot(const struct qps *q, const uint8_t *k)
{
	uint64_t h = 0;
	for (int w = 0; w < 40; w += 8) {
		uint64_t x = 0;
		for (int b = 0; b < 8; b++)
			x = x << 8 | k[w + b];
		h = fmix64(h ^ x);
	}
	size_t i = (size_t)h & (q->nslot - 1);
	while (q->slot[i] && memcmp(q->key[q->slot[i] - 1].k, k, 40))
		i = (i + 1) & (q->nslot - 1);
	return i;
}

/* The number of QP k: >= 0, -1 when no frame has it. */
static long qps_get(const struct qps *q, const uint8_t *k)
{
	if (!q->nslot)
		return -1;
	uint32_t v = q->slot[key_slot(q, k)];
	return v ? (long)v - 1 : -1;
}

/* The number of QP k, a new one for a new QP: 0, or -1 (no memory). */
static int qps_put(struct qps *q, const uint8_t *k, uint32_t *id)
{
	if (2 * (q->n + 1) > q->nslot) {
		size_t ns = q->nslot ? 2 * q->nslot : 256;
		uint32_t *g = calloc(ns, sizeof *g);
		if (!g)
			return -1;
		uint32_t *old = q->slot;
		size_t on = q->nslot;
		q->slot = g;
		q->nslot = ns;
		for (size_t i = 0; i < on; i++)
			if (old[i])
				q->slot[key_slot(q, q->key[old[i] - 1].k)] = old[i];
		free(old);
	}
	size_t i = key_slot(q, k);
	if (!q->slot[i]) {
		if (q->n == q->cap) {
			size_t nc = q->cap ? 2 * q->cap : 64;
			struct qpkey *g = realloc(q->key, nc * sizeof *g);
			if (!g)
				return -1;
			q->key = g;
			q->cap = nc;
		}
		memcpy(q->key[q->n].k, k, 40);
		q->slot[i] = (uint32_t)++q->n;
	}
	*id = q->slot[i] - 1;
	return 0;
}

static void qps_free(struct qps *q)
{
	free(q->key);
	free(q->slot);
	memset(q, 0, sizeof *q);
}

/* What the walk keeps: every RoCE frame's record, and the QPs. */
struct walk {
	struct rck_frames fr;
	struct qps qps;
};

/* The frame hook: every RoCE frame judged alone, kept in frame order. */
static int keep_frame(void *ctx, const struct cap_frame *f, enum roce_class cl,
		      const struct roce_pkt *k)
{
	struct walk *w = ctx;
	struct rck_frames *fr = &w->fr;
	if (fr->n == fr->cap) {
		size_t nc = fr->cap ? fr->cap * 2 : 1024;
		struct rck_pkt *g = realloc(fr->p, nc * sizeof *g);
		if (!g)
			return -1;
		fr->p = g;
		fr->cap = nc;
	}
	struct rck_pkt *p = &fr->p[fr->n];
	rck_pkt_inspect(f->data, f->caplen, f->wirelen, f->link, cl, k, p);
	uint8_t key[40];
	qp_key(key, k->ipver, k->src, k->dst, k->dqp);
	if (qps_put(&w->qps, key, &p->qp) != 0)
		return -1;
	fr->n++;
	return 0;
}

/* A frame by its QP and number: READ response MIDDLEs and CNPs sorted so that a flow finds its
 * own by binary search. */
struct fref {
	uint32_t qp, frame, idx;
};

static struct fref fref_of(const struct rck_pkt *p, size_t idx)
{
	return (struct fref){ .qp = p->qp, .frame = p->frame, .idx = (uint32_t)idx };
}

static int fref_cmp(const void *a, const void *b)
{
	const struct fref *x = a, *y = b;
	if (x->qp != y->qp)
		return x->qp < y->qp ? -1 : 1;
	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* The range of `v` (sorted) of QP qp: [*lo, return). */
static size_t fref_range(const struct fref *v, size_t n, uint32_t qp, size_t *lo)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (v[m].qp < qp)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	while (b < n && v[b].qp == qp)
		b++;
	return b < a ? a : b;
}

/* A flow's frames: its records (requests and paired responses) and the READ response MIDDLEs to
 * its requester QP (they carry no AETH, so the pairing leaves them out), merged by frame; and
 * the CNPs to its requester QP. The frames it claims are marked used. */
struct flow_frames {
	uint32_t *ev, *cnp;
	size_t nev, ncnp;
};

static int flow_frames(const struct adp_flowset *fs, const struct adp_flow_index *ix, size_t f,
		       const struct fref *mid, size_t nmid, const struct fref *cnps,
		       size_t ncnps, struct flow_frames *out, struct rck_frames *fr,
		       const struct qps *q)
{
	const struct adp_flow *fl = &fs->flows[f];
	size_t nrec = ix->start[f + 1] - ix->start[f];
	size_t m = 0, mend = 0, c = 0, cend = 0;
	if (fl->ack_qp != ~0u) {
		uint8_t k[40];
		qp_key(k, fl->ipver, fl->dst, fl->src, fl->ack_qp);
		long id = qps_get(q, k);
		if (id >= 0) {
			mend = fref_range(mid, nmid, (uint32_t)id, &m);
			cend = fref_range(cnps, ncnps, (uint32_t)id, &c);
		}
	}
	memset(out, 0, sizeof *out);
	out->ev = malloc((nrec + (mend - m) + 1) * sizeof *out->ev);
	out->cnp = malloc((cend - c + 1) * sizeof *out->cnp);
	if (!out->ev || !out->cnp)
		return -1;
	for (size_t a = 0; a < nrec || m < mend;) {
		uint32_t rf = a < nrec ? fs->recs[ix->rec[ix->start[f] + a]].frame : UINT32_MAX;
		uint32_t mf = m < mend ? mid[m].frame : UINT32_MAX;
		if (rf < mf) {
			out->ev[out->nev++] = rf;
			a++;
		} else {
			out->ev[out->nev++] = mf;
			fr->p[mid[m].idx].used = 1;
			m++;
		}
	}
	for (size_t i = 0; i < out->nev; i++) {
		const struct rck_pkt *p = rck_frames_find(fr, out->ev[i]);
		if (p)
			fr->p[p - fr->p].used = 1;
	}
	/* A bad CNP is still reported as another QP's: CNPs are not the flow's frames. */
	for (; c < cend; c++)
		out->cnp[out->ncnp++] = cnps[c].frame;
	return 0;
}

static json_t *violation_json(const struct rck_violation *v, uint64_t t0)
{
	json_t *o = json_object();
	json_object_set_new(o, "frame", json_integer(v->frame));
	json_object_set_new(o, "t_ns", json_integer((json_int_t)(v->t_ns - t0)));
	json_object_set_new(o, "psn", json_integer(v->psn));
	json_object_set_new(o, "rule", json_string(rck_rule_name(v->rule)));
	json_object_set_new(o, "citation", json_string(rck_rule_citation(v->rule)));
	json_object_set_new(o, "message", json_string(v->message));
	return o;
}

/* Another QP's first frame violation (frames outside the RC flows: UD, CNPs, responses no flow
 * claims, ...): the QP's key and the frame's index. */
struct other {
	const uint8_t *key;
	uint32_t idx;
};

static int other_cmp(const void *a, const void *b)
{
	return memcmp(((const struct other *)a)->key, ((const struct other *)b)->key, 40);
}

/* Its violation, the detail written from the frame's record. */
static void other_violation(const struct rck_frames *fr, const struct other *x,
			    struct rck_violation *v)
{
	const struct rck_pkt *p = &fr->p[x->idx];
	v->rule = p->rule;
	v->frame = p->frame;
	v->t_ns = p->t_ns;
	v->psn = p->psn;
	rck_pkt_why(p, v->message, sizeof v->message);
}

static void addr(uint8_t ipver, const uint8_t *a, char *buf, size_t len)
{
	roce_addr_format(ipver, a, buf, len);
}

struct opts {
	struct rck_opts r;
	struct adp_setup s;
	bool timing, json;
	uint64_t tol;
	struct adp_pair pairs[64];
	size_t npairs;
	struct roce_load_opts lo;
};

static int parse(const struct cli_call *call, int argc, char **argv, struct opts *o,
		 const char **capture)
{
	enum { OPT_JSON = OPT_OWN, OPT_PMTU, OPT_W004, OPT_SENDERS, OPT_CNP_TIMER, OPT_CNP_INTERVAL,
	       OPT_TOLERANCE, OPT_ACK_QP, OPT_ROCE_PORT, OPT_REORDER };
	static const struct option longopts[] = {
		ADP_SETUP_OPTIONS,
		{ "json", no_argument, NULL, OPT_JSON },
		{ "pmtu", required_argument, NULL, OPT_PMTU },
		{ "seed004-window", no_argument, NULL, OPT_W004 },
		{ "at-senders", no_argument, NULL, OPT_SENDERS },
		{ "cnp-timer-ns", required_argument, NULL, OPT_CNP_TIMER },
		{ "cnp-interval-ns", required_argument, NULL, OPT_CNP_INTERVAL },
		{ "tolerance-ns", required_argument, NULL, OPT_TOLERANCE },
		{ "ack-qp", required_argument, NULL, OPT_ACK_QP },
		{ "roce-port", required_argument, NULL, OPT_ROCE_PORT },
		{ "reorder-tolerance-ns", required_argument, NULL, OPT_REORDER },
		CLI_HELP_OPTION,
		{ 0 }
	};
	bool qp_opt = false;
	int c;
	while ((c = cli_getopt(call, argc, argv, "h", longopts, NULL)) != -1) {
		uint64_t x;
		if (c >= OPT_SETUP && c <= OPT_SETUP_END) {
			const char *name = longopts[c - OPT_SETUP].name;
			if (c <= OPT_SETUP + 2)
				o->timing = true;
			else
				qp_opt = true;
			if (adp_setup_opt(&o->s, name, optarg) != 0)
				return 2;
		} else if (c == OPT_JSON) {
			o->json = true;
		} else if (c == OPT_PMTU) {
			if (adp_parse_uint(optarg, 4096, &x) ||
			    (x != 256 && x != 512 && x != 1024 && x != 2048 && x != 4096))
				return bad("--pmtu takes 256, 512, 1024, 2048 or 4096", optarg);
			o->r.pmtu = (uint32_t)x;
		} else if (c == OPT_W004) {
			o->r.seed004_window = true;
		} else if (c == OPT_SENDERS) {
			o->r.at_senders = true;
		} else if (c == OPT_CNP_TIMER) {
			if (adp_parse_uint(optarg, UINT64_MAX / 4, &o->r.cnp_timer_ns))
				return bad("--cnp-timer-ns takes a number of ns", optarg);
		} else if (c == OPT_CNP_INTERVAL) {
			if (adp_parse_uint(optarg, UINT64_MAX / 4, &o->r.cnp_interval_ns))
				return bad("--cnp-interval-ns takes a number of ns", optarg);
		} else if (c == OPT_TOLERANCE) {
			if (adp_parse_uint(optarg, UINT64_MAX / 4, &o->tol))
				return bad("--tolerance-ns takes a number of ns", optarg);
		} else if (c == OPT_ROCE_PORT) {
			if (adp_parse_uint(optarg, 65535, &x) || x == 0)
				return bad("--roce-port takes a UDP port, 1-65535", optarg);
			o->lo.roce_port = (uint16_t)x;
		} else if (c == OPT_REORDER) {
			if (adp_parse_uint(optarg, UINT64_MAX / 4, &o->lo.reorder_tol_ns))
				return bad("--reorder-tolerance-ns takes a number of ns", optarg);
		} else if (c == OPT_ACK_QP) {
			const char *v = optarg, *colon = strchr(v, ':');
			char d[32];
			uint64_t dq, aq;
			if (!colon || (size_t)(colon - v) >= sizeof d || o->npairs == 64)
				return bad("--ack-qp takes DATA_QP:ACK_QP", v);
			memcpy(d, v, (size_t)(colon - v));
			d[colon - v] = '\0';
			if (adp_parse_uint(d, 0xFFFFFF, &dq) || adp_parse_uint(colon + 1, 0xFFFFFF, &aq))
				return bad("--ack-qp takes DATA_QP:ACK_QP (24-bit QP numbers)", v);
			o->pairs[o->npairs++] = (struct adp_pair){ .data_qp = (uint32_t)dq,
								   .ack_qp = (uint32_t)aq };
		} else {
			return cli_getopt_exit(c) == 0 ? -1 : 2;
		}
	}
	if (optind == argc)
		return cli_usage_error(call, "no CAPTURE given");
	if (argc - optind > 1)
		return cli_usage_error(call, "unexpected operand '%s'", argv[optind + 1]);
	*capture = argv[optind];
	if (qp_opt && !o->timing)
		return cli_usage_error(call, "the QP and OPTIONS of the timing check need a PROFILE "
				       "(--profile, --profile-hex or --classic)");
	if (o->timing && adp_setup_finish(&o->s) != 0)
		return 2;
	return 0;
}

static int run(const char *capture, struct opts *o)
{
	struct walk w = { 0 };
	struct rck_frames fr = { 0 };
	o->lo.frame_hook = keep_frame;
	o->lo.hook_ctx = &w;
	struct roce_capture rcap;
	char err[1024];
	if (roce_capture_load(capture, &o->lo, &rcap, err, sizeof err) != 0) {
		fprintf(stderr, "nicref roce check: %s\n", err);
		free(w.fr.p);
		qps_free(&w.qps);
		return 2;
	}
	fr = w.fr;
	struct cap_summary sum = rcap.sum;
	if (fr.n == 0) {
		fprintf(stderr, "nicref roce check: %s: no RoCE frame (RoCEv1, or RoCEv2 on UDP port "
			"%u) among its %llu frames (%llu not RoCE, %llu cut before the BTH, %llu "
			"malformed): nothing to check. RoCEv2 on another UDP port needs --roce-port\n",
			capture, o->lo.roce_port, (unsigned long long)sum.frames,
			(unsigned long long)sum.cls[ROCE_CLASS_NOT_ROCE],
			(unsigned long long)sum.cls[ROCE_CLASS_CUT],
			(unsigned long long)sum.cls[ROCE_CLASS_MALFORMED]);
		roce_capture_free(&rcap);
		free(fr.p);
		qps_free(&w.qps);
		return 2;
	}
	struct adp_flowset fs;
	if (adp_flows_build(rcap.rc, rcap.nrc, rcap.cm, rcap.ncm, o->pairs, o->npairs, &fs, err,
			    sizeof err) != 0) {
		fprintf(stderr, "nicref roce check: %s: %s\n", capture, err);
		roce_capture_free(&rcap);
		free(fr.p);
		qps_free(&w.qps);
		return 2;
	}
	roce_capture_free(&rcap);
	sum.rc_flows = fs.nflows;
	int rc = 2;
	struct adp_flow_index ix = { 0 };
	struct fref *mid = NULL, *cnps = NULL;
	struct adp_verdict *av = malloc(sizeof *av);
	struct other *others = NULL;
	uint32_t *first_bad = NULL;
	size_t nmid = 0, ncnps = 0, nothers = 0;
	json_t *jo = NULL, *jflows = NULL;
	if (!av || adp_flow_index_build(fs.recs, fs.nrecs, fs.nflows, &ix))
		goto nomem;
	/* Frame statistics; READ response MIDDLEs and CNPs, which flows claim below. */
	uint64_t rule_count[RCK_COUNT] = { 0 }, skip[RCK_SKIP_COUNT] = { 0 };
	uint64_t icrc_good = 0, icrc_bad = 0;
	for (size_t i = 0; i < fr.n; i++) {
		const struct rck_pkt *p = &fr.p[i];
		if (p->rule != RCK_NONE)
			rule_count[p->rule]++;
		if (p->icrc_state == 0)
			icrc_good++;
		else if (p->icrc_state == 1)
			icrc_bad++;
		else if (p->cls != ROCE_CLASS_CUT && p->cls != ROCE_CLASS_MALFORMED &&
			 p->rule == RCK_NONE)
			skip[p->icrc_why]++;
		nmid += p->cls == ROCE_CLASS_RC && p->opcode == 0x0E;
		ncnps += p->cls == ROCE_CLASS_CNP;
	}
	mid = malloc((nmid + 1) * sizeof *mid);
	cnps = malloc((ncnps + 1) * sizeof *cnps);
	if (!mid || !cnps)
		goto nomem;
	nmid = ncnps = 0;
	for (size_t i = 0; i < fr.n; i++) {
		const struct rck_pkt *p = &fr.p[i];
		if (p->cls == ROCE_CLASS_RC && p->opcode == 0x0E)
			mid[nmid++] = fref_of(p, i);
		if (p->cls == ROCE_CLASS_CNP)
			cnps[ncnps++] = fref_of(p, i);
	}
	qsort(mid, nmid, sizeof *mid, fref_cmp);
	qsort(cnps, ncnps, sizeof *cnps, fref_cmp);
	if (o->json) {
		jo = json_object();
		jflows = json_array();
		json_object_set_new(jo, "capture", json_string(capture));
	} else {
		printf("nicref roce check: %s: %zu RoCE frame%s, %zu RC flow%s\n", capture, fr.n,
		       fr.n == 1 ? "" : "s", fs.nflows, fs.nflows == 1 ? "" : "s");
		cap_summary_print(stdout, &sum);
		printf("ICRC: %llu good, %llu bad, not checked:", (unsigned long long)icrc_good,
		       (unsigned long long)icrc_bad);
		for (unsigned k = 0; k < RCK_SKIP_COUNT; k++)
			printf(" %s %llu", rck_icrc_skip_name(k), (unsigned long long)skip[k]);
		printf("\n");
		if (o->timing) {
			char line[512];
			adp_setup_line(&o->s, line, sizeof line);
			printf("timing: %s, tolerance %llu ns\n", line, (unsigned long long)o->tol);
		} else {
			printf("timing: not checked (no PROFILE)\n");
		}
	}
	struct adp_check_cfg cfg = { .mode = o->s.mode, .attr = o->s.attr, .tol_ns = o->tol };
	size_t bad_flows = 0;
	for (size_t f = 0; f < fs.nflows; f++) {
		const struct adp_flow *fl = &fs.flows[f];
		struct flow_frames ff;
		if (flow_frames(&fs, &ix, f, mid, nmid, cnps, ncnps, &ff, &fr, &w.qps) != 0) {
			free(ff.ev);
			free(ff.cnp);
			goto nomem;
		}
		struct rck_violation v;
		struct rck_flow_stats st;
		int e = rck_check_flow(&o->r, &fr, ff.ev, ff.nev, ff.cnp, ff.ncnp,
				       fl->ack_qp != ~0u, &v, &st);
		uint64_t t0 = 0;
		if (ff.nev) {
			const struct rck_pkt *p0 = rck_frames_find(&fr, ff.ev[0]);
			t0 = p0 ? p0->t_ns : 0;
		}
		free(ff.ev);
		free(ff.cnp);
		if (e != 0)
			goto nomem;
		if (o->timing) {
			if (adp_check_flow_indexed(&cfg, fs.recs, &ix, (uint32_t)f, av, err, sizeof err)) {
				fprintf(stderr, "nicref roce check: %s\n", err);
				goto out;
			}
			if (!av->conforming && (v.rule == RCK_NONE || av->frame < v.frame)) {
				v.rule = RCK_RETX_TIMING;
				v.frame = av->frame;
				v.t_ns = av->t_ns;
				v.psn = av->psn;
				adp_verdict_explain(av, &cfg, fl->dqp, v.message, sizeof v.message);
			}
		}
		bool ok = v.rule == RCK_NONE;
		bad_flows += !ok;
		char a[48], b[48];
		addr(fl->ipver, fl->src, a, sizeof a);
		addr(fl->ipver, fl->dst, b, sizeof b);
		const char *pb = adp_paired_name((enum adp_paired)fl->paired_by);
		if (o->json) {
			json_t *x = json_object();
			json_object_set_new(x, "qp", json_integer(fl->dqp));
			json_object_set_new(x, "src", json_string(a));
			json_object_set_new(x, "dst", json_string(b));
			json_object_set_new(x, "roce_version", json_integer(fl->roce_ver));
			json_object_set_new(x, "ack_qp", fl->ack_qp == ~0u ? json_null()
									  : json_integer(fl->ack_qp));
			json_object_set_new(x, "paired_by", pb ? json_string(pb) : json_null());
			json_object_set_new(x, "requests", json_integer(st.requests));
			json_object_set_new(x, "responses", json_integer(st.responses));
			json_object_set_new(x, "retransmissions", json_integer(st.retransmissions));
			json_object_set_new(x, "naks", json_integer(st.naks));
			json_object_set_new(x, "rnr_naks", json_integer(st.rnr_naks));
			json_object_set_new(x, "cnps", json_integer(st.cnps));
			json_object_set_new(x, "ce_marked", json_integer(st.ce_marked));
			json_object_set_new(x, "conforming", json_boolean(ok));
			json_object_set_new(x, "first_violation", ok ? json_null() : violation_json(&v, t0));
			json_array_append_new(jflows, x);
		} else {
			printf("QP 0x%x (%s%s -> %s", fl->dqp, fl->roce_ver == 1 ? "RoCEv1 " : "", a, b);
			if (fl->ack_qp != ~0u)
				printf(", responses to QP 0x%x paired by %s", fl->ack_qp, pb);
			printf("): %u requests, %u retransmissions, %u responses (%u NAKs, %u RNR NAKs), "
			       "%u CNPs, %u CE-marked\n", st.requests, st.retransmissions, st.responses,
			       st.naks, st.rnr_naks, st.cnps, st.ce_marked);
			if (ok)
				printf("  conforming\n");
			else
				printf("  NON-CONFORMING: %s: frame %u, PSN %u: %s: %s [%s]\n", capture,
				       v.frame, v.psn, rck_rule_name(v.rule), v.message,
				       rck_rule_citation(v.rule));
		}
	}
	/* The frames no flow claimed: their QPs' first frame violations, one per QP (frame order is
	 * record order), reported in the order of the QPs' keys. */
	first_bad = calloc(w.qps.n + 1, sizeof *first_bad);
	if (!first_bad)
		goto nomem;
	for (size_t i = 0; i < fr.n; i++)
		if (!fr.p[i].used && fr.p[i].rule != RCK_NONE && !first_bad[fr.p[i].qp]) {
			first_bad[fr.p[i].qp] = (uint32_t)i + 1;
			nothers++;
		}
	others = calloc(nothers + 1, sizeof *others);
	if (!others)
		goto nomem;
	nothers = 0;
	for (size_t q = 0; q < w.qps.n; q++)
		if (first_bad[q])
			others[nothers++] = (struct other){ .key = w.qps.key[q].k,
							    .idx = first_bad[q] - 1 };
	qsort(others, nothers, sizeof *others, other_cmp);
	bool conforming = bad_flows == 0 && nothers == 0;
	if (o->json) {
		json_t *jothers = json_array();
		for (size_t k = 0; k < nothers; k++) {
			char a[48], b[48];
			const uint8_t *key = others[k].key;
			struct rck_violation v;
			other_violation(&fr, &others[k], &v);
			json_t *x = json_object();
			addr(key[0], key + 4, a, sizeof a);
			addr(key[0], key + 20, b, sizeof b);
			json_object_set_new(x, "qp", json_integer(key_dqp(key)));
			json_object_set_new(x, "src", json_string(a));
			json_object_set_new(x, "dst", json_string(b));
			json_object_set_new(x, "class",
					    json_string(roce_class_name(fr.p[others[k].idx].cls)));
			json_object_set_new(x, "first_violation", violation_json(&v, 0));
			json_array_append_new(jothers, x);
		}
		json_t *pk = json_object(), *ic = json_object(), *sk = json_object(),
		       *vi = json_object();
		json_object_set_new(pk, "roce_frames", json_integer((json_int_t)fr.n));
		json_object_set_new(ic, "good", json_integer((json_int_t)icrc_good));
		json_object_set_new(ic, "bad", json_integer((json_int_t)icrc_bad));
		for (unsigned k = 0; k < RCK_SKIP_COUNT; k++)
			json_object_set_new(sk, rck_icrc_skip_name(k), json_integer((json_int_t)skip[k]));
		json_object_set_new(ic, "not_checked", sk);
		json_object_set_new(pk, "icrc", ic);
		for (unsigned k = 0; k < RCK_COUNT; k++)
			if (rule_count[k])
				json_object_set_new(vi, rck_rule_name(k),
						    json_integer((json_int_t)rule_count[k]));
		json_object_set_new(pk, "violations", vi);
		json_object_set_new(jo, "timing", o->timing ? adp_setup_json(&o->s) : json_null());
		json_object_set_new(jo, "summary", cap_summary_json(&sum));
		json_object_set_new(jo, "frames", pk);
		json_object_set_new(jo, "ignored_responses", json_integer((json_int_t)fs.ignored_acks));
		json_object_set_new(jo, "flows", jflows);
		jflows = NULL;
		json_object_set_new(jo, "others", jothers);
		json_object_set_new(jo, "conforming", json_boolean(conforming));
		json_dumpf(jo, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
	} else {
		for (size_t k = 0; k < nothers; k++) {
			char a[48], b[48];
			const uint8_t *key = others[k].key;
			struct rck_violation v;
			other_violation(&fr, &others[k], &v);
			addr(key[0], key + 4, a, sizeof a);
			addr(key[0], key + 20, b, sizeof b);
			printf("QP 0x%x (%s -> %s, %s)\n  NON-CONFORMING: %s: frame %u, PSN %u: %s: %s "
			       "[%s]\n", key_dqp(key), a, b, roce_class_name(fr.p[others[k].idx].cls),
			       capture, v.frame, v.psn, rck_rule_name(v.rule), v.message,
			       rck_rule_citation(v.rule));
		}
		if (fs.ignored_acks)
			printf("responses whose requests are not in the capture: %zu (not checked)\n",
			       fs.ignored_acks);
		if (conforming)
			printf("result: conforming (%zu flow%s, %zu RoCE frames)\n", fs.nflows,
			       fs.nflows == 1 ? "" : "s", fr.n);
		else
			printf("result: non-conforming (%zu of %zu flows, %zu other QP%s)\n", bad_flows,
			       fs.nflows, nothers, nothers == 1 ? "" : "s");
	}
	rc = conforming ? 0 : 1;
	goto out;
nomem:
	fprintf(stderr, "nicref roce check: %s: out of memory\n", capture);
	rc = 2;
out:
	json_decref(jflows);
	json_decref(jo);
	free(others);
	free(first_bad);
	free(av);
	free(cnps);
	free(mid);
	adp_flow_index_free(&ix);
	adp_flows_free(&fs);
	free(fr.p);
	qps_free(&w.qps);
	return rc;
}

static int cmd_check(const struct cli_call *call, int argc, char **argv)
{
	struct opts o;
	memset(&o, 0, sizeof o);
	rck_opts_default(&o.r);
	adp_setup_init(&o.s);
	o.s.tool = "nicref roce check";
	o.tol = ADP_CHECK_DEFAULT_TOL_NS;
	o.lo.roce_port = ROCE_UDP_PORT;
	o.lo.reorder_tol_ns = CAP_REORDER_TOL_DEFAULT_NS;
	const char *capture = NULL;
	int rc = parse(call, argc, argv, &o, &capture);
	if (rc == -1)
		return 0; /* --help */
	if (rc != 0)
		return rc;
	return run(capture, &o);
}

const struct cli_cmd roce_commands[] = {
	{ "check", "check a capture of RoCE traffic against the transport's rules", check_usage,
	  cmd_check, NULL },
	{ 0 }
};

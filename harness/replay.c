/* `nicref replay SETUP CAPTURE` (docs/replay.md): every record of a capture arrives on a port of
 * a device whose receive configuration SETUP built, at the record's time (the device's virtual
 * time follows the capture's stamps), and the replay writes what the device did with it: the
 * CQE of each copy delivered (its RQ and fields by name) or the drop (its reason and the
 * counters it moved). The replay is the driver (replay_drv.c): a capture of any length runs on
 * rings of any size. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dut_diff.h"
#include "driver_vport.h"
#include "replay_int.h"

#define NICREF_EV_BIT(k) ((uint64_t)1 << NICREF_EV_##k)

/* Everything one run holds: made once, nothing per frame. */
struct replay {
	const struct replay_opts *o;
	const struct vec_stack_rx *x;
	struct replay_pred p;
	struct replay_counts c;
	uint8_t mac[6];
	uint8_t frame[REPLAY_FRAME_MAX];
	char line[16384];
	FILE *jsonl;
	struct replay_pcaps *pcaps;
	struct replay_expect *expect;
	bool started; /* the first record was injected: virtual time is anchored */
	unsigned cq_due; /* CQEs announced on the CQ and not polled (replay_drv_poll) */
	bool told[REPLAY_SKIP_COUNT], told_inversion, told_err, told_viol;
	bool told_time[3], told_over, told_cut; /* by enum cap_time; caplen > len; cut by libpcap */
};

static int index_of(const uint32_t *list, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		if (list[i] == v)
			return (int)i;
	return -1;
}

/* The device's events while a frame goes through: its drops and CQEs become the prediction's
 * copies in the order the device made them (the CQEs' contents come from the poll). */
static void on_event(void *ctx, const struct nicref_event *ev)
{
	struct replay *rp = ctx;
	struct replay_pred *p = &rp->p;
	switch (ev->kind) {
	case NICREF_EV_RX_DROP:
	case NICREF_EV_CQE:
		if (ev->kind == NICREF_EV_CQE) {
			if (ev->arg[0] != rp->x->cq->cqn)
				return;
			if (rp->cq_due != REPLAY_DUE_UNKNOWN)
				rp->cq_due++;
		}
		if (p->ncopies == REPLAY_MAX_COPIES) {
			/* A CQE past the last slot is counted by the poll, which reads it (once). */
			if (ev->kind == NICREF_EV_RX_DROP)
				p->lost++;
			return;
		}
		struct replay_copy *k = &p->copy[p->ncopies++];
		replay_copy_clear(k);
		if (ev->kind == NICREF_EV_RX_DROP) {
			const char *kind = replay_drop_num_kind((unsigned)ev->arg[0]);
			k->drop = true;
			k->reason = (unsigned)ev->arg[0];
			k->num = !kind ? -1
				 : !strcmp(kind, "tir") ? index_of(rp->x->tirn, rp->x->ntir, ev->arg[1])
				 : !strcmp(kind, "rq")	? index_of(rp->x->rqn, rp->x->nrq, ev->arg[1])
							: (int)ev->arg[1];
		}
		return;
	case NICREF_EV_VIOLATION:
		p->violations++;
		return;
	case NICREF_EV_WQ_STATE: /* T55 state 3: ERR; type 1 an RQ */
		if (ev->arg[0] == 1 && ev->arg[3] == 3)
			p->rq_errors++;
		return;
	default:
		return;
	}
}

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What a record not injected means, said once per reason. */
static const char *const skip_why[REPLAY_SKIP_COUNT] = {
	[REPLAY_SKIP_TRUNCATED] = ("was cut by the snapshot length: its bytes are not all in the "
				   "file, so what the device would do cannot be known; capture "
				   "with -s 0 (tcpdump) to replay every frame"),
	[REPLAY_SKIP_TOO_LONG] = "is longer than the 65536 bytes a port takes",
	[REPLAY_SKIP_NOT_ETHERNET] = ("holds no EtherType (shorter than its link header, an "
				      "802.3 length, or a raw-IP packet that is neither IPv4 nor "
				      "IPv6)"),
};

/* What the file says of a record that is not what it should say (docs/replay.md "Messy
 * captures"): counted, the first of each kind named. */
static void record_flaws(struct replay *rp, const struct cap_frame *f)
{
	struct replay_counts *c = &rp->c;
	static const char *const time_why[] = {
		[CAP_TIME_NONE] = "has no timestamp (a pcapng Simple Packet Block)",
		[CAP_TIME_BAD_SUBSEC] = "has a sub-second field of a second or more (not a time)",
	};
	if (f->time != CAP_TIME_OK) {
		c->untimed++;
		if (!rp->told_time[f->time])
			fprintf(stderr, "nicref replay: %s: frame %" PRIu64 " %s: injected at the time of "
					"the frame before it (counted in untimed; the first)\n",
				rp->o->capture, f->number, time_why[f->time]);
		rp->told_time[f->time] = true;
	}
	if (f->caplen_over_len) {
		c->caplen_over_len++;
		if (!rp->told_over)
			fprintf(stderr, "nicref replay: %s: frame %" PRIu64 " says %u bytes captured of a "
					"%u-byte frame: taken at the %u bytes the file holds (counted in "
					"caplen_over_len; the first)\n",
				rp->o->capture, f->number, f->caplen, f->origlen, f->caplen);
		rp->told_over = true;
	}
}

static void count(struct replay *rp, const struct cap_frame *f)
{
	struct replay_counts *c = &rp->c;
	const struct replay_pred *p = &rp->p;
	bool good = false, any = false;
	record_flaws(rp, f);
	if (p->skip == REPLAY_SKIP_TRUNCATED && f->file_caplen) {
		/* Not cut by the capture: libpcap reads no more of a record than the file header's
		 * snapshot length, though the file holds it whole. */
		c->skipped[p->skip]++;
		c->cut_by_reader++;
		if (!rp->told_cut)
			fprintf(stderr, "nicref replay: %s: frame %" PRIu64 " holds %u bytes in the file, "
					"more than the file header's snapshot length (%u), and libpcap "
					"reads only that many: not injected, counted as skipped truncated "
					"(the first); rewrite the file with a larger snapshot length: "
					"mergecap -F pcap -s 262144 -w OUT.pcap FILE (Debian's wireshark "
					"tools)\n", rp->o->capture, f->number, f->file_caplen, f->caplen);
		rp->told_cut = true;
		return;
	}
	if (p->skip != REPLAY_SKIP_NONE) {
		c->skipped[p->skip]++;
		if (!rp->told[p->skip])
			fprintf(stderr, "nicref replay: %s: frame %" PRIu64 " (%u of %u bytes captured) %s: "
					"not injected, counted as skipped %s (the first; the summary counts "
					"them all)\n", rp->o->capture, f->number, f->caplen, f->wirelen,
				skip_why[p->skip], replay_skip_name(p->skip));
		rp->told[p->skip] = true;
		return;
	}
	c->injected++;
	c->padded += p->padded;
	c->converted += p->converted;
	c->lost_copies += p->lost;
	c->violations += p->violations;
	c->rq_errors += p->rq_errors;
	for (unsigned i = 0; i < p->ncopies; i++) {
		const struct replay_copy *k = &p->copy[i];
		if (k->drop) {
			c->drops[k->reason <= REPLAY_DROP_MAX ? k->reason : 0]++;
			if (k->reason == 9 && !c->starved_frame)
				c->starved_frame = p->frame;
			continue;
		}
		any = true;
		c->cqes++;
		if ((k->cqe[63] >> 4) == 13 || (k->cqe[63] >> 4) == 14)
			c->err_cqes++;
		else
			good = true;
		if (k->rq >= 0)
			c->per_rq[k->rq]++;
	}
	c->delivered += good;
	c->errored += any && !good;
	c->dropped += !any;
	if (p->lost && !c->lost_frame)
		c->lost_frame = p->frame;
	if (p->rq_errors && !rp->told_err) {
		fprintf(stderr, "nicref replay: %s: frame %" PRIu64 " put an RQ in ERR (an error CQE, "
				"D-RX-2): the frames that follow to it are dropped (rq_not_rdy)\n",
			rp->o->capture, p->frame);
		rp->told_err = true;
	}
	if (p->violations && !rp->told_viol) {
		fprintf(stderr, "nicref replay: %s: frame %" PRIu64 ": the device reports a driver "
				"violation (the setup breaks a rule: run it as a vector with --trace)\n",
			rp->o->capture, p->frame);
		rp->told_viol = true;
	}
}

/* The device's clock follows the capture: the first record at the time the setup ended, each
 * later one at its offset from the first. A record stamped before the one before it is
 * injected at that one's time (time does not go back) and counted. */
static void follow_time(struct replay *rp, const struct cap_frame *f, uint64_t *dev0)
{
	struct replay_counts *c = &rp->c;
	/* A record without a time (capture.h enum cap_time) carries the one before's, or, before
	 * any record with one, leaves the clock where the setup left it. */
	if (f->time != CAP_TIME_OK && !rp->started)
		return;
	if (!rp->started) {
		rp->started = true;
		c->first_ns = c->last_ns = f->t_ns;
		*dev0 = nicref_clock_now(rp->x->dev);
		return;
	}
	if (f->t_ns < c->last_ns) {
		c->inversions++;
		if (!rp->told_inversion)
			fprintf(stderr, "nicref replay: %s: frame %" PRIu64 " is stamped %" PRIu64 " ns "
					"before the frame before it: injected at that frame's time "
					"(counted in time_inversions)\n", rp->o->capture, f->number,
				c->last_ns - f->t_ns);
		rp->told_inversion = true;
		return;
	}
	c->last_ns = f->t_ns;
	uint64_t target = *dev0 + (f->t_ns - c->first_ns), now = nicref_clock_now(rp->x->dev);
	if (target > now)
		nicref_clock_advance(rp->x->dev, target - now);
}

static void progress(struct replay *rp, struct capture *cap, double t0, long long size, bool end)
{
	double t = wall_seconds() - t0;
	long long at = capture_tell(cap);
	double rate = t > 0 ? (double)rp->c.records / t : 0;
	char eta[32] = "";
	if (!end && size > 0 && at > 0 && t > 0)
		snprintf(eta, sizeof eta, ", ETA %.0f s", t * (double)(size - at) / (double)at);
	fprintf(stderr, "\r%" PRIu64 " frames, %.0f frames/s%s%s", rp->c.records, rate, eta,
		end ? "\n" : "   ");
}

static void summary(const struct replay *rp, double cpu, FILE *f)
{
	const struct replay_counts *c = &rp->c;
	fprintf(f, "replay %s on %s, port %u\n", rp->o->capture, rp->o->setup, rp->o->port);
	fprintf(f, "records: %" PRIu64 " (", c->records);
	for (unsigned l = 0, first = 1; l < CAP_LINK_COUNT; l++)
		if (c->link[l]) {
			fprintf(f, "%s%s %" PRIu64, first ? "" : ", ", cap_link_name((enum cap_link)l),
				c->link[l]);
			first = 0;
		}
	fprintf(f, "), injected %" PRIu64 ", skipped %" PRIu64, c->injected,
		c->records - c->injected);
	for (unsigned s = 0; s < REPLAY_SKIP_COUNT; s++)
		if (c->skipped[s])
			fprintf(f, " (%s %" PRIu64 ")", replay_skip_name((enum replay_skip)s), c->skipped[s]);
	fprintf(f, "\ndelivered: %" PRIu64 " frames, %" PRIu64 " CQEs (%" PRIu64 " error CQEs)\n",
		c->delivered, c->cqes, c->err_cqes);
	fprintf(f, "per RQ:");
	for (unsigned i = 0; i < rp->x->nrq; i++)
		fprintf(f, " rq%u %" PRIu64, i, c->per_rq[i]);
	fprintf(f, "\nerror: %" PRIu64 " frames (only error CQEs)\n", c->errored);
	fprintf(f, "dropped: %" PRIu64 " frames", c->dropped);
	for (unsigned r = 1; r <= REPLAY_DROP_MAX; r++)
		if (c->drops[r])
			fprintf(f, ", %s %" PRIu64, replay_drop_name(r), c->drops[r]);
	fprintf(f, "\n");
	if (c->lost_copies)
		fprintf(f, "copies lost %" PRIu64 ": past the %u CQEs and drops a frame's prediction "
			   "holds (first at frame %" PRIu64 "); not in the counts above, --jsonl's "
			   "copies or --pcap-dir, and a difference under --expect\n",
			c->lost_copies, REPLAY_MAX_COPIES, c->lost_frame);
	if (c->starved_frame)
		fprintf(f, "the ring first ran dry at frame %" PRIu64 "%s\n", c->starved_frame,
			rp->o->no_repost ? " (--no-repost)" : "");
	fprintf(f, "padded %" PRIu64 ", converted %" PRIu64 ", time inversions %" PRIu64
		   ", WQEs re-posted %" PRIu64 ", RQs to ERR %" PRIu64 ", violations %" PRIu64 "\n",
		c->padded, c->converted, c->inversions, c->reposted, c->rq_errors, c->violations);
	fprintf(f, "untimed %" PRIu64 ", caplen over wire length %" PRIu64
		   ", cut to the header's snapshot length by libpcap %" PRIu64 "\n",
		c->untimed, c->caplen_over_len, c->cut_by_reader);
	double span = (double)(c->last_ns - c->first_ns) * 1e-9;
	fprintf(f, "capture time %.6f s; replayed in %.3f s of CPU (%.0f frames/s)\n", span, cpu,
		cpu > 0 ? (double)c->records / cpu : 0.0);
}

/* The function's own address (QUERY_NIC_VPORT_CONTEXT, T16 permanent_address): a cooked or
 * raw-IP record is sent to it. */
static int own_mac(struct replay *rp)
{
	struct refdrv_nic_vport v = { 0 };
	if (refdrv_query_nic_vport_context(rp->x->drv, 0, &v, NULL, 0) != 0) {
		fprintf(stderr, "nicref replay: %s: QUERY_NIC_VPORT_CONTEXT failed: %s\n",
			rp->o->setup, rp->x->drv->error);
		return -1;
	}
	for (unsigned i = 0; i < 6; i++)
		rp->mac[i] = (uint8_t)(v.permanent_address >> (40 - 8 * i));
	return 0;
}

static int outputs_open(struct replay *rp)
{
	char err[512];
	const struct replay_opts *o = rp->o;
	if (o->jsonl) {
		rp->jsonl = strcmp(o->jsonl, "-") ? fopen(o->jsonl, "w") : stdout;
		if (!rp->jsonl) {
			fprintf(stderr, "nicref replay: %s: cannot write: %s\n", o->jsonl, strerror(errno));
			return -1;
		}
		size_t n = replay_jsonl_header(o, rp->line, sizeof rp->line);
		rp->line[n] = '\n';
		fwrite(rp->line, 1, n + 1, rp->jsonl);
	}
	if (o->pcap_dir && replay_pcaps_open(o->pcap_dir, rp->x, &rp->pcaps, err, sizeof err)) {
		fprintf(stderr, "nicref replay: %s\n", err);
		return -1;
	}
	if (o->expect && replay_expect_open(o->expect, o->ignore,
					      o->jsonl && !strcmp(o->jsonl, "-") ? stderr : stdout, &rp->expect))
		return -1;
	return 0;
}

/* One record: converted, injected at its time, the CQ polled, the prediction out. */
static int one(struct replay *rp, const struct cap_frame *f, uint64_t *dev0)
{
	struct replay_pred *p = &rp->p;
	p->frame = f->number;
	p->t_ns = f->t_ns;
	p->caplen = f->caplen;
	p->wirelen = f->wirelen;
	p->ncopies = p->lost = p->violations = p->rq_errors = 0;
	rp->c.records++;
	rp->c.link[f->link]++;
	const uint8_t *bytes;
	p->len = replay_frame_at(f, rp->mac, !rp->o->no_pad, rp->frame, p, &bytes);
	follow_time(rp, f, dev0); /* a record not injected still counts in the capture's time */
	if (p->skip == REPLAY_SKIP_NONE) {
		if (nicref_wire_rx(rp->x->dev, rp->o->port, bytes, p->len) != 0) {
			fprintf(stderr, "nicref replay: --port %u: not a port of the device (the "
					"profile's num_ports)\n", rp->o->port);
			return -1;
		}
		replay_drv_poll(rp->x, p, !rp->o->no_repost, &rp->c.reposted, &rp->cq_due);
	}
	count(rp, f);
	if (rp->jsonl) {
		size_t n = replay_jsonl_line(p, rp->line, sizeof rp->line - 1);
		rp->line[n] = '\n';
		fwrite(rp->line, 1, n + 1, rp->jsonl);
	}
	if (rp->pcaps && p->skip == REPLAY_SKIP_NONE)
		replay_pcaps_frame(rp->pcaps, rp->x, p);
	if (rp->expect)
		replay_expect_frame(rp->expect, p);
	return 0;
}

/* --dut: the first divergence of the DUT, named by the frame being replayed. */
static void on_dut_divergence(void *ctx, const struct dut_divergence *d)
{
	const struct replay *rp = ctx;
	fprintf(stderr, "FAIL %s: frame %" PRIu64 ": DUT differs: %s [%s]\n", rp->o->capture,
		(uint64_t)rp->p.frame, d->what, d->stimulus);
}

/* --dut: loaded before the setup runs, so the setup's device gets its twin. 0, or 2. */
static int dut_open(const struct replay_opts *o)
{
	char err[1200];
	if (!o->dut)
		return 0;
	if (dut_diff_use(o->dut, err, sizeof err) != 0) {
		fprintf(stderr, "nicref replay: %s\n", err);
		return 2;
	}
	if (dut_diff_guard(o->dut_timeout_ms) != 0) {
		fprintf(stderr, "nicref replay: --dut: cannot install the guard against a DUT that "
				"crashes or hangs: %s\n", strerror(errno));
		return 2;
	}
	dut_diff_set_handler(NULL, NULL); /* vec_dev_open sets its own around the create */
	return 0;
}

/* --dut: the closing line; 1 when the DUT differed (in the setup or a frame). The setup's
 * device is gone when the setup failed: then the count is every twin's. */
static int dut_close(const struct replay *rp, FILE *out)
{
	if (!rp->o->dut)
		return 0;
	long long n = rp->x ? dut_diff_divergences(rp->x->dev)
			    : (long long)dut_diff_divergences_all();
	fprintf(out, "DUT %s (%s): %" PRIu64 " records replayed into it and the model, %lld "
	       "divergence%s%s\n", dut_diff_name(), dut_diff_path(), rp->c.records, n < 0 ? 0 : n,
	       n == 1 ? "" : "s", rp->x ? "" : " (in the setup)");
	return n > 0;
}

int replay_run(const struct replay_opts *o)
{
	struct replay *rp = calloc(1, sizeof *rp);
	struct vec_stack *s = NULL;
	struct capture *cap = NULL;
	char err[1024] = "";
	int rc = 2;
	if (!rp) {
		fprintf(stderr, "nicref replay: out of memory\n");
		return 2;
	}
	rp->cq_due = REPLAY_DUE_UNKNOWN;
	rp->o = o;
	if (dut_open(o) != 0)
		goto out;
	if (replay_setup_open(o->setup, &s) != VEC_STACK_OK) {
		/* A DUT that differed in the setup is a finding (exit 1), not bad input. */
		if (o->dut && dut_diff_divergences_all() > 0 && dut_close(rp, stdout))
			rc = 1;
		goto out;
	}
	rp->x = vec_stack_rx(s);
	if (o->dut)
		dut_diff_retarget(rp->x->dev, on_dut_divergence, rp);
	for (unsigned i = 0; i < rp->x->nrq; i++)
		if (rp->x->ring[i]->linked) {
			fprintf(stderr, "BAD %s: RQ %u (or its RMP) is of wq_type 0 (a linked list): "
					"the replay re-posts WQEs to cyclic queues only (docs/replay.md)\n",
				o->setup, i);
			goto out;
		}
	if (own_mac(rp) || capture_open(o->capture, &cap, err, sizeof err)) {
		if (cap == NULL && err[0])
			fprintf(stderr, "nicref replay: %s\n", err);
		goto out;
	}
	if (outputs_open(rp))
		goto out;
	vec_stack_sink(s, on_event, rp);
	/* on_event reads four kinds: the others need not reach it, nor be computed for it (the
	 * CRC of every frame_in). With --dut the events also name what the DUT wrote (an EQE, a
	 * CQE): nothing is muted then. */
	if (!o->dut)
		nicref_trace_mute(rp->x->dev, ~(NICREF_EV_BIT(RX_DROP) | NICREF_EV_BIT(CQE) |
						NICREF_EV_BIT(VIOLATION) | NICREF_EV_BIT(WQ_STATE)));
	struct stat st;
	long long size = stat(o->capture, &st) == 0 ? (long long)st.st_size : -1;
	bool show = o->progress > 0 || (o->progress < 0 && isatty(2));
	double t0 = wall_seconds(), next = t0 + 0.5, c0 = cpu_seconds();
	uint64_t dev0 = 0;
	struct cap_frame f;
	int got;
	while ((got = capture_next(cap, &f, err, sizeof err)) == 1) {
		if (one(rp, &f, &dev0))
			goto out;
		if (show && (rp->c.records & 0x3FFF) == 0 && wall_seconds() >= next) {
			progress(rp, cap, t0, size, false);
			next = wall_seconds() + 0.5;
		}
	}
	double cpu = cpu_seconds() - c0;
	if (show)
		progress(rp, cap, t0, size, true);
	if (got < 0)
		fprintf(stderr, "nicref replay: %s (the summary counts the records before it)\n", err);
	/* --jsonl -: stdout holds the JSON Lines only; the summary goes to stderr. */
	FILE *out = rp->jsonl == stdout ? stderr : stdout;
	summary(rp, cpu, out);
	rc = got < 0 ? 2 : 0;
	if (rp->jsonl && rp->jsonl != stdout && fclose(rp->jsonl) != 0) {
		fprintf(stderr, "nicref replay: %s: write failed\n", o->jsonl);
		rc = 2;
	}
	rp->jsonl = NULL;
	if (rp->pcaps && replay_pcaps_close(rp->pcaps, err, sizeof err)) {
		fprintf(stderr, "nicref replay: %s\n", err);
		rc = 2;
	}
	rp->pcaps = NULL;
	if (rp->expect) {
		int e = replay_expect_close(rp->expect, o, &rp->c, cpu);
		rp->expect = NULL;
		if (rc == 0)
			rc = e;
	}
	if (dut_close(rp, out) && rc == 0)
		rc = 1;
out:
	if (rp->jsonl && rp->jsonl != stdout)
		fclose(rp->jsonl);
	if (rp->pcaps)
		replay_pcaps_close(rp->pcaps, err, sizeof err);
	if (rp->expect)
		replay_expect_close(rp->expect, NULL, NULL, 0);
	capture_close(cap);
	vec_stack_close(s);
	free(rp);
	return rc;
}

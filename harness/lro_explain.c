/* `nicref lro explain` (harness/lro_explain.h, docs/lro_explain.md).
 *
 * The replay: the capture is read through the one capture reader (capture.h); each Ethernet
 * frame goes to port 1 (nicref_wire_rx) at its capture time, virtual time following the
 * timestamps relative to the first frame. The device was brought up by the reference driver with
 * one receive stack (driver_rxstack.h): one RQ of WQEs large enough for any session the TIR's
 * lro_max_msg_sz allows, re-posted as they complete, a Direct TIR with the LRO settings, the
 * vport promiscuous and one NIC_RX flow to the TIR. What LRO did is read from the trace only
 * (nicref/trace.h: lro_open, lro_merge, lro_end, lro_pass, then the CQE of each completion) and
 * from the CQEs in the CQ (their fields by name, T67/T68). After the last frame, time advances
 * until every open session's timer has fired, so no session is left open. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "driver.h"
#include "driver_rxstack.h"
#include "lro_explain.h"

#define MIN_FRAME 60u /* D-RX-5: frames have no FCS; the wire pads to 60 bytes */
#define MAX_FRAME 16384u

/* The CQE fields a completion reports (T67/T68, by their cqe64 names). */
#define CQE_FIELDS(X)                                                                           \
	X(byte_cnt) X(checksum) X(lro_num_seg) X(lro_tcp_psh) X(lro_abrt) X(lro_dup_ack_cnt)     \
	X(lro_min_ttl) X(lro_tcp_win) X(lro_ack_seq_num) X(lro_timestamp_is_valid)              \
	X(timestamp_h) X(timestamp_l) X(l4_hdr_type)
#define CQE_ENUM(f) CQE_##f,
enum { CQE_FIELDS(CQE_ENUM) CQE_NFIELDS };
#undef CQE_ENUM
#define CQE_NAME(f) #f,
static const char *const cqe_names[CQE_NFIELDS] = { CQE_FIELDS(CQE_NAME) };
#undef CQE_NAME

/* A completion as read from the CQ. */
struct xcqe {
	bool seen;
	unsigned opcode, syndrome;
	uint64_t f[CQE_NFIELDS];
};

enum fate { F_NONE, F_SESSION, F_ALONE, F_DROPPED, F_OTHER, F_SKIPPED };

struct xframe {
	uint64_t number, t_ns;
	uint32_t len;
	enum fate fate;
	int cause;      /* F_ALONE: the lro_pass cause */
	long session;   /* F_SESSION: the session */
	unsigned drop;  /* F_DROPPED: the rx_drop reason */
	bool padded;
	struct xcqe cqe; /* F_ALONE, F_OTHER */
	char why[96];   /* F_OTHER / F_SKIPPED: what the frame is */
};

struct xsession {
	uint16_t wqe;
	long *frames;
	size_t nframes, cap;
	uint64_t open_ns, end_ns;
	int cause;      /* 0 while open */
	long end_frame; /* the frame that ended it, -1 for none (timer, flush) */
	uint64_t num_seg, byte_cnt; /* as lro_end reported */
	struct xcqe cqe;
};

/* Who a CQE event's completion belongs to. */
struct owner {
	bool session;
	long i;
};

struct ctx {
	const struct lro_explain_opts *o;
	struct nicref_dev *dev;
	struct refdrv drv;
	struct refdrv_rx_stack st;
	/* the events of the current step */
	struct nicref_event *ev;
	size_t nev, evcap;
	bool oom;
	struct xframe *fr;
	size_t nfr, frcap;
	struct xsession *se;
	size_t nse, secap;
	long open_by_wqe[65536]; /* the open session of a WQE counter, or -1 */
	long ended_by_wqe[65536]; /* a session ended whose CQE has not been read, or -1 */
	size_t nopen;
	struct owner *own;
	size_t nown, owncap;
	unsigned recovered, backwards, non_eth, truncated, padded, long_frames;
	uint64_t max_session_ns;
	uint64_t base; /* the clock at the first frame: times are reported from it */
	size_t oldest; /* no session before it is open */
	struct refdrv_lro_caps caps;
	unsigned period; /* the TIR's period in force, µs (T45; 0: LRO inactive) */
};

/* ---- options ---------------------------------------------------------------------------- */

/* Profile settings --profile may change (struct nicref_profile). */
#define PROFILE_FIELDS(X)                                                                       \
	X(lro_max_sessions) X(lro_min_mss_size) X(lro_max_msg_sz_mode) X(hostmem_max_pages)     \
	X(timer_khz) X(log_max_objects) X(contexts_per_page)

void lro_explain_defaults(struct lro_explain_opts *o)
{
	memset(o, 0, sizeof *o);
	o->enable_mask = 3;
	o->timeout_usecs = 32;
	o->max_msg_sz = 64;
	nicref_profile_default(&o->profile);
	o->profile.hostmem_max_pages = 1u << 20; /* the buffers of a long capture: sparse, 4 GiB */
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* "name=value": the name into name[len], the value parsed. */
static int split_kv(const char *kv, char *name, size_t len, uint64_t *v, char *err, size_t elen)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv || (size_t)(eq - kv) >= len) {
		snprintf(err, elen, "'%s': give NAME=VALUE", kv);
		return -1;
	}
	memcpy(name, kv, (size_t)(eq - kv));
	name[eq - kv] = '\0';
	if (parse_u64(eq + 1, v)) {
		snprintf(err, elen, "'%s': the value is not a number", kv);
		return -1;
	}
	return 0;
}

int lro_explain_profile_set(struct lro_explain_opts *o, const char *kv, char *err, size_t len)
{
	char name[64];
	uint64_t v;
	if (split_kv(kv, name, sizeof name, &v, err, len))
		return -1;
	struct nicref_profile *p = &o->profile;
#define PROFILE_SET(f)                                                                          \
	if (strcmp(name, #f) == 0) {                                                            \
		if (8 * sizeof p->f < 64 && v >> (8 * sizeof p->f)) {                           \
			snprintf(err, len, "--profile %s: %" PRIu64 " does not fit", name, v);   \
			return -1;                                                              \
		}                                                                               \
		p->f = (__typeof__(p->f))v;                                                     \
		return 0;                                                                       \
	}
	PROFILE_FIELDS(PROFILE_SET)
#undef PROFILE_SET
	snprintf(err, len, "--profile: no setting '%s' (one of: %s)", name,
#define PROFILE_NAME(f) #f " "
		 PROFILE_FIELDS(PROFILE_NAME));
#undef PROFILE_NAME
	return -1;
}

int lro_explain_caps_set(struct lro_explain_opts *o, const char *kv, char *err, size_t len)
{
	char name[160], layout[80];
	uint64_t v;
	if (split_kv(kv, name, sizeof name, &v, err, len))
		return -1;
	const char *dot = strchr(name, '.');
	if (!dot || (size_t)(dot - name) >= sizeof layout) {
		snprintf(err, len, "--caps '%s': give LAYOUT.FIELD=VALUE (e.g. "
				   "per_protocol_networking_offload_caps.lro_psh_flag=0)", kv);
		return -1;
	}
	memcpy(layout, name, (size_t)(dot - name));
	layout[dot - name] = '\0';
	static const char *const why[] = {
		[NICREF_CAP_SET_UNKNOWN] = "no such capability (PRM T145, T147, T149)",
		[NICREF_CAP_SET_FIXED] = "it follows a profile setting or is a minimum: it cannot "
					 "be set here",
		[NICREF_CAP_SET_RAISE] = "above what the device offers: a capability can only be "
					 "lowered",
		[NICREF_CAP_SET_WIDTH] = "does not fit the field",
		[NICREF_CAP_SET_FULL] = "too many capabilities",
	};
	enum nicref_cap_set_result r = nicref_profile_cap_set(&o->profile, layout, dot + 1, v);
	if (r == NICREF_CAP_SET_OK)
		return 0;
	snprintf(err, len, "--caps %s: %s", kv, why[r]);
	return -1;
}

/* ---- the trace ---------------------------------------------------------------------------- */

static void on_event(void *p, const struct nicref_event *ev)
{
	struct ctx *c = p;
	if (c->nev == c->evcap) {
		size_t n = c->evcap ? 2 * c->evcap : 256;
		struct nicref_event *e = realloc(c->ev, n * sizeof *e);
		if (!e) {
			c->oom = true;
			return;
		}
		c->ev = e, c->evcap = n;
	}
	c->ev[c->nev++] = *ev;
}

static void *grow(void *a, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return a;
	size_t k = *cap ? 2 * *cap : 64;
	void *b = realloc(a, k * size);
	if (b)
		*cap = k;
	return b;
}

static int add_frame_to(struct xsession *s, long f)
{
	long *a = grow(s->frames, &s->cap, s->nframes, sizeof *a);
	if (!a)
		return -1;
	s->frames = a;
	s->frames[s->nframes++] = f;
	return 0;
}

static int push_owner(struct ctx *c, bool session, long i)
{
	struct owner *a = grow(c->own, &c->owncap, c->nown, sizeof *a);
	if (!a)
		return -1;
	c->own = a;
	c->own[c->nown++] = (struct owner){ session, i };
	return 0;
}

/* The events of one step (the frame cur, or -1 for time alone) into frames and sessions. */
static int digest(struct ctx *c, long cur)
{
	for (size_t k = 0; k < c->nev; k++) {
		const struct nicref_event *e = &c->ev[k];
		uint16_t wqe = (uint16_t)e->arg[2];
		switch (e->kind) {
		case NICREF_EV_LRO_OPEN: {
			struct xsession *a = grow(c->se, &c->secap, c->nse, sizeof *a);
			if (!a)
				return -1;
			c->se = a;
			struct xsession *s = &c->se[c->nse];
			*s = (struct xsession){ .wqe = wqe, .open_ns = e->time_ns - c->base,
						.end_frame = -1 };
			if (cur >= 0 && add_frame_to(s, cur))
				return -1;
			if (cur >= 0)
				c->fr[cur].fate = F_SESSION, c->fr[cur].session = (long)c->nse;
			c->open_by_wqe[wqe] = (long)c->nse++;
			c->nopen++;
			break;
		}
		case NICREF_EV_LRO_MERGE: {
			long i = c->open_by_wqe[wqe];
			if (i < 0 || cur < 0)
				break; /* not one this replay saw open: reported by the counts */
			if (add_frame_to(&c->se[i], cur))
				return -1;
			c->fr[cur].fate = F_SESSION, c->fr[cur].session = i;
			break;
		}
		case NICREF_EV_LRO_END: {
			long i = c->open_by_wqe[wqe];
			if (i < 0)
				break;
			struct xsession *s = &c->se[i];
			s->cause = (int)e->arg[3];
			s->num_seg = e->arg[4];
			s->byte_cnt = e->arg[5];
			s->end_ns = e->time_ns - c->base;
			s->end_frame = cur;
			if (s->end_ns - s->open_ns > c->max_session_ns)
				c->max_session_ns = s->end_ns - s->open_ns;
			c->open_by_wqe[wqe] = -1;
			c->ended_by_wqe[wqe] = i;
			c->nopen--;
			break;
		}
		case NICREF_EV_LRO_PASS:
			if (cur >= 0)
				c->fr[cur].fate = F_ALONE, c->fr[cur].cause = (int)e->arg[2];
			break;
		case NICREF_EV_RX_DROP:
			/* after lro_pass (wqe_space: the RQ went to ERR) the frame stays "alone" */
			if (cur >= 0 && c->fr[cur].fate != F_ALONE)
				c->fr[cur].fate = F_DROPPED;
			if (cur >= 0)
				c->fr[cur].drop = (unsigned)e->arg[0];
			break;
		case NICREF_EV_CQE: {
			if (e->arg[0] != c->st.cq.cqn)
				break; /* the send stack's CQ */
			uint16_t w = (uint16_t)e->arg[4];
			bool flush = (e->arg[2] == 13 || e->arg[2] == 14) && e->arg[3] == 5;
			if (flush) { /* T74 0x5: a WQE flushed after an error, no frame's */
				if (push_owner(c, false, -1))
					return -1;
			} else if (c->ended_by_wqe[w] >= 0) {
				if (push_owner(c, true, c->ended_by_wqe[w]))
					return -1;
				c->ended_by_wqe[w] = -1;
			} else if (push_owner(c, false, cur)) {
				return -1;
			}
			break;
		}
		default:
			break;
		}
	}
	c->nev = 0;
	return c->oom ? -1 : 0;
}

/* The CQEs of the step: each to its owner, its WQE back to the device; the RQ recovered when a
 * completion in error put it in ERR. */
static int poll(struct ctx *c)
{
	uint8_t q[64];
	size_t k = 0;
	bool error = false;
	int r;
	while ((r = refdrv_rx_poll(&c->drv, &c->st.cq, q)) == 1) {
		struct xcqe x = { .seen = true };
		x.opcode = (unsigned)refdrv_rx_cqe_field(q, "opcode");
		if (x.opcode == 13 || x.opcode == 14) {
			x.syndrome = (unsigned)refdrv_rx_cqe_field(q, "syndrome");
			error = true;
		} else {
			for (unsigned i = 0; i < CQE_NFIELDS; i++)
				x.f[i] = refdrv_rx_cqe_field(q, cqe_names[i]);
		}
		if (k < c->nown) {
			struct owner w = c->own[k++];
			if (w.session)
				c->se[w.i].cqe = x;
			else if (w.i >= 0)
				c->fr[w.i].cqe = x;
		}
		if (refdrv_rx_stack_done(&c->drv, &c->st,
					 (uint16_t)refdrv_rx_cqe_field(q, "wqe_counter")))
			return -1;
	}
	c->nown = 0;
	if (r < 0)
		return -1;
	if (error) {
		/* the model's trace says why; later frames need a receiving RQ again */
		c->recovered++;
		for (size_t i = 0; i < 65536; i++)
			c->open_by_wqe[i] = c->ended_by_wqe[i] = -1;
		c->nopen = 0;
		return refdrv_rx_stack_recover(&c->drv, &c->st);
	}
	return 0;
}

/* ---- a frame's own description ----------------------------------------------------------- */

/* What a frame no LRO event concerns is (D-LRO-9): not IP, not TCP, ... */
static void describe(const uint8_t *f, size_t len, char *why, size_t n)
{
	size_t at = 12;
	unsigned et = len >= 14 ? (unsigned)f[12] << 8 | f[13] : 0;
	while ((et == 0x8100 || et == 0x88A8) && at + 6 <= len) {
		at += 4;
		et = (unsigned)f[at] << 8 | f[at + 1];
	}
	if (et < 0x600) {
		snprintf(why, n, "an 802.3 length field (0x%04x), not an Ethernet II IP frame", et);
		return;
	}
	at += 2;
	if (et == 0x0800 && at + 10 <= len) {
		if (f[at + 9] != 6)
			snprintf(why, n, "IPv4 protocol %u, not TCP", f[at + 9]);
		else
			snprintf(why, n, "TCP over IPv4, yet no LRO event (lro_open, lro_merge, lro_pass)");
	} else if (et == 0x86DD && at + 7 <= len) {
		if (f[at + 6] != 6)
			snprintf(why, n, "IPv6 next header %u, not TCP", f[at + 6]);
		else
			snprintf(why, n, "TCP over IPv6, yet no LRO event (lro_open, lro_merge, lro_pass)");
	} else {
		snprintf(why, n, "ethertype 0x%04x, not IPv4 or IPv6", et);
	}
}

static const char *drop_name(unsigned r)
{
	static const char *const names[] = {
		"", "under 60 bytes", "over the MTU", "vport down", "vport filter", "steering",
		"self-loopback", "no TIR or RQ", "RQ not ready", "no WQE", "link down",
		"device halted",
	};
	return r < sizeof names / sizeof *names ? names[r] : "?";
}

/* ---- the replay ------------------------------------------------------------------------------ */

static int setup(struct ctx *c, FILE *err)
{
	const struct lro_explain_opts *o = c->o;
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile = o->profile;
	cfg.trace = on_event;
	cfg.trace_ctx = c;
	if (!(c->dev = nicref_dev_create(&cfg))) {
		fprintf(err, "nicref lro explain: the device refuses this profile (--profile, --caps)\n");
		return -1;
	}
	struct refdrv_ops ops = refdrv_ops_model(c->dev);
	struct refdrv_rx_stack_attr a;
	refdrv_rx_stack_defaults(&a);
	/* A WQE holds the largest session lro_max_msg_sz allows (D-LRO-6: 256-byte units of the IP
	 * payload, or from L2) with its headers and start padding, and any single frame. */
	uint32_t need = o->max_msg_sz * 256u + 1024u;
	a.wqe_bytes = (need > MAX_FRAME + 1024u ? need : MAX_FRAME + 1024u + 0u);
	a.wqe_bytes = (a.wqe_bytes + 4095u) & ~4095u;
	a.log_rq = 13; /* more WQEs than lro_max_sessions (at most 4096) can hold */
	a.log_cq = 14;
	a.tir.lro_enable_mask = o->enable_mask;
	a.tir.lro_timeout_usecs = o->timeout_usecs;
	a.tir.lro_max_msg_sz = o->max_msg_sz;
	if (refdrv_init(&c->drv, &ops) || refdrv_bring_up(&c->drv, REFDRV_INITIALIZED) ||
	    refdrv_rx_stack_up(&c->drv, &a, &c->st)) {
		fprintf(err, "nicref lro explain: the device's set-up failed: %s\n", c->drv.error);
		return -1;
	}
	if (refdrv_lro_caps_query(&c->drv, &c->caps)) {
		fprintf(err, "nicref lro explain: %s\n", c->drv.error);
		return -1;
	}
	c->period = refdrv_lro_period(&c->caps, o->timeout_usecs);
	c->nev = 0;
	return 0;
}

static int step_done(struct ctx *c, long cur, FILE *err)
{
	if (digest(c, cur) || poll(c)) {
		fprintf(err, "nicref lro explain: %s\n", c->oom ? "out of memory" : c->drv.error);
		return -1;
	}
	return 0;
}

/* Virtual time to `to` (from the first frame), stopping at each open session's deadline on the
 * way: a session opened at t0 ends at t0 + N (D-LRO-5; T147 allows up to 2N), so its CQE's
 * time is its deadline whatever the capture's next frame is. Sessions open in time order and
 * share the TIR's period: the oldest open one has the earliest deadline. */
static int advance_to(struct ctx *c, uint64_t to, FILE *err)
{
	for (;;) {
		while (c->oldest < c->nse && c->se[c->oldest].cause)
			c->oldest++;
		uint64_t now = nicref_clock_now(c->dev) - c->base;
		if (c->oldest >= c->nse || !c->period)
			break;
		uint64_t d = c->se[c->oldest].open_ns + c->period * 1000ull;
		if (d > to)
			break;
		size_t was = c->oldest;
		if (d > now)
			nicref_clock_advance(c->dev, d - now);
		if (step_done(c, -1, err))
			return -1;
		if (c->oldest == was && !c->se[was].cause)
			break; /* not ended at its deadline: it ends later, by `to` or by the drain */
	}
	uint64_t now = nicref_clock_now(c->dev) - c->base;
	if (to > now) {
		nicref_clock_advance(c->dev, to - now);
		return step_done(c, -1, err);
	}
	return 0;
}

/* Time until every open session's timer has fired (T147: between N and 2N). */
static int drain_sessions(struct ctx *c, FILE *err)
{
	uint64_t step = 2000ull * (c->period ? c->period : 1) + 1000;
	for (unsigned k = 0; c->nopen && k < 64; k++)
		if (advance_to(c, nicref_clock_now(c->dev) - c->base + step, err))
			return -1;
	return 0;
}

static int replay(struct ctx *c, FILE *err)
{
	const struct lro_explain_opts *o = c->o;
	char msg[512];
	struct capture *cap;
	if (capture_open(o->capture, &cap, msg, sizeof msg)) {
		fprintf(err, "nicref lro explain: %s\n", msg);
		return 2;
	}
	bool eth = capture_link(cap) == CAP_LINK_ETHERNET;
	struct cap_frame f;
	uint64_t t0 = 0, prev_t = 0, base = nicref_clock_now(c->dev);
	c->base = base;
	bool first = true;
	int r;
	static uint8_t buf[MAX_FRAME];
	bool tty = o->progress && isatty(2);
	while ((r = capture_next(cap, &f, msg, sizeof msg)) == 1) {
		struct xframe *a = grow(c->fr, &c->frcap, c->nfr, sizeof *a);
		if (!a) {
			fprintf(err, "nicref lro explain: out of memory\n");
			capture_close(cap);
			return 2;
		}
		c->fr = a;
		long cur = (long)c->nfr++;
		struct xframe *x = &c->fr[cur];
		*x = (struct xframe){ .number = f.number, .t_ns = f.t_ns, .len = f.caplen,
				      .session = -1, .cause = -1 };
		if (first)
			t0 = f.t_ns, first = false;
		if (!eth) {
			x->fate = F_SKIPPED;
			snprintf(x->why, sizeof x->why, "not Ethernet (%s link layer)",
				 cap_link_name(f.link));
			c->non_eth++;
			continue;
		}
		if (f.caplen < f.wirelen) {
			x->fate = F_SKIPPED;
			snprintf(x->why, sizeof x->why, "truncated: %u of %u bytes captured",
				 f.caplen, f.wirelen);
			c->truncated++;
			continue;
		}
		if (f.caplen > MAX_FRAME) {
			x->fate = F_SKIPPED;
			snprintf(x->why, sizeof x->why, "%u bytes: longer than any MTU (a frame the "
				 "capturing host coalesced?)", f.caplen);
			c->long_frames++;
			continue;
		}
		/* virtual time follows the capture's, from its first frame */
		uint64_t want = f.t_ns >= t0 ? f.t_ns - t0 : 0;
		c->backwards += f.t_ns < prev_t;
		prev_t = f.t_ns;
		/* the time step may end sessions: theirs, before the frame */
		if (advance_to(c, want, err)) {
			capture_close(cap);
			return 2;
		}
		size_t len = f.caplen;
		memcpy(buf, f.data, len);
		if (len < MIN_FRAME) {
			memset(buf + len, 0, MIN_FRAME - len);
			len = MIN_FRAME;
			x->padded = true;
			c->padded++;
		}
		x->fate = F_OTHER;
		describe(buf, len, x->why, sizeof x->why);
		nicref_wire_rx(c->dev, 1, buf, len);
		if (step_done(c, cur, err)) {
			capture_close(cap);
			return 2;
		}
		if (tty && (c->nfr & 0xFFFF) == 0)
			fprintf(err, "\rnicref lro explain: %zu frames", c->nfr);
	}
	if (tty && c->nfr > 0xFFFF)
		fprintf(err, "\n");
	capture_close(cap);
	if (r < 0) {
		fprintf(err, "nicref lro explain: %s\n", msg);
		return 2;
	}
	if (drain_sessions(c, err))
		return 2;
	return 0;
}

/* ---- output -------------------------------------------------------------------------------- */

static json_t *cqe_json(const struct xcqe *x)
{
	json_t *o = json_object();
	if (!x->seen)
		return o;
	json_object_set_new(o, "opcode", json_integer(x->opcode));
	if (x->opcode == 13 || x->opcode == 14) {
		json_object_set_new(o, "syndrome", json_integer(x->syndrome));
		return o;
	}
	/* T5: the lro_* fields and the LRO timestamps are valid only when lro_num_seg is not 0 */
	bool lro = x->f[CQE_lro_num_seg] != 0;
	for (unsigned i = 0; i < CQE_NFIELDS; i++)
		if (lro || i == CQE_byte_cnt || i == CQE_checksum || i == CQE_lro_num_seg ||
		    i == CQE_l4_hdr_type)
			json_object_set_new(o, cqe_names[i], json_integer((json_int_t)x->f[i]));
	return o;
}

static json_t *cause_json(int cause)
{
	json_t *o = json_object();
	const char *n = nicref_lro_cause_name((enum nicref_lro_cause)cause);
	json_object_set_new(o, "cause", json_string(n ? n : "?"));
	json_object_set_new(o, "text", json_string(n ? nicref_lro_cause_text(cause) : ""));
	json_object_set_new(o, "clause", json_string(n ? nicref_lro_cause_clause(cause) : ""));
	return o;
}

static json_t *build(const struct ctx *c)
{
	const struct lro_explain_opts *o = c->o;
	json_t *doc = json_object(), *tir = json_object(), *ss = json_array(), *al = json_array(),
	       *other = json_array(), *dr = json_array(), *sk = json_array(), *sum = json_object();
	json_object_set_new(doc, "capture", json_string(o->capture));
	json_object_set_new(tir, "lro_enable_mask", json_integer(o->enable_mask));
	json_object_set_new(tir, "lro_timeout_period_usecs", json_integer(o->timeout_usecs));
	json_object_set_new(tir, "lro_max_msg_sz", json_integer(o->max_msg_sz));
	json_object_set_new(tir, "period_in_force_usecs", json_integer(c->period));
	json_object_set_new(doc, "tir", tir);
	size_t merged = 0;
	for (size_t i = 0; i < c->nse; i++) {
		const struct xsession *s = &c->se[i];
		json_t *j = json_object(), *fl = json_array(), *end = cause_json(s->cause);
		for (size_t k = 0; k < s->nframes; k++)
			json_array_append_new(fl, json_integer((json_int_t)c->fr[s->frames[k]].number));
		merged += s->nframes;
		json_object_set_new(j, "frames", fl);
		json_object_set_new(j, "open_ns", json_integer((json_int_t)s->open_ns));
		json_object_set_new(j, "end_ns", json_integer((json_int_t)s->end_ns));
		json_object_set_new(end, "by_frame", s->end_frame >= 0 ? json_integer((json_int_t)
						c->fr[s->end_frame].number) : json_null());
		json_object_set_new(j, "end", end);
		json_object_set_new(j, "cqe", cqe_json(&s->cqe));
		json_array_append_new(ss, j);
	}
	for (size_t i = 0; i < c->nfr; i++) {
		const struct xframe *x = &c->fr[i];
		json_t *j = json_object();
		json_object_set_new(j, "frame", json_integer((json_int_t)x->number));
		if (x->fate == F_ALONE) {
			json_t *cj = cause_json(x->cause);
			json_object_update(j, cj);
			json_decref(cj);
			if (x->drop) {
				json_object_set_new(j, "dropped", json_integer(x->drop));
				json_object_set_new(j, "why_dropped", json_string(drop_name(x->drop)));
			}
			json_object_set_new(j, "cqe", cqe_json(&x->cqe));
			json_array_append(al, j);
		} else if (x->fate == F_OTHER) {
			json_object_set_new(j, "why", json_string(x->why));
			json_object_set_new(j, "cqe", cqe_json(&x->cqe));
			json_array_append(other, j);
		} else if (x->fate == F_DROPPED) {
			json_object_set_new(j, "reason", json_integer(x->drop));
			json_object_set_new(j, "why", json_string(drop_name(x->drop)));
			json_array_append(dr, j);
		} else if (x->fate == F_SKIPPED) {
			json_object_set_new(j, "why", json_string(x->why));
			json_array_append(sk, j);
		}
		json_decref(j);
	}
	json_object_set_new(doc, "sessions", ss);
	json_object_set_new(doc, "alone", al);
	json_object_set_new(doc, "not_lro", other);
	json_object_set_new(doc, "dropped", dr);
	json_object_set_new(doc, "skipped", sk);
	json_object_set_new(sum, "frames", json_integer((json_int_t)c->nfr));
	json_object_set_new(sum, "sessions", json_integer((json_int_t)c->nse));
	json_object_set_new(sum, "merged_frames", json_integer((json_int_t)merged));
	json_object_set_new(sum, "alone", json_integer((json_int_t)json_array_size(al)));
	json_object_set_new(sum, "not_lro", json_integer((json_int_t)json_array_size(other)));
	json_object_set_new(sum, "dropped", json_integer((json_int_t)json_array_size(dr)));
	json_object_set_new(sum, "skipped", json_integer((json_int_t)json_array_size(sk)));
	json_object_set_new(sum, "padded", json_integer(c->padded));
	json_object_set_new(sum, "time_backwards", json_integer(c->backwards));
	json_object_set_new(sum, "rq_recovered", json_integer(c->recovered));
	json_object_set_new(sum, "left_open", json_integer((json_int_t)c->nopen));
	json_object_set_new(doc, "summary", sum);
	return doc;
}

/* "1-5, 7, 9-10" */
static void ranges(FILE *out, const struct ctx *c, const struct xsession *s)
{
	for (size_t k = 0; k < s->nframes;) {
		size_t e = k;
		while (e + 1 < s->nframes &&
		       c->fr[s->frames[e + 1]].number == c->fr[s->frames[e]].number + 1)
			e++;
		fprintf(out, "%s%" PRIu64, k ? ", " : "", c->fr[s->frames[k]].number);
		if (e > k)
			fprintf(out, "-%" PRIu64, c->fr[s->frames[e]].number);
		k = e + 1;
	}
}

static void cqe_text(FILE *out, const struct xcqe *x)
{
	if (!x->seen) {
		fprintf(out, "    CQE: none read\n");
		return;
	}
	if (x->opcode == 13 || x->opcode == 14) {
		fprintf(out, "    CQE: opcode %u (error), syndrome 0x%x\n", x->opcode, x->syndrome);
		return;
	}
	const uint64_t *f = x->f;
	if (!f[CQE_lro_num_seg]) { /* T5: the lro_* fields are valid only for LRO packets */
		fprintf(out, "    CQE: byte_cnt %" PRIu64 ", checksum 0x%04" PRIx64
			     ", lro_num_seg 0, l4_hdr_type %" PRIu64 "\n",
			f[CQE_byte_cnt], f[CQE_checksum], f[CQE_l4_hdr_type]);
		return;
	}
	fprintf(out, "    CQE: byte_cnt %" PRIu64 ", checksum 0x%04" PRIx64 ", lro_num_seg %" PRIu64
		     ", l4_hdr_type %" PRIu64 ", lro_tcp_psh %" PRIu64 ", lro_abrt %" PRIu64
		     ", lro_dup_ack_cnt %" PRIu64 "\n",
		f[CQE_byte_cnt], f[CQE_checksum], f[CQE_lro_num_seg], f[CQE_l4_hdr_type],
		f[CQE_lro_tcp_psh], f[CQE_lro_abrt], f[CQE_lro_dup_ack_cnt]);
	fprintf(out, "         lro_min_ttl %" PRIu64 ", lro_tcp_win %" PRIu64 ", lro_ack_seq_num %"
		     PRIu64 ", lro_timestamp_is_valid %" PRIu64, f[CQE_lro_min_ttl],
		f[CQE_lro_tcp_win], f[CQE_lro_ack_seq_num], f[CQE_lro_timestamp_is_valid]);
	if (f[CQE_lro_timestamp_is_valid])
		fprintf(out, " (TSval %" PRIu64 ", TSecr %" PRIu64 ")", f[CQE_timestamp_h],
			f[CQE_timestamp_l]);
	fprintf(out, "\n");
}

static void cause_text(FILE *out, int cause)
{
	const char *n = nicref_lro_cause_name((enum nicref_lro_cause)cause);
	if (!n)
		fprintf(out, "cause %d (unknown)", cause);
	else
		fprintf(out, "%s: %s (%s)", n, nicref_lro_cause_text(cause),
			nicref_lro_cause_clause(cause));
}

static void text(FILE *out, const struct ctx *c)
{
	const struct lro_explain_opts *o = c->o;
	fprintf(out, "%s: %zu frames; TIR lro_enable_mask %u, lro_timeout_period_usecs %u (in "
		     "force: %u, T45), lro_max_msg_sz %u (%u bytes, mode %u)\n",
		o->capture, c->nfr, o->enable_mask, o->timeout_usecs, c->period, o->max_msg_sz,
		o->max_msg_sz * 256u, c->caps.max_msg_sz_mode);
	size_t merged = 0, alone = 0, other = 0, dropped = 0, skipped = 0;
	for (size_t i = 0; i < c->nse; i++) {
		const struct xsession *s = &c->se[i];
		merged += s->nframes;
		fprintf(out, "\nsession %zu: frames ", i + 1);
		ranges(out, c, s);
		fprintf(out, " (%zu segment%s), WQE %u, open %.6f-%.6f ms\n", s->nframes,
			s->nframes == 1 ? "" : "s", s->wqe, s->open_ns / 1e6, s->end_ns / 1e6);
		fprintf(out, "  ended");
		if (s->end_frame >= 0)
			fprintf(out, " by frame %" PRIu64, c->fr[s->end_frame].number);
		fprintf(out, ": ");
		if (s->cause)
			cause_text(out, s->cause);
		else
			fprintf(out, "still open");
		fprintf(out, "\n");
		cqe_text(out, &s->cqe);
	}
	bool head = false;
	for (size_t i = 0; i < c->nfr; i++) {
		const struct xframe *x = &c->fr[i];
		if (x->fate != F_ALONE)
			continue;
		if (!head)
			fprintf(out, "\nframes LRO delivered on their own (why not coalesced):\n");
		head = true;
		alone++;
		fprintf(out, "  frame %" PRIu64 ": ", x->number);
		cause_text(out, x->cause);
		fprintf(out, "\n");
		if (x->drop)
			fprintf(out, "    then dropped by the receive path: %s (rx_drop reason %u)\n",
				drop_name(x->drop), x->drop);
		else
			cqe_text(out, &x->cqe);
	}
	head = false;
	for (size_t i = 0; i < c->nfr; i++) {
		const struct xframe *x = &c->fr[i];
		if (x->fate != F_OTHER && x->fate != F_DROPPED && x->fate != F_SKIPPED)
			continue;
		if (!head)
			fprintf(out, "\nframes LRO did not see:\n");
		head = true;
		if (x->fate == F_OTHER) {
			other++;
			fprintf(out, "  frame %" PRIu64 ": %s: received as any frame\n", x->number,
				x->why);
		} else if (x->fate == F_DROPPED) {
			dropped++;
			fprintf(out, "  frame %" PRIu64 ": dropped by the receive path: %s (rx_drop "
				     "reason %u)\n", x->number, drop_name(x->drop), x->drop);
		} else {
			skipped++;
			fprintf(out, "  frame %" PRIu64 ": not replayed: %s\n", x->number, x->why);
		}
	}
	fprintf(out, "\n%zu frames: %zu sessions of %zu frames, %zu alone, %zu not LRO candidates, "
		     "%zu dropped, %zu not replayed\n",
		c->nfr, c->nse, merged, alone, other, dropped, skipped);
	if (c->padded)
		fprintf(out, "%u frames under 60 bytes were padded to 60 (the wire's minimum, "
			     "no FCS)\n", c->padded);
	if (c->backwards)
		fprintf(out, "%u frames are earlier than the frame before: replayed at the time "
			     "reached\n", c->backwards);
	if (c->recovered)
		fprintf(out, "the RQ went to error %u times (an error CQE) and was recovered\n",
			c->recovered);
	if (c->nopen)
		fprintf(out, "%zu sessions still open after the timers\n", c->nopen);
}

int lro_explain_run(const struct lro_explain_opts *o, FILE *out, FILE *err)
{
	struct ctx *c = calloc(1, sizeof *c);
	if (!c) {
		fprintf(err, "nicref lro explain: out of memory\n");
		return 2;
	}
	c->o = o;
	for (size_t i = 0; i < 65536; i++)
		c->open_by_wqe[i] = c->ended_by_wqe[i] = -1;
	int rc = 2;
	if (setup(c, err) == 0 && (rc = replay(c, err)) == 0) {
		if (o->json) {
			json_t *doc = build(c);
			json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			fputc('\n', out);
			json_decref(doc);
		} else {
			text(out, c);
		}
	}
	if (c->dev) {
		refdrv_fini(&c->drv);
		nicref_dev_destroy(c->dev);
	}
	for (size_t i = 0; i < c->nse; i++)
		free(c->se[i].frames);
	free(c->se);
	free(c->fr);
	free(c->ev);
	free(c->own);
	free(c);
	return rc;
}

/* ---- the command ----------------------------------------------------------------------------- */

#define EXPLAIN_USAGE                                                                            \
	"usage: nicref lro explain [--json] [--tir-lro K=V[,K=V...]] [--profile NAME=VALUE]...\n" \
	"                          [--caps LAYOUT.FIELD=VALUE]... CAPTURE\n"                      \
	"Replays the TCP segments of CAPTURE (pcap or pcapng, Ethernet) at their capture times\n"  \
	"into one RQ behind a Direct TIR with LRO (PRM §3.3.6) and prints each session: the\n"    \
	"frames merged (by capture index), why it ended (cause, text, PRM clause) and its CQE's\n" \
	"fields; then each frame delivered on its own with its cause, and the frames LRO did not\n" \
	"see (not TCP, dropped, not replayed), counted. After the last frame time advances until\n" \
	"every session's timer has fired. docs/lro_explain.md describes the output.\n"             \
	"\n"                                                                                       \
	"  --json                    the explanation as JSON (schema in docs/lro_explain.md)\n"    \
	"  --tir-lro K=V,...         the TIR's LRO group (T45): enable_mask (default 3),\n"        \
	"                            timeout_usecs (32), max_msg_sz (64, in 256-byte units)\n"     \
	"  --profile NAME=VALUE      a device profile setting (struct nicref_profile)\n"           \
	"  --caps LAYOUT.FIELD=VALUE a capability lowered, e.g.\n"                                 \
	"                            per_protocol_networking_offload_caps.lro_psh_flag=0\n"         \
	"  -h, --help                print this usage and exit\n"                                  \
	"\n"                                                                                       \
	"Exit status: 0 explained, 2 bad input (the file and frame named) or a usage error.\n"

static const char explain_usage[] = EXPLAIN_USAGE;

static int tir_lro(struct lro_explain_opts *o, const char *arg, char *err, size_t len)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", arg);
	for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv;
	     kv = strtok_r(NULL, ",", &save)) {
		char name[32];
		uint64_t v;
		if (split_kv(kv, name, sizeof name, &v, err, len))
			return -1;
		unsigned *dst = NULL, bits = 0;
		if (!strcmp(name, "enable_mask"))
			dst = &o->enable_mask, bits = 4; /* T45 10h[11:8] */
		else if (!strcmp(name, "timeout_usecs"))
			dst = &o->timeout_usecs, bits = 16; /* T45 10h[27:12] */
		else if (!strcmp(name, "max_msg_sz"))
			dst = &o->max_msg_sz, bits = 8; /* T45 10h[7:0] */
		if (!dst) {
			snprintf(err, len, "--tir-lro: no field '%s' (enable_mask, timeout_usecs, "
					   "max_msg_sz)", name);
			return -1;
		}
		if (v >> bits) {
			snprintf(err, len, "--tir-lro %s=%" PRIu64 ": more than its %u bits (PRM "
					   "T45 10h)", name, v, bits);
			return -1;
		}
		*dst = (unsigned)v;
	}
	return 0;
}

static int cmd_explain(const struct cli_call *call, int argc, char **argv)
{
	enum { OPT_JSON = 1000, OPT_TIR, OPT_PROFILE, OPT_CAPS };
	static const struct option longopts[] = { { "json", no_argument, NULL, OPT_JSON },
						  { "tir-lro", required_argument, NULL, OPT_TIR },
						  { "profile", required_argument, NULL, OPT_PROFILE },
						  { "caps", required_argument, NULL, OPT_CAPS },
						  CLI_HELP_OPTION,
						  { 0 } };
	struct lro_explain_opts o;
	char err[512];
	lro_explain_defaults(&o);
	o.progress = true;
	int opt;
	while ((opt = cli_getopt(call, argc, argv, "h", longopts, NULL)) != -1) {
		int bad = 0;
		if (opt == OPT_JSON)
			o.json = true;
		else if (opt == OPT_TIR)
			bad = tir_lro(&o, optarg, err, sizeof err);
		else if (opt == OPT_PROFILE)
			bad = lro_explain_profile_set(&o, optarg, err, sizeof err);
		else if (opt == OPT_CAPS)
			bad = lro_explain_caps_set(&o, optarg, err, sizeof err);
		else
			return cli_getopt_exit(opt);
		if (bad)
			return cli_usage_error(call, "%s", err);
	}
	if (argc == optind)
		return cli_usage_error(call, "missing CAPTURE");
	if (argc - optind > 1)
		return cli_usage_error(call, "unexpected operand '%s'", argv[optind + 1]);
	o.capture = argv[optind];
	return lro_explain_run(&o, stdout, stderr);
}

const struct cli_cmd lro_commands[] = {
	{ "explain", "which TCP segments of a capture LRO merges, and why each session ended",
	  explain_usage, cmd_explain, NULL },
	{ 0 }
};

/* nicref_link (nicref/link.h): two devices' ports joined in virtual time. The top layer: it
 * uses the public API only (nicref_wire_rx, nicref_clock_advance), as any caller could.
 *
 * Each direction has a pool of `capacity` frame slots allocated at create and a list of the
 * slots waiting, sorted by (due time, entry sequence): the sequence is shared by both
 * directions, so frames due at the same instant are delivered in the order they entered the
 * link, whichever way they go. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "nicref/link.h"
#include "nicref/nicref.h"

struct link_slot {
	uint64_t due, seq;
	size_t len;
};

struct link_dir {
	struct nicref_link_faults f;
	struct nicref_link_counters c;
	uint64_t rng;      /* splitmix64 state of the random faults */
	uint64_t ordinal;  /* frames entered so far */
	uint8_t *buf;      /* capacity * max_frame bytes */
	struct link_slot *slot;
	unsigned *free;    /* a stack of free slot indices */
	unsigned nfree;
	unsigned *wait;    /* waiting slots, sorted by (due, seq) */
	unsigned nwait;
	struct nicref_dev *to;
	unsigned to_port;
};

struct nicref_link {
	struct nicref_dev *dev[2];
	unsigned port[2];
	unsigned capacity;
	size_t max_frame;
	uint64_t now, seq, tick;
	bool busy; /* delivering or advancing: a nested call does nothing */
	struct link_dir dir[2];
};

void nicref_link_faults_default(struct nicref_link_faults *f)
{
	memset(f, 0, sizeof *f);
	f->reorder_ns = 1000;
}

static void dir_reset_pool(struct link_dir *d, unsigned capacity)
{
	d->nfree = capacity;
	for (unsigned i = 0; i < capacity; i++)
		d->free[i] = capacity - 1 - i; /* slot 0 on top */
	d->nwait = 0;
}

struct nicref_link *nicref_link_create(struct nicref_dev *a, unsigned port_a,
				       struct nicref_dev *b, unsigned port_b, unsigned capacity,
				       size_t max_frame)
{
	if (!a || !b || capacity == 0 || max_frame == 0 || max_frame > SIZE_MAX / capacity)
		return NULL;
	struct nicref_link *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->dev[0] = a;
	l->dev[1] = b;
	l->port[0] = port_a;
	l->port[1] = port_b;
	l->capacity = capacity;
	l->max_frame = max_frame;
	for (unsigned k = 0; k < 2; k++) {
		struct link_dir *d = &l->dir[k];
		d->buf = malloc((size_t)capacity * max_frame);
		d->slot = calloc(capacity, sizeof *d->slot);
		d->free = calloc(capacity, sizeof *d->free);
		d->wait = calloc(capacity, sizeof *d->wait);
		if (!d->buf || !d->slot || !d->free || !d->wait) {
			nicref_link_destroy(l);
			return NULL;
		}
		nicref_link_faults_default(&d->f);
		d->rng = k;
		d->to = l->dev[1 - k];
		d->to_port = l->port[1 - k];
		dir_reset_pool(d, capacity);
	}
	return l;
}

void nicref_link_destroy(struct nicref_link *l)
{
	if (!l)
		return;
	for (unsigned k = 0; k < 2; k++) {
		free(l->dir[k].buf);
		free(l->dir[k].slot);
		free(l->dir[k].free);
		free(l->dir[k].wait);
	}
	free(l);
}

int nicref_link_set_faults(struct nicref_link *l, enum nicref_link_dir dir,
			   const struct nicref_link_faults *f)
{
	if (!l || !f || (unsigned)dir > 1 || f->loss_ppm > NICREF_LINK_PPM ||
	    f->duplicate_ppm > NICREF_LINK_PPM || f->reorder_ppm > NICREF_LINK_PPM ||
	    f->ce_ppm > NICREF_LINK_PPM || f->nloss > NICREF_LINK_MAX_LIST ||
	    f->nduplicate > NICREF_LINK_MAX_LIST || f->nreorder > NICREF_LINK_MAX_LIST ||
	    f->nce > NICREF_LINK_MAX_LIST || f->delay_ns > NICREF_LINK_MAX_NS ||
	    f->reorder_ns > NICREF_LINK_MAX_NS)
		return -1;
	struct link_dir *d = &l->dir[dir];
	d->f = *f;
	d->rng = f->seed ^ (uint64_t)dir;
	return 0;
}

int nicref_link_set_tick(struct nicref_link *l, uint64_t tick_ns)
{
	if (!l || tick_ns > NICREF_LINK_MAX_NS)
		return -1;
	l->tick = tick_ns;
	return 0;
}

uint64_t nicref_link_now(const struct nicref_link *l)
{
	return l ? l->now : 0;
}

void nicref_link_counters(const struct nicref_link *l, enum nicref_link_dir dir,
			  struct nicref_link_counters *out)
{
	if (!out)
		return;
	if (!l) {
		memset(out, 0, sizeof *out);
		return;
	}
	*out = l->dir[(unsigned)dir & 1u].c;
	out->queued = l->dir[(unsigned)dir & 1u].nwait;
}

static bool listed(const uint64_t *list, unsigned n, uint64_t ordinal)
{
	for (unsigned i = 0; i < n; i++)
		if (list[i] == ordinal)
			return true;
	return false;
}

/* One draw: whether a fault of probability ppm holds. Always draws (docs/vectors.md: four draws
 * per frame whatever is set, so one setting does not move another's). */
static bool draw(struct link_dir *d, uint32_t ppm)
{
	return nicref_splitmix64(&d->rng) % NICREF_LINK_PPM < ppm;
}

/* Sets an ECN-capable IPv4 or IPv6 packet's ECN field to CE (RFC 3168 §5), correcting the IPv4
 * header checksum incrementally (RFC 1624 eqn. 3). One or two VLAN tags are skipped. false when
 * the frame is not IP or not ECN-capable (not-ECT, 00b): it is left alone. */
static bool mark_ce(uint8_t *f, size_t len)
{
	size_t off = 12;
	for (int tags = 0; tags < 2 && off + 2 <= len; tags++) {
		unsigned t = (unsigned)f[off] << 8 | f[off + 1];
		if (t != 0x8100 && t != 0x88A8)
			break;
		off += 4;
	}
	if (off + 2 > len)
		return false;
	unsigned type = (unsigned)f[off] << 8 | f[off + 1];
	uint8_t *ip = f + off + 2;
	size_t room = len - off - 2;
	if (type == 0x0800 && room >= 20 && (ip[0] >> 4) == 4) {
		if ((ip[1] & 3u) == 0)
			return false;
		unsigned old = (unsigned)ip[0] << 8 | ip[1];
		ip[1] |= 3u;
		unsigned neu = (unsigned)ip[0] << 8 | ip[1];
		uint32_t sum = (uint16_t)~((unsigned)ip[10] << 8 | ip[11]);
		sum += (uint16_t)~old;
		sum += neu;
		while (sum >> 16)
			sum = (sum & 0xFFFFu) + (sum >> 16);
		sum = (uint16_t)~sum;
		ip[10] = (uint8_t)(sum >> 8);
		ip[11] = (uint8_t)sum;
		return true;
	}
	if (type == 0x86DD && room >= 40 && (ip[0] >> 4) == 6) {
		/* traffic class: ip[0][3:0] ip[1][7:4]; its ECN bits are ip[1][5:4] */
		if ((ip[1] & 0x30u) == 0)
			return false;
		ip[1] |= 0x30u;
		return true;
	}
	return false;
}

static int later(const struct link_slot *x, const struct link_slot *y)
{
	return x->due > y->due || (x->due == y->due && x->seq > y->seq);
}

/* Puts a copy of frame into a free slot of d, due at `due`: the slot, or -1 (counted) when
 * full. */
static int enqueue(struct nicref_link *l, struct link_dir *d, const uint8_t *frame, size_t len,
		   uint64_t due)
{
	if (d->nfree == 0) {
		d->c.overflow++;
		return -1;
	}
	unsigned s = d->free[--d->nfree];
	memcpy(d->buf + (size_t)s * l->max_frame, frame, len);
	d->slot[s] = (struct link_slot){ .due = due, .seq = l->seq++, .len = len };
	unsigned i = d->nwait;
	while (i > 0 && later(&d->slot[d->wait[i - 1]], &d->slot[s])) {
		d->wait[i] = d->wait[i - 1];
		i--;
	}
	d->wait[i] = s;
	d->nwait++;
	return (int)s;
}

int nicref_link_tx(struct nicref_link *l, const struct nicref_dev *from, unsigned port,
		   const uint8_t *frame, size_t len)
{
	unsigned k;
	if (!l || (!frame && len))
		return -1;
	if (from == l->dev[0] && port == l->port[0])
		k = NICREF_LINK_AB;
	else if (from == l->dev[1] && port == l->port[1])
		k = NICREF_LINK_BA;
	else
		return -1;
	struct link_dir *d = &l->dir[k];
	const struct nicref_link_faults *f = &d->f;
	uint64_t n = d->ordinal++;
	d->c.entered++;
	/* The four draws, in a fixed order, whatever holds. */
	bool r_loss = draw(d, f->loss_ppm), r_ce = draw(d, f->ce_ppm),
	     r_dup = draw(d, f->duplicate_ppm), r_reorder = draw(d, f->reorder_ppm);
	if (r_loss || listed(f->loss, f->nloss, n) ||
	    (f->loss_every && (n + 1) % f->loss_every == 0)) {
		d->c.lost++;
		return 0;
	}
	if (len > l->max_frame) {
		d->c.overflow++;
		return 0;
	}
	bool ce = r_ce || listed(f->ce, f->nce, n) ||
		  (f->ce_threshold && d->nwait >= f->ce_threshold);
	bool dup = r_dup || listed(f->duplicate, f->nduplicate, n);
	bool hold = r_reorder || listed(f->reorder, f->nreorder, n);
	uint64_t due = l->now + f->delay_ns + (hold ? f->reorder_ns : 0);
	int s = enqueue(l, d, frame, len, due);
	if (s < 0)
		return 0;
	if (ce) {
		/* Marked in the link's copy; a duplicate is a copy of the marked frame. */
		frame = d->buf + (size_t)s * l->max_frame;
		if (mark_ce((uint8_t *)d->buf + (size_t)s * l->max_frame, len))
			d->c.ce_marked++;
		else
			d->c.ce_not_ect++;
	}
	if (hold)
		d->c.reordered++;
	if (dup && enqueue(l, d, frame, len, due) >= 0)
		d->c.duplicated++;
	return 0;
}

/* The direction whose first waiting frame is due first (by due time, then sequence), or -1
 * when none is due by `by`. */
static int next_due(const struct nicref_link *l, uint64_t by)
{
	int best = -1;
	for (int k = 0; k < 2; k++) {
		const struct link_dir *d = &l->dir[k];
		if (d->nwait == 0 || d->slot[d->wait[0]].due > by)
			continue;
		if (best < 0 ||
		    later(&l->dir[best].slot[l->dir[best].wait[0]], &d->slot[d->wait[0]]))
			best = k;
	}
	return best;
}

static unsigned deliver(struct nicref_link *l)
{
	unsigned n = 0;
	int k;
	while (n < NICREF_LINK_MAX_BURST && (k = next_due(l, l->now)) >= 0) {
		struct link_dir *d = &l->dir[k];
		unsigned s = d->wait[0];
		d->nwait--;
		memmove(d->wait, d->wait + 1, d->nwait * sizeof *d->wait);
		/* The slot stays taken while the far device reads it: frames it sends meanwhile
		 * go to other slots. */
		(void)nicref_wire_rx(d->to, d->to_port, d->buf + (size_t)s * l->max_frame,
				     d->slot[s].len);
		d->free[d->nfree++] = s;
		d->c.delivered++;
		n++;
	}
	return n;
}

unsigned nicref_link_deliver(struct nicref_link *l)
{
	if (!l || l->busy)
		return 0;
	l->busy = true;
	unsigned n = deliver(l);
	l->busy = false;
	return n;
}

static uint64_t earliest_due(const struct nicref_link *l)
{
	uint64_t t = UINT64_MAX;
	for (int k = 0; k < 2; k++)
		if (l->dir[k].nwait && l->dir[k].slot[l->dir[k].wait[0]].due < t)
			t = l->dir[k].slot[l->dir[k].wait[0]].due;
	return t;
}

void nicref_link_advance(struct nicref_link *l, uint64_t ns)
{
	if (!l || l->busy)
		return;
	l->busy = true;
	uint64_t end = ns > UINT64_MAX - l->now ? UINT64_MAX : l->now + ns;
	bool stalled = deliver(l) == NICREF_LINK_MAX_BURST;
	for (;;) {
		uint64_t t = end, due = earliest_due(l);
		if (due < t)
			t = due > l->now ? due : l->now;
		if (t == l->now && stalled)
			t = end; /* a storm of frames with no delay: leave the instant */
		if (l->tick && t - l->now > l->tick)
			t = l->now + l->tick;
		/* A device's timer (a retransmission) sends at its deadline: the interval ends
		 * there, so the frame leaves then and the peer can answer before the next one. */
		for (int k = 0; k < 2; k++) {
			uint64_t d, at = nicref_clock_now(l->dev[k]);
			if (nicref_clock_next_deadline(l->dev[k], &d) && d > at && d - at < t - l->now)
				t = l->now + (d - at);
		}
		uint64_t dt = t - l->now;
		l->now = t;
		if (dt) {
			nicref_clock_advance(l->dev[0], dt);
			nicref_clock_advance(l->dev[1], dt);
		}
		stalled = deliver(l) == NICREF_LINK_MAX_BURST;
		if (l->now == end)
			break;
	}
	l->busy = false;
}

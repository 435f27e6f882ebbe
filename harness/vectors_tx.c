/* The send path of docs/vectors.md ("Send path"): tx_setup brings up the reference driver's SQ
 * stack (harness/driver_sq.h); frames compares what the device transmitted (ops.wire_tx,
 * captured here, and written to --pcap); cqes compares the CQEs the device wrote, read from the
 * CQ buffer with the owner bit. The wqe and sq_ring steps are vectors_wqe.c. Like every step,
 * each checks its value whole (r->checking) before it drives the device. */
#include <stdlib.h>
#include <string.h>

#include "driver_sq.h"
#include "pcap_write.h"
#include "vectors_int.h"

struct vec_frame {
	uint32_t off, len, kept; /* in bytes[]; its length on the wire; the bytes kept */
	unsigned port;
};

/* Made once a run, on first use: no buffer grows with what a vector asks for. */
struct vec_capture {
	uint8_t bytes[MAX_TX_CAPTURE];
	struct vec_frame fr[MAX_TX_FRAMES];
	unsigned n;
	size_t used;
	uint64_t lost; /* frames past the bounds since the last frames step */
	uint8_t cqe[MAX_STEP_CQES][64];
	size_t ncqe;
};

static struct vec_capture *capture(struct run *r)
{
	if (!r->cap)
		r->cap = calloc(1, sizeof *r->cap);
	return r->cap;
}

void vec_wire_tx(void *ctx, unsigned port, const uint8_t *frame, size_t len)
{
	struct run *r = ctx;
	if (r->opt->pcap && r->dev)
		(void)pcap_out_frame(r->opt->pcap, r->pcap_base_ns + nicref_clock_now(r->dev), frame,
				     len); /* a failed write is reported when the file closes */
	struct vec_capture *c = capture(r);
	if (!c)
		return;
	uint32_t kept = len < MAX_TX_FRAME ? (uint32_t)len : MAX_TX_FRAME;
	if (c->n == MAX_TX_FRAMES || kept > MAX_TX_CAPTURE - c->used) {
		c->lost++;
		return;
	}
	memcpy(c->bytes + c->used, frame, kept);
	c->fr[c->n++] = (struct vec_frame){ (uint32_t)c->used, len > UINT32_MAX ? UINT32_MAX : (uint32_t)len,
					     kept, port };
	c->used += kept;
}

static void capture_clear(struct vec_capture *c)
{
	if (c) {
		c->n = 0;
		c->used = 0;
		c->lost = 0;
	}
}

void vec_tx_start(struct run *r)
{
	r->tx = (struct vec_tx){ .stage = -1 };
	vec_rx_start(r);
	capture_clear(r->cap);
}

void vec_tx_end(struct run *r)
{
	if (r->drv_live)
		refdrv_fini(r->drv);
	r->drv_live = false;
	r->tx.up = false;
	/* The next test's frames come after this one's in the capture file's time. */
	if (r->opt->pcap && r->dev)
		r->pcap_base_ns += nicref_clock_now(r->dev) + 1000;
}

void vec_tx_free(struct run *r)
{
	if (r->drv_live)
		refdrv_fini(r->drv);
	r->drv_live = false;
	free(r->drv);
	free(r->sq);
	free(r->cap);
	vec_rx_free(r);
	r->drv = NULL;
	r->sq = NULL;
	r->cap = NULL;
}

/* ---- name spaces of the fields ---- */

static enum name_space ns_cqe(const char *key)
{
	return strcmp(key, "s_wqe_opcode") == 0 ? NS_WQE_OPCODE : NS_NONE;
}

/* ---- tx_setup ---- */

/* A number of obj under key, named "what.key" in messages. */
static int num_in(struct run *r, const char *what, const json_t *obj, const char *key,
		  unsigned bits, uint64_t dflt, uint64_t *out)
{
	char field[64];
	const json_t *v = json_object_get(obj, key);
	snprintf(field, sizeof field, "%s%s%s", what ? what : "", what ? "." : "", key);
	*out = dflt;
	return v ? vnum_at(r, field, v, NS_NONE, bits, out) : 0;
}

/* The values of a tx_setup into a (its defaults already there): 0, or -1 after vbad. */
static int setup_values(struct run *r, const json_t *s, struct refdrv_sq_stack_attr *a)
{
	const json_t *data = json_object_get(s, "data");
	uint64_t lsq, lcq, csz, inl, flush, sig;
	if (num_in(r, NULL, s, "log_sq_size", 64, a->log_sq_size, &lsq) ||
	    num_in(r, NULL, s, "log_cq_size", 64, a->log_cq_size, &lcq) ||
	    num_in(r, NULL, s, "cqe_sz", 1, a->cqe_sz, &csz) ||
	    num_in(r, NULL, s, "min_wqe_inline_mode", 3, 0, &inl) ||
	    num_in(r, NULL, s, "flush_in_error_en", 1, a->flush_in_error_en, &flush) ||
	    num_in(r, NULL, s, "wq_signature", 1, a->wq_signature, &sig) ||
	    num_in(r, "data", data, "addr", 64, a->data_addr, &a->data_addr) ||
	    num_in(r, "data", data, "size", 64, a->data_size, &a->data_size))
		return -1;
	a->log_sq_size = (unsigned)lsq;
	a->log_cq_size = (unsigned)lcq;
	a->cqe_sz = (unsigned)csz;
	if (json_object_get(s, "min_wqe_inline_mode")) /* else the vport's minimum */
		a->min_wqe_inline_mode = (int)inl;
	a->flush_in_error_en = flush != 0;
	a->wq_signature = sig != 0;
	/* The stack's own buffers (driver_sq.h placement): from the SQ buffer to the CQ's record. */
	uint64_t lo = a->sq_buf, hi = a->cq_dbr + 64;
	if (lsq > 16) {
		vbad(r, "log_sq_size", "%llu: at most 16 (sq_wqebb_counter is 16 bits and wraps at "
				       "0xFFFF, PRM §7.4.1.1)", (unsigned long long)lsq);
		return -1;
	}
	if (lcq > 16) {
		vbad(r, "log_cq_size", "%llu: at most 16 (a bound of the runner: the reference "
				       "driver initialises every CQE, PRM §7.12.3.1)",
		     (unsigned long long)lcq);
		return -1;
	}
	if (a->data_size == 0) {
		vbad(r, "data.size", "the data region has at least one byte");
		return -1;
	}
	if (vec_range_ok(r, "data.addr", a->data_addr, a->data_size) != 0)
		return -1;
	if (a->data_addr < hi && a->data_addr + (a->data_size - 1) >= lo) {
		vbad(r, "data", "0x%llx + 0x%llx bytes overlaps the SQ stack's buffers at "
				"0x%llx-0x%llx (docs/vectors.md \"Send path\")",
		     (unsigned long long)a->data_addr, (unsigned long long)a->data_size,
		     (unsigned long long)lo, (unsigned long long)(hi - 1));
		return -1;
	}
	if (r->tx.stage != REFDRV_INITIALIZED) {
		vbad(r, NULL, "needs a bring_up to \"initialized\" before it (in the group's setup or "
			      "the test)");
		return -1;
	}
	if (r->tx.setup) {
		vbad(r, NULL, "the send queue is set up once a test: this is a second tx_setup");
		return -1;
	}
	return 0;
}

void st_tx_setup(struct run *r, const json_t *s)
{
	struct refdrv_sq_stack_attr a;
	refdrv_sq_stack_defaults(&a);
	if (setup_values(r, s, &a) != 0)
		return;
	r->tx.setup = true;
	r->tx.log_sq_size = a.log_sq_size;
	r->tx.wq_signature = a.wq_signature;
	r->tx.data_addr = a.data_addr;
	r->tx.data_size = a.data_size;
	r->tx.data_next = 0;
	if (r->checking)
		return;
	if (!r->drv_live || r->drv->reached != REFDRV_INITIALIZED) {
		vfail(r, "tx_setup: the bring_up did not reach initialized");
		return;
	}
	if (!r->sq && !(r->sq = calloc(1, sizeof *r->sq))) {
		vbad(r, NULL, "out of memory");
		return;
	}
	/* Like bring_up: the driver's commands and events are not the test's. */
	if (refdrv_sq_stack_up(r->drv, &a, r->sq) != 0)
		vfail(r, "tx_setup: %s", r->drv->error);
	else
		r->tx.up = true;
	r->ev_cursor = r->nev;
}

bool vec_tx_ready(struct run *r, const char *what)
{
	if (!r->tx.setup) {
		vbad(r, NULL, "%s needs a tx_setup before it (in the group's setup or the test)", what);
		return false;
	}
	if (!r->checking && !r->tx.up) {
		vfail(r, "%s: no send queue (the tx_setup failed)", what);
		return false;
	}
	return true;
}

/* ---- frames and cqes: an ordered list of what came, compared with what a step expects ---- */

struct seq {
	struct run *r;
	const char *what; /* "frames", "cqes" */
	size_t n;         /* items that came */
	bool (*match)(const struct seq *q, const json_t *want, size_t got);
	void (*differ)(const struct seq *q, const json_t *want, size_t got, size_t i,
		       struct diffs *d);
	void (*describe)(const struct seq *q, size_t got, char *buf, size_t len);
};

/* The expected items, in order, among those that came (exact, the default: and no other). */
static void seq_compare(const json_t *spec, struct diffs *d, void *ctx)
{
	const struct seq *q = ctx;
	const json_t *ex = json_object_get(spec, "exact"), *want;
	bool exact = !ex || json_is_true(ex);
	size_t i, at = 0;
	json_array_foreach(json_object_get(spec, "expect"), i, want)
	{
		if (exact && at >= q->n) {
			diff_add(d, "%s[%zu]: expected, but only %zu came", q->what, i, q->n);
			return;
		}
		if (exact && !q->match(q, want, at)) {
			q->differ(q, want, at, i, d);
			return;
		}
		while (!exact && at < q->n && !q->match(q, want, at))
			at++;
		if (at == q->n) {
			diff_add(d, "%s[%zu]: not found (in order) among the %zu that came", q->what, i,
				 q->n);
			return;
		}
		at++;
	}
	if (exact && at < q->n) {
		char t[256];
		q->describe(q, at, t, sizeof t);
		diff_add(d, "%s: %zu more than expected, the first: %s", q->what, q->n - at, t);
	}
}

static void seq_run(struct run *r, const json_t *s, const struct seq *q)
{
	const json_t *alts = json_object_get(s, "any_of");
	if (alts) {
		resolve_alternatives(r, alts, seq_compare, (void *)q);
		return;
	}
	struct diffs d = { 0 };
	seq_compare(s, &d, (void *)q);
	diffs_fail(r, &d, NULL);
	lines_free(&d.l);
}

/* expect/exact or any_of (each alternative with its own), each item checked by check. */
static int seq_check(struct run *r, const json_t *s,
		     int (*check)(struct run *r, const char *at, const json_t *item))
{
	const json_t *alts = json_object_get(s, "any_of"), *item;
	size_t i, k;
	if (alts && (json_object_get(s, "expect") || json_object_get(s, "exact"))) {
		vbad(r, "any_of", "replaces expect and exact: each alternative has its own");
		return -1;
	}
	if (!alts && !json_object_get(s, "expect")) {
		vbad(r, NULL, "needs expect (an empty list: nothing came) or any_of");
		return -1;
	}
	for (k = 0; k < (alts ? json_array_size(alts) : 1); k++) {
		const json_t *list = json_object_get(alts ? json_array_get(alts, k) : s, "expect");
		json_array_foreach(list, i, item)
		{
			char at[64];
			if (alts)
				snprintf(at, sizeof at, "any_of[%zu].expect[%zu]", k, i);
			else
				snprintf(at, sizeof at, "expect[%zu]", i);
			if (check(r, at, item))
				return -1;
		}
	}
	return 0;
}

/* ---- frames ---- */

static int frame_check(struct run *r, const char *at, const json_t *item)
{
	char f[96];
	const json_t *port = json_object_get(item, "port");
	snprintf(f, sizeof f, "%s.hex", at);
	if (vec_hex_bytes(r, f, json_object_get(item, "hex"), MAX_TX_FRAME, false) < 0)
		return -1;
	snprintf(f, sizeof f, "%s.port", at);
	return port ? cmp_check(r, f, port, NS_NONE, 8) : 0;
}

static bool frame_matches(const struct seq *q, const json_t *want, size_t got)
{
	static uint8_t w[MAX_TX_FRAME];
	const struct vec_frame *fr = &q->r->cap->fr[got];
	const json_t *port = json_object_get(want, "port");
	long n = hex_parse(json_string_value(json_object_get(want, "hex")), w, sizeof w);
	return (!port || cmp_holds(port, NS_NONE, fr->port)) && n >= 0 && (uint32_t)n == fr->len &&
	       fr->kept == fr->len && memcmp(w, q->r->cap->bytes + fr->off, (size_t)n) == 0;
}

static void frame_describe(const struct seq *q, size_t got, char *buf, size_t len)
{
	const struct vec_frame *fr = &q->r->cap->fr[got];
	char hx[2 * 16 + 1];
	size_t k = fr->kept < 16 ? fr->kept : 16;
	hex_format(q->r->cap->bytes + fr->off, k, hx);
	snprintf(buf, len, "port %u, %u bytes: %s%s", fr->port, fr->len, hx, fr->kept > k ? "..." : "");
}

static void frame_differ(const struct seq *q, const json_t *want, size_t got, size_t i,
			 struct diffs *d)
{
	static uint8_t w[MAX_TX_FRAME];
	const struct vec_frame *fr = &q->r->cap->fr[got];
	const uint8_t *b = q->r->cap->bytes + fr->off;
	const json_t *port = json_object_get(want, "port");
	long n = hex_parse(json_string_value(json_object_get(want, "hex")), w, sizeof w);
	char t[160];
	if (port && !cmp_holds(port, NS_NONE, fr->port)) {
		cmp_text(port, NS_NONE, t, sizeof t);
		diff_add(d, "frames[%zu].port: expected %s, got %u", i, t, fr->port);
	}
	size_t k = 0, m = (size_t)n < fr->kept ? (size_t)n : fr->kept;
	while (k < m && w[k] == b[k])
		k++;
	if (k < m)
		diff_add(d, "frames[%zu]: byte %zu: expected 0x%02x, got 0x%02x (%ld bytes expected, "
			    "%u sent)", i, k, w[k], b[k], n, fr->len);
	else if ((uint32_t)n != fr->len)
		diff_add(d, "frames[%zu]: expected %ld bytes, got %u (the same up to byte %zu)", i, n,
			 fr->len, m);
	else if (fr->kept != fr->len)
		diff_add(d, "frames[%zu]: %u bytes, more than the runner keeps (%u)", i, fr->len,
			 MAX_TX_FRAME);
}

void step_frames(struct run *r, const json_t *s)
{
	if (seq_check(r, s, frame_check) || r->checking)
		return;
	struct vec_capture *c = capture(r);
	if (!c) {
		vbad(r, NULL, "out of memory");
		return;
	}
	if (c->lost)
		vfail(r, "%llu frames came past what the runner keeps between two frames steps (%u "
			 "frames, %u bytes): they are not compared", (unsigned long long)c->lost,
		      MAX_TX_FRAMES, MAX_TX_CAPTURE);
	struct seq q = { r, "frames", c->n, frame_matches, frame_differ, frame_describe };
	seq_run(r, s, &q);
	capture_clear(c);
}

/* ---- cqes ---- */

/* The layout an expected CQE names (cqe64 by default), or NULL after vbad. */
static const struct nicref_layout *cqe_layout(struct run *r, const char *at, const json_t *item)
{
	const json_t *v = json_object_get(item, "layout");
	const char *name = v ? json_string_value(v) : "cqe64";
	if (name && (!strcmp(name, "cqe64") || !strcmp(name, "err_cqe")))
		return nicref_layout_find(name);
	char f[96];
	snprintf(f, sizeof f, "%s.layout", at);
	vbad(r, f, "a CQE is read through cqe64 or err_cqe (PRM T67/T68, T73/T74)");
	return NULL;
}

/* The item's fields without "layout" (a new reference), or NULL. */
static json_t *cqe_fields(const json_t *item)
{
	json_t *f = json_copy((json_t *)item);
	if (f)
		json_object_del(f, "layout");
	return f;
}

static int cqe_check(struct run *r, const char *at, const json_t *item)
{
	const struct nicref_layout *l = cqe_layout(r, at, item);
	json_t *f = l ? cqe_fields(item) : NULL;
	int rc = f ? fields_check(r, at, l, f, 64, ns_cqe) : -1;
	json_decref(f);
	return rc;
}

static void cqe_compare(const struct seq *q, const json_t *want, size_t got, const char *at,
			struct diffs *d)
{
	const struct nicref_layout *l = nicref_layout_find(
		json_object_get(want, "layout") ? json_string_value(json_object_get(want, "layout"))
						: "cqe64");
	json_t *f = cqe_fields(want);
	fields_compare(d, at, l, f, q->r->cap->cqe[got], 64, ns_cqe);
	json_decref(f);
}

static bool cqe_matches(const struct seq *q, const json_t *want, size_t got)
{
	struct diffs d = { 0 };
	cqe_compare(q, want, got, "", &d);
	bool ok = d.l.n == 0;
	lines_free(&d.l);
	return ok;
}

static void cqe_differ(const struct seq *q, const json_t *want, size_t got, size_t i,
		       struct diffs *d)
{
	char at[32];
	snprintf(at, sizeof at, "cqes[%zu]", i);
	cqe_compare(q, want, got, at, d);
}

static void cqe_describe(const struct seq *q, size_t got, char *buf, size_t len)
{
	const uint8_t *c = q->r->cap->cqe[got];
	uint64_t op = refdrv_field_get(c, 64, "cqe64", "opcode");
	const char *l = op == 13 || op == 14 ? "err_cqe" : "cqe64"; /* T68 opcodes */
	char s[48];
	value_text(NS_WQE_OPCODE, refdrv_field_get(c, 64, l, "s_wqe_opcode"), s, sizeof s);
	snprintf(buf, len, "opcode %llu, wqe_counter %llu, s_wqe_opcode %s%s%llu",
		 (unsigned long long)op, (unsigned long long)refdrv_field_get(c, 64, l, "wqe_counter"),
		 s, op == 13 || op == 14 ? ", syndrome " : ", byte_cnt ",
		 (unsigned long long)refdrv_field_get(c, 64, l, op == 13 || op == 14 ? "syndrome"
										  : "byte_cnt"));
}

/* The CQ a cqes step reads: "cq" "tx" (the tx_setup's) or "rx" (the rx_setup's); by default
 * the send path's when there is one, else the receive path's. NULL after vbad / vfail. */
static struct refdrv_cq *cqes_cq(struct run *r, const json_t *s, bool *ok)
{
	const json_t *cq = json_object_get(s, "cq");
	bool named;
	struct refdrv_cq *qp_cq = vec_roce_cq(r, s, &named, ok);
	if (named)
		return qp_cq; /* a QP's CQ (vectors_roce_qp.c) */
	const char *which = cq ? json_string_value(cq) : (r->tx.setup || !r->rx.setup ? "tx" : "rx");
	*ok = false;
	if (!which || (strcmp(which, "tx") && strcmp(which, "rx"))) {
		vbad(r, "cq", "a cqes step reads the \"tx\" or the \"rx\" CQ, or a QP's "
			      "\"send\" or \"recv\" CQ");
		return NULL;
	}
	if (!strcmp(which, "tx")) {
		if (!vec_tx_ready(r, "a cqes step"))
			return NULL;
		*ok = true;
		return r->checking ? NULL : &r->sq->cq;
	}
	if (!vec_rx_ready(r, "a cqes step of the rx CQ"))
		return NULL;
	*ok = true;
	return r->checking ? NULL : vec_rx_cq(r);
}

void step_cqes(struct run *r, const json_t *s)
{
	bool ok;
	struct refdrv_cq *cq = cqes_cq(r, s, &ok);
	if (!ok || seq_check(r, s, cqe_check) || r->checking)
		return;
	struct vec_capture *c = capture(r);
	if (!c) {
		vbad(r, NULL, "out of memory");
		return;
	}
	/* §7.12.3.2: the CQEs software owns, from the consumer counter on. */
	int rc = 1;
	for (c->ncqe = 0; c->ncqe < MAX_STEP_CQES; c->ncqe++)
		if ((rc = refdrv_cq_poll(r->drv, cq, c->cqe[c->ncqe])) != 1)
			break;
	if (rc < 0) {
		vbad(r, NULL, "host memory could not read the CQ back: %s", r->drv->error);
		return;
	}
	if (c->ncqe == MAX_STEP_CQES)
		vfail(r, "%u CQEs or more came since the previous cqes step: the runner compares at "
			 "most %u", MAX_STEP_CQES, MAX_STEP_CQES);
	struct seq q = { r, "cqes", c->ncqe, cqe_matches, cqe_differ, cqe_describe };
	seq_run(r, s, &q);
}

/* One frame's prediction as one JSON object, the line format of --jsonl and --expect
 * (docs/replay.md "The --jsonl format", docs/schemas/replay.schema.json). Written with
 * snprintf into a buffer made once: no allocation per frame. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nicref/layout.h"
#include "replay_int.h"

/* The drops of the rx_drop event (docs/rx.md "Events"), the counters each moves (D-RX-8: the
 * PPCNT groups' names, T486's "Received errors" as vport_rx_errors) and what its num names. */
static const struct {
	const char *name, *counters, *num;
} drops[REPLAY_DROP_MAX + 1] = {
	[1] = { "undersize", "if_in_errors,ether_stats_undersize_pkts", "port" },
	[2] = { "over_mtu", "a_frame_too_long_errors,dot3stats_frame_too_long,if_in_errors,"
			    "ether_stats_oversize_pkts", "port" },
	[3] = { "vport_down", "if_in_discards", NULL },
	[4] = { "vport_filter", "", NULL },
	[5] = { "steering", "if_in_discards", NULL },
	[6] = { "self_loopback", "", "tir" },
	[7] = { "no_destination", "if_in_discards,vport_rx_errors", "tir" },
	[8] = { "rq_not_rdy", "rx_discards,vport_rx_errors", "rq" },
	/* and the RQ's rx_drop_counter, in its next CQE (D-RX-4) */
	[9] = { "no_wqe", "rx_discards,vport_rx_errors", "rq" },
	[10] = { "port_down", "", "port" },
	[11] = { "halted", "", "port" }, /* a fatal error halted the device (D-H-2) */
};

const char *replay_drop_name(unsigned reason)
{
	return reason && reason <= REPLAY_DROP_MAX ? drops[reason].name : "unknown";
}

const char *replay_drop_counters(unsigned reason)
{
	return reason && reason <= REPLAY_DROP_MAX ? drops[reason].counters : "";
}

const char *replay_drop_num_kind(unsigned reason)
{
	return reason && reason <= REPLAY_DROP_MAX ? drops[reason].num : NULL;
}

/* The CQE fields of a prediction, by the name T68 gives their meaning in a responder CQE:
 * `rx_drop_counter` is cqe64's s_wqe_opcode (T68), `timestamp` timestamp_h:timestamp_l. An
 * error CQE (opcode 13/14, T73) has its own: `err` rows. owner and signature are left out:
 * the owner bit is the ring's phase, which depends on the CQ's size, not on the frame. */
enum { ANY, GOOD, ERR };
static const struct cqe_row {
	const char *name, *layout, *field, *field_lo;
	int when;
	const struct nicref_field *f, *lo;
} rows_init[] = {
	{ "opcode", "cqe64", "opcode", NULL, ANY, NULL, NULL },
	{ "syndrome", "err_cqe", "syndrome", NULL, ERR, NULL, NULL },
	{ "vendor_error_syndrome", "err_cqe", "vendor_error_syndrome", NULL, ERR, NULL, NULL },
	{ "byte_cnt", "cqe64", "byte_cnt", NULL, ANY, NULL, NULL },
	{ "srqn_user_index", "cqe64", "srqn_user_index", NULL, ANY, NULL, NULL },
	{ "flow_tag", "cqe64", "flow_tag", NULL, ANY, NULL, NULL },
	{ "wqe_counter", "cqe64", "wqe_counter", NULL, ANY, NULL, NULL },
	{ "l2_ok", "cqe64", "l2_ok", NULL, GOOD, NULL, NULL },
	{ "l3_ok", "cqe64", "l3_ok", NULL, GOOD, NULL, NULL },
	{ "l4_ok", "cqe64", "l4_ok", NULL, GOOD, NULL, NULL },
	{ "l3_hdr_type", "cqe64", "l3_hdr_type", NULL, GOOD, NULL, NULL },
	{ "l4_hdr_type", "cqe64", "l4_hdr_type", NULL, GOOD, NULL, NULL },
	{ "ip_frag", "cqe64", "ip_frag", NULL, GOOD, NULL, NULL },
	{ "ip_ext_opts", "cqe64", "ip_ext_opts", NULL, GOOD, NULL, NULL },
	{ "cv", "cqe64", "cv", NULL, GOOD, NULL, NULL },
	{ "up", "cqe64", "up", NULL, GOOD, NULL, NULL },
	{ "cfi", "cqe64", "cfi", NULL, GOOD, NULL, NULL },
	{ "vid", "cqe64", "vid", NULL, GOOD, NULL, NULL },
	{ "checksum", "cqe64", "checksum", NULL, GOOD, NULL, NULL },
	{ "rx_hash_type", "cqe64", "rx_hash_type", NULL, GOOD, NULL, NULL },
	{ "rx_hash_result", "cqe64", "rx_hash_result", NULL, GOOD, NULL, NULL },
	{ "rx_drop_counter", "cqe64", "s_wqe_opcode", NULL, GOOD, NULL, NULL },
	{ "lro_num_seg", "cqe64", "lro_num_seg", NULL, GOOD, NULL, NULL },
	{ "se", "cqe64", "se", NULL, GOOD, NULL, NULL },
	{ "timestamp", "cqe64", "timestamp_h", "timestamp_l", GOOD, NULL, NULL },
};
#define NROWS (sizeof rows_init / sizeof rows_init[0])
static struct cqe_row rows[NROWS];
static bool rows_ready;

static void rows_resolve(void)
{
	if (rows_ready)
		return;
	for (size_t i = 0; i < NROWS; i++) {
		rows[i] = rows_init[i];
		const struct nicref_layout *l = nicref_layout_find(rows[i].layout);
		rows[i].f = nicref_layout_field(l, rows[i].field);
		rows[i].lo = rows[i].field_lo ? nicref_layout_field(l, rows[i].field_lo) : NULL;
	}
	rows_ready = true;
}

unsigned replay_cqe_fields(void)
{
	return NROWS;
}

const char *replay_cqe_field_name(unsigned i)
{
	return i < NROWS ? rows_init[i].name : NULL;
}

static bool is_error(const uint8_t cqe[64])
{
	return (cqe[63] >> 4) == 13 || (cqe[63] >> 4) == 14;
}

/* Whether row i belongs to this CQE (good fields of a responder CQE, error fields of an error
 * CQE). */
static bool row_applies(unsigned i, const uint8_t cqe[64])
{
	return rows_init[i].when == ANY || (rows_init[i].when == ERR) == is_error(cqe);
}

/* nicref_field_get for a CQE: a field within one big-endian dword (every CQE field but the
 * wide ones) by a load, a shift and a mask; the others through nicref_field_get. */
static void field_get(const uint8_t cqe[64], const struct nicref_field *f, uint64_t *v)
{
	uint64_t dw = f->bit_offset / 32;
	if (f->bit_width >= 1 && f->bit_width <= 32 && (f->bit_offset + f->bit_width - 1) / 32 == dw &&
	    (dw + 1) * 4 <= 64 && !(f->flags & NICREF_FIELD_ARRAY)) {
		const uint8_t *q = cqe + dw * 4;
		uint32_t w = (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
		unsigned sh = (unsigned)(32 - f->bit_offset % 32 - f->bit_width);
		*v = (w >> sh) & (f->bit_width == 32 ? 0xFFFFFFFFu : (1u << f->bit_width) - 1u);
		return;
	}
	(void)nicref_field_get(cqe, 64, f, v);
}

uint64_t replay_cqe_field(const uint8_t cqe[64], unsigned i)
{
	uint64_t v = 0, lo = 0;
	rows_resolve();
	if (i >= NROWS || !rows[i].f)
		return 0;
	field_get(cqe, rows[i].f, &v);
	if (rows[i].lo) {
		field_get(cqe, rows[i].lo, &lo);
		v = v << 32 | lo;
	}
	return v;
}

#define PUT(...)                                                                                \
	do {                                                                                    \
		int k_ = snprintf(buf + at, at < cap ? cap - at : 0, __VA_ARGS__);              \
		at += k_ > 0 ? (size_t)k_ : 0;                                                  \
	} while (0)

/* What PUT does (snprintf's truncation: at most cap - at - 1 bytes and a NUL, `at` advanced by
 * the whole length), for a string of known length and for an unsigned number, without
 * snprintf's format walk: the per-frame line's literals and numbers. */
static size_t put_raw(char *buf, size_t at, size_t cap, const char *s, size_t n)
{
	if (at < cap) {
		size_t room = cap - at - 1, w = n < room ? n : room;
		memcpy(buf + at, s, w);
		buf[at + w] = '\0';
	}
	return at + n;
}
#define PUT_LIT(lit) (at = put_raw(buf, at, cap, lit, sizeof(lit) - 1))

static size_t put_u64(char *buf, size_t at, size_t cap, uint64_t v)
{
	char d[20], r[20];
	size_t k = 0;
	do
		d[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	for (size_t i = 0; i < k; i++)
		r[i] = d[k - 1 - i];
	return put_raw(buf, at, cap, r, k);
}

static size_t put_str(char *buf, size_t at, size_t cap, const char *s)
{
	return put_raw(buf, at, cap, s, strlen(s));
}

/* ,"name":value without snprintf: a line holds some 25 of these, and --jsonl writes one line
 * per frame. */
static size_t put_field(char *buf, size_t at, size_t cap, bool first, const char *name,
			uint64_t v)
{
	char digits[20];
	size_t n = strlen(name), k = 0;
	do
		digits[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	if (at + n + k + 4 >= cap)
		return at;
	if (!first)
		buf[at++] = ',';
	buf[at++] = '"';
	memcpy(buf + at, name, n);
	at += n;
	buf[at++] = '"';
	buf[at++] = ':';
	while (k)
		buf[at++] = digits[--k];
	buf[at] = '\0';
	return at;
}

static const char *outcome_of(const struct replay_pred *p)
{
	bool good = false, err = false;
	if (p->skip != REPLAY_SKIP_NONE)
		return "skipped";
	for (unsigned i = 0; i < p->ncopies; i++) {
		if (p->copy[i].drop || !p->copy[i].polled)
			continue;
		if (is_error(p->copy[i].cqe))
			err = true;
		else
			good = true;
	}
	return good ? "delivered" : err ? "error" : "dropped";
}

size_t replay_jsonl_line(const struct replay_pred *p, char *buf, size_t cap)
{
	size_t at = 0;
	rows_resolve();
	PUT_LIT("{\"frame\":");
	at = put_u64(buf, at, cap, p->frame);
	PUT_LIT(",\"t_ns\":");
	at = put_u64(buf, at, cap, p->t_ns);
	PUT_LIT(",\"len\":");
	at = put_u64(buf, at, cap, p->skip != REPLAY_SKIP_NONE ? p->wirelen : p->len);
	PUT_LIT(",\"outcome\":\"");
	at = put_str(buf, at, cap, outcome_of(p));
	PUT_LIT("\"");
	if (p->skip != REPLAY_SKIP_NONE) {
		PUT(",\"reason\":\"%s\"}", replay_skip_name(p->skip));
		return at < cap ? at : cap - 1;
	}
	if (p->padded)
		PUT(",\"padded\":true");
	if (p->converted)
		PUT(",\"converted\":true");
	PUT_LIT(",\"copies\":[");
	for (unsigned i = 0; i < p->ncopies; i++) {
		const struct replay_copy *c = &p->copy[i];
		if (i)
			PUT_LIT(",");
		PUT_LIT("{");
		if (c->drop) {
			const char *kind = replay_drop_num_kind(c->reason), *cnt = replay_drop_counters(c->reason);
			PUT("\"drop\":\"%s\"", replay_drop_name(c->reason));
			if (kind)
				PUT(",\"%s\":%d", kind, c->num);
			PUT(",\"counters\":[");
			for (const char *s = cnt; *s;) {
				size_t n = strcspn(s, ",");
				PUT("%s\"%.*s\"", s == cnt ? "" : ",", (int)n, s);
				s += n + (s[n] == ',');
			}
			PUT("]}");
			continue;
		}
		if (c->rq >= 0) {
			PUT_LIT("\"rq\":");
			at = put_u64(buf, at, cap, (uint64_t)c->rq);
			PUT_LIT(",\"cqe\":{");
		} else {
			PUT("\"rq\":%d,\"cqe\":{", c->rq);
		}
		bool first = true;
		for (unsigned k = 0; k < NROWS; k++) {
			if (!row_applies(k, c->cqe))
				continue;
			at = put_field(buf, at, cap, first, rows[k].name, replay_cqe_field(c->cqe, k));
			first = false;
		}
		PUT_LIT("}}");
	}
	PUT_LIT("]");
	if (p->lost) /* copies the device made past the prediction's slots: counted, not written */
		PUT(",\"copies_lost\":%u", p->lost);
	PUT_LIT("}");
	return at < cap ? at : cap - 1;
}

/* A path as a JSON string: '"' and '\\' escaped, control bytes as \u00XX. */
static size_t put_path(char *buf, size_t at, size_t cap, const char *s)
{
	PUT("\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			PUT("\\%c", c);
		else if (c < 0x20)
			PUT("\\u%04x", c);
		else
			PUT("%c", c);
	}
	PUT("\"");
	return at;
}

size_t replay_jsonl_header(const struct replay_opts *o, char *buf, size_t cap)
{
	size_t at = 0;
	PUT("{\"nicref_replay\":%d,\"setup\":", REPLAY_SCHEMA_VERSION);
	at = put_path(buf, at, cap, o->setup);
	PUT(",\"capture\":");
	at = put_path(buf, at, cap, o->capture);
	PUT(",\"port\":%u}", o->port);
	return at < cap ? at : cap - 1;
}

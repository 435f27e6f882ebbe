/* A record of stimuli (repro_record.h) read back and replayed on a model device, written as a
 * draft golden vector: every stimulus a step of the vector (bar_write, bar_read, mem_write,
 * advance_ns, rx_frame, dma_fault), and the model's response to it as the expectation (the
 * value of each BAR read, the violations the model reports, the frames it transmits, and the
 * host memory it writes during the last stimulus: the one of the finding). The expectation is
 * what the model does, not yet what the spec says: the file says it is a draft (docs/repro.md).
 * Frames in and out also go to a pcap (harness/pcap_write.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "nicref/nicref.h"
#include "jsonval.h"
#include "pcap_write.h"
#include "repro_int.h"

/* Bounds the vector runner keeps (harness/vectors_int.h): BAR offsets below 0x10000, at most
 * 65536 bytes in a mem_write or mem_expect, 8 fault ranges, frames of at most 65536 bytes. */
#define VEC_BAR_LIMIT 0x10000u
#define VEC_HEX_MAX 65536u
#define VEC_FAULTS_MAX 8u

/* ---- the record ---- */

void repro_rec_free(struct repro_rec *rec)
{
	for (size_t i = 0; i < rec->n; i++)
		free(rec->s[i].buf);
	free(rec->s);
	memset(rec, 0, sizeof *rec);
}

static void rec_drop(struct repro_rec *rec)
{
	for (size_t i = 0; i < rec->n; i++)
		free(rec->s[i].buf);
	rec->n = 0;
}

static struct repro_stim_rec *rec_push(struct repro_rec *rec)
{
	if (rec->n == rec->cap) {
		size_t cap = rec->cap ? 2 * rec->cap : 1024;
		struct repro_stim_rec *s = realloc(rec->s, cap * sizeof *s);
		if (!s)
			return NULL;
		rec->s = s;
		rec->cap = cap;
	}
	struct repro_stim_rec *s = &rec->s[rec->n++];
	memset(s, 0, sizeof *s);
	return s;
}

/* The bytes of "HEX" after the operand (hex_parse's digits, harness/jsonval.h). */
static int parse_bytes(const char *p, struct repro_stim_rec *s)
{
	long n = hex_length(p);
	if (n < 0)
		return -1;
	s->len = (size_t)n;
	s->buf = malloc(s->len ? s->len : 1);
	if (!s->buf)
		return -1;
	return hex_parse(p, s->buf, s->len) == n ? 0 : -1;
}

/* A host memory write "ADDR HEX" that continues the write m (addr just past it): appended to
 * it, 0; otherwise -1 and m is unchanged. Host memory writes do nothing to the device, so two
 * in a row are one. */
static int mem_append(struct repro_stim_rec *m, const char *p, unsigned ln)
{
	unsigned long long a;
	int off = 0;
	if (sscanf(p, " %llx %n", &a, &off) != 1 || off == 0 || a != m->a + m->len)
		return -1;
	struct repro_stim_rec t = { 0 };
	if (parse_bytes(p + off, &t) != 0 || m->len + t.len > 4096u * 64u) {
		free(t.buf);
		return -1;
	}
	uint8_t *b = realloc(m->buf, m->len + t.len);
	if (!b) {
		free(t.buf);
		return -1;
	}
	memcpy(b + m->len, t.buf, t.len);
	free(t.buf);
	m->buf = b;
	m->len += t.len;
	m->line = ln;
	return 0;
}

int repro_rec_load(const char *path, struct repro_rec *rec, char *err, size_t errlen)
{
	memset(rec, 0, sizeof *rec);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	unsigned ln = 0;
	bool created = false;
	char pending = 0; /* an R or K waiting for its partner */
	unsigned pending_line = 0;
	int rc = 0;
	while ((got = getline(&line, &cap, f)) >= 0) {
		ln++;
		while (got && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = 0;
		char k = line[0];
		if (pending && k != (pending == 'R' ? 'K' : 'R')) {
			/* a reset without a clear (or the reverse) after the start: host memory or the
			 * device outlives it, which no vector step can reproduce */
			snprintf(err, errlen, "%s:%u: a %s alone: a vector starts from a device at "
				 "power-on with empty host memory and has no step for this", path,
				 pending_line, pending == 'R' ? "device reset (nicref_dev_reset)"
							      : "host memory clear (nicref_hostmem_clear)");
			rc = -1;
			break;
		}
		if (k == 'C' || (pending && (k == 'R' || k == 'K'))) {
			rec_drop(rec);
			rec->first_line = ln;
			created = true;
			pending = 0;
			continue;
		}
		if (k == 'R' || k == 'K') {
			pending = k;
			pending_line = ln;
			continue;
		}
		if (!created) {
			snprintf(err, errlen, "%s:%u: a stimulus before the device was created", path, ln);
			rc = -1;
			break;
		}
		if (k == 'M' && rec->n && rec->s[rec->n - 1].kind == 'M' &&
		    mem_append(&rec->s[rec->n - 1], line + 1, ln) == 0)
			continue; /* contiguous with the write before it: one step */
		struct repro_stim_rec *s = rec_push(rec);
		if (!s) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
			break;
		}
		s->kind = k;
		s->line = ln;
		unsigned long long a = 0, b = 0, c = 0;
		int off = 0, ok;
		switch (k) {
		case 'W':
			ok = sscanf(line + 1, " %llx %llx", &a, &b) == 2;
			break;
		case 'r':
			ok = sscanf(line + 1, " %llx", &a) == 1;
			break;
		case 'T':
			ok = sscanf(line + 1, " %llu", &a) == 1;
			break;
		case 'M':
		case 'F':
			ok = sscanf(line + 1, " %llx %n", &a, &off) == 1 && off > 0 &&
			     parse_bytes(line + 1 + off, s) == 0;
			break;
		case 'X':
			ok = sscanf(line + 1, " %llx %llx %llx", &a, &b, &c) == 3;
			s->len = (size_t)c;
			break;
		default:
			ok = 0;
		}
		s->a = a;
		s->b = b;
		if (!ok) {
			snprintf(err, errlen, "%s:%u: not a stimulus line of the recorder "
				 "(harness/repro_record.h): '%.40s'", path, ln, line);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && pending) {
		snprintf(err, errlen, "%s:%u: the record ends with a %s alone", path, pending_line,
			 pending == 'R' ? "reset" : "clear");
		rc = -1;
	}
	if (rc == 0 && !created) {
		snprintf(err, errlen, "%s: no device was created (is the target linked with the "
			 "recorder, harness/repro_record.c?)", path);
		rc = -1;
	}
	rec->lines = ln;
	free(line);
	fclose(f);
	if (rc)
		repro_rec_free(rec);
	return rc;
}

/* ---- the model's responses ---- */

struct range {
	uint64_t addr, len;
};

struct frame {
	unsigned port;
	uint8_t *bytes;
	size_t len;
};

struct resp {
	struct nicref_dev *dev;
	struct range *w; /* host memory the device wrote during the stimulus */
	size_t nw, capw;
	struct frame *fo; /* frames out during the stimulus */
	size_t nfo, capfo;
	unsigned viol[64]; /* violations during the stimulus */
	size_t nviol, viol_lost;
};

static int on_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	struct resp *r = ctx;
	if (r->nw == r->capw) {
		size_t cap = r->capw ? 2 * r->capw : 64;
		struct range *w = realloc(r->w, cap * sizeof *w);
		if (w) {
			r->w = w;
			r->capw = cap;
		}
	}
	if (r->nw < r->capw)
		r->w[r->nw++] = (struct range){ addr, len };
	return nicref_hostmem_write(r->dev, addr, buf, len);
}

static void on_wire_tx(void *ctx, unsigned port, const uint8_t *frame, size_t len)
{
	struct resp *r = ctx;
	if (r->nfo == r->capfo) {
		size_t cap = r->capfo ? 2 * r->capfo : 16;
		struct frame *fo = realloc(r->fo, cap * sizeof *fo);
		if (!fo)
			return;
		r->fo = fo;
		r->capfo = cap;
	}
	uint8_t *b = malloc(len ? len : 1);
	if (!b)
		return;
	memcpy(b, frame, len);
	r->fo[r->nfo++] = (struct frame){ port, b, len };
}

static void on_event(void *ctx, const struct nicref_event *ev)
{
	struct resp *r = ctx;
	if (ev->kind != NICREF_EV_VIOLATION)
		return;
	if (r->nviol < sizeof r->viol / sizeof r->viol[0])
		r->viol[r->nviol++] = (unsigned)ev->arg[0];
	else
		r->viol_lost++;
}

static void resp_clear(struct resp *r)
{
	for (size_t i = 0; i < r->nfo; i++)
		free(r->fo[i].bytes);
	r->nfo = 0;
	r->nw = 0;
	r->nviol = 0;
	r->viol_lost = 0;
}

static int cmp_range(const void *x, const void *y)
{
	const struct range *a = x, *b = y;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* The written ranges sorted and merged where they touch. */
static size_t ranges_merge(struct range *w, size_t n)
{
	if (!n)
		return 0;
	qsort(w, n, sizeof *w, cmp_range);
	size_t m = 0;
	for (size_t i = 1; i < n; i++) {
		if (w[i].addr <= w[m].addr + w[m].len) {
			uint64_t end = w[i].addr + w[i].len;
			if (end > w[m].addr + w[m].len)
				w[m].len = end - w[m].addr;
		} else {
			w[++m] = w[i];
		}
	}
	return m + 1;
}

/* ---- the vector ---- */

static char *hex_of(const uint8_t *b, size_t n)
{
	static const char d[] = "0123456789abcdef";
	char *s = malloc(2 * n + 1);
	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		s[2 * i] = d[b[i] >> 4];
		s[2 * i + 1] = d[b[i] & 15];
	}
	s[2 * n] = 0;
	return s;
}

static json_t *jhex(uint64_t v)
{
	char s[24];
	snprintf(s, sizeof s, "0x%" PRIx64, v);
	return json_string(s);
}

static json_t *jbytes(const uint8_t *b, size_t n)
{
	char *s = hex_of(b, n);
	json_t *j = s ? json_string(s) : NULL;
	free(s);
	return j;
}

struct out {
	FILE *f;
	size_t steps;
	long *stim_of_step;
	size_t cap;
	int failed;
};

static void put_step(struct out *o, const char *key, json_t *val, long stim)
{
	json_t *step = json_object();
	json_object_set_new(step, key, val);
	char *s = json_dumps(step, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(step);
	if (!s) {
		o->failed = 1;
		return;
	}
	if (o->steps == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 1024;
		long *p = realloc(o->stim_of_step, cap * sizeof *p);
		if (!p) {
			free(s);
			o->failed = 1;
			return;
		}
		o->stim_of_step = p;
		o->cap = cap;
	}
	fprintf(o->f, "%s            %s", o->steps ? ",\n" : "", s);
	o->stim_of_step[o->steps++] = stim;
	free(s);
}

/* The stimulus as a step; -1 with err when no step can say it. */
static int stim_step(struct out *o, const struct repro_stim_rec *s, long i, uint32_t read_value,
		     unsigned *faults, char *err, size_t errlen)
{
	switch (s->kind) {
	case 'W':
	case 'r':
		if (s->a >= VEC_BAR_LIMIT) {
			snprintf(err, errlen, "record line %u: BAR0 offset 0x%llx: a vector addresses "
				 "offsets below 0x%x only", s->line, (unsigned long long)s->a,
				 VEC_BAR_LIMIT);
			return -1;
		}
		if (s->kind == 'W')
			put_step(o, "bar_write", json_pack("{s:o,s:o}", "offset", jhex(s->a), "value",
							   jhex(s->b)), i);
		else
			put_step(o, "bar_read", json_pack("{s:o,s:o}", "offset", jhex(s->a), "expect",
							  jhex(read_value)), i);
		return 0;
	case 'T':
		put_step(o, "advance_ns", json_integer((json_int_t)s->a), i);
		return 0;
	case 'M':
		for (size_t at = 0; at < s->len || (at == 0 && s->len == 0); at += VEC_HEX_MAX) {
			size_t n = s->len - at < VEC_HEX_MAX ? s->len - at : VEC_HEX_MAX;
			if (n == 0)
				break; /* an empty write changes nothing */
			put_step(o, "mem_write", json_pack("{s:o,s:o}", "addr", jhex(s->a + at), "hex",
							   jbytes(s->buf + at, n)), i);
		}
		return 0;
	case 'F':
		if (s->len == 0 || s->len > VEC_HEX_MAX) {
			snprintf(err, errlen, "record line %u: a frame of %zu bytes: an rx_frame holds "
				 "1 to %u", s->line, s->len, VEC_HEX_MAX);
			return -1;
		}
		put_step(o, "rx_frame", json_pack("{s:I,s:o}", "port", (json_int_t)s->a, "hex",
						  jbytes(s->buf, s->len)), i);
		return 0;
	case 'X':
		if (++*faults > VEC_FAULTS_MAX || s->b == 0) {
			snprintf(err, errlen, "record line %u: fault range %u: a vector holds 1 to %u "
				 "ranges of at least one byte", s->line, *faults, VEC_FAULTS_MAX);
			return -1;
		}
		put_step(o, "dma_fault", json_pack("{s:o,s:o,s:b,s:b}", "addr", jhex(s->a), "len",
						   jhex(s->b), "read", (s->len & NICREF_FAULT_READ) != 0,
						   "write", (s->len & NICREF_FAULT_WRITE) != 0), i);
		return 0;
	}
	snprintf(err, errlen, "record line %u: unknown stimulus '%c'", s->line, s->kind);
	return -1;
}

/* The model's response to stimulus i as expectation steps. */
static void resp_steps(struct out *o, struct resp *r, long i, bool last, size_t *violations)
{
	if (r->nviol) {
		json_t *list = json_array();
		for (size_t k = 0; k < r->nviol; k++) {
			const char *name = nicref_violation_name(r->viol[k]);
			json_array_append_new(list, json_pack("{s:s,s:o}", "event", "violation", "rule",
							      name ? json_string(name)
								   : json_integer(r->viol[k])));
		}
		put_step(o, "events", json_pack("{s:o}", "expect", list), i);
		*violations += r->nviol;
	}
	if (r->nfo) {
		json_t *list = json_array();
		for (size_t k = 0; k < r->nfo; k++)
			json_array_append_new(list, json_pack("{s:I,s:o}", "port",
							      (json_int_t)r->fo[k].port, "hex",
							      jbytes(r->fo[k].bytes, r->fo[k].len)));
		put_step(o, "frames", json_pack("{s:o}", "expect", list), i);
	}
	if (!last)
		return;
	size_t n = ranges_merge(r->w, r->nw);
	static uint8_t buf[VEC_HEX_MAX];
	for (size_t k = 0; k < n; k++)
		for (uint64_t at = 0; at < r->w[k].len; at += VEC_HEX_MAX) {
			size_t len = r->w[k].len - at < VEC_HEX_MAX ? (size_t)(r->w[k].len - at)
								 : VEC_HEX_MAX;
			if (nicref_hostmem_read(r->dev, r->w[k].addr + at, buf, len) != 0)
				continue;
			put_step(o, "mem_expect", json_pack("{s:o,s:o}", "addr",
							    jhex(r->w[k].addr + at), "hex",
							    jbytes(buf, len)), i);
		}
}

static void put_str(FILE *f, const char *s)
{
	json_t *j = json_string(s ? s : "");
	char *t = json_dumps(j, JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
	fputs(t ? t : "\"\"", f);
	free(t);
	json_decref(j);
}

int repro_vec_write(const struct repro_rec *rec, size_t keep, const struct repro_meta *meta,
		    const char *json_path, const char *pcap_path, struct repro_written *out,
		    char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (keep > rec->n)
		keep = rec->n;
	if (keep == 0) {
		snprintf(err, errlen, "the record holds no stimulus after the device's power-on");
		return -1;
	}
	struct resp r = { 0 };
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.ops.ctx = &r;
	cfg.ops.dma_write = on_dma_write;
	cfg.ops.wire_tx = on_wire_tx;
	cfg.trace = on_event;
	cfg.trace_ctx = &r;
	r.dev = nicref_dev_create(&cfg);
	if (!r.dev) {
		snprintf(err, errlen, "cannot create a model device");
		return -1;
	}
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.part", json_path);
	struct out o = { .f = fopen(tmp, "w") };
	if (!o.f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		nicref_dev_destroy(r.dev);
		return -1;
	}
	struct pcap_out *pc = NULL;
	int rc = 0;
	unsigned faults = 0;

	fprintf(o.f, "{\n  \"schema\": \"nicref_vectors_v1\",\n  \"feature\": \"repro\",\n"
		     "  \"header\": [\n    \"DRAFT written by nicref repro: review it against the "
		     "spec before it joins vectors/ (docs/repro.md).\",\n    ");
	char line[2048];
	snprintf(line, sizeof line, "The stimulus of a finding of the %s fuzz target, input %s, "
		 "replayed from power-on; every expectation is the model's response, not yet "
		 "checked against the PRM.", meta->target, meta->input);
	put_str(o.f, line);
	fprintf(o.f, ",\n    ");
	snprintf(line, sizeof line, "The finding: %s", meta->finding ? meta->finding : "(none)");
	put_str(o.f, line);
	if (meta->dut) {
		fprintf(o.f, ",\n    ");
		snprintf(line, sizeof line, "Found against the DUT %s: nicref vectors --dut LIB "
			 "runs it against a device under test.", meta->dut);
		put_str(o.f, line);
	}
	fprintf(o.f, "\n  ],\n  \"notes\": {\n    \"DRAFT\": {\"bugType\": \"FUNCTIONALITY\", "
		     "\"description\": \"written by nicref repro from a fuzz finding; the "
		     "expectations are the model's responses, to be reviewed against the spec (and "
		     "the cite named) before the vector joins vectors/\"}\n  },\n"
		     "  \"numberOfTests\": 1,\n  \"testGroups\": [\n    {\n      \"comment\": ");
	snprintf(line, sizeof line, "%s fuzz target, from power-on to the finding", meta->target);
	put_str(o.f, line);
	fprintf(o.f, ",\n      \"setup\": [],\n      \"tests\": [\n        {\n"
		     "          \"tcId\": 1,\n          \"comment\": ");
	snprintf(line, sizeof line, "DRAFT: %s", meta->finding ? meta->finding : meta->target);
	put_str(o.f, line);
	fprintf(o.f, ",\n          \"cite\": \"PRM (draft: name the clause that fixes the response "
		     "at the last stimulus)\",\n          \"flags\": [\"DRAFT\"],\n"
		     "          \"result\": \"@RESULT@\",\n          \"steps\": [\n");

	for (size_t i = 0; i < keep && rc == 0; i++) {
		const struct repro_stim_rec *s = &rec->s[i];
		resp_clear(&r);
		uint32_t v = 0;
		uint64_t now = nicref_clock_now(r.dev);
		switch (s->kind) {
		case 'W':
			nicref_bar_write32(r.dev, (uint32_t)s->a, (uint32_t)s->b);
			break;
		case 'r':
			v = nicref_bar_read32(r.dev, (uint32_t)s->a);
			break;
		case 'T':
			nicref_clock_advance(r.dev, s->a);
			break;
		case 'M':
			if (nicref_hostmem_write(r.dev, s->a, s->buf, s->len) != 0) {
				snprintf(err, errlen, "record line %u: host memory refused %zu bytes at "
					 "0x%llx", s->line, s->len, (unsigned long long)s->a);
				rc = -1;
			}
			break;
		case 'F':
			(void)nicref_wire_rx(r.dev, (unsigned)s->a, s->buf, s->len);
			break;
		case 'X':
			(void)nicref_hostmem_fault(r.dev, s->a, s->b, (unsigned)s->len);
			break;
		}
		if (rc)
			break;
		rc = stim_step(&o, s, (long)i, v, &faults, err, errlen);
		if (rc)
			break;
		if (pcap_path && (s->kind == 'F' || r.nfo) && !pc) {
			pc = pcap_out_open(pcap_path);
			if (!pc) {
				snprintf(err, errlen, "%s: %s", pcap_path, strerror(errno));
				rc = -1;
				break;
			}
			/* the frames before this stimulus: none (the pcap opens at the first) */
		}
		if (s->kind == 'F') {
			out->frames_in++;
			if (pc)
				(void)pcap_out_frame(pc, now, s->buf, s->len);
		}
		for (size_t k = 0; k < r.nfo; k++) {
			out->frames_out++;
			if (pc)
				(void)pcap_out_frame(pc, nicref_clock_now(r.dev), r.fo[k].bytes,
						     r.fo[k].len);
		}
		resp_steps(&o, &r, (long)i, i + 1 == keep, &out->violations);
		out->stimuli++;
	}
	fprintf(o.f, "\n          ]\n        }\n      ]\n    }\n  ]\n}\n");
	resp_clear(&r);
	free(r.w);
	free(r.fo);
	nicref_dev_destroy(r.dev);
	if (pc && pcap_out_close(pc) != 0 && rc == 0) {
		snprintf(err, errlen, "%s: a write failed", pcap_path);
		rc = -1;
	}
	out->pcap = pc != NULL;
	if (fclose(o.f) != 0 && rc == 0) {
		snprintf(err, errlen, "%s: a write failed", tmp);
		rc = -1;
	}
	if (o.failed && rc == 0) {
		snprintf(err, errlen, "out of memory writing the vector");
		rc = -1;
	}
	/* The result: a stimulus the model calls a violation is incorrect use. */
	if (rc == 0) {
		FILE *in = fopen(tmp, "r"), *fo = fopen(json_path, "w");
		if (!in || !fo) {
			snprintf(err, errlen, "%s: %s", json_path, strerror(errno));
			rc = -1;
		} else {
			char *l = NULL;
			size_t cap = 0;
			ssize_t got;
			while ((got = getline(&l, &cap, in)) >= 0) {
				char *at = strstr(l, "@RESULT@");
				if (at) {
					fprintf(fo, "%.*s%s%s", (int)(at - l), l,
						out->violations ? "invalid" : "valid", at + 8);
				} else {
					fwrite(l, 1, (size_t)got, fo);
				}
			}
			free(l);
		}
		if (in)
			fclose(in);
		if (fo && fclose(fo) != 0 && rc == 0) {
			snprintf(err, errlen, "%s: a write failed", json_path);
			rc = -1;
		}
	}
	remove(tmp);
	out->steps = o.steps;
	out->stim_of_step = o.stim_of_step;
	if (rc)
		free(o.stim_of_step), out->stim_of_step = NULL;
	return rc;
}

/* Reading a PCIe link trace line by line (docs/pcie.md "Trace format"): every key known, every
 * number within its width; a message names the key. */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "jsonval.h"
#include "pcie_trace.h"

/* A number of obj[key] within max (dflt when absent and not required): 0, or -1 with err. */
static int num(const json_t *obj, const char *at, const char *key, bool required, uint64_t dflt,
	       uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	const json_t *v = json_object_get(obj, key);
	char e[160];
	if (!v) {
		if (required) {
			snprintf(err, errlen, "%s%s: missing", at, key);
			return -1;
		}
		*out = dflt;
		return 0;
	}
	if (jv_num(v, NS_NONE, 64, out, e, sizeof e) != 0) {
		snprintf(err, errlen, "%s%s: %s", at, key, e);
		return -1;
	}
	if (*out > max) {
		snprintf(err, errlen, "%s%s: %llu is above %llu", at, key, (unsigned long long)*out,
			 (unsigned long long)max);
		return -1;
	}
	return 0;
}

static int boolean(const json_t *obj, const char *at, const char *key, bool *out, char *err,
		   size_t errlen)
{
	const json_t *v = json_object_get(obj, key);
	*out = false;
	if (!v)
		return 0;
	if (!json_is_boolean(v)) {
		snprintf(err, errlen, "%s%s: not true or false", at, key);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

/* Every key of obj is one of keys[]. */
static int only(const json_t *obj, const char *at, const char *const *keys, char *err,
		size_t errlen)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)obj, k, v)
	{
		unsigned i = 0;
		while (keys[i] && strcmp(keys[i], k))
			i++;
		if (!keys[i]) {
			snprintf(err, errlen, "%sunknown key \"%s\"", at, k);
			return -1;
		}
	}
	return 0;
}

static json_t *load(const char *line, char *err, size_t errlen)
{
	json_error_t je;
	json_t *j = json_loads(line, JSON_REJECT_DUPLICATES, &je);
	if (!j)
		snprintf(err, errlen, "not JSON: %s (column %d)", je.text, je.column);
	else if (!json_is_object(j)) {
		snprintf(err, errlen, "not a JSON object");
		json_decref(j);
		j = NULL;
	}
	return j;
}

/* The REPLAY_TIMER limit's range: "replay_limit" is shorthand for both ends; alone, each end
 * defaults to the seed's range for the Extended Synch in force (L125-126). */
static int replay_limits(const json_t *j, struct pcie_trace_header *h, char *err, size_t errlen)
{
	static const uint64_t range[2][2] = { { 24000, 31000 }, { 80000, 100000 } };
	const bool one = json_object_get(j, "replay_limit") != NULL;
	if (one && (json_object_get(j, "replay_limit_min") || json_object_get(j, "replay_limit_max"))) {
		snprintf(err, errlen, "replay_limit is shorthand for replay_limit_min and "
				      "replay_limit_max: give either, not both");
		return -1;
	}
	if (one) {
		if (num(j, "", "replay_limit", true, 0, UINT32_MAX, &h->replay_limit_min, err,
			errlen))
			return -1;
		h->replay_limit_max = h->replay_limit_min;
		return 0;
	}
	if (num(j, "", "replay_limit_min", false, range[h->extended_synch][0], UINT32_MAX,
		&h->replay_limit_min, err, errlen) ||
	    num(j, "", "replay_limit_max", false, range[h->extended_synch][1], UINT32_MAX,
		&h->replay_limit_max, err, errlen))
		return -1;
	if (h->replay_limit_min > h->replay_limit_max) {
		snprintf(err, errlen, "replay_limit_min: %llu is above replay_limit_max %llu",
			 (unsigned long long)h->replay_limit_min,
			 (unsigned long long)h->replay_limit_max);
		return -1;
	}
	return 0;
}

int pcie_trace_header(const char *line, struct pcie_trace_header *h, char *err, size_t errlen)
{
	static const char *const keys[] = {
		"format",	    "ack_latency_limit", "replay_limit", "replay_limit_min",
		"replay_limit_max", "extended_synch",	 "tolerance",	 "delay",
		"symbol_cost",	    "link_width",	 NULL
	};
	json_t *j = load(line, err, errlen);
	if (!j)
		return -1;
	int rc = -1;
	const char *f = json_string_value(json_object_get(j, "format"));
	if (!f || strcmp(f, "nicref_dll_trace_v1"))
		snprintf(err, errlen, "the first line is no header: \"format\": "
				      "\"nicref_dll_trace_v1\" expected");
	else if (only(j, "", keys, err, errlen) == 0 &&
		 num(j, "", "ack_latency_limit", false, 1000, UINT32_MAX, &h->ack_latency_limit,
		     err, errlen) == 0 &&
		 num(j, "", "extended_synch", false, 0, 1, &h->extended_synch, err, errlen) == 0 &&
		 replay_limits(j, h, err, errlen) == 0 &&
		 num(j, "", "tolerance", false, 2000, UINT32_MAX, &h->tolerance, err, errlen) == 0 &&
		 num(j, "", "delay", false, 0, UINT32_MAX, &h->delay, err, errlen) == 0 &&
		 /* 8b/10b and 128b/130b alike carry one byte per lane per symbol time. */
		 num(j, "", "symbol_cost", false, 1, 1000, &h->symbol_cost, err, errlen) == 0 &&
		 num(j, "", "link_width", false, 1, 32, &h->link_width, err, errlen) == 0) {
		if (h->link_width == 0)
			snprintf(err, errlen, "link_width: 0 lanes");
		else
			rc = 0;
	}
	json_decref(j);
	return rc;
}

static int read_tlp(const json_t *o, struct pcie_rec *r, char *err, size_t errlen)
{
	static const char *const keys[] = { "seq", "data", "lcrc", "nullified", "reserved", NULL };
	uint64_t seq, lcrc, res;
	if (!json_is_object(o)) {
		snprintf(err, errlen, "tlp: not an object");
		return -1;
	}
	if (only(o, "tlp: ", keys, err, errlen) ||
	    num(o, "tlp.", "seq", true, 0, 4095, &seq, err, errlen) ||
	    num(o, "tlp.", "lcrc", true, 0, UINT32_MAX, &lcrc, err, errlen) ||
	    num(o, "tlp.", "reserved", false, 0, 15, &res, err, errlen) ||
	    boolean(o, "tlp.", "nullified", &r->nullified, err, errlen))
		return -1;
	const char *hex = json_string_value(json_object_get(o, "data"));
	long n = hex ? hex_length(hex) : -1;
	if (n < 1 || n > (long)NICREF_PCIE_TLP_MAX) {
		snprintf(err, errlen, "tlp.data: %s", !hex ? "missing, or not a string"
					      : n < 0 ? "not hex bytes"
						      : "1 to 4116 bytes");
		return -1;
	}
	r->len = (size_t)hex_parse(hex, r->data, sizeof r->data);
	r->seq = (uint16_t)seq;
	r->lcrc = (uint32_t)lcrc;
	r->reserved = (uint8_t)res;
	return 0;
}

static int read_dllp(const json_t *o, struct pcie_rec *r, char *err, size_t errlen)
{
	static const char *const keys[] = { "type", "seq", "crc", "reserved", NULL };
	uint64_t seq, crc, res, type;
	if (!json_is_object(o)) {
		snprintf(err, errlen, "dllp: not an object");
		return -1;
	}
	const json_t *jt = json_object_get(o, "type");
	const char *ts = json_string_value(jt);
	if (only(o, "dllp: ", keys, err, errlen) ||
	    num(o, "dllp.", "seq", true, 0, 4095, &seq, err, errlen) ||
	    num(o, "dllp.", "crc", true, 0, 0xFFFF, &crc, err, errlen) ||
	    num(o, "dllp.", "reserved", false, 0, 4095, &res, err, errlen))
		return -1;
	if (ts && !strcmp(ts, "ack"))
		type = NICREF_PCIE_DLLP_ACK;
	else if (ts && !strcmp(ts, "nak"))
		type = NICREF_PCIE_DLLP_NAK;
	else if (num(o, "dllp.", "type", true, 0, 0xFF, &type, err, errlen))
		return -1;
	r->type = (uint8_t)type;
	r->seq = (uint16_t)seq;
	r->crc = (uint16_t)crc;
	r->dreserved = (uint16_t)res;
	return 0;
}

int pcie_trace_record(const char *line, struct pcie_rec *r, char *err, size_t errlen)
{
	static const char *const keys[] = { "t",    "dir",     "tlp",	    "dllp",
					    "phy",  "corrupt", "lost", "duplicate",
					    NULL };
	while (*line == ' ' || *line == '\t' || *line == '\r' || *line == '\n')
		line++;
	if (!*line)
		return 0;
	json_t *j = load(line, err, errlen);
	if (!j)
		return -1;
	int rc = -1;
	const char *dir = json_string_value(json_object_get(j, "dir"));
	const json_t *tlp = json_object_get(j, "tlp"), *dllp = json_object_get(j, "dllp"),
		     *phy = json_object_get(j, "phy");
	memset(r, 0, offsetof(struct pcie_rec, data));
	if (only(j, "", keys, err, errlen) || num(j, "", "t", true, 0, UINT64_MAX, &r->t, err, errlen))
		goto out;
	if (!dir || (strcmp(dir, "down") && strcmp(dir, "up"))) {
		snprintf(err, errlen, "dir: \"down\" or \"up\" expected");
		goto out;
	}
	r->dir = strcmp(dir, "up") == 0;
	if ((tlp != NULL) + (dllp != NULL) + (phy != NULL) != 1) {
		snprintf(err, errlen, "a record has exactly one of \"tlp\", \"dllp\", \"phy\"");
		goto out;
	}
	if (boolean(j, "", "corrupt", &r->corrupt, err, errlen) ||
	    boolean(j, "", "lost", &r->lost, err, errlen) ||
	    boolean(j, "", "duplicate", &r->duplicate, err, errlen))
		goto out;
	if (phy) {
		const char *p = json_string_value(phy);
		if (!p || (strcmp(p, "retrain") && strcmp(p, "retrain_done"))) {
			snprintf(err, errlen, "phy: \"retrain\" or \"retrain_done\" expected");
			goto out;
		}
		if (r->corrupt || r->lost || r->duplicate) {
			snprintf(err, errlen, "corrupt, lost and duplicate are for packets");
			goto out;
		}
		r->kind = PCIE_REC_PHY;
		r->retrain_done = !strcmp(p, "retrain_done");
		rc = 0;
	} else if (tlp) {
		r->kind = PCIE_REC_TLP;
		rc = read_tlp(tlp, r, err, errlen);
	} else {
		r->kind = PCIE_REC_DLLP;
		rc = read_dllp(dllp, r, err, errlen);
	}
out:
	json_decref(j);
	return rc == 0 ? 1 : -1;
}

/* The link of reference/pcie/ run to a trace: each packet as its end transmits it (t, dir, the
 * TLP or DLLP with its check value as sent) with what the link did to it (corrupt, lost,
 * duplicate: the receiver's view), and the retrains as phy records. */
#include <stdlib.h>
#include <string.h>

#include "jsonval.h"
#include "pcie_link_trace.h"

#define MAX_TLP 64u

struct ctx {
	FILE *out;
	uint8_t tlp[2][MAX_TLP];
	unsigned len, sent[2], want[2];
};

void pcie_link_trace_defaults(struct pcie_link_trace_opts *o)
{
	memset(o, 0, sizeof *o);
	nicref_pcie_params_default(&o->dll);
	nicref_pcie_link_params_default(&o->link);
	o->tlps[0] = o->tlps[1] = 100;
	o->tlp_bytes = 16;
	/* The largest wait for the wire: a TLP in flight each way and the Ack behind them. */
	o->tolerance = 2000;
	o->max_symbols = 100000000ull;
}

static bool tl_next(void *vc, unsigned end, const uint8_t **tlp, size_t *len, bool *nullify)
{
	struct ctx *c = vc;
	if (c->sent[end] == c->want[end])
		return false;
	unsigned n = c->sent[end]++;
	for (unsigned i = 0; i < c->len; i++)
		c->tlp[end][i] = (uint8_t)(n * 7u + i + end * 128u);
	*tlp = c->tlp[end];
	*len = c->len;
	*nullify = false;
	return true;
}

static void wire(void *vc, unsigned dir, uint64_t t, bool is_dllp, const uint8_t *b, size_t len,
		 bool edb, unsigned faults)
{
	struct ctx *c = vc;
	const char *d = dir ? "up" : "down";
	char flags[64] = "";
	if (faults & NICREF_PCIE_LF_CORRUPT)
		strcat(flags, ", \"corrupt\": true");
	if (faults & NICREF_PCIE_LF_LOST)
		strcat(flags, ", \"lost\": true");
	if (is_dllp) {
		struct nicref_pcie_dllp p;
		nicref_pcie_dllp_decode(b, &p);
		fprintf(c->out, "{\"t\": %llu, \"dir\": \"%s\", \"dllp\": {\"type\": \"%s\", \"seq\": %u, "
				"\"crc\": \"0x%04x\"}%s}\n",
			(unsigned long long)t, d,
			p.type == NICREF_PCIE_DLLP_ACK ? "ack" : p.type == NICREF_PCIE_DLLP_NAK ? "nak" : "?",
			p.seq, p.crc, flags);
	} else {
		char hex[2 * MAX_TLP + 1];
		size_t n = len - 6;
		hex_format(b + 2, n, hex);
		uint32_t l = (uint32_t)b[len - 4] | (uint32_t)b[len - 3] << 8 |
			     (uint32_t)b[len - 2] << 16 | (uint32_t)b[len - 1] << 24;
		unsigned seq = (b[0] & 0xFu) << 8 | b[1];
		for (int k = 0; k < 1 + !!(faults & NICREF_PCIE_LF_DUP); k++)
			fprintf(c->out, "{\"t\": %llu, \"dir\": \"%s\", \"tlp\": {\"seq\": %u, \"data\": "
					"\"%s\", \"lcrc\": \"0x%08x\", \"nullified\": %s}%s%s}\n",
				(unsigned long long)t, d, seq, hex, l, edb ? "true" : "false", flags,
				k ? ", \"duplicate\": true" : "");
	}
}

static void phy(void *vc, unsigned end, uint64_t t, bool in_recovery)
{
	struct ctx *c = vc;
	fprintf(c->out, "{\"t\": %llu, \"dir\": \"%s\", \"phy\": \"%s\"}\n", (unsigned long long)t,
		end ? "up" : "down", in_recovery ? "retrain" : "retrain_done");
}

int pcie_link_trace(FILE *out, const struct pcie_link_trace_opts *o)
{
	if (o->tlp_bytes < 4 || o->tlp_bytes > MAX_TLP)
		return -1;
	struct ctx c = { .out = out, .len = o->tlp_bytes, .want = { o->tlps[0], o->tlps[1] } };
	struct nicref_pcie_link *l = malloc(sizeof *l);
	size_t sz = nicref_pcie_link_storage_bytes(MAX_TLP);
	uint8_t *store = malloc(sz);
	struct nicref_pcie_link_ops ops = { .ctx = &c, .tl_next = tl_next, .wire = wire, .phy = phy };
	int rc = -1;
	if (!l || !store || nicref_pcie_link_init(l, &o->dll, &o->link, &ops, MAX_TLP, store, sz))
		goto out;
	/* The ends' one REPLAY_TIMER limit ("replay_limit": the range's both ends) and the
	 * link's symbol cost (REPLAY_TIMER and the Ack latency from a packet's last symbol). */
	fprintf(out, "{\"format\": \"nicref_dll_trace_v1\", \"ack_latency_limit\": %u, "
		     "\"replay_limit\": %u, \"extended_synch\": %u, \"tolerance\": %u, \"delay\": %u, "
		     "\"symbol_cost\": %u}\n",
		o->dll.ack_latency_limit,
		o->dll.extended_synch ? o->dll.replay_limit_es1 : o->dll.replay_limit,
		o->dll.extended_synch, o->tolerance, o->link.delay, o->link.symbol_cost);
	while (l->now < o->max_symbols) {
		nicref_pcie_link_run(l, l->now + 10000u);
		if (c.sent[0] == c.want[0] && c.sent[1] == c.want[1] && nicref_pcie_link_idle(l)) {
			rc = 0;
			break;
		}
	}
out:
	free(store);
	free(l);
	return rc;
}

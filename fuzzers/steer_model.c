/* The fuzz targets' model of flow steering: commands mirrored, frames and their keys, the linear
 * reference classifier (steer_model.h). */
#include <string.h>

#include "driver_steer.h"
#include "fuzz_target.h"
#include "nicref/layout.h"
#include "steer_model.h"

/* ---- The menu of match fields and the values frames carry ------------------------------------ */

enum {
	F_DMAC_HI, F_DMAC_LO, F_SMAC_HI, F_SMAC_LO, F_ETHERTYPE, F_CVLAN, F_SVLAN, F_PRIO, F_VID,
	F_PROTO, F_DSCP, F_ECN, F_FRAG, F_TCP_FLAGS, F_TCP_SPORT, F_TCP_DPORT, F_UDP_SPORT,
	F_UDP_DPORT, F_SRC_IP, F_DST_IP, F_SECOND_VID, F_SECOND_CVLAN, F_SECOND_SVLAN, F_FLOW_LABEL,
	F_COUNT
};

static const char *const field_names[F_COUNT] = {
	"outer_dmac_47_16", "outer_dmac_15_0", "outer_smac_47_16", "outer_smac_15_0",
	"outer_ethertype", "outer_cvlan_tag", "outer_svlan_tag", "outer_first_prio",
	"outer_first_vid", "outer_ip_protocol", "outer_ip_dscp", "outer_ip_ecn", "outer_frag",
	"outer_tcp_flags", "outer_tcp_sport", "outer_tcp_dport", "outer_udp_sport",
	"outer_udp_dport", "outer_src_ip", "outer_dst_ip", "outer_second_vid",
	"outer_second_cvlan_tag", "outer_second_svlan_tag", "outer_ipv6_flow_label",
};

const char *sm_field_name(unsigned i)
{
	return i < F_COUNT ? field_names[i] : "?";
}

static const struct nicref_field *field(unsigned i)
{
	static const struct nicref_field *f[F_COUNT];
	if (!f[i])
		f[i] = nicref_layout_field(nicref_layout_find("fte_match_param"), field_names[i]);
	return f[i];
}

static void kset(uint8_t *k, unsigned i, uint64_t v)
{
	nicref_field_set(k, SM_KEY, field(i), v);
}

/* 128-bit addresses: an IPv4 address sits in the last dword (T413/T414). */
static void kset_ip(uint8_t *k, unsigned i, const uint8_t a[16])
{
	nicref_field_set_bytes(k, SM_KEY, field(i), a, 16);
}

static const uint64_t macs_d[4] = { 0x024E49435246ull /* the vport's (D-VP-3) */,
				    0x02000000000Bull, 0xFFFFFFFFFFFFull, 0x01005E000001ull };
static const uint64_t macs_s[4] = { 0x02000000000Aull, 0x02000000000Cull, 0x024E49435246ull, 0 };
static const uint16_t vids[4] = { 0, 5, 100, 4095 };
static const uint8_t protos[4] = { 6, 17, 47, 0 };
static const uint16_t ports[4] = { 7, 80, 443, 1000 };
static const uint8_t tcp_flags[4] = { 0x10, 0x02, 0x12, 0x11 };
static const uint32_t ip4[4] = { 0x0A000001, 0x0A000002, 0xC0A80101, 0 };
static const uint32_t labels[4] = { 0, 1, 0x12345, 0xFFFFF };
static const uint8_t dscps[4] = { 0, 10, 46, 63 };
static const uint16_t ethertypes[4] = { 0x0800, 0x86DD, 0x0806, 0x8100 };

static void addr_of(unsigned sel, bool v6, uint8_t a[16])
{
	memset(a, 0, 16);
	if (v6) { /* fe80::sel, 2001:db8::sel */
		a[0] = sel & 2 ? 0x20 : 0xFE;
		a[1] = sel & 2 ? 0x01 : 0x80;
		a[15] = (uint8_t)(sel + 1);
	} else {
		uint32_t v = ip4[sel % 4];
		a[12] = (uint8_t)(v >> 24), a[13] = (uint8_t)(v >> 16);
		a[14] = (uint8_t)(v >> 8), a[15] = (uint8_t)v;
	}
}

/* The value of field i for selector byte s (what SET_FLOW_TABLE_ENTRY writes in match_value). */
static void value_of(uint8_t *k, unsigned i, unsigned s)
{
	uint8_t a[16];
	switch (i) {
	case F_DMAC_HI: kset(k, i, macs_d[s % 4] >> 16); break;
	case F_DMAC_LO: kset(k, i, macs_d[s % 4] & 0xFFFF); break;
	case F_SMAC_HI: kset(k, i, macs_s[s % 4] >> 16); break;
	case F_SMAC_LO: kset(k, i, macs_s[s % 4] & 0xFFFF); break;
	case F_ETHERTYPE: kset(k, i, ethertypes[s % 4]); break;
	case F_PRIO: kset(k, i, s % 8); break;
	case F_VID: case F_SECOND_VID: kset(k, i, vids[s % 4]); break;
	case F_PROTO: kset(k, i, protos[s % 4]); break;
	case F_DSCP: kset(k, i, dscps[s % 4]); break;
	case F_ECN: kset(k, i, s % 4); break;
	case F_TCP_FLAGS: kset(k, i, tcp_flags[s % 4]); break;
	case F_TCP_SPORT: case F_TCP_DPORT: case F_UDP_SPORT: case F_UDP_DPORT:
		kset(k, i, ports[s % 4]);
		break;
	case F_SRC_IP: case F_DST_IP:
		addr_of(s % 4, s & 4, a);
		kset_ip(k, i, a);
		break;
	case F_FLOW_LABEL: kset(k, i, labels[s % 4]); break;
	default: kset(k, i, s & 1); break; /* the one-bit fields */
	}
}

/* The criteria of field i: all its bits, or (partial) the low half of them; an address as its
 * IPv4 dword (D-FT-9) when partial. */
static void mask_of(uint8_t *k, unsigned i, bool partial)
{
	const struct nicref_field *f = field(i);
	uint32_t w = f->bit_width;
	if (w == 128) {
		uint8_t a[16];
		memset(a, 0xFF, 16);
		if (partial)
			memset(a, 0, 12);
		kset_ip(k, i, a);
		return;
	}
	if (partial && w > 1)
		w /= 2;
	kset(k, i, w >= 64 ? ~0ull : (1ull << w) - 1);
}

/* ---- Frames ----------------------------------------------------------------------------------- */

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v;
}

static void put_mac(uint8_t *p, uint64_t m)
{
	for (int i = 0; i < 6; i++)
		p[i] = (uint8_t)(m >> (40 - 8 * i));
}

static uint16_t ip_csum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)~s;
}

/* Selectors: 0 dmac (bits 1:0), type (bit 7); 1 smac; 2 tags (bits 1:0 count % 3, bit 2 the
 * first 802.1ad, bit 3 the second); 3 first tag vid, prio (bits 6:4); 4 second tag vid;
 * 5 L3 (% 4: IPv4, IPv6, ARP, an IPv4 fragment other than the first); 6 protocol; 7 TOS;
 * 8 source, 9 destination (bit 2: the other IPv6 addresses); 10 sport, 11 dport; 12 TCP
 * flags; 13 flow label; 14 payload length; 15 the IPv4 header checksum wrong (bit 0). */
size_t sm_frame(struct reader *r, uint8_t *f, uint8_t key[SM_KEY], unsigned *type)
{
	uint8_t s[SM_FRAME_SEL];
	for (unsigned i = 0; i < SM_FRAME_SEL; i++)
		s[i] = rd8(r);
	*type = s[0] >> 7;
	memset(f, 0, SM_FRAME_MAX);
	memset(key, 0, SM_KEY);
	uint64_t dmac = macs_d[s[0] % 4], smac = macs_s[s[1] % 4];
	put_mac(f, dmac);
	put_mac(f + 6, smac);
	kset(key, F_DMAC_HI, dmac >> 16);
	kset(key, F_DMAC_LO, dmac & 0xFFFF);
	kset(key, F_SMAC_HI, smac >> 16);
	kset(key, F_SMAC_LO, smac & 0xFFFF);
	size_t at = 12;
	unsigned ntags = (s[2] & 3) % 3;
	for (unsigned i = 0; i < ntags; i++) {
		bool stag = s[2] & (4u << i);
		unsigned vid = vids[s[3 + i] % 4], prio = i == 0 ? (s[3] >> 4) & 7 : 0;
		put16(f + at, stag ? 0x88A8 : 0x8100);
		put16(f + at + 2, prio << 13 | vid);
		at += 4;
		if (i == 0) {
			kset(key, stag ? F_SVLAN : F_CVLAN, 1);
			kset(key, F_PRIO, prio);
			kset(key, F_VID, vid);
		} else {
			kset(key, stag ? F_SECOND_SVLAN : F_SECOND_CVLAN, 1);
			kset(key, F_SECOND_VID, vid);
		}
	}
	unsigned l3 = s[5] % 4, proto = protos[s[6] % 4], tos = s[7];
	bool v6 = l3 == 1, frag = l3 == 3;
	unsigned et = v6 ? 0x86DD : l3 == 2 ? 0x0806 : 0x0800;
	put16(f + at, et);
	kset(key, F_ETHERTYPE, et);
	at += 2;
	size_t pay = s[14] % 32;
	if (l3 == 2) { /* ARP: 28 bytes, nothing more to match (D-FT-5) */
		put16(f + at, 1), put16(f + at + 2, 0x0800), f[at + 4] = 6, f[at + 5] = 4;
		at += 28;
		return at < 60 ? 60 : at;
	}
	size_t l4len = proto == 6 ? 20 : proto == 17 ? 8 : 0;
	uint8_t src[16], dst[16];
	addr_of(s[8] % 4, v6 && (s[8] & 4), src);
	addr_of(s[9] % 4, v6 && (s[9] & 4), dst);
	if (!v6) {
		addr_of(s[8] % 4, false, src);
		addr_of(s[9] % 4, false, dst);
	}
	uint8_t *ip = f + at;
	size_t iplen;
	if (!v6) {
		iplen = 20;
		ip[0] = 0x45, ip[1] = (uint8_t)tos;
		put16(ip + 2, (unsigned)(20 + l4len + pay));
		put16(ip + 6, frag ? 0x0010 : 0); /* fragment offset 16 (128 bytes), MF 0 */
		ip[8] = 64, ip[9] = (uint8_t)proto;
		memcpy(ip + 12, src + 12, 4);
		memcpy(ip + 16, dst + 12, 4);
		put16(ip + 10, ip_csum(ip, 20) ^ (s[15] & 1));
	} else {
		iplen = 40;
		uint32_t lab = labels[s[13] % 4];
		ip[0] = (uint8_t)(0x60 | tos >> 4), ip[1] = (uint8_t)((tos & 0xF) << 4 | lab >> 16);
		put16(ip + 2, lab & 0xFFFF);
		put16(ip + 4, (unsigned)(l4len + pay));
		ip[6] = (uint8_t)proto, ip[7] = 64;
		memcpy(ip + 8, src, 16);
		memcpy(ip + 24, dst, 16);
		kset(key, F_FLOW_LABEL, lab);
	}
	kset(key, F_DSCP, tos >> 2);
	kset(key, F_ECN, tos & 3);
	kset(key, F_PROTO, proto);
	kset(key, F_FRAG, frag);
	kset_ip(key, F_SRC_IP, src);
	kset_ip(key, F_DST_IP, dst);
	at += iplen;
	uint8_t *l4 = f + at;
	unsigned sp = ports[s[10] % 4], dp = ports[s[11] % 4];
	if (l4len) {
		put16(l4, sp), put16(l4 + 2, dp);
		if (proto == 6) {
			l4[12] = 0x50, l4[13] = tcp_flags[s[12] % 4];
		} else {
			put16(l4 + 4, (unsigned)(8 + pay));
		}
	}
	/* A fragment other than the first carries no L4 header: its ports and flags read 0 (D-FT-5,
	 * "ports without a complete TCP/UDP header"; D-PARSE-7). */
	if (l4len && !frag) {
		if (proto == 6) {
			kset(key, F_TCP_SPORT, sp), kset(key, F_TCP_DPORT, dp);
			kset(key, F_TCP_FLAGS, tcp_flags[s[12] % 4]);
		} else {
			kset(key, F_UDP_SPORT, sp), kset(key, F_UDP_DPORT, dp);
		}
	}
	at += l4len;
	for (size_t i = 0; i < pay; i++)
		f[at + i] = (uint8_t)(i * 7);
	at += pay;
	return at < 60 ? 60 : at;
}

/* ---- The linear reference classifier ------------------------------------------------------- */

enum { ACT_ALLOW = 1, ACT_DROP = 2, ACT_FWD = 4, ACT_COUNT = 8 };
enum { V_DROP, V_DEFAULT, V_DELIVER };
enum { WHY_NO_ROOT, WHY_MISS, WHY_ALLOW, WHY_RULE_DROP, WHY_FORWARD };

static struct sm_table *table_by_id(struct steer_model *m, uint32_t id)
{
	for (unsigned i = 0; id && i < SM_TABLES; i++)
		if (m->t[i].live && m->t[i].id == id)
			return &m->t[i];
	return NULL;
}

struct walk {
	struct steer_model *m;
	const uint8_t *key;
	uint32_t len;
	struct sm_verdict *v;
	unsigned drops, defaults, default_why;
};

static void to_default(struct walk *w, unsigned why)
{
	if (w->defaults++ == 0)
		w->default_why = why;
}

static bool matches(const struct sm_group *g, const struct sm_fte *e, const uint8_t *key)
{
	for (unsigned i = 0; i < SM_KEY; i++)
		if ((key[i] & g->mask[i]) != (e->value[i] & g->mask[i]))
			return false;
	return true;
}

static void walk(struct walk *w, struct sm_table *t, uint32_t tag, unsigned depth)
{
	while (t) {
		if (depth++ > 256) {
			to_default(w, WHY_MISS);
			return;
		}
		const struct sm_fte *e = NULL;
		for (uint32_t i = 0; i < (1u << t->log_size) && !e; i++) {
			const struct sm_fte *c = &t->fte[i];
			if (c->valid && matches(&w->m->g[c->group], c, w->key))
				e = c;
		}
		if (!e) {
			if (t->miss_action != 1) {
				to_default(w, WHY_MISS);
				return;
			}
			t = table_by_id(w->m, t->miss_id);
			continue;
		}
		if (e->tag)
			tag = e->tag;
		if (e->action & ACT_COUNT)
			for (unsigned k = 0; k < e->ncnt; k++)
				for (unsigned c = 0; c < SM_COUNTERS; c++)
					if (w->m->c[c].live && w->m->c[c].id == e->cnt[k]) {
						w->m->c[c].packets++;
						w->m->c[c].octets += w->len;
					}
		if (e->action & ACT_DROP) {
			w->drops++;
			return;
		}
		if (e->action & ACT_ALLOW) {
			to_default(w, WHY_ALLOW);
			return;
		}
		for (unsigned k = 0; k < e->ndest; k++) {
			if (e->dtype[k] == 2) {
				struct sm_verdict *v = w->v;
				if (v->ntirs == SM_MAX_TIRS) {
					v->overflow++;
					continue;
				}
				v->tirn[v->ntirs] = e->did[k];
				v->tag[v->ntirs++] = tag;
			} else {
				walk(w, table_by_id(w->m, e->did[k]), tag, depth);
			}
		}
		return;
	}
	to_default(w, WHY_MISS);
}

void sm_classify(struct steer_model *m, unsigned type, const uint8_t key[SM_KEY], uint32_t len,
		 struct sm_verdict *v)
{
	memset(v, 0, sizeof *v);
	struct sm_table *root = table_by_id(m, m->root[type]);
	for (unsigned i = 0; !root && i < SM_TABLES; i++)
		if (m->t[i].live && m->t[i].type == type && m->t[i].level == 0)
			root = &m->t[i];
	if (!root) {
		v->action = V_DEFAULT;
		v->why = WHY_NO_ROOT;
		return;
	}
	struct walk w = { .m = m, .key = key, .len = len, .v = v };
	walk(&w, root, 0, 0);
	if (v->ntirs) {
		v->action = V_DELIVER;
		v->why = WHY_FORWARD;
	} else if (w.defaults) {
		v->action = V_DEFAULT;
		v->why = w.default_why;
	} else {
		v->action = V_DROP;
		v->why = WHY_RULE_DROP;
	}
}

/* ---- Commands ------------------------------------------------------------------------------ */

static uint32_t table_sel(const struct steer_model *m, uint8_t s)
{
	if (s & 0x80)
		return s & 0x7F;
	const struct sm_table *t = &m->t[s % SM_TABLES];
	return t->live ? t->id : 0;
}

static uint32_t group_sel(const struct steer_model *m, uint8_t s)
{
	if (s & 0x80)
		return s & 0x7F;
	const struct sm_group *g = &m->g[s % SM_GROUPS];
	return g->live ? g->id : 0;
}

static uint32_t counter_sel(const struct steer_model *m, uint8_t s)
{
	if (s & 0x80)
		return s & 0x7F;
	const struct sm_counter *c = &m->c[s % SM_COUNTERS];
	return c->live ? c->id : 0;
}

static int free_slot_t(const struct steer_model *m)
{
	for (unsigned i = 0; i < SM_TABLES; i++)
		if (!m->t[i].live)
			return (int)i;
	return -1;
}

static int group_slot_of(const struct steer_model *m, uint32_t id)
{
	for (unsigned i = 0; id && i < SM_GROUPS; i++)
		if (m->g[i].live && m->g[i].id == id)
			return (int)i;
	return -1;
}

static int counter_slot_of(const struct steer_model *m, uint32_t id)
{
	for (unsigned i = 0; id && i < SM_COUNTERS; i++)
		if (m->c[i].live && m->c[i].id == id)
			return (int)i;
	return -1;
}

static int done(struct steer_model *m, int st)
{
	m->cmds++;
	if (st == 0)
		m->ok++;
	return st;
}

static unsigned level_of(uint8_t b)
{
	return b & 0x80 ? 64u + (b & 3u) : b & 3u;
}

static int op_create_ft(struct steer_model *m, struct refdrv *d, struct reader *r)
{
	unsigned type = rd8(r) & 1, level = level_of(rd8(r)), log_size = rd8(r) % (SM_LOG_MAX + 1);
	unsigned miss = rd8(r) & 1;
	uint32_t miss_id = table_sel(m, rd8(r));
	int slot = free_slot_t(m);
	if (slot < 0)
		return 0; /* the model is full: nothing posted */
	uint32_t id;
	int st = done(m, refdrv_create_flow_table(d, type, level, log_size, miss, miss_id, &id));
	if (st == 0) {
		struct sm_table *t = &m->t[slot];
		memset(t, 0, sizeof *t);
		*t = (struct sm_table){ .live = true, .id = id, .type = (uint8_t)type,
					.level = (uint8_t)level, .log_size = (uint8_t)log_size,
					.miss_action = (uint8_t)miss, .miss_id = miss ? miss_id : 0 };
	}
	return st;
}

static struct sm_table *live_table(struct steer_model *m, uint32_t id, unsigned type)
{
	struct sm_table *t = table_by_id(m, id);
	return t && t->type == type ? t : NULL;
}

static int op_destroy_ft(struct steer_model *m, struct refdrv *d, struct reader *r)
{
	unsigned type = rd8(r) & 1;
	uint32_t id = table_sel(m, rd8(r));
	int st = done(m, refdrv_destroy_flow_table(d, type, id));
	struct sm_table *t = live_table(m, id, type);
	if (st == 0 && t)
		t->live = false;
	return st;
}

static int op_create_fg(struct steer_model *m, struct refdrv *d, struct reader *r)
{
	unsigned type = rd8(r) & 1;
	uint32_t ft = table_sel(m, rd8(r));
	uint32_t start = rd8(r) % 40, end = rd8(r) % 40;
	unsigned enable = rd8(r);
	uint32_t fields = (uint32_t)rdn(r, 4);
	uint8_t partial = rd8(r);
	uint8_t crit[SM_KEY] = { 0 };
	for (unsigned i = 0; i < F_COUNT; i++)
		if (fields >> i & 1)
			mask_of(crit, i, (partial >> (i % 8)) & 1);
	int slot = -1;
	for (unsigned i = 0; i < SM_GROUPS && slot < 0; i++)
		if (!m->g[i].live)
			slot = (int)i;
	if (slot < 0)
		return 0;
	uint32_t id;
	int st = done(m, refdrv_create_flow_group(d, type, ft, start, end, enable & 7, crit, &id));
	struct sm_table *t = live_table(m, ft, type);
	if (st == 0 && t) {
		struct sm_group *g = &m->g[slot];
		*g = (struct sm_group){ .live = true, .id = id, .table = (uint8_t)(t - m->t),
					.start = start, .end = end };
		for (unsigned i = 0; i < SM_KEY; i++) /* T406: a block enable leaves off matches all */
			g->mask[i] = (enable >> (i / 0x40)) & 1 ? crit[i] : 0;
	}
	return st;
}

static int op_destroy_fg(struct steer_model *m, struct refdrv *d, struct reader *r)
{
	unsigned type = rd8(r) & 1;
	uint32_t ft = table_sel(m, rd8(r)), fg = group_sel(m, rd8(r));
	int st = done(m, refdrv_destroy_flow_group(d, type, ft, fg));
	int gs = group_slot_of(m, fg);
	if (st == 0 && gs >= 0)
		m->g[gs].live = false;
	return st;
}

static int op_set_fte(struct steer_model *m, struct refdrv *d, struct reader *r)
{
	unsigned type = rd8(r) & 1;
	uint32_t ft = table_sel(m, rd8(r));
	uint32_t index = rd8(r) % 40;
	unsigned op_mod = rd8(r) & 1, mask = rd8(r) & 0x1F;
	uint32_t fg = group_sel(m, rd8(r));
	unsigned action = rd8(r) & 0x1F;
	uint32_t tag = (uint32_t)rdn(r, 2);
	uint32_t vals = (uint32_t)rdn(r, 4);
	struct refdrv_fte e = { .group_id = fg, .action = action, .flow_tag = tag };
	uint8_t value[SM_KEY] = { 0 };
	int gs = group_slot_of(m, fg);
	for (unsigned i = 0; i < F_COUNT; i++) /* a value for each field of the menu */
		value_of(value, i, ((vals >> (i % 16 * 2)) & 3) | ((vals >> 31) << 2));
	e.match = value;
	e.ndest = rd8(r) % (SM_LIST + 1);
	for (unsigned k = 0; k < SM_LIST; k++) {
		uint8_t s = rd8(r);
		e.dest[k].type = s & 0x40 ? 2 : 1;
		if (!(s & 0x40))
			e.dest[k].id = table_sel(m, s & 0xBF);
		else
			e.dest[k].id = s & 0x20 ? s & 0x1Fu : m->tirs[s % 4];
	}
	e.ncnt = rd8(r) % (SM_LIST + 1);
	for (unsigned k = 0; k < SM_LIST; k++)
		e.cnt[k] = (uint16_t)counter_sel(m, rd8(r));
	int st = done(m, refdrv_set_fte(d, type, ft, index, op_mod, mask, &e));
	struct sm_table *t = live_table(m, ft, type);
	if (st != 0 || !t || index >= (1u << t->log_size))
		return st;
	struct sm_fte *f = &t->fte[index];
	if (op_mod == 0) {
		memset(f, 0, sizeof *f);
		f->valid = true;
		f->group = (uint8_t)(gs < 0 ? 0 : gs);
		memcpy(f->value, value, SM_KEY);
		mask = 0xF;
	}
	if (mask & 1)
		f->action = (uint16_t)action;
	if (mask & 2)
		f->tag = tag;
	if (mask & 4) {
		f->ndest = (uint8_t)e.ndest;
		for (unsigned k = 0; k < e.ndest; k++)
			f->dtype[k] = e.dest[k].type, f->did[k] = e.dest[k].id;
	}
	if (mask & 8) {
		f->ncnt = (uint8_t)e.ncnt;
		for (unsigned k = 0; k < e.ncnt; k++)
			f->cnt[k] = e.cnt[k];
	}
	return st;
}

static int op_delete_fte(struct steer_model *m, struct refdrv *d, struct reader *r)
{
	unsigned type = rd8(r) & 1;
	uint32_t ft = table_sel(m, rd8(r));
	uint32_t index = rd8(r) % 40;
	int st = done(m, refdrv_delete_fte(d, type, ft, index));
	struct sm_table *t = live_table(m, ft, type);
	if (st == 0 && t && index < (1u << t->log_size))
		t->fte[index].valid = false;
	return st;
}

static int op_root(struct steer_model *m, struct refdrv *d, struct reader *r)
{
	unsigned type = rd8(r) & 1;
	uint32_t ft = table_sel(m, rd8(r));
	int st = done(m, refdrv_set_flow_table_root(d, type, ft));
	if (st == 0)
		m->root[type] = ft;
	return st;
}

static int op_modify_ft(struct steer_model *m, struct refdrv *d, struct reader *r)
{
	unsigned type = rd8(r) & 1;
	uint32_t ft = table_sel(m, rd8(r));
	unsigned miss = rd8(r) & 1;
	uint32_t miss_id = table_sel(m, rd8(r));
	int st = done(m, refdrv_modify_flow_table_miss(d, type, ft, miss, miss_id));
	struct sm_table *t = live_table(m, ft, type);
	if (st == 0 && t) {
		t->miss_action = (uint8_t)miss;
		t->miss_id = miss ? miss_id : 0;
	}
	return st;
}

static int op_alloc_fc(struct steer_model *m, struct refdrv *d)
{
	int slot = -1;
	for (unsigned i = 0; i < SM_COUNTERS && slot < 0; i++)
		if (!m->c[i].live)
			slot = (int)i;
	if (slot < 0)
		return 0;
	uint32_t id;
	int st = done(m, refdrv_alloc_flow_counter(d, &id));
	if (st == 0)
		m->c[slot] = (struct sm_counter){ .live = true, .id = id };
	return st;
}

static int op_dealloc_fc(struct steer_model *m, struct refdrv *d, struct reader *r)
{
	uint32_t id = counter_sel(m, rd8(r));
	int st = done(m, refdrv_dealloc_flow_counter(d, id));
	int cs = counter_slot_of(m, id);
	if (st == 0 && cs >= 0)
		m->c[cs].live = false;
	return st;
}

static int op_query_fc(struct steer_model *m, struct refdrv *d, struct reader *r, bool *mismatch)
{
	uint32_t id = counter_sel(m, rd8(r));
	bool clear = rd8(r) & 1;
	uint64_t pk = 0, oc = 0;
	int st = done(m, refdrv_query_flow_counter(d, id, clear, &pk, &oc));
	int cs = counter_slot_of(m, id);
	if (st == 0 && cs >= 0) {
		struct sm_counter *c = &m->c[cs];
		if (c->packets != pk || c->octets != oc)
			*mismatch = true;
		if (clear)
			c->packets = c->octets = 0;
	}
	return st;
}

int sm_op(struct steer_model *m, struct refdrv *d, unsigned op, struct reader *r, bool *mismatch)
{
	switch ((enum sm_op)op) {
	case SM_OP_CREATE_FT: return op_create_ft(m, d, r);
	case SM_OP_DESTROY_FT: return op_destroy_ft(m, d, r);
	case SM_OP_CREATE_FG: return op_create_fg(m, d, r);
	case SM_OP_DESTROY_FG: return op_destroy_fg(m, d, r);
	case SM_OP_SET_FTE: return op_set_fte(m, d, r);
	case SM_OP_DELETE_FTE: return op_delete_fte(m, d, r);
	case SM_OP_ROOT: return op_root(m, d, r);
	case SM_OP_MODIFY_FT: return op_modify_ft(m, d, r);
	case SM_OP_ALLOC_FC: return op_alloc_fc(m, d);
	case SM_OP_DEALLOC_FC: return op_dealloc_fc(m, d, r);
	case SM_OP_QUERY_FC: return op_query_fc(m, d, r, mismatch);
	case SM_OP_COUNT: break;
	}
	return 0;
}

int sm_teardown(struct steer_model *m, struct refdrv *d)
{
	int rc = 0;
	for (unsigned i = 0; i < SM_TABLES; i++) {
		struct sm_table *t = &m->t[i];
		for (uint32_t k = 0; t->live && k < (1u << t->log_size); k++)
			if (t->fte[k].valid && refdrv_delete_fte(d, t->type, t->id, k) != 0)
				rc = -1;
	}
	for (unsigned i = 0; i < SM_GROUPS; i++) {
		struct sm_group *g = &m->g[i];
		if (g->live && refdrv_destroy_flow_group(d, m->t[g->table].type, m->t[g->table].id,
							 g->id) != 0)
			rc = -1;
	}
	/* Tables another names (a miss, D-OBJ-1) go after it: rounds until none goes. */
	for (bool more = true; more;) {
		more = false;
		for (unsigned i = 0; i < SM_TABLES; i++) {
			struct sm_table *t = &m->t[i];
			if (t->live && refdrv_destroy_flow_table(d, t->type, t->id) == 0) {
				t->live = false;
				more = true;
			}
		}
	}
	for (unsigned i = 0; i < SM_TABLES; i++)
		if (m->t[i].live)
			rc = -1;
	for (unsigned i = 0; i < SM_COUNTERS; i++)
		if (m->c[i].live && refdrv_dealloc_flow_counter(d, m->c[i].id) != 0)
			rc = -1;
	uint32_t tirs[4];
	memcpy(tirs, m->tirs, sizeof tirs);
	memset(m, 0, sizeof *m);
	memcpy(m->tirs, tirs, sizeof tirs);
	return rc;
}

void sm_clear(struct steer_model *m)
{
	for (unsigned i = 0; i < SM_TABLES; i++)
		if (m->t[i].id || m->t[i].live) /* a slot taken again is cleared then too */
			memset(&m->t[i], 0, sizeof m->t[i]);
	memset(m->g, 0, sizeof m->g);
	memset(m->c, 0, sizeof m->c);
	memset(m->root, 0, sizeof m->root);
	m->cmds = m->ok = 0;
}

unsigned sm_check_counters(const struct steer_model *m, struct refdrv *d, const char *prop)
{
	unsigned queried = 0;
	for (unsigned i = 0; i < SM_COUNTERS; i++) {
		const struct sm_counter *c = &m->c[i];
		if (!c->live)
			continue;
		uint64_t pk = 0, oc = 0;
		NICREF_FUZZ_CHECK(refdrv_query_flow_counter(d, c->id, false, &pk, &oc) == 0);
		queried++;
		NICREF_FUZZ_PROP(pk == c->packets && oc == c->octets, prop,
				 "flow counter %u: the device %llu packets %llu octets, the model "
				 "%llu %llu", c->id, (unsigned long long)pk, (unsigned long long)oc,
				 (unsigned long long)c->packets, (unsigned long long)c->octets);
	}
	return queried;
}

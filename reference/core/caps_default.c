/* The default device profile's capabilities (PRM §12.3.3, T144-T153): one row per field of
 * every capability layout, with the maximum (QUERY_HCA_CAP op_mod bit 0 = 0) and the current
 * value at reset (bit 0 = 1). They differ only where SET_HCA_CAP may change a field (the RW
 * fields of T145) or where the profile says so. docs/caps.md lists the same table; the unit
 * test caps_doc_test.c compares it with what QUERY_HCA_CAP returns.
 *
 * The device is a one-function ConnectX-4 Lx class Ethernet NIC (the PRM Rev 0.40 is
 * Ethernet-only: T145 port_type defines only 0x1 Ethernet, and T127 has no QP commands). Counts
 * of objects (CQ, MKey, RQ, SQ, TIR, TIS, RMP, RQT, PD, TD) are 2^16 in the default profile
 * (profile.log_max_objects, log_max_pd, log_max_transport_domain); a real ConnectX-4 Lx reports
 * 2^24 for most, and a profile may say so: the handle spaces are 24 bits wide whatever the count
 * (obj/objtab.h). A feature bit is 1 when nicref models or plans to model the feature and 0
 * when it does not (each 0 says why).
 *
 * Capabilities the PRM refers to but places nowhere in T144-T153 (D-CAP-1, docs/caps.md) are
 * fixed parameters of this profile, not serialised:
 *   log_max_qp_sz            16  = log_max_wq_sz: the largest SQ/RQ in WQEs (§7.4.1, L2050)
 *   max_wqe_sz_sq            63  octowords (L2159): the 6-bit ds of the ctrl segment
 *   max_wqe_sz_rq            32  octowords = 512 B = 2^log_max_stride_sz_rq
 *   log_max_bf_regs_per_page  2  four BlueFlame registers at 800h-FFFh of a UAR page (PRM
 *                                §7.2.2 T13, §7.2.2.1), 2^log_bf_reg_size = 512 B each
 *   log_max_bf_pages          8  every UAR page of the 1 MB area (uar_sz 0, 4 KB pages)
 *   imaicl                    0  PRM §10.1.1: an indirect MKey's rights are checked against
 *                                the MKeys it points to
 *   tunneled offloads         0  no tunnelling in Rev 0.40 (PRM §3.3.1, T4) */
#include <string.h>

#include "core/dev.h"

/* A field of a capability structure: field i of layout l. */
struct cap_ref {
	const struct nicref_layout *l;
	uint16_t i;
};
#define CAP_ALL_FIELDS UINT16_MAX /* every field of l */

struct cap_row {
	enum cap_type type;
	struct cap_ref at[2]; /* the wide fields holding the sub-structure, outermost first */
	struct cap_ref f;
	uint64_t max, cur;
};

/* Values taken from the profile (struct nicref_profile) rather than fixed here. */
#define P_NUM_PORTS (UINT64_MAX - 0)      /* profile.num_ports */
#define P_CMDIF_CHECKSUM (UINT64_MAX - 1) /* profile.cmdif_checksum (D-CMD-5) */
#define P_TIMER_MHZ (UINT64_MAX - 2)      /* profile.timer_khz in MHz, exact (D-TS-1) */
#define P_LOG_MAX_PD (UINT64_MAX - 3)     /* profile.log_max_pd */
#define P_LOG_MAX_TD (UINT64_MAX - 4)     /* profile.log_max_transport_domain */
#define P_DRIVER_VERSION (UINT64_MAX - 5) /* profile.driver_version */
#define P_LOG_MAX_OBJ (UINT64_MAX - 6)    /* profile.log_max_objects */
#define P_LRO_MIN_MSS (UINT64_MAX - 7)    /* profile.lro_min_mss_size */
#define P_LRO_MSG_MODE (UINT64_MAX - 8)   /* profile.lro_max_msg_sz_mode */
#define P_FIRST P_LRO_MSG_MODE            /* the lowest of these markers */

#define REF(L, n) { &nicref_layout_##L, PRMF_##L##__##n }
#define NOREF { NULL, 0 }
#define GEN(n, max, cur) { CAP_GENERAL, { NOREF, NOREF }, REF(hca_cap, n), max, cur },
#define ETH(n, max, cur)                                                                        \
	{ CAP_ETH_OFFLOAD,                                                                      \
	  { NOREF, NOREF },                                                                     \
	  REF(per_protocol_networking_offload_caps, n),                                         \
	  max,                                                                                  \
	  cur },
#define FT(n, max, cur)                                                                         \
	{ CAP_FLOW_TABLE_NIC, { NOREF, NOREF }, REF(flow_table_nic_cap, n), max, cur },
#define FT_RX_REF REF(flow_table_nic_cap, flow_table_properties_nic_receive)
#define FT_TX_REF REF(flow_table_nic_cap, flow_table_properties_nic_transmit)
#define FT_RX(n, v)                                                                             \
	{ CAP_FLOW_TABLE_NIC, { FT_RX_REF, NOREF }, REF(flow_table_properties, n), v, v },
#define FT_TX(n, v)                                                                             \
	{ CAP_FLOW_TABLE_NIC, { FT_TX_REF, NOREF }, REF(flow_table_properties, n), v, v },
/* Every bit of a T152 block inside a T150 block. */
#define FT_FIELDS(at, w, v)                                                                     \
	{ CAP_FLOW_TABLE_NIC,                                                                   \
	  { at, REF(flow_table_properties, w) },                                                \
	  { &nicref_layout_flow_table_fields_supported, CAP_ALL_FIELDS },                       \
	  v,                                                                                    \
	  v },

static const struct cap_row cap_defaults[] = {
	/* ---- T145, general device capabilities (op_mod type 0) ---- */
	GEN(log_max_cq_sz, 22, 22)          /* 4 M CQEs, the CREATE_CQ bound (T76 log_cq_size) */
	GEN(log_max_cq, P_LOG_MAX_OBJ, P_LOG_MAX_OBJ)             /* object count, scaled (see above) */
	GEN(log_max_eq_sz, 22, 22)          /* as log_max_cq_sz */
	GEN(log_max_mkey, P_LOG_MAX_OBJ, P_LOG_MAX_OBJ)           /* object count, scaled */
	GEN(log_max_eq, 7, 7)               /* 128: a completion EQ per MSI-X vector (64) plus the
					       control EQs that share vector 0 */
	GEN(max_indirection, 4, 4)          /* KLM nesting depth the MKey walk follows */
	GEN(log_max_mrw_sz, 48, 48)         /* 256 TB: a 48-bit virtual address space */
	GEN(log_max_klm_list_size, 16, 16)  /* ConnectX-4 Lx value */
	GEN(end_pad, 1, 1)                  /* §3.3.10 modelled (RQ end_padding_mode) */
	GEN(start_pad, 1, 1)                /* §3.3.9 modelled (D-RX-1) */
	GEN(cache_line_128byte, 1, 0)       /* RW. 128-byte lines supported; 64 in force until SET
					       (§3.3.10: "by default, is 64 bytes") */
	GEN(vport_counters, 1, 1)           /* QUERY_VPORT_COUNTER (§12.17) */
	GEN(vport_group_manager, 1, 1)      /* the one function manages its vport group: L2 table */
	GEN(nic_flow_table, 1, 1)           /* type 7 below */
	GEN(port_type, 1, 1)                /* T145: 0x1 Ethernet, the only type */
	GEN(num_ports, P_NUM_PORTS, P_NUM_PORTS)
	GEN(log_max_msg, 30, 30)            /* 1 GB, ConnectX-4 Lx value */
	GEN(max_tc, 8, 8)                   /* TCs 0..7, said explicitly (0 would also mean 8) */
	GEN(temp_warn_event, 0, 0)          /* no temperature sensor is modelled */
	GEN(cqe_version, 1, 1)              /* §7.1.1.1 (ISSI 1): user_index and flow_tag CQEs */
	GEN(cmdif_checksum, 3, P_CMDIF_CHECKSUM) /* RW. T145: 0, 1 and 3 defined */
	GEN(wq_signature, 1, 1)             /* §9.2.3 WQE signatures modelled (D-WQE-2) */
	GEN(sctr_data_cqe, 0, 0)            /* scatter-to-CQE (T68 cqe_format 1/2) not modelled */
	GEN(eth_net_offloads, 1, 1)         /* type 1 below */
	GEN(cq_oi, 1, 1)                    /* MODIFY_CQ field_select bits, all modelled */
	GEN(cq_resize, 1, 1)
	GEN(cq_moderation, 1, 1)
	GEN(cq_eq_remap, 1, 1)
	GEN(scqe_break_moderation, 1, 1)
	GEN(cq_period_start_from_cqe, 1, 1) /* cq_period_mode 1 */
	GEN(uar_sz, 0, 0)                   /* 1 MB UAR area (DEV_MAX_UARS) */
	GEN(umem_uid_0, 1, 1)               /* beyond Rev 0.40, public mlx5 interface: drivers
					       (mlx5_vfio) refuse a device without it (D-VFIO-2) */
	GEN(log_pg_sz, 12, 12)              /* 4 KB, the page of MANAGE_PAGES (T139) */
	GEN(bf, 1, 1)                       /* BlueFlame modelled (D-DB-3) */
	GEN(driver_version, P_DRIVER_VERSION, P_DRIVER_VERSION)           /* SET_DRIVER_VERSION supported */
	GEN(pad_tx_eth_packet, 1, 1)        /* D-PAD-1 */
	GEN(log_bf_reg_size, 9, 9)          /* PRM §7.2, T13/T14 [DEC]: 512 B, two 256 B buffers */
	GEN(log_max_transport_domain, P_LOG_MAX_TD, P_LOG_MAX_TD)
	GEN(log_max_pd, P_LOG_MAX_PD, P_LOG_MAX_PD)
	GEN(log_max_flow_counter_bulk, 8, 8) /* 256 counters per query: 4 KB of output */
	GEN(max_flow_counter, 0xFFFF, 0xFFFF) /* the field's range, one per flow of log_max_flow */
	GEN(modify_tis, 1, 1)               /* MODIFY_TIS modelled */
	GEN(log_max_rq, P_LOG_MAX_OBJ, P_LOG_MAX_OBJ)             /* object counts, scaled */
	GEN(log_max_sq, P_LOG_MAX_OBJ, P_LOG_MAX_OBJ)             /* RW (T145; odd for a count, but so marked) */
	GEN(log_max_tir, P_LOG_MAX_OBJ, P_LOG_MAX_OBJ)
	GEN(log_max_tis, P_LOG_MAX_OBJ, P_LOG_MAX_OBJ)
	GEN(basic_cyclic_rcv_wqe, 1, 1)     /* RMP.basic_cyclic_rcv_wqe modelled (PRM §7.10, T64/T65) */
	GEN(log_max_rmp, P_LOG_MAX_OBJ, P_LOG_MAX_OBJ)
	GEN(log_max_rqt, P_LOG_MAX_OBJ, P_LOG_MAX_OBJ)
	GEN(log_max_rqt_size, 8, 8)         /* 256 entries = the RSS table, rss_ind_tbl_cap */
	GEN(log_max_tis_per_sq, 0, 0)       /* one TIS per SQ (SQC tis_num_0) */
	GEN(log_max_stride_sz_rq, 9, 9)     /* 512 B: 32 scatter entries (max_wqe_sz_rq) */
	GEN(log_min_stride_sz_rq, 4, 4)     /* 16 B: one scatter entry (§7.4.1.2) */
	GEN(log_max_stride_sz_sq, 6, 6)     /* SQ stride is the 64 B WQEBB (§7.4.1.1) */
	GEN(log_min_stride_sz_sq, 6, 6)
	GEN(log_max_wq_sz, 16, 16)          /* 64 K WQEs, ConnectX-4 Lx value */
	GEN(log_max_vlan_list, 12, 12)      /* every VLAN id */
	GEN(log_max_current_mc_list, 10, 10)
	GEN(log_max_current_uc_list, 7, 7)
	GEN(log_max_l2_table, 12, 12)
	GEN(log_uar_page_sz, 0, 0)          /* RW. 4 KB UAR pages (D-UAR-1 assumes them); the max
					       set is no bound for it, see cmd_caps.c */
	GEN(device_frequency_mhz, P_TIMER_MHZ, P_TIMER_MHZ) /* 156: the timer's 156 MHz (D-TS-1) */

	/* ---- T147, Ethernet offload capabilities (op_mod type 1) ---- */
	ETH(csum_cap, 1, 1)                 /* §3.3.1 */
	ETH(vlan_cap, 1, 1)
	ETH(lro_cap, 1, 1)                  /* §3.3.6 */
	ETH(lro_psh_flag, 1, 1)
	ETH(lro_time_stamp, 1, 1)
	ETH(lro_max_msg_sz_mode, P_LRO_MSG_MODE, P_LRO_MSG_MODE) /* 0 start_from_TCP_header
					       (the mode T48 names, lro_max_ip_payload_size) by
					       default; the profile says (D-LRO-6) */
	ETH(self_lb_en_modifiable, 1, 1)    /* loopback modelled (PRM §3.4) */
	ETH(self_lb_mc, 1, 1)
	ETH(self_lb_uc, 1, 1)
	ETH(max_lso_cap, 16, 16)            /* 64 KB LSO payload */
	ETH(wqe_inline_mode, 1, 1)          /* nic_vport_context: ConnectX-4 Lx behaviour */
	ETH(rss_ind_tbl_cap, 8, 8)          /* 256, = log_max_rqt_size */
	ETH(lro_min_mss_size, P_LRO_MIN_MSS, P_LRO_MIN_MSS) /* profile, default 1: any payload;
					       pure ACKs never merge (§3.3.6.2) */
	ETH(lro_timer_supported_periods_0, 8, 8) /* µs, ascending (T147) */
	ETH(lro_timer_supported_periods_1, 16, 16)
	ETH(lro_timer_supported_periods_2, 32, 32)
	ETH(lro_timer_supported_periods_3, 1024, 1024)

	/* ---- T149/T151/T153, NIC flow table capabilities (op_mod type 7) ---- */
	FT(nic_rx_multi_path_tirs, 1, 1)    /* §7.11.2.4 modelled in full */
	FT(nic_rx_multi_path_tirs_fts, 1, 1)
	FT_RX(ft_support, 1)
	FT_RX(flow_tag, 1)
	FT_RX(flow_counter, 1)
	FT_RX(flow_modify_en, 1)
	FT_RX(modify_root, 1)
	FT_RX(identified_miss_table, 1)
	FT_RX(flow_table_modify, 1)
	FT_RX(reset_root_to_default, 0)     /* D-FT-1 */
	FT_RX(log_max_ft_size, 16)
	FT_RX(max_ft_level, 64)             /* multi-path destinations need level >= 64 */
	FT_RX(log_max_ft_num, 10)
	FT_RX(log_max_flow_counter, 0)      /* one counter per flow */
	FT_RX(log_max_destination, 6)       /* multi-path fan-out of 64 */
	FT_RX(log_max_flow, 16)
	FT_FIELDS(FT_RX_REF, ft_field_support, 1)         /* every T153 field matches ... */
	FT_FIELDS(FT_RX_REF, ft_field_bitmask_support, 1) /* ... under any mask (D-FT-2) */
	FT_TX(ft_support, 1)
	FT_TX(flow_tag, 0)                  /* no flow_tag on NIC_TX (PRM §7.11.4.2) */
	FT_TX(flow_counter, 0)              /* D-FT-4 */
	FT_TX(flow_modify_en, 1)
	FT_TX(modify_root, 1)
	FT_TX(identified_miss_table, 1)
	FT_TX(flow_table_modify, 1)
	FT_TX(reset_root_to_default, 0)     /* D-FT-1 */
	FT_TX(log_max_ft_size, 16)
	FT_TX(max_ft_level, 64)
	FT_TX(log_max_ft_num, 10)
	FT_TX(log_max_flow_counter, 0)
	FT_TX(log_max_destination, 0)       /* NIC_TX has no multi-path (PRM §7.11.4.2) */
	FT_TX(log_max_flow, 16)
	FT_FIELDS(FT_TX_REF, ft_field_support, 1)
	FT_FIELDS(FT_TX_REF, ft_field_bitmask_support, 1)
};

static uint64_t resolve(uint64_t v, const struct nicref_profile *p)
{
	switch (v) {
	case P_NUM_PORTS:
		return p->num_ports;
	case P_CMDIF_CHECKSUM:
		return p->cmdif_checksum;
	case P_TIMER_MHZ:
		return p->timer_khz / 1000; /* a whole number of MHz (cmd/init_seg.c, D-TS-1) */
	case P_LOG_MAX_PD:
		return p->log_max_pd;
	case P_LOG_MAX_TD:
		return p->log_max_transport_domain;
	case P_LOG_MAX_OBJ:
		return p->log_max_objects;
	case P_DRIVER_VERSION:
		return p->driver_version;
	case P_LRO_MIN_MSS:
		return p->lro_min_mss_size;
	case P_LRO_MSG_MODE:
		return p->lro_max_msg_sz_mode;
	default:
		return v;
	}
}

static void put(uint8_t *buf, uint64_t bit, const struct nicref_field *f, uint64_t v)
{
	/* A value that does not fit its field is a bug of the table above. */
	NICREF_ASSERT(nicref_bits_set(buf, CAP_BYTES, bit + f->bit_offset, f->bit_width, v) == 0);
}

void caps_reset(struct nicref_dev *dev)
{
	struct caps *caps = &dev_core(dev)->caps;
	if (caps->cur_changed) {
		memcpy(caps->cur, caps->cur_default, sizeof caps->cur);
		caps->cur_written = true;
	}
	caps->cur_changed = false;
}

/* ---- capabilities a profile lowers (struct nicref_cap_setting) ---- */

/* The capability layouts a setting may name; their sub-structures through cap_subs. */
static const struct {
	const struct nicref_layout *l;
	enum cap_type type;
} cap_layouts[] = {
	{ &nicref_layout_hca_cap, CAP_GENERAL },
	{ &nicref_layout_per_protocol_networking_offload_caps, CAP_ETH_OFFLOAD },
	{ &nicref_layout_flow_table_nic_cap, CAP_FLOW_TABLE_NIC },
};

/* The sub-structures a setting reaches by a dotted path: the wide field `at` of layout `in`
 * holds a `sub` (T149's two T150 properties blocks; T150's two T152 field-support blocks). */
static const struct {
	struct cap_ref at;
	const struct nicref_layout *sub;
} cap_subs[] = {
	{ FT_RX_REF, &nicref_layout_flow_table_properties },
	{ FT_TX_REF, &nicref_layout_flow_table_properties },
	{ REF(flow_table_properties, ft_field_support), &nicref_layout_flow_table_fields_supported },
	{ REF(flow_table_properties, ft_field_bitmask_support),
	  &nicref_layout_flow_table_fields_supported },
};

static const struct nicref_layout *cap_sub(const struct nicref_field *at)
{
	for (size_t i = 0; i < sizeof cap_subs / sizeof cap_subs[0]; i++)
		if (&cap_subs[i].at.l->fields[cap_subs[i].at.i] == at)
			return cap_subs[i].sub;
	return NULL;
}

/* Whether the table's path (row->at) is the setting's (at: NULL-terminated, at most 2). */
static bool cap_path_is(const struct cap_row *row, const struct nicref_field *const at[2])
{
	for (unsigned k = 0; k < 2; k++) {
		const struct nicref_field *rf = row->at[k].l ? &row->at[k].l->fields[row->at[k].i]
							    : NULL;
		if (rf != at[k])
			return false;
	}
	return true;
}

/* Minimums: lowering one would let the driver ask for more, not less (T145, T147). */
static const struct cap_ref cap_minimums[] = {
	REF(hca_cap, log_min_stride_sz_rq),
	REF(hca_cap, log_min_stride_sz_sq),
	REF(per_protocol_networking_offload_caps, lro_min_mss_size),
};

static int cap_layout_index(const struct nicref_layout *l)
{
	for (size_t i = 0; i < sizeof cap_layouts / sizeof cap_layouts[0]; i++)
		if (cap_layouts[i].l == l)
			return (int)i;
	return -1;
}

/* The layout a setting's field belongs to: the capability layout, or the sub-structure its
 * path leads to; NULL when the path is not one of cap_subs. */
static const struct nicref_layout *cap_field_layout(const struct nicref_layout *l,
						    const struct nicref_field *const at[2])
{
	for (unsigned k = 0; k < 2 && at[k]; k++) {
		if (at[k] < l->fields || at[k] >= l->fields + l->nfields)
			return NULL;
		l = cap_sub(at[k]);
		if (!l)
			return NULL;
	}
	return l;
}

/* What the device offers for a capability field (of layout l, or at the path `at` inside it)
 * before any setting (a field that follows the profile is FIXED, so the offer does not depend
 * on it): NICREF_CAP_SET_OK and *out, or NICREF_CAP_SET_UNKNOWN / _FIXED. */
static enum nicref_cap_set_result cap_offered(const struct nicref_layout *top,
					      const struct nicref_field *const at[2],
					      const struct nicref_field *f, uint64_t *out)
{
	if (cap_layout_index(top) < 0)
		return NICREF_CAP_SET_UNKNOWN;
	const struct nicref_layout *l = cap_field_layout(top, at);
	if (!l || f < l->fields || f >= l->fields + l->nfields || f->bit_width > 64)
		return NICREF_CAP_SET_UNKNOWN; /* a wide field is set through its path */
	uint16_t i = (uint16_t)(f - l->fields);
	for (size_t m = 0; m < sizeof cap_minimums / sizeof cap_minimums[0]; m++)
		if (cap_minimums[m].l == l && cap_minimums[m].i == i)
			return NICREF_CAP_SET_FIXED;
	*out = 0; /* a field the table leaves out is 0 */
	for (size_t r = 0; r < sizeof cap_defaults / sizeof cap_defaults[0]; r++) {
		const struct cap_row *row = &cap_defaults[r];
		if (!cap_path_is(row, at) || row->f.l != l ||
		    (row->f.i != i && row->f.i != CAP_ALL_FIELDS))
			continue;
		if (row->max >= P_FIRST || row->cur >= P_FIRST)
			return NICREF_CAP_SET_FIXED; /* follows a profile setting */
		*out = row->max;
	}
	return NICREF_CAP_SET_OK;
}

/* Resolves a dotted path in l into the wide fields it passes (at) and its last field. */
static const struct nicref_field *cap_path(const struct nicref_layout *l, const char *path,
					   const struct nicref_field *at[2])
{
	char name[96];
	at[0] = at[1] = NULL;
	for (unsigned depth = 0;; depth++) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof name)
			return NULL;
		memcpy(name, path, n);
		name[n] = '\0';
		const struct nicref_field *f = nicref_layout_field(l, name);
		if (!f || !dot)
			return f;
		if (depth == 2 || !(l = cap_sub(f)))
			return NULL;
		at[depth] = f;
		path = dot + 1;
	}
}

enum nicref_cap_set_result nicref_profile_cap_set(struct nicref_profile *p, const char *layout,
						  const char *field, uint64_t value)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	const struct nicref_field *at[2];
	const struct nicref_field *f = l ? cap_path(l, field, at) : NULL;
	uint64_t offered;
	if (!f)
		return NICREF_CAP_SET_UNKNOWN;
	enum nicref_cap_set_result rc = cap_offered(l, at, f, &offered);
	if (rc != NICREF_CAP_SET_OK)
		return rc;
	if (f->bit_width > 64 || (f->bit_width < 64 && value >> f->bit_width))
		return NICREF_CAP_SET_WIDTH;
	if (value > offered)
		return NICREF_CAP_SET_RAISE;
	unsigned k = 0;
	/* The same field under another path is another capability (receive / transmit). */
	while (k < p->ncaps && !(p->caps[k].field == f && p->caps[k].at[0] == at[0] &&
				 p->caps[k].at[1] == at[1]))
		k++;
	if (k == NICREF_MAX_CAP_SETTINGS)
		return NICREF_CAP_SET_FULL;
	p->caps[k] = (struct nicref_cap_setting){ l, { at[0], at[1] }, f, value };
	if (k == p->ncaps)
		p->ncaps++;
	return NICREF_CAP_SET_OK;
}

int caps_profile_ok(const struct nicref_profile *p)
{
	if (p->ncaps > NICREF_MAX_CAP_SETTINGS)
		return 0;
	for (unsigned k = 0; k < p->ncaps; k++) {
		const struct nicref_cap_setting *c = &p->caps[k];
		uint64_t offered;
		if (!c->layout || !c->field || (c->at[1] && !c->at[0]) ||
		    cap_offered(c->layout, c->at, c->field, &offered) != 0 ||
		    c->field->bit_width > 64 || c->value > offered)
			return 0;
	}
	return 1;
}

/* Each setting into max and cur: min(what the table set, the setting's value). */
static void caps_lower(struct nicref_dev *dev)
{
	struct caps *caps = &dev_core(dev)->caps;
	const struct nicref_profile *p = &dev_core(dev)->cfg.profile;
	for (unsigned k = 0; k < p->ncaps; k++) {
		const struct nicref_cap_setting *c = &p->caps[k];
		enum cap_type t = cap_layouts[cap_layout_index(c->layout)].type;
		uint8_t *bufs[2] = { caps->max[t], caps->cur[t] };
		/* The sub-structure's place: its wide fields are whole bytes (T149, T150). */
		uint64_t bit = 0;
		for (unsigned k2 = 0; k2 < 2 && c->at[k2]; k2++)
			bit += c->at[k2]->bit_offset;
		NICREF_ASSERT(bit % 8 == 0);
		for (unsigned b = 0; b < 2; b++) {
			uint64_t v = 0;
			NICREF_ASSERT(nicref_field_get(bufs[b] + bit / 8, CAP_BYTES - bit / 8, c->field,
						       &v) == 0);
			if (c->value < v)
				put(bufs[b], bit, c->field, c->value);
		}
	}
}

void caps_init(struct nicref_dev *dev)
{
	struct caps *caps = &dev_core(dev)->caps;
	const struct nicref_profile *p = &dev_core(dev)->cfg.profile;
	memset(caps, 0, sizeof *caps);
	for (size_t r = 0; r < sizeof cap_defaults / sizeof cap_defaults[0]; r++) {
		const struct cap_row *row = &cap_defaults[r];
		uint64_t bit = 0;
		for (unsigned k = 0; k < 2 && row->at[k].l; k++)
			bit += row->at[k].l->fields[row->at[k].i].bit_offset;
		uint64_t max = resolve(row->max, p), cur = resolve(row->cur, p);
		const struct nicref_layout *l = row->f.l;
		uint32_t from = row->f.i == CAP_ALL_FIELDS ? 0 : row->f.i;
		uint32_t to = row->f.i == CAP_ALL_FIELDS ? l->nfields : from + 1u;
		for (uint32_t i = from; i < to; i++) {
			put(caps->max[row->type], bit, &l->fields[i], max);
			put(caps->cur[row->type], bit, &l->fields[i], cur);
		}
	}
	caps_lower(dev);
	memcpy(caps->cur_default, caps->cur, sizeof caps->cur);
}

/* Target: tx, the send path (PRM §7.4, §7.2.2, §7.9, §7.12, §3.3, §10.1.1; docs/tx.md,
 * docs/tx_offload.md): WQEs written to a live SQ, rung by doorbell or Blue Flame, on a device the
 * reference driver brought up with an SQ stack (harness/driver_sq.h: PD, TD, UAR, EQ, CQ, TIS,
 * the data MKey over 1 MiB of host memory, the SQ in RDY) and one more MKey for UMR (KLM access,
 * umr_en, free).
 *
 * Input: ops, each an op byte and its operands (fuzzers/tx_ops.h has the codes and the
 * operands of every op but TX_OP_WQE's, which are here). TX_OP_WQE is kind:u8 ctrl:u8 then:
 *   ctrl: bits 1:0 ce, bit 2 se, bits 4:3 fm (T26)
 *   NOP   pad:u8                       pad % 4 zero-length inline data segments (§7.2.2.1)
 *   SEND, LSO
 *         tmpl:u8 var:u8 cs:u8 ihs:u8 plen:u16 mss:u16 segs:u8 poff:u16 key:u8 nmut:u8
 *         then nmut % 8 pairs pos:u8 val:u8
 *     tmpl  bits 2:0 the header template (enum tx_template), bits 4:3 VLAN tags 0-3, bit 5/6
 *           the first/second tag 802.1ad (else 802.1Q)
 *     var   bits 1:0 destination (a foreign unicast, multicast, broadcast, the vport's own
 *           address), bit 2 TCP timestamps option, bits 4:3 IPv4 options / IPv6 extension
 *           headers, bit 5 checksum fields 0 (else junk), bit 6 TCP FIN|PSH, bit 7 TCP CWR
 *     cs    bit 0 l3cs, bit 1 l4cs, bit 2 IP length 0 (NDIS LSOv2), bit 3 an IP fragment,
 *           bit 7 mss on a SEND
 *     ihs   inline headers: 0 all the headers, 1 none, 2 the L2 header, 3 through L3, 4-127
 *           the headers less ihs - 3 bytes, 128-255 the headers and ihs - 128 payload bytes
 *     plen  payload bytes: SEND plen % 9800, LSO plen + plen / 16
 *     mss   T28 mss (LSO; a SEND with cs bit 7)
 *     segs  bits 2:0 data segments, bits 7:3 which of the first five are inline
 *     poff  where the payload sits in the data region (16-byte units)
 *     key   bits 1:0 l_key: the data MKey, the UMR MKey (addresses from 0 + poff * 16 % 4 KB,
 *           where its translations start), the data MKey with another tag, 0; bit 2 the first
 *           pointer's byte_count 0 (2 GB); bit 3 an address past the MKey
 *     pos, val  header byte pos % the header length := val
 *   UMR   flags:u8 n:u8 off:u8 mask:u16 start:u16 len:u16 access:u8, then n % 9 KLMs
 *         (mkey:u8 addr:u16 bc:u16)
 *     flags bit 0 inline translations (else the UMR pointer), bits 2:1 check_free, bit 3
 *           translation_offset_en, bits 5:4 umr_mkey (the UMR MKey, the data MKey, the UMR
 *           MKey with another tag, 0), bit 6 the size as given (else rounded to 64 B), bit 7
 *           the pointer 16 bytes off its 2 KB alignment
 *     mask  bits 0-8 the MkeyCtx mask bits len, log_page_size, start_addr, mkey[7:0], lr, lw,
 *           rr, rw, free (T33), bit 9 a reserved one
 *     access bit 0 lr, bit 1 lw, bit 2 free, bit 3 mkey[7:0] := the byte (else the UMR tag)
 *     KLM   mkey bits 1:0 as key above; addr in the data region (16-byte units); bc, 0xFFFF
 *           meaning 2 GB + 1
 * The op loop stops after 256 ops.
 *
 * Properties after every op (a broken one prints "property NAME broken at FILE:LINE: STATE"
 * and traps, fuzz_report.c), on top of the shared oracles (fuzz_oracle.c: nicref_dev_check, the
 * trace's sequence, time and counters) and no transport violation:
 *  - FRAME_MTU: a frame's L3 payload (after the Ethernet header and up to two 802.1Q/802.1ad
 *    tags, D-TX-6, D-REG-5) is within the MTU (the port's oper_mtu, or the vport's mtu if
 *    smaller);
 *  - FRAME_MAX: no frame longer than max_mtu + the Ethernet header + two tags (D-TXO-6), what
 *    the port can send;
 *  - FRAME_PAD: every frame at least 60 bytes with pad_tx_eth_packet (§3.3.8, D-TXO-1);
 *  - FRAME_OUT_CRC: the frame_out event's length and CRC are the frame's (D-TX-2);
 *  - CSUM_IPV4, CSUM_L4: the IPv4 header checksum and the TCP/UDP checksum (pseudo-header,
 *    IPv4 and IPv6) of every frame whose WQE asked for them (l3cs, l4cs; LSO always, D-TXO-10)
 *    where they apply (D-TXO-2, -5, -6, -7, -8), checked by this file's own parser and sum;
 *    a UDP checksum is never 0 (D-TXO-3);
 *  - FRAME_FROM_SEND: a frame only while a SEND or LSO WQE executes on a RDY SQ;
 *  - NO_FRAME_REFUSED: no frame for a WQE that completed in error or whose packet was dropped
 *    for its inline headers (§7.9.3.1); SEND_ONE_PACKET: a SEND that completes makes exactly
 *    one frame, local frame or discard;
 *  - CQE_PER_WQE: a WQE run in RDY has one CQE if ce is 10/11 (T26), an error CQE if it failed
 *    (whatever ce, the first error), no other; CQE_OF_WQE: each CQE names the WQE (wqe_counter,
 *    s_wqe_opcode); FLUSH_CQE: each WQE flushed in ERR has a flush CQE unless ce is 01 after an
 *    error (T26, §7.9.2); CQE_BUFFER: the CQ buffer holds exactly the CQEs the trace announced,
 *    in order, field by field;
 *  - SQ_STATE: the SQ moves only by the legal transitions (D-SQ-1: RST->RDY, RDY->ERR, any->RST
 *    by command; RDY->ERR by the device), to ERR by the device exactly when a WQE completed in
 *    error; QUERY_SQ agrees with the state and with the counter the WQEs run and flushed
 *    advanced; WQEs run from the device's counter in order, only in RDY (WQE_ORDER).
 *
 * Between inputs the device comes back from a snapshot taken after the bring-up (fuzz_snap.h;
 * NICREF_FUZZ_SNAPSHOT=0 or a DUT turns it off): the SQ, CQ and UMR MKey as made, the ring,
 * the data, the clock, the counters, all as they were. Without snapshots, the stack is put back
 * by what the last input changed (light_restore: the CQ and the SQ made again, the UMR MKey if a UMR ran on it, Blue Flame buffers left written rung
 * for no SQ, the MTUs and the vport's state written back, the ring and the data zeroed) rather
 * than by a full reset and bring-up, which cost 2.6 times as much; only the clock, the EQ's
 * index, the counters and the command tokens go on. tx_init checks that a light restore makes
 * the SQ and CQ contexts the bring-up made, the selftest that the corpus does the same either
 * way; NICREF_TX_FULL_RESET=1 forces a full bring-up for every input (fuzzers/README.md). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "driver_cq.h"
#include "driver_eq.h"
#include "driver_mkey.h"
#include "driver_sq.h"
#include "driver_vport.h"
#include "driver_wq.h"
#include "fuzz_dev.h"
#include "fuzz_oracle.h"
#include "fuzz_reader.h"
#include "fuzz_snap.h"
#include "fuzz_target.h"
#include "nicref/rules_tx.h"
#include "tx_ops.h"
#include "tx_hdrs.h"
#include "tx_view.h"

#define MAX_OPS 256u
#define DATA_SIZE 0x100000u	/* the data MKey's region (refdrv_sq_stack_defaults) */
#define UMR_TAG 0xC3u		/* mkey[7:0] of the UMR MKey */
#define UMR_OCTWORDS 64u	/* its translations (KLMs) */
#define UMR_LIST_AT 0xF0000u	/* where a UMR pointer's list goes in the data region */
#define BF_AREA 0x800u		/* §7.2.2 T13 */
#define BF_BYTES 0x800u
#define WQE_MAX (63u * 16u)	/* ds is 6 bits (T26) */
#define PAYLOAD_GAP 0x400u	/* room before the payload for header bytes not inlined */
#define MIN_FRAME 60u		/* §3.3.8 without the FCS (D-TX-2) */
#define EXPECT_MAX 256u

enum { ST_RST = 0, ST_RDY = 1, ST_ERR = 3 }; /* T63 */
enum { CQE_REQ = 0x0, CQE_REQ_ERR = 0xD };  /* T68 opcode */
enum { SYN_FLUSH = 0x5 };                     /* T74 WR_FLUSHED */

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static struct refdrv drv;
static struct refdrv_sq_stack st;
static struct refdrv_ops model_ops;

/* Learnt once (the same after every reset). */
static struct {
	uint32_t umr_index;
	unsigned oper_mtu, vport_mtu, max_mtu;
	bool pad, vport_up, wq_signature;
	unsigned vport_admin;
	uint64_t own_mac;
	uint64_t uar_off;
	unsigned bf_size;
} k;

/* What a light restore recreates: the stack as the bring-up left it. */
static struct {
	bool ok;			/* light restores reach the bring-up's state (tx_init) */
	bool full;			/* NICREF_TX_FULL_RESET: a full bring-up for every input */
	struct refdrv_sq_stack st;	/* the stack right after the bring-up */
	struct refdrv_sq_attr sq;	/* the SQ's CREATE_SQ attributes (driver_sq.c's) */
	uint64_t full_count, light_count;
} snap;

/* What this input did to the stack (reset per input). */
static struct {
	unsigned oper_mtu, vport_mtu;
	bool vport_up;
	uint8_t umr_tag;
	bool cq_broken; /* the CQ refused a CQE (overrun, error): CQE accounting stops */
	uint8_t bf[BF_BYTES]; /* the Blue Flame area of the SQ's UAR page as written */
	int ring_buf;         /* the buffer whose doorbell dword is being written */
	bool sq_touched;      /* the SQ was rung or changed state in this op */
	bool signature;       /* the SQ checks WQE signatures (TX_OP_SQ_CONFIG) */
	unsigned vport_admin; /* the vport's admin_state as last queried */
	/* What the next light restore puts back (light_restore). */
	bool config_dirty;       /* the port's or the vport's MTU or state changed */
	bool umr_dirty;          /* a UMR of the UMR MKey ran */
	uint8_t bf_d0, bf_dirty; /* per buffer: dword 0 written / dwords written, not rung */
	uint64_t data_lo, data_hi; /* the bytes of the data region written */
} in;

/* The SQ as the oracle follows it. */
static struct {
	uint8_t state;
	uint16_t hw;	/* the device's counter: WQEs run or flushed advance it */
	bool last_err;	/* the previous WQE completed in error (T26 CE 01) */
	bool db_bf;	/* the doorbell being acted on came with a whole Blue Flame copy */
	uint16_t db_index;
	int db_buf;
} sq;

/* The WQE executing, from its first read to the next one (or the end of the op). */
static struct exec {
	bool active;
	uint16_t index, bbs;
	uint32_t ring_off, ext; /* where it lies in the ring, and its bytes */
	uint8_t opcode, ce;
	bool se, l3cs, l4cs, from_bf;
	uint32_t umr_key;
	uint64_t umr_mask;
	uint8_t umr_new_tag;
	unsigned frames, local, discards, inline_drops, ok, err;
	uint8_t syndrome;
	bool sq_error;
} cur;

/* A WQE being flushed (ERR): its flush CQE. */
static struct {
	bool active;
	uint16_t index;
	uint8_t opcode;
	bool expect;
	unsigned cqes;
} fl;

/* CQEs the trace announced, to be found in the buffer in this order. */
static struct expect_cqe {
	uint16_t wqe_counter;
	uint8_t opcode, syndrome, s_wqe_opcode;
} expect[EXPECT_MAX];
static unsigned nexpect;
static bool expect_lost;

/* The last frame on the wire, for its frame_out event. */
static struct {
	bool pending;
	size_t len;
	uint32_t crc;
} wire;

static unsigned op_no;
static const char *op_name = "bring-up";
static bool following; /* the ops of an input run: the SQ is followed (not during bring-up) */

/* ---- Findings ------------------------------------------------------------------------------ */

static void describe_cur(char *b, size_t n)
{
	if (!cur.active) {
		snprintf(b, n, "no WQE executing");
		return;
	}
	snprintf(b, n,
		 "WQE %u (%s, ce %u, l3cs %d, l4cs %d, %s): frames %u, local %u, discards %u, "
		 "inline drops %u, CQEs ok %u err %u (syndrome 0x%x), SQ error %d",
		 cur.index, nicref_send_opcode_name(cur.opcode) ? nicref_send_opcode_name(cur.opcode)
								 : "?",
		 cur.ce, cur.l3cs, cur.l4cs, cur.from_bf ? "Blue Flame" : "memory", cur.frames,
		 cur.local, cur.discards, cur.inline_drops, cur.ok, cur.err, cur.syndrome,
		 cur.sq_error);
}

/* "property NAME broken at FILE:LINE: STATE", then the op and the WQE, then the trap. */
#define PROP(cond, name, ...)                                                                   \
	do {                                                                                    \
		if (!(cond))                                                                    \
			prop_failed(name, __FILE__, __LINE__, __VA_ARGS__);                      \
	} while (0)

__attribute__((format(printf, 4, 5))) _Noreturn static void
prop_failed(const char *name, const char *file, int line, const char *fmt, ...)
{
	char state[512], w[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(state, sizeof state, fmt, ap);
	va_end(ap);
	describe_cur(w, sizeof w);
	fuzz_property_failed(name, file, line,
			     "%s\n  op %u (%s); SQ state %u, counter %u; %s", state, op_no,
			     op_name, sq.state, sq.hw, w);
}

/* ---- Bytes and fields --------------------------------------------------------------------- */

static unsigned be16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)be16(p) << 16 | be16(p + 2);
}

/* Every field this target reads or writes, looked up once (by the PRM's names, through the
 * library's layouts) so that no op pays for a name lookup. */
static struct {
	const struct nicref_field *opcode, *wqe_index, *sq_number, *ds, *fm, *ce, *se, *umr_mkey;
	const struct nicref_field *signature;
	const struct nicref_field *l4cs, *l3cs, *mss, *ihs, *hdrs;
	const struct nicref_field *p_inline, *p_bc, *p_lkey, *p_ah, *p_al, *i_bc;
	const struct nicref_field *u_inline, *u_check_free, *u_off_en, *u_size, *u_off, *u_mask;
	const struct nicref_field *m_free, *m_lr, *m_lw, *m_tag, *m_start, *m_len;
	const struct nicref_field *k_bc, *k_mkey, *k_ah, *k_al, *up_mkey, *up_ah, *up_al;
	const struct nicref_field *c_opcode, *c_counter, *c_sop, *e_syndrome, *update_ci;
	const struct nicref_field *arm_sn, *arm_cmd, *arm_ci;
	const struct nicref_field *msq_opcode, *msq_cur, *msq_sqn, *msq_state;
	const struct nicref_field *qsq_opcode, *qsq_sqn, *qsq_state, *qsq_hw;
	const struct nicref_field *dsq_opcode, *dsq_sqn, *dcq_opcode, *dcq_cqn;
} fld;

static const struct field_row {
	int seg; /* enum refdrv_wqe_seg, or -1: the layout named */
	const char *layout, *field;
	const struct nicref_field **to;
} field_rows[] = {
	{ REFDRV_SEG_CTRL, 0, "opcode", &fld.opcode },
	{ REFDRV_SEG_CTRL, 0, "wqe_index", &fld.wqe_index },
	{ REFDRV_SEG_CTRL, 0, "sq_number", &fld.sq_number },
	{ REFDRV_SEG_CTRL, 0, "ds", &fld.ds },
	{ REFDRV_SEG_CTRL, 0, "fm", &fld.fm },
	{ REFDRV_SEG_CTRL, 0, "ce", &fld.ce },
	{ REFDRV_SEG_CTRL, 0, "se", &fld.se },
	{ REFDRV_SEG_CTRL, 0, "umr_mkey", &fld.umr_mkey },
	{ REFDRV_SEG_CTRL, 0, "signature", &fld.signature },
	{ REFDRV_SEG_ETH, 0, "l4cs", &fld.l4cs },
	{ REFDRV_SEG_ETH, 0, "l3cs", &fld.l3cs },
	{ REFDRV_SEG_ETH, 0, "mss", &fld.mss },
	{ REFDRV_SEG_ETH, 0, "inline_header_size", &fld.ihs },
	{ REFDRV_SEG_ETH, 0, "inline_headers", &fld.hdrs },
	{ REFDRV_SEG_DATA, 0, "inline", &fld.p_inline },
	{ REFDRV_SEG_DATA, 0, "byte_count", &fld.p_bc },
	{ REFDRV_SEG_DATA, 0, "l_key", &fld.p_lkey },
	{ REFDRV_SEG_DATA, 0, "local_address_63_32", &fld.p_ah },
	{ REFDRV_SEG_DATA, 0, "local_address_31_0", &fld.p_al },
	{ REFDRV_SEG_INLINE, 0, "byte_count", &fld.i_bc },
	{ REFDRV_SEG_UMR_CTRL, 0, "inline", &fld.u_inline },
	{ REFDRV_SEG_UMR_CTRL, 0, "check_free", &fld.u_check_free },
	{ REFDRV_SEG_UMR_CTRL, 0, "translation_offset_en", &fld.u_off_en },
	{ REFDRV_SEG_UMR_CTRL, 0, "translation_octword_actual_size", &fld.u_size },
	{ REFDRV_SEG_UMR_CTRL, 0, "translation_offset", &fld.u_off },
	{ REFDRV_SEG_UMR_CTRL, 0, "mkeyctx_bit_mask", &fld.u_mask },
	{ REFDRV_SEG_MKEY_CTX, 0, "free", &fld.m_free },
	{ REFDRV_SEG_MKEY_CTX, 0, "lr", &fld.m_lr },
	{ REFDRV_SEG_MKEY_CTX, 0, "lw", &fld.m_lw },
	{ REFDRV_SEG_MKEY_CTX, 0, "mkey_7_0", &fld.m_tag },
	{ REFDRV_SEG_MKEY_CTX, 0, "start_addr", &fld.m_start },
	{ REFDRV_SEG_MKEY_CTX, 0, "len", &fld.m_len },
	{ REFDRV_SEG_KLM, 0, "byte_count", &fld.k_bc },
	{ REFDRV_SEG_KLM, 0, "mkey", &fld.k_mkey },
	{ REFDRV_SEG_KLM, 0, "address_h_63_32", &fld.k_ah },
	{ REFDRV_SEG_KLM, 0, "address_l_31_0", &fld.k_al },
	{ REFDRV_SEG_UMR_PTR, 0, "mkey", &fld.up_mkey },
	{ REFDRV_SEG_UMR_PTR, 0, "address_h_63_32", &fld.up_ah },
	{ REFDRV_SEG_UMR_PTR, 0, "address_l_31_0", &fld.up_al },
	{ -1, "cqe64", "opcode", &fld.c_opcode },
	{ -1, "cqe64", "wqe_counter", &fld.c_counter },
	{ -1, "cqe64", "s_wqe_opcode", &fld.c_sop },
	{ -1, "err_cqe", "syndrome", &fld.e_syndrome },
	{ -1, "cq_dbr", "update_ci", &fld.update_ci },
	{ -1, "cq_dbr", "cmd_sn", &fld.arm_sn },
	{ -1, "cq_dbr", "cmd", &fld.arm_cmd },
	{ -1, "cq_dbr", "arm_ci", &fld.arm_ci },
	{ -1, "modify_sq_in", "opcode", &fld.msq_opcode },
	{ -1, "modify_sq_in", "sq_state", &fld.msq_cur },
	{ -1, "modify_sq_in", "sqn", &fld.msq_sqn },
	{ -1, "modify_sq_in", "state", &fld.msq_state },
	{ -1, "query_sq_in", "opcode", &fld.qsq_opcode },
	{ -1, "query_sq_in", "sqn", &fld.qsq_sqn },
	{ -1, "query_sq_out", "state", &fld.qsq_state },
	{ -1, "query_sq_out", "hw_counter", &fld.qsq_hw },
	{ -1, "destroy_sq_in", "opcode", &fld.dsq_opcode },
	{ -1, "destroy_sq_in", "sqn", &fld.dsq_sqn },
	{ -1, "destroy_cq_in", "opcode", &fld.dcq_opcode },
	{ -1, "destroy_cq_in", "cqn", &fld.dcq_cqn },
};

static int fields_init(void)
{
	for (size_t i = 0; i < sizeof field_rows / sizeof field_rows[0]; i++) {
		const struct field_row *r = &field_rows[i];
		const struct nicref_layout *l = r->seg >= 0 ? refdrv_wqe_layout((enum refdrv_wqe_seg)r->seg)
							    : nicref_layout_find(r->layout);
		*r->to = l ? nicref_layout_field(l, r->field) : NULL;
		if (!*r->to) {
			fprintf(stderr, "tx_fuzz: no field %s in layout %s\n", r->field,
				r->seg >= 0 ? refdrv_wqe_layout_name((enum refdrv_wqe_seg)r->seg)
					    : r->layout);
			return -1;
		}
	}
	return 0;
}

static uint64_t get(const struct nicref_field *fd, const uint8_t *b, size_t len)
{
	uint64_t v = 0;
	(void)nicref_field_get(b, len, fd, &v);
	return v;
}

static void set(const struct nicref_field *fd, uint8_t *b, size_t len, uint64_t v)
{
	if (fd->bit_width < 64)
		v &= (1ull << fd->bit_width) - 1;
	NICREF_FUZZ_CHECK(nicref_field_set(b, len, fd, v) == 0);
}

/* The frame's own checks. */
static void check_frame(const uint8_t *f, size_t len)
{
	PROP(cur.active && sq.state == ST_RDY, "FRAME_FROM_SEND",
	     "a %zu-byte frame with no WQE executing on a RDY SQ", len);
	PROP(cur.opcode == NICREF_SEND_OP_SEND || cur.opcode == NICREF_SEND_OP_LSO,
	     "FRAME_FROM_SEND", "a %zu-byte frame from a WQE of opcode 0x%02x", len, cur.opcode);
	unsigned mtu = in.oper_mtu;
	if (in.vport_mtu && in.vport_mtu < mtu)
		mtu = in.vport_mtu;
	size_t l2 = txv_l2_for_mtu(f, len);
	PROP(len <= l2 || len - l2 <= mtu, "FRAME_MTU",
	     "a %zu-byte frame, L2 %zu bytes: L3 payload %zu > MTU %u (port %u, vport %u)", len,
	     l2, len - l2, mtu, in.oper_mtu, in.vport_mtu);
	PROP(len <= k.max_mtu + 14u + 8u, "FRAME_MAX",
	     "a %zu-byte frame: longer than max_mtu %u + Ethernet header + two tags", len,
	     k.max_mtu);
	PROP(!k.pad || len >= MIN_FRAME, "FRAME_PAD",
	     "a %zu-byte frame with pad_tx_eth_packet set", len);
	PROP(in.vport_up, "FRAME_VPORT_DOWN", "a %zu-byte frame on the wire while the vport is down",
	     len);
	/* The packet's bytes: all of a frame longer than the minimum; of a minimum frame, up to
	 * its trailing zeros, which may be padding (D-TXO-1). */
	size_t known = len;
	if (k.pad && len == MIN_FRAME)
		while (known && f[known - 1] == 0)
			known--;
	struct txv v;
	txv_parse(f, known, &v);
	bool lso = cur.opcode == NICREF_SEND_OP_LSO;
	if ((cur.l3cs || lso) && v.v4hdr_ok) {
		unsigned s = txv_fold(txv_sum16(f + v.l3, v.l3hdr, 0));
		PROP(s == 0xFFFF, "CSUM_IPV4",
		     "a %zu-byte frame: IPv4 header at %zu (%zu bytes) sums to 0x%04x, checksum "
		     "0x%04x", len, v.l3, v.l3hdr, s, be16(f + v.l3 + 10));
	}
	fuzz_trace("frame %zu bytes of WQE %u: IPv%d, IPv4 header checksum %s, L4 checksum %s",
		   len, cur.index, v.ipv,
		   (cur.l3cs || lso) && v.v4hdr_ok ? "checked" : "not asked or not applicable",
		   (cur.l4cs || lso) && v.l4_ok ? "checked" : "not asked or not applicable");
	if ((cur.l4cs || lso) && v.l4_ok) {
		unsigned s = txv_l4_sum(f, &v);
		size_t at = v.l4 + (v.proto == 6 ? 16 : 6);
		PROP(s == 0xFFFF, "CSUM_L4",
		     "a %zu-byte frame: %s over IPv%d, L4 at %zu, datagram end %zu: sums to 0x%04x, "
		     "checksum 0x%04x", len, v.proto == 6 ? "TCP" : "UDP", v.ipv, v.l4, v.end, s,
		     be16(f + at));
		PROP(v.proto != 17 || be16(f + at) != 0, "CSUM_L4",
		     "a %zu-byte frame: UDP checksum computed as 0 (D-TXO-3: 0xFFFF)", len);
	}
}

/* ---- Following the device ----------------------------------------------------------------- */

static uint32_t ring_bytes(void)
{
	return 64u << st.a.log_sq_size;
}

static uint32_t ring_off(uint16_t index)
{
	return (uint32_t)(index & ((1u << st.a.log_sq_size) - 1)) * 64u;
}

/* The doorbell record's sq_wqebb_counter as the device reads it (T24: the send word at +4,
 * bits 15:0, big-endian). */
static uint16_t record(void)
{
	uint8_t w[4];
	NICREF_FUZZ_CHECK(nicref_hostmem_read(dev, st.a.sq_dbr + 4, w, sizeof w) == 0);
	return (uint16_t)be16(w + 2);
}

/* The WQE's bytes as executed: the Blue Flame copy of the doorbell's buffer, or the ring
 * (wrapping at its end, §7.4.1.1). */
static size_t wqe_bytes(uint16_t index, bool from_bf, uint8_t *b)
{
	const uint8_t *bf = in.bf + (size_t)sq.db_buf * k.bf_size;
	if (from_bf)
		memcpy(b, bf, 16);
	else
		NICREF_FUZZ_CHECK(nicref_hostmem_read(dev, st.a.sq_buf + ring_off(index), b, 16) == 0);
	unsigned ds = (unsigned)get(fld.ds, b, 16);
	size_t len = ds ? ds * 16u : 16u;
	if (from_bf) {
		memcpy(b, bf, len);
		return len;
	}
	for (size_t i = 16; i < len; i += 16) {
		uint32_t off = (ring_off(index) + (uint32_t)i) % ring_bytes();
		NICREF_FUZZ_CHECK(nicref_hostmem_read(dev, st.a.sq_buf + off, b + i, 16) == 0);
	}
	return len;
}

static bool sends_frames(uint8_t opcode)
{
	return opcode == NICREF_SEND_OP_SEND || opcode == NICREF_SEND_OP_LSO;
}

/* The WQE executing has completed (the next one starts, or the op ends). */
static void finish_wqe(void)
{
	if (!cur.active)
		return;
	/* With the CQ broken (overrun, error) the SQ also goes to ERR for a completion the CQ did
	 * not take: then only an error CQE says the WQE failed. */
	bool known = !in.cq_broken, failed = cur.err > 0 || (known && cur.sq_error);
	if (known) {
		PROP(cur.ok + cur.err <= 1, "CQE_PER_WQE", "more than one CQE for one WQE");
		PROP((cur.err > 0) == cur.sq_error, "SQ_STATE", "the SQ went to ERR %s an error CQE",
		     cur.sq_error ? "without" : "with no");
		/* T26 CE: 10/11 a CQE; any mode reports the first error (01: none after an
		 * error). */
		if (cur.sq_error)
			PROP(cur.err == (unsigned)!(cur.ce == 1 && sq.last_err), "CQE_PER_WQE",
			     "a WQE that completed in error has %u error CQEs", cur.err);
		else
			PROP(cur.ok == (cur.ce >= 2 ? 1u : 0u), "CQE_PER_WQE",
			     "ce %u: %u CQEs for a WQE that completed", cur.ce, cur.ok);
	}
	if (failed || !sends_frames(cur.opcode) || cur.inline_drops)
		PROP(cur.frames + cur.local == 0, "NO_FRAME_REFUSED",
		     "frames from a WQE that failed, dropped its packet or sends none");
	if (known && !failed && cur.opcode == NICREF_SEND_OP_SEND)
		PROP(cur.frames + cur.local + cur.discards == 1, "SEND_ONE_PACKET",
		     "a SEND made %u frames, %u local frames, %u discards", cur.frames, cur.local,
		     cur.discards);
	/* A UMR that changed the UMR MKey's tag (mask bit 13): its key from now on. */
	if (!failed && cur.opcode == NICREF_SEND_OP_UMR && (cur.umr_mask >> 13 & 1) &&
	    cur.umr_key >> 8 == k.umr_index)
		in.umr_tag = cur.umr_new_tag;
	sq.last_err = failed;
	cur.active = false;
}

static void finish_flush(void)
{
	if (!fl.active)
		return;
	if (!in.cq_broken)
		PROP(fl.cqes == (fl.expect ? 1u : 0u), "FLUSH_CQE",
		     "WQE %u flushed with %u CQEs, %u expected", fl.index, fl.cqes, fl.expect);
	fl.active = false;
}

static void finish_exec(void)
{
	finish_wqe();
	finish_flush();
}

/* The ctrl segment of a WQE flushed in ERR (obj/sq.c reads each one, §7.9.2). */
static void flush_start(const uint8_t *b)
{
	unsigned ds = (unsigned)get(fld.ds, b, 16), ce = (unsigned)get(fld.ce, b, 16);
	uint16_t bbs = ds ? (uint16_t)((ds + 3) / 4) : 1, left = (uint16_t)(record() - sq.hw);
	fl.active = true;
	fl.index = sq.hw;
	fl.opcode = (uint8_t)get(fld.opcode, b, 16);
	fl.expect = !(ce == 1 && sq.last_err);
	fl.cqes = 0;
	sq.last_err = true;
	sq.hw = (uint16_t)(sq.hw + (bbs < left ? bbs : left)); /* not past the record */
}

/* A device read of the SQ ring. The first read of a WQE starts it: its ctrl segment, or the
 * whole WQE compared with a Blue Flame copy (D-TX-4); in ERR each read is a flush. Nothing else
 * reads the ring: the data and the UMR lists come through the MKeys, which cover only the data
 * region. */
static void on_ring_read(uint32_t off, const uint8_t *b, size_t len)
{
	if (cur.active && (off - cur.ring_off) % ring_bytes() < cur.ext)
		return; /* the rest of the WQE executing */
	PROP(sq.state != ST_RST, "WQE_ORDER", "the ring read at %u while the SQ is in RST", off);
	/* (a flush the broken CQ stopped left the counter short of where it was followed: it is
	 * taken from QUERY_SQ after the op) */
	PROP(off == ring_off(sq.hw) || in.cq_broken, "WQE_ORDER",
	     "a WQE read at ring offset %u, the device's counter %u is at %u", off, sq.hw,
	     ring_off(sq.hw));
	if (off != ring_off(sq.hw))
		sq.hw = (uint16_t)((sq.hw & ~((1u << st.a.log_sq_size) - 1)) | off / 64u);
	finish_exec();
	if (sq.state == ST_ERR) {
		PROP(len == 16, "WQE_ORDER", "a %zu-byte read of the ring in ERR", len);
		flush_start(b);
		return;
	}
	memset(&cur, 0, sizeof cur);
	cur.active = true;
	cur.index = sq.hw;
	cur.ring_off = off;
	cur.from_bf = sq.db_bf && sq.db_index == sq.hw; /* D-TX-4 */
	uint8_t w[WQE_MAX];
	size_t n = wqe_bytes(cur.index, cur.from_bf, w);
	cur.ext = (uint32_t)n;
	cur.bbs = (uint16_t)((n + 63) / 64);
	cur.opcode = (uint8_t)get(fld.opcode, w, n);
	cur.ce = (uint8_t)get(fld.ce, w, n);
	cur.se = get(fld.se, w, n) != 0;
	if (n >= 32) {
		cur.l3cs = get(fld.l3cs, w + 16, n - 16) != 0;
		cur.l4cs = get(fld.l4cs, w + 16, n - 16) != 0;
	}
	if (cur.opcode == NICREF_SEND_OP_UMR && n >= 0x80) {
		cur.umr_key = (uint32_t)get(fld.umr_mkey, w, n);
		in.umr_dirty |= cur.umr_key >> 8 == k.umr_index;
		cur.umr_mask = get(fld.u_mask, w + 0x10, 0x30);
		cur.umr_new_tag = (uint8_t)get(fld.m_tag, w + 0x40, 0x40);
	}
	sq.hw = (uint16_t)(sq.hw + cur.bbs);
}

static int hook_dma_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (nicref_hostmem_read(dev, addr, buf, len) != 0)
		return -1;
	if (following && addr >= st.a.sq_buf && addr < st.a.sq_buf + ring_bytes())
		on_ring_read((uint32_t)(addr - st.a.sq_buf), buf, len);
	return 0;
}

static void hook_wire_tx(void *ctx, unsigned port, const uint8_t *frame, size_t len)
{
	(void)ctx;
	PROP(port == 1, "FRAME_FROM_SEND", "a frame on port %u", port);
	check_frame(frame, len);
	cur.frames++;
	wire.pending = true;
	wire.len = len;
	wire.crc = txv_crc32(frame, len);
}

static bool our_sq(uint64_t sqn)
{
	return sqn == st.sqn;
}

static void on_cqe(const struct nicref_event *ev)
{
	uint8_t opcode = (uint8_t)ev->arg[2], syndrome = (uint8_t)ev->arg[3];
	uint16_t counter = (uint16_t)ev->arg[4];
	uint8_t s_op;
	if (sq.state == ST_ERR && fl.active) {
		PROP(opcode == CQE_REQ_ERR && syndrome == SYN_FLUSH && counter == fl.index,
		     "FLUSH_CQE", "CQE opcode 0x%x syndrome 0x%x for WQE %u while WQE %u is flushed",
		     opcode, syndrome, counter, fl.index);
		fl.cqes++;
		s_op = fl.opcode;
	} else {
		PROP(cur.active && sq.state == ST_RDY, "CQE_OF_WQE",
		     "CQE opcode 0x%x for WQE %u, none executing", opcode, counter);
		PROP(counter == cur.index, "CQE_OF_WQE", "CQE for WQE %u while WQE %u executes",
		     counter, cur.index);
		PROP(opcode == CQE_REQ || (opcode == CQE_REQ_ERR && syndrome != SYN_FLUSH),
		     "CQE_OF_WQE", "CQE opcode 0x%x syndrome 0x%x for a WQE run", opcode, syndrome);
		if (opcode == CQE_REQ) {
			cur.ok++;
		} else {
			cur.err++;
			cur.syndrome = syndrome;
		}
		s_op = cur.opcode;
	}
	if (nexpect < EXPECT_MAX)
		expect[nexpect++] = (struct expect_cqe){ counter, opcode, syndrome, s_op };
	else
		expect_lost = true;
}

static void on_wq_state(const struct nicref_event *ev)
{
	unsigned from = (unsigned)ev->arg[2], to = (unsigned)ev->arg[3], cause = (unsigned)ev->arg[4];
	PROP(from == sq.state, "SQ_STATE", "wq_state from %u, the SQ was in %u", from, sq.state);
	/* D-SQ-1: by command RST->RDY, RDY->ERR, any->RST; by the device RDY->ERR. */
	bool ok = cause == 0 ? (to == ST_RST || (to == ST_RDY && from == ST_RST) ||
				(to == ST_ERR && from == ST_RDY))
			     : (cause == 1 && from == ST_RDY && to == ST_ERR);
	PROP(ok, "SQ_STATE", "wq_state %u -> %u, cause %u", from, to, cause);
	if (cause == 1) {
		PROP(cur.active, "SQ_STATE", "the device moved the SQ to ERR with no WQE executing");
		cur.sq_error = true;
	}
	sq.state = (uint8_t)to;
	if (to == ST_RST) {
		sq.hw = 0; /* T63: the queue starts over */
		sq.last_err = false;
	}
}

static void on_event(void *ctx, const struct nicref_event *ev)
{
	(void)ctx;
	fuzz_oracle_event(&oracle, ev);
	if (!following)
		return;
	switch (ev->kind) {
	case NICREF_EV_SQ_DOORBELL:
		if (our_sq(ev->arg[0])) {
			in.sq_touched = true;
			finish_exec();
			sq.db_bf = ev->arg[4] != 0;
			sq.db_index = (uint16_t)ev->arg[1];
			sq.db_buf = in.ring_buf;
			if (sq.db_bf)
				PROP(in.ring_buf >= 0, "WQE_ORDER", "a Blue Flame doorbell from no buffer");
		}
		break;
	case NICREF_EV_WQ_STATE:
		if (ev->arg[0] == 0 && our_sq(ev->arg[1])) {
			in.sq_touched = true;
			on_wq_state(ev);
		}
		break;
	case NICREF_EV_CQE:
		if (ev->arg[0] == st.cq.cqn && !in.cq_broken)
			on_cqe(ev);
		break;
	case NICREF_EV_TX_DISCARD:
		PROP(our_sq(ev->arg[0]) && cur.active && ev->arg[1] == cur.index, "FRAME_FROM_SEND",
		     "tx_discard of WQE %llu", (unsigned long long)ev->arg[1]);
		cur.discards++;
		cur.inline_drops += ev->arg[2] == 1;
		break;
	case NICREF_EV_TX_LOOPBACK:
		PROP(our_sq(ev->arg[0]) && cur.active && sq.state == ST_RDY &&
			 sends_frames(cur.opcode),
		     "FRAME_FROM_SEND", "a looped frame with no SEND executing");
		cur.local += ev->arg[2] == 1;
		break;
	case NICREF_EV_FRAME_OUT:
		PROP(wire.pending && ev->arg[1] == wire.len && ev->arg[2] == wire.crc,
		     "FRAME_OUT_CRC", "frame_out len %llu crc 0x%08llx; the wire got %zu bytes, crc "
		     "0x%08x", (unsigned long long)ev->arg[1], (unsigned long long)ev->arg[2],
		     wire.len, wire.crc);
		wire.pending = false;
		break;
	case NICREF_EV_VIOLATION:
		/* D-TX-3: a WQE beyond the record was not run; it stays posted. */
		if (ev->arg[0] == NICREF_VIO_TX_WQE_BEYOND_RECORD && our_sq(ev->arg[1] >> 32) &&
		    cur.active && cur.index == (uint16_t)(ev->arg[1] >> 16) && !cur.ok && !cur.err) {
			sq.hw = cur.index;
			cur.active = false;
		}
		break;
	case NICREF_EV_EQE:
		/* T79 type 00h: a completion event (the CQ's only EQ); 04h: a CQ error. */
		if (ev->arg[0] == st.eq.eqn && ev->arg[2] == 0x00)
			refdrv_cq_event_seen(&st.cq);
		if (ev->arg[2] == 0x04)
			in.cq_broken = true;
		break;
	case NICREF_EV_EQE_DROPPED:
		if (ev->arg[1] == 0x04)
			in.cq_broken = true;
		break;
	default:
		break;
	}
}

/* Every BAR write (the reference driver's and the ops'): the Blue Flame area of the SQ's UAR
 * page is remembered as written, the copy a whole Blue Flame doorbell executes. */
static void bar_write(void *ctx, uint32_t offset, uint32_t value)
{
	(void)ctx;
	in.ring_buf = -1;
	if (st.up && offset >= k.uar_off + BF_AREA && offset < k.uar_off + BF_AREA + BF_BYTES) {
		uint32_t at = offset - (uint32_t)k.uar_off - BF_AREA;
		uint8_t bit = (uint8_t)(1u << (at / k.bf_size));
		txv_put32(in.bf + at, value);
		if (at % k.bf_size == 4) {
			in.ring_buf = (int)(at / k.bf_size); /* dword 1: the doorbell rings */
			if (in.bf_d0 & bit) { /* it rang: the buffer starts afresh (D-DB-3) */
				in.bf_d0 = (uint8_t)(in.bf_d0 & ~bit);
				in.bf_dirty = (uint8_t)(in.bf_dirty & ~bit);
			}
		} else {
			in.bf_dirty |= bit;
			if (at % k.bf_size == 0)
				in.bf_d0 |= bit;
		}
	}
	nicref_bar_write32(dev, offset, value);
	in.ring_buf = -1;
}

/* ---- The CQ and the EQ, as software polls them (§7.12.3.2, §7.13.2) ----------------------- */

static int cq_poll(uint8_t cqe[64])
{
	struct refdrv_cq *cq = &st.cq;
	uint32_t size = 1u << cq->a.log_cq_size; /* 64-byte CQEs in one page (the stack's) */
	NICREF_FUZZ_CHECK(nicref_hostmem_read(dev, cq->a.buf + (cq->cc & (size - 1)) * 64u, cqe,
					      64) == 0);
	/* §7.12.3.2: software owns it when its owner bit is the counter's wrap bit and its
	 * opcode is not 0xF (invalid). */
	if ((cqe[0x3F] & 1u) != ((cq->cc >> cq->a.log_cq_size) & 1u) || cqe[0x3F] >> 4 == 0xF)
		return 0;
	cq->cc = (cq->cc + 1) & 0xFFFFFFu;
	uint8_t rec[8] = { 0 };
	set(fld.update_ci, rec, sizeof rec, cq->cc); /* T69/T70 */
	NICREF_FUZZ_CHECK(nicref_hostmem_write(dev, cq->a.dbr, rec, 4) == 0);
	return 1;
}

static void eq_consume(void)
{
	struct refdrv_eq *eq = &st.eq;
	uint32_t size = 1u << eq->a.log_eq_size, n = 0;
	for (;;) {
		uint8_t eqe[64];
		NICREF_FUZZ_CHECK(nicref_hostmem_read(dev, eq->a.buf + (eq->cc & (size - 1)) * 64u,
						      eqe, 64) == 0);
		if ((eqe[0x3F] & 1u) != ((eq->cc >> eq->a.log_eq_size) & 1u))
			break;
		eq->cc = (eq->cc + 1) & 0xFFFFFFu;
		n++;
	}
	/* T13: 40h updates the consumer index and arms. */
	if (n)
		bar_write(NULL, (uint32_t)k.uar_off + 0x40, eq->eqn << 24 | eq->cc);
}

/* ---- Commands of the ops, built from the cached fields (refdrv_cmd posts them) ------------- */

static uint32_t modify_sq_len;

/* MODIFY_SQ (§12.10.2 T320-T322) from `from` to `to`, no bitmask: the status. */
static int cmd_modify_sq(unsigned from, unsigned to)
{
	uint8_t i[0x110] = { 0 }, o[16];
	set(fld.msq_opcode, i, sizeof i, NICREF_OP_MODIFY_SQ);
	set(fld.msq_cur, i, sizeof i, from);
	set(fld.msq_sqn, i, sizeof i, st.sqn);
	set(fld.msq_state, i, sizeof i, to);
	return refdrv_cmd(&drv, i, modify_sq_len, o, sizeof o);
}

/* QUERY_SQ (§12.10.4 T327-T330): the state and T55 hw_counter. */
static int cmd_query_sq(unsigned *state, uint16_t *hw)
{
	uint8_t i[16] = { 0 }, o[0x110];
	set(fld.qsq_opcode, i, sizeof i, NICREF_OP_QUERY_SQ);
	set(fld.qsq_sqn, i, sizeof i, st.sqn);
	int rc = refdrv_cmd(&drv, i, sizeof i, o, sizeof o);
	*state = (unsigned)get(fld.qsq_state, o, sizeof o);
	*hw = (uint16_t)get(fld.qsq_hw, o, sizeof o);
	return rc;
}

/* DESTROY_SQ (T323) or DESTROY_CQ (T264). */
static int cmd_destroy(bool is_sq, uint32_t n)
{
	uint8_t i[16] = { 0 }, o[16];
	set(is_sq ? fld.dsq_opcode : fld.dcq_opcode, i, sizeof i,
	    is_sq ? NICREF_OP_DESTROY_SQ : NICREF_OP_DESTROY_CQ);
	set(is_sq ? fld.dsq_sqn : fld.dcq_cqn, i, sizeof i, n);
	return refdrv_cmd(&drv, i, sizeof i, o, sizeof o);
}

/* §7.12.4 (refdrv_cq_arm's): cmd_sn, cmd (solicited), arm_ci in the record's 04h (T69/T70),
 * then the UAR CQ doorbell, lower dword first (T13/T14). */
static void cq_arm(bool solicited)
{
	uint8_t rec[8] = { 0 };
	set(fld.arm_sn, rec, sizeof rec, st.cq.arm_sn & 3u);
	set(fld.arm_cmd, rec, sizeof rec, solicited);
	set(fld.arm_ci, rec, sizeof rec, st.cq.cc);
	NICREF_FUZZ_CHECK(nicref_hostmem_write(dev, st.cq.a.dbr + 4, rec + 4, 4) == 0);
	bar_write(NULL, (uint32_t)k.uar_off + 0x20, be32(rec + 4));
	bar_write(NULL, (uint32_t)k.uar_off + 0x24, st.cq.cqn & 0xFFFFFFu);
}

/* ---- After every op ------------------------------------------------------------------------ */

static void check_cq(void)
{
	uint8_t cqe[64];
	unsigned got = 0;
	while (cq_poll(cqe)) {
		if (in.cq_broken || expect_lost) {
			got++;
			continue;
		}
		PROP(got < nexpect, "CQE_BUFFER", "a CQE in the buffer the trace did not announce");
		const struct expect_cqe *e = &expect[got++];
		unsigned op = (unsigned)get(fld.c_opcode, cqe, 64);
		unsigned syn = op == CQE_REQ_ERR ? (unsigned)get(fld.e_syndrome, cqe, 64) : 0;
		unsigned ctr = (unsigned)get(fld.c_counter, cqe, 64);
		unsigned sop = (unsigned)get(fld.c_sop, cqe, 64);
		PROP(op == e->opcode && syn == e->syndrome && ctr == e->wqe_counter &&
			 sop == e->s_wqe_opcode,
		     "CQE_BUFFER", "CQE %u: opcode 0x%x syndrome 0x%x wqe_counter %u s_wqe_opcode "
		     "0x%x; the trace said 0x%x 0x%x %u, the WQE's opcode 0x%x", got - 1, op, syn,
		     ctr, sop, e->opcode, e->syndrome, e->wqe_counter, e->s_wqe_opcode);
	}
	if (!in.cq_broken && !expect_lost)
		PROP(got == nexpect, "CQE_BUFFER", "%u CQEs in the buffer, %u announced", got,
		     nexpect);
	nexpect = 0;
	expect_lost = false;
	eq_consume();
}

static void check_sq(void)
{
	unsigned state;
	uint16_t hw;
	NICREF_FUZZ_CHECK(cmd_query_sq(&state, &hw) == 0);
	PROP(state == sq.state, "SQ_STATE", "QUERY_SQ state %u", state);
	if (!in.cq_broken)
		PROP(hw == sq.hw, "SQ_STATE", "QUERY_SQ hw_counter %u, the WQEs run and flushed "
		     "reach %u", hw, sq.hw);
	sq.hw = hw;
}

/* ---- Building WQEs (§7.4.4.1, T25-T41), segment by segment through the layouts ------------ */

/* A write into the data region, remembered for the next light restore. */
static void data_write(uint64_t addr, const void *p, size_t n)
{
	NICREF_FUZZ_CHECK(nicref_hostmem_write(dev, addr, p, n) == 0);
	if (!in.data_hi || addr < in.data_lo)
		in.data_lo = addr;
	if (addr + n > in.data_hi)
		in.data_hi = addr + n;
}

struct wb {
	uint8_t b[WQE_MAX + 64];
	size_t len;
	bool bad; /* longer than ds can count */
};
static struct wb wqe;

static size_t round16(size_t n)
{
	return (n + 15) / 16 * 16;
}

/* n more bytes (whole octowords) for a segment: its offset, or -1 past the largest WQE. */
static long wb_add(struct wb *w, size_t n)
{
	if (w->len + n > WQE_MAX) {
		w->bad = true;
		return -1;
	}
	long at = (long)w->len;
	memset(w->b + at, 0, n);
	w->len += n;
	return at;
}

static void wb_ctrl(struct wb *w, unsigned opcode)
{
	w->len = 0;
	w->bad = false;
	(void)wb_add(w, 16);
	set(fld.opcode, w->b, 16, opcode);
	set(fld.wqe_index, w->b, 16, st.pc);
	set(fld.sq_number, w->b, 16, st.sqn);
}

/* T27/T28: the Eth segment, n header bytes from 0Eh over as many octowords as they need. */
static long wb_eth(struct wb *w, const uint8_t *hdr, size_t n)
{
	size_t at = fld.hdrs->bit_offset / 8;
	long e = wb_add(w, round16(at + n) > 16 ? round16(at + n) : 16);
	if (e < 0)
		return -1;
	set(fld.ihs, w->b + e, w->len - (size_t)e, n);
	memcpy(w->b + e + at, hdr, n);
	return e;
}

static void wb_ptr(struct wb *w, uint32_t lkey, uint64_t addr, uint32_t bc)
{
	long p = wb_add(w, 16);
	if (p < 0)
		return;
	set(fld.p_bc, w->b + p, 16, bc);
	set(fld.p_lkey, w->b + p, 16, lkey);
	set(fld.p_ah, w->b + p, 16, addr >> 32);
	set(fld.p_al, w->b + p, 16, addr & 0xFFFFFFFFu);
}

/* T39: bit 31 set, byte_count, the bytes from 04h. */
static void wb_inline(struct wb *w, const uint8_t *d, size_t n)
{
	long p = wb_add(w, round16(4 + n));
	if (p < 0)
		return;
	set(fld.p_inline, w->b + p, 16, 1);
	set(fld.i_bc, w->b + p, 16, n);
	if (n)
		memcpy(w->b + p + 4, d, n);
}

/* T26 signature, §9.2.3: when the SQ checks them (D-TX-8, refdrv_wqe_signature). */
static void sign(struct wb *w)
{
	if (!in.signature)
		return;
	w->b[fld.signature->bit_offset / 8] =
		refdrv_wqe_signature(w->b, w->len, st.sqn, (uint16_t)get(fld.wqe_index, w->b, 16));
}

/* ctrl: bits 1:0 ce, bit 2 se, bits 4:3 fm; ds counts the octowords (T26). */
static void wb_finish_post(struct wb *w, uint8_t ctrl)
{
	if (w->bad)
		return;
	set(fld.ce, w->b, 16, ctrl & 3u);
	set(fld.se, w->b, 16, (ctrl >> 2) & 1u);
	set(fld.fm, w->b, 16, (ctrl >> 3) & 3u);
	set(fld.ds, w->b, 16, w->len / 16);
	sign(w);
	(void)refdrv_sq_write(&drv, &st, w->b, w->len);
}

static uint32_t key_of(unsigned sel)
{
	switch (sel & 3u) {
	case 0:
		return st.lkey;
	case 1:
		return k.umr_index << 8 | in.umr_tag;
	case 2:
		return st.lkey ^ 0x11; /* the data MKey's index, another tag */
	default:
		return 0;
	}
}

static void build_nop(struct reader *r, uint8_t ctrl)
{
	unsigned pad = rd8(r) % 4u;
	wb_ctrl(&wqe, NICREF_SEND_OP_NOP);
	for (unsigned i = 0; i < pad; i++)
		wb_inline(&wqe, NULL, 0); /* §7.2.2.1 zero-length data segments */
	wb_finish_post(&wqe, ctrl);
}

static void build_send(struct reader *r, uint8_t ctrl, bool lso)
{
	uint8_t tmpl = rd8(r), var = rd8(r), cs = rd8(r), ihs_sel = rd8(r);
	uint32_t plen = rdn(r, 2), mss = rdn(r, 2);
	uint8_t segs = rd8(r);
	uint32_t poff = rdn(r, 2);
	uint8_t key = rd8(r), nmut = rd8(r) % 8u;
	size_t payload = lso ? plen + plen / 16 : plen % 9800u;
	struct tx_hdrs h;
	tx_hdrs_build(&h, k.own_mac, tmpl, var, cs, payload);
	for (unsigned i = 0; i < nmut; i++) {
		uint8_t pos = rd8(r), val = rd8(r);
		h.b[pos % h.len] = val;
	}
	size_t H = h.len, total = H + payload, ihs = tx_hdrs_inline_size(&h, ihs_sel, total);
	/* The payload sits in the data region at P0; the packet's bytes after the inline headers
	 * are gathered from S on: the headers not inlined are written just before P0, the payload
	 * bytes inlined are read from P0. */
	uint64_t P0 = st.a.data_addr + PAYLOAD_GAP + (uint64_t)poff * 16 % (DATA_SIZE / 2), S;
	uint8_t inl[TX_HDR_MAX + 128];
	memcpy(inl, h.b, ihs < H ? ihs : H);
	if (ihs <= H) {
		S = P0 - (H - ihs);
		if (H > ihs)
			data_write(S, h.b + ihs, H - ihs);
	} else {
		NICREF_FUZZ_CHECK(nicref_hostmem_read(dev, P0, inl + H, ihs - H) == 0);
		S = P0 + (ihs - H);
	}
	struct wb *w = &wqe;
	wb_ctrl(w, lso ? NICREF_SEND_OP_LSO : NICREF_SEND_OP_SEND);
	long e = wb_eth(w, inl, ihs);
	if (e < 0)
		return;
	set(fld.l3cs, w->b + e, 16, cs & 1u);
	set(fld.l4cs, w->b + e, 16, (cs >> 1) & 1u);
	if (lso || (cs >> 7))
		set(fld.mss, w->b + e, 16, mss);
	/* The rest in segs & 7 data segments, inline ones where they fit. */
	size_t R = total - ihs;
	unsigned nseg = segs & 7u;
	uint64_t at = S;
	for (unsigned i = 0; i < nseg && R; i++) {
		size_t piece = i + 1 == nseg ? R : R / (nseg - i);
		if (!piece)
			continue;
		bool inl_seg = i < 5 && ((segs >> (3 + i)) & 1u);
		if (inl_seg && piece <= 256 && w->len + round16(4 + piece) <= WQE_MAX) {
			uint8_t d[256];
			NICREF_FUZZ_CHECK(nicref_hostmem_read(dev, at, d, piece) == 0);
			wb_inline(w, d, piece);
		} else {
			uint32_t bc = (uint32_t)piece;
			uint64_t addr = at;
			if (i == 0 && ((key >> 2) & 1u))
				bc = 0; /* T38: 2 GB */
			if ((key & 3u) == 1)
				addr = at - S + (uint64_t)poff * 16 % 0x1000; /* the UMR MKey's VAs */
			if (i == 0 && ((key >> 3) & 1u))
				addr = st.a.data_addr + DATA_SIZE - 8; /* runs past the MKey */
			wb_ptr(w, key_of(key), addr, bc);
		}
		at += piece;
		R -= piece;
	}
	wb_finish_post(w, ctrl);
}

static void build_umr(struct reader *r, uint8_t ctrl)
{
	/* T33 MkeyCtx bit mask: len, log_page_size, start_addr, mkey[7:0], lr, lw, rr, rw, free;
	 * then a reserved bit */
	static const unsigned mask_bits[10] = { 0, 1, 6, 13, 17, 18, 19, 20, 29, 2 };
	uint8_t flags = rd8(r), n = rd8(r) % 9u, off = rd8(r);
	uint32_t msel = rdn(r, 2), start = rdn(r, 2), len = rdn(r, 2);
	uint8_t access = rd8(r);
	uint64_t mask = 0;
	for (unsigned i = 0; i < 10; i++)
		if ((msel >> i) & 1u)
			mask |= 1ull << mask_bits[i];
	bool inl = flags & 1u;
	uint32_t count = (flags >> 6) & 1u ? n : (n + 3u) / 4u * 4u;
	/* umr_mkey: the UMR MKey, the data MKey, the UMR MKey with another tag, 0 */
	static const uint8_t umr_keys[4] = { 1, 0, 1, 3 };
	uint32_t ukey = key_of(umr_keys[(flags >> 4) & 3u]);
	if (((flags >> 4) & 3u) == 2)
		ukey ^= 0x5A;
	struct wb *w = &wqe;
	wb_ctrl(w, NICREF_SEND_OP_UMR);
	set(fld.umr_mkey, w->b, 16, ukey);
	long u = wb_add(w, 0x30), m = wb_add(w, 0x40); /* T31: 10h-3Fh, 40h-7Fh */
	if (u < 0 || m < 0)
		return;
	uint8_t *us = w->b + u, *ms = w->b + m;
	set(fld.u_inline, us, 0x30, inl);
	set(fld.u_check_free, us, 0x30, (flags >> 1) & 3u);
	set(fld.u_off_en, us, 0x30, (flags >> 3) & 1u);
	set(fld.u_off, us, 0x30, off);
	set(fld.u_size, us, 0x30, count);
	set(fld.u_mask, us, 0x30, mask);
	set(fld.m_lr, ms, 0x40, access & 1u);
	set(fld.m_lw, ms, 0x40, (access >> 1) & 1u);
	set(fld.m_free, ms, 0x40, (access >> 2) & 1u);
	set(fld.m_tag, ms, 0x40, (access >> 3) & 1u ? access : UMR_TAG);
	set(fld.m_start, ms, 0x40, (uint64_t)start << 4);
	set(fld.m_len, ms, 0x40, (uint64_t)len << 4);
	uint8_t list[12 * 16];
	memset(list, 0, sizeof list);
	for (unsigned i = 0; i < n; i++) {
		uint8_t ks = rd8(r);
		uint32_t addr = rdn(r, 2), bc = rdn(r, 2);
		uint64_t va = st.a.data_addr + (uint64_t)addr * 16;
		uint8_t *e = list + 16 * i;
		set(fld.k_bc, e, 16, bc == 0xFFFF ? 0x80000001u : bc); /* T37: up to 2 GB */
		set(fld.k_mkey, e, 16, key_of(ks));
		set(fld.k_ah, e, 16, va >> 32);
		set(fld.k_al, e, 16, va & 0xFFFFFFFFu);
	}
	if (inl) {
		/* T33: the KLM list padded to 64 bytes */
		long l = wb_add(w, (16u * n + 63) / 64 * 64);
		if (l < 0)
			return;
		memcpy(w->b + l, list, 16u * n);
	} else {
		long p = wb_add(w, 16);
		if (p < 0)
			return;
		uint64_t la = st.a.data_addr + UMR_LIST_AT + ((flags >> 7) & 1u ? 16 : 0);
		data_write(la, list, sizeof list);
		set(fld.up_mkey, w->b + p, 16, st.lkey);
		set(fld.up_ah, w->b + p, 16, la >> 32);
		set(fld.up_al, w->b + p, 16, la & 0xFFFFFFFFu);
	}
	wb_finish_post(w, ctrl);
}

static void op_wqe(struct reader *r)
{
	uint8_t kind = rd8(r), ctrl = rd8(r);
	switch (kind & 3u) {
	case TX_KIND_NOP:
		build_nop(r, ctrl);
		break;
	case TX_KIND_SEND:
		build_send(r, ctrl, false);
		break;
	case TX_KIND_LSO:
		build_send(r, ctrl, true);
		break;
	default:
		build_umr(r, ctrl);
		break;
	}
}

static void op_wqe_raw(struct reader *r)
{
	struct wb *w = &wqe;
	uint8_t n = rd8(r), flags = rd8(r);
	w->len = 16u * (n % 63u + 1u);
	for (size_t i = 0; i < w->len; i++)
		w->b[i] = rd8(r);
	if (flags & 1u) {
		set(fld.wqe_index, w->b, 16, st.pc);
		set(fld.sq_number, w->b, 16, st.sqn);
	}
	if (flags & 2u)
		set(fld.ds, w->b, 16, w->len / 16);
	if ((flags & 4u) && w->len >= 32) {
		/* The data segments after the Eth segment and its inline headers (T28, T38). */
		size_t ihs = (size_t)get(fld.ihs, w->b + 16, 16);
		size_t o = 32 + (ihs > 2 ? round16(ihs - 2) : 0);
		for (; o + 16 <= w->len; o += 16) {
			if (get(fld.p_inline, w->b + o, 16)) {
				o += round16(4 + (size_t)get(fld.i_bc, w->b + o, 16)) - 16;
				continue;
			}
			uint64_t a = st.a.data_addr + get(fld.p_al, w->b + o, 16) % DATA_SIZE;
			set(fld.p_lkey, w->b + o, 16, st.lkey);
			set(fld.p_ah, w->b + o, 16, a >> 32);
			set(fld.p_al, w->b + o, 16, a & 0xFFFFFFFFu);
		}
	}
	if (flags & 8u)
		sign(w);
	(void)refdrv_sq_write(&drv, &st, w->b, w->len);
}

/* ---- Ringing (§7.4.3.1, §7.2.2) ----------------------------------------------------------- */

/* The send doorbell: the last WQE's dwords 0 and 1, lower first (§7.2.2.2), at offset 0 of the
 * register-0 buffer of this posting (even, odd, ..., §7.2.2.1): refdrv_sq_ring's. */
static void ring_db(unsigned buf, uint32_t d0, uint32_t d1)
{
	uint32_t at = (uint32_t)k.uar_off + BF_AREA + buf * k.bf_size;
	bar_write(NULL, at, d0);
	bar_write(NULL, at + 4, d1);
}

static void ring(void)
{
	ring_db(st.bf_posts++ & 1u, be32(st.last_wqe), be32(st.last_wqe + 4));
}

/* The whole WQE through Blue Flame, padded to 64 bytes, the doorbell dwords last
 * (refdrv_sq_ring_bf's); a WQE larger than the buffer is rung the ordinary way. */
static void ring_bf(void)
{
	size_t padded = (st.last_len + 63) & ~(size_t)63;
	if (padded > k.bf_size) {
		ring();
		return;
	}
	unsigned buf = st.bf_posts++ & 1u;
	uint32_t at = (uint32_t)k.uar_off + BF_AREA + buf * k.bf_size;
	for (size_t i = 8; i < padded; i += 4)
		bar_write(NULL, at + (uint32_t)i, be32(st.last_wqe + i));
	ring_db(buf, be32(st.last_wqe), be32(st.last_wqe + 4));
}

static void op_ring(struct reader *r)
{
	unsigned mode = rd8(r) % 8u;
	int8_t delta = (int8_t)rd8(r);
	if (mode != TX_RING_DB_ONLY && mode != TX_RING_BF_ONLY)
		NICREF_FUZZ_CHECK(refdrv_wq_dbr_write(&drv, st.a.sq_dbr, true, st.pc) == 0);
	uint32_t d0 = be32(st.last_wqe), d1 = be32(st.last_wqe + 4);
	switch (mode) {
	case TX_RING_DB:
	case TX_RING_DB_ONLY:
		ring();
		break;
	case TX_RING_BF:
	case TX_RING_BF_ONLY:
		ring_bf();
		break;
	case TX_RING_RECORD:
		break;
	case TX_RING_DB_INDEX:
		d0 = (d0 & 0xFFu) | (uint32_t)(uint16_t)(st.last_index + delta) << 8;
		ring_db(st.bf_posts++ & 1u, d0, d1);
		break;
	case TX_RING_DB_OTHER:
		ring_db(2 + (st.bf_posts++ & 1u), d0, d1); /* register 1 */
		break;
	default:
		ring_db(st.bf_posts++ & 1u, d0 | 0xA5000000u, d1 | 0xC0u); /* T26 reserved */
		break;
	}
}

static void op_bf_write(struct reader *r)
{
	uint8_t b = rd8(r), dw = rd8(r);
	uint32_t v = rdn(r, 4);
	unsigned buf = b % (BF_BYTES / k.bf_size);
	dw = (uint8_t)(dw % (k.bf_size / 4));
	if (dw == 1 && !(b & 0x80u))
		v = st.sqn << 8 | (v & 0xFFu);
	bar_write(NULL, (uint32_t)k.uar_off + BF_AREA + buf * k.bf_size + dw * 4u, v);
}

static void op_dbr(struct reader *r)
{
	uint8_t mode = rd8(r);
	uint32_t v = rdn(r, 2);
	uint16_t c = mode & 1u ? (uint16_t)v : (uint16_t)(st.pc + (int8_t)(v & 0xFF));
	NICREF_FUZZ_CHECK(refdrv_wq_dbr_write(&drv, st.a.sq_dbr, true, c) == 0);
}

static void op_mem(struct reader *r)
{
	uint32_t off = rdn(r, 3) % DATA_SIZE;
	size_t len = (size_t)rd8(r) + 1;
	unsigned rep = rd8(r) % 16u + 1u;
	uint8_t d[256];
	for (size_t i = 0; i < len; i++)
		d[i] = rd8(r);
	for (unsigned i = 0; i < rep && off < DATA_SIZE; i++) {
		size_t n = len < DATA_SIZE - off ? len : DATA_SIZE - off;
		data_write(st.a.data_addr + off, d, n);
		off += (uint32_t)n;
	}
}

/* MODIFY_SQ from the state the SQ is in; for RST the driver zeroes the record and its producer
 * counter (T63 "SW zeroes the record before RST2RDY"). */
static void sq_modify(unsigned to)
{
	(void)cmd_modify_sq(sq.state, to);
	if (to == ST_RST) {
		NICREF_FUZZ_CHECK(refdrv_wq_dbr_write(&drv, st.a.sq_dbr, true, 0) == 0);
		st.pc = 0;
		st.posted = false;
	}
}

static void op_sq_modify(struct reader *r)
{
	switch (rd8(r) % 4u) {
	case TX_SQ_RECOVER:
		sq_modify(ST_RST);
		sq_modify(ST_RDY);
		break;
	case TX_SQ_TO_ERR:
		sq_modify(ST_ERR);
		break;
	case TX_SQ_TO_RST:
		sq_modify(ST_RST);
		break;
	default:
		sq_modify(ST_RDY);
		break;
	}
}

/* PMTU (§11.1.1) of port 1 through ACCESS_REG (§12.4.1): read (op_mod 1), or write admin_mtu
 * (op_mod 0). The status. */
static int pmtu(bool write, unsigned admin, unsigned *oper, unsigned *max)
{
	uint8_t i[0x20] = { 0 }, o[0x20] = { 0 };
	refdrv_field_set(i, sizeof i, "access_reg_pmtu_in", "opcode", NICREF_OP_ACCESS_REG);
	refdrv_field_set(i, sizeof i, "access_reg_pmtu_in", "op_mod", write ? 0 : 1);
	refdrv_field_set(i, sizeof i, "access_reg_pmtu_in", "register_id", 0x5003);
	refdrv_field_set(i, sizeof i, "access_reg_pmtu_in", "local_port", 1);
	if (write)
		refdrv_field_set(i, sizeof i, "access_reg_pmtu_in", "admin_mtu", admin & 0xFFFF);
	int rc = refdrv_cmd(&drv, i, sizeof i, o, sizeof o);
	if (rc == 0 && oper)
		*oper = (unsigned)refdrv_field_get(o, sizeof o, "access_reg_pmtu_out", "oper_mtu");
	if (rc == 0 && max)
		*max = (unsigned)refdrv_field_get(o, sizeof o, "access_reg_pmtu_out", "max_mtu");
	return rc;
}

static void op_mtu(struct reader *r)
{
	uint8_t sel = rd8(r);
	unsigned v = rdn(r, 2);
	struct refdrv_nic_vport vp;
	if (!(sel & 1u)) {
		(void)pmtu(true, v, NULL, NULL);
	} else if (refdrv_query_nic_vport_context(&drv, REFDRV_LIST_UC, &vp, NULL, 0) == 0) {
		vp.mtu = v;
		(void)refdrv_modify_nic_vport_context(&drv, REFDRV_VPORT_MTU, &vp);
	}
	NICREF_FUZZ_CHECK(pmtu(false, 0, &in.oper_mtu, NULL) == 0);
	NICREF_FUZZ_CHECK(refdrv_query_nic_vport_context(&drv, REFDRV_LIST_UC, &vp, NULL, 0) == 0);
	in.vport_mtu = vp.mtu;
	in.config_dirty = true;
}

/* D-VP-2: the vport sends when SW wants it up and its port is up (QUERY_VPORT_STATE). */
static bool vport_up(void)
{
	unsigned admin, state;
	NICREF_FUZZ_CHECK(refdrv_query_vport_state(&drv, &admin, &state) == 0);
	in.vport_admin = admin;
	return admin == 1 && state == 1;
}

static void op_vport(struct reader *r)
{
	(void)refdrv_modify_vport_state(&drv, rd8(r) % 3u);
	in.vport_up = vport_up();
	in.config_dirty = true;
}

/* The SQ made again with another inline mode and signature checking: DESTROY_SQ, CREATE_SQ in RST
 * (refdrv_create_sq, the record zeroed), MODIFY_SQ to RDY. */
static void op_sq_config(struct reader *r)
{
	uint8_t sel = rd8(r);
	struct refdrv_sq_attr a = snap.sq;
	struct refdrv_nic_vport vp;
	NICREF_FUZZ_CHECK(refdrv_query_nic_vport_context(&drv, REFDRV_LIST_UC, &vp, NULL, 0) == 0);
	a.min_wqe_inline_mode = sel % 4u < vp.min_wqe_inline_mode ? vp.min_wqe_inline_mode
								 : sel % 4u;
	a.wq.wq_signature = k.wq_signature && ((sel >> 2) & 1u); /* T145 wq_signature */
	NICREF_FUZZ_CHECK(cmd_destroy(true, st.sqn) == 0);
	uint32_t sqn;
	NICREF_FUZZ_CHECK(refdrv_create_sq(&drv, &a, &sqn) == 0 && sqn == st.sqn);
	sq.state = ST_RST;
	sq.hw = 0;
	sq.last_err = false;
	st.pc = 0;
	st.posted = false;
	st.bf_posts = 0;
	in.signature = a.wq.wq_signature;
	in.sq_touched = true;
	NICREF_FUZZ_CHECK(cmd_modify_sq(ST_RST, ST_RDY) == 0);
}

/* ---- The device --------------------------------------------------------------------------- */


/* Power-on, the reference driver's bring-up and SQ stack, and the UMR MKey. */
static void full_bring_up(void)
{
	if (fuzz_dev_sq_stack_up(dev, &oracle, &drv, &model_ops, &st) != 0) {
		fprintf(stderr, "tx_fuzz: SQ stack: %s\n", drv.error);
		NICREF_FUZZ_CHECK(0);
	}
	/* §10.1.1: KLM access, so its translations reach memory only through other MKeys (the
	 * data region); free; room for UMR_OCTWORDS KLMs (D-TX-14). */
	struct refdrv_mkey_attr ma = { .access_mode = 2, .pd = st.pd, .tag = UMR_TAG,
				       .umr_en = true, .free = true, .octword_size = UMR_OCTWORDS };
	NICREF_FUZZ_CHECK(refdrv_create_mkey(&drv, &ma, &k.umr_index) == 0);
	/* The reference driver breaks no rule. */
	NICREF_FUZZ_CHECK(oracle.violations == 0);
	snap.st = st;
	snap.full_count++;
}

/* The light restore: the CQ and the SQ destroyed and created again as the bring-up made them
 * (same numbers: the lowest free handle, D-OBJ-2), the UMR MKey too if a UMR ran on it, the
 * ring and the data written zeroed. What stays: the clock, the EQ (consumed after every op, so
 * only its index differs), the counters, the command tokens. 0, or -1: do a full bring-up. */
static int light_restore(void)
{
	uint32_t sqn = st.sqn, cqn = st.cq.cqn;
	struct refdrv_eq eq = st.eq;
	/* Blue Flame buffers written and not rung are rung for no SQ: the device forgets their
	 * dwords (D-DB-3) and reports the driver's SQ_DB_NO_SQ, nothing else. */
	uint64_t vio = oracle.violations, no_sq = oracle.vio_by_rule[NICREF_VIO_SQ_DB_NO_SQ];
	unsigned rung = 0;
	for (unsigned b = 0; b < BF_BYTES / k.bf_size; b++)
		if ((in.bf_dirty | in.bf_d0) >> b & 1u) {
			uint32_t at = (uint32_t)k.uar_off + BF_AREA + b * k.bf_size;
			bar_write(NULL, at, 0);
			bar_write(NULL, at + 4, 0xFFFFFFu << 8);
			rung++;
		}
	if (oracle.vio_by_rule[NICREF_VIO_SQ_DB_NO_SQ] != no_sq + rung ||
	    oracle.violations != vio + rung)
		return -1;
	vio = oracle.violations;
	/* The port's and the vport's MTU and the vport's state as the bring-up found them. */
	if (in.config_dirty) {
		struct refdrv_nic_vport vp;
		unsigned oper = 0;
		if (pmtu(true, k.oper_mtu, NULL, NULL) != 0 ||
		    refdrv_query_nic_vport_context(&drv, REFDRV_LIST_UC, &vp, NULL, 0) != 0)
			return -1;
		vp.mtu = k.vport_mtu;
		if (refdrv_modify_nic_vport_context(&drv, REFDRV_VPORT_MTU, &vp) != 0 ||
		    refdrv_modify_vport_state(&drv, k.vport_admin) != 0 ||
		    pmtu(false, 0, &oper, NULL) != 0 ||
		    refdrv_query_nic_vport_context(&drv, REFDRV_LIST_UC, &vp, NULL, 0) != 0 ||
		    oper != k.oper_mtu || vp.mtu != k.vport_mtu || vport_up() != k.vport_up ||
		    in.vport_admin != k.vport_admin)
			return -1;
	}
	if (cmd_destroy(true, st.sqn) != 0 || cmd_destroy(false, st.cq.cqn) != 0)
		return -1;
	if (in.umr_dirty) {
		uint32_t index = k.umr_index;
		struct refdrv_mkey_attr ma = { .access_mode = 2, .pd = st.pd, .tag = UMR_TAG,
					       .umr_en = true, .free = true,
					       .octword_size = UMR_OCTWORDS };
		if (refdrv_destroy_mkey(&drv, index) != 0 ||
		    refdrv_create_mkey(&drv, &ma, &k.umr_index) != 0 || k.umr_index != index)
			return -1;
	}
	static const uint8_t zero[4096];
	for (uint32_t o = 0; o < ring_bytes(); o += sizeof zero)
		NICREF_FUZZ_CHECK(nicref_hostmem_write(dev, st.a.sq_buf + o, zero, sizeof zero) == 0);
	for (uint64_t a = in.data_lo; a < in.data_hi; a += sizeof zero) {
		size_t n = in.data_hi - a < sizeof zero ? (size_t)(in.data_hi - a) : sizeof zero;
		NICREF_FUZZ_CHECK(nicref_hostmem_write(dev, a, zero, n) == 0);
	}
	NICREF_FUZZ_CHECK(nicref_hostmem_write(dev, st.a.sq_dbr, zero, 8) == 0);
	st = snap.st;
	st.eq = eq;
	if (refdrv_create_cq(&drv, &snap.st.cq.a, &st.cq) != 0)
		return -1;
	cq_arm(false); /* as refdrv_sq_stack_up */
	if (refdrv_create_sq(&drv, &snap.sq, &st.sqn) != 0 || cmd_modify_sq(ST_RST, ST_RDY) != 0)
		return -1;
	if (st.sqn != sqn || st.cq.cqn != cqn || oracle.violations != vio)
		return -1;
	snap.light_count++;
	return 0;
}

/* Whether what the last input did allows a light restore. */
static bool light_possible(void)
{
	return snap.ok && !snap.full;
}

/* The QUERY_SQ and QUERY_CQ outputs of the stack: what the self-check compares. */
static void stack_contexts(uint8_t *sqo, uint8_t *cqo)
{
	uint8_t i[16] = { 0 };
	refdrv_field_set(i, sizeof i, "query_sq_in", "opcode", NICREF_OP_QUERY_SQ);
	refdrv_field_set(i, sizeof i, "query_sq_in", "sqn", st.sqn);
	NICREF_FUZZ_CHECK(refdrv_cmd(&drv, i, sizeof i, sqo, 0x110) == 0);
	NICREF_FUZZ_CHECK(refdrv_query_cq(&drv, st.cq.cqn, cqo, 0x110) == 0);
}

/* The SQ's attributes are driver_sq.c's: the self-check proves the light restore makes the
 * same SQ and CQ contexts (else every input gets a full bring-up, and tx_init says so). */
static void light_self_check(void)
{
	snap.sq = (struct refdrv_sq_attr){
		.wq = { .buf = st.a.sq_buf, .dbr = st.a.sq_dbr, .wq_type = 1,
			.log_wq_sz = st.a.log_sq_size, .log_wq_stride = 6,
			.wq_signature = st.a.wq_signature, .pd = st.pd },
		.cqn = st.cq.cqn, .tisn = st.tisn, .uar = st.uar, .user_index = st.user_index,
		.min_wqe_inline_mode = st.sq_inline_mode,
		.flush_in_error_en = st.a.flush_in_error_en,
	};
	static uint8_t sq0[0x110], cq0[0x110], sq1[0x110], cq1[0x110];
	stack_contexts(sq0, cq0);
	snap.ok = true;
	if (light_restore() != 0) {
		snap.ok = false;
	} else {
		stack_contexts(sq1, cq1);
		snap.ok = !memcmp(sq0, sq1, sizeof sq0) && !memcmp(cq0, cq1, sizeof cq0);
	}
	if (!snap.ok)
		fprintf(stderr, "tx_fuzz: the light restore does not remake the stack of "
				"harness/driver_sq.c: a full bring-up for every input\n");
}

/* The device after full_bring_up (fuzz_snap.h), with the reference driver's side. */
static struct fuzz_snap dsnap;
static struct fuzz_snap_drv dsnap_drv;

static void bring_up(void)
{
	if (fuzz_snap_enabled() && !snap.full) {
		bool restored = fuzz_dev_snap_restore(&dsnap, &dsnap_drv, dev, &oracle, &drv);
		if (restored) {
			st = snap.st;
			snap.light_count++;
		} else {
			full_bring_up();
			fuzz_dev_snap_take(&dsnap, &dsnap_drv, dev, &oracle, &drv);
		}
		fuzz_trace("bring-up %s (%llu full, %llu restored so far)",
			   restored ? "from the snapshot" : "full",
			   (unsigned long long)snap.full_count, (unsigned long long)snap.light_count);
		return;
	}
	bool light = light_possible() && light_restore() == 0;
	if (!light)
		full_bring_up();
	fuzz_trace("bring-up %s (%llu full, %llu light so far; the last input: CQ broken %d, MTU "
		   "or vport %d, Blue Flame buffers not rung 0x%02x)", light ? "light" : "full",
		   (unsigned long long)snap.full_count, (unsigned long long)snap.light_count,
		   in.cq_broken, in.config_dirty, in.bf_dirty);
}

static int tx_init(void)
{
	struct nicref_config cfg;
	fuzz_dev_config(&cfg, &oracle);
	cfg.trace = on_event;
	cfg.trace_ctx = NULL; /* on_event's oracle is the file's */
	cfg.ops.dma_read = hook_dma_read;
	cfg.ops.wire_tx = hook_wire_tx;
	if (fields_init() != 0 || !(dev = fuzz_dev_create(&cfg, &oracle)))
		return -1;
	/* T320: the context at 20h, up to the pas[] that MODIFY_SQ does not carry */
	modify_sq_len = (uint32_t)nicref_layout_find("modify_sq_in")->size;
	if (modify_sq_len < 16 || modify_sq_len > 0x110)
		return -1;
	model_ops = refdrv_ops_model(dev);
	model_ops.bar_write32 = bar_write;
	memset(&drv, 0, sizeof drv);
	const char *full = getenv("NICREF_TX_FULL_RESET");
	snap.full = full && *full && strcmp(full, "0") != 0;
	full_bring_up();
	/* What the device says of itself, the same after every reset. */
	k.uar_off = refdrv_uar_offset(&drv, st.uar);
	k.bf_size = refdrv_bf_buffer_size(&drv);
	k.pad = refdrv_field_get(drv.caps_cur, sizeof drv.caps_cur, "hca_cap", "pad_tx_eth_packet");
	k.wq_signature = refdrv_field_get(drv.caps_cur, sizeof drv.caps_cur, "hca_cap", "wq_signature");
	struct refdrv_nic_vport vp;
	if (pmtu(false, 0, &k.oper_mtu, &k.max_mtu) != 0 ||
	    refdrv_query_nic_vport_context(&drv, REFDRV_LIST_UC, &vp, NULL, 0) != 0 ||
	    k.bf_size < 64 || BF_BYTES % k.bf_size)
		return -1;
	k.vport_mtu = vp.mtu;
	k.own_mac = vp.permanent_address;
	k.vport_up = vport_up();
	k.vport_admin = in.vport_admin;
	light_self_check();
	full_bring_up(); /* the first input starts from a full bring-up too */
	return 0;
}

static const char *const op_names[TX_OP_FIRST_RESERVED] = {
	"WQE_RAW", "WQE", "RING", "BF_WRITE", "DBR", "MEM", "TIME", "CQ_ARM", "SQ_MODIFY", "MTU",
	"VPORT", "SQ_CONFIG",
};

static void tx_one_input(const uint8_t *data, size_t len)
{
	memset(&sq, 0, sizeof sq);
	memset(&cur, 0, sizeof cur);
	memset(&fl, 0, sizeof fl);
	memset(&wire, 0, sizeof wire);
	nexpect = 0;
	expect_lost = false;
	op_no = 0;
	op_name = "bring-up";
	following = false;
	bring_up(); /* by what the previous input left */
	following = true;
	memset(&in, 0, sizeof in);
	in.ring_buf = -1;
	in.oper_mtu = k.oper_mtu;
	in.vport_mtu = k.vport_mtu;
	in.vport_up = k.vport_up;
	in.umr_tag = UMR_TAG;
	sq.state = ST_RDY;
	fuzz_snap_check_start(&dsnap, &oracle);

	struct reader r = { data, len };
	for (op_no = 0; r.n && op_no < MAX_OPS;) {
		size_t at = len - r.n;
		uint8_t op = rd8(&r);
		if (op >= TX_OP_FIRST_RESERVED)
			continue; /* reserved: the op byte alone */
		op_name = op_names[op];
		fuzz_trace("op %s at byte %zu", op_name, at);
		switch ((enum tx_op)op) {
		case TX_OP_WQE_RAW:
			op_wqe_raw(&r);
			break;
		case TX_OP_WQE:
			op_wqe(&r);
			break;
		case TX_OP_RING:
			op_ring(&r);
			break;
		case TX_OP_BF_WRITE:
			op_bf_write(&r);
			break;
		case TX_OP_DBR:
			op_dbr(&r);
			break;
		case TX_OP_MEM:
			op_mem(&r);
			break;
		case TX_OP_TIME:
			nicref_clock_advance(dev, 1 + (uint64_t)rdn(&r, 3));
			break;
		case TX_OP_CQ_ARM:
			cq_arm(rd8(&r) & 1u);
			break;
		case TX_OP_SQ_MODIFY:
			op_sq_modify(&r);
			break;
		case TX_OP_MTU:
			op_mtu(&r);
			break;
		case TX_OP_VPORT:
			op_vport(&r);
			break;
		case TX_OP_SQ_CONFIG:
			op_sq_config(&r);
			break;
		case TX_OP_FIRST_RESERVED:
			break;
		}
		op_no++;
		finish_exec();
		check_cq();
		fuzz_oracle_check_dev(&oracle);
		/* the reference driver posts every command and doorbell correctly */
		NICREF_FUZZ_CHECK(oracle.transport_violations == 0);
		if (in.sq_touched)
			check_sq();
		in.sq_touched = false;
		sq.db_bf = false;
	}
	following = false;
	if (op_no == 0) /* no op's check saw the state it started from (fuzz_snap_check_start) */
		fuzz_oracle_check_dev(&oracle);
	fuzz_trace("input done after %u ops", op_no);
	if (!snap.full)
		fuzz_snap_rewind(&dsnap, dev, &oracle); /* what the input made goes within it */
}

NICREF_FUZZ_TARGET(tx_init, tx_one_input)

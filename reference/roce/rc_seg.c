/* RC messages and their packets (docs/roce.md "RC transport"): the opcode table of the RC
 * service (IBTA Vol. 1 §9.2 Table 38), packetisation by path MTU (IBTA Vol. 1 §9.7.2), the
 * AckReq policy (D-ROCE-RC-3) and the RNR timer encoding (IBTA Vol. 1 Table 45). */
#include <stddef.h>

#include "roce/rc.h"

/* The RC requests and responses (IBTA Vol. 1 Table 38, with the headers of §9.3 each
 * carries): one row per opcode 0x00..0x11. */
#define RC_OPS(X)                                                                          \
	X(RC_BTH_SEND_FIRST, RC_MSG_SEND, RC_POS_FIRST, 0, 0, 0, 0)                         \
	X(RC_BTH_SEND_MIDDLE, RC_MSG_SEND, RC_POS_MIDDLE, 0, 0, 0, 0)                       \
	X(RC_BTH_SEND_LAST, RC_MSG_SEND, RC_POS_LAST, 0, 0, 0, 0)                           \
	X(RC_BTH_SEND_LAST_IMM, RC_MSG_SEND_IMM, RC_POS_LAST, 0, 1, 0, 0)                   \
	X(RC_BTH_SEND_ONLY, RC_MSG_SEND, RC_POS_ONLY, 0, 0, 0, 0)                           \
	X(RC_BTH_SEND_ONLY_IMM, RC_MSG_SEND_IMM, RC_POS_ONLY, 0, 1, 0, 0)                   \
	X(RC_BTH_WRITE_FIRST, RC_MSG_WRITE, RC_POS_FIRST, 1, 0, 0, 0)                       \
	X(RC_BTH_WRITE_MIDDLE, RC_MSG_WRITE, RC_POS_MIDDLE, 0, 0, 0, 0)                     \
	X(RC_BTH_WRITE_LAST, RC_MSG_WRITE, RC_POS_LAST, 0, 0, 0, 0)                         \
	X(RC_BTH_WRITE_LAST_IMM, RC_MSG_WRITE_IMM, RC_POS_LAST, 0, 1, 0, 0)                 \
	X(RC_BTH_WRITE_ONLY, RC_MSG_WRITE, RC_POS_ONLY, 1, 0, 0, 0)                         \
	X(RC_BTH_WRITE_ONLY_IMM, RC_MSG_WRITE_IMM, RC_POS_ONLY, 1, 1, 0, 0)                 \
	X(RC_BTH_READ_REQUEST, RC_MSG_READ, RC_POS_ONLY, 1, 0, 0, 0)                        \
	X(RC_BTH_READ_RESP_FIRST, RC_MSG_READ, RC_POS_FIRST, 0, 0, 1, 1)                    \
	X(RC_BTH_READ_RESP_MIDDLE, RC_MSG_READ, RC_POS_MIDDLE, 0, 0, 0, 1)                  \
	X(RC_BTH_READ_RESP_LAST, RC_MSG_READ, RC_POS_LAST, 0, 0, 1, 1)                      \
	X(RC_BTH_READ_RESP_ONLY, RC_MSG_READ, RC_POS_ONLY, 0, 0, 1, 1)                      \
	X(RC_BTH_ACK, RC_MSG_NONE, RC_POS_ONLY, 0, 0, 1, 1)

static const struct rc_op_info rc_ops[] = {
#define X(op, m, pos, reth, imm, aeth, resp) [op] = { (int8_t)(m), (uint8_t)(pos), reth, imm, aeth, resp },
	RC_OPS(X)
#undef X
};

const struct rc_op_info *rc_op_info(uint8_t opcode)
{
	return opcode < sizeof rc_ops / sizeof rc_ops[0] ? &rc_ops[opcode] : NULL;
}

/* The mlx5 send opcodes of RC operations (Linux include/linux/mlx5/qp.h MLX5_OPCODE_*) and
 * the BTH opcode of each position (IBTA Table 38): FIRST, MIDDLE, LAST, ONLY. */
static const struct {
	uint8_t mlx5;
	const char *name;
	uint8_t op[4];
} rc_msgs[] = {
	[RC_MSG_SEND] = { 0x0A, "SEND",
			  { RC_BTH_SEND_FIRST, RC_BTH_SEND_MIDDLE, RC_BTH_SEND_LAST, RC_BTH_SEND_ONLY } },
	[RC_MSG_SEND_IMM] = { 0x0B, "SEND_IMM",
			      { RC_BTH_SEND_FIRST, RC_BTH_SEND_MIDDLE, RC_BTH_SEND_LAST_IMM,
				RC_BTH_SEND_ONLY_IMM } },
	[RC_MSG_WRITE] = { 0x08, "RDMA_WRITE",
			   { RC_BTH_WRITE_FIRST, RC_BTH_WRITE_MIDDLE, RC_BTH_WRITE_LAST,
			     RC_BTH_WRITE_ONLY } },
	[RC_MSG_WRITE_IMM] = { 0x09, "RDMA_WRITE_IMM",
			       { RC_BTH_WRITE_FIRST, RC_BTH_WRITE_MIDDLE, RC_BTH_WRITE_LAST_IMM,
				 RC_BTH_WRITE_ONLY_IMM } },
	[RC_MSG_READ] = { 0x10, "RDMA_READ",
			  { RC_BTH_READ_REQUEST, RC_BTH_READ_REQUEST, RC_BTH_READ_REQUEST,
			    RC_BTH_READ_REQUEST } },
	[RC_MSG_NONE] = { 0xFF, "none", { 0, 0, 0, 0 } },
};

enum rc_msg rc_msg_of_mlx5(uint8_t opcode)
{
	for (unsigned m = 0; m < RC_MSG_NONE; m++)
		if (rc_msgs[m].mlx5 == opcode)
			return (enum rc_msg)m;
	return RC_MSG_NONE;
}

const char *rc_msg_name(enum rc_msg m)
{
	return (unsigned)m <= RC_MSG_NONE ? rc_msgs[m].name : "?";
}

uint32_t rc_npkts(uint32_t len, uint32_t pmtu)
{
	/* IBTA §9.7.2: every packet but the last carries a full MTU; a message of 0 bytes is one
	 * packet. pmtu 0 is never given by the glue (qpc mtu 1..5); it is taken as 256. */
	if (pmtu == 0)
		pmtu = 256;
	return len == 0 ? 1u : (uint32_t)(((uint64_t)len + pmtu - 1) / pmtu);
}

void rc_seg_of(enum rc_msg m, uint32_t len, uint32_t pmtu, uint32_t k, struct rc_seg *out)
{
	if (pmtu == 0)
		pmtu = 256;
	uint32_t n = rc_npkts(len, pmtu);
	enum rc_pos pos = n == 1 ? RC_POS_ONLY
			  : k == 0 ? RC_POS_FIRST
			  : k + 1 >= n ? RC_POS_LAST
				       : RC_POS_MIDDLE;
	unsigned mi = (unsigned)m < RC_MSG_NONE ? (unsigned)m : RC_MSG_SEND;
	out->opcode = rc_msgs[mi].op[pos];
	out->pos = (uint8_t)pos;
	const struct rc_op_info *oi = rc_op_info(out->opcode);
	out->reth = oi->reth;
	out->imm = oi->imm;
	out->off = k * pmtu;
	out->len = k + 1 >= n ? len - out->off : pmtu;
	/* D-ROCE-RC-3: the last packet of a message asks for an ACK (so every message is
	 * acknowledged promptly), and so does every 8th packet of a long one (so a loss late in a
	 * long message does not send it all again). A function of the packet alone: a
	 * retransmission carries the same AckReq as the original. */
	out->ackreq = pos == RC_POS_LAST || pos == RC_POS_ONLY || (k + 1) % RC_ACKREQ_EVERY == 0;
}

uint8_t rc_read_resp_op(uint32_t k, uint32_t n)
{
	if (n <= 1)
		return RC_BTH_READ_RESP_ONLY;
	return k == 0 ? RC_BTH_READ_RESP_FIRST : k + 1 >= n ? RC_BTH_READ_RESP_LAST : RC_BTH_READ_RESP_MIDDLE;
}

/* IBTA Vol. 1 Table 45, in microseconds x 100 (code 0: 655.36 ms; 25: 61.44 ms). */
static const uint32_t rc_rnr_10us[32] = {
	65536, 1,    2,    3,    4,    6,    8,    12,   16,   24,   32,
	48,    64,   96,   128,  192,  256,  384,  512,  768,  1024, 1536,
	2048,  3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152,
};

uint64_t rc_rnr_timer_ns(unsigned code)
{
	return (uint64_t)rc_rnr_10us[code & 31u] * 10000u;
}

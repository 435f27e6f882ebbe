/* Private to libnicref: the commands the model implements. Each row names its handler, its
 * input and output layouts (whose sizes are the minimum lengths, PRM §12.2 T128 0x50/0x51), the
 * op_mod values the PRM describes for it (T100: "if there is no description, then op_mod must
 * be 0") and the device states it is allowed in (PRM §8.2-§8.3; D-INIT-2). A command of T127
 * without a row here answers BAD_OP and is reported as unmodelled. */
#ifndef NICREF_CMD_TABLE_H
#define NICREF_CMD_TABLE_H

#include "cmd/ctl_dev.h"

/* What a handler sees: the gathered input and the zeroed output (status and syndrome are
 * written by dispatch). It returns NICREF_RULE_NONE or the rule that refuses the command; a
 * refused command must change nothing. */
struct cmd_ctx {
	struct nicref_dev *dev;
	unsigned slot;
	const uint8_t *in;
	size_t in_len;
	uint8_t *out;
	size_t out_len;
	uint16_t op_mod;
	/* input_length and output_length as the entry states them (in_len/out_len may be
	 * longer: the gathered buffers are whole mailbox blocks). */
	uint32_t input_length, output_length;
};
typedef enum nicref_cmd_rule (*cmd_handler)(struct cmd_ctx *c);

#define OPMOD(v) (1ull << (v))
/* op_mod 0..n-1 */
#define OPMODS(n) ((1ull << (n)) - 1)

/* Device states a command is allowed in (D-INIT-2). */
#define S_DIS (1u << HCA_DISABLED)
#define S_ENA (1u << HCA_ENABLED)
#define S_INI (1u << HCA_INITIALIZED)
#define S_TDN (1u << HCA_TORN_DOWN)
#define S_ANY (S_DIS | S_ENA | S_INI | S_TDN)

/* Reserved bits (PRM "Reserved fields"; T128 BAD_PARAM "reserved not equal 0"; D-CMD-8):
 * every bit of c->in[off, off + l->size) that no field of l covers must be zero. Each dword
 * with a reserved bit set is reported as a driver violation whose argument is
 * (input byte offset of the dword << 32 | the offending bits). Returns RESERVED_NOT_ZERO when
 * the profile's reserved_check is strict, NONE otherwise. Dispatch checks every command's
 * input layout; handlers check the structures nested in it (wide fields and arrays count as
 * covered there). */
enum nicref_cmd_rule cmd_check_reserved(struct cmd_ctx *c, const struct nicref_layout *l,
					size_t off);

enum nicref_cmd_rule cmd_nop(struct cmd_ctx *c);
/* cmd/cmd_hca.c */
enum nicref_cmd_rule cmd_enable_hca(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_disable_hca(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_init_hca(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_teardown_hca(struct cmd_ctx *c);
/* cmd/cmd_issi.c */
enum nicref_cmd_rule cmd_query_issi(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_set_issi(struct cmd_ctx *c);
/* cmd/cmd_pages.c */
enum nicref_cmd_rule cmd_query_pages(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_manage_pages(struct cmd_ctx *c);
/* cmd/cmd_caps.c */
enum nicref_cmd_rule cmd_query_hca_cap(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_set_hca_cap(struct cmd_ctx *c);
/* cmd/cmd_adapter.c */
enum nicref_cmd_rule cmd_query_adapter(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_set_driver_version(struct cmd_ctx *c);
/* obj/pd.c, obj/uar.c, obj/transport_domain.c */
enum nicref_cmd_rule cmd_alloc_pd(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_dealloc_pd(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_alloc_uar(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_dealloc_uar(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_alloc_transport_domain(struct cmd_ctx *c);
enum nicref_cmd_rule cmd_dealloc_transport_domain(struct cmd_ctx *c);
/* The control-plane objects, one row file per family (issue 4). */
#include "cmd/rows_cq.h"
#include "cmd/rows_eq.h"
#include "cmd/rows_mkey.h"
#include "cmd/rows_steer.h"
#include "cmd/rows_tir.h"
#include "cmd/rows_vport.h"
#include "cmd/rows_umem.h"
#include "cmd/rows_wq.h"
#include "cmd/rows_qp.h"

/* cmd/cmd_int_moderation.c */
enum nicref_cmd_rule cmd_config_int_moderation(struct cmd_ctx *c);
/* reg/access_reg.c */
enum nicref_cmd_rule cmd_access_reg(struct cmd_ctx *c);

/* X(OPCODE_ID, handler, in_layout, out_layout, allowed op_mod mask, allowed states)
 *
 * States (D-INIT-2): before ENABLE_HCA only ENABLE_HCA, QUERY_ISSI and NOP; the start-up
 * commands of §8.2 until INIT_HCA; resource commands after it; after TEARDOWN_HCA only page
 * reclaim and DISABLE_HCA (§8.3). QUERY_HCA_CAP op_mod: bit 0 max/current, bits 15:1 the type
 * (T141: 0, 1, 7); SET_HCA_CAP: bit 0 reserved (T155). */
#define CAP_OPMODS (OPMOD(0) | OPMOD(1) | OPMOD(2) | OPMOD(3) | OPMOD(14) | OPMOD(15))
#define NICREF_MODELLED_COMMANDS(X)                                                             \
	X(QUERY_HCA_CAP, cmd_query_hca_cap, query_hca_cap_in, query_hca_cap_out, CAP_OPMODS,    \
	  S_ENA | S_INI)                                                                        \
	X(QUERY_ADAPTER, cmd_query_adapter, query_adapter_in, query_adapter_out, OPMOD(0),      \
	  S_ENA | S_INI)                                                                        \
	X(INIT_HCA, cmd_init_hca, init_hca_in, init_hca_out, OPMOD(0), S_ENA)                   \
	X(TEARDOWN_HCA, cmd_teardown_hca, teardown_hca_in, teardown_hca_out, OPMOD(0), S_INI)   \
	X(ENABLE_HCA, cmd_enable_hca, enable_hca_in, enable_hca_out, OPMOD(0), S_DIS)           \
	X(DISABLE_HCA, cmd_disable_hca, disable_hca_in, disable_hca_out, OPMOD(0),              \
	  S_ENA | S_TDN)                                                                        \
	X(QUERY_PAGES, cmd_query_pages, query_pages_in, query_pages_out,                        \
	  OPMOD(1) | OPMOD(2) | OPMOD(3), S_ENA | S_INI | S_TDN)                                \
	X(MANAGE_PAGES, cmd_manage_pages, manage_pages_in, manage_pages_out, OPMODS(3),         \
	  S_ENA | S_INI | S_TDN)                                                                \
	X(SET_HCA_CAP, cmd_set_hca_cap, set_hca_cap_in, set_hca_cap_out,                        \
	  OPMOD(0) | OPMOD(2) | OPMOD(14), S_ENA)                                               \
	X(QUERY_ISSI, cmd_query_issi, query_issi_in, query_issi_out, OPMOD(0),                  \
	  S_DIS | S_ENA | S_INI)                                                                \
	X(SET_ISSI, cmd_set_issi, set_issi_in, set_issi_out, OPMOD(0), S_ENA)                   \
	X(SET_DRIVER_VERSION, cmd_set_driver_version, set_driver_version_in,                    \
	  set_driver_version_out, OPMOD(0), S_INI)                                              \
	X(ALLOC_PD, cmd_alloc_pd, alloc_pd_in, alloc_pd_out, OPMOD(0), S_INI)                   \
	X(DEALLOC_PD, cmd_dealloc_pd, dealloc_pd_in, dealloc_pd_out, OPMOD(0), S_INI)           \
	X(ALLOC_UAR, cmd_alloc_uar, alloc_uar_in, alloc_uar_out, OPMOD(0), S_INI)               \
	X(DEALLOC_UAR, cmd_dealloc_uar, dealloc_uar_in, dealloc_uar_out, OPMOD(0), S_INI)       \
	X(CONFIG_INT_MODERATION, cmd_config_int_moderation, config_int_moderation_in,           \
	  config_int_moderation_out, OPMODS(2), S_INI)                                          \
	X(ACCESS_REG, cmd_access_reg, access_reg_in, access_reg_out, OPMODS(2), S_ENA | S_INI)  \
	X(NOP, cmd_nop, nop_in, nop_out, OPMOD(0), S_ANY)                                       \
	X(ALLOC_TRANSPORT_DOMAIN, cmd_alloc_transport_domain, alloc_transport_domain_in,        \
	  alloc_transport_domain_out, OPMOD(0), S_INI)                                          \
	X(DEALLOC_TRANSPORT_DOMAIN, cmd_dealloc_transport_domain, dealloc_transport_domain_in,  \
	  dealloc_transport_domain_out, OPMOD(0), S_INI)                                        \
	NICREF_CMDS_MKEY(X)                                                                     \
	NICREF_CMDS_EQ(X)                                                                       \
	NICREF_CMDS_CQ(X)                                                                       \
	NICREF_CMDS_WQ(X)                                                                       \
	NICREF_CMDS_TIR(X)                                                                      \
	NICREF_CMDS_VPORT(X)                                                                    \
	NICREF_CMDS_STEER(X)                                                                    \
	NICREF_CMDS_QP(X)                                                                       \
	NICREF_CMDS_UMEM(X)

#endif

/* Private to libnicref: the registers ACCESS_REGISTER reaches (PRM §12.4.1), one row each. A
 * register is its layout (prm/layouts_regs.h, whose size is the register's), a handler per
 * op_mod, and whether it is indexed by local_port. Adding a register (ROCE_ACCL in issue 5) is
 * a layout, two handlers and one row here; reg/access_reg.c does the rest. */
#ifndef NICREF_REG_REG_H
#define NICREF_REG_REG_H

#include "cmd/cmd_table.h"
#include "reg/port.h"

/* X(NAME, register_id, layout, local_port indexed, query handler, write handler)
 * Ids: PRM §11.1 T104 (all readable and writable, D-REG-2). */
#define NICREF_REGISTERS(X)                                                                     \
	X(PMTU, 0x5003, pmtu, true, reg_pmtu_query, reg_pmtu_write)                            \
	X(PTYS, 0x5004, ptys, true, reg_ptys_query, reg_ptys_write)                            \
	X(PAOS, 0x5006, paos, true, reg_paos_query, reg_paos_write)                            \
	X(PFCC, 0x5007, pfcc, true, reg_pfcc_query, reg_pfcc_write)                            \
	X(PPCNT, 0x5008, ppcnt, true, reg_ppcnt_query, reg_ppcnt_write)                        \
	/* ROCE_ACCL (seed 000): the seeds give no id; 0x4050 is nicref's choice (docs/adp.md), \
	 * not NVIDIA's. Per function: no local_port. */                                        \
	X(ROCE_ACCL, 0x4050, roce_accl, false, reg_roce_accl_query, reg_roce_accl_write)      \
	/* HOST_ENDIANNESS: not in PRM Rev 0.40; id, size and field as the public mlx5 interface \
	 * defines them (Linux mlx5_ifc.h, rdma-core mlx5_vfio), which every driver writes      \
	 * during bring-up (D-VFIO-1). Per function: no local_port. */                          \
	X(HOST_ENDIANNESS, 0x7004, host_endianness, false, reg_host_endianness_query,          \
	  reg_host_endianness_write)

enum nicref_reg_id {
#define REG_ID_ENUM(name, id, L, indexed, q, w) REG_ID_##name = id,
	NICREF_REGISTERS(REG_ID_ENUM)
#undef REG_ID_ENUM
};

/* What a register handler sees. The common checks of reg/access_reg.c have passed: the input
 * holds the whole register, a READ output can hold it, argument is 0, a WRITE's reserved bits
 * are clear, and local_port names a port. */
struct reg_ctx {
	struct cmd_ctx *c;
	unsigned local_port; /* 1..num_ports; 0 for a register without local_port */
	struct port *port;   /* that port, or NULL */
	const uint8_t *in;   /* the register data of the input (ACCESS_REGISTER 10h) */
	size_t in_len;       /* the register's size */
	uint8_t *out;        /* READ: the register data of the output (zeroed) */
	size_t out_len;      /* READ: the register's size; WRITE: 0 (T224 "for write - reserved") */
};
typedef enum nicref_cmd_rule (*reg_handler)(struct reg_ctx *r);

/* A field of register layout L in the input, and in the output. */
#define REG_IN(L, n, r) PRM_GET(L, n, (r)->in, (r)->in_len)
#define REG_OUT(L, n, r, v) PRM_SET(L, n, (r)->out, (r)->out_len, (v))

#define REG_HANDLER_DECL(name, id, L, indexed, q, w)                                            \
	enum nicref_cmd_rule q(struct reg_ctx *r);                                              \
	enum nicref_cmd_rule w(struct reg_ctx *r);
NICREF_REGISTERS(REG_HANDLER_DECL)
#undef REG_HANDLER_DECL

#endif

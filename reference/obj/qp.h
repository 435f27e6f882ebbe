/* Private to libnicref: queue pairs and the RoCE GID table (issue 17 stage 1; beyond PRM Rev
 * 0.40, docs/roce.md). A QP is a control-plane object like an SQ: a header, the objects it
 * names (reference counts, D-OBJ-1) and its context kept as the qpc bytes of Linux
 * include/linux/mlx5/mlx5_ifc.h. */
#ifndef NICREF_OBJ_QP_H
#define NICREF_OBJ_QP_H

#include <stddef.h>
#include <stdint.h>

#include "obj/obj.h"

struct roce_qp;

#define QP_CTX_BYTES 0xE8 /* mlx5_ifc.h qpc: 740h bits */
#define QP_CTX_OFF 0x18   /* the qpc in create_qp_in, the transitions and query_qp_out */

/* qp.h enum mlx5_qp_state */
enum qp_state { QP_RST = 0, QP_INIT = 1, QP_RTR = 2, QP_RTS = 3, QP_SQER = 4, QP_SQD = 5, QP_ERR = 6 };
/* qp.h MLX5_QP_ST_*: the service types modelled (D-QP-5). */
enum qp_st { QP_ST_RC = 0x0, QP_ST_UC = 0x1, QP_ST_UD = 0x2 };

/* Which of the objects below the QP holds a reference on (D-OBJ-1). */
enum {
	QP_HOLDS_CQ_SND = 1u << 0,
	QP_HOLDS_CQ_RCV = 1u << 1,
	QP_HOLDS_RMP = 1u << 2,
};

struct qp {
	struct obj_hdr hdr; /* refs: none yet (stage 2: address handles, multicast) */
	uint8_t state;      /* enum qp_state */
	uint8_t st;         /* enum qp_st */
	uint8_t holds;      /* QP_HOLDS_* */
	uint32_t pd, uar, cqn_snd, cqn_rcv, rmpn;
	uint32_t npas;
	uint8_t ctx[QP_CTX_BYTES]; /* the qpc as CREATE_QP and the transitions left it */
	/* The transport's state while the QP is out of RST (roce/roce.h; D-ROCE-3), made and
	 * freed by the roce layer on DEV_NOTE_QP_MODIFY / _DESTROY: O(1) from the QPN. */
	struct roce_qp *xport;
	/* The QP's buffer (create_qp_in pas[], [IFC]): the RQ, then the SQ; the page addresses
	 * the qpc's sizes need (log_page_size, page_offset), every one given (CREATE_QP refuses
	 * fewer, QP_PAS_SHORT, D-QP-12). Part of the object's one heap block (D-QP-13): no
	 * pointer, no block of its own. */
	uint64_t pas[];
};

/* D-ROCE-2: QPNs and SQNs are one number space (mlx5: the send doorbell's d1[31:8] names either;
 * SQs and RQs are QPs to the firmware). Each type takes the lowest number free in its own
 * table that the other type does not hold: returns the handle as objtab_alloc does. type is
 * OBJ_QP or OBJ_SQ. */
int64_t qp_sq_alloc(struct nicref_dev *dev, enum obj_type type, void *obj);
/* Frees what live QPs hold besides themselves, before the tables go (teardown): nothing
 * since pas[] is part of the object (D-QP-13); kept as the teardown's hook. */
void qp_dev_release(struct nicref_dev *dev);
/* QP_STATE event and the transport's note after a command moved a QP from `from`. */
void qp_state_changed(struct nicref_dev *dev, struct qp *q, uint8_t from);

/* roce_profile settings (struct nicref_profile, docs/roce.md "Device profiles"). */
enum { ROCE_PROFILE_CONNECTX = 0, ROCE_PROFILE_SEED004 = 1 };

/* The GID table (SET/QUERY_ROCE_ADDRESS): entries of mlx5_ifc.h roce_addr_layout per port
 * (D-QP-10). */
#define ROCE_ADDR_ENTRIES 256
#define ROCE_ADDR_BYTES 0x20

struct nicref_dev;
struct nicref_profile;
/* QPNs of the profile: [2, 2^log) (D-QP-3). */
uint32_t qp_table_capacity(const struct nicref_profile *p);
void qp_open_table(struct nicref_dev *dev);
/* The GID table's life: allocated with the device, zeroed at reset and teardown. */
int roce_addr_init(struct nicref_dev *dev);
void roce_addr_fini(struct nicref_dev *dev);
void roce_addr_reset(struct nicref_dev *dev);
/* The entry of (port 1.., index), or NULL when out of range. A port's entries lie one after
 * the other, ROCE_ADDR_BYTES apart (roce/roce_build.c walks them so). */
const uint8_t *roce_addr_entry(const struct nicref_dev *dev, unsigned port, unsigned index);
/* The references live QPs hold (invariants). */
void qp_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);
/* Copies qpc field i (PRMF_qpc__*) from src, a command's qpc, into dst, a QP's context. */
void qp_copy_field(uint8_t *dst, const uint8_t *src, size_t src_len, unsigned i);
/* The QP a command's qpn names, or NULL with *r the rule: QP_INDEX_OUT_OF_RANGE outside the
 * QPN range (BAD_INDEX, D-OBJ-2), QP_NOT_FOUND in range but not live (BAD_RESOURCE). */
struct qp *qp_named(struct nicref_dev *dev, uint32_t qpn, enum nicref_cmd_rule *r);
/* Reference counting of the objects a QP names (checked by the caller). */
void qp_ref(struct nicref_dev *dev, enum obj_type t, uint32_t h);
void qp_unref(struct nicref_dev *dev, enum obj_type t, uint32_t h);

#endif

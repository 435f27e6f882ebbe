/* Shared by the QP test files (qp_*_test.c): queue pairs and the RoCE GID table (issue 17 stage
 * 1, docs/roce.md). Commands are built through the layouts by their public mlx5 names (Linux
 * include/linux/mlx5/mlx5_ifc.h); expected outcomes come from the public sources docs/roce.md
 * cites and its D-QP-* decisions, never from what the model prints. */
#ifndef NICREF_TESTS_QP_UTIL_H
#define NICREF_TESTS_QP_UTIL_H

#include <stdint.h>
#include <string.h>

#include "driver_wq.h"
#include "testlib.h"

/* Statuses (mlx5_ifc.h / PRM T128). */
#define QT_OK 0x00u
#define QT_BAD_OP 0x02u
#define QT_BAD_PARAM 0x03u
#define QT_BAD_RESOURCE 0x05u
#define QT_EXCEED_LIM 0x08u
#define QT_BAD_RES_STATE 0x09u

/* qp.h MLX5_QP_ST_* and enum mlx5_qp_state. */
enum { QT_RC = 0, QT_UC = 1, QT_UD = 2, QT_XRC = 3 };
enum { QT_RST = 0, QT_INIT = 1, QT_RTR = 2, QT_RTS = 3, QT_SQER = 4, QT_SQD = 5, QT_ERR = 6 };

/* What a test's QPs stand on: a PD, a CQ (on its own EQ) and tl_up's UAR. */
struct qt {
	struct tl_dev *t;
	uint32_t pd, cqn, eqn;
};

static inline struct qt qt_up(const struct nicref_profile *p)
{
	struct qt q = { tl_up(p), 0, 0, 0 };
	q.pd = tl_alloc_pd(q.t);
	q.eqn = tl_eq(q.t, 6, 0, 0).eqn;
	q.cqn = tl_cq(q.t, 6, q.eqn).cqn;
	return q;
}

/* A field of the CREATE_QP input being built. */
static inline uint64_t qt_in(const struct tl_dev *t, const char *name)
{
	uint64_t v = 0;
	(void)nicref_field_get(t->in, TL_BUF,
			       refdrv_layout_field(refdrv_layout("create_qp_in"), name), &v);
	return v;
}

/* The pages the buffer the input's qpc describes spans ([IFC] qpc: the RQ of 2^log_rq_size
 * strides of 16 B << log_rq_stride unless rq_type is not 0, then the SQ of 2^log_sq_size 64-byte
 * WQEBBs unless no_sq, from page_offset in page / 64 units, pages of 4 KB << log_page_size). */
static inline uint32_t qt_pages(const struct tl_dev *t)
{
	uint64_t page = 4096ull << qt_in(t, "log_page_size");
	uint64_t bytes = qt_in(t, "page_offset") * (page / 64);
	if (qt_in(t, "rq_type") == 0)
		bytes += (1ull << qt_in(t, "log_rq_size")) << (qt_in(t, "log_rq_stride") + 4);
	if (!qt_in(t, "no_sq"))
		bytes += (1ull << qt_in(t, "log_sq_size")) * 64;
	return (uint32_t)((bytes + page - 1) / page);
}

/* CREATE_QP of service type st on the test's PD, CQ and UAR (log_sq_size 4, log_rq_size 4,
 * stride 64 B), with a pas[] entry for every page its buffer spans (pages from 0x36000000:
 * CREATE_QP refuses fewer, D-QP-12). Returns the status; *qpn the QPN when OK. Fields of
 * `extra` (name, value) pairs, terminated by a NULL name, are set after. */
#define QT_BUF 0x36000000ull
struct qt_field {
	const char *name;
	uint64_t v;
};
static inline int qt_create(struct qt *q, unsigned st, const struct qt_field *extra,
			    uint32_t *qpn)
{
	struct tl_dev *t = q->t;
	tl_begin(t, "create_qp_in", "CREATE_QP");
	tl_set(t, "create_qp_in", "st", st);
	tl_set(t, "create_qp_in", "pd", q->pd);
	tl_set(t, "create_qp_in", "uar_page", t->uar);
	tl_set(t, "create_qp_in", "cqn_snd", q->cqn);
	tl_set(t, "create_qp_in", "cqn_rcv", q->cqn);
	tl_set(t, "create_qp_in", "log_sq_size", 4);
	tl_set(t, "create_qp_in", "log_rq_size", 4);
	tl_set(t, "create_qp_in", "log_rq_stride", 2);
	for (; extra && extra->name; extra++)
		tl_set(t, "create_qp_in", extra->name, extra->v);
	uint32_t npas = qt_pages(t);
	cr_assert_leq(0x110 + 8 * npas, TL_BUF, "%u pages: the test's buffer is too small", npas);
	uint64_t page = 4096ull << qt_in(t, "log_page_size");
	for (uint32_t i = 0; i < npas; i++)
		tl_set_elem(t, "create_qp_in", "pas", i, QT_BUF + i * page);
	int st_ = tl_run_paged(t, 0x110 + 8 * npas, 0x10);
	if (st_ == 0 && qpn)
		*qpn = (uint32_t)tl_get(t, "create_qp_out", "qpn");
	return st_;
}

static inline uint32_t qt_qp(struct qt *q, unsigned st)
{
	uint32_t qpn = 0;
	int s = qt_create(q, st, NULL, &qpn);
	cr_assert_eq(s, 0, "CREATE_QP: 0x%x rule %s", s, tl_rule_of(q->t->d.last_syndrome));
	return qpn;
}

/* A command naming one QP (DESTROY_QP, 2ERR_QP, 2RST_QP, QUERY_QP). */
static inline int qt_by_qpn(struct qt *q, const char *layout, const char *opcode, uint32_t qpn,
			    uint32_t out_len)
{
	tl_begin(q->t, layout, opcode);
	tl_set(q->t, layout, "qpn", qpn);
	return tl_run_paged(q->t, 0x10, out_len);
}

static inline int qt_query(struct qt *q, uint32_t qpn)
{
	return qt_by_qpn(q, "query_qp_in", "QUERY_QP", qpn, 0x110);
}

static inline uint64_t qt_ctx(struct qt *q, const char *field)
{
	return tl_get(q->t, "query_qp_out", field);
}

/* A transition command (layout e.g. "rst2init_qp_in", opcode "RST2INIT_QP") with its
 * opt_param_mask and qpc fields. */
static inline int qt_modify(struct qt *q, const char *layout, const char *opcode, uint32_t qpn,
			    uint32_t opt, const struct qt_field *f)
{
	tl_begin(q->t, layout, opcode);
	tl_set(q->t, layout, "qpn", qpn);
	tl_set(q->t, layout, "opt_param_mask", opt);
	for (; f && f->name; f++)
		tl_set(q->t, layout, f->name, f->v);
	return tl_run_paged(q->t, 0x110, 0x10);
}

/* SET_ROCE_ADDRESS of a RoCE v2 IPv4 entry whose address ends in `tag`. */
static inline int qt_set_gid(struct qt *q, unsigned index, unsigned port, uint8_t tag,
			     unsigned version, unsigned l3)
{
	struct tl_dev *t = q->t;
	tl_begin(t, "set_roce_address_in", "SET_ROCE_ADDRESS");
	tl_set(t, "set_roce_address_in", "roce_address_index", index);
	tl_set(t, "set_roce_address_in", "vhca_port_num", port);
	uint8_t gid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 168, 1, tag };
	tl_set_bytes(t, "set_roce_address_in", "source_l3_address", gid, sizeof gid);
	tl_set(t, "set_roce_address_in", "source_mac_47_32", 0x0002);
	tl_set(t, "set_roce_address_in", "source_mac_31_0", 0xC9000000u | tag);
	tl_set(t, "set_roce_address_in", "roce_version", version);
	tl_set(t, "set_roce_address_in", "roce_l3_type", l3);
	return tl_run_paged(t, 0x30, 0x10);
}

#endif

/* The RoCE GID table: SET_ROCE_ADDRESS / QUERY_ROCE_ADDRESS (Linux
 * include/linux/mlx5/mlx5_ifc.h; docs/roce.md "The GID table", D-QP-10). */
#include "cmd/ctl_dev.h"
#include "qp_util.h"

static int query_gid(struct qt *q, unsigned index, unsigned port)
{
	tl_begin(q->t, "query_roce_address_in", "QUERY_ROCE_ADDRESS");
	tl_set(q->t, "query_roce_address_in", "roce_address_index", index);
	tl_set(q->t, "query_roce_address_in", "vhca_port_num", port);
	return tl_run_paged(q->t, 0x10, 0x30);
}

Test(qp_gid, set_query_and_bounds)
{
	struct qt q = qt_up(NULL);
	cr_assert_eq(query_gid(&q, 255, 0), 0);
	cr_expect_eq(tl_get(q.t, "query_roce_address_out", "roce_version"), 0, "empty at start");
	cr_expect_eq(tl_get(q.t, "query_roce_address_out", "source_mac_31_0"), 0);
	cr_assert_eq(qt_set_gid(&q, 255, 1, 0x42, 2, 0), 0);
	/* Port 0 is the function's own port: the same entry. */
	cr_assert_eq(query_gid(&q, 255, 0), 0);
	cr_expect_eq(tl_get(q.t, "query_roce_address_out", "roce_version"), 2);
	cr_expect_eq(tl_get(q.t, "query_roce_address_out", "source_mac_47_32"), 0x0002);
	cr_expect_eq(tl_get(q.t, "query_roce_address_out", "source_mac_31_0"), 0xC9000042u);
	uint8_t gid[16];
	tl_get_bytes(q.t, "query_roce_address_out", "source_l3_address", gid, sizeof gid);
	cr_expect_eq(gid[10], 0xFF);
	cr_expect_eq(gid[15], 0x42);
	cr_assert_eq(query_gid(&q, 254, 1), 0);
	cr_expect_eq(tl_get(q.t, "query_roce_address_out", "source_mac_31_0"), 0, "others empty");

	cr_expect_eq(qt_set_gid(&q, 256, 1, 1, 2, 0), QT_BAD_PARAM, "index 256");
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_ROCE_ADDR_INDEX_BAD);
	cr_expect_eq(query_gid(&q, 256, 1), QT_BAD_PARAM);
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_ROCE_ADDR_INDEX_BAD);
	cr_expect_eq(qt_set_gid(&q, 1, 2, 1, 2, 0), QT_BAD_PARAM, "port 2 of a 1-port device");
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_ROCE_ADDR_PORT_BAD);
	cr_expect_eq(qt_set_gid(&q, 1, 1, 1, 1, 0), QT_BAD_PARAM, "roce_version 1");
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_ROCE_ADDR_VERSION_BAD);
	cr_expect_eq(qt_set_gid(&q, 1, 1, 1, 0, 2), QT_BAD_PARAM, "roce_l3_type 2");
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_ROCE_ADDR_L3_TYPE_BAD);
	cr_expect_eq(qt_set_gid(&q, 1, 1, 1, 0, 1), 0, "RoCE v1 over IPv6");
	tl_down_clean(q.t);
}

/* The table is the device's: a reset empties it. */
Test(qp_gid, reset_empties_the_table)
{
	struct qt q = qt_up(NULL);
	cr_assert_eq(qt_set_gid(&q, 7, 1, 0x42, 2, 0), 0);
	roce_addr_reset(q.t->dev);
	cr_assert_eq(query_gid(&q, 7, 1), 0);
	cr_expect_eq(tl_get(q.t, "query_roce_address_out", "source_mac_31_0"), 0);
	tl_down_clean(q.t);
}

/* The reference driver's vport helpers (harness/driver_vport.c) against the model: each helper
 * does what its command says (PRM §12.15-§12.17) without a single driver violation, and returns
 * the device's status when the device refuses. */
#include <string.h>

#include "driver_vport.h"
#include "testlib.h"

static struct tl_dev *tdev;

static void setup(void)
{
	tdev = tl_up_to(NULL, REFDRV_INITIALIZED);
}

/* The helpers caused no driver violation; the model's invariants hold. */
static void teardown(void)
{
	tl_down_clean(tdev);
}

TestSuite(refdrv_vport, .init = setup, .fini = teardown);

#define OK 0
#define BAD_PARAM 0x03
#define BAD_RES_STATE 0x09
#define BAD_INDEX 0x0A

Test(refdrv_vport, vport_state)
{
	unsigned admin = 9, state = 9;
	cr_assert_eq(refdrv_query_vport_state(&tdev->d, &admin, &state), OK);
	cr_expect_eq(admin, 1, "D-VP-3");
	cr_expect_eq(state, 1);
	cr_assert_eq(refdrv_modify_vport_state(&tdev->d, 0), OK);
	cr_assert_eq(refdrv_query_vport_state(&tdev->d, &admin, &state), OK);
	cr_expect_eq(admin, 0);
	cr_expect_eq(state, 0);
	cr_expect_eq(refdrv_modify_vport_state(&tdev->d, 2), BAD_PARAM, "T475: 0 or 1");
}

Test(refdrv_vport, context_mtu_promisc_and_permanent_address)
{
	/* §8.2: "QUERY_VPORT_CONTEXT command to get permanent MAC address". */
	struct refdrv_nic_vport v;
	memset(&v, 0xAA, sizeof v);
	cr_assert_eq(refdrv_query_nic_vport_context(&tdev->d, REFDRV_LIST_UC, &v, NULL, 0), OK);
	cr_expect_eq(v.permanent_address, 0x024E49435246ull, "D-VP-3");
	cr_expect_eq(v.min_wqe_inline_mode, 1);
	cr_expect_eq(v.mtu, 0);
	cr_expect_eq(v.list_size, 0);
	cr_expect(!v.promisc_uc && !v.promisc_mc && !v.promisc_all);

	struct refdrv_nic_vport w = { .mtu = 9000, .promisc_mc = true };
	cr_assert_eq(refdrv_modify_nic_vport_context(&tdev->d, REFDRV_VPORT_MTU | REFDRV_VPORT_PROMISC,
						     &w),
		     OK);
	cr_assert_eq(refdrv_query_nic_vport_context(&tdev->d, REFDRV_LIST_UC, &v, NULL, 0), OK);
	cr_expect_eq(v.mtu, 9000);
	cr_expect(!v.promisc_uc && v.promisc_mc && !v.promisc_all);
}

Test(refdrv_vport, context_lists)
{
	/* §8.2: "MODIFY_VPORT_CONTEXT command to set current MAC address". */
	uint64_t uc[2] = { 0x024E49435246ull, 0x001122334455ull };
	uint64_t vl[3] = { 1, 100, 4095 };
	struct refdrv_nic_vport w = { .list_type = REFDRV_LIST_UC, .list_size = 2, .list = uc };
	cr_assert_eq(refdrv_modify_nic_vport_context(&tdev->d, REFDRV_VPORT_ADDRESSES_LIST, &w), OK);
	w = (struct refdrv_nic_vport){ .list_type = REFDRV_LIST_VLAN, .list_size = 3, .list = vl };
	cr_assert_eq(refdrv_modify_nic_vport_context(&tdev->d, REFDRV_VPORT_ADDRESSES_LIST, &w), OK);

	uint64_t got[8] = { 0 };
	struct refdrv_nic_vport v;
	cr_assert_eq(refdrv_query_nic_vport_context(&tdev->d, REFDRV_LIST_UC, &v, got, 8), OK);
	cr_expect_eq(v.list_type, REFDRV_LIST_UC);
	cr_expect_eq(v.list_size, 2);
	cr_expect_eq(got[0], uc[0]);
	cr_expect_eq(got[1], uc[1]);
	cr_assert_eq(refdrv_query_nic_vport_context(&tdev->d, REFDRV_LIST_VLAN, &v, got, 8), OK);
	cr_expect_eq(v.list_size, 3);
	for (unsigned i = 0; i < 3; i++)
		cr_expect_eq(got[i], vl[i]);
	/* room for one: the helper returns what fits, the size says 3 (D-VP-6) */
	memset(got, 0, sizeof got);
	cr_assert_eq(refdrv_query_nic_vport_context(&tdev->d, REFDRV_LIST_VLAN, &v, got, 1), OK);
	cr_expect_eq(v.list_size, 3);
	cr_expect_eq(got[0], 1);
	cr_expect_eq(got[1], 0);
	/* beyond 2^log_max_current_mc_list (1024) */
	static uint64_t many[1025];
	w = (struct refdrv_nic_vport){ .list_type = REFDRV_LIST_MC, .list_size = 1025,
				       .list = many };
	cr_expect_eq(refdrv_modify_nic_vport_context(&tdev->d, REFDRV_VPORT_ADDRESSES_LIST, &w),
		     BAD_PARAM);
}

Test(refdrv_vport, counters)
{
	struct refdrv_vport_counters c;
	memset(&c, 0xAA, sizeof c);
	cr_assert_eq(refdrv_query_vport_counter(&tdev->d, true, &c), OK);
	for (unsigned k = 0; k < 8; k++) {
		cr_expect_eq(c.packets[k], 0, "no traffic yet");
		cr_expect_eq(c.octets[k], 0);
	}
}

Test(refdrv_vport, l2_entries)
{
	struct refdrv_l2_entry e = { .vlan_valid = true, .vlan = 42, .mac = 0x001122334455ull };
	struct refdrv_l2_entry q;
	cr_assert_eq(refdrv_set_l2_entry(&tdev->d, 7, &e), OK);
	cr_assert_eq(refdrv_query_l2_entry(&tdev->d, 7, &q), OK);
	cr_expect(q.vlan_valid);
	cr_expect_eq(q.vlan, 42);
	cr_expect_eq(q.mac, 0x001122334455ull);
	cr_expect_eq(refdrv_set_l2_entry(&tdev->d, 7, &e), BAD_RES_STATE);
	cr_expect_eq(refdrv_set_l2_entry(&tdev->d, 4096, &e), BAD_INDEX);
	cr_assert_eq(refdrv_delete_l2_entry(&tdev->d, 7), OK);
	cr_expect_eq(refdrv_query_l2_entry(&tdev->d, 7, &q), BAD_RES_STATE);
	cr_expect_eq(refdrv_delete_l2_entry(&tdev->d, 7), BAD_RES_STATE);
}

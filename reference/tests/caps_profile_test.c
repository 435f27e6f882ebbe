/* A profile lowers capabilities (struct nicref_cap_setting): the device presents the lowered
 * value as its maximum and its current capability from power-on (PRM §12.3.3 T141: op_mod bit
 * 0), keeps it across reset, and refuses a profile that would raise one. */
#include <criterion/criterion.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "obj/flow_cmd.h"

static struct nicref_dev *create(const struct nicref_profile *p)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile = *p;
	return nicref_dev_create(&cfg);
}

Test(caps_profile, setter_answers)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	cr_expect_eq(nicref_profile_cap_set(&p, "hca_cap", "cq_moderation", 0), NICREF_CAP_SET_OK);
	cr_expect_eq(nicref_profile_cap_set(&p, "hca_cap", "modify_tis", 0), NICREF_CAP_SET_OK);
	cr_expect_eq(p.ncaps, 2);
	cr_expect_eq(nicref_profile_cap_set(&p, "hca_cap", "cq_moderation", 1), NICREF_CAP_SET_OK,
		     "setting a field again replaces it (1 is what the device offers)");
	cr_expect_eq(p.ncaps, 2);
	cr_expect_eq(nicref_profile_cap_set(&p, "hca_cap", "cq_moderaton", 0),
		     NICREF_CAP_SET_UNKNOWN);
	cr_expect_eq(nicref_profile_cap_set(&p, "nop_in", "opcode", 0), NICREF_CAP_SET_UNKNOWN,
		     "only the capability layouts");
	cr_expect_eq(nicref_profile_cap_set(&p, "hca_cap", "log_max_eq", 8), NICREF_CAP_SET_RAISE);
	cr_expect_eq(nicref_profile_cap_set(&p, "hca_cap", "cq_moderation", 2), NICREF_CAP_SET_WIDTH);
	cr_expect_eq(nicref_profile_cap_set(&p, "hca_cap", "log_max_pd", 4), NICREF_CAP_SET_FIXED,
		     "follows profile.log_max_pd");
	cr_expect_eq(nicref_profile_cap_set(&p, "hca_cap", "log_min_stride_sz_rq", 0),
		     NICREF_CAP_SET_FIXED, "a minimum");
	cr_expect_eq(nicref_profile_cap_set(&p, "per_protocol_networking_offload_caps", "lro_cap",
					    0),
		     NICREF_CAP_SET_OK);
}

Test(caps_profile, lowered_in_max_and_cur_across_reset)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	cr_assert_eq(nicref_profile_cap_set(&p, "hca_cap", "cq_moderation", 0), NICREF_CAP_SET_OK);
	cr_assert_eq(nicref_profile_cap_set(&p, "hca_cap", "log_max_eq", 3), NICREF_CAP_SET_OK);
	struct nicref_dev *dev = create(&p);
	cr_assert(dev);
	for (int pass = 0; pass < 2; pass++) {
		cr_expect_eq(CAPS_MAX(dev, CAP_GENERAL, hca_cap, cq_moderation), 0);
		cr_expect_eq(CAPS_CUR(dev, CAP_GENERAL, hca_cap, cq_moderation), 0);
		cr_expect_eq(CAPS_MAX(dev, CAP_GENERAL, hca_cap, log_max_eq), 3);
		cr_expect_eq(CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_eq), 3);
		cr_expect_eq(CAPS_CUR(dev, CAP_GENERAL, hca_cap, cq_oi), 1, "others untouched");
		nicref_dev_reset(dev);
	}
	nicref_dev_destroy(dev);
}

Test(caps_profile, creation_refuses_a_raise)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	cr_assert_eq(nicref_profile_cap_set(&p, "hca_cap", "log_max_eq", 3), NICREF_CAP_SET_OK);
	p.caps[0].value = 8; /* past the setter: the device still refuses */
	cr_expect_null(create(&p));
	p.caps[0].value = 7;
	struct nicref_dev *dev = create(&p);
	cr_expect_not_null(dev, "7 is what the device offers");
	nicref_dev_destroy(dev);
	p.caps[0].field = &nicref_layout_nop_in.fields[0]; /* not a capability */
	cr_expect_null(create(&p));
}

/* A field inside a sub-structure, by its dotted path: a T151 property of one flow table type
 * (T149 40h receive / 100h transmit) and a T153 field-support bit inside it. The other type's
 * block keeps what the device offers. */
Test(caps_profile, nested_flow_table_properties)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	const char *ft = "flow_table_nic_cap";
	cr_assert_eq(nicref_profile_cap_set(&p, ft, "flow_table_properties_nic_receive.ft_support", 0),
		     NICREF_CAP_SET_OK);
	cr_assert_eq(nicref_profile_cap_set(&p, ft,
					    "flow_table_properties_nic_transmit.ft_field_support."
					    "outer_dmac",
					    0),
		     NICREF_CAP_SET_OK);
	cr_expect_eq(nicref_profile_cap_set(&p, ft, "flow_table_properties_nic_receive.log_max_ft_num",
					    4),
		     NICREF_CAP_SET_OK);
	cr_expect_eq(p.ncaps, 3, "receive and transmit are different capabilities");
	cr_expect_eq(nicref_profile_cap_set(&p, ft, "flow_table_properties_nic_receive.nope", 0),
		     NICREF_CAP_SET_UNKNOWN);
	cr_expect_eq(nicref_profile_cap_set(&p, ft, "flow_table_properties_nic_receive", 0),
		     NICREF_CAP_SET_UNKNOWN, "a wide field is set through its path");
	cr_expect_eq(nicref_profile_cap_set(&p, ft, "nic_rx_multi_path_tirs.x", 0),
		     NICREF_CAP_SET_UNKNOWN, "not a sub-structure");
	cr_expect_eq(nicref_profile_cap_set(&p, ft, "flow_table_properties_nic_receive.max_ft_level",
					    255),
		     NICREF_CAP_SET_RAISE);
	struct nicref_dev *dev = create(&p);
	cr_assert(dev);
	for (int pass = 0; pass < 2; pass++) {
		cr_expect_eq(flow_prop(dev, FLOW_NIC_RX, PRM_FIELD(flow_table_properties, ft_support)), 0);
		cr_expect_eq(flow_prop(dev, FLOW_NIC_TX, PRM_FIELD(flow_table_properties, ft_support)), 1);
		cr_expect_eq(flow_prop(dev, FLOW_NIC_RX,
				       PRM_FIELD(flow_table_properties, log_max_ft_num)), 4);
		cr_expect(flow_field_supported(dev, FLOW_NIC_RX, false, 31), "receive dmac kept");
		cr_expect(!flow_field_supported(dev, FLOW_NIC_TX, false, 31), "transmit dmac lowered");
		cr_expect(flow_field_supported(dev, FLOW_NIC_TX, false, 30), "transmit smac kept");
		nicref_dev_reset(dev);
	}
	nicref_dev_destroy(dev);
}

/* The device profile's limits (struct nicref_profile): nicref_dev_create refuses a profile the
 * model cannot take, whichever part of the device checks the setting (core, or a row of the
 * subsystem table: core/subsys.h profile_ok), and makes nothing. Public API only. */
#include "testlib.h"

/* A default profile but for one setting: nicref_dev_create refuses it. */
#define REFUSED(setting, v)                                                                     \
	do {                                                                                    \
		struct nicref_config c_;                                                        \
		nicref_config_default(&c_);                                                     \
		c_.profile.setting = (v);                                                       \
		struct nicref_dev *d_ = nicref_dev_create(&c_);                                 \
		cr_expect_null(d_, "profile." #setting " = " #v " refused");                    \
		nicref_dev_destroy(d_);                                                         \
	} while (0)

Test(profile, each_setting_the_model_cannot_take_is_refused)
{
	struct nicref_config c;
	nicref_config_default(&c);
	struct nicref_dev *dev = nicref_dev_create(&c);
	cr_expect_not_null(dev, "the default profile");
	nicref_dev_destroy(dev);
	/* core: the page pool, the driver_version capability bit */
	REFUSED(max_icm_pages, (1u << 24) + 1);
	REFUSED(boot_pages, 5000);
	REFUSED(driver_version, 2);
	/* init segment (T8, D-H-1, D-TS-1) */
	REFUSED(nic_interface_supported, 8);
	REFUSED(health_period_ns, 0);
	REFUSED(timer_khz, 0);
	REFUSED(timer_khz, 156250); /* not a whole MHz: device_frequency_mhz cannot carry it */
	/* command queue (§7.14.1, D-CMD-5, D-CMD-10); a stride of 2^40 is refused before it is
	 * shifted (a shift past 31 bits was undefined) */
	REFUSED(log_cmdq_stride, 5);
	REFUSED(log_cmdq_stride, 13);
	REFUSED(log_cmdq_stride, 40);
	REFUSED(log_cmdq_size, 6);
	REFUSED(cmdif_checksum, 2);
	REFUSED(max_mailbox_blocks, 0);
	REFUSED(max_mailbox_blocks, 8193);
	/* interrupt vectors (D-INT-1) */
	REFUSED(msix_vectors, 0);
	REFUSED(msix_vectors, 2049);
	/* object tables (D-OBJ-2, D-UAR-1, D-PG-4) */
	REFUSED(uar_base, 0);
	REFUSED(log_max_pd, 25);
	REFUSED(log_max_transport_domain, 25);
	REFUSED(log_max_objects, 25);
	REFUSED(contexts_per_page, 0);
	/* the vport's inline mode (§7.9.3.1: 4 reserved; T16's field is 3 bits) */
	REFUSED(vport_min_wqe_inline_mode, 4);
	REFUSED(vport_min_wqe_inline_mode, 8);
	/* ports */
	REFUSED(num_ports, 0);
	REFUSED(num_ports, 5);
	/* ROCE_ACCL (seed 000) */
	REFUSED(adp_max_range_num, 0);
	REFUSED(adp_max_profile_id, 8);
	REFUSED(adp_base_timeout_min_ns, 0x100000u);
}

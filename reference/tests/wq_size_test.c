/* T55 20h[4:0]: "log_wq_sz must be less than HCA_CAP.log_max_wq_size" (D-WQ-1). The doorbell
 * record's counters are 16 bits (T24; §7.4.1 "wraps around 0xFFFF"): with the default cap 16, a
 * queue of 2^16 strides could not tell 65,536 posted WQEs from none, so the text is taken as
 * written. */
#include <stdint.h>

#include "wq_util.h"

TestSuite(wq_size, .init = setup_graph, .fini = teardown);

Test(wq_size, log_wq_sz_equal_to_the_cap_is_refused)
{
	uint32_t n;
	struct refdrv_sq_attr a = sq_attr();
	a.wq.log_wq_sz = 16; /* T145 78h log_max_wq_sz 16 (caps_default.c) */
	refdrv_create_sq(&tdev->d, &a, &n);
	tl_expect_refused(tdev, EXCEED_LIM, NICREF_RULE_WQ_SIZE_EXCEEDS_CAP);
	struct refdrv_rq_attr r = rq_attr();
	r.wq.log_wq_sz = 16;
	r.wq.log_wq_stride = 4;
	refdrv_create_rq(&tdev->d, &r, &n);
	tl_expect_refused(tdev, EXCEED_LIM, NICREF_RULE_WQ_SIZE_EXCEEDS_CAP);
	struct refdrv_rmp_attr m = rmp_attr();
	m.wq.log_wq_sz = 16;
	m.wq.log_wq_stride = 4;
	refdrv_create_rmp(&tdev->d, &m, &n);
	tl_expect_refused(tdev, EXCEED_LIM, NICREF_RULE_WQ_SIZE_EXCEEDS_CAP);
	/* One below the cap: 2^15 strides of 16 B, 128 pages of pas[]. */
	r.wq.log_wq_sz = 15;
	cr_expect_eq(refdrv_create_rq(&tdev->d, &r, &n), OK, "log_wq_sz 15 < 16");
	m.wq.log_wq_sz = 15;
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &m, &n), OK, "log_wq_sz 15 < 16");
	tl_mark(&tdev->tr);
}

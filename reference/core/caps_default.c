/* The default device profile's capabilities (PRM T144-T153). */
#include <string.h>

#include "core/dev.h"

void caps_reset(struct nicref_dev *dev)
{
	const struct nicref_profile *p = &dev->cfg.profile;
	memset(&dev->caps, 0, sizeof dev->caps);
	for (int cur = 0; cur < 2; cur++) {
		uint8_t *g = cur ? dev->caps.cur[CAP_GENERAL] : dev->caps.max[CAP_GENERAL];
		prm_set(g, CAP_BYTES, PRM_FIELD(hca_cap, num_ports), p->num_ports);
		prm_set(g, CAP_BYTES, PRM_FIELD(hca_cap, cqe_version), 1);
		prm_set(g, CAP_BYTES, PRM_FIELD(hca_cap, cmdif_checksum),
			cur ? p->cmdif_checksum : 3);
		prm_set(g, CAP_BYTES, PRM_FIELD(hca_cap, uar_sz), 0);
		prm_set(g, CAP_BYTES, PRM_FIELD(hca_cap, driver_version), 1);
		prm_set(g, CAP_BYTES, PRM_FIELD(hca_cap, log_max_transport_domain), DEV_LOG_MAX_TD);
		prm_set(g, CAP_BYTES, PRM_FIELD(hca_cap, log_max_pd), DEV_LOG_MAX_PD);
		prm_set(g, CAP_BYTES, PRM_FIELD(hca_cap, log_uar_page_sz), 0);
	}
}

/* A group's "profile" (settings of struct nicref_profile) and "caps" (capabilities it lowers),
 * docs/vectors.md "File" and "Capabilities a group lowers". */
#include <stdio.h>
#include <string.h>

#include "vectors_int.h"

/* Profile settings a group may change (struct nicref_profile). */
#define PROFILE_FIELDS(X)                                                                       \
	X(fw_rev_major) X(fw_rev_minor) X(fw_rev_subminor) X(cmd_interface_rev)                 \
	X(log_cmdq_size) X(log_cmdq_stride) X(nic_interface_supported) X(cmdif_checksum)        \
	X(init_delay_ns) X(health_period_ns) X(timer_khz) X(max_mailbox_blocks)                 \
	X(hostmem_max_pages) X(reserved_check) X(should_strict) X(page_wait) X(boot_pages) X(init_pages) X(max_icm_pages)     \
	X(supported_issi) X(msix_vectors) X(num_ports) X(uar_base) X(log_max_pd)                \
	X(log_max_transport_domain) X(driver_version) X(adp_max_range_num)                      \
	X(adp_max_profile_id) X(adp_base_timeout_min_ns) X(adp.first_timeout)                   \
	X(adp.dec_reading) X(adp.init_range) X(adp.dec_trigger) X(adp.retry_uses)                \
	X(log_max_objects)                                                                       \
	X(contexts_per_page) X(vport_min_wqe_inline_mode) X(lro_max_sessions)                   \
	X(lro_min_mss_size) X(lro_max_msg_sz_mode) X(roce_profile)

/* Settings whose range is narrower than their field, with the reason (docs/vectors.md). */
static const struct {
	const char *name;
	uint64_t min, max;
	const char *why;
} profile_ranges[] = {
	{ "lro_max_sessions", 1, 4096, "1 to 4096 LRO sessions (docs/lro.md D-LRO-1)" },
	{ "lro_min_mss_size", 1, 65535, "PRM §3.3.6.2: lro_min_mss_size > 0" },
	{ "lro_max_msg_sz_mode", 0, 1, "PRM T147 lro_max_msg_sz_mode: 0 or 1" },
	{ "roce_profile", 0, 1, "0 connectx or 1 seed004 (docs/roce.md)" },
};

static int profile_range(struct run *r, const char *key, const char *field, uint64_t x)
{
	for (size_t i = 0; i < sizeof profile_ranges / sizeof profile_ranges[0]; i++)
		if (strcmp(profile_ranges[i].name, key) == 0 &&
		    (x < profile_ranges[i].min || x > profile_ranges[i].max)) {
			vbad(r, field, "%llu: %s", (unsigned long long)x, profile_ranges[i].why);
			return -1;
		}
	return 0;
}

static int profile_set(struct run *r, struct nicref_profile *p, const char *key, const json_t *v)
{
	char field[96];
	snprintf(field, sizeof field, "profile.%s", key);
#define PROFILE_SET(f)                                                                          \
	if (strcmp(key, #f) == 0) {                                                             \
		uint64_t x;                                                                     \
		if (vnum_at(r, field, v, NS_NONE, 8 * sizeof p->f, &x) != 0 ||                  \
		    profile_range(r, key, field, x) != 0)                                       \
			return -1;                                                              \
		p->f = (__typeof__(p->f))x;                                                     \
		return 0;                                                                       \
	}
	PROFILE_FIELDS(PROFILE_SET)
#undef PROFILE_SET
	vbad(r, "profile", "no setting \"%s\" (the names of struct nicref_profile)", key);
	return -1;
}

static int cap_set(struct run *r, struct nicref_profile *p, const char *key, const json_t *v)
{
	char field[160], layout[80];
	uint64_t x;
	const char *dot = strchr(key, '.');
	snprintf(field, sizeof field, "caps.%s", key);
	if (!dot || (size_t)(dot - key) >= sizeof layout) {
		vbad(r, "caps", "\"%s\" is not layout.field (e.g. hca_cap.cq_moderation)", key);
		return -1;
	}
	memcpy(layout, key, (size_t)(dot - key));
	layout[dot - key] = '\0';
	if (vnum_at(r, field, v, NS_NONE, 64, &x) != 0)
		return -1;
	switch (nicref_profile_cap_set(p, layout, dot + 1, x)) {
	case NICREF_CAP_SET_OK:
		return 0;
	case NICREF_CAP_SET_UNKNOWN:
		vbad(r, field, "no such capability: the fields of hca_cap, "
			       "per_protocol_networking_offload_caps and flow_table_nic_cap "
			       "(PRM §12.3.3 T145, T147, T149), and inside flow_table_nic_cap's "
			       "properties blocks by their path (flow_table_properties_nic_receive."
			       "ft_support, ...ft_field_support.outer_dmac; T151, T153)");
		break;
	case NICREF_CAP_SET_FIXED:
		vbad(r, field, "cannot be set here: it follows a profile setting, or it is a "
			       "minimum (lowering it would raise the capability)");
		break;
	case NICREF_CAP_SET_RAISE:
		vbad(r, field, "%llu is above what the device offers: a group can only lower a "
			       "capability", (unsigned long long)x);
		break;
	case NICREF_CAP_SET_WIDTH:
		vbad(r, field, "%llu does not fit the field", (unsigned long long)x);
		break;
	case NICREF_CAP_SET_FULL:
		vbad(r, "caps", "more than %d capabilities", NICREF_MAX_CAP_SETTINGS);
		break;
	}
	return -1;
}

int vec_profile(struct run *r, struct nicref_profile *p, const json_t *group)
{
	const char *key;
	json_t *v;
	int rc = 0;
	json_object_foreach(json_object_get(group, "profile"), key, v) rc |= profile_set(r, p, key, v);
	/* Capabilities after the profile: their offered values may follow profile settings. */
	json_object_foreach(json_object_get(group, "caps"), key, v) rc |= cap_set(r, p, key, v);
	return rc ? -1 : 0;
}


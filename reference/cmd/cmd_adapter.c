/* QUERY_ADAPTER and SET_DRIVER_VERSION (PRM §12.3.5, §12.3.12). */
#include <string.h>

#include "cmd/cmd_table.h"

/* What the default device reports (T163; D-ADP-0): the PCI vendor ID of Mellanox as the VSD
 * vendor, its IEEE OUI (given at ISSI >= 1 only), and a PSID naming this model. */
#define ADAPTER_VSD_VENDOR_ID 0x15B3
#define ADAPTER_IEEE_VENDOR_ID 0x0002C9
/* T163/T164: with vsd_vendor_id 15B3h the PSID is 13 characters and R1-R3 (0FDh-0FFh) are
 * "filled with zeros". */
static const char adapter_psid[16] = "NICREF0000001";

enum nicref_cmd_rule cmd_query_adapter(struct cmd_ctx *c)
{
	uint8_t *blk = c->out + 0x10; /* T161: query_adapter_struct at 10h */
	size_t len = PRM_SIZE_query_adapter_param_block;
	if (c->dev->hca.issi >= 1) /* T163: ieee_vendor_id "valid only for ISSI >= 1" */
		PRM_SET(query_adapter_param_block, ieee_vendor_id, blk, len,
			ADAPTER_IEEE_VENDOR_ID);
	PRM_SET(query_adapter_param_block, vsd_vendor_id, blk, len, ADAPTER_VSD_VENDOR_ID);
	/* T164: the PSID's first character in F0h[31:24], i.e. in string order. */
	(void)nicref_field_set_bytes(blk, len, PRM_FIELD(query_adapter_param_block, vsd_contd_psid),
				     adapter_psid, sizeof adapter_psid);
	return NICREF_RULE_NONE;
}

static size_t digits(const char *s, size_t i, size_t end)
{
	size_t n = 0;
	while (i + n < end && s[i + n] >= '0' && s[i + n] <= '9')
		n++;
	return n;
}

/* T190: "OS_name,Driver_name,Main.Minor.Sub_minor" with Main 1-3 digits, Minor 3 and
 * Sub_minor 6 (leading zeros mandatory); D-DRV-1. */
static bool version_well_formed(const char *s, size_t len)
{
	const char *c1 = memchr(s, ',', len);
	const char *c2 = c1 ? memchr(c1 + 1, ',', len - (size_t)(c1 + 1 - s)) : NULL;
	if (!c1 || !c2 || c1 == s || c2 == c1 + 1)
		return false;
	size_t i = (size_t)(c2 + 1 - s);
	size_t main_digits = digits(s, i, len);
	if (main_digits < 1 || main_digits > 3 || i + main_digits >= len || s[i + main_digits] != '.')
		return false;
	i += main_digits + 1;
	if (digits(s, i, len) != 3 || i + 3 >= len || s[i + 3] != '.')
		return false;
	i += 4;
	return digits(s, i, len) == 6 && i + 6 == len;
}

enum nicref_cmd_rule cmd_set_driver_version(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	/* T145 4Ch[30]: "If set, SET_DRIVER_VERSION command is supported". */
	if (!CAPS_CUR(dev, CAP_GENERAL, hca_cap, driver_version))
		return NICREF_RULE_DRIVER_VERSION_UNSUPPORTED;
	char v[64];
	(void)nicref_field_get_bytes(c->in, c->in_len,
				     PRM_FIELD(set_driver_version_in, driver_version), v, sizeof v);
	const char *nul = memchr(v, '\0', sizeof v);
	if (!nul)
		return NICREF_RULE_DRIVER_VERSION_UNTERMINATED;
	if (!version_well_formed(v, (size_t)(nul - v)))
		dev_violation(dev, NICREF_VIO_DRIVER_VERSION_FORMAT, (uint64_t)(nul - v));
	memcpy(dev->hca.driver_version, v, sizeof v);
	return NICREF_RULE_NONE;
}

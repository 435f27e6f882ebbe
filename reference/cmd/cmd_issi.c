/* QUERY_ISSI and SET_ISSI (PRM §7.1, §12.3.10-§12.3.11). */
#include "cmd/cmd_table.h"

/* T184 (D-ISSI-1): supported_issi (20h-6Ch, 640 bits) is a bitmask, bit N set when ISSI N is supported.
 * The field is big-endian like every PRM field, so bit 0 is the least significant bit of its
 * last byte (6Fh) (PRM "Byte Endianness"). */
#define SUPPORTED_ISSI_LAST_BYTE 0x6F

enum nicref_cmd_rule cmd_query_issi(struct cmd_ctx *c)
{
	uint16_t mask = c->dev->core.cfg.profile.supported_issi;
	PRM_SET(query_issi_out, current_issi, c->out, c->out_len, c->dev->hca.issi);
	for (unsigned n = 0; n < 16; n++)
		if (mask >> n & 1)
			c->out[SUPPORTED_ISSI_LAST_BYTE - n / 8] |= (uint8_t)(1u << (n % 8));
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_set_issi(struct cmd_ctx *c)
{
	uint64_t issi = PRM_GET(set_issi_in, current_issi, c->in, c->in_len);
	/* T186 / §7.1: "SW cannot run with an ISSI which is not supported by the device". */
	if (issi >= 16 || !(c->dev->core.cfg.profile.supported_issi >> issi & 1))
		return NICREF_RULE_ISSI_UNSUPPORTED;
	c->dev->hca.issi = (uint16_t)issi;
	c->dev->hca.issi_set = true;
	return NICREF_RULE_NONE;
}

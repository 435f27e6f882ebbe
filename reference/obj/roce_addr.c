/* The RoCE GID table: SET_ROCE_ADDRESS and QUERY_ROCE_ADDRESS (issue 17 stage 1; beyond PRM
 * Rev 0.40: Linux include/linux/mlx5/mlx5_ifc.h set_roce_address_in, query_roce_address_in/out,
 * roce_addr_layout; docs/roce.md, D-QP-10). One table of ROCE_ADDR_ENTRIES entries per port,
 * all zero at power-on, reset and teardown; an all-zero entry is an empty one. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_table.h"

static size_t table_bytes(void)
{
	return (size_t)NICREF_MAX_PORTS * ROCE_ADDR_ENTRIES * ROCE_ADDR_BYTES;
}

int roce_addr_init(struct nicref_dev *dev)
{
	dev->roce_addr = calloc(1, table_bytes());
	return dev->roce_addr ? 0 : -1;
}

void roce_addr_fini(struct nicref_dev *dev)
{
	free(dev->roce_addr);
	dev->roce_addr = NULL;
}

void roce_addr_reset(struct nicref_dev *dev)
{
	if (dev->roce_addr)
		memset(dev->roce_addr, 0, table_bytes());
	dev->roce_addr_writes++;
}

static uint8_t *entry_at(const struct nicref_dev *dev, unsigned port, unsigned index)
{
	if (port == 0 || port > NICREF_MAX_PORTS || index >= ROCE_ADDR_ENTRIES)
		return NULL;
	return dev->roce_addr + ((size_t)(port - 1) * ROCE_ADDR_ENTRIES + index) * ROCE_ADDR_BYTES;
}

const uint8_t *roce_addr_entry(const struct nicref_dev *dev, unsigned port, unsigned index)
{
	return entry_at(dev, port, index);
}

/* [IFC] roce_address_index 08h[31:16] below the table; vhca_port_num 08h[3:0]: 0 the
 * function's own port (1), else a port of the device. */
static enum nicref_cmd_rule select_entry(struct cmd_ctx *c, unsigned *port, unsigned *index)
{
	*index = (unsigned)PRM_GET(query_roce_address_in, roce_address_index, c->in, c->in_len);
	unsigned p = (unsigned)PRM_GET(query_roce_address_in, vhca_port_num, c->in, c->in_len);
	if (p > CAPS_CUR(c->dev, CAP_GENERAL, hca_cap, num_ports))
		return NICREF_RULE_ROCE_ADDR_PORT_BAD;
	if (*index >= ROCE_ADDR_ENTRIES)
		return NICREF_RULE_ROCE_ADDR_INDEX_BAD; /* D-QP-10 */
	*port = p ? p : 1;
	return NICREF_RULE_NONE;
}

/* [IFC] enum roce_version: MLX5_ROCE_VERSION_1 0, MLX5_ROCE_VERSION_2 2; roce_l3_type 0 IPv4,
 * 1 IPv6 (MLX5_ROCE_L3_TYPE_IPV4/IPV6). */
enum { ROCE_V1 = 0, ROCE_V2 = 2, ROCE_L3_IPV6 = 1 };

enum nicref_cmd_rule cmd_set_roce_address(struct cmd_ctx *c)
{
	unsigned port, index;
	enum nicref_cmd_rule r = select_entry(c, &port, &index);
	if (r != NICREF_RULE_NONE)
		return r;
	uint64_t ver = PRM_GET(set_roce_address_in, roce_version, c->in, c->in_len);
	if (ver != ROCE_V1 && ver != ROCE_V2)
		return NICREF_RULE_ROCE_ADDR_VERSION_BAD;
	if (PRM_GET(set_roce_address_in, roce_l3_type, c->in, c->in_len) > ROCE_L3_IPV6)
		return NICREF_RULE_ROCE_ADDR_L3_TYPE_BAD;
	/* The entry as given (its reserved bits are checked by dispatch, D-CMD-8). */
	memcpy(entry_at(c->dev, port, index), c->in + 0x10, ROCE_ADDR_BYTES);
	c->dev->roce_addr_writes++;
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_query_roce_address(struct cmd_ctx *c)
{
	unsigned port, index;
	enum nicref_cmd_rule r = select_entry(c, &port, &index);
	if (r != NICREF_RULE_NONE)
		return r;
	memcpy(c->out + 0x10, roce_addr_entry(c->dev, port, index), ROCE_ADDR_BYTES);
	return NICREF_RULE_NONE;
}

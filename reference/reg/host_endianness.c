/* HOST_ENDIANNESS (register 0x7004): not in PRM Rev 0.40. Its id, 16-byte size and one field,
 * he (00h[31:24]: 0x80 a big-endian host, 0 little-endian), are the public mlx5 interface's
 * (Linux mlx5_ifc.h, rdma-core's mlx5_vfio), and every mlx5 driver writes it once during
 * bring-up. The model keeps what was written and reads it back; it changes nothing else: the
 * command interface stays big-endian as the PRM defines it (D-VFIO-1). */
#include "cmd/ctl_dev.h"
#include "reg/reg.h"

enum nicref_cmd_rule reg_host_endianness_query(struct reg_ctx *r)
{
	REG_OUT(host_endianness, he, r, r->c->dev->hca.host_endianness);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule reg_host_endianness_write(struct reg_ctx *r)
{
	r->c->dev->hca.host_endianness = (uint8_t)REG_IN(host_endianness, he, r);
	return NICREF_RULE_NONE;
}

/* The sequence header and the Ack/Nak DLLP, through the layouts of prm/layouts_pcie.h. */
#include <string.h>

#include "pcie/pcie_int.h"
#include "prm/layouts.h"

void nicref_pcie_seqhdr(uint16_t seq, uint8_t reserved, uint8_t out[2])
{
	/* T2 (L46-47, Figure 3-15): 4 reserved bits, then the 12-bit sequence number. */
	memset(out, 0, NICREF_PCIE_SEQHDR_BYTES);
	PRM_SET(pcie_tlp_seqhdr, reserved, out, NICREF_PCIE_SEQHDR_BYTES, reserved & 0xFu);
	PRM_SET(pcie_tlp_seqhdr, seq, out, NICREF_PCIE_SEQHDR_BYTES, seq & 0xFFFu);
}

void nicref_pcie_dllp_encode(const struct nicref_pcie_dllp *d, uint8_t out[6])
{
	memset(out, 0, NICREF_PCIE_DLLP_BYTES);
#define SET(f, v) PRM_SET(pcie_dllp_acknak, f, out, NICREF_PCIE_DLLP_BYTES, (v))
	SET(type, d->type);
	SET(reserved, d->reserved & 0xFFFu);
	SET(acknak_seq_num, d->seq & 0xFFFu);
	SET(crc_7_0, d->crc & 0xFFu);
	SET(crc_15_8, (unsigned)d->crc >> 8);
#undef SET
}

void nicref_pcie_dllp_decode(const uint8_t in[6], struct nicref_pcie_dllp *d)
{
#define GET(f) PRM_GET(pcie_dllp_acknak, f, in, NICREF_PCIE_DLLP_BYTES)
	d->type = (uint8_t)GET(type);
	d->reserved = (uint16_t)GET(reserved);
	d->seq = (uint16_t)GET(acknak_seq_num);
	d->crc = (uint16_t)(GET(crc_7_0) | GET(crc_15_8) << 8);
#undef GET
}

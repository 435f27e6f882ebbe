/* Layouts of the PCIe data link layer (seed 003: PCI Express Base Specification §3.6). Row
 * format: see prm/layouts.h (big-endian dwords, bits msb..lsb of the dword at the offset).
 *
 *   - pcie_tlp_seqhdr: the 2 bytes the transmitter puts before a TLP (L45-47, Figure 3-15):
 *     4 reserved bits, then NEXT_TRANSMIT_SEQ. The LCRC (4 bytes after the TLP) is no field of
 *     a fixed layout: its bytes are the value little-endian (D-DLL-2, reference/pcie/crc.c).
 *   - pcie_dllp_acknak: an Ack or Nak DLLP (§3.6.2.2; the format of PCIe Base §3.4, which the
 *     seed does not contain): type, 12 reserved bits, AckNak_Seq_Num, and the 16-bit CRC whose
 *     value's bits 7:0 are byte 4 and 15:8 byte 5 (the LCRC's byte order), hence two rows. */
#ifndef NICREF_PRM_LAYOUTS_PCIE_H
#define NICREF_PRM_LAYOUTS_PCIE_H

#define PRM_L_pcie_tlp_seqhdr(F, W, A, L)                                                       \
	F(L, reserved, 0x00, 31, 28)                                                            \
	F(L, seq, 0x00, 27, 16)

#define PRM_L_pcie_dllp_acknak(F, W, A, L)                                                      \
	F(L, type, 0x00, 31, 24)                                                                \
	F(L, reserved, 0x00, 23, 12)                                                            \
	F(L, acknak_seq_num, 0x00, 11, 0)                                                       \
	F(L, crc_7_0, 0x04, 31, 24)                                                             \
	F(L, crc_15_8, 0x04, 23, 16)

#define NICREF_LAYOUTS_PCIE(X)                                                                  \
	X(pcie_tlp_seqhdr, 0x02, "seed 003 L45-47 (TLP sequence header, Figure 3-15)")          \
	X(pcie_dllp_acknak, 0x06, "seed 003 L141-174 (Ack/Nak DLLP)")

#endif

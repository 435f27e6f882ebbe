/* The rules the VFIO front end checks and the model cannot: how a driver reaches the device
 * (the width and place of its BAR0 accesses, its DMA addresses, its PCI command register, the
 * state it leaves behind). One row each: X(ID, "clause", "what the driver did", class), class
 * 'V' a violation of a "must", 'W' a warning (a "should", or a state worth reporting). Each is
 * reported, never repaired: the outcome the access gets is written beside the rule
 * (docs/drivers.md, "Access rules"). */
#ifndef NICREF_VFIO_RULES_H
#define NICREF_VFIO_RULES_H

#define VFIO_RULES(X)                                                                           \
	/* The initialization segment and the UAR registers are dwords (T7, T13); a byte or   \
	 * half-word read returns the lane of the dword read, a narrow write is dropped. */    \
	X(BAR_NARROW, "PRM §4.3 T7, §7.2 T13", "BAR0 access narrower than a dword", 'V')        \
	/* A quadword access reaches the model as the two dword accesses it covers, in address \
	 * order (reported: a PCIe device sees one 8-byte request), except an aligned 64-bit  \
	 * store to a UAR doorbell (CQ 20h, Blue Flame 800h-FFFh: §7.2.2.2 "require 64-bit     \
	 * writes", D-VFIO-8). */                                                              \
	X(BAR_WIDE, "PRM §4.3 T7, §7.2 T13", "BAR0 access wider than a dword", 'V')             \
	/* An instruction form the decoder does not know: executed once by single-stepping    \
	 * over a shadow page (dword reads before, changed dwords written after). */            \
	X(BAR_UNDECODABLE, "PRM §4.3 T7", "BAR0 accessed by an instruction other than a mov", 'V') \
	/* Past the region's size (VFIO_DEVICE_GET_REGION_INFO): reads return all ones, as an  \
	 * unclaimed PCIe read does, and writes are dropped. */                                \
	X(BAR_BEYOND_SIZE, "PCIe Base 3.0 §7.5.1.2 (BAR size)", "access beyond BAR0's size", 'V') \
	/* The device DMAs an IOVA no MAP_DMA covers: the access fails as a bus error does. */  \
	X(DMA_UNMAPPED, "VFIO type1 IOMMU (MAP_DMA)", "device DMA to an IOVA never mapped", 'V') \
	X(DMA_AFTER_UNMAP, "VFIO type1 IOMMU (UNMAP_DMA)",                                       \
	  "device DMA to an IOVA the driver unmapped while the device still used it", 'V')      \
	/* PCI command register bit 2: a function with it clear issues no requests. */          \
	X(DMA_NO_BUS_MASTER, "PCI Local Bus 3.0 §6.2.2", "device DMA before bus mastering was enabled", 'V') \
	X(MAP_DMA_BAD, "VFIO type1 IOMMU (MAP_DMA)",                                             \
	  "MAP_DMA not page-aligned, empty or overlapping a mapping (refused, EINVAL/EEXIST)", 'V') \
	X(CONFIG_BEYOND_SIZE, "PCI Local Bus 3.0 §6.1", "config space access beyond its size", 'V') \
	/* The process ends with an entry handed to the device (ownership 1) never completed. */ \
	X(EXIT_CMD_OUTSTANDING, "PRM §7.14.1 T96", "exit with a command entry still owned by hardware", 'V') \
	/* §8.3 lists the teardown steps as what software "should" do: warnings. */              \
	X(EXIT_NOT_TORN_DOWN, "PRM §8.3", "exit without TEARDOWN_HCA", 'W')                      \
	/* The process ends while the device still holds pages given by MANAGE_PAGES. */        \
	X(EXIT_PAGES_HELD, "PRM §8.3", "exit without reclaiming the device's pages", 'W')        \
	X(EXIT_NOT_DISABLED, "PRM §8.3", "exit without DISABLE_HCA after TEARDOWN_HCA", 'W')

enum vfio_rule {
#define VFIO_RULE_ENUM(id, cite, what, cls) VFIO_RULE_##id,
	VFIO_RULES(VFIO_RULE_ENUM)
#undef VFIO_RULE_ENUM
	VFIO_RULE_COUNT
};

#endif

/* The receive path's entry (ConnectX-4 PRM Rev 0.40 §3, §7.3-§7.12): a frame arrives on a port
 * of the device. Decisions D-RX-* are in docs/rx.md. */
#ifndef NICREF_RX_H
#define NICREF_RX_H

#include <stddef.h>
#include <stdint.h>

#include "nicref/api.h"

struct nicref_dev;

/* One frame received on local port `port` (1..num_ports): from the destination MAC to the end
 * of the payload, without FCS (D-TX-2, the send path's convention). The device traces it
 * (`frame_in`), checks its size against the minimum and the port's MTU (D-RX-5), accepts it
 * at the vport or not (D-RX-6), classifies it through the NIC_RX flow tables and delivers a
 * copy to each TIR they name: RQ WQE, scatter, CQE (docs/rx.md). Every outcome is in the trace
 * and the counters. Returns 0, or -1 when `port` is not a port of the device or the device has
 * no receive path (nothing happens then, nothing is traced). Never reads past len. */
NICREF_API int nicref_wire_rx(struct nicref_dev *dev, unsigned port, const uint8_t *frame,
			      size_t len);

#endif

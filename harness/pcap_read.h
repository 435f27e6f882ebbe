/* Reading a capture file with libpcap into RoCEv2 packets (adp_pkt.h). The only file of the
 * harness that needs libpcap. */
#ifndef NICREF_PCAP_READ_H
#define NICREF_PCAP_READ_H

#include <stddef.h>

#include "adp_pkt.h"

struct pcap_stats {
	size_t frames;    /* every frame of the capture */
	size_t roce;      /* RoCEv2 packets returned */
	size_t truncated; /* RoCEv2 frames cut short (snap length), skipped */
};

/* Reads `path` (pcap or pcapng) with nanosecond timestamps. 0 with *pkts (free() it) and *n,
 * or -1 with a message (unreadable file, unsupported link type, no memory). */
int pcap_read_roce(const char *path, struct roce_pkt **pkts, size_t *n, struct pcap_stats *st,
		   char *err, size_t errlen);

#endif

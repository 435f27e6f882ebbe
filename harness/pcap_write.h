/* Writing frames to a capture file: the classic pcap format (the libpcap file format, version
 * 2.4) with nanosecond timestamps (magic A1B23C4Dh) and link type 1, LINKTYPE_ETHERNET, every
 * number little-endian, so the same frames at the same times give the same file on every host.
 * Wireshark, tshark and libpcap read it. Frames are Ethernet frames without their FCS, as the
 * device hands them to ops.wire_tx. */
#ifndef NICREF_PCAP_WRITE_H
#define NICREF_PCAP_WRITE_H

#include <stddef.h>
#include <stdint.h>

struct pcap_out;

/* Frames longer than this are cut to it (incl_len < orig_len), as a snap length does. */
#define PCAP_OUT_SNAPLEN 262144u

/* Creates (or truncates) path and writes the file header: the writer, or NULL (errno set). */
struct pcap_out *pcap_out_open(const char *path);
/* One frame at ts_ns nanoseconds of the capture's time: 0, or -1 when the write failed (the
 * failure is remembered for pcap_out_close). */
int pcap_out_frame(struct pcap_out *p, uint64_t ts_ns, const uint8_t *frame, size_t len);
/* The frames written so far. */
uint64_t pcap_out_count(const struct pcap_out *p);
/* Closes the file: 0, or -1 when any write (or the close) failed. */
int pcap_out_close(struct pcap_out *p);

#endif

/* libpcap front end of `nicref adp check`. */
/* pcap.h uses the BSD types u_int/u_char, which -D_POSIX_C_SOURCE hides in glibc. */
#define _DEFAULT_SOURCE 1
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap_read.h"

static int link_of(int dlt, enum roce_link *link)
{
	switch (dlt) {
	case DLT_EN10MB:
		*link = ROCE_LINK_ETHERNET;
		return 0;
	case DLT_RAW:
#ifdef DLT_IPV4
	case DLT_IPV4:
	case DLT_IPV6:
#endif
		*link = ROCE_LINK_RAW_IP;
		return 0;
	case DLT_LINUX_SLL:
		*link = ROCE_LINK_LINUX_SLL;
		return 0;
	default:
		return -1;
	}
}

int pcap_read_roce(const char *path, struct roce_pkt **pkts, size_t *n, struct pcap_stats *st,
		   char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	memset(st, 0, sizeof *st);
	*pkts = NULL;
	*n = 0;
	/* Nanosecond precision: libpcap scales microsecond files up, so every time is in ns. */
	pcap_t *pc = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO,
							     ebuf);
	if (!pc) {
		snprintf(err, errlen, "%s: %s", path, ebuf);
		return -1;
	}
	enum roce_link link;
	if (link_of(pcap_datalink(pc), &link) != 0) {
		snprintf(err, errlen, "%s: link type %s is not supported (Ethernet, raw IP, Linux "
			 "cooked)", path, pcap_datalink_val_to_name(pcap_datalink(pc))
			 ? pcap_datalink_val_to_name(pcap_datalink(pc)) : "?");
		pcap_close(pc);
		return -1;
	}
	size_t cap = 0;
	struct pcap_pkthdr *h;
	const u_char *data;
	int rc;
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		st->frames++;
		struct roce_pkt k;
		enum roce_parse pr = roce_parse_frame(data, h->caplen, link, &k);
		if (pr == ROCE_PARSE_TRUNCATED)
			st->truncated++;
		if (pr != ROCE_PARSE_OK)
			continue;
		if (h->ts.tv_sec < 0 || h->ts.tv_usec < 0) {
			snprintf(err, errlen, "%s: frame %zu: negative timestamp", path, st->frames);
			break;
		}
		k.t_ns = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
		k.frame = (uint32_t)st->frames;
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct roce_pkt *g = realloc(*pkts, ncap * sizeof *g);
			if (!g) {
				snprintf(err, errlen, "out of memory");
				break;
			}
			*pkts = g;
			cap = ncap;
		}
		(*pkts)[(*n)++] = k;
	}
	if (rc == -1)
		snprintf(err, errlen, "%s: %s", path, pcap_geterr(pc));
	pcap_close(pc);
	if (rc != -2) { /* -2: end of file; anything else stopped early with err set */
		free(*pkts);
		*pkts = NULL;
		*n = 0;
		return -1;
	}
	st->roce = *n;
	return 0;
}

/* The capture reader (capture.h): libpcap behind a frame iterator, and the messages a user
 * gets when libpcap cannot read a file. */
/* pcap.h uses the BSD types u_int/u_char, which -D_POSIX_C_SOURCE hides in glibc. */
#define _DEFAULT_SOURCE 1
#include <pcap/pcap.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

#define CAP_LINK_NAME(id, name) name,
static const char *const link_names[] = { CAP_LINKS(CAP_LINK_NAME) };
#undef CAP_LINK_NAME

const char *cap_link_name(enum cap_link l)
{
	return (unsigned)l < CAP_LINK_COUNT ? link_names[l] : "?";
}

#define CAPTURE_IOBUF (1u << 20)

struct capture {
	pcap_t *pc;
	char *iobuf; /* the FILE's buffer */
	enum cap_link link;
	uint64_t n;
	char path[256];
};

/* libpcap's DLT_* values onto the link layers nicref decodes. DLT_RAW is 12 or 14 depending
 * on the platform; libpcap maps LINKTYPE_RAW (101) in a file onto it. */
static const struct {
	int dlt;
	enum cap_link link;
} dlt_links[] = {
	{ DLT_EN10MB, CAP_LINK_ETHERNET },
	{ DLT_LINUX_SLL, CAP_LINK_LINUX_SLL },
#ifdef DLT_LINUX_SLL2
	{ DLT_LINUX_SLL2, CAP_LINK_LINUX_SLL2 },
#endif
	{ DLT_RAW, CAP_LINK_RAW_IP },
#ifdef DLT_IPV4
	{ DLT_IPV4, CAP_LINK_RAW_IP },
	{ DLT_IPV6, CAP_LINK_RAW_IP },
#endif
};

/* What to do about a message of libpcap's, by the words it uses. */
static const char *pcap_hint(const char *msg)
{
	if (strstr(msg, "different from the"))
		return "the pcapng file holds interfaces with different link types or snapshot "
		       "lengths, which libpcap does not read in one file: split it per interface "
		       "(tshark -r FILE -Y 'frame.interface_id == 0' -w if0.pcapng, then 1, 2, ...) "
		       "or, when only the snapshot lengths differ, give every interface the same "
		       "one with editcap -s 262144 FILE OUT.pcapng (editcap and tshark: Debian's "
		       "wireshark tools)";
	if (strstr(msg, "unknown file format") || strstr(msg, "bad dump file format"))
		return "not a pcap or pcapng file: convert it with editcap -F pcapng FILE "
		       "OUT.pcapng (Debian's wireshark tools read many capture formats)";
	if (strstr(msg, "No such file") || strstr(msg, "Permission denied"))
		return "check the path and that the file is readable";
	if (strstr(msg, "truncated"))
		return "the file ends inside a frame (a capture still being written, or cut "
		       "short): editcap -r FILE OUT.pcap 1-N keeps the complete frames";
	return NULL;
}

static void pcap_error(char *err, size_t errlen, const char *path, uint64_t frame,
		       const char *msg)
{
	const char *hint = pcap_hint(msg);
	char where[64] = "";
	if (frame)
		snprintf(where, sizeof where, " frame %llu:", (unsigned long long)frame);
	snprintf(err, errlen, "%s:%s libpcap cannot read it (%s)%s%s", path, where, msg,
		 hint ? "; " : "", hint ? hint : "");
}

int capture_open(const char *path, struct capture **out, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	*out = NULL;
	/* The file through a large stdio buffer: libpcap reads a record at a time, and stdio's
	 * default buffer makes a read system call every few records (a fifth of a replay's time
	 * on a capture of 1,000,000 frames). */
	char *iobuf = malloc(CAPTURE_IOBUF);
	FILE *fp = iobuf ? fopen(path, "rb") : NULL;
	if (!fp) {
		/* libpcap's own words for a file it cannot open: "PATH: REASON" */
		snprintf(ebuf, sizeof ebuf, "%s: %s", path, iobuf ? strerror(errno) : "out of memory");
		free(iobuf);
		pcap_error(err, errlen, path, 0, ebuf);
		return -1;
	}
	setvbuf(fp, iobuf, _IOFBF, CAPTURE_IOBUF);
	/* Nanosecond precision: libpcap scales microsecond files up, so every time is in ns. */
	pcap_t *pc = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (!pc) {
		fclose(fp);
		free(iobuf);
		pcap_error(err, errlen, path, 0, ebuf);
		return -1;
	}
	int dlt = pcap_datalink(pc);
	size_t i = 0;
	while (i < sizeof dlt_links / sizeof dlt_links[0] && dlt_links[i].dlt != dlt)
		i++;
	if (i == sizeof dlt_links / sizeof dlt_links[0]) {
		const char *name = pcap_datalink_val_to_name(dlt);
		const char *desc = pcap_datalink_val_to_description(dlt);
		snprintf(err, errlen, "%s: link type %s (%s, DLT %d) is not supported: nicref reads "
			 "Ethernet, Linux cooked (SLL, SLL2) and raw IP captures, where RoCEv1 and "
			 "RoCEv2 frames travel. Capture on the RoCE port's Ethernet interface "
			 "(tcpdump -i IFACE, or ibdump on ConnectX); native InfiniBand frames (ERF, "
			 "IPoIB) hold no RoCE", path, name ? name : "unknown", desc ? desc : "?", dlt);
		pcap_close(pc);
		free(iobuf);
		return -1;
	}
	struct capture *c = calloc(1, sizeof *c);
	if (!c) {
		pcap_close(pc);
		free(iobuf);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	c->pc = pc;
	c->iobuf = iobuf;
	c->link = dlt_links[i].link;
	snprintf(c->path, sizeof c->path, "%s", path);
	*out = c;
	return 0;
}

int capture_next(struct capture *c, struct cap_frame *f, char *err, size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	int rc = pcap_next_ex(c->pc, &h, &data);
	if (rc == -2)
		return 0;
	if (rc != 1) {
		pcap_error(err, errlen, c->path, c->n + 1, pcap_geterr(c->pc));
		return -1;
	}
	c->n++;
	if (h->ts.tv_sec < 0 || h->ts.tv_usec < 0) {
		snprintf(err, errlen, "%s: frame %llu: negative timestamp; fix the file's times with "
			 "editcap -t SECONDS", c->path, (unsigned long long)c->n);
		return -1;
	}
	f->link = c->link;
	f->caplen = h->caplen;
	/* A record whose captured length exceeds its wire length is taken at its captured
	 * length: the bytes are there. */
	f->wirelen = h->len > h->caplen ? h->len : h->caplen;
	f->t_ns = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
	f->number = c->n;
	f->iface = 0;
	f->data = data;
	return 1;
}

long long capture_tell(const struct capture *c)
{
	FILE *f = pcap_file(c->pc);
	return f ? (long long)ftello(f) : -1;
}

enum cap_link capture_link(const struct capture *c)
{
	return c->link;
}

void capture_close(struct capture *c)
{
	if (!c)
		return;
	pcap_close(c->pc); /* closes the FILE, which used iobuf until then */
	free(c->iobuf);
	free(c);
}

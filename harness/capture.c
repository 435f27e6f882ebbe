/* The capture reader (capture.h): libpcap behind a frame iterator, and the messages a user
 * gets when libpcap cannot read a file. */
/* pcap.h uses the BSD types u_int/u_char, which -D_POSIX_C_SOURCE hides in glibc. */
#define _DEFAULT_SOURCE 1
#include <pcap/pcap.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
	/* The fast path (map_open): the file mapped, the offset of the next record, the header's
	 * byte order and whether its times are in microseconds; map NULL once libpcap reads. */
	const uint8_t *map;
	size_t map_len, at;
	size_t dropped, page; /* the mapping's start given back (page-aligned), the page size */
	bool swapped, usec;
	uint32_t max_caplen;
	/* What the first four bytes of the file say: pcapng (a Section Header Block), or a classic
	 * pcap with 16-byte record headers (its byte order, whether its times are in us); for
	 * the classic one, the offset of the record libpcap reads next (off_known). */
	bool pcapng, classic, classic_swapped, classic_usec, off_known;
	uint64_t off;
	uint64_t prev_ns; /* the time of the record before (a record without one takes it) */
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
	{ DLT_NULL, CAP_LINK_LOOPBACK },
	{ DLT_LOOP, CAP_LINK_LOOPBACK },
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
	if (strstr(msg, "bigger than snaplen"))
		return "a record is longer than the snapshot length its interface's header gives, "
		       "which libpcap refuses in a pcapng file (and cuts in a pcap file): rewrite it "
		       "with a larger one, mergecap -F pcap -s 262144 -w OUT.pcap FILE (Debian's "
		       "wireshark tools; -F pcap: mergecap keeps a pcapng interface's own)";
	if (strstr(msg, "block size") && strstr(msg, "maximum"))
		return "a damaged block, or a second section written in the other byte order "
		       "(libpcap reads every section in the first one's): tshark -r FILE -w "
		       "OUT.pcapng rewrites it in one byte order (Debian's wireshark tools)";
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

/* The fast path of the replay's hot loop: a classic pcap file of Ethernet frames, format 2.4,
 * read straight from a mapping of the file instead of libpcap's two copies (the kernel's into
 * the FILE buffer, the FILE's into libpcap's: a quarter of a replay's time on a capture of
 * 1,000,000 frames). It gives what libpcap gives for every record it takes: the record header
 * (tcpdump.org "PCAP Capture File Format": seconds, sub-second, captured and original length,
 * in the file header's byte order), microseconds scaled to nanoseconds, the captured bytes.
 * Any record libpcap treats specially (longer than the snapshot length, or than libpcap's
 * largest, or cut by the end of the file) and the end of the file itself are handed to libpcap,
 * positioned at that record, which goes on from there with its own outcomes and words. */
#define PCAP_MAX_SNAPLEN 262144u /* libpcap's MAXIMUM_SNAPLEN */
#define CAPTURE_AHEAD 4096u      /* how far ahead of the record read the prefetch runs */
#define CAPTURE_DROP (8u << 20)  /* how much of the mapping is read before it is given back */

static uint32_t map_u32(const struct capture *c, const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return c->swapped ? __builtin_bswap32(v) : v;
}

static void map_open(struct capture *c, FILE *fp)
{
	struct stat st;
	if (c->link != CAP_LINK_ETHERNET || pcap_major_version(c->pc) != 2 ||
	    pcap_minor_version(c->pc) != 4 || fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < 24 || (uint64_t)st.st_size > SIZE_MAX || ftello(fp) != 24)
		return;
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(fp), 0);
	if (m == MAP_FAILED)
		return;
	uint32_t magic;
	memcpy(&magic, m, sizeof magic);
	bool known = true;
	if (magic == 0xA1B2C3D4u || magic == 0xD4C3B2A1u)
		c->usec = true;
	else if (magic != 0xA1B23C4Du && magic != 0x4D3CB2A1u)
		known = false;
	c->swapped = magic == 0xD4C3B2A1u || magic == 0x4D3CB2A1u;
	int snap = pcap_snapshot(c->pc);
	if (!known || c->swapped != (pcap_is_swapped(c->pc) == 1) || snap <= 0) {
		munmap(m, (size_t)st.st_size);
		return;
	}
	(void)madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
	long page = sysconf(_SC_PAGESIZE);
	c->page = page > 0 ? (size_t)page : 4096;
	c->map = m;
	c->map_len = (size_t)st.st_size;
	c->at = 24;
	c->max_caplen = (uint32_t)snap < PCAP_MAX_SNAPLEN ? (uint32_t)snap : PCAP_MAX_SNAPLEN;
}

/* libpcap takes over at the current record. */
static void map_close(struct capture *c)
{
	if (!c->map)
		return;
	FILE *fp = pcap_file(c->pc);
	(void)fseeko(fp, (off_t)c->at, SEEK_SET);
	munmap((void *)(uintptr_t)c->map, c->map_len);
	c->map = NULL;
	c->off = c->at;
}

/* 1 with the next record in *f, 0 when libpcap is to read it (and the rest of the file). */
static int map_next(struct capture *c, struct cap_frame *f)
{
	/* The records before this one are read: their pages leave the resident set (the file's
	 * pages stay in the page cache), so the replay's memory does not grow with the capture. */
	if (c->at - c->dropped >= CAPTURE_DROP) {
		size_t to = c->at / c->page * c->page;
		(void)madvise((void *)(uintptr_t)(c->map + c->dropped), to - c->dropped, MADV_DONTNEED);
		c->dropped = to;
	}
	if (c->map_len - c->at < 16) {
		map_close(c);
		return 0;
	}
	const uint8_t *h = c->map + c->at;
	uint32_t sec = map_u32(c, h), sub = map_u32(c, h + 4);
	uint32_t caplen = map_u32(c, h + 8), len = map_u32(c, h + 12);
	/* Only times no type of libpcap's could change (a sub-second below one second, scaled
	 * without overflow; the seconds field is unsigned, D-CAPT-10): the others go to libpcap. */
	if (caplen > c->max_caplen || c->map_len - c->at - 16 < caplen ||
	    sub >= (c->usec ? 1000000u : 1000000000u)) {
		map_close(c);
		return 0;
	}
	c->at += 16 + (size_t)caplen;
	c->n++;
	/* The model reads each frame once, the first touch of its bytes: ask for the bytes a few
	 * frames ahead now, as many as this record took, so they are in the cache in time. */
	size_t ahead = c->at + CAPTURE_AHEAD, end = ahead < c->map_len ? ahead : c->map_len;
	for (size_t o = ahead - 16 - caplen; o < end; o += 64)
		__builtin_prefetch(c->map + o);
	f->link = c->link;
	f->caplen = caplen;
	f->wirelen = len > caplen ? len : caplen;
	f->caplen_over_len = caplen > len;
	f->origlen = len;
	f->file_caplen = 0;
	f->time = CAP_TIME_OK;
	f->t_ns = c->prev_ns = (uint64_t)sec * 1000000000u + (c->usec ? (uint64_t)sub * 1000u : sub);
	f->number = c->n;
	f->iface = 0;
	f->data = h + 16;
	return 1;
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
	uint8_t mb[4] = { 0 };
	uint32_t magic = pread(fileno(fp), mb, 4, 0) == 4
			 ? (uint32_t)mb[0] | (uint32_t)mb[1] << 8 | (uint32_t)mb[2] << 16 | (uint32_t)mb[3] << 24
			 : 0;
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
			 "Ethernet, Linux cooked (SLL, SLL2), raw IP and BSD loopback (NULL, LOOP) "
			 "captures. Capture on an Ethernet interface (tcpdump -i IFACE; for RoCE "
			 "traffic the RoCE port's, or ibdump on ConnectX: native InfiniBand frames, "
			 "ERF or IPoIB, hold no RoCE)", path, name ? name : "unknown",
			 desc ? desc : "?", dlt);
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
	c->pcapng = magic == 0x0A0D0D0Au;
	c->classic = magic == 0xA1B2C3D4u || magic == 0xD4C3B2A1u || magic == 0xA1B23C4Du ||
		     magic == 0x4D3CB2A1u;
	c->classic_swapped = magic == 0xD4C3B2A1u || magic == 0x4D3CB2A1u;
	c->classic_usec = magic == 0xA1B2C3D4u || magic == 0xD4C3B2A1u;
	c->off_known = c->classic;
	c->off = 24;
	snprintf(c->path, sizeof c->path, "%s", path);
	map_open(c, fp);
	*out = c;
	return 0;
}

int capture_next(struct capture *c, struct cap_frame *f, char *err, size_t errlen)
{
	if (c->map) {
		if (map_next(c, f))
			return 1;
	}
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
	uint64_t rec_at = c->off;
	f->file_caplen = 0;
	if (c->off_known) {
		uint32_t file_caplen = h->caplen;
		/* libpcap cuts a classic record longer than the header's snaplen to it: the record
		 * header says how long it is in the file. */
		if (h->len > h->caplen && h->caplen == (uint32_t)pcap_snapshot(c->pc)) {
			uint8_t rh[16];
			if (pread(fileno(pcap_file(c->pc)), rh, sizeof rh, (off_t)rec_at) == 16) {
				uint32_t v;
				memcpy(&v, rh + 8, 4);
				file_caplen = c->classic_swapped ? __builtin_bswap32(v) : v;
				if (file_caplen > h->caplen)
					f->file_caplen = file_caplen;
			} else {
				c->off_known = false;
			}
		}
		c->off += 16 + (uint64_t)file_caplen;
	}
	time_t sec = h->ts.tv_sec;
	/* A classic pcap's seconds field is unsigned 32-bit (tcpdump.org "PCAP Capture File
	 * Format"); libpcap reads it signed, so times from 2038 on come back negative. */
	if (c->classic && sec < 0 && sec >= -(time_t)0x80000000)
		sec += (time_t)0x100000000;
	if (sec < 0 || h->ts.tv_usec < 0) {
		snprintf(err, errlen, "%s: frame %llu: negative timestamp; fix the file's times with "
			 "editcap -t SECONDS", c->path, (unsigned long long)c->n);
		return -1;
	}
	f->link = c->link;
	f->caplen = h->caplen;
	/* A record whose captured length exceeds its wire length is taken at its captured
	 * length: the bytes are there. */
	f->wirelen = h->len > h->caplen ? h->len : h->caplen;
	f->caplen_over_len = h->caplen > h->len;
	f->origlen = h->len;
	f->time = CAP_TIME_OK;
	if (c->pcapng && sec == 0 && h->ts.tv_usec == 0)
		f->time = CAP_TIME_NONE; /* a Simple Packet Block: no time (pcapng §4.4) */
	else if ((uint64_t)h->ts.tv_usec >= 1000000000u)
		f->time = CAP_TIME_BAD_SUBSEC; /* scaled to ns: a sub-second of a second or more */
	if (f->time == CAP_TIME_OK)
		c->prev_ns = (uint64_t)sec * 1000000000u + (uint64_t)h->ts.tv_usec;
	f->t_ns = c->prev_ns;
	f->number = c->n;
	f->iface = 0;
	f->data = data;
	return 1;
}

long long capture_tell(const struct capture *c)
{
	if (c->map)
		return (long long)c->at;
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
	if (c->map)
		munmap((void *)(uintptr_t)c->map, c->map_len);
	pcap_close(c->pc); /* closes the FILE, which used iobuf until then */
	free(c->iobuf);
	free(c);
}

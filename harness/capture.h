/* The one capture reader of the tool: a pcap or pcapng file, through libpcap, as a sequence of
 * frames (link type, captured and wire length, nanosecond timestamp, frame number, interface).
 * It knows nothing of RoCE: roce_class.h decodes the frames, roce_capture.h walks a capture for
 * the commands (`adp check`, and the replay and `roce check` of later issues).
 *
 * Link types read (tcpdump.org "LINK-LAYER HEADER TYPES"): Ethernet (LINKTYPE_ETHERNET 1),
 * Linux cooked capture v1 (LINKTYPE_LINUX_SLL 113) and v2 (LINKTYPE_LINUX_SLL2 276), raw IP
 * (LINKTYPE_RAW 101, libpcap's DLT_RAW 12/14; LINKTYPE_IPV4 228, LINKTYPE_IPV6 229), BSD loopback
 * (LINKTYPE_NULL 0, LINKTYPE_LOOP 108: a 4-byte address family, then an IP packet, read by its
 * version nibble as raw IP, D-CAPT-8). Any other
 * link type is refused when the file is opened, with a message that names it. */
#ifndef NICREF_CAPTURE_H
#define NICREF_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The link layers nicref reads: the order of the summary's "link_types" keys. */
#define CAP_LINKS(X)                                                                            \
	X(ETHERNET, "ethernet")                                                                 \
	X(LINUX_SLL, "linux_sll")                                                               \
	X(LINUX_SLL2, "linux_sll2")                                                             \
	X(RAW_IP, "raw_ip")                                                                     \
	X(LOOPBACK, "loopback")
#define CAP_LINK_ENUM(id, name) CAP_LINK_##id,
enum cap_link { CAP_LINKS(CAP_LINK_ENUM) CAP_LINK_COUNT };
#undef CAP_LINK_ENUM
const char *cap_link_name(enum cap_link l);

/* A record whose time the file does not give (docs/captures.md "Timestamps", D-CAPT-9): it
 * takes the time of the record before it (0 for the first), so it is never a time inversion
 * and never moves the replay's clock. */
enum cap_time {
	CAP_TIME_OK,
	CAP_TIME_NONE,       /* a pcapng Simple Packet Block (no timestamp field: libpcap says 0) */
	CAP_TIME_BAD_SUBSEC, /* a pcap record whose sub-second field is a second or more */
};

/* One frame. `data` holds `caplen` bytes and stays valid until the next capture_next. */
struct cap_frame {
	enum cap_link link;
	uint32_t caplen;   /* bytes captured */
	uint32_t wirelen;  /* bytes on the wire (> caplen: cut by the snapshot length) */
	/* The record's own lengths said caplen > wire length: taken at caplen (the bytes are
	 * there), flagged for the commands to count and name. */
	bool caplen_over_len;
	uint32_t origlen;  /* the record's original-length field, as the file gives it */
	/* libpcap cut the record to the file header's snapshot length: the file holds
	 * `file_caplen` bytes of it (a classic pcap record longer than the header's snaplen),
	 * not the capture. 0 otherwise. */
	uint32_t file_caplen;
	enum cap_time time;
	uint64_t t_ns;     /* timestamp, ns since the epoch (microsecond files scaled up) */
	uint64_t number;   /* 1-based, in file order */
	uint32_t iface;    /* pcapng interface; 0 (libpcap does not report it, see docs/captures.md) */
	const uint8_t *data;
};

struct capture;

/* Opens `path`. 0, or -1 with a message naming the file, why it cannot be read and what the
 * user can do (a file libpcap refuses, a pcapng whose interfaces differ, a link type nicref
 * does not read). */
int capture_open(const char *path, struct capture **out, char *err, size_t errlen);
/* The next frame: 1 (in *f), 0 at the end of the file, -1 with a message naming the file and
 * the frame (a damaged file, an interface block libpcap refuses). */
int capture_next(struct capture *c, struct cap_frame *f, char *err, size_t errlen);
/* How many bytes of the file the reader has consumed, -1 when unknown (progress estimates). */
long long capture_tell(const struct capture *c);
/* The link type of every frame of the capture. */
enum cap_link capture_link(const struct capture *c);
void capture_close(struct capture *c);

#endif

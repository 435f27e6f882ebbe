/* The device's wire, as the front end shows it (docs/drivers.md, "Frames"): the frames the
 * model sends are appended to a pcap file (NICREF_VFIO_PCAP, `nicref drive --pcap`), and the
 * frames of a capture (NICREF_VFIO_INJECT, `nicref drive --inject PCAP@AFTER`) are received on
 * port 1 at a point of the run fixed by the commands the device has completed, so a run that
 * injects takes the same course every time (D-VFIO-7).
 *
 * AFTER is a command count N ("after the N-th command completed") or an opcode 0xNNN ("after
 * the first command of that opcode completed"). The injection does not happen inside the
 * model's call that completed the command: it is pending until the program next enters the
 * front end (a BAR0 access, a clock query, a sleep or a poll), and then every frame of the
 * capture is received, in file order. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicref/rx.h"
#include "vfio/vfio.h"

#define INJECT_MAX 16
#define FRAME_MAX 9216u

static struct {
	const char *pcap_path;       /* frames out (opened at the first, by the active process) */
	int pcap_fd;                 /* -1 until then */
	unsigned nframes;            /* frames of the capture to inject */
	uint8_t *frame[INJECT_MAX];
	uint32_t len[INJECT_MAX];
	unsigned long after_count;   /* inject once this many commands completed (0: by opcode) */
	unsigned after_opcode;       /* or once a command of this opcode completed */
	unsigned long done;          /* commands completed */
	int pending, injected, busy;
} wire = { .pcap_fd = -1 };

static ssize_t (*real_write_fn(void))(int, const void *, size_t)
{
	return (ssize_t(*)(int, const void *, size_t))vfio_real("write");
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The pcap file header (LINKTYPE_ETHERNET, nanosecond stamps as `nicref vectors --pcap`
 * writes them, snaplen FRAME_MAX). */
static void pcap_open(const char *path)
{
	int (*real_open)(const char *, int, ...) = (int (*)(const char *, int, ...))vfio_real("open");
	wire.pcap_fd = real_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (wire.pcap_fd < 0)
		return;
	uint8_t h[24] = { 0 };
	put_le32(h, 0xA1B23C4Du);
	h[4] = 2, h[6] = 4;         /* version 2.4 */
	put_le32(h + 16, FRAME_MAX); /* snaplen */
	put_le32(h + 20, 1);         /* Ethernet */
	if (real_write_fn()(wire.pcap_fd, h, sizeof h) != (ssize_t)sizeof h) {
		close(wire.pcap_fd);
		wire.pcap_fd = -1;
	}
}

/* ops.wire_tx: a frame the model put on the wire (no FCS, D-TX-2), stamped with virtual time. */
void vfio_wire_tx(void *ctx, unsigned port, const uint8_t *frame, size_t len)
{
	(void)ctx;
	(void)port;
	if (!wire.pcap_path || !vfio.active)
		return;
	if (wire.pcap_fd < 0) {
		pcap_open(wire.pcap_path);
		if (wire.pcap_fd < 0) {
			vfio_record("error pcap: %s cannot be written", wire.pcap_path);
			wire.pcap_path = NULL;
			return;
		}
	}
	uint64_t t = nicref_clock_now(vfio.dev);
	uint8_t h[16];
	put_le32(h, (uint32_t)(t / 1000000000ull));
	put_le32(h + 4, (uint32_t)(t % 1000000000ull));
	put_le32(h + 8, (uint32_t)len);
	put_le32(h + 12, (uint32_t)len);
	ssize_t (*w)(int, const void *, size_t) = real_write_fn();
	if (w(wire.pcap_fd, h, sizeof h) != (ssize_t)sizeof h || w(wire.pcap_fd, frame, len) != (ssize_t)len)
		vfio_record("error pcap: a frame out could not be written");
}

/* Reads the capture to inject; 0, or -1 with err filled. */
static int load_capture(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	uint8_t h[24], r[16];
	/* little-endian, microsecond or nanosecond stamps (unused), Ethernet */
	int bad = fread(h, 1, sizeof h, f) != sizeof h ||
		  (le32(h) != 0xA1B2C3D4u && le32(h) != 0xA1B23C4Du) || le32(h + 20) != 1;
	while (!bad && fread(r, 1, sizeof r, f) == sizeof r) {
		uint32_t cap = le32(r + 8), orig = le32(r + 12);
		if (wire.nframes == INJECT_MAX || cap != orig || cap == 0 || cap > FRAME_MAX) {
			bad = 1;
			break;
		}
		uint8_t *b = malloc(cap);
		if (!b || fread(b, 1, cap, f) != cap) {
			free(b);
			bad = 1;
			break;
		}
		wire.frame[wire.nframes] = b;
		wire.len[wire.nframes++] = cap;
	}
	fclose(f);
	if (bad || wire.nframes == 0) {
		snprintf(err, errlen, "%s: not a little-endian Ethernet pcap of 1 to %d whole "
			 "frames of at most %u bytes", path, INJECT_MAX, FRAME_MAX);
		return -1;
	}
	return 0;
}

int vfio_wire_init(char *err, size_t errlen)
{
	const char *pcap = getenv("NICREF_VFIO_PCAP");
	if (pcap && *pcap)
		wire.pcap_path = pcap;
	const char *inj = getenv("NICREF_VFIO_INJECT");
	if (!inj || !*inj)
		return 0;
	char path[4096];
	snprintf(path, sizeof path, "%s", inj);
	char *at = strrchr(path, '@');
	if (!at) {
		snprintf(err, errlen, "inject '%s': no @AFTER", inj);
		return -1;
	}
	*at++ = 0;
	char *end;
	errno = 0;
	unsigned long v = strtoul(at, &end, 0);
	if (errno || end == at || *end || v == 0 || v > 0xFFFFFFul) {
		snprintf(err, errlen, "inject '%s': AFTER is a command count or an opcode 0xNNN", inj);
		return -1;
	}
	if (at[0] == '0' && (at[1] == 'x' || at[1] == 'X'))
		wire.after_opcode = (unsigned)v;
	else
		wire.after_count = v;
	return load_capture(path, err, errlen);
}

/* A command completed (the model's cmd_done, from inside its call). */
void vfio_wire_cmd_done(unsigned opcode)
{
	wire.done++;
	if (wire.nframes == 0 || wire.injected)
		return;
	if (wire.after_count ? wire.done == wire.after_count : opcode == wire.after_opcode)
		wire.pending = 1;
}

/* The program entered the front end: a pending injection happens now. */
void vfio_wire_tick(void)
{
	if (!wire.pending || wire.busy || !vfio.dev || !vfio.active)
		return;
	wire.busy = 1;
	wire.pending = 0;
	wire.injected = 1;
	vfio_record("inject %u frames after command %lu", wire.nframes, wire.done);
	for (unsigned i = 0; i < wire.nframes; i++)
		if (nicref_wire_rx(vfio.dev, 1, wire.frame[i], wire.len[i]) != 0)
			vfio_record("error inject: the device has no receive path on port 1");
	wire.busy = 0;
}

/* At exit: a capture never injected is worth saying (the program ended before AFTER). */
void vfio_wire_fini(void)
{
	if (wire.nframes && !wire.injected)
		vfio_record("inject none: the run ended after %lu commands, before the injection point",
			    wire.done);
}

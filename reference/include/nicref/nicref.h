/* libnicref: a pure-C reference model of an mlx5-class NIC (ConnectX-4 PRM Rev 0.40).
 *
 * The model does no I/O, prints nothing, never exits, reads no real clock and has no globals.
 * Host memory, wire output and interrupts reach it through nicref_host_ops; everything it
 * makes visible is an event of the canonical trace (trace.h); time moves only when the
 * caller advances it. */
#ifndef NICREF_H
#define NICREF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicref/adp.h"
#include "nicref/api.h"
#include "nicref/cmd.h"
#include "nicref/invariants.h"
#include "nicref/layout.h"
#include "nicref/lro.h"
#include "nicref/roce.h"
#include "nicref/rx.h"
#include "nicref/trace.h"
#include "nicref/version.h"

struct nicref_dev;

/* How the device reaches the host. Every pointer may be NULL: DMA then goes to the built-in
 * sparse host memory, wire output and interrupts are dropped (they are in the trace anyway). */
struct nicref_host_ops {
	void *ctx;
	/* Return 0, or non-zero for a bus error (the device sees an internal error). */
	int (*dma_read)(void *ctx, uint64_t addr, void *buf, size_t len);
	int (*dma_write)(void *ctx, uint64_t addr, const void *buf, size_t len);
	void (*wire_tx)(void *ctx, unsigned port, const uint8_t *frame, size_t len);
	void (*interrupt)(void *ctx, unsigned vector);
};

/* A capability the device offers lower than its default profile does (PRM §12.3.3): the
 * device presents `value` in both its maximum and its current capabilities (QUERY_HCA_CAP
 * op_mod bit 0 = 0 and 1) from power-on, so a test can reach what the PRM says of a device
 * without the capability. Set through nicref_profile_cap_set. */
#define NICREF_MAX_CAP_SETTINGS 16
struct nicref_cap_setting {
	const struct nicref_layout *layout; /* hca_cap, per_protocol_networking_offload_caps or
					     * flow_table_nic_cap (T145, T147, T149) */
	/* A field inside a sub-structure: the wide fields that hold it, outermost first (a T150
	 * properties block of T149, then a T152 field-support block of T150); NULL when `field`
	 * is one of layout's own. */
	const struct nicref_field *at[2];
	const struct nicref_field *field; /* the field set (of layout, or of the sub-structure) */
	uint64_t value;
};

/* What the spec leaves open, and the device's fixed identity: one named setting each, with
 * its default in nicref_profile_default() and its reasoning in docs/decisions.md. */
struct nicref_profile {
	uint16_t fw_rev_major, fw_rev_minor, fw_rev_subminor; /* PRM T8 */
	uint16_t cmd_interface_rev;                            /* PRM T8; D-INIT-4 */
	uint8_t log_cmdq_size, log_cmdq_stride;                /* PRM T8; D-CMD-1 */
	uint8_t nic_interface_supported;                       /* PRM T8 bitmask */
	uint8_t cmdif_checksum;        /* PRM T145 40h[15:14]: 0 off, 1 generate, 3 check+gen */
	uint64_t init_delay_ns;        /* initializing stays 1 this long after the address LSW */
	uint64_t health_period_ns;     /* D-H-1: health counter heartbeat */
	uint32_t timer_khz;            /* internal timer frequency (D-TS-1) */
	uint32_t max_mailbox_blocks;   /* longest mailbox chain the device accepts, per direction */
	uint32_t hostmem_max_pages;    /* bound of the built-in host memory (4 KiB pages) */
	/* Reserved input bits (D-CMD-8): always a driver violation; 1 strict refuses the command
	 * with BAD_PARAM (PRM T128), 0 permissive runs it. */
	uint8_t reserved_check;
	/* "Must" rules no driver meets and real devices do not enforce, reported as warnings
	 * (D-CMD-19, NICREF_VIOLATIONS_SHOULD): 0 (default) a warning and the command runs, 1
	 * strict refuses as the letter of the PRM says. */
	uint8_t should_strict;
	uint32_t boot_pages, init_pages; /* QUERY_PAGES boot / init need (PRM §12.3.1; D-PG-2) */
	/* A create short of ICM pages while its Page Request reached an EQ (D-PG-6): 1 (default)
	 * the command waits, owned by the device, and runs again after each MANAGE_PAGES, as
	 * firmware does; 0 it is refused at once, NO_RESOURCES ICM_PAGES_SHORT (D-PG-4). */
	uint8_t page_wait;
	uint32_t max_icm_pages;          /* most pages MANAGE_PAGES may hand the device */
	uint16_t supported_issi;         /* QUERY_ISSI bitmask, bit N = ISSI N (D-ISSI-1) */
	uint16_t msix_vectors;           /* interrupt vectors (CONFIG_INT_MODERATION int_vector) */
	uint8_t num_ports;               /* HCA_CAP.num_ports (T145 34h[7:0]) */
	uint8_t uar_base;                /* 4 KB pages of BAR0 before the first UAR (D-UAR-1) */
	uint8_t log_max_pd;              /* HCA_CAP.log_max_pd (T145 64h[20:16]), at most 16 */
	uint8_t log_max_transport_domain; /* HCA_CAP 64h[28:24], at most 16 */
	uint8_t driver_version;          /* HCA_CAP.driver_version (T145 4Ch[30]) */
	/* The NIC vport context's min_wqe_inline_mode (PRM §7.3 T16 00h[26:24]), a mode of
	 * §7.9.3.1 (0-3, 5-7): the least inline mode an SQ may be created with. No field_select
	 * bit of T483 writes it, so it is the device's (D-VP-3). */
	uint8_t vport_min_wqe_inline_mode;
	/* HCA_CAP log_max_cq, _mkey, _rq, _sq, _tir, _tis, _rmp and _rqt (T145), at most 24: the
	 * handle spaces are 24 bits wide whatever this says. */
	uint8_t log_max_objects;
	/* Contexts of one type per ICM page: each type costs ceil(live / this) regular pages
	 * (D-PG-4). */
	uint16_t contexts_per_page;
	/* Large Receive Offload (PRM §3.3.6; docs/lro.md D-LRO-1, D-LRO-6): the sessions the
	 * device holds open at once, for all TIRs (1 to 4096); HCA_CAP.lro_min_mss_size (T147
	 * 08h, > 0) and HCA_CAP.lro_max_msg_sz_mode (T147 00h[26:25], 0 or 1), which follow these. */
	uint16_t lro_max_sessions;
	uint16_t lro_min_mss_size;
	uint8_t lro_max_msg_sz_mode;
	/* Adaptive retransmission (seeds 000/001; D-ADP-*): the ROCE_ACCL read-only
	 * capabilities and the readings of the seeds' contradictions. */
	uint8_t adp_max_range_num;        /* adp_retx_profile_max_range_num */
	uint8_t adp_max_profile_id;       /* adp_retx_profile_max_id */
	uint32_t adp_base_timeout_min_ns; /* adp_retx_base_timeout_min */
	struct nicref_adp_options adp;
	/* RoCE (issue 17, docs/roce.md "Device profiles"): whose QP behaviour the device has where
	 * implementations differ: 0 connectx (default), 1 seed004 (the engine of seed 004: RC and
	 * UD only, 4096 QPs, no remote READ or atomics). */
	uint8_t roce_profile;
	/* Capabilities lowered below what the settings above make the device offer (none by
	 * default); nicref_dev_create refuses a profile whose setting would raise one. */
	uint8_t ncaps;
	struct nicref_cap_setting caps[NICREF_MAX_CAP_SETTINGS];
};

/* Lowers a capability: layout and field by name ("hca_cap", "cq_moderation"); a field inside a
 * sub-structure by its dotted path ("flow_table_nic_cap",
 * "flow_table_properties_nic_receive.ft_support" or
 * "flow_table_properties_nic_transmit.ft_field_support.outer_dmac"). Setting a field
 * again replaces its value. A capability that follows a setting of this profile (num_ports,
 * log_max_pd, log_max_cq, ...: lower the setting instead) or that is a minimum (log_min_*,
 * lro_min_mss_size: lowering it would raise what the device allows) is FIXED. */
enum nicref_cap_set_result {
	NICREF_CAP_SET_OK,
	NICREF_CAP_SET_UNKNOWN, /* no such capability layout or field */
	NICREF_CAP_SET_FIXED,   /* see above */
	NICREF_CAP_SET_RAISE,   /* above what the device offers with this profile */
	NICREF_CAP_SET_WIDTH,   /* does not fit the field */
	NICREF_CAP_SET_FULL,    /* NICREF_MAX_CAP_SETTINGS already */
};
NICREF_API enum nicref_cap_set_result nicref_profile_cap_set(struct nicref_profile *p,
								 const char *layout,
								 const char *field, uint64_t value);

struct nicref_config {
	uint64_t seed; /* the PRNG seed; same seed and inputs give the same trace */
	struct nicref_host_ops ops;
	void (*trace)(void *ctx, const struct nicref_event *ev);
	void *trace_ctx;
	struct nicref_profile profile;
	/* The device can be captured by nicref_snapshot_take (nicref/snapshot.h). It costs a
	 * 32-byte header on every block of memory the device's objects hold (D-SNAP-1, D-SNAP-3),
	 * so it is asked for, not the default: fuzz targets ask, a device of a million QPs need
	 * not pay for it. */
	bool snapshots;
};

NICREF_API void nicref_profile_default(struct nicref_profile *p);
/* A config with the default profile, no ops and no trace callback. */
NICREF_API void nicref_config_default(struct nicref_config *cfg);

/* NULL only when memory is exhausted or the profile is impossible (e.g. a command queue larger
 * than the 4 KiB the PRM allows). */
NICREF_API struct nicref_dev *nicref_dev_create(const struct nicref_config *cfg);
NICREF_API void nicref_dev_destroy(struct nicref_dev *dev);
/* Power-on state again: registers, queues, clock 0, PRNG reseeded, trace sequence 0. The
 * built-in host memory is the host's, not the device's: it is kept (see nicref_hostmem_clear). */
NICREF_API void nicref_dev_reset(struct nicref_dev *dev);

/* BAR0, 32-bit accesses (PRM §4.3). */
NICREF_API uint32_t nicref_bar_read32(struct nicref_dev *dev, uint32_t offset);
NICREF_API void nicref_bar_write32(struct nicref_dev *dev, uint32_t offset, uint32_t value);

/* Event kinds the trace callback is not called for: bit k (1 << k) for enum nicref_event_kind
 * k; none after create, kept across a reset. A muted event still takes its place in the stream
 * (its seq number, the events statistic): the callback sees every other event exactly as it
 * would, only what the device computes for a muted event alone is not computed (the frame
 * CRC of frame_in and frame_out). For a consumer that reads a few kinds (nicref replay). */
NICREF_API void nicref_trace_mute(struct nicref_dev *dev, uint64_t kinds);

/* Virtual time in nanoseconds; only the caller moves it. */
NICREF_API void nicref_clock_advance(struct nicref_dev *dev, uint64_t ns);
NICREF_API uint64_t nicref_clock_now(const struct nicref_dev *dev);
/* The earliest time a timer of the device falls due (a held completion event or interrupt, an
 * LRO session's end, a transport timer): 1 with *t set (at or before now: due now), or 0 when no
 * timer runs. nicref_clock_advance stops the clock at each such time on its way, so a caller
 * need not; one that moves something outside the device between the device's timers (a link
 * carrying its frames to a peer, nicref/link.h) moves the clock to each. */
NICREF_API int nicref_clock_next_deadline(const struct nicref_dev *dev, uint64_t *t);

/* The built-in sparse host memory (used when ops.dma_read/dma_write are NULL). Unwritten bytes
 * read as zero. Writes fail (-1) past profile.hostmem_max_pages distinct pages. */
NICREF_API int nicref_hostmem_write(struct nicref_dev *dev, uint64_t addr, const void *buf,
				    size_t len);
NICREF_API int nicref_hostmem_read(struct nicref_dev *dev, uint64_t addr, void *buf, size_t len);
NICREF_API void nicref_hostmem_clear(struct nicref_dev *dev);
/* Error injection: device DMA reads (NICREF_FAULT_READ) and/or writes (NICREF_FAULT_WRITE)
 * touching [addr, addr+len) fail as a bus error would, until nicref_hostmem_clear. At most 8
 * ranges; -1 when full or len is 0. Host-side nicref_hostmem_read/write are unaffected. */
enum { NICREF_FAULT_READ = 1, NICREF_FAULT_WRITE = 2 };
NICREF_API int nicref_hostmem_fault(struct nicref_dev *dev, uint64_t addr, uint64_t len,
				    unsigned flags);
NICREF_API size_t nicref_hostmem_pages(const struct nicref_dev *dev);

/* The device PRNG (seeded; for harnesses that want the device's own stream). */
NICREF_API uint64_t nicref_prng_next(struct nicref_dev *dev);

/* Counters of the device, for reports and invariants. */
struct nicref_stats {
	uint64_t events;      /* trace events emitted */
	uint64_t commands;    /* command entries completed */
	uint64_t violations;  /* driver violations */
	uint64_t dma_errors;
	uint64_t send_wqes;   /* send WQEs executed (PRM §7.4) */
	uint64_t frames_out;  /* frames put on the wire (frame_out events) */
	uint64_t tx_discards; /* packets and frames the send path dropped (tx_discard events) */
	uint64_t frames_in;   /* frames received from the wire (frame_in events, nicref_wire_rx) */
	uint64_t rx_cqes;     /* receive completions written (good and error, not flushes) */
	uint64_t rx_drops;    /* frame copies the receive path dropped (rx_drop events) */
	uint64_t lro_sessions_opened; /* LRO sessions opened (lro_open events, PRM §3.3.6.2) */
	uint64_t lro_sessions_ended;  /* LRO sessions completed (lro_end events, §3.3.6.3) */
	uint64_t lro_segments_merged; /* segments merged into an open session (lro_merge) */
	/* RoCEv2 (nicref/roce.h, docs/roce.md D-ROCE-*). */
	uint64_t roce_pkts_in;   /* packets the transport took (roce_rx events) */
	uint64_t roce_pkts_out;  /* packets it sent (roce_tx events) */
	uint64_t roce_drops[NICREF_ROCE_DROP_COUNT]; /* by reason (roce_drop events); [0] total */
	uint64_t roce_icrc_errors;     /* = roce_drops[NICREF_ROCE_DROP_ICRC] */
	uint64_t roce_retransmits;     /* requester restarts (roce_retx events) */
	uint64_t roce_naks_sent;       /* NAKs sent, RNR NAKs included (roce_nak events) */
	uint64_t roce_rnr_naks_sent;
	uint64_t roce_rnr_naks_received;
	uint64_t roce_cnps_sent;       /* roce_cnp dir 0 */
	uint64_t roce_cnps_received;   /* roce_cnp dir 1 */
	uint64_t roce_ecn_marked;      /* packets taken with ECN CE (IP ECN 11b) */
};
NICREF_API void nicref_stats_get(const struct nicref_dev *dev, struct nicref_stats *out);

/* The device lifecycle (PRM §8.2-§8.3; D-INIT-2). */
enum nicref_hca_state {
	NICREF_HCA_DISABLED,    /* after reset, and after DISABLE_HCA */
	NICREF_HCA_ENABLED,     /* ENABLE_HCA: the start-up commands of §8.2 */
	NICREF_HCA_INITIALIZED, /* INIT_HCA: resource commands */
	NICREF_HCA_TORN_DOWN,   /* TEARDOWN_HCA graceful: page reclaim, then DISABLE_HCA */
	NICREF_HCA_PANIC,       /* TEARDOWN_HCA panic: doorbells dropped until reset */
};

/* What the device holds, for reports, invariants and fuzz oracles. */
struct nicref_hca_info {
	enum nicref_hca_state state;
	uint16_t issi;
	uint32_t pages;                   /* pages the driver has given and not reclaimed */
	int32_t query_pages[3];           /* what QUERY_PAGES boot/init/regular would answer */
	uint32_t pds, uars, tds;          /* live handles */
	uint32_t mkeys, eqs, cqs, tiss, sqs, rmps, rqs, rqts, tirs; /* live objects */
};
NICREF_API void nicref_hca_info(const struct nicref_dev *dev, struct nicref_hca_info *out);

/* Checks the device's internal invariants; returns 0, or the negative number of the first one
 * broken (enum nicref_invariant, nicref/invariants.h). Fuzzers call it after every step: a
 * failure is a model bug. */
NICREF_API int nicref_dev_check(const struct nicref_dev *dev);
/* The same check; also describes the state the broken invariant found into buf (snprintf
 * rules: at most len bytes, terminated; empty when every invariant holds). */
NICREF_API int nicref_dev_check_explain(const struct nicref_dev *dev, char *buf, size_t len);
/* An invariant's id ("REFCOUNT_MATCHES"), clause and text by its number; NULL for none. */
NICREF_API const char *nicref_invariant_name(int code);
NICREF_API const char *nicref_invariant_citation(int code);
NICREF_API const char *nicref_invariant_description(int code);

#endif

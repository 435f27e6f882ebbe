/* Private to libnicref: the device state and the helpers every part of the model shares. */
#ifndef NICREF_CORE_DEV_H
#define NICREF_CORE_DEV_H

#include <stdbool.h>

#include "core/caps.h"
#include "core/hostmem.h"
#include "core/pages.h"
#include "nicref/nicref.h"
#include "obj/cq.h"
#include "obj/eq.h"
#include "obj/mkey.h"
#include "obj/obj.h"
#include "obj/objtab.h"
#include "obj/tir.h"
#include "obj/vport.h"
#include "obj/wq.h"
#include "reg/port.h"
#include "reg/roce_accl.h"

/* PRM §4.3 T7/T8: the initialization segment as the device holds it. */
struct init_seg {
	uint32_t addr_hi;      /* 10h as last written */
	uint32_t addr_lo;      /* 14h[31:12] as last written */
	bool msw_written;      /* 10h written since the last LSW latch */
	bool cmdq_valid;       /* an address has been latched */
	uint64_t cmdq_addr;    /* latched at the LSW write (PRM §8.2: MSW first) */
	uint8_t nic_interface; /* 14h[9:8] */
	bool initializing;     /* 1FCh[31] */
	uint64_t ready_at_ns;  /* when initializing clears, once the address is latched */
	uint8_t health_syndrome;
	uint32_t health_counter_frozen;
};

/* The lifecycle of PRM §8.2-§8.3 (D-INIT-2); the values are those of enum nicref_hca_state. */
enum hca_state {
	HCA_DISABLED = NICREF_HCA_DISABLED,
	HCA_ENABLED = NICREF_HCA_ENABLED,
	HCA_INITIALIZED = NICREF_HCA_INITIALIZED,
	HCA_TORN_DOWN = NICREF_HCA_TORN_DOWN,
	HCA_PANIC = NICREF_HCA_PANIC,
};

/* What the start-up sequence of §8.2 has done so far, for its ordering rules. */
struct hca {
	enum hca_state state;
	uint16_t issi;            /* current ISSI (§7.1): 0 until SET_ISSI */
	bool issi_set;            /* SET_ISSI succeeded since ENABLE_HCA */
	bool init_pages_queried;  /* QUERY_PAGES(init) since ENABLE_HCA (D-INIT-1) */
	char driver_version[64];  /* SET_DRIVER_VERSION, as given */
	/* Page Request events (PRM §7.13.10.2, §12.3.2): at most one outstanding until the next
	 * MANAGE_PAGES re-arms it (D-PG-4). */
	bool page_request_armed;
	uint32_t pages_wanted; /* total the last request asked for; 0 when answered */
};

struct nicref_dev {
	struct nicref_config cfg;
	uint64_t now_ns;
	uint64_t prng;
	uint64_t trace_seq;
	struct nicref_stats stats;
	struct init_seg iseg;
	struct hostmem hostmem;
	/* Gather/scatter buffers of one command, sized for the longest chain the profile allows,
	 * so no command allocates. */
	uint8_t *cmd_in, *cmd_out;
	size_t cmd_buf_len;
	/* Address and control part (200h-23Fh) of each output mailbox block, kept from
	 * validation so the scatter writes back what was checked. */
	uint64_t *out_block_addr;
	uint8_t *out_block_ctrl;

	struct hca hca;
	struct caps caps;
	struct page_pool pages;
	/* Every object, by type (obj/obj.h), and what the live ones cost in ICM pages. */
	struct objtab obj[OBJ_TYPE_COUNT];
	uint32_t obj_charged[OBJ_TYPE_COUNT];
	struct eq_dev eqd;
	struct vport *vport;
	struct wq_dev *wqd; /* obj/wq_db.c: the send doorbell latches of the UAR pages */
	uint16_t *int_min_delay; /* CONFIG_INT_MODERATION, per vector (profile.msix_vectors) */
	struct port port[NICREF_MAX_PORTS];
	struct roce_accl roce_accl; /* reg/roce_accl.c: ADP register state (issue 5) */
};

/* Pages the device needs now (boot + init + what live objects use; 0 once torn down). */
uint32_t dev_pages_required(const struct nicref_dev *dev);
/* QUERY_PAGES op_mod 1 boot, 2 init, 3 regular: > 0 pages needed, < 0 pages reclaimable
 * (PRM T133; D-PG-1). */
int32_t pages_query(const struct nicref_dev *dev, unsigned op_mod);
/* Destroys every object, the last created first (TEARDOWN_HCA, reset). */
void hca_release_objects(struct nicref_dev *dev);
/* Opens each object table's handle range from the capabilities in force (INIT_HCA). */
void obj_open_tables(struct nicref_dev *dev);
/* Live objects of a type. */
static inline uint32_t dev_obj_count(const struct nicref_dev *dev, enum obj_type t)
{
	return dev->obj[t].nlive;
}

/* Handle spaces (D-OBJ-2): PDs and TDs are numbered from 1, 2^log_max_pd of them; UARs from
 * profile.uar_base to the end of the UAR area (D-UAR-1); EQs from 0; every other type from 1,
 * 2^log_max_<type> of them. Capacities are the widest the PRM's handle fields hold. */
#define DEV_PD_BASE 1u
#define DEV_TD_BASE 1u
#define DEV_LOG_MAX_PD 24
#define DEV_LOG_MAX_TD 24
#define DEV_MAX_UARS 256u /* 1 MB UAR area (uar_sz 0) of 4 KB pages */

/* The one way events leave the device. */
void dev_emit(struct nicref_dev *dev, enum nicref_event_kind kind, const uint64_t *args,
	      unsigned nargs);
void dev_emit0(struct nicref_dev *dev, enum nicref_event_kind kind);
void dev_emit2(struct nicref_dev *dev, enum nicref_event_kind kind, uint64_t a, uint64_t b);
void dev_emit3(struct nicref_dev *dev, enum nicref_event_kind kind, uint64_t a, uint64_t b,
	       uint64_t c);
void dev_violation(struct nicref_dev *dev, enum nicref_violation rule, uint64_t arg);

/* DMA through the injected ops or the built-in host memory. Non-zero on a bus error, which is
 * also traced. */
int dev_dma_read(struct nicref_dev *dev, uint64_t addr, void *buf, size_t len);
int dev_dma_write(struct nicref_dev *dev, uint64_t addr, const void *buf, size_t len);

/* Init segment (cmd/init_seg.c). */
void init_seg_reset(struct nicref_dev *dev);
void init_seg_tick(struct nicref_dev *dev); /* time moved: clear initializing when due */

/* A BAR0 write to the UAR pages (obj/uar.c): routed to the CQ, EQ and send doorbells. */
void uar_write32(struct nicref_dev *dev, uint32_t offset, uint32_t value);

/* Command queue (cmd/cmdq.c). */
void cmdq_doorbell(struct nicref_dev *dev, uint32_t vector);

/* One delivered command, as the transport hands it to dispatch (cmd/dispatch.c). */
struct cmd_exec {
	unsigned slot;
	uint32_t input_length, output_length; /* as the entry states them */
	const uint8_t *in;                    /* gathered input */
	size_t in_len;                        /* bytes gathered (less when refused as too long) */
	uint8_t *out;                         /* output to scatter, zeroed by dispatch */
	size_t out_len;                       /* bytes the transport will write back */
	bool in_too_long, out_too_long;       /* beyond profile.max_mailbox_blocks */
};
/* Runs the command; fills x->out[0..out_len) with status, syndrome and output. */
void cmd_execute(struct nicref_dev *dev, struct cmd_exec *x);

/* Model bugs stop the model: fuzzers must see them. Never used for bad input. The trap is in
 * nicref_assert_failed (core/assert.c), out of line, so the fuzz targets can wrap it to print
 * the assertion and its place first (fuzzers/fuzz_report.c); the model prints nothing. */
_Noreturn void nicref_assert_failed(const char *expr, const char *file, int line);
#define NICREF_ASSERT(c)                                                                        \
	do {                                                                                    \
		if (!(c))                                                                       \
			nicref_assert_failed(#c, __FILE__, __LINE__);                           \
	} while (0)

/* An invariant check found `code` broken (nicref/invariants.h): describes the state it found
 * into buf (snprintf rules; nothing when len is 0) and returns code. Every check reads
 * `return dev_broken(buf, len, NICREF_INV_..., "what it saw", ...)`, so nicref_dev_check (len 0)
 * and nicref_dev_check_explain run the same code. */
/* The lifecycle state's name (D-INIT-2), for explanations. */
const char *dev_state_name(enum hca_state st);
__attribute__((format(printf, 4, 5))) int dev_broken(char *buf, size_t len, int code,
						     const char *fmt, ...);

#endif

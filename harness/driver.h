/* The reference driver: a small, strictly correct host driver for the device, written from the
 * PRM alone. It brings a device up exactly as PRM §8.2 prescribes (init segment, command queue
 * with signed entries and mailboxes, ENABLE_HCA, ISSI negotiation, boot and init pages,
 * capabilities, INIT_HCA, SET_DRIVER_VERSION) and tears it down as §8.3 does (TEARDOWN_HCA,
 * page reclaim, DISABLE_HCA).
 *
 * It talks to the device only through BAR0 accesses and host memory (struct refdrv_ops), so the
 * same code drives the model, a recorded op stream or a device under test. It is the example
 * for third-party driver authors, the setup step of tests and fuzz targets, and it must never
 * trigger a driver violation. For tests, `mistakes` makes it break one rule on purpose. */
#ifndef NICREF_DRIVER_H
#define NICREF_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nicref_dev;

struct refdrv_ops {
	void *ctx;
	uint32_t (*bar_read32)(void *ctx, uint32_t offset);
	void (*bar_write32)(void *ctx, uint32_t offset, uint32_t value);
	int (*mem_write)(void *ctx, uint64_t addr, const void *buf, size_t len);
	int (*mem_read)(void *ctx, uint64_t addr, void *buf, size_t len);
	void (*wait_ns)(void *ctx, uint64_t ns); /* time passes while the driver polls */
};

/* Ops that drive a model instance directly. */
struct refdrv_ops refdrv_ops_model(struct nicref_dev *dev);

/* The §8.2 sequence, stage by stage; each stage includes the ones before it. */
enum refdrv_stage {
	REFDRV_QUEUE,       /* cmdq address written, initializing polled to 0 */
	REFDRV_ENABLED,     /* ENABLE_HCA */
	REFDRV_ISSI,        /* QUERY_ISSI, SET_ISSI(min(driver ISSI, device max)) */
	REFDRV_BOOT_PAGES,  /* QUERY_PAGES(boot), MANAGE_PAGES */
	REFDRV_CAPS,        /* QUERY_HCA_CAP (max and current), SET_HCA_CAP */
	REFDRV_INIT_PAGES,  /* QUERY_PAGES(init), MANAGE_PAGES */
	REFDRV_INITIALIZED, /* INIT_HCA, SET_DRIVER_VERSION when supported */
};
/* Stage names as vectors spell them ("queue" ... "initialized"); -1 if unknown. */
int refdrv_stage_find(const char *name);

/* Deliberate mistakes, one rule each, for tests that show the device reports them. */
enum {
	REFDRV_MISTAKE_MAILBOX_SIGNATURE = 1u << 0, /* T98: wrong input mailbox signature */
	REFDRV_MISTAKE_SKIP_SET_ISSI = 1u << 1,     /* §7.1: no SET_ISSI before INIT_HCA */
};

#define REFDRV_SW_ISSI 1 /* the ISSI of the PRM revision this driver implements (§7.1) */

#define REFDRV_BF_UARS 256u /* the UAR pages whose Blue Flame alternation is kept */

struct refdrv {
	struct refdrv_ops ops;
	uint64_t cmdq_addr;  /* 4 KB aligned command queue */
	uint64_t mbox_addr;  /* input chain here, output chain 1 MB above */
	uint64_t page_addr;  /* pages handed to the device: page_addr + 4 KB * k */
	unsigned mistakes;
	int reached; /* the last stage done; -1 before the first */
	/* learnt from the device */
	unsigned log_cmdq_stride;
	unsigned log_cmdq_size; /* a queue of 2^log_cmdq_size slots */
	uint16_t issi;
	bool check_out_sigs; /* HCA_CAP.cmdif_checksum != 0 (T145) */
	uint8_t caps_cur[0x1000], caps_max[0x1000]; /* general device capabilities */
	/* Which write of caps_cur/caps_max they hold (the bring-up's QUERY_HCA_CAP, refdrv_init's
	 * clearing): a count over every driver of the process, so equal values mean the same
	 * bytes (a saved copy of the driver, fuzzers/fuzz_snap.c, copies them only otherwise). */
	uint64_t caps_epoch;
	/* pages the device holds, in the order given */
	uint64_t *pages;
	uint32_t npages, pages_cap, next_page;
	uint8_t token;
	/* §7.2.2.1: "The two buffers in the BlueFlame register must be used alternately": per UAR
	 * page (by its number modulo REFDRV_BF_UARS), a bit per Blue Flame register, set when the
	 * register's next posting goes to its odd buffer. Every send doorbell on the register
	 * toggles it, whichever SQ or QP rings (driver_sq.c); ALLOC_UAR clears the page's. */
	uint8_t bf_odd[REFDRV_BF_UARS];
	/* the last command */
	unsigned last_delivery, last_status;
	uint32_t last_syndrome;
	char error[160]; /* why the last call failed */
};

/* 0, or -1 when memory is short. Addresses default to cmdq 0x10000, mailboxes 0x20000000,
 * pages 0x10000000 (those the vectors document). */
int refdrv_init(struct refdrv *d, const struct refdrv_ops *ops);
void refdrv_fini(struct refdrv *d);

/* Runs the §8.2 sequence from the stage after d->reached up to `to`. 0, or -1 with d->error
 * set. */
int refdrv_bring_up(struct refdrv *d, enum refdrv_stage to);
/* §8.3: TEARDOWN_HCA (graceful), reclaim every page, DISABLE_HCA. */
int refdrv_teardown(struct refdrv *d);

/* One command through slot 0: posts the entry and mailboxes (signed, fresh token), rings the
 * doorbell, polls ownership, checks delivery status and signatures, and copies out_len bytes of
 * output. While the command waits for ICM pages (D-PG-6) it answers the Page Request through
 * slot 1: the pages the device asks for, or ALLOCATION_FAIL when the device refuses them.
 * Returns the command status (T128), or -1 when the command did not complete or was not
 * delivered (d->error says why). */
int refdrv_cmd(struct refdrv *d, const void *in, uint32_t in_len, void *out, uint32_t out_len);

/* refdrv_cmd, and when the device refuses it with NO_RESOURCES for want of ICM pages
 * (D-PG-4): QUERY_PAGES regular, MANAGE_PAGES with what it asks, the command once more. */
int refdrv_cmd_paged(struct refdrv *d, const void *in, uint32_t in_len, void *out,
		     uint32_t out_len);

/* Field access by layout and field name (nicref layouts), as a driver author transcribes the
 * PRM tables: set returns 0, or -1 when there is no such field or the value does not fit;
 * get reads 0 for an unknown field. */
/* The field `field` of layout `layout`, or NULL; the layout of a name; a field of a layout; the
 * opcode of a T127 name (-1 if none): nicref_layout_find, nicref_layout_field and
 * nicref_opcode_find answered from a table filled on first use, for the names the driver asks
 * for on every command, WQE and CQE (harness/driver.c). */
const struct nicref_field *refdrv_field(const char *layout, const char *field);
const struct nicref_layout *refdrv_layout(const char *name);
const struct nicref_field *refdrv_layout_field(const struct nicref_layout *l, const char *field);
int refdrv_opcode(const char *name);
int refdrv_field_set(void *buf, size_t len, const char *layout, const char *field, uint64_t v);
uint64_t refdrv_field_get(const void *buf, size_t len, const char *layout, const char *field);
int refdrv_field_set_elem(void *buf, size_t len, const char *layout, const char *field,
			  uint32_t i, uint64_t v);

#endif

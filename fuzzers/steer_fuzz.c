/* Target: steer, flow steering (PRM §7.11, §12.14; docs/steer.md): a stateful stream of
 * flow-table commands and frames on a device the reference driver brought up with four
 * Direct TIRs (harness/driver_sq.h's stack for the PD, TD and CQ, four RQs), compared frame by
 * frame with the harness's own model of the tables (fuzzers/steer_model.h: commands mirrored
 * when the device completes them OK, a linear reference classifier).
 *
 * Input: ops, each an op byte and its operands (operands past the end read as 0):
 *   0x00-0x0A  the flow-table ops of steer_model.h (enum sm_op: CREATE_FT, DESTROY_FT,
 *              CREATE_FG, DESTROY_FG, SET_FTE, DELETE_FTE, ROOT, MODIFY_FT, ALLOC_FC,
 *              DEALLOC_FC, QUERY_FC), operands as listed there
 *   0x0B       FRAME: 16 selector bytes (sm_frame): a frame built from them, classified
 *              through NIC_RX or NIC_TX (the first selector's bit 7)
 *   0x0C-0xFF  reserved: the op byte alone, nothing happens
 * The op loop stops after 256 ops.
 *
 * Properties (a broken one prints "property NAME broken at FILE:LINE: STATE" and traps), on
 * top of the shared oracles (fuzz_oracle.c: nicref_dev_check after every op, the trace's
 * sequence, time and counters) and no transport violation:
 *  - CMD_COMPLETES: every command completes with a T128 status;
 *  - KEY_AGREES: the match key the model builds from a frame (steer_key_build over
 *    pkt_parse) is the one the harness wrote for the frame it built (T407-T416, D-FT-5);
 *  - VERDICT_AGREES: steer_classify's action, reason, TIR copies in order with their flow
 *    tags and overflow equal the reference classifier's over the model;
 *  - COUNTER_AGREES: QUERY_FLOW_COUNTER returns what the reference classifier counted, and
 *    so does every live counter at the end of the input.
 *
 * Between inputs the device comes back from a snapshot taken after the bring-up (fuzz_snap.h):
 * the flow objects the input made go with the restore, the model is cleared (sm_clear).
 * Without snapshots (NICREF_FUZZ_SNAPSHOT=0, or a DUT), the flow objects the input made are
 * destroyed in the model's order (sm_teardown: entries, groups, tables, counters); the PD, CQ,
 * RQs and TIRs stay. When that cannot empty the device (an explicit root cannot be destroyed,
 * D-FT-8), the next input starts from a full reset and bring-up. Handles are the lowest free
 * (D-OBJ-2), so either way an input meets the same numbers. */
#include <stdio.h>
#include <string.h>

#include "driver.h"
#include "driver_sq.h"
#include "driver_steer.h"
#include "driver_tir.h"
#include "driver_wq.h"
#include "cmd/ctl_dev.h"
#include "eth/pkt_parse.h"
#include "fuzz_dev.h"
#include "fuzz_oracle.h"
#include "fuzz_reader.h"
#include "fuzz_snap.h"
#include "fuzz_target.h"
#include "steer/steer.h"
#include "steer_model.h"

#define MAX_OPS 256u
#define OP_FRAME 0x0Bu
#define OP_FIRST_RESERVED 0x0Cu
#define RQ_MEM 0x50000000ull

_Static_assert(SM_KEY == STEER_KEY_LEN, "the model's key is the device's");
_Static_assert(SM_MAX_TIRS == STEER_MAX_TIRS, "the same copy limit (D-FT-20)");

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static struct refdrv drv;
static struct refdrv_sq_stack st;
static struct steer_model model;
static bool need_full = true;
static unsigned op_no;
static uint64_t full_count, light_count;

static const char *const op_names[OP_FIRST_RESERVED] = {
	"CREATE_FT", "DESTROY_FT", "CREATE_FG", "DESTROY_FG", "SET_FTE", "DELETE_FTE",
	"ROOT", "MODIFY_FT", "ALLOC_FC", "DEALLOC_FC", "QUERY_FC", "FRAME",
};

#define PROP NICREF_FUZZ_PROP

static void full_bring_up(void)
{
	NICREF_FUZZ_CHECK(fuzz_dev_sq_stack_up(dev, &oracle, &drv, NULL, &st) == 0);
	memset(&model, 0, sizeof model);
	for (unsigned i = 0; i < 4; i++) {
		struct refdrv_rq_attr ra = { .cqn = st.cq.cqn };
		ra.wq = (struct refdrv_wq_attr){ .buf = RQ_MEM + i * 0x10000ull,
						 .dbr = RQ_MEM + 0x8000 + i * 0x10000ull,
						 .wq_type = 1, .log_wq_sz = 4, .log_wq_stride = 6,
						 .pd = st.pd };
		uint32_t rqn;
		NICREF_FUZZ_CHECK(refdrv_create_rq(&drv, &ra, &rqn) == 0);
		struct refdrv_tir_attr ta = { .inline_rqn = rqn, .td = st.td };
		NICREF_FUZZ_CHECK(refdrv_create_tir(&drv, &ta, &model.tirs[i]) == 0);
	}
	NICREF_FUZZ_CHECK(oracle.violations == 0);
	full_count++;
}

static int steer_init(void)
{
	if (!(dev = fuzz_oracle_device(&oracle)))
		return -1;
	memset(&drv, 0, sizeof drv);
	return 0;
}

static void describe_verdicts(char *b, size_t n, const struct steer_verdict *dv,
			      const struct sm_verdict *mv)
{
	int k = snprintf(b, n, "device: action %u why %u copies %u [", dv->action, dv->why,
			 dv->ntirs);
	for (unsigned i = 0; i < dv->ntirs && i < 6 && k > 0 && (size_t)k < n; i++)
		k += snprintf(b + k, n - (size_t)k, " %u/0x%x", dv->tirn[i], dv->flow_tag[i]);
	if (k > 0 && (size_t)k < n)
		k += snprintf(b + k, n - (size_t)k, " ]; model: action %u why %u copies %u [",
			      mv->action, mv->why, mv->ntirs);
	for (unsigned i = 0; i < mv->ntirs && i < 6 && k > 0 && (size_t)k < n; i++)
		k += snprintf(b + k, n - (size_t)k, " %u/0x%x", mv->tirn[i], mv->tag[i]);
	if (k > 0 && (size_t)k < n)
		snprintf(b + k, n - (size_t)k, " ]");
}

static void op_frame(struct reader *r)
{
	uint8_t f[SM_FRAME_MAX], key[SM_KEY], dkey[STEER_KEY_LEN];
	unsigned type;
	size_t n = sm_frame(r, f, key, &type);
	struct pkt_info pi;
	pkt_parse(f, n, &pi);
	steer_key_build(f, n, &pi, dkey);
	for (unsigned i = 0; i < SM_KEY; i++)
		PROP(dkey[i] == key[i], "KEY_AGREES",
		     "op %u: byte 0x%02x of the match key: the model 0x%02x, the harness 0x%02x "
		     "(a %zu-byte frame, type %u)", op_no, i, dkey[i], key[i], n, type);
	struct steer_verdict dv;
	struct sm_verdict mv;
	uint64_t over = dev->flow.tir_overflow;
	steer_classify(dev, (enum steer_table_type)type, dkey, (uint32_t)n, &dv);
	sm_classify(&model, type, key, (uint32_t)n, &mv);
	bool same = dv.action == mv.action && dv.why == mv.why && dv.ntirs == mv.ntirs &&
		    dev->flow.tir_overflow - over == mv.overflow;
	for (unsigned i = 0; same && i < dv.ntirs; i++)
		same = dv.tirn[i] == mv.tirn[i] && dv.flow_tag[i] == mv.tag[i];
	char b[600];
	if (!same)
		describe_verdicts(b, sizeof b, &dv, &mv);
	PROP(same, "VERDICT_AGREES", "op %u, type %u: %s", op_no, type, b);
	fuzz_trace("frame %zu bytes type %u: action %u, %u copies", n, type, dv.action, dv.ntirs);
}

/* The device after full_bring_up (fuzz_snap.h), with the harness's side as it was then. */
static struct fuzz_snap snap;
static struct fuzz_snap_drv snap_drv;
static struct refdrv_sq_stack snap_st;

/* The device as full_bring_up leaves it: restored from the snapshot, or built (and captured);
 * without snapshots, as the last input's teardown left it. */
static void configure(void)
{
	if (fuzz_snap_enabled()) {
		if (fuzz_dev_snap_restore(&snap, &snap_drv, dev, &oracle, &drv)) {
			st = snap_st;
			sm_clear(&model);
			light_count++;
			return;
		}
		full_bring_up();
		if (fuzz_dev_snap_take(&snap, &snap_drv, dev, &oracle, &drv))
			snap_st = st;
		return;
	}
	if (need_full) {
		full_bring_up();
	} else {
		light_count++;
		fuzz_oracle_check_dev(&oracle);
	}
}

static void steer_one_input(const uint8_t *data, size_t len)
{
	configure();
	fuzz_dev_trace_bring_up(need_full, full_count, light_count);
	struct reader r = { data, len };
	uint8_t op;
	for (op_no = 0; op_no < MAX_OPS && rd_op(&r, OP_FIRST_RESERVED, op_names, &op);) {
		if (op == OP_FRAME) {
			op_frame(&r);
		} else {
			bool mismatch = false;
			int stt = sm_op(&model, &drv, op, &r, &mismatch);
			PROP(stt >= 0, "CMD_COMPLETES", "op %u (%s): %s", op_no, op_names[op], drv.error);
			PROP(!mismatch, "COUNTER_AGREES", "op %u: QUERY_FLOW_COUNTER differs from the "
			     "reference classifier's count", op_no);
			fuzz_trace("command status 0x%x", (unsigned)stt);
		}
		op_no++;
		fuzz_oracle_check_dev(&oracle);
		NICREF_FUZZ_CHECK(oracle.transport_violations == 0);
	}
	unsigned queried = sm_check_counters(&model, &drv, "COUNTER_AGREES");
	if (!fuzz_snap_enabled())
		need_full = sm_teardown(&model, &drv) != 0;
	/* Else the device is as the check after the last op saw it (fuzz_snap_check_start). */
	if (op_no == 0 || queried || !fuzz_snap_enabled())
		fuzz_oracle_check_dev(&oracle);
	fuzz_trace("input done after %u ops", op_no);
	fuzz_snap_rewind(&snap, dev, &oracle); /* what the input made goes within it */
}

NICREF_FUZZ_TARGET(steer_init, steer_one_input)

/* Trace and state properties every fuzz target checks (see fuzz_oracle.h). */
#include <string.h>

#include "fuzz_dev.h"
#include "fuzz_oracle.h"
#include "fuzz_target.h"

void fuzz_oracle_reset(struct fuzz_oracle *o)
{
	struct nicref_dev *dev = o->dev;
	memset(o, 0, sizeof *o);
	o->dev = dev;
}

/* PRM §7.14.1 T96: the delivery statuses, written out from the table of the PRM rather than
 * taken from the model, so the model's own table is checked too. */
static bool t96_delivery(uint64_t d)
{
	return d <= 0x9 || d == 0x10;
}

static void on_cmd_done(struct fuzz_oracle *o, const struct nicref_event *ev)
{
	uint64_t slot = ev->arg[0], opcode = ev->arg[1], op_mod = ev->arg[2];
	uint64_t delivery = ev->arg[3], status = ev->arg[4], syndrome = ev->arg[5];

	/* PRM T8: at most 2^5 entries; opcode and op_mod are 16-bit fields (T99/T100). */
	NICREF_FUZZ_CHECK(slot < 32 && opcode <= 0xFFFF && op_mod <= 0xFFFF);
	/* PRM §8.2: the doorbell is refused until initializing clears. */
	NICREF_FUZZ_CHECK(o->ready);
	NICREF_FUZZ_CHECK(t96_delivery(delivery));
	NICREF_FUZZ_CHECK(nicref_delivery_status_name((unsigned)delivery) != NULL);
	/* PRM §12.2 T128. */
	NICREF_FUZZ_CHECK(status <= 0xFF && nicref_cmd_status_name((unsigned)status) != NULL);
	/* A command that was not delivered never ran: there is no output and no status. The one
	 * exception is D-CMD-15: it ran, and delivery 0x6 says its output could not be written. */
	uint32_t bit = 1u << slot;
	bool pending = o->fail_pending & bit;
	bool ran_output_lost = delivery == NICREF_DELIVERY_INTERNAL && o->write_error;
	if (delivery != 0 && !ran_output_lost)
		NICREF_FUZZ_CHECK(status == 0 && !pending);
	o->write_error = false;
	/* Every refusal names its rule first (trace.h CMD_FAIL), and the completion reports
	 * that rule's status and syndrome (D-CMD-6); a success has no refusal. */
	if (pending) {
		NICREF_FUZZ_CHECK(o->fail_opcode[slot] == opcode);
		NICREF_FUZZ_CHECK(status == nicref_cmd_rule_status(o->fail_rule[slot]));
		NICREF_FUZZ_CHECK(syndrome == nicref_cmd_rule_syndrome(o->fail_rule[slot]));
	} else {
		NICREF_FUZZ_CHECK(status == 0);
	}
	o->last_rule = pending ? o->fail_rule[slot] : NICREF_RULE_NONE;
	o->fail_pending &= ~bit;
	/* D-PG-6: after a MANAGE_PAGES that ran the commands waiting for pages run again; each
	 * reports afresh (a new CMD_FAIL if still refused), so their earlier refusals are spent. */
	if (opcode == NICREF_OP_MANAGE_PAGES && (delivery == 0 || ran_output_lost))
		for (unsigned s = 0; s < 32; s++)
			if ((o->fail_pending >> s & 1) && o->fail_rule[s] == NICREF_RULE_ICM_PAGES_SHORT)
				o->fail_pending &= ~(1u << s);
	o->cmd_done++;
	o->last_done = *ev;
}

void fuzz_oracle_event(void *ctx, const struct nicref_event *ev)
{
	struct fuzz_oracle *o = ctx;

	NICREF_FUZZ_CHECK((unsigned)ev->kind < NICREF_EV_COUNT);
	if (fuzz_tracing()) {
		char line[256];
		(void)nicref_event_format(ev, line, sizeof line);
		fuzz_trace("event %s", line);
	}
	/* trace.h: seq is the position in the stream since create or reset, from 0. */
	NICREF_FUZZ_CHECK(ev->seq == o->next_seq);
	o->next_seq++;
	o->events++;
	/* Time never goes backwards, and no event is stamped in the future. */
	NICREF_FUZZ_CHECK(ev->time_ns >= o->last_time_ns);
	NICREF_FUZZ_CHECK(!o->dev || ev->time_ns <= nicref_clock_now(o->dev));
	o->last_time_ns = ev->time_ns;
	/* Arguments past the kind's count stay zero (the text form would drop them). */
	for (unsigned i = nicref_event_nargs(ev->kind); i < NICREF_EVENT_MAX_ARGS; i++)
		NICREF_FUZZ_CHECK(ev->arg[i] == 0);

	switch (ev->kind) {
	case NICREF_EV_CMD_DONE:
		on_cmd_done(o, ev);
		break;
	case NICREF_EV_CMD_FAIL:
		NICREF_FUZZ_CHECK(ev->arg[0] < 32 && !(o->fail_pending >> ev->arg[0] & 1));
		NICREF_FUZZ_CHECK(ev->arg[1] <= 0xFFFF);
		NICREF_FUZZ_CHECK(ev->arg[2] != NICREF_RULE_NONE && ev->arg[2] < NICREF_RULE_COUNT);
		o->fail_pending |= 1u << ev->arg[0];
		o->fail_opcode[ev->arg[0]] = (uint16_t)ev->arg[1];
		o->fail_rule[ev->arg[0]] = (uint16_t)ev->arg[2];
		break;
	case NICREF_EV_VIOLATION:
		NICREF_FUZZ_CHECK(ev->arg[0] < NICREF_VIO_COUNT);
		o->violations++;
		o->vio_by_rule[ev->arg[0]]++;
		o->transport_violations += fuzz_oracle_transport_violation((unsigned)ev->arg[0]);
		break;
	case NICREF_EV_READY:
		/* PRM §8.2: initializing clears once; only a reset sets it again. */
		NICREF_FUZZ_CHECK(!o->ready);
		o->ready = true;
		break;
	case NICREF_EV_DMA_ERROR:
		NICREF_FUZZ_CHECK(ev->arg[2] <= 1);
		o->write_error |= ev->arg[2] == 1;
		break;
	case NICREF_EV_UNMODELLED:
		NICREF_FUZZ_CHECK(nicref_opcode_name((unsigned)ev->arg[1]) != NULL &&
				  !nicref_opcode_modelled((unsigned)ev->arg[1]));
		break;
	default:
		break;
	}
}

void fuzz_oracle_check_dev_at(const struct fuzz_oracle *o, const char *file, int line)
{
	struct nicref_stats st;

	fuzz_check_invariants(o->dev, file, line);
	nicref_stats_get(o->dev, &st);
	NICREF_FUZZ_CHECK(st.events == o->events);
	NICREF_FUZZ_CHECK(st.commands == o->cmd_done);
	NICREF_FUZZ_CHECK(st.violations == o->violations);
	/* Between steps no command is half done, but one waiting for pages (D-PG-6). */
	for (unsigned s = 0; s < 32; s++)
		NICREF_FUZZ_CHECK(!(o->fail_pending >> s & 1) ||
				  o->fail_rule[s] == NICREF_RULE_ICM_PAGES_SHORT);
	/* PRM T8 1FCh[31] reads as the model says it changed (reading it has no side effect). */
	NICREF_FUZZ_CHECK(((nicref_bar_read32(o->dev, 0x1FC) >> 31) == 0) == o->ready);
}

void fuzz_oracle_check_hca(const struct fuzz_oracle *o, enum nicref_hca_state state,
			   uint32_t max_live)
{
	struct nicref_hca_info info;
	nicref_hca_info(o->dev, &info);
	NICREF_FUZZ_CHECK(info.state == state);
	const uint32_t counts[] = { info.pds,  info.uars, info.tds,  info.mkeys,
				    info.eqs,  info.cqs,  info.tiss, info.sqs,
				    info.rmps, info.rqs,  info.rqts, info.tirs };
	for (unsigned t = 0; t < sizeof counts / sizeof counts[0]; t++)
		NICREF_FUZZ_CHECK(counts[t] <= max_live);
}

bool fuzz_oracle_transport_violation(unsigned rule)
{
	switch ((enum nicref_violation)rule) {
	/* Init segment and doorbell (PRM §4.3 T7/T8, §8.2). Writing the queue address while the
	 * HCA is enabled is one of them: the queue is the transport, whatever ran on it. */
	case NICREF_VIO_BAR_UNALIGNED:
	case NICREF_VIO_BAR_RO_WRITE:
	case NICREF_VIO_BAR_RESERVED_WRITE:
	case NICREF_VIO_CMDQ_RO_FIELDS_NOT_ZERO:
	case NICREF_VIO_NIC_INTERFACE_UNSUPPORTED:
	case NICREF_VIO_CMDQ_ADDR_LSW_BEFORE_MSW:
	case NICREF_VIO_DB_WHILE_INITIALIZING:
	case NICREF_VIO_DB_NO_CMDQ:
	case NICREF_VIO_DB_NIC_DISABLED:
	case NICREF_VIO_DB_BIT_OUT_OF_RANGE:
	case NICREF_VIO_DB_NOT_OWNED:
	case NICREF_VIO_DB_SLOT_BUSY:
	case NICREF_VIO_CMDQ_ADDR_WHILE_ENABLED:
	/* The queue entry and the mailbox chains (PRM §7.14.1, T95-T98). */
	case NICREF_VIO_ENTRY_STATUS_NOT_ZERO:
	case NICREF_VIO_ENTRY_BAD_TYPE:
	case NICREF_VIO_ENTRY_SIGNATURE:
	case NICREF_VIO_ENTRY_RESERVED:
	case NICREF_VIO_INPUT_LENGTH_SHORT:
	case NICREF_VIO_OUTPUT_LENGTH_SHORT:
	case NICREF_VIO_INPUT_POINTER:
	case NICREF_VIO_OUTPUT_POINTER:
	case NICREF_VIO_MAILBOX_SIGNATURE:
	case NICREF_VIO_MAILBOX_CTRL_SIGNATURE:
	case NICREF_VIO_MAILBOX_TOKEN:
	case NICREF_VIO_MAILBOX_BLOCK_NUMBER:
	case NICREF_VIO_MAILBOX_RESERVED:
	case NICREF_VIO_MAILBOX_NEXT_NOT_ZERO:
		return true;
	/* Command content (PRM §12.2 T128, §7.1, §8.2-§8.3, §12.3): rules a command's bytes or
	 * the order of commands break, which a fuzzed command is free to break. */
	case NICREF_VIO_CMD_RESERVED_NOT_ZERO:
	case NICREF_VIO_ISSI_NOT_SET:
	case NICREF_VIO_SET_HCA_CAP_AFTER_INIT_PAGES:
	case NICREF_VIO_PAGES_NOT_RECLAIMED:
	case NICREF_VIO_DRIVER_VERSION_FORMAT:
	/* Every control-plane violation (nicref/rules_ctrl.h) is about content. */
#define CTRL_CONTENT(id, cite, what) case NICREF_VIO_##id:
	NICREF_VIOLATIONS_CTRL(CTRL_CONTENT)
#undef CTRL_CONTENT
		return false;
	case NICREF_VIO_COUNT:
		break;
	}
	return true; /* not a violation of trace.h: treated as the worst case */
}

struct nicref_dev *fuzz_oracle_device(struct fuzz_oracle *o)
{
	struct nicref_config cfg;
	fuzz_dev_config(&cfg, o);
	return fuzz_dev_create(&cfg, o);
}

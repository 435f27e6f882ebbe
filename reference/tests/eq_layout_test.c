/* The event queue entries as the PRM prints them (prm/layouts_eqe.h): the EQE (§7.13.2.2
 * T77/T78), the event data of each event type (T80-T92) in its standalone and whole-EQE forms,
 * and the table of event types (T79, T88, D-EV-1) the device raises events from (obj/eq.h,
 * obj/eq_types.c). The coordinates and codes below are read off the PRM tables by hand. */
#include <string.h>

#include "cmd/ctl_dev.h"
#include "testlib.h"

#define NROWS(r) (sizeof(r) / sizeof(r)[0])

Test(eq_layout, eqe_t77_t78)
{
	static const struct tl_row rows[] = {
		{ "event_type", 0x00, 23, 16 },
		{ "event_sub_type", 0x00, 7, 0 },
		{ "signature", 0x3C, 15, 8 },
		{ "owner", 0x3C, 0, 0 },
		{ "event_data", 0x20, 31, 0 }, /* T78 20h-38h, 224 bits (the T77 grid says 04h) */
	};
	tl_expect_layout("eqe", 0x40, rows, NROWS(rows));
	cr_expect_eq(tl_field("eqe", "event_data")->bit_width, 224u);
}

/* One event data format: its field at `off` (relative to event_data, as T80-T92 print it),
 * the same field at 20h + off in the whole EQE, and the header of T77/T78 around it. */
struct data_row {
	const char *data, *eqe, *field;
	unsigned off, msb, lsb;
};

static const struct data_row data_rows[] = {
	{ "eqe_data_completion", "eqe_completion", "cq_number", 0x18, 23, 0 },      /* T81 */
	{ "eqe_data_wq", "eqe_wq", "type", 0x14, 31, 24 },                          /* T83 */
	{ "eqe_data_wq", "eqe_wq", "rqn_sqn", 0x18, 23, 0 },                        /* T83 */
	{ "eqe_data_cq_error", "eqe_cq_error", "cqn", 0x00, 23, 0 },                /* T85 */
	{ "eqe_data_cq_error", "eqe_cq_error", "syndrome", 0x08, 7, 0 },            /* T85 */
	{ "eqe_data_port_state", "eqe_port_state", "port_num", 0x08, 31, 28 },      /* T87 */
	{ "eqe_data_cmd", "eqe_cmd", "command_completion_vector", 0x00, 31, 0 },    /* T90 */
	{ "eqe_data_page_request", "eqe_page_request", "num_pages", 0x04, 31, 0 }, /* T92 */
};

Test(eq_layout, event_data_t80_to_t92)
{
	for (size_t i = 0; i < NROWS(data_rows); i++) {
		const struct data_row *r = &data_rows[i];
		cr_expect_eq(nicref_layout_find(r->data)->size, 0x1Cu, "%s: 28 bytes", r->data);
		tl_pin(r->data, r->field, r->off, r->msb, r->lsb);
		tl_pin(r->eqe, r->field, 0x20 + r->off, r->msb, r->lsb);
		tl_pin(r->eqe, "event_type", 0x00, 23, 16);
		tl_pin(r->eqe, "event_sub_type", 0x00, 7, 0);
		tl_pin(r->eqe, "signature", 0x3C, 15, 8);
		tl_pin(r->eqe, "owner", 0x3C, 0, 0);
		cr_expect_eq(nicref_layout_find(r->eqe)->size, 0x40u, "%s: 64 B, §7.13.1", r->eqe);
	}
	/* Each whole-EQE form is the header and its data's fields, nothing else. */
	static const struct {
		const char *eqe;
		uint32_t fields;
	} n[] = { { "eqe_completion", 5 }, { "eqe_wq", 6 },  { "eqe_cq_error", 6 },
		  { "eqe_port_state", 5 }, { "eqe_cmd", 5 }, { "eqe_page_request", 5 } };
	for (size_t i = 0; i < NROWS(n); i++)
		cr_expect_eq(nicref_layout_find(n[i].eqe)->nfields, n[i].fields, "%s", n[i].eqe);
}

/* T79 (type), T78 (sub-type "zero elsewhere"), T88 with D-REG-23 (0x1 down, 0x4 active, 0x5
 * initialized), D-EV-1 (0x05, 0x12, 0x14), and the format each one's EQE has. */
static const struct {
	enum eq_event ev;
	uint8_t type, sub_type;
	const char *name, *layout;
} t79[] = {
	{ EQ_EVENT_COMPLETION, 0x00, 0x0, "Completion_Events", "eqe_completion" },
	{ EQ_EVENT_CQ_ERROR, 0x04, 0x0, "CQ_Error", "eqe_cq_error" },
	{ EQ_EVENT_RQ_CATASTROPHIC, 0x05, 0x0, "RQ_Catastrophic_Error", "eqe_wq" },
	{ EQ_EVENT_INTERNAL_ERROR, 0x08, 0x0, "Internal_Error", "eqe" },
	{ EQ_EVENT_PORT_DOWN, 0x09, 0x1, "Port_State_Change", "eqe_port_state" },
	{ EQ_EVENT_PORT_ACTIVE, 0x09, 0x4, "Port_State_Change", "eqe_port_state" },
	{ EQ_EVENT_PORT_INITIALIZED, 0x09, 0x5, "Port_State_Change", "eqe_port_state" },
	{ EQ_EVENT_CMD_COMPLETION, 0x0A, 0x0, "Command_Interface_Completion", "eqe_cmd" },
	{ EQ_EVENT_PAGE_REQUEST, 0x0B, 0x0, "Page_Request", "eqe_page_request" },
	{ EQ_EVENT_RMP_CATASTROPHIC, 0x12, 0x0, "RMP_Catastrophic_Error", "eqe_wq" },
	{ EQ_EVENT_LAST_WQE_REACHED, 0x13, 0x0, "Last_WQE_Reached", "eqe_wq" },
	{ EQ_EVENT_RMP_LIMIT, 0x14, 0x0, "RMP_Limit", "eqe_wq" },
	{ EQ_EVENT_TEMP_WARNING, 0x17, 0x0, "Temp_Warning_Event", "eqe" },
};

Test(eq_layout, event_types_t79)
{
	cr_assert_eq(EQ_EVENT_COUNT, NROWS(t79), "one row per event");
	for (size_t i = 0; i < NROWS(t79); i++) {
		const struct eq_event_desc *d = eq_event_desc(t79[i].ev);
		cr_expect_eq(d->type, t79[i].type, "%s type", t79[i].name);
		cr_expect_eq(d->sub_type, t79[i].sub_type, "%s sub_type", t79[i].name);
		cr_expect_str_eq(d->name, t79[i].name);
		cr_expect_eq(d->layout, nicref_layout_find(t79[i].layout), "%s: EQE written as %s",
			     t79[i].name, t79[i].layout);
		cr_expect(d->clause && strncmp(d->clause, "PRM §", 5) == 0, "%s cites the PRM",
			  t79[i].name);
		/* T244: the event bitmask has a bit per type. */
		cr_expect_lt(d->type, EQ_EVENT_TYPES);
		for (size_t j = 0; j < i; j++)
			cr_expect(eq_event_desc(t79[j].ev)->type != d->type ||
					  eq_event_desc(t79[j].ev)->sub_type != d->sub_type,
				  "%s and %s share a code", t79[j].name, t79[i].name);
	}
	cr_expect_eq(EQ_TYPE_CMD_COMPLETION, 0x0A);
	cr_expect_eq(EQ_TYPE_COMPLETION, 0x00);
}

Test(eq_layout, events_carry_the_codes_of_their_row)
{
	/* A CQ error (T84/T85) on an EQ that takes type 04h: the EQE the device writes has the
	 * row's type and sub-type and reads back through the row's layout. */
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 1ull << 0x04, 0);
	struct refdrv_cq cq = tl_cq(t, 0, eq.eqn); /* one CQE: the second overruns (§7.12.1) */
	uint8_t c[64] = { 0 };
	cr_assert_eq(cq_post(t->dev, cq.cqn, c), 0);
	tl_mark(&t->tr);
	cr_assert_eq(cq_post(t->dev, cq.cqn, c), -1);
	const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_EQE, 0);
	cr_assert(ev);
	cr_expect_eq(ev->arg[2], 0x04);
	cr_expect_eq(ev->arg[3], 0x0);
	uint8_t e[64];
	tl_mem_read(t, eq.a.buf + 64 * ev->arg[1], e, sizeof e);
	uint64_t v;
	cr_assert_eq(nicref_field_get(e, 64, tl_field("eqe_cq_error", "event_type"), &v), 0);
	cr_expect_eq(v, 0x04);
	cr_assert_eq(nicref_field_get(e, 64, tl_field("eqe_cq_error", "cqn"), &v), 0);
	cr_expect_eq(v, cq.cqn);
	cr_assert_eq(nicref_field_get(e, 64, tl_field("eqe_cq_error", "syndrome"), &v), 0);
	cr_expect_eq(v, 0x1, "T85 CQ_overrun");
	tl_down(t);
}

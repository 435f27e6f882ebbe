/* The event types of PRM T79 as the device raises them: one descriptor per row of
 * PRM_EQE_EVENTS (prm/layouts_eqe.h), so that a type, its sub-type, its name, its clause and
 * the layout its EQE is written through are said once. */
#include "cmd/ctl_dev.h"

#define EQ_EVENT_ROW(id, type, sub, name, clause, layout)                                       \
	[EQ_EVENT_##id] = { (type), (sub), (name), (clause), &nicref_layout_##layout },
static const struct eq_event_desc events[EQ_EVENT_COUNT] = { PRM_EQE_EVENTS(EQ_EVENT_ROW) };

const struct eq_event_desc *eq_event_desc(enum eq_event ev)
{
	NICREF_ASSERT((unsigned)ev < EQ_EVENT_COUNT); /* the model names only rows of the table */
	return &events[ev];
}

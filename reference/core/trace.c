/* The canonical trace: event emission, names and the stable text form. */
#include <stdio.h>
#include <string.h>

#include "core/dev.h"

struct event_desc {
	const char *name;
	const char *args[NICREF_EVENT_MAX_ARGS + 1]; /* names, then a NULL pad */
	unsigned nargs;
};

#define NARGS(...) (sizeof((const char *[]){ __VA_ARGS__ }) / sizeof(const char *))
#define EVENT_ROW(id, name, ...)                                                                \
	[NICREF_EV_##id] = { name, { __VA_ARGS__ }, (unsigned)NARGS(__VA_ARGS__) },
/* "ready" has no arguments: NARGS of an empty list would not compile, so pad with NULL and
 * count only the non-NULL names. */
static const struct event_desc event_desc_raw[] = {
#define EVENT_ROW_ANY(id, ...) EVENT_ROW(id, __VA_ARGS__, NULL)
	NICREF_EVENT_KINDS(EVENT_ROW_ANY)
#undef EVENT_ROW_ANY
};

const char *nicref_event_name(enum nicref_event_kind kind)
{
	return (unsigned)kind < NICREF_EV_COUNT ? event_desc_raw[kind].name : "?";
}

unsigned nicref_event_nargs(enum nicref_event_kind kind)
{
	if ((unsigned)kind >= NICREF_EV_COUNT)
		return 0;
	/* The row counted the NULL pad and nothing else beyond the names. */
	return event_desc_raw[kind].nargs - 1;
}

const char *nicref_event_arg_name(enum nicref_event_kind kind, unsigned i)
{
	return i < nicref_event_nargs(kind) ? event_desc_raw[kind].args[i] : NULL;
}

int nicref_event_kind_find(const char *name)
{
	for (unsigned k = 0; k < NICREF_EV_COUNT; k++)
		if (strcmp(event_desc_raw[k].name, name) == 0)
			return (int)k;
	return -1;
}

int nicref_event_arg_find(enum nicref_event_kind kind, const char *name)
{
	for (unsigned i = 0; i < nicref_event_nargs(kind); i++)
		if (strcmp(event_desc_raw[kind].args[i], name) == 0)
			return (int)i;
	return -1;
}

struct violation_desc {
	const char *name, *cite, *text;
};
static const struct violation_desc violations[] = {
#define VIOLATION_ROW(id, cite, text) { #id, cite, text },
	NICREF_VIOLATIONS(VIOLATION_ROW)
#undef VIOLATION_ROW
};

const char *nicref_violation_name(unsigned rule)
{
	return rule < NICREF_VIO_COUNT ? violations[rule].name : NULL;
}

const char *nicref_violation_citation(unsigned rule)
{
	return rule < NICREF_VIO_COUNT ? violations[rule].cite : NULL;
}

const char *nicref_violation_text(unsigned rule)
{
	return rule < NICREF_VIO_COUNT ? violations[rule].text : NULL;
}

int nicref_violation_is_warning(unsigned rule)
{
	static const unsigned should[] = {
#define SHOULD_ROW(id) NICREF_VIO_##id,
		NICREF_VIOLATIONS_SHOULD(SHOULD_ROW)
#undef SHOULD_ROW
	};
	if (rule >= NICREF_VIO_COUNT)
		return -1;
	for (size_t i = 0; i < sizeof should / sizeof should[0]; i++)
		if (should[i] == rule)
			return 1;
	return 0;
}

int nicref_violation_find(const char *name)
{
	for (unsigned i = 0; i < NICREF_VIO_COUNT; i++)
		if (strcmp(violations[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Arguments that name a rule print as names, so a trace reads without a lookup table. */
static const char *rule_text(enum nicref_event_kind kind, unsigned i, uint64_t v)
{
	const char *arg = event_desc_raw[kind].args[i];
	if (strcmp(arg, "rule") != 0)
		return NULL;
	if (kind == NICREF_EV_VIOLATION)
		return nicref_violation_name((unsigned)v);
	if (kind == NICREF_EV_CMD_FAIL)
		return nicref_cmd_rule_name((unsigned)v);
	return NULL;
}

int nicref_event_format(const struct nicref_event *ev, char *buf, size_t len)
{
	size_t n = 0;
	int w = snprintf(buf, len, "%llu %s", (unsigned long long)ev->time_ns,
			 nicref_event_name(ev->kind));
	if (w < 0)
		return w;
	n = (size_t)w;
	for (unsigned i = 0; i < nicref_event_nargs(ev->kind); i++) {
		const char *name = event_desc_raw[ev->kind].args[i];
		const char *text = rule_text(ev->kind, i, ev->arg[i]);
		char *at = n < len ? buf + n : NULL;
		size_t room = n < len ? len - n : 0;
		if (text)
			w = snprintf(at, room, " %s=%s", name, text);
		else
			w = snprintf(at, room, " %s=0x%llx", name, (unsigned long long)ev->arg[i]);
		if (w < 0)
			return w;
		n += (size_t)w;
	}
	return (int)n;
}

void dev_emit(struct nicref_dev *dev, enum nicref_event_kind kind, const uint64_t *args,
	      unsigned nargs)
{
	struct dev_core *c = dev_core(dev);
	if (c->quiet)
		return;
	/* the row's count read here, not through nicref_event_nargs: an exported function the
	 * compilers do not inline (an event a received frame) */
	NICREF_ASSERT((unsigned)kind < NICREF_EV_COUNT && nargs == event_desc_raw[kind].nargs - 1);
	uint64_t seq = c->trace_seq++;
	c->stats.events++;
	/* A muted kind keeps its place (seq, the count) and is not built. */
	if (!c->cfg.trace || (c->trace_muted >> kind & 1u))
		return;
	struct nicref_event ev;
	memset(&ev, 0, sizeof ev);
	ev.seq = seq;
	ev.time_ns = c->now_ns;
	ev.kind = kind;
	if (nargs) /* dev_emit0 passes no array */
		memcpy(ev.arg, args, nargs * sizeof *args);
	c->cfg.trace(c->cfg.trace_ctx, &ev);
}

_Static_assert(NICREF_EV_COUNT <= 64, "nicref_trace_mute has a bit per event kind");

void nicref_trace_mute(struct nicref_dev *dev, uint64_t kinds)
{
	dev_core(dev)->trace_muted = kinds;
}

void dev_emit0(struct nicref_dev *dev, enum nicref_event_kind kind)
{
	dev_emit(dev, kind, NULL, 0);
}

void dev_emit2(struct nicref_dev *dev, enum nicref_event_kind kind, uint64_t a, uint64_t b)
{
	const uint64_t args[] = { a, b };
	dev_emit(dev, kind, args, 2);
}


void dev_violation(struct nicref_dev *dev, enum nicref_violation rule, uint64_t arg)
{
	dev_core(dev)->stats.violations++;
	dev_emit2(dev, NICREF_EV_VIOLATION, (uint64_t)rule, arg);
}

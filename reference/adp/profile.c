/* ADP profile validation (seed 000 profile and range layouts, seed 001 notes) and the options
 * that select the other readings of the seeds (docs/decisions.md D-ADP-*). A profile that
 * passes keeps every time value the engine can form below 2^63 ns, so the engine's arithmetic
 * cannot overflow (D-ADP-7). */
#include "adp/adp_int.h"

struct rule_text {
	const char *name, *citation;
};

static const struct rule_text rules[NICREF_ADP_RULE_COUNT] = {
	[NICREF_ADP_OK] = { "OK", "" },
	[NICREF_ADP_BAD_PROFILE_ID] = { "BAD_PROFILE_ID", "seed 000 L47-51, L75-77; seed 001 L66" },
	[NICREF_ADP_BAD_TIME_UNIT] = { "BAD_TIME_UNIT", "seed 000 L139-147" },
	[NICREF_ADP_TIME_BASE_NOT_POW2] = { "TIME_BASE_NOT_POW2", "seed 001 L27" },
	[NICREF_ADP_TIME_BASE_BELOW_MIN] = { "TIME_BASE_BELOW_MIN", "seed 001 L27; seed 000 L83-85" },
	[NICREF_ADP_BAD_RANGE_NUM] = { "BAD_RANGE_NUM", "seed 000 L67-69, L129-131, L181-185" },
	[NICREF_ADP_BAD_START_RANGE] = { "BAD_START_RANGE", "seed 000 L135-137, L185" },
	[NICREF_ADP_RANGES_NOT_SORTED] = { "RANGES_NOT_SORTED", "seed 001 L41" },
	[NICREF_ADP_BAD_PREV_RANGE] = { "BAD_PREV_RANGE", "seed 001 L61; seed 000 L205-207" },
	[NICREF_ADP_BAD_DEC_MODE] = { "BAD_DEC_MODE", "seed 000 L211-221" },
	[NICREF_ADP_BAD_RETRY_NUM] = { "BAD_RETRY_NUM", "seed 000 L225-227; seed 001 L29" },
	[NICREF_ADP_OVERFLOW] = { "OVERFLOW", "seed 000 L161, L169-175, L233-239" },
};

const char *nicref_adp_rule_name(enum nicref_adp_rule r)
{
	return (unsigned)r < NICREF_ADP_RULE_COUNT ? rules[r].name : NULL;
}

const char *nicref_adp_rule_citation(enum nicref_adp_rule r)
{
	return (unsigned)r < NICREF_ADP_RULE_COUNT ? rules[r].citation : NULL;
}

bool nicref_adp_options_ok(const struct nicref_adp_options *o)
{
	return o->first_timeout <= NICREF_ADP_FIRST_ESCALATE &&
	       o->dec_reading <= NICREF_ADP_DEC_BY_FACTOR &&
	       o->init_range <= NICREF_ADP_INIT_INCLUSIVE &&
	       o->dec_trigger <= NICREF_ADP_DEC_CLEAN_PROGRESS &&
	       o->retry_uses <= NICREF_ADP_USES_RETRANSMISSIONS;
}

uint64_t adp_base_ns(const struct nicref_adp_profile *p)
{
	/* seed 000 L145/L153: time_base in time_unit, 0x1 = microseconds (the only unit). */
	return (uint64_t)p->time_base * 1000u;
}

uint64_t nicref_adp_value_ns(const struct nicref_adp_profile *p, unsigned e)
{
	/* seed 000 L161/L169/L233 "base_time << x"; seed 001 L9 "time_base * (2 ^ granularity)". */
	uint64_t base = adp_base_ns(p);
	if (base == 0)
		return 0;
	if (e >= 64 || base > (UINT64_MAX >> e))
		return UINT64_MAX;
	return base << e;
}

/* D-ADP-7: base << e must stay below 2^63 ns (292 years), so sums and doublings of time
 * values fit in 64 bits. */
static bool fits(const struct nicref_adp_profile *p, unsigned e)
{
	return nicref_adp_value_ns(p, e) < (UINT64_C(1) << 63);
}

enum nicref_adp_rule nicref_adp_profile_check(const struct nicref_adp_profile *p,
					      uint32_t base_timeout_min_ns, unsigned max_range_num)
{
	/* seed 000 L143-147: "0x1: TIME_USEC - microseconds. Other values are reserved". */
	if (p->time_unit != 1)
		return NICREF_ADP_BAD_TIME_UNIT;
	/* seed 001 L27: "time_base must be a power of 2" (0 is not). */
	if (p->time_base == 0 || (p->time_base & (p->time_base - 1)) != 0)
		return NICREF_ADP_TIME_BASE_NOT_POW2;
	/* seed 001 L27 "with the minimum allowed value per firmware capability (4 us)", the
	 * capability being adp_retx_base_timeout_min in ns (seed 000 L83-85). */
	if (adp_base_ns(p) < base_timeout_min_ns)
		return NICREF_ADP_TIME_BASE_BELOW_MIN;
	/* seed 000 L67-69 (the capability), L181 (4 entries), L129-131 (range_num valid
	 * entries); at least one, since the first timeout may start in start_range_index
	 * (seed 001 L17) (D-ADP-19). */
	unsigned max = max_range_num < NICREF_ADP_MAX_RANGES ? max_range_num : NICREF_ADP_MAX_RANGES;
	if (p->range_num == 0 || p->range_num > max)
		return NICREF_ADP_BAD_RANGE_NUM;
	/* seed 000 L137 "Index of timeout_range used as the first range", L185 "First range_num
	 * entries are valid". */
	if (p->start_range_index >= p->range_num)
		return NICREF_ADP_BAD_START_RANGE;
	const struct nicref_adp_range *r = p->range;
	/* seed 001 L41: range_low_bound[i] < range_low_bound[j] for i < j. Entries at and
	 * beyond range_num are not valid (seed 000 L185) and not checked. */
	for (unsigned i = 1; i < p->range_num; i++)
		if (r[i].range_low_bound <= r[i - 1].range_low_bound)
			return NICREF_ADP_RANGES_NOT_SORTED;
	/* seed 001 L61 "prev_range_index must always be less than current_range"; range 0 has
	 * no range below it, so its prev_range_index must be 0 and means "none" (D-ADP-5). */
	for (unsigned i = 0; i < p->range_num; i++)
		if (i == 0 ? r[i].prev_range_index != 0 : r[i].prev_range_index >= i)
			return NICREF_ADP_BAD_PREV_RANGE;
	/* seed 000 L215-221: 0 TO_DIV_4, 1 TO_DIV_2, 2 TO_LOW_BOUND, "Other values are reserved". */
	for (unsigned i = 0; i < p->range_num; i++)
		if (r[i].dec_mode > ADP_DEC_TO_LOW_BOUND)
			return NICREF_ADP_BAD_DEC_MODE;
	/* seed 000 L227 / seed 001 L29: the value is used timeout_retry_num times; 0 uses would
	 * leave a value that is never armed (D-ADP-6). */
	for (unsigned i = 0; i < p->range_num; i++)
		if (r[i].timeout_retry_num == 0)
			return NICREF_ADP_BAD_RETRY_NUM;
	/* D-ADP-7: every exponent the engine forms. Range tops (seed 000 L239), the top of the
	 * initial randomisation under both readings (seed 000 L175 is the larger), and the
	 * total timeout when it is used (seed 000 L161-163). */
	for (unsigned i = 0; i < p->range_num; i++)
		if (!fits(p, (unsigned)r[i].range_low_bound + r[i].range_size))
			return NICREF_ADP_OVERFLOW;
	if (!fits(p, (unsigned)p->timeout_init_low_bound + p->timeout_init_range_size))
		return NICREF_ADP_OVERFLOW;
	if (!p->qp_total_timeout && !fits(p, p->retx_total_timeout))
		return NICREF_ADP_OVERFLOW;
	return NICREF_ADP_OK;
}

/* The names and citations of the layer's errors and rules, and its parameters (one table each:
 * NICREF_PCIE_ERRORS and NICREF_PCIE_RULES of nicref/pcie.h). */
#include "pcie/pcie_int.h"

static const struct {
	const char *name, *cite;
} errors[] = {
#define ROW(id, name, cite) { name, cite },
	NICREF_PCIE_ERRORS(ROW)
#undef ROW
};

static const struct {
	const char *name, *cite;
} rules[] = {
#define ROW(id, name, cite) { name, cite },
	NICREF_PCIE_RULES(ROW)
#undef ROW
};

const char *nicref_pcie_error_name(unsigned e)
{
	return e < NICREF_PCIE_ERR_COUNT ? errors[e].name : NULL;
}

const char *nicref_pcie_error_citation(unsigned e)
{
	return e < NICREF_PCIE_ERR_COUNT ? errors[e].cite : NULL;
}

const char *nicref_pcie_rule_name(unsigned r)
{
	return r < NICREF_PCIE_RULE_COUNT ? rules[r].name : NULL;
}

const char *nicref_pcie_rule_citation(unsigned r)
{
	return r < NICREF_PCIE_RULE_COUNT ? rules[r].cite : NULL;
}

void nicref_pcie_params_default(struct nicref_pcie_params *p)
{
	*p = (struct nicref_pcie_params){
		.ack_latency_limit = 1000, /* D-DLL-8: Tables 3-7..3-9 are absent (L278) */
		.replay_limit = 24000,     /* D-DLL-3: the low end of L125's 24000-31000 */
		.replay_limit_es1 = 80000, /* and of L126's 80000-100000 */
		.extended_synch = 0,
		.priority = NICREF_PCIE_PRIO_RECOMMENDED,
	};
}

int nicref_pcie_params_check(const struct nicref_pcie_params *p)
{
	/* A limit of 0 would expire again at the instant the replay restarts it. */
	if (!p || p->replay_limit == 0 || p->replay_limit_es1 == 0 || p->extended_synch > 1 ||
	    p->priority >= NICREF_PCIE_PRIO_COUNT)
		return -1;
	return 0;
}

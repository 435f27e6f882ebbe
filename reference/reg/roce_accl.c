/* ROCE_ACCL (seed 000 "ROCE_ACCL Layout and Relevant Field Description"): adaptive
 * retransmission enable and profile, reached through ACCESS_REGISTER under nicref's register
 * id (reg/reg.h; the seeds give none). The register has no local_port: it is per function,
 * and a selected profile "applies to all QPs of the PF and its associated VFs" (seed 001 L64).
 * Every QP takes the mode (nicref_adp_dev_mode) when it enters ready-to-send (D-ADP-2). The
 * engine is reference/adp/; the decisions are D-ADP-* in docs/decisions.md. */
#include <string.h>

#include "adp/adp_int.h"
#include "cmd/ctl_dev.h"
#include "reg/reg.h"

#define PROFILE_OFF 0x10 /* seed 000 L89-97: adp_retx_profile at 10h-3Fh */

/* The ROCE_ACCL capabilities of the profile (seed 000 L63-87): 1-4 ranges (4 timeout_range[]
 * entries), a profile id 1-7 (3 bits), a 20-bit minimum; the ADP options name their readings. */
static int roce_accl_profile_ok(const struct nicref_profile *p)
{
	return p->adp_max_range_num != 0 && p->adp_max_range_num <= NICREF_ADP_MAX_RANGES &&
	       p->adp_max_profile_id != 0 && p->adp_max_profile_id <= 7 &&
	       p->adp_base_timeout_min_ns <= 0xFFFFFu && nicref_adp_options_ok(&p->adp);
}

/* Power-on (firmware reset) state: ADP off, no profile selected, counters 0. The only way back
 * to firmware-defined timeouts once a profile is selected (seed 001 L66). */
static void roce_accl_reset(struct nicref_dev *dev, void *state)
{
	(void)state;
	memset(&dev->roce_accl, 0, sizeof dev->roce_accl);
}

/* One command rule per profile rule, so the syndrome names the exact rule (D-CMD-6). */
static const enum nicref_cmd_rule profile_rule[NICREF_ADP_RULE_COUNT] = {
	[NICREF_ADP_OK] = NICREF_RULE_NONE,
	[NICREF_ADP_BAD_PROFILE_ID] = NICREF_RULE_ROCE_ACCL_PROFILE_ID_ABOVE_MAX,
	[NICREF_ADP_BAD_TIME_UNIT] = NICREF_RULE_ROCE_ACCL_ADP_TIME_UNIT,
	[NICREF_ADP_TIME_BASE_NOT_POW2] = NICREF_RULE_ROCE_ACCL_ADP_TIME_BASE_NOT_POW2,
	[NICREF_ADP_TIME_BASE_BELOW_MIN] = NICREF_RULE_ROCE_ACCL_ADP_TIME_BASE_BELOW_MIN,
	[NICREF_ADP_BAD_RANGE_NUM] = NICREF_RULE_ROCE_ACCL_ADP_RANGE_NUM,
	[NICREF_ADP_BAD_START_RANGE] = NICREF_RULE_ROCE_ACCL_ADP_START_RANGE,
	[NICREF_ADP_RANGES_NOT_SORTED] = NICREF_RULE_ROCE_ACCL_ADP_RANGES_NOT_SORTED,
	[NICREF_ADP_BAD_PREV_RANGE] = NICREF_RULE_ROCE_ACCL_ADP_PREV_RANGE,
	[NICREF_ADP_BAD_DEC_MODE] = NICREF_RULE_ROCE_ACCL_ADP_DEC_MODE,
	[NICREF_ADP_BAD_RETRY_NUM] = NICREF_RULE_ROCE_ACCL_ADP_RETRY_NUM,
	[NICREF_ADP_OVERFLOW] = NICREF_RULE_ROCE_ACCL_ADP_OVERFLOW,
};

/* Query (D-ADP-8): the select bits read 1 (seed 000 L25 "supported and valid", L35
 * "configurable"); adp_retx_profile_id and adp_retx_profile are the selected profile (0 and
 * zeros when none: seed 001 L68-72 reads the mode from this field), whatever id the input
 * names; the read-only capabilities come from the device profile (seed 000 L63-87). */
enum nicref_cmd_rule reg_roce_accl_query(struct reg_ctx *r)
{
	const struct nicref_dev *dev = r->c->dev;
	const struct roce_accl *s = &dev->roce_accl;
	const struct nicref_profile *prof = &dev->core.cfg.profile;
	REG_OUT(roce_accl, adp_retx_profile_select, r, 1);
	REG_OUT(roce_accl, roce_adp_retrans_field_select, r, 1);
	REG_OUT(roce_accl, adp_retx_profile_id, r, s->active_profile_id);
	REG_OUT(roce_accl, roce_adp_retrans_en, r, s->adp_retrans_en);
	REG_OUT(roce_accl, adp_retx_profile_max_range_num, r, prof->adp_max_range_num);
	REG_OUT(roce_accl, adp_retx_profile_max_id, r, prof->adp_max_profile_id);
	REG_OUT(roce_accl, adp_retx_base_timeout_min, r, prof->adp_base_timeout_min_ns);
	if (s->active_profile_id != 0)
		(void)nicref_adp_profile_encode(&s->profile, r->out + PROFILE_OFF,
						r->out_len - PROFILE_OFF);
	return NICREF_RULE_NONE;
}

/* Set: every check first, then both changes, so a refused write changes nothing. The
 * read-only capabilities are ignored (as D-REG-14). */
enum nicref_cmd_rule reg_roce_accl_write(struct reg_ctx *r)
{
	struct nicref_dev *dev = r->c->dev;
	struct roce_accl *s = &dev->roce_accl;
	const struct nicref_profile *prof = &dev->core.cfg.profile;
	/* seed 000 L27: "In set, indicates that the profile indicated adp_retx_profile_id is
	 * modified with the parameters in adp_retx_profile". */
	bool set_profile = REG_IN(roce_accl, adp_retx_profile_select, r) != 0;
	/* seed 000 L37, L59: roce_adp_retrans_en is "Valid only when
	 * roce_adp_retrans_field_select == 1". */
	bool set_en = REG_IN(roce_accl, roce_adp_retrans_field_select, r) != 0;
	unsigned id = (unsigned)REG_IN(roce_accl, adp_retx_profile_id, r);
	struct nicref_adp_profile p;
	memset(&p, 0, sizeof p);
	if (set_profile) {
		/* seed 000 L47 "Value 0 is reserved"; seed 001 L66 "Reverting to firmware-defined
		 * timeouts requires a fwreset", and L70 id 0 is that mode (D-ADP-1). */
		if (id == 0)
			return NICREF_RULE_ROCE_ACCL_PROFILE_ID_ZERO;
		/* seed 000 L49: "Must comply with adp_retx_profile_max_id". */
		if (id > prof->adp_max_profile_id)
			return NICREF_RULE_ROCE_ACCL_PROFILE_ID_ABOVE_MAX;
		(void)nicref_adp_profile_decode(r->in + PROFILE_OFF, r->in_len - PROFILE_OFF, &p);
		enum nicref_adp_rule bad = nicref_adp_profile_check(
			&p, prof->adp_base_timeout_min_ns, prof->adp_max_range_num);
		if (bad != NICREF_ADP_OK)
			return profile_rule[bad];
	}
	if (set_en)
		s->adp_retrans_en = REG_IN(roce_accl, roce_adp_retrans_en, r) != 0;
	if (set_profile) {
		/* D-ADP-1: writing a profile selects it (seed 001 L62-72 has no other way to
		 * select one), for every QP of the function from its next ready-to-send
		 * (seed 001 L64, D-ADP-2). */
		s->active_profile_id = (uint8_t)id;
		s->profile = p;
	}
	return NICREF_RULE_NONE;
}

void nicref_adp_dev_mode(const struct nicref_dev *dev, struct nicref_adp_mode *out)
{
	const struct roce_accl *s = &dev->roce_accl;
	memset(out, 0, sizeof *out);
	out->retrans_en = s->adp_retrans_en;
	/* seed 001 L62: no profile selected: firmware-defined timeouts, modelled as the
	 * classic IB timer (D-ADP-3). */
	out->adp = s->adp_retrans_en && s->active_profile_id != 0;
	if (s->active_profile_id != 0)
		out->profile = s->profile;
	out->base_timeout_min_ns = dev->core.cfg.profile.adp_base_timeout_min_ns;
	out->opt = dev->core.cfg.profile.adp;
}

void roce_accl_count(struct nicref_dev *dev, const struct nicref_adp_qp *qp, bool retransmitted)
{
	nicref_adp_count_timeout(qp, retransmitted, &dev->roce_accl.counters);
}

void nicref_adp_dev_counters(const struct nicref_dev *dev, struct nicref_adp_counters *out)
{
	*out = dev->roce_accl.counters;
}

int roce_accl_check(const struct nicref_dev *dev)
{
	const struct roce_accl *s = &dev->roce_accl;
	const struct nicref_profile *prof = &dev->core.cfg.profile;
	if (s->active_profile_id > prof->adp_max_profile_id)
		return -1;
	if (s->active_profile_id != 0 &&
	    nicref_adp_profile_check(&s->profile, prof->adp_base_timeout_min_ns,
				     prof->adp_max_range_num) != NICREF_ADP_OK)
		return -2;
	return 0;
}

static int roce_accl_row_check(const struct nicref_dev *dev, const void *state, char *buf,
			       size_t len)
{
	(void)state;
	int rc = roce_accl_check(dev);
	if (rc == 0)
		return 0;
	return dev_broken(buf, len, NICREF_INV_ROCE_ACCL_STORED,
			  "ROCE_ACCL active_profile_id %u (capability %u), %s",
			  dev->roce_accl.active_profile_id,
			  dev->core.cfg.profile.adp_max_profile_id,
			  rc == -1 ? "id above the capability" : "the profile fails validation");
}

const struct dev_subsys roce_accl_subsys = {
	.name = "roce_accl",
	.profile_ok = roce_accl_profile_ok,
	.reset = roce_accl_reset,
	.check = roce_accl_row_check,
};

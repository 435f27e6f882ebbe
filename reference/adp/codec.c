/* adp_retx_profile bytes <-> struct nicref_adp_profile, through the seed 000 layouts of
 * prm/layouts_adp.h (the register handler and the tools that take register hex share it). */
#include <string.h>

#include "adp/adp_int.h"
#include "prm/layouts.h"

#define RANGE_OFF(i) (0x08u + 4u * (i)) /* seed 000 L177-181: timeout_range[4] at 08h-14h */

int nicref_adp_profile_decode(const void *buf, size_t len, struct nicref_adp_profile *p)
{
	const uint8_t *b = buf;
	if (len < RANGE_OFF(NICREF_ADP_MAX_RANGES))
		return -1;
#define P_GET(n) PRM_GET(adp_retx_profile, n, b, len)
	p->qp_total_timeout = (uint8_t)P_GET(qp_total_timeout);
	p->range_num = (uint8_t)P_GET(range_num);
	p->start_range_index = (uint8_t)P_GET(start_range_index);
	p->time_unit = (uint8_t)P_GET(time_unit);
	p->time_base = (uint16_t)P_GET(time_base);
	p->retx_total_timeout = (uint8_t)P_GET(retx_total_timeout);
	p->timeout_init_low_bound = (uint8_t)P_GET(timeout_init_low_bound);
	p->timeout_init_range_size = (uint8_t)P_GET(timeout_init_range_size);
#undef P_GET
	for (unsigned i = 0; i < NICREF_ADP_MAX_RANGES; i++) {
		const uint8_t *e = b + RANGE_OFF(i);
		struct nicref_adp_range *r = &p->range[i];
#define R_GET(n) PRM_GET(adp_retx_timeout_range, n, e, 4)
		r->prev_range_index = (uint8_t)R_GET(prev_range_index);
		r->dec_mode = (uint8_t)R_GET(dec_mode);
		r->timeout_retry_num = (uint16_t)R_GET(timeout_retry_num);
		r->range_low_bound = (uint8_t)R_GET(range_low_bound);
		r->range_size = (uint8_t)R_GET(range_size);
#undef R_GET
	}
	return 0;
}

int nicref_adp_profile_encode(const struct nicref_adp_profile *p, void *buf, size_t len)
{
	uint8_t *b = buf;
	if (len < NICREF_ADP_PROFILE_BYTES)
		return -1;
	memset(b, 0, NICREF_ADP_PROFILE_BYTES);
	int bad = 0;
#define P_SET(n) (bad |= nicref_field_set(b, len, PRM_FIELD(adp_retx_profile, n), p->n))
	P_SET(qp_total_timeout);
	P_SET(range_num);
	P_SET(start_range_index);
	P_SET(time_unit);
	P_SET(time_base);
	P_SET(retx_total_timeout);
	P_SET(timeout_init_low_bound);
	P_SET(timeout_init_range_size);
#undef P_SET
	for (unsigned i = 0; i < NICREF_ADP_MAX_RANGES; i++) {
		uint8_t *e = b + RANGE_OFF(i);
		const struct nicref_adp_range *r = &p->range[i];
#define R_SET(n) (bad |= nicref_field_set(e, 4, PRM_FIELD(adp_retx_timeout_range, n), r->n))
		R_SET(prev_range_index);
		R_SET(dec_mode);
		R_SET(timeout_retry_num);
		R_SET(range_low_bound);
		R_SET(range_size);
#undef R_SET
	}
	return bad ? -1 : 0;
}

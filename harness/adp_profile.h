/* Inputs of the `nicref adp` tools: an adaptive-retransmission profile as JSON or as register
 * bytes, the engine options by name, durations with units, loss patterns. */
#ifndef NICREF_ADP_PROFILE_H
#define NICREF_ADP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicref/adp.h"

/* adp_retx_profile is 48 bytes (seed 000: 10h-3Ch of ROCE_ACCL, 384 bits); ROCE_ACCL data is
 * 40h bytes with the profile at 10h (prm/layouts_adp.h). */
#define ADP_PROFILE_BYTES NICREF_ADP_PROFILE_BYTES
#define ADP_ROCE_ACCL_BYTES 0x40

/* A profile JSON object: the fields of struct nicref_adp_profile by name, the ranges as an
 * array "range" (or "timeout_range", the seed's name) of objects with the range fields.
 * Numbers are JSON integers or "0x.." strings; absent fields are 0; an unknown field or a
 * value wider than its register field is an error. 0, or -1 with a message. */
int adp_profile_from_json_text(const char *text, struct nicref_adp_profile *p, char *err,
			       size_t errlen);
int adp_profile_from_file(const char *path, struct nicref_adp_profile *p, char *err,
			  size_t errlen);

/* What register bytes give: the profile, and with the whole ROCE_ACCL data also the enable
 * bit, the selected id and the read-only capabilities. */
struct adp_reg_image {
	struct nicref_adp_profile profile;
	bool whole_register;
	bool adp_retrans_en;
	uint8_t profile_id;
	uint8_t max_range_num, max_id;
	uint32_t base_timeout_min_ns;
};
/* len ADP_PROFILE_BYTES (the profile alone) or ADP_ROCE_ACCL_BYTES (the register data). */
int adp_profile_from_bytes(const uint8_t *b, size_t len, struct adp_reg_image *img, char *err,
			   size_t errlen);

/* "5us", "1.5ms", "4096ns", "2s", a bare number is ns. 0, or -1. */
int adp_parse_duration(const char *s, uint64_t *ns);
/* An unsigned integer (decimal or 0x hex) no larger than max. 0, or -1. */
int adp_parse_uint(const char *s, uint64_t max, uint64_t *out);

/* "--first-timeout retry-once|escalate", "--dec by-name|by-amount|by-factor", "--init-range
 * exclusive|inclusive", "--dec-trigger every-progress|clean-progress", "--retry-uses
 * arms|retransmissions" (the readings of
 * nicref/adp.h, in enum order): sets the option named `key` from `val`. 0, 1 when key is not an option name, -1 when
 * val is not one of its values. */
int adp_option_set(struct nicref_adp_options *o, const char *key, const char *val);
const char *adp_option_value_name(const char *key, unsigned v);

/* Loss patterns: a list "0,1,2,5" with ranges "3-9", or a bit string "1110010" (character k
 * = transmission k). Bits into words[0..nwords). 0, or -1 (bad syntax or index beyond). */
int adp_loss_list(const char *s, uint64_t *words, size_t nwords);
int adp_loss_bits(const char *s, uint64_t *words, size_t nwords);

#endif

/* Private to obj/flow_*.c: what the flow steering command handlers share. */
#ifndef NICREF_OBJ_FLOW_CMD_H
#define NICREF_OBJ_FLOW_CMD_H

#include "obj/flow.h"

struct cmd_ctx;
struct nicref_field;

/* The largest log_size the model holds a table of (a slot pointer per flow): the T151 field is
 * 6 bits; the default log_max_ft_size is 16 (D-FT-18). */
#define FLOW_MAX_LOG_SIZE 24

/* A field of the flow_table_properties (T151) of table type t. */
uint64_t flow_prop(const struct nicref_dev *dev, unsigned t, const struct nicref_field *f);
/* T153 bit `bit` (31..9) of ft_field_support (bitmask false) or ft_field_bitmask_support. */
bool flow_field_supported(const struct nicref_dev *dev, unsigned t, bool bitmask, unsigned bit);
/* The table_type of a §12.14 command (10h[31:24]), checked (FT_TYPE_*). */
enum nicref_cmd_rule flow_cmd_type(const struct cmd_ctx *c, unsigned *type);
/* The table a §12.14 command names (10h, 14h), checked (FT_TYPE_*, FT_ID_*, FT_NOT_FOUND). */
enum nicref_cmd_rule flow_cmd_table(const struct cmd_ctx *c, struct flow_table **out);

#endif

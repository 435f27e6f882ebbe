/* Private to libnicref: loading and reporting the page lists (pas[]) of EQ and CQ buffers in
 * their commands (PRM §12.6.1 T244, §12.7.1 T261, §12.7.4 T273; PAS entries T138/T139). */
#ifndef NICREF_OBJ_EQ_QBUF_H
#define NICREF_OBJ_EQ_QBUF_H

#include "cmd/cmd_table.h"

/* Reads the pas[] of a command input from byte pas_off: as many entries as a buffer of
 * `bytes` bytes over pages of 4 KB << log_page_size needs (the PRM gives no count: the
 * context's sizes imply it). Refuses with short_rule when input_length does not hold them
 * (D-EQ-9) and with align_rule when an entry has a bit of 11:0 set (T139: pa_l is 31:12, the
 * page is 4 KB aligned). On success *out owns a copy of the entries. */
enum nicref_cmd_rule qbuf_load(struct cmd_ctx *c, size_t pas_off, uint64_t bytes,
			       unsigned log_page_size, enum nicref_cmd_rule short_rule,
			       enum nicref_cmd_rule align_rule, struct qbuf *out);
/* Writes the entries of b into the output from pas_off, as many as the output holds (D-EQ-10). */
void qbuf_query(const struct qbuf *b, struct cmd_ctx *c, size_t pas_off);

#endif

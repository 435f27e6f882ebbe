/* Reference-driver helpers for flow steering (driver_steer.h). */
#include <string.h>

#include "driver_steer.h"
#include "nicref/nicref.h"

#define FTE_FIXED 0x340 /* T427: the flow context at 40h, its list at 300h of it */

static void head(void *in, size_t len, const char *layout, const char *op, unsigned type,
		 uint32_t table_id)
{
	refdrv_field_set(in, len, layout, "opcode", (uint64_t)refdrv_opcode(op));
	refdrv_field_set(in, len, layout, "table_type", type);
	refdrv_field_set(in, len, layout, "table_id", table_id);
}

int refdrv_create_flow_table(struct refdrv *d, unsigned type, unsigned level, unsigned log_size,
			     unsigned miss_action, uint32_t miss_id, uint32_t *table_id)
{
	static const char L[] = "create_flow_table_in";
	uint8_t in[0x40] = { 0 }, out[16];
	refdrv_field_set(in, sizeof in, L, "opcode", (uint64_t)refdrv_opcode("CREATE_FLOW_TABLE"));
	refdrv_field_set(in, sizeof in, L, "table_type", type);
	refdrv_field_set(in, sizeof in, L, "level", level);
	refdrv_field_set(in, sizeof in, L, "log_size", log_size);
	refdrv_field_set(in, sizeof in, L, "table_miss_action", miss_action);
	if (miss_action == 1)
		refdrv_field_set(in, sizeof in, L, "table_miss_id", miss_id);
	int st = refdrv_cmd_paged(d, in, sizeof in, out, sizeof out);
	if (st == 0 && table_id)
		*table_id = (uint32_t)refdrv_field_get(out, sizeof out, "create_flow_table_out", "table_id");
	return st;
}

int refdrv_modify_flow_table_miss(struct refdrv *d, unsigned type, uint32_t table_id,
				  unsigned miss_action, uint32_t miss_id)
{
	static const char L[] = "modify_flow_table_in";
	uint8_t in[0x40] = { 0 }, out[16];
	head(in, sizeof in, L, "MODIFY_FLOW_TABLE", type, table_id);
	refdrv_field_set(in, sizeof in, L, "modify_field_select", 1);
	refdrv_field_set(in, sizeof in, L, "table_miss_action", miss_action);
	if (miss_action == 1)
		refdrv_field_set(in, sizeof in, L, "table_miss_id", miss_id);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

static int simple(struct refdrv *d, const char *layout, const char *op, unsigned type,
		  uint32_t table_id)
{
	uint8_t in[0x40] = { 0 }, out[16];
	head(in, sizeof in, layout, op, type, table_id);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

int refdrv_set_flow_table_root(struct refdrv *d, unsigned type, uint32_t table_id)
{
	return simple(d, "set_flow_table_root_in", "SET_FLOW_TABLE_ROOT", type, table_id);
}

int refdrv_destroy_flow_table(struct refdrv *d, unsigned type, uint32_t table_id)
{
	return simple(d, "destroy_flow_table_in", "DESTROY_FLOW_TABLE", type, table_id);
}

int refdrv_create_flow_group(struct refdrv *d, unsigned type, uint32_t table_id, uint32_t start,
			     uint32_t end, unsigned enable, const uint8_t *criteria,
			     uint32_t *group_id)
{
	static const char L[] = "create_flow_group_in";
	uint8_t in[0x400] = { 0 }, out[16];
	head(in, sizeof in, L, "CREATE_FLOW_GROUP", type, table_id);
	refdrv_field_set(in, sizeof in, L, "start_flow_index", start);
	refdrv_field_set(in, sizeof in, L, "end_flow_index", end);
	refdrv_field_set(in, sizeof in, L, "match_criteria_enable", enable);
	if (criteria)
		memcpy(in + 0x40, criteria, REFDRV_MATCH_LEN); /* T406: match_criteria at 40h */
	int st = refdrv_cmd_paged(d, in, sizeof in, out, sizeof out);
	if (st == 0 && group_id)
		*group_id = (uint32_t)refdrv_field_get(out, sizeof out, "create_flow_group_out", "group_id");
	return st;
}

int refdrv_destroy_flow_group(struct refdrv *d, unsigned type, uint32_t table_id, uint32_t group_id)
{
	static const char L[] = "destroy_flow_group_in";
	uint8_t in[0x40] = { 0 }, out[16];
	head(in, sizeof in, L, "DESTROY_FLOW_GROUP", type, table_id);
	refdrv_field_set(in, sizeof in, L, "group_id", group_id);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

int refdrv_set_fte(struct refdrv *d, unsigned type, uint32_t table_id, uint32_t index,
		   unsigned op_mod, unsigned modify_mask, const struct refdrv_fte *f)
{
	static const char L[] = "set_flow_table_entry_in";
	uint8_t in[FTE_FIXED + 8 * 2 * REFDRV_FTE_MAX_LIST] = { 0 }, out[16];
	if (f->ndest > REFDRV_FTE_MAX_LIST || f->ncnt > REFDRV_FTE_MAX_LIST)
		return -1;
	head(in, sizeof in, L, "SET_FLOW_TABLE_ENTRY", type, table_id);
	refdrv_field_set(in, sizeof in, L, "op_mod", op_mod);
	refdrv_field_set(in, sizeof in, L, "modify_enable_mask", modify_mask);
	refdrv_field_set(in, sizeof in, L, "flow_index", index);
	refdrv_field_set(in, sizeof in, L, "group_id", f->group_id);
	refdrv_field_set(in, sizeof in, L, "flow_tag", f->flow_tag);
	refdrv_field_set(in, sizeof in, L, "action", f->action);
	refdrv_field_set(in, sizeof in, L, "destination_list_size", f->ndest);
	refdrv_field_set(in, sizeof in, L, "flow_counter_list_size", f->ncnt);
	if (f->match)
		memcpy(in + 0x80, f->match, REFDRV_MATCH_LEN); /* T429: match_value at 40h of 40h */
	for (unsigned k = 0; k < f->ndest; k++)
		refdrv_field_set_elem(in, sizeof in, L, "list", 2 * k,
				      (uint64_t)f->dest[k].type << 24 | f->dest[k].id);
	for (unsigned k = 0; k < f->ncnt; k++)
		refdrv_field_set_elem(in, sizeof in, L, "list", 2 * (f->ndest + k), f->cnt[k]);
	uint32_t len = FTE_FIXED + 8 * (f->ndest + f->ncnt);
	return refdrv_cmd(d, in, len, out, sizeof out);
}

int refdrv_delete_fte(struct refdrv *d, unsigned type, uint32_t table_id, uint32_t index)
{
	static const char L[] = "delete_flow_table_entry_in";
	uint8_t in[0x40] = { 0 }, out[16];
	head(in, sizeof in, L, "DELETE_FLOW_TABLE_ENTRY", type, table_id);
	refdrv_field_set(in, sizeof in, L, "flow_index", index);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

int refdrv_alloc_flow_counter(struct refdrv *d, uint32_t *id)
{
	uint8_t in[16] = { 0 }, out[16];
	refdrv_field_set(in, sizeof in, "alloc_flow_counter_in", "opcode",
			 (uint64_t)refdrv_opcode("ALLOC_FLOW_COUNTER"));
	int st = refdrv_cmd_paged(d, in, sizeof in, out, sizeof out);
	if (st == 0 && id)
		*id = (uint32_t)refdrv_field_get(out, sizeof out, "alloc_flow_counter_out",
						 "flow_counter_id");
	return st;
}

int refdrv_dealloc_flow_counter(struct refdrv *d, uint32_t id)
{
	uint8_t in[16] = { 0 }, out[16];
	refdrv_field_set(in, sizeof in, "dealloc_flow_counter_in", "opcode",
			 (uint64_t)refdrv_opcode("DEALLOC_FLOW_COUNTER"));
	refdrv_field_set(in, sizeof in, "dealloc_flow_counter_in", "flow_counter_id", id);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

int refdrv_query_flow_counter(struct refdrv *d, uint32_t id, bool clear, uint64_t *packets,
			      uint64_t *octets)
{
	static const char L[] = "query_flow_counter_in";
	uint8_t in[0x20] = { 0 }, out[0x20] = { 0 };
	refdrv_field_set(in, sizeof in, L, "opcode", (uint64_t)refdrv_opcode("QUERY_FLOW_COUNTER"));
	refdrv_field_set(in, sizeof in, L, "clear", clear);
	refdrv_field_set(in, sizeof in, L, "flow_counter_id", id);
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	/* T456/T491: flow_statistics[0] packets, [1] octets, 64-bit big-endian from 10h. */
	uint64_t p = 0, o = 0;
	for (unsigned i = 0; i < 8; i++) {
		p = p << 8 | out[0x10 + i];
		o = o << 8 | out[0x18 + i];
	}
	if (packets)
		*packets = p;
	if (octets)
		*octets = o;
	return st;
}

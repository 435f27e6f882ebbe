/* ACCESS_REGISTER (PRM §12.4.1 T221-T224): op_mod 0 WRITE, 1 READ; the register data at input
 * and output 10h. The checks every register shares, in this order (D-REG-21):
 *   1. register_id names a register (else BAD_PARAM);
 *   2. the input holds the whole register (BAD_INPUT_LEN), and a READ output can hold it
 *      (BAD_OUTPUT_LEN) (D-REG-10);
 *   3. a WRITE's register data has no reserved bit set (D-CMD-8; a READ's input is not
 *      checked, D-REG-11);
 *   4. argument is 0 (D-REG-1);
 *   5. local_port is 1..num_ports (D-REG-4);
 * then the register's own handler. */
#include <string.h>

#include "reg/reg.h"

enum { ACCESS_REG_WRITE = 0, ACCESS_REG_READ = 1 }; /* T222 op_mod */
#define REG_DATA 0x10                                 /* T222/T224: register data[] */

struct reg_desc {
	uint16_t id;
	bool indexed;
	const char *name;
	const struct nicref_layout *layout;
	reg_handler query, update;
};

static const struct reg_desc registers[] = {
#define REG_ROW(name, id, L, indexed, q, w) { id, indexed, #name, &nicref_layout_##L, q, w },
	NICREF_REGISTERS(REG_ROW)
#undef REG_ROW
};

static const struct reg_desc *reg_find(unsigned id)
{
	for (size_t i = 0; i < sizeof registers / sizeof registers[0]; i++)
		if (registers[i].id == id)
			return &registers[i];
	return NULL;
}

const char *nicref_register_name(unsigned register_id)
{
	const struct reg_desc *d = reg_find(register_id);
	return d ? d->name : NULL;
}

unsigned nicref_register_size(unsigned register_id)
{
	const struct reg_desc *d = reg_find(register_id);
	return d ? d->layout->size : 0;
}

int nicref_register_find(const char *name)
{
	for (size_t i = 0; i < sizeof registers / sizeof registers[0]; i++)
		if (strcmp(registers[i].name, name) == 0)
			return registers[i].id;
	return -1;
}

enum nicref_cmd_rule cmd_access_reg(struct cmd_ctx *c)
{
	const struct reg_desc *d =
		reg_find((unsigned)PRM_GET(access_reg_in, register_id, c->in, c->in_len));
	if (!d)
		return NICREF_RULE_REG_UNKNOWN;
	bool reading = c->op_mod == ACCESS_REG_READ;
	size_t size = d->layout->size;
	if (c->input_length < REG_DATA + size || c->in_len < REG_DATA + size)
		return NICREF_RULE_REG_INPUT_TOO_SHORT;
	if (reading && (c->output_length < REG_DATA + size || c->out_len < REG_DATA + size))
		return NICREF_RULE_REG_OUTPUT_TOO_SHORT;
	if (!reading) {
		enum nicref_cmd_rule rule = cmd_check_reserved(c, d->layout, REG_DATA);
		if (rule != NICREF_RULE_NONE)
			return rule;
	}
	if (PRM_GET(access_reg_in, argument, c->in, c->in_len) != 0)
		return NICREF_RULE_REG_ARGUMENT_NOT_ZERO;

	struct reg_ctx r = {
		.c = c,
		.in = c->in + REG_DATA,
		.in_len = size,
		.out = reading ? c->out + REG_DATA : NULL,
		.out_len = reading ? size : 0,
	};
	if (d->indexed) {
		/* Every port register has local_port at 00h[23:16] (T106-T114). */
		r.local_port = (unsigned)PRM_GET(pmtu, local_port, r.in, r.in_len);
		r.port = port_get(c->dev, r.local_port);
		if (!r.port)
			return NICREF_RULE_REG_LOCAL_PORT;
	}
	return reading ? d->query(&r) : d->update(&r);
}

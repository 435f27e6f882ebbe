/* PFCC - Ports Flow Control Configuration Register (PRM §11.1.4 T111/T112, register 0x5007).
 * The model keeps the configuration; pause frames themselves show only in the PPCNT counters
 * (D-REG-8). */
#include "reg/reg.h"

enum nicref_cmd_rule reg_pfcc_query(struct reg_ctx *r)
{
	const struct port *p = r->port;
	REG_OUT(pfcc, local_port, r, r->local_port);
	/* prio_mask_tx/rx are write-only: read as 0 (D-REG-14). aptx/aprx, the operational
	 * policy, equal pptx/pprx: with ppan = 0 a setting "takes effect immediately" (D-REG-7). */
	REG_OUT(pfcc, pptx, r, p->pptx);
	REG_OUT(pfcc, aptx, r, p->pptx);
	REG_OUT(pfcc, pfctx, r, p->pfctx);
	REG_OUT(pfcc, fctx_disabled, r, p->fctx_disabled);
	REG_OUT(pfcc, pprx, r, p->pprx);
	REG_OUT(pfcc, aprx, r, p->pprx);
	REG_OUT(pfcc, pfcrx, r, p->pfcrx);
	REG_OUT(pfcc, device_stall_minor_watermark, r, p->stall_minor_wm);
	REG_OUT(pfcc, device_stall_critical_watermark, r, p->stall_critical_wm);
	return NICREF_RULE_NONE;
}

/* aptx and aprx are read-only: ignored on write (D-REG-14). */
enum nicref_cmd_rule reg_pfcc_write(struct reg_ctx *r)
{
	struct port *p = r->port;
	uint8_t mask_tx = (uint8_t)REG_IN(pfcc, prio_mask_tx, r);
	uint8_t mask_rx = (uint8_t)REG_IN(pfcc, prio_mask_rx, r);
	/* T112: pfctx[i] / pfcrx[i] change only where prio_mask_tx[i] / prio_mask_rx[i] is set. */
	uint8_t pfctx = (uint8_t)((p->pfctx & ~mask_tx) | (REG_IN(pfcc, pfctx, r) & mask_tx));
	uint8_t pfcrx = (uint8_t)((p->pfcrx & ~mask_rx) | (REG_IN(pfcc, pfcrx, r) & mask_rx));
	bool pptx = REG_IN(pfcc, pptx, r), pprx = REG_IN(pfcc, pprx, r);
	uint64_t minor = REG_IN(pfcc, device_stall_minor_watermark, r);
	uint64_t critical = REG_IN(pfcc, device_stall_critical_watermark, r);

	/* T112 pfctx: "pfctx, pptx must be mutually exclusive"; the note before T112: "Only a
	 * single flow control mechanism can be used on a specific port (for both RX and TX)".
	 * Judged on the configuration the write would leave (D-REG-16). */
	if ((pptx || pprx) && (pfctx || pfcrx))
		return NICREF_RULE_PFCC_PAUSE_AND_PFC;
	if (!port_watermark_ok(minor) || !port_watermark_ok(critical))
		return NICREF_RULE_PFCC_WATERMARK_RANGE;

	p->pptx = pptx;
	p->pprx = pprx;
	p->pfctx = pfctx;
	p->pfcrx = pfcrx;
	p->fctx_disabled = REG_IN(pfcc, fctx_disabled, r);
	p->stall_minor_wm = (uint16_t)minor;
	p->stall_critical_wm = (uint16_t)critical;
	return NICREF_RULE_NONE;
}

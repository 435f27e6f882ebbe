/* The control-plane objects' command rules and driver violations (PRM §12.5-§12.13,
 * §12.15-§12.17), one header per object family, collected here for nicref/cmd.h
 * (NICREF_CMD_RULES) and nicref/trace.h (NICREF_VIOLATIONS). Rows as there:
 *   rules:      X(ID, STATUS, "citation", "text")
 *   violations: X(ID, "citation", "what the driver did wrong") */
#ifndef NICREF_RULES_CTRL_H
#define NICREF_RULES_CTRL_H

#include "nicref/rules_obj.h"
#include "nicref/rules_eq.h"
#include "nicref/rules_cq.h"
#include "nicref/rules_wq.h"
#include "nicref/rules_mkey.h"
#include "nicref/rules_tir.h"
#include "nicref/rules_vport.h"
#include "nicref/rules_tx.h"
#include "nicref/rules_rx.h"
#include "nicref/rules_steer.h"
#include "nicref/rules_qp.h"
#include "nicref/rules_umem.h"

#define NICREF_CMD_RULES_CTRL(X)                                                                \
	NICREF_CMD_RULES_OBJ(X)                                                                 \
	NICREF_CMD_RULES_EQ(X)                                                                  \
	NICREF_CMD_RULES_CQ(X)                                                                  \
	NICREF_CMD_RULES_WQ(X)                                                                  \
	NICREF_CMD_RULES_MKEY(X)                                                                \
	NICREF_CMD_RULES_TIR(X)                                                                 \
	NICREF_CMD_RULES_VPORT(X)                                                               \
	NICREF_CMD_RULES_STEER(X)                                                               \
	NICREF_CMD_RULES_QP(X)                                                                  \
	NICREF_CMD_RULES_UMEM(X)

/* Every one of these is a rule of a command's content or of the data path, never of the
 * command transport (the fuzz oracle tells the two apart by this list). */
#define NICREF_VIOLATIONS_CTRL(X)                                                               \
	NICREF_VIOLATIONS_OBJ(X)                                                                \
	NICREF_VIOLATIONS_EQ(X)                                                                 \
	NICREF_VIOLATIONS_CQ(X)                                                                 \
	NICREF_VIOLATIONS_WQ(X)                                                                 \
	NICREF_VIOLATIONS_MKEY(X)                                                               \
	NICREF_VIOLATIONS_TIR(X)                                                                \
	NICREF_VIOLATIONS_VPORT(X)                                                              \
	NICREF_VIOLATIONS_TX(X)                                                                 \
	NICREF_VIOLATIONS_RX(X)                                                                 \
	NICREF_VIOLATIONS_STEER(X)

#endif

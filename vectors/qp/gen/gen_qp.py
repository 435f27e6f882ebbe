#!/usr/bin/python3
"""Independent generator of the QP command vectors (vectors/qp/*.json).

    /usr/bin/python3 vectors/qp/gen/gen_qp.py [--check]

Writes create.json, transitions.json, attrs.json, refs.json, gid.json and seed004.json beside
this folder; --check compares instead of writing (exit 1 on a difference) after the
generator's own consistency checks (test_gen_qp.py repeats them from the outside).

Every expectation is derived here from PUBLIC material only, never from nicref's output nor
its model (reference/):

- [IFC]  Linux include/linux/mlx5/mlx5_ifc.h (= rdma-core providers/mlx5/mlx5_ifc.h):
         the opcodes MLX5_CMD_OP_*, struct mlx5_ifc_qpc_bits / ads_bits / create_qp_in_bits /
         *_qp_in_bits / query_qp_out_bits / roce_addr_layout_bits / set_roce_address_in_bits,
         the command status list MLX5_CMD_STAT_* (0x9 BAD_RES_STATE, 0x10 BAD_QP_STATE),
         MLX5_ROCE_VERSION_{1,2} = 0, 2 and MLX5_ROCE_L3_TYPE_IPV{4,6} = 0, 1.
- [QPH]  Linux include/linux/mlx5/qp.h: enum mlx5_qp_optpar (opt_param_mask bits),
         enum mlx5_qp_state, MLX5_QP_ST_*, MLX5_QP_PM_MIGRATED, MLX5_*_RQ (rq_type).
- [MLX5IB] Linux drivers/infiniband/hw/mlx5/qp.c: optab[cur][new] (which command moves which
         state) and opt_mask[cur][new][st] (the optional attributes a driver may flag per
         transition and service type), and what a real driver puts in each command.
- [IBTA] InfiniBand Architecture Specification Vol. 1, §10.3 (QP states and transitions) and
         §11.2.4 (Modify QP: required/optional attributes per transition), as Linux
         drivers/infiniband/core/verbs.c qp_state_table transcribes them.
- [PRM]  ConnectX-4 PRM Rev 0.40 T128 (command statuses), §3.1 Figure 3 (object graph).
- [S004] seed 004 (the RDMA engine note) by line, for the seed004 profile.

The layout and field names are [IFC]'s as the model's docs/roce.md flattens them (nested
contexts flattened, address paths prefixed `primary_address_path_`): only NAMES are taken from
there; expectations are not.

Where the public material does not pin a status, the test is `acceptable` and admits each
status that fits (a matcher) or each reading (any_of), with a later check that holds for both.
"""
import copy
import json
import os
import sys

from qp_lang import *  # noqa: F401,F403 (the vocabulary: qp_lang.py)


def f_create():
    F = File("qp_create", HEADER + ["CREATE_QP, DESTROY_QP, QUERY_QP; QPN 0/1 never "
                                    "allocated; references checked at CREATE_QP."], NOTES)
    g = F.group("default profile", common_setup())
    c = f"{C_IFC} create_qp_in/create_qp_out, qpc"
    for st, nm in ((ST_RC, "RC"), (ST_UD, "UD")):
        F.test(g, f"CREATE_QP {nm}: OK, the first QPN is 2; QUERY_QP: RST and the context as created",
               f"{c}; query_qp_out; {C_STATES} (a created QP is in Reset)", "valid",
               [create_qp(st), query(FIRST_QPN, dict(created(st), state=RST))])
    F.test(g, "CREATE_QP eight times: no QPN is 0 or 1, each is a 24-bit number",
           f"{c}; {C_S004_QP01}", "valid",
           [create_qp(ST_RC, k, expect=ok_out("create_qp_out", {"qpn": {"ge": 2}}))
            for k in range(8)], flags=())
    F.test(g, "QPNs 2, 3, 4; DESTROY_QP 3; CREATE_QP reuses 3 (lowest free first)",
           f"{c}; destroy_qp_in; D-OBJ-2", "valid",
           [create_qp(ST_RC, 0), create_qp(ST_UD, 1), create_qp(ST_RC, 2),
            cmd("DESTROY_QP", {"qpn": 3}), create_qp(ST_RC, 3, qpn=3)])
    F.test(g, "DESTROY_QP: OK; QUERY_QP, a transition and DESTROY_QP of it afterwards refused "
           "(unallocated resource)", f"{c}; destroy_qp_in; {C_T128} 0x05", "invalid",
           [create_qp(ST_RC), cmd("DESTROY_QP", {"qpn": FIRST_QPN}),
            query(FIRST_QPN, None, "BAD_RESOURCE"),
            modify("RST2INIT_QP", FIRST_QPN, expect={"status": "BAD_RESOURCE"}),
            cmd("DESTROY_QP", {"qpn": FIRST_QPN}, {"status": "BAD_RESOURCE"})])
    F.test(g, "DESTROY_QP in every state (RST, INIT, RTR, RTS, ERR): OK",
           f"{c}; destroy_qp_in; IBTA Vol. 1 §11.2.4 (Destroy QP in any state)", "valid",
           sum(([create_qp(ST_RC, 0)] + drive(FIRST_QPN, ST_RC, s) +
                [cmd("DESTROY_QP", {"qpn": FIRST_QPN})] for s in (RST, INIT, RTR, RTS, ERR)), []))
    for qpn in (0, 1):
        for what, step in (("QUERY_QP", cmd("QUERY_QP", {"qpn": qpn}, beyond("QP_INDEX"),
                                            output_length="0x110")),
                           ("DESTROY_QP", cmd("DESTROY_QP", {"qpn": qpn}, beyond("QP_INDEX"))),
                           ("RST2INIT_QP", modify("RST2INIT_QP", qpn,
                                                  expect=beyond("QP_INDEX")))):
            F.test(g, f"{what} of QPN {qpn} (reserved, never handed out) after a QP exists: "
                   "refused (T128 BAD_RESOURCE 'reserved or unallocated resource' or BAD_INDEX "
                   "'access a reserved resource')", f"{c}; {C_S004_QP01}; {C_T128} 0x05/0x0A",
                   "acceptable", [create_qp(ST_UD), step], flags=("Handles", "Acceptable"))
    F.test(g, "DESTROY_QP 0xFFFFFF (the top of the 24-bit QPN space, never allocated): refused",
           f"{c}; destroy_qp_in qpn[0x18]; {C_T128} 0x05/0x0A", "acceptable",
           [cmd("DESTROY_QP", {"qpn": "0xffffff"}, beyond("QP_INDEX"))], flags=("Acceptable",))
    for what, over, rule in (("pd", {"pd": "0xffffff"}, "QP_PD"),
                             ("cqn_snd", {"cqn_snd": "0xffffff"}, "QP_CQ"),
                             ("cqn_rcv", {"cqn_rcv": "0xffffff"}, "QP_CQ"),
                             ("uar_page", {"uar_page": "0xffffff"}, "QP_UAR"),
                             ("rq_type SRQ with srqn_rmpn_xrqn", {"rq_type": RQ_SRQ,
                                                                  "srqn_rmpn_xrqn": "0xffffff"},
                              "QP_RMP")):
        F.test(g, f"CREATE_QP with {what} 0xFFFFFF (beyond every table of the profile): refused, "
               "no QP; the next CREATE_QP gets QPN 2",
               f"{c}; {C_T128} 0x0A ('Index out of range (might be beyond table size ...)')/0x05; "
               "D-OBJ-2", "acceptable",
               [create_qp(ST_RC, expect=beyond(rule), **over), create_qp(ST_RC)],
               flags=("Handles", "Acceptable"))
    for what, over in (("pd 9 (never allocated)", {"pd": 9}),
                       ("cqn_snd 9 (no such CQ)", {"cqn_snd": 9}),
                       ("cqn_rcv 9 (no such CQ)", {"cqn_rcv": 9}),
                       ("uar_page 9 (never allocated)", {"uar_page": 9}),
                       ("rq_type SRQ naming RMP 4 (none)", {"rq_type": RQ_SRQ,
                                                            "srqn_rmpn_xrqn": 4})):
        F.test(g, f"CREATE_QP with {what}: BAD_RESOURCE, no QP; the next CREATE_QP gets QPN 2",
               f"{c}; {C_T128} 0x05 (e.g. 'not existing CQ when creating SQ/RQ'); PRM §3.1 "
               "Figure 3", "invalid",
               [create_qp(ST_RC, expect={"status": "BAD_RESOURCE"}, **over), create_qp(ST_RC)])
    F.test(g, "CREATE_QP with st 0xFF (no service type): BAD_PARAM, no QP",
           f"{c}; qp.h MLX5_QP_ST_* (0x0-0xe); {C_T128} 0x03", "invalid",
           [create_qp(0xFF, expect={"status": "BAD_PARAM"}), create_qp(ST_RC)])
    # the generic command rules of PRM §12.1/T128 applied to the QP commands' [IFC] layouts
    c_res = ("PRM §12.1 ('Reserved fields on input must be set to 0'), T128 0x03 ('reserved not "
             "equal 0'); D-CMD-8")
    F.test(g, "DESTROY_QP with 08h[31:24] (reserved_at_40, above the 24-bit qpn) = 01h: "
           "BAD_PARAM, the QP stays", f"{C_IFC} destroy_qp_in reserved_at_40[0x8]; {c_res}",
           "invalid", [create_qp(ST_RC),
                       {"command": {"hex": "05010000 00000000 01000002 00000000",
                                    "expect": {"status": "BAD_PARAM"}}},
                       reserved_event(8, 0x01000000),
                       query_state(FIRST_QPN, RST)], flags=("Handles", "Reserved"))
    F.test(g, "RST2INIT_QP with 08h[31:24] (reserved_at_40 of rst2init_qp_in) = 80h: BAD_PARAM, "
           "still RST", f"{C_IFC} rst2init_qp_in reserved_at_40[0x8]; {c_res}", "invalid",
           [create_qp(ST_RC),
            {"command": {"hex": rst2init_hex_reserved(), "expect": {"status": "BAD_PARAM"}}},
            reserved_event(8, 0x80000000),
            query_state(FIRST_QPN, RST)], flags=("Handles", "Reserved"))
    F.test(g, "CREATE_QP with input_length 0x18 (the qpc missing): BAD_INPUT_LEN, no QP",
           f"{C_IFC} create_qp_in (qpc at 18h); PRM T128 0x50", "invalid",
           [create_qp(ST_RC, expect={"status": "BAD_INPUT_LEN"}, input_length="0x18"),
            create_qp(ST_RC)], flags=("Handles", "Framing"))
    short_pas = dict(qp_create_fields(ST_RC, 0, log_sq_size=8))
    for i in range(1, qp_pages(short_pas)):
        short_pas.pop(f"pas[{i}]")
    F.test(g, "CREATE_QP with log_sq_size 8 (a 1 KB RQ and a 16 KB SQ: 5 pages of 4 KB) and one "
           "pas[] entry: BAD_INPUT_LEN, no QP; the next CREATE_QP gets QPN 2",
           f"{C_IFC} create_qp_in pas[], qpc log_page_size/log_rq_size/log_rq_stride/log_sq_size; "
           "PRM T128 0x50; D-QP-12, D-WQ-6 (as CREATE_SQ/RQ/RMP answer a short pas[])", "invalid",
           [cmd("CREATE_QP", short_pas, {"status": "BAD_INPUT_LEN"}, length="0x118"),
            create_qp(ST_RC)], flags=("Handles", "Framing"))
    F.test(g, "QUERY_QP with output_length 0x18 (query_qp_out's qpc cut): BAD_OUTPUT_LEN",
           f"{C_IFC} query_qp_out (0x110 bytes); PRM T128 0x51", "invalid",
           [create_qp(ST_RC), cmd("QUERY_QP", {"qpn": FIRST_QPN}, {"status": "BAD_OUTPUT_LEN"},
                                  output_length="0x18")], flags=("Handles", "Framing"))
    F.test(g, "INIT2RTR_QP with input_length 0x20 (the qpc cut): BAD_INPUT_LEN, still INIT",
           f"{C_IFC} init2rtr_qp_in; PRM T128 0x50", "invalid",
           [create_qp(ST_RC)] + drive(FIRST_QPN, ST_RC, INIT) +
           [short(modify("INIT2RTR_QP", FIRST_QPN, expect={"status": "BAD_INPUT_LEN"}), "0x20"),
            query_state(FIRST_QPN, INIT)], flags=("Handles", "Framing"))
    for rqt in (4, 7):
        F.test(g, f"CREATE_QP with rq_type {rqt} (not an mlx5 RQ type: 0 regular, 1 SRQ/RMP, 2 CRQ, "
               "3 zero-length): BAD_PARAM, no QP",
               f"{c} rq_type[0x3]; qp.h MLX5_NON_ZERO_RQ..MLX5_ZERO_LEN_RQ; {C_T128} 0x03",
               "invalid", [create_qp(ST_RC, expect={"status": "BAD_PARAM"}, rq_type=rqt),
                           create_qp(ST_RC)])
    F.test(g, "CREATE_QP RC and UD with distinct send/receive CQs (3 and 2): QUERY_QP returns "
           "them", f"{c}; query_qp_out cqn_snd/cqn_rcv", "valid",
           [create_qp(ST_RC, 0, cqn_snd=CQ3), create_qp(ST_UD, 1, cqn_snd=CQ3, cqn_rcv=CQ3),
            query(2, {"st": ST_RC, "cqn_snd": CQ3, "cqn_rcv": CQ_RCV}),
            query(3, {"st": ST_UD, "cqn_snd": CQ3, "cqn_rcv": CQ3})])
    g2 = F.group("HCA_CAP.log_max_wq_sz lowered to 8 (256 WQEs)", common_setup(),
                 caps={"hca_cap.log_max_wq_sz": 8})
    for what in ("log_sq_size", "log_rq_size"):
        F.test(g2, f"CREATE_QP with {what} 9 over log_max_wq_sz 8: BAD_PARAM, no QP; {what} 8 "
               "is taken", f"{c} {what}; PRM T145 log_max_wq_sz (the largest WQ, §7.4.1); "
               f"{C_T128} 0x03", "invalid",
               [create_qp(ST_RC, expect={"status": "BAD_PARAM"}, **{what: 9}),
                create_qp(ST_RC, **{what: 8})])
    return F


def f_transitions():
    F = File("qp_state", HEADER + ["The QP state machine: each legal transition with the "
                                   "attributes IBTA requires, each illegal one refused with "
                                   "nothing changed."], NOTES)
    g = F.group("default profile", common_setup())
    c_mod = f"{C_IFC} *_qp_in, query_qp_out state; {C_STATES}; {C_ATTRS}"
    for st, nm in ((ST_RC, "RC"), (ST_UD, "UD")):
        steps = [create_qp(st)]
        for i, n in enumerate(PATH_TO[RTS]):
            steps.append(modify(n, FIRST_QPN, st))
            steps.append(query(FIRST_QPN, dict(given(st, i + 1), state=MOVE[n][1])))
        F.test(g, f"{nm}: RST2INIT, INIT2RTR, RTR2RTS with the required attributes: OK; "
               "QUERY_QP after each shows the new state and every attribute given so far",
               c_mod, "valid", steps)
    for st, nm in ((ST_RC, "RC"), (ST_UD, "UD")):
        F.test(g, f"{nm}: INIT2INIT with no optional attribute: OK, still INIT", c_mod, "valid",
               [create_qp(st)] + drive(FIRST_QPN, st, INIT) +
               [modify("INIT2INIT_QP", FIRST_QPN, st, {}), query_state(FIRST_QPN, INIT)])
        F.test(g, f"{nm}: RTS2RTS with no optional attribute (the qpc otherwise zero, as a "
               "driver sends it): OK, still RTS, nothing given before is lost", c_mod + "; " +
               C_OPTMASK + " (only flagged optional attributes are taken)", "valid",
               [create_qp(st)] + drive(FIRST_QPN, st, RTS) +
               [modify("RTS2RTS_QP", FIRST_QPN, st, {}),
                query(FIRST_QPN, dict(given(st, 3), state=RTS))])
        for frm in (RST, INIT, RTR, RTS, ERR):
            F.test(g, f"{nm}: 2ERR_QP from {STATE_NAME[frm]}: OK, ERR",
                   f"{C_IFC} qp_2err_in; {C_STATES} (any state to Error)", "valid",
                   [create_qp(st)] + drive(FIRST_QPN, st, frm) +
                   [modify("2ERR_QP", FIRST_QPN, st), query_state(FIRST_QPN, ERR)])
            F.test(g, f"{nm}: 2RST_QP from {STATE_NAME[frm]}: OK, RST; RST2INIT works again",
                   f"{C_IFC} qp_2rst_in; {C_STATES} (any state to Reset)", "valid",
                   [create_qp(st)] + drive(FIRST_QPN, st, frm) +
                   [modify("2RST_QP", FIRST_QPN, st), query_state(FIRST_QPN, RST),
                    modify("RST2INIT_QP", FIRST_QPN, st), query_state(FIRST_QPN, INIT)])
    # illegal transitions: every modify command whose source state is not the QP's
    for st, nm in ((ST_RC, "RC"), (ST_UD, "UD")):
        for frm in (RST, INIT, RTR, RTS, ERR):
            for n in MODIFY:
                if frm in MOVE[n][0]:
                    continue
                F.test(g, f"{nm}: {n} on a QP in {STATE_NAME[frm]} (not a source state of "
                       f"{n}): refused (BAD_RES_STATE 0x9 or BAD_QP_STATE 0x10), still "
                       f"{STATE_NAME[frm]}",
                       f"{C_STATES}; {C_IFC} MLX5_CMD_STAT_BAD_RES_STATE_ERR 0x9 / "
                       f"MLX5_CMD_STAT_BAD_QP_STATE_ERR 0x10; {C_T128} 0x09/0x10", "acceptable",
                       [create_qp(st)] + drive(FIRST_QPN, st, frm) +
                       [modify(n, FIRST_QPN, st, expect={"status": WRONG_STATE}),
                        query_state(FIRST_QPN, frm)], flags=("Handles", "Acceptable"))
    return F


def f_attrs():
    F = File("qp_attrs", HEADER + ["Required attributes whose value cannot be valid (IBTA "
                                   "§11.2.4: the Modify QP fails, the QP is unchanged); optional "
                                   "attributes taken only when flagged in opt_param_mask; a flag "
                                   "not optional for the transition."], NOTES)
    g = F.group("default profile", common_setup())
    c = f"{C_IFC} qpc/ads; {C_ATTRS}"
    bad = {"status": "BAD_PARAM"}
    idx = {"status": {"in": ["BAD_PARAM", "BAD_INDEX"]}}
    cases = [
        (ST_RC, INIT, "RST2INIT_QP", {P + "vhca_port_num": 0}, "port 0 (ports count from 1)", bad,
         "invalid", f"{c}; ads vhca_port_num; {C_T128} 0x03"),
        (ST_RC, INIT, "RST2INIT_QP", {P + "vhca_port_num": 2}, "port 2 (the device has 1)", bad,
         "invalid", f"{c}; ads vhca_port_num; hca_cap num_ports; {C_T128} 0x03"),
        (ST_UD, INIT, "RST2INIT_QP", {P + "vhca_port_num": 0}, "port 0", bad, "invalid",
         f"{c}; ads vhca_port_num; {C_T128} 0x03"),
        (ST_RC, INIT, "RST2INIT_QP", {P + "pkey_index": "0xffff"},
         "pkey_index 0xFFFF (beyond any P_Key table)", idx, "acceptable",
         f"{c}; ads pkey_index; {C_T128} 0x03/0x0A"),
        (ST_UD, INIT, "RST2INIT_QP", {P + "pkey_index": "0xffff"},
         "pkey_index 0xFFFF", idx, "acceptable", f"{c}; ads pkey_index; {C_T128} 0x03/0x0A"),
        (ST_RC, RTR, "INIT2RTR_QP", {"mtu": 0}, "mtu 0 (IB MTU is 1..5)", bad, "invalid",
         f"{c}; qpc mtu; IBTA Vol. 1 §11.2.4 path MTU 256..4096 (ib_verbs.h enum ib_mtu 1..5); "
         f"{C_T128} 0x03"),
        (ST_RC, RTR, "INIT2RTR_QP", {"mtu": 6}, "mtu 6", bad, "invalid",
         f"{c}; qpc mtu; ib_verbs.h enum ib_mtu 1..5; {C_T128} 0x03"),
        (ST_RC, RTR, "INIT2RTR_QP", {"mtu": 7}, "mtu 7", bad, "invalid",
         f"{c}; qpc mtu; ib_verbs.h enum ib_mtu 1..5; {C_T128} 0x03"),
        (ST_RC, RTR, "INIT2RTR_QP", {P + "src_addr_index": 7},
         "a primary path whose src_addr_index names GID 7, never set (RoCE needs the source "
         "GID of its GRH)", idx, "acceptable",
         f"{c}; ads src_addr_index; IBTA Vol. 1 Annex A17 (RoCEv2: GRH from the GID table); "
         f"{C_T128} 0x03/0x0A"),
    ]
    for st, target, n, over, what, exp, result, cite in cases:
        fields = dict(ATTRS[(n, st)], **over)
        before = {INIT: RST, RTR: INIT}[target]
        F.test(g, f"{'RC' if st == ST_RC else 'UD'} {n} with {what}: refused, still "
               f"{STATE_NAME[before]}", cite, result,
               [create_qp(st)] + drive(FIRST_QPN, st, before) +
               [modify(n, FIRST_QPN, st, fields, expect=exp), query_state(FIRST_QPN, before)],
               flags=("Handles",) + (("Acceptable",) if result == "acceptable" else ()))
    F.test(g, "RC INIT2RTR after GID 0 was cleared (SET_ROCE_ADDRESS all zero): refused, still "
           "INIT", f"{c}; ads src_addr_index; set_roce_address_in; {C_T128} 0x03/0x0A",
           "acceptable", [create_qp(ST_RC)] + drive(FIRST_QPN, ST_RC, INIT) +
           [set_gid(0, {}), modify("INIT2RTR_QP", FIRST_QPN, ST_RC, expect=idx),
            query_state(FIRST_QPN, INIT)], flags=("Handles", "Acceptable"))
    F.test(g, "RC RTR2RTS with retry_count, rnr_retry, ack_timeout, log_sra_max and PSN all 0 "
           "(each a legal value: 0 retries, infinite timeout, 1 read): OK, RTS, the zeros kept",
           f"{c}; qpc retry_count/rnr_retry/log_sra_max, ads ack_timeout", "valid",
           [create_qp(ST_RC)] + drive(FIRST_QPN, ST_RC, RTR) +
           [modify("RTR2RTS_QP", FIRST_QPN, ST_RC, {k: 0 for k in RC_RTR2RTS}),
            query(FIRST_QPN, dict({k: 0 for k in RC_RTR2RTS}, state=RTS))])
    F.test(g, "UD INIT2RTR with mtu 0 in the qpc (path MTU is no UD attribute): OK, RTR",
           f"{c}; qpc mtu", "valid", [create_qp(ST_UD)] + drive(FIRST_QPN, ST_UD, INIT) +
           [modify("INIT2RTR_QP", FIRST_QPN, ST_UD, {"mtu": 0}), query_state(FIRST_QPN, RTR)])
    F.test(g, "RC RTR2RTS with mtu 0 and port 0 in the qpc (as Linux sends it: neither is an "
           "RTR2RTS attribute): OK, RTS, mtu and port as INIT2RTR left them",
           f"{c}; Linux mlx5 ib qp.c __mlx5_ib_modify_qp (mtu only with IB_QP_PATH_MTU)", "valid",
           [create_qp(ST_RC)] + drive(FIRST_QPN, ST_RC, RTR) +
           [modify("RTR2RTS_QP", FIRST_QPN, ST_RC, dict(RC_RTR2RTS, mtu=0,
                                                        **{P + "vhca_port_num": 0})),
            query(FIRST_QPN, {"state": RTS, "mtu": 3, P + "vhca_port_num": 1})])
    F.test(g, "RC INIT2INIT with PRI_PORT flagged and port 2 (the device has 1): refused, "
           "still INIT, port 1", f"{c}; {C_OPTMASK} (INIT2INIT RC: PRI_PORT optional); {C_T128} 0x03",
           "invalid", [create_qp(ST_RC)] + drive(FIRST_QPN, ST_RC, INIT) +
           [modify("INIT2INIT_QP", FIRST_QPN, ST_RC, {P + "vhca_port_num": 2}, OPT["PRI_PORT"],
                   expect={"status": "BAD_PARAM"}),
            query(FIRST_QPN, {"state": INIT, P + "vhca_port_num": 1})])
    F.test(g, "RC INIT2INIT with PKEY_INDEX flagged and pkey_index 0xFFFF: refused, still INIT, "
           "pkey_index 0", f"{c}; {C_OPTMASK} (INIT2INIT RC: PKEY_INDEX optional); "
           f"{C_T128} 0x03/0x0A", "acceptable", [create_qp(ST_RC)] + drive(FIRST_QPN, ST_RC, INIT) +
           [modify("INIT2INIT_QP", FIRST_QPN, ST_RC, {P + "pkey_index": "0xffff"},
                   OPT["PKEY_INDEX"], expect=idx),
            query(FIRST_QPN, {"state": INIT, P + "pkey_index": 0})],
           flags=("Handles", "Acceptable"))
    F.test(g, "UD INIT2RTR with Q_KEY flagged: OK, RTR, the new q_key taken",
           f"{c}; {C_OPTMASK} (INIT2RTR UD: Q_KEY optional)", "valid",
           [create_qp(ST_UD)] + drive(FIRST_QPN, ST_UD, INIT) +
           [modify("INIT2RTR_QP", FIRST_QPN, ST_UD, {"q_key": "0x6666"}, OPT["Q_KEY"]),
            query(FIRST_QPN, {"state": RTR, "q_key": "0x6666"})])
    F.test(g, "UD INIT2RTR with nothing (IBTA requires no attribute for UD): OK, RTR",
           f"{c}", "valid", [create_qp(ST_UD)] + drive(FIRST_QPN, ST_UD, INIT) +
           [modify("INIT2RTR_QP", FIRST_QPN, ST_UD, {}), query_state(FIRST_QPN, RTR)])

    # optional attributes: taken when flagged, ignored when not
    legal = [
        (ST_RC, INIT, "INIT2INIT_QP", "RWE", {"rwe": 0}, {"rwe": 1}),
        (ST_RC, INIT, "INIT2INIT_QP", "RRE", {"rre": 0}, {"rre": 1}),
        (ST_UD, INIT, "INIT2INIT_QP", "Q_KEY", {"q_key": "0x2222"}, {"q_key": "0x11111111"}),
        (ST_RC, RTR, "RTR2RTS_QP", "RNR_TIMEOUT", dict(RC_RTR2RTS, min_rnr_nak=20),
         {"min_rnr_nak": 12}),
        (ST_UD, RTR, "RTR2RTS_QP", "Q_KEY", dict(UD_RTR2RTS, q_key="0x3333"),
         {"q_key": "0x11111111"}),
        (ST_RC, RTS, "RTS2RTS_QP", "RNR_TIMEOUT", {"min_rnr_nak": 5}, {"min_rnr_nak": 12}),
        (ST_RC, RTS, "RTS2RTS_QP", "RWE", {"rwe": 0}, {"rwe": 1}),
        (ST_UD, RTS, "RTS2RTS_QP", "Q_KEY", {"q_key": "0x4444"}, {"q_key": "0x11111111"}),
    ]
    for st, frm, n, bit, fields, old in legal:
        nm = "RC" if st == ST_RC else "UD"
        to = MOVE[n][1]
        key = [k for k in fields if k not in ATTRS.get((n, st), {})][0] if n == "RTR2RTS_QP" \
            else list(fields)[0]
        F.test(g, f"{nm} {n} with {bit} flagged and {key} = {fields[key]}: OK, taken",
               f"{c}; {C_OPTMASK} ({n} {nm}: {bit} optional)", "valid",
               [create_qp(st)] + drive(FIRST_QPN, st, frm) +
               [modify(n, FIRST_QPN, st, fields, OPT[bit]),
                query(FIRST_QPN, {"state": to, key: fields[key]})])
        F.test(g, f"{nm} {n} with {key} = {fields[key]} in the qpc but {bit} not flagged: OK, "
               f"not taken ({key} stays {old[key]})",
               f"{c}; {C_OPTMASK} (an optional attribute is taken only when flagged)", "valid",
               [create_qp(st)] + drive(FIRST_QPN, st, frm) +
               [modify(n, FIRST_QPN, st, fields, 0),
                query(FIRST_QPN, {"state": to, key: old[key]})])
    # a flag that is not optional for the transition and service type
    illegal = [
        (ST_RC, INIT, "INIT2INIT_QP", "Q_KEY", {"q_key": "0x5555"}, "q_key", 0),
        (ST_RC, INIT, "INIT2INIT_QP", "RETRY_COUNT", {"retry_count": 5}, "retry_count", 0),
        (ST_RC, INIT, "INIT2RTR_QP", "Q_KEY", dict(RC_INIT2RTR, q_key="0x5555"), "q_key", 0),
        (ST_RC, INIT, "INIT2RTR_QP", "RETRY_COUNT", dict(RC_INIT2RTR, retry_count=5),
         "retry_count", 0),
        (ST_RC, RTR, "RTR2RTS_QP", "Q_KEY", dict(RC_RTR2RTS, q_key="0x5555"), "q_key", 0),
        (ST_RC, RTS, "RTS2RTS_QP", "PKEY_INDEX", {P + "pkey_index": 0, "q_key": "0x5555"},
         None, None),
        (ST_RC, RTS, "RTS2RTS_QP", "Q_KEY", {"q_key": "0x5555"}, "q_key", 0),
        (ST_UD, INIT, "INIT2RTR_QP", "RWE", {"rwe": 1}, "rwe", 0),
        (ST_RC, RTS, "RTS2RTS_QP", "PRIMARY_ADDR_PATH", {P + "rgid_rip": GID_V6, P + "hop_limit": 9},
         P + "hop_limit", 64),
        (ST_RC, RTR, "RTR2RTS_QP", "PRIMARY_ADDR_PATH", dict(RC_RTR2RTS, **{P + "hop_limit": 9}),
         P + "hop_limit", 64),
        (ST_UD, RTR, "RTR2RTS_QP", "RNR_TIMEOUT", dict(UD_RTR2RTS, min_rnr_nak=9),
         "min_rnr_nak", 0),
        (ST_UD, RTS, "RTS2RTS_QP", "RRE", {"rre": 1}, "rre", 0),
    ]
    for st, frm, n, bit, fields, key, old in illegal:
        nm = "RC" if st == ST_RC else "UD"
        allowed = " ".join(OPT_MASK[(n, st)])
        after = [query(FIRST_QPN, {key: old})] if key else []
        F.test(g, f"{nm} {n} flagging {bit} (not optional here: {allowed}): refused "
               f"(BAD_PARAM) or the flag ignored (OK); either way "
               f"{key + ' not taken' if key else 'nothing else checked'}",
               f"{c}; {C_OPTMASK} ({n} {nm}); {C_T128} 0x03", "acceptable",
               [create_qp(st)] + drive(FIRST_QPN, st, frm) +
               [modify(n, FIRST_QPN, st, fields, OPT[bit], expect={"any_of": [
                   {"reading": "a flag not optional for the transition is refused",
                    "status": "BAD_PARAM"},
                   {"reading": "the flag is ignored (only opt_mask bits are read)",
                    "status": "OK"}]})] + after, flags=("Handles", "Acceptable"))
    return F


def f_refs():
    F = File("qp_refs", HEADER + ["References a QP holds: its PD, CQs, RMP and UAR cannot be "
                                  "destroyed while the QP exists (in any state), and can after "
                                  "DESTROY_QP."], NOTES)
    g = F.group("default profile", common_setup())
    c = f"{C_IFC} qpc pd/cqn_snd/cqn_rcv/srqn_rmpn_xrqn/uar_page; PRM §3.1 Figure 3; {C_T128} 0x09; D-OBJ-1"
    rmp = cmd("CREATE_RMP", {"state": 1, "wq_type": 1, "pd": PD, "dbr_addr_31_0": "0x34100000",
                             "log_wq_stride": 5, "log_wq_sz": 4, "pas[0]": "0x34000000"},
              ok_out("create_rmp_out", {"rmpn": 1}), length="0x118", layout="create_rmp_in")
    uar6 = cmd("ALLOC_UAR", {}, ok_out("alloc_uar_out", {"uar": UAR2}), layout="alloc_uar_in")
    objs = [
        ("PD 1", [], {}, cmd("DEALLOC_PD", {"pd": PD}, layout="dealloc_pd_in")),
        ("the send CQ 3", [], {"cqn_snd": CQ3}, cmd("DESTROY_CQ", {"cqn": CQ3},
                                                     layout="destroy_cq_in")),
        ("the receive CQ 3", [], {"cqn_rcv": CQ3}, cmd("DESTROY_CQ", {"cqn": CQ3},
                                                        layout="destroy_cq_in")),
        ("RMP 1 (rq_type SRQ)", [rmp], {"rq_type": RQ_SRQ, "srqn_rmpn_xrqn": 1},
         cmd("DESTROY_RMP", {"rmpn": 1}, layout="destroy_rmp_in")),
        ("UAR 6", [uar6], {"uar_page": UAR2}, cmd("DEALLOC_UAR", {"uar": UAR2},
                                                   layout="dealloc_uar_in")),
    ]

    def refused(step):
        s = json.loads(json.dumps(step))
        s["command"]["expect"] = {"status": "BAD_RES_STATE"}
        return s

    for what, pre, over, destroy in objs:
        for st in (RST, RTS, ERR):
            steps = pre + [create_qp(ST_RC, **over)]
            steps += drive(FIRST_QPN, ST_RC, st, over)
            steps += [refused(destroy), query_state(FIRST_QPN, st),
                      cmd("DESTROY_QP", {"qpn": FIRST_QPN}), destroy]
            F.test(g, f"destroying {what} while a QP in {STATE_NAME[st]} names it: "
                   "BAD_RES_STATE, the QP unchanged; after DESTROY_QP it goes", c, "invalid",
                   steps)
    F.test(g, "two QPs on PD 1 and CQ 3: DESTROY_CQ refused until both are destroyed",
           c, "invalid",
           [create_qp(ST_RC, 0, cqn_snd=CQ3), create_qp(ST_UD, 1, cqn_rcv=CQ3),
            refused(objs[1][3]), cmd("DESTROY_QP", {"qpn": 2}), refused(objs[1][3]),
            cmd("DESTROY_QP", {"qpn": 3}), objs[1][3]])
    F.test(g, "the references survive 2RST_QP: DESTROY_CQ of the send CQ is still refused",
           c + "; IBTA Vol. 1 §10.3 (Reset keeps the QP's resources)", "invalid",
           [create_qp(ST_RC, cqn_snd=CQ3)] + drive(FIRST_QPN, ST_RC, RTS, {"cqn_snd": CQ3}) +
           [modify("2RST_QP", FIRST_QPN), refused(objs[1][3]), query_state(FIRST_QPN, RST)])
    return F


def f_gid():
    F = File("qp_gid", HEADER[:1] + ["SET_ROCE_ADDRESS / QUERY_ROCE_ADDRESS: the per-port GID "
                                     "table (roce_addr_layout), its bounds and encodings. Setup: "
                                     "HCA initialized, PD 1, UAR 5, TD 1, EQ 0, CQs 1-3; the "
                                     "table empty."], NOTES)
    g = F.group("default profile", common_setup(gid=False))
    c = f"{C_IFC} set_roce_address_in, query_roce_address_in/out, roce_addr_layout"
    ents = [("IPv4 RoCEv2 (::ffff:192.0.2.1)", 0, gid_entry()),
            ("IPv6 RoCEv2 (2001:db8::1)", 1, gid_entry(GID_V6, v6=True)),
            ("RoCEv1 (version 0) IPv6", 2, gid_entry(GID_V6, v6=True, version=0)),
            ("IPv4 RoCEv2 on VLAN 100", 3, gid_entry(vlan=100)),
            ("IPv4 RoCEv2 at index 255", 255, gid_entry())]
    for what, i, e in ents:
        F.test(g, f"SET_ROCE_ADDRESS {what} at {i}: OK; QUERY_ROCE_ADDRESS returns it",
               f"{c}; MLX5_ROCE_VERSION_*, MLX5_ROCE_L3_TYPE_*", "valid",
               [set_gid(i, e), query_gid(i, ok_out("query_roce_address_out", e))], flags=())
    F.test(g, "SET twice at 4: QUERY returns the second entry", c, "valid",
           [set_gid(4, gid_entry()), set_gid(4, gid_entry(GID_V6, v6=True)),
            query_gid(4, ok_out("query_roce_address_out", gid_entry(GID_V6, v6=True)))],
           flags=())
    zero = {"source_l3_address": "00" * 16, "roce_l3_type": 0, "roce_version": 0,
            "source_mac_47_32": 0, "source_mac_31_0": 0, "vlan_valid": 0, "vlan_id": 0}
    F.test(g, "SET at 5, then SET all zero (how Linux mlx5 deletes a GID): QUERY returns zeros",
           f"{c}; Linux mlx5 ib main.c set_roce_addr(gid NULL)", "valid",
           [set_gid(5, gid_entry()), set_gid(5, {}),
            query_gid(5, ok_out("query_roce_address_out", zero))], flags=())
    F.test(g, "QUERY_ROCE_ADDRESS of entry 7, never set (entry 6 is): zeros, or refused", c, "acceptable",
           [set_gid(6, gid_entry()), query_gid(7, {"any_of": [
               {"reading": "an unset entry reads as zeros",
                "status": "OK", "output": {"layout": "query_roce_address_out", "fields": zero}},
               {"reading": "an unset entry is refused", "status": {"ne": "OK"}}]})],
           flags=("Acceptable",))
    for n, f in (("SET_ROCE_ADDRESS", lambda s: set_gid("0xffff", gid_entry(), s)),
                 ("QUERY_ROCE_ADDRESS", lambda s: query_gid("0xffff", s))):
        F.test(g, f"{n} at index 0xFFFF (beyond any roce_address_table_size): refused",
               f"{c}; hca_cap roce roce_address_table_size; {C_T128} 0x03/0x0A", "acceptable",
               [f({"status": {"in": ["BAD_PARAM", "BAD_INDEX"]}})], flags=("Acceptable",))
    F.test(g, "SET_ROCE_ADDRESS with roce_version 1 (not an MLX5_ROCE_VERSION): BAD_PARAM; "
           "the entry stays empty", f"{c}; MLX5_ROCE_VERSION_1 = 0, _2 = 2; {C_T128} 0x03",
           "invalid", [set_gid(8, gid_entry(version=1), {"status": "BAD_PARAM"}),
                       set_gid(8, gid_entry()),
                       query_gid(8, ok_out("query_roce_address_out", gid_entry()))], flags=())
    F.test(g, "SET_ROCE_ADDRESS with roce_l3_type 2 (not an MLX5_ROCE_L3_TYPE): BAD_PARAM",
           f"{c}; MLX5_ROCE_L3_TYPE_IPV4 = 0, _IPV6 = 1; {C_T128} 0x03", "invalid",
           [set_gid(9, dict(gid_entry(), roce_l3_type=2), {"status": "BAD_PARAM"})], flags=())
    F.test(g, "SET_ROCE_ADDRESS on vhca_port_num 2 (the device has 1 port): refused",
           f"{c} vhca_port_num; hca_cap num_ports; {C_T128} 0x03/0x0A", "acceptable",
           [cmd("SET_ROCE_ADDRESS", dict({"roce_address_index": 0, "vhca_port_num": 2},
                                         **gid_entry()),
                {"status": {"in": ["BAD_PARAM", "BAD_INDEX"]}})], flags=("Acceptable",))
    return F


def f_seed004():
    F = File("qp_seed004", HEADER + ["The seed004 profile (roce_profile 1): RC and UD only, "
                                     "4096 QPs, QP0/QP1 reserved, no RDMA READ."],
             dict(NOTES, Profile={"bugType": "PROFILE", "description":
                                  "The group selects the seed-004 engine (profile roce_profile "
                                  "1, docs/roce.md 'Device profiles'); the default profile's "
                                  "reading is in create.json / transitions.json."}))
    g = F.group("seed004 profile", common_setup(), profile={"roce_profile": 1})
    fl = ("Handles", "Profile")
    for st, nm in ((ST_RC, "RC"), (ST_UD, "UD")):
        steps = [create_qp(st)]
        for n in PATH_TO[RTS]:
            f = dict(ATTRS[(n, st)])
            if st == ST_RC and n == "RST2INIT_QP":
                f["rre"] = 0
            steps.append(modify(n, FIRST_QPN, st, f))
        steps.append(query_state(FIRST_QPN, RTS))
        F.test(g, f"{nm} QP: created (QPN 2) and brought to RTS (no remote read asked)",
               f"{C_S004_OPS}; {C_S004_QP01}; {C_IFC}; {C_STATES}", "valid", steps, fl)
    for st, nm in ((ST_UC, "UC"), (ST_XRC, "XRC")):
        F.test(g, f"CREATE_QP {nm}: refused (the engine has RC and UD only); no QP",
               f"{C_S004_OPS}; qp.h MLX5_QP_ST_{nm}; {C_T128} 0x02/0x03", "acceptable",
               [create_qp(st, expect={"status": {"in": ["BAD_PARAM", "BAD_OP"]}}),
                create_qp(ST_RC)], ("Handles", "Profile", "Acceptable"))
    F.test(g, "CREATE_QP eight times: every QPN in 2..4095 (4096 QPs, QP0/QP1 reserved)",
           f"{C_S004_NUM}; {C_S004_QP01}", "valid",
           [create_qp(ST_RC, k, expect=ok_out("create_qp_out", {"qpn": {"ge": 2, "le": 4095}}))
            for k in range(8)], ("Profile",))
    F.test(g, "RC RST2INIT asking remote READ (rre 1), which the engine does not serve: "
           "refused (BAD_PARAM) or accepted; no other status",
           f"{C_S004_OPS}; {C_IFC} qpc rre", "acceptable",
           [create_qp(ST_RC), modify("RST2INIT_QP", FIRST_QPN, ST_RC, expect={"any_of": [
               {"reading": "an access the engine cannot serve is refused", "status": "BAD_PARAM"},
               {"reading": "accepted; READ requests are NAKed later", "status": "OK"}]})],
           ("Handles", "Profile", "Acceptable"))
    F.test(g, "RC RST2INIT asking remote atomics (rae 1), which the engine does not serve: "
           "refused (BAD_PARAM) or accepted; no other status",
           f"{C_S004_OPS}; {C_IFC} qpc rae", "acceptable",
           [create_qp(ST_RC), modify("RST2INIT_QP", FIRST_QPN, ST_RC,
                                     dict(RC_RST2INIT, rre=0, rae=1), expect={"any_of": [
               {"reading": "an access the engine cannot serve is refused", "status": "BAD_PARAM"},
               {"reading": "accepted; atomic requests are NAKed later", "status": "OK"}]})],
           ("Handles", "Profile", "Acceptable"))
    return F


FILES = {"create.json": f_create, "transitions.json": f_transitions, "attrs.json": f_attrs,
         "refs.json": f_refs, "gid.json": f_gid, "seed004.json": f_seed004}


# ---- self-checks ---------------------------------------------------------------------------
def self_check(docs):
    """Facts this generator relies on, checked before anything is written."""
    problems = []
    # the state machine: every modify command has one target; 2ERR/2RST from every state
    for n in MODIFY:
        if n not in OP or n not in LAYOUT:
            problems.append(f"{n}: no opcode or layout")
    if set(OP.values()) != {0x500, 0x501, 0x502, 0x503, 0x504, 0x505, 0x506, 0x507, 0x50A,
                            0x50B, 0x50C, 0x50E, 0x760, 0x761}:
        problems.append("opcodes differ from mlx5_ifc.h")
    # the chains reach the state they claim
    for target, path in PATH_TO.items():
        s = RST
        for n in path:
            if s not in MOVE[n][0]:
                problems.append(f"path to {target}: {n} from {s}")
            s = MOVE[n][1]
        if s != target:
            problems.append(f"path to {target} ends in {s}")
    # optional-attribute tables: every legal flag is in opt_mask, every illegal one is not
    for (n, st), bits in OPT_MASK.items():
        for b in bits:
            if b not in OPT:
                problems.append(f"{n}: unknown optpar {b}")
    for name, d in docs.items():
        ids = [t["tcId"] for g in d["testGroups"] for t in g["tests"]]
        if ids != list(range(1, len(ids) + 1)):
            problems.append(f"{name}: tcIds not 1..n")
        for g in d["testGroups"]:
            for t in g["tests"]:
                for fl in t["flags"]:
                    if fl not in d["notes"]:
                        problems.append(f"{name}#{t['tcId']}: flag {fl} has no note")
                s = json.dumps(t)
                if t["result"] == "acceptable" and '"in": [' not in s and '"any_of"' not in s:
                    problems.append(f"{name}#{t['tcId']}: acceptable without a matcher")
                if not t["cite"]:
                    problems.append(f"{name}#{t['tcId']}: no cite")
    return problems


# The model's rule for each refusal a test makes on purpose, by the test's comment (its first
# words) and the opcode of the refused step. The names and what each covers are docs/roce.md's
# "Rule names" table (the model's vocabulary, not its output); a refusal the public material
# leaves open (`any_of`) names the rule in its refusing reading only. QP_EXHAUSTED needs 4,094
# CREATE_QP in one test: the unit test qp_create::seed004_holds_4094_qps covers it.
RULE_OF = [
    ("create.json", "DESTROY_QP: OK; QUERY_QP, a transition", None, "QP_NOT_FOUND"),
    ("create.json", "CREATE_QP with pd 9", "CREATE_QP", "QP_PD_MISSING"),
    ("create.json", "CREATE_QP with cqn_snd 9", "CREATE_QP", "QP_CQ_MISSING"),
    ("create.json", "CREATE_QP with cqn_rcv 9", "CREATE_QP", "QP_CQ_MISSING"),
    ("create.json", "CREATE_QP with uar_page 9", "CREATE_QP", "QP_UAR_MISSING"),
    ("create.json", "CREATE_QP with rq_type SRQ naming RMP 4", "CREATE_QP", "QP_RMP_MISSING"),
    ("create.json", "CREATE_QP with st 0xFF", "CREATE_QP", "QP_ST_UNSUPPORTED"),
    ("create.json", "CREATE_QP with rq_type 4", "CREATE_QP", "QP_RQ_TYPE_BAD"),
    ("create.json", "CREATE_QP with rq_type 7", "CREATE_QP", "QP_RQ_TYPE_BAD"),
    ("create.json", "CREATE_QP with log_sq_size 9", "CREATE_QP", "QP_SIZE_EXCEEDS_CAP"),
    ("create.json", "CREATE_QP with log_rq_size 9", "CREATE_QP", "QP_SIZE_EXCEEDS_CAP"),
    ("create.json", "CREATE_QP with log_sq_size 8 (a 1 KB RQ", "CREATE_QP", "QP_PAS_SHORT"),
    ("transitions.json", "RC: INIT2INIT_QP on a QP in RST", "INIT2INIT_QP", "QP_STATE_MISMATCH"),
    ("transitions.json", "UD: RTR2RTS_QP on a QP in INIT", "RTR2RTS_QP", "QP_STATE_MISMATCH"),
    ("attrs.json", "RC RST2INIT_QP with port 0", "RST2INIT_QP", "QP_PORT_BAD"),
    ("attrs.json", "RC RST2INIT_QP with port 2", "RST2INIT_QP", "QP_PORT_BAD"),
    ("attrs.json", "RC RST2INIT_QP with pkey_index 0xFFFF", "RST2INIT_QP", "QP_PKEY_INDEX_BAD"),
    ("attrs.json", "RC INIT2RTR_QP with mtu 0", "INIT2RTR_QP", "QP_MTU_BAD"),
    ("attrs.json", "RC INIT2RTR_QP with mtu 7", "INIT2RTR_QP", "QP_MTU_BAD"),
    ("attrs.json", "RC INIT2RTR_QP with a primary path whose src_addr_index", "INIT2RTR_QP",
     "QP_SGID_BAD"),
    ("attrs.json", "RC INIT2INIT_QP flagging Q_KEY", "INIT2INIT_QP", "QP_OPT_PARAM_BAD"),
    ("gid.json", "SET_ROCE_ADDRESS at index 0xFFFF", "SET_ROCE_ADDRESS", "ROCE_ADDR_INDEX_BAD"),
    ("gid.json", "QUERY_ROCE_ADDRESS at index 0xFFFF", "QUERY_ROCE_ADDRESS",
     "ROCE_ADDR_INDEX_BAD"),
    ("gid.json", "SET_ROCE_ADDRESS with roce_version 1", "SET_ROCE_ADDRESS",
     "ROCE_ADDR_VERSION_BAD"),
    ("gid.json", "SET_ROCE_ADDRESS with roce_l3_type 2", "SET_ROCE_ADDRESS",
     "ROCE_ADDR_L3_TYPE_BAD"),
    ("gid.json", "SET_ROCE_ADDRESS on vhca_port_num 2", "SET_ROCE_ADDRESS", "ROCE_ADDR_PORT_BAD"),
    ("seed004.json", "RC RST2INIT asking remote READ", "RST2INIT_QP",
     "QP_REMOTE_ACCESS_UNSUPPORTED"),
    ("seed004.json", "RC RST2INIT asking remote atomics", "RST2INIT_QP",
     "QP_REMOTE_ACCESS_UNSUPPORTED"),
]


def name_rules(docs):
    """Adds `rule` to the refused steps RULE_OF names; a row that matches no refusal is a
    generator bug."""
    problems = []
    for fname, prefix, opcode, rule in RULE_OF:
        hits = 0
        for g in docs[fname]["testGroups"]:
            for t in g["tests"]:
                if not t["comment"].startswith(prefix):
                    continue
                for step in t["steps"]:
                    c = step.get("command")
                    if not c or (opcode and c.get("fields", {}).get("opcode") != opcode):
                        continue
                    # the generator shares expectation dicts between tests: name a copy
                    e = c["expect"] = copy.deepcopy(c["expect"])
                    for alt in e.get("any_of", [e]):
                        if alt.get("status") not in (None, "OK"):
                            alt["rule"] = rule
                            hits += 1
        if not hits:
            problems.append(f"{fname}: no refusal for {prefix!r} ({rule})")
    return problems


def render(d):
    return json.dumps(d, indent=1, ensure_ascii=False) + "\n"


def main(argv):
    check = "--check" in argv
    docs = {name: fn().doc() for name, fn in FILES.items()}
    problems = name_rules(docs) + self_check(docs)
    if problems:
        for p in problems:
            print(f"gen_qp: {p}", file=sys.stderr)
        return 1
    bad = 0
    for name, d in docs.items():
        path = os.path.join(OUT, name)
        text = render(d)
        if check:
            try:
                with open(path, encoding="utf-8") as fh:
                    same = fh.read() == text
            except OSError:
                same = False
            if not same:
                print(f"gen_qp: vectors/qp/{name} differs from the generator's output "
                      "(regenerate it)", file=sys.stderr)
                bad = 1
        else:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
    if not bad:
        n = sum(d["numberOfTests"] for d in docs.values())
        print(f"gen_qp: {len(docs)} files, {n} tests {'match' if check else 'written'}")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

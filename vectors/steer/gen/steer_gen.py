#!/usr/bin/env python3
"""Writes the flow steering vectors (vectors/steer/*.json) from the rules of ConnectX-4 PRM
Rev 0.40 §7.11 and §12.14 (T383-T456) and the default capabilities (docs/caps.md: T149/T151).

Every expectation below is the PRM's (the cite of each test says where); the model's output is
never read here. Run: python3 vectors/steer/gen/steer_gen.py (from the repository root); the
files it writes are committed, and re-running it must leave them unchanged."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)  # --check DIR: write there instead (make steer-gen-check compares)
ROOT = os.path.dirname(os.path.dirname(OUT))

RX, TX = 0, 1
ALLOW, DROP, FWD, COUNT = 1, 2, 4, 8
DEST_FT, DEST_TIR = 1, 2
FTE_FIXED = 0x340  # T427: the flow context at 40h, its list at 300h of it


OLEN = {"query_flow_table_in": 0x40, "query_flow_group_in": 0x400,
        "query_flow_table_entry_in": 0x340, "query_flow_counter_in": 0x20}


def ip4(v):
    """A 128-bit address field holding an IPv4 address (T413: the last dword, 96 bits of 0)."""
    return "%032x" % v


def cmd(layout, fields, status="OK", rule=None, length=None, olen=None, out=None, op_mod=0,
        alts=None):
    """alts: [(reading, status, rule or None), ...], the outcomes the readings of an open point
    allow (an any_of, the model's decision first; the test is then `acceptable`)."""
    if alts:
        c = cmd(layout, fields, length=length, olen=olen, op_mod=op_mod)
        exp = c[0]["command"]["expect"]
        del exp["status"], exp["syndrome"]
        exp["any_of"] = []
        for reading, st, ru in alts:
            a = {"reading": reading, "status": st}
            if st == "OK":
                a["syndrome"] = 0
            if ru:
                a["rule"] = ru
            exp["any_of"].append(a)
        done = c[1]["events"]["expect"][0]
        if not any(ru == "RESERVED_NOT_ZERO" for _, _, ru in alts):
            sts = sorted({st for _, st, _ in alts})
            done["status"] = sts[0] if len(sts) == 1 else {"in": sts}
            c[1]["events"] = {"exact": False, "expect": [done]}
            return c
        # A reserved-bit refusal reports CMD_RESERVED_NOT_ZERO violations (D-CMD-8) first: each
        # reading's events are listed whole.
        evs = []
        for reading, st, ru in alts:
            d = dict(done, status=st)
            e = [d]
            if ru:
                e = [{"event": "cmd_fail", "slot": 0, "opcode": d["opcode"], "rule": ru}, d]
            if ru == "RESERVED_NOT_ZERO":
                e = [{"event": "violation", "rule": "CMD_RESERVED_NOT_ZERO"}] + e
            evs.append({"reading": reading, "exact": False, "expect": e})
        c[1]["events"] = {"any_of": evs}
        return c
    op = layout[:-3].upper()
    f = {"opcode": op}
    if op_mod:
        f["op_mod"] = op_mod
    f.update(fields)
    c = {"layout": layout, "fields": f}
    if length is not None:
        c["length"] = hex(length)
    if olen is None:
        olen = OLEN.get(layout)
    if olen is not None:
        c["output_length"] = hex(olen)
    exp = {"delivery": "OK", "ownership": 0, "status": status}
    if status == "OK":
        exp["syndrome"] = 0
    if rule:
        exp["rule"] = rule
    if out:
        exp["output"] = {"layout": layout[:-3] + "_out", "fields": out}
    c["expect"] = exp
    done = {"event": "cmd_done", "slot": 0, "opcode": op, "delivery": "OK", "status": status}
    if op_mod:
        done["op_mod"] = op_mod
    ev = [done]
    if rule:
        ev = [{"event": "cmd_fail", "slot": 0, "opcode": op, "rule": rule}, done]
    # A status the spec leaves open (a comparator): a refusal traces cmd_fail first, so the
    # trace is matched loosely (the completion, whatever precedes it).
    return [{"command": c}, {"events": {"exact": not isinstance(status, dict), "expect": ev}}]


def ft(type=RX, level=0, log_size=4, miss=0, miss_id=0, **kw):
    f = {"table_type": type, "level": level, "log_size": log_size}
    if miss:
        f["table_miss_action"] = miss
    if miss_id:
        f["table_miss_id"] = miss_id
    return cmd("create_flow_table_in", f, **kw)


def tbl(layout, table, type=RX, extra=None, **kw):
    f = {"table_type": type, "table_id": table}
    f.update(extra or {})
    return cmd(layout, f, **kw)


def fg(table, start, end, enable=0, crit=None, type=RX, **kw):
    f = {"table_type": type, "table_id": table, "start_flow_index": start, "end_flow_index": end}
    if enable:
        f["match_criteria_enable"] = enable
    f.update(crit or {})
    return cmd("create_flow_group_in", f, **kw)


def fte(table, index, group, action, dests=(), cnts=(), tag=0, match=None, type=RX, op_mod=0,
        mask=None, nd=None, nc=None, length=None, **kw):
    f = {"table_type": type, "table_id": table, "flow_index": index, "group_id": group,
         "action": action}
    if tag:
        f["flow_tag"] = tag
    if mask is not None:
        f["modify_enable_mask"] = mask
    nd = len(dests) if nd is None else nd
    nc = len(cnts) if nc is None else nc
    if nd:
        f["destination_list_size"] = nd
    if nc:
        f["flow_counter_list_size"] = nc
    for k, (t, i) in enumerate(dests):
        f["list[%d]" % (2 * k)] = hex(t << 24 | i)
    for k, i in enumerate(cnts):
        f["list[%d]" % (2 * (len(dests) + k))] = i
    f.update(match or {})
    n = len(dests) + len(cnts)
    return cmd("set_flow_table_entry_in", f, op_mod=op_mod,
               length=length if length is not None else (FTE_FIXED + 8 * n if n else None), **kw)


def qfte(table, index, type=RX, **kw):
    return cmd("query_flow_table_entry_in", {"table_type": type, "table_id": table,
                                             "flow_index": index}, **kw)


def dfte(table, index, type=RX, **kw):
    return cmd("delete_flow_table_entry_in", {"table_type": type, "table_id": table,
                                              "flow_index": index}, **kw)


def fc_alloc(id_, **kw):
    return cmd("alloc_flow_counter_in", {}, out={"flow_counter_id": id_} if id_ else None, **kw)


def fc_query(id_, clear=0, num=0, **kw):
    f = {"flow_counter_id": id_}
    if clear:
        f["clear"] = 1
    if num:
        f["num_of_counters"] = num
    return cmd("query_flow_counter_in", f, **kw)


def steps(*parts):
    s = []
    for p in parts:
        s += p
    return s


def base_setup():
    """tir.json group 0 (PD, TD, UAR, 16 ICM pages, EQ, CQ, RQs 1-2, RQT 1) and TIRs 1 and 2,
    Direct to RQ 1 and RQ 2."""
    with open(os.path.join(ROOT, "vectors", "tir", "tir.json")) as fh:
        setup = list(json.load(fh)["testGroups"][0]["setup"])
    for rq in (1, 2):
        setup += cmd("create_tir_in", {"disp_type": 0, "inline_rqn": rq, "transport_domain": 1},
                     out={"tirn": rq})
    return setup


NOTES = {
    "Handles": {"bugType": "PROFILE", "description":
                "The test names objects by the numbers CREATE/ALLOC returned in the same test or its "
                "setup: the model hands out the lowest free number of each type from 1 (flow tables, "
                "groups and counters too; D-OBJ-2, D-FT-12, D-FC-1). A device numbering otherwise "
                "needs the numbers substituted."},
    "Caps": {"bugType": "PROFILE", "description":
             "The expectation follows from the PRM rule and a capability of the default profile "
             "(docs/caps.md, T149/T151): NIC_RX log_max_ft_size 16, max_ft_level 64, "
             "log_max_destination 6, log_max_flow_counter 0 (one counter per flow), flow_tag, "
             "flow_counter, modify bits 1; NIC_TX log_max_destination 0, flow_tag 0, flow_counter 0; "
             "nic_rx_multi_path_tirs(_fts) 1; max_flow_counter 0xFFFF, log_max_flow_counter_bulk 8."},
    "Decision": {"bugType": "AMBIGUOUS_SPEC", "description":
                 "The PRM requires the refusal but leaves the status open or can be read two ways; "
                 "the expectation follows the decision named in the cite (docs/steer.md)."},
}

CITE_FT = "PRM §12.14.1 T383-T388; §7.11.3.1"

# The readings of the decisions the vectors accept both ways (docs/steer.md), the model's first.
D_FT_8 = [("D-FT-8: the explicit root cannot be destroyed", "BAD_RES_STATE", "FT_IS_ROOT"),
          ("D-FT-8 other: an empty root, destroy allowed", "OK", None)]
D_FT_12 = [("D-FT-12: a table another names cannot be destroyed", "BAD_RES_STATE", "FT_IN_USE"),
           ("D-FT-12 other: §12.14.3 'semantics of an empty table'", "OK", None)]
D_FT_15_DEST = [("D-FT-15: a list without FWD_DEST is refused", "BAD_PARAM", "FTE_DEST_SIZE"),
                ("D-FT-15 other: T430 10h 'Valid only when FWD_DEST', ignored", "OK", None)]
D_FT_15_CNT = [("D-FT-15: counters without COUNT are refused", "BAD_PARAM", "FTE_COUNTER_SIZE"),
               ("D-FT-15 other: T430 14h 'Valid when action [COUNT] is set', ignored", "OK", None)]
D_FT_23_OWN = [("D-FT-23: an unselected field equal to the table's is taken", "OK", None),
               ("D-MOD-1 (a) by analogy: unselected fields are reserved", "BAD_PARAM",
                "RESERVED_NOT_ZERO")]
D_FT_23_OTHER = [("D-FT-23: another level is a change the command cannot make", "BAD_PARAM",
                  "FT_MODIFY_UNSELECTED"),
                 ("D-MOD-1 (a) by analogy: unselected fields are reserved", "BAD_PARAM",
                  "RESERVED_NOT_ZERO"),
                 ("T390: only the selected fields are used", "OK", None)]


def T(comment, cite, result, s, flags=("Handles",)):
    return {"comment": comment, "cite": cite, "flags": list(flags), "result": result, "steps": s}


def table_tests():
    t = []
    t.append(T("CREATE_FLOW_TABLE NIC_RX level 0, 16 flows; QUERY_FLOW_TABLE returns the context",
               "PRM §12.14.1 T383-T388; §12.14.5 T401-T404", "valid",
               steps(ft(out=None), tbl("query_flow_table_in", 1,
                                       out={"level": 0, "log_size": 4, "table_miss_action": 0,
                                            "table_miss_id": 0}))))
    t.append(T("CREATE_FLOW_TABLE NIC_TX with an identified miss table of a higher level",
               "PRM §12.14.1 T388 00h[27:24], 04h", "valid",
               steps(ft(TX, level=2), ft(TX, level=1, miss=1, miss_id=1),
                     tbl("query_flow_table_in", 2, TX,
                         out={"level": 1, "table_miss_action": 1, "table_miss_id": 1}))))
    t.append(T("table_type 2 → BAD_PARAM", "PRM §12.14.1 T384 10h[31:24]", "invalid",
               ft(2, status="BAD_PARAM", rule="FT_TYPE_INVALID"), []))
    t.append(T("log_size 17 above log_max_ft_size 16 → EXCEED_LIM", "PRM §7.11.3.1; T151 04h[29:24]",
               "invalid", ft(log_size=17, status="EXCEED_LIM", rule="FT_LOG_SIZE_TOO_LARGE"), ["Caps"]))
    t.append(T("level 65 above max_ft_level 64 → EXCEED_LIM", "PRM §7.11.3.3; T151 04h[7:0]", "invalid",
               ft(level=65, status="EXCEED_LIM", rule="FT_LEVEL_TOO_HIGH"), ["Caps"]))
    t.append(T("a second NIC_RX table of level 0 → BAD_PARAM, also when its miss names table 0 "
               "(BAD_INDEX) or 9 (BAD_RESOURCE): the field checks come first (D-CMD-7 step 6); a "
               "NIC_TX one is allowed",
               "PRM §7.11.3.2 'Only a single Flow Table with level 0 is allowed'; T128 (D-CMD-7)",
               "invalid",
               steps(ft(), ft(status="BAD_PARAM", rule="FT_SECOND_LEVEL0"),
                     ft(miss=1, miss_id=0, status="BAD_PARAM", rule="FT_SECOND_LEVEL0"),
                     ft(miss=1, miss_id=9, status="BAD_PARAM", rule="FT_SECOND_LEVEL0"), ft(TX))))
    t.append(T("table_miss_action 2 → BAD_PARAM", "PRM §12.14.1 T388 00h[27:24]", "invalid",
               ft(miss=2, status="BAD_PARAM", rule="FT_MISS_ACTION"), []))
    t.append(T("identified miss table_miss_id 0 (outside the handles) → BAD_INDEX",
               "PRM §12.14.1 T388 04h; T128", "invalid",
               ft(miss=1, miss_id=0, status="BAD_INDEX", rule="FT_MISS_OUT_OF_RANGE")))
    t.append(T("identified miss to table 7, not allocated → BAD_RESOURCE; to a NIC_TX table from "
               "NIC_RX → BAD_RESOURCE ('Table type of miss_table_id must be the same')",
               "PRM §12.14.1 T388 04h", "invalid",
               steps(ft(miss=1, miss_id=7, status="BAD_RESOURCE", rule="FT_MISS_NOT_FOUND"),
                     ft(TX, level=5),
                     ft(level=1, miss=1, miss_id=1, status="BAD_RESOURCE", rule="FT_MISS_NOT_FOUND"))))
    t.append(T("miss table of the same level → BAD_PARAM (must be > current table level)",
               "PRM §12.14.1 T388 04h; §7.11.3.3", "invalid",
               steps(ft(level=3), ft(level=3, miss=1, miss_id=1, status="BAD_PARAM",
                                      rule="FT_MISS_LEVEL"))))
    t.append(T("QUERY_FLOW_TABLE table_id 0 → BAD_INDEX; an unallocated id → BAD_RESOURCE; a NIC_RX "
               "table queried as NIC_TX → BAD_RESOURCE", "PRM §12.14.5 T402 14h; T386; T128",
               "invalid",
               steps(ft(), tbl("query_flow_table_in", 0, status="BAD_INDEX", rule="FT_ID_OUT_OF_RANGE"),
                     tbl("query_flow_table_in", 2, status="BAD_RESOURCE", rule="FT_NOT_FOUND"),
                     tbl("query_flow_table_in", 1, TX, status="BAD_RESOURCE", rule="FT_NOT_FOUND"))))
    # D-FT-12: §7.11.3.8 and §12.14.3 do not refuse destroying a table another names (the
    # device "maintains the semantics of an empty table"); FT_IN_USE is the model's decision,
    # so the destroy of a named table accepts both and ends the test.
    t.append(T("MODIFY_FLOW_TABLE bit 0: the miss goes to table 2, then back to the default, and "
               "table 2 can go; a new table 2 (level 2) named by table 1's miss: DESTROY_FLOW_TABLE is BAD_RES_STATE "
               "(D-FT-12, the model) or OK (§12.14.3 'the device maintains the semantics of an "
               "empty table')",
               "PRM §12.14.2 T389/T390 0Ch bit 0; §7.11.3.8, §12.14.3 (D-FT-12)", "acceptable",
               steps(ft(), ft(level=1),
                     tbl("modify_flow_table_in", 1, extra={"modify_field_select": 1,
                                                           "table_miss_action": 1, "table_miss_id": 2}),
                     tbl("query_flow_table_in", 1, out={"table_miss_action": 1, "table_miss_id": 2}),
                     tbl("modify_flow_table_in", 1, extra={"modify_field_select": 1}),
                     tbl("query_flow_table_in", 1, out={"table_miss_action": 0, "table_miss_id": 0}),
                     tbl("destroy_flow_table_in", 2), ft(level=2),
                     tbl("modify_flow_table_in", 1, extra={"modify_field_select": 1,
                                                           "table_miss_action": 1, "table_miss_id": 2}),
                     tbl("destroy_flow_table_in", 2, alts=D_FT_12)), ["Handles", "Decision"]))
    t.append(T("MODIFY_FLOW_TABLE modify_field_select bit 1 → BAD_PARAM, also of table 9, not "
               "allocated (the field before the object, D-CMD-7 step 6)",
               "PRM §12.14.2 T390 0Ch ('Bit 0x0: table_miss_action/table_miss_id'); T128 (D-CMD-7)",
               "invalid",
               steps(ft(), tbl("modify_flow_table_in", 1, extra={"modify_field_select": 2},
                                status="BAD_PARAM", rule="FT_MODIFY_SELECT"),
                     tbl("modify_flow_table_in", 9, extra={"modify_field_select": 2},
                         status="BAD_PARAM", rule="FT_MODIFY_SELECT"))))
    t.append(T("MODIFY_FLOW_TABLE to a miss table of a lower level → BAD_PARAM, nothing changes",
               "PRM §12.14.2; T388 04h; §7.11.3.3", "invalid",
               steps(ft(level=2), ft(level=1),
                     tbl("modify_flow_table_in", 1, extra={"modify_field_select": 1,
                                                           "table_miss_action": 1, "table_miss_id": 2},
                         status="BAD_PARAM", rule="FT_MISS_LEVEL"),
                     tbl("query_flow_table_in", 1, out={"table_miss_action": 0}))))
    t.append(T("DESTROY_FLOW_TABLE of a table holding a group → BAD_RES_STATE; after the group, OK",
               "PRM §7.11.3.8; §12.14.3", "invalid",
               steps(ft(), fg(1, 0, 3),
                     tbl("destroy_flow_table_in", 1, status="BAD_RES_STATE", rule="FT_HAS_GROUPS"),
                     tbl("destroy_flow_group_in", 1, extra={"group_id": 1}),
                     tbl("destroy_flow_table_in", 1),
                     tbl("query_flow_table_in", 1, status="BAD_RESOURCE", rule="FT_NOT_FOUND"))))
    t.append(T("SET_FLOW_TABLE_ROOT to a level-5 table, then to a level-6 one: the old root can go; "
               "destroying the explicit root is BAD_RES_STATE (D-FT-8, the model) or OK (an empty "
               "root: nothing in §7.11.3.8 or §12.14.3 forbids it)",
               "PRM §7.11.3.2; §12.14.4 T397-T400; §7.11.3.8 (D-FT-8)", "acceptable",
               steps(ft(level=5), ft(level=6), tbl("set_flow_table_root_in", 1),
                     tbl("set_flow_table_root_in", 2), tbl("destroy_flow_table_in", 1),
                     tbl("destroy_flow_table_in", 2, alts=D_FT_8)),
               ["Handles", "Decision"]))
    t.append(T("SET_FLOW_TABLE_ROOT of an unallocated table → BAD_RESOURCE",
               "PRM §12.14.4 T398 14h; T128", "invalid",
               tbl("set_flow_table_root_in", 3, status="BAD_RESOURCE", rule="FT_NOT_FOUND")))
    # D-FT-23: T390 gives MODIFY_FLOW_TABLE the whole context at 18h and says only that the select
    # "indicates which fields to modify"; nothing makes the others reserved (D-MOD-1 quotes that
    # text for six other commands). The readings differ on a non-zero unselected field.
    t.append(T("MODIFY_FLOW_TABLE bit 0 of a level-3 table of 2^2 flows with its own level 3 and "
               "log_size 2 written back: OK (D-FT-23: the table's own value asks no change; or the "
               "unselected fields are not used) or BAD_PARAM (they are reserved, as D-MOD-1 reads "
               "other MODIFY commands); level and log_size stay",
               "PRM §12.14.2 T390 0Ch, 18h; T387 (D-FT-23)", "acceptable",
               steps(ft(level=3, log_size=2), ft(level=4),
                     tbl("modify_flow_table_in", 1, extra={"modify_field_select": 1, "level": 3,
                                                           "log_size": 2, "table_miss_action": 1,
                                                           "table_miss_id": 2}, alts=D_FT_23_OWN),
                     tbl("query_flow_table_in", 1, out={"level": 3, "log_size": 2})),
               ["Handles", "Decision"]))
    t.append(T("MODIFY_FLOW_TABLE bit 0 of a level-3 table with level 5: BAD_PARAM (D-FT-23: level "
               "cannot be modified; or reserved) or OK (the unselected field is not used); the level "
               "stays 3",
               "PRM §12.14.2 T390 0Ch, 18h; T387 (D-FT-23)", "acceptable",
               steps(ft(level=3),
                     tbl("modify_flow_table_in", 1, extra={"modify_field_select": 1, "level": 5},
                         alts=D_FT_23_OTHER),
                     tbl("query_flow_table_in", 1, out={"level": 3, "table_miss_action": 0})),
               ["Handles", "Decision"]))
    return t


def caps_groups(setup):
    g = []

    def grp(comment, caps, tests):
        g.append({"comment": comment, "caps": caps, "setup": setup, "tests": tests})

    grp("nic_rx_multi_path_tirs = 0", {"flow_table_nic_cap.nic_rx_multi_path_tirs": 0},
        [T("two TIR destinations → BAD_PARAM", "PRM §7.11.4.1; T149 00h[31]", "invalid",
           steps(ft(), fg(1, 0, 3),
                 fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1), (DEST_TIR, 2)], status="BAD_PARAM",
                     rule="FTE_MULTI_TIRS_UNSUPPORTED"),
                 fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1)])), ["Caps", "Handles"])])
    grp("nic_rx_multi_path_tirs = 0, nic_rx_multi_path_tirs_fts = 1",
        {"flow_table_nic_cap.nic_rx_multi_path_tirs": 0},
        [T("two TIRs followed by a flow table of level 64 → OK ('In case of "
           "HCA_CAP.nic_rx_multi_path_tirs_fts = 1, multiple processing paths are supported also "
           "for single/multiple TIRs followed by single/multiple Flow Tables')",
           "PRM §7.11.4.1; T149 00h[30]", "valid",
           steps(ft(), ft(level=64), fg(1, 0, 3),
                 fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1), (DEST_TIR, 2), (DEST_FT, 2)])),
           ["Caps", "Handles"])])
    grp("nic_rx_multi_path_tirs_fts = 0", {"flow_table_nic_cap.nic_rx_multi_path_tirs_fts": 0},
        [T("a TIR then a flow table → BAD_PARAM ('must be comprised of destinations of the same type')",
           "PRM §7.11.3.6; §7.11.4.1; T149 00h[30]", "invalid",
           steps(ft(), ft(level=64), fg(1, 0, 3),
                 fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1), (DEST_FT, 2)], status="BAD_PARAM",
                     rule="FTE_DEST_MIXED")), ["Caps", "Handles"])])
    # The per-type properties (T151) inside T149's blocks: caps name them by their dotted path
    # (docs/vectors.md, caps). Each group lowers NIC_RX's and checks NIC_TX is untouched.
    RXP = "flow_table_nic_cap.flow_table_properties_nic_receive."
    grp("NIC_RX ft_support = 0", {RXP + "ft_support": 0},
        [T("CREATE_FLOW_TABLE NIC_RX → BAD_PARAM; NIC_TX still OK",
           "PRM §7.11.3.1; T151 00h[31] ft_support", "invalid",
           steps(ft(status="BAD_PARAM", rule="FT_TYPE_UNSUPPORTED"), ft(TX)), ["Caps", "Handles"])])
    grp("NIC_RX identified_miss_table = 0", {RXP + "identified_miss_table": 0},
        [T("CREATE_FLOW_TABLE NIC_RX with table_miss_action 1 → BAD_PARAM; the default miss is OK",
           "PRM §12.14.1 T388 00h[27:24]; T151 00h[26]", "invalid",
           steps(ft(level=1), ft(miss=1, miss_id=1, status="BAD_PARAM", rule="FT_MISS_UNSUPPORTED"),
                 ft()), ["Caps", "Handles"])])
    grp("NIC_RX flow_table_modify = 0", {RXP + "flow_table_modify": 0},
        [T("MODIFY_FLOW_TABLE on NIC_RX → BAD_OP ('Supported only when flow_table_modify==1')",
           "PRM §12.14.2; T151 00h[25]", "invalid",
           steps(ft(), ft(level=1),
                 tbl("modify_flow_table_in", 1, extra={"modify_field_select": 1, "table_miss_action": 1,
                                                       "table_miss_id": 2},
                     status="BAD_OP", rule="FT_MODIFY_UNSUPPORTED"),
                 tbl("query_flow_table_in", 1, out={"table_miss_action": 0})), ["Caps", "Handles"])])
    grp("NIC_RX modify_root = 0", {RXP + "modify_root": 0},
        [T("SET_FLOW_TABLE_ROOT on NIC_RX → BAD_OP ('indicated by HCA_CAP.modify_root')",
           "PRM §7.11.3.2; T151 00h[27]", "invalid",
           steps(ft(level=1), tbl("set_flow_table_root_in", 1, status="BAD_OP",
                                  rule="FT_ROOT_UNSUPPORTED")), ["Caps", "Handles"])])
    grp("NIC_RX flow_modify_en = 0", {RXP + "flow_modify_en": 0},
        [T("SET_FLOW_TABLE_ENTRY op_mod 1 on NIC_RX → BAD_OP; the entry stays as set",
           "PRM §12.14.9 T428 04h ('Valid only when modify_flow_en==1'); T151 00h[28]", "invalid",
           steps(ft(), fg(1, 0, 3), fte(1, 0, 1, ALLOW),
                 fte(1, 0, 1, DROP, op_mod=1, mask=1, status="BAD_OP", rule="FTE_MODIFY_UNSUPPORTED"),
                 qfte(1, 0, out={"action": ALLOW})), ["Caps", "Handles"])])
    grp("NIC_RX log_max_ft_num = 1", {RXP + "log_max_ft_num": 1},
        [T("a third NIC_RX flow table → EXCEED_LIM (2^log_max_ft_num = 2); NIC_TX still OK",
           "PRM §7.11.3.1; T151 0Ch[7:0] log_max_ft_num", "invalid",
           steps(ft(level=1), ft(level=2), ft(level=3, status="EXCEED_LIM", rule="FT_EXHAUSTED"),
                 ft(TX)), ["Caps", "Handles"])])
    grp("NIC_RX log_max_flow = 1", {RXP + "log_max_flow": 1},
        [T("a third valid NIC_RX flow → EXCEED_LIM (2^log_max_flow = 2); after a delete, OK",
           "PRM §7.11.3.6; T151 14h[7:0] log_max_flow", "invalid",
           steps(ft(), fg(1, 0, 3), fte(1, 0, 1, ALLOW), fte(1, 1, 1, ALLOW),
                 fte(1, 2, 1, ALLOW, status="EXCEED_LIM", rule="FTE_FLOWS_EXHAUSTED"),
                 dfte(1, 0), fte(1, 2, 1, ALLOW)), ["Caps", "Handles"])])
    grp("max_flow_counter = 2", {"hca_cap.max_flow_counter": 2},
        [T("a third ALLOC_FLOW_COUNTER → EXCEED_LIM", "PRM §7.11.3.5; T145 68h[15:0]", "invalid",
           steps(fc_alloc(1), fc_alloc(2), fc_alloc(None, status="EXCEED_LIM", rule="FC_EXHAUSTED")),
           ["Caps", "Handles"])])
    # §7.11.3.4: FULL needs ft_field_support, PARTIAL ft_field_bitmask_support; the dmac mask
    # 01:00:00:00:00:00 is PARTIAL and "also supported if a FULL match is supported".
    MC = {"outer_dmac_47_16": "0x1000000"}
    grp("NIC_RX ft_field_support.outer_dmac = 0", {RXP + "ft_field_support.outer_dmac": 0},
        [T("the dmac mask 01:00:00:00:00:00 with ft_field_bitmask_support → OK (a PARTIAL match); a "
           "FULL dmac mask → BAD_PARAM",
           "PRM §7.11.3.4 ('a PARTIAL match is supported if the corresponding bit of "
           "ft_field_bitmask_support ... is set'); T153 00h[31]", "invalid",
           steps(ft(), fg(1, 0, 0, 1, MC),
                 fg(1, 1, 1, 1, {"outer_dmac_47_16": "0xffffffff", "outer_dmac_15_0": "0xffff"},
                    status="BAD_PARAM", rule="FG_CRITERIA_UNSUPPORTED")), ["Caps", "Handles"])])
    grp("NIC_RX ft_field_bitmask_support.outer_dmac = 0", {RXP + "ft_field_bitmask_support.outer_dmac": 0},
        [T("the dmac mask 01:00:00:00:00:00 with FULL dmac support → OK (§7.11.3.4 note); the PARTIAL "
           "mask ff:ff:ff:00:00:00 → BAD_PARAM",
           "PRM §7.11.3.4 and its note ('is also supported if a FULL match is supported'); T153 00h[31]",
           "invalid",
           steps(ft(), fg(1, 0, 0, 1, MC),
                 fg(1, 1, 1, 1, {"outer_dmac_47_16": "0xffffff00"}, status="BAD_PARAM",
                    rule="FG_CRITERIA_UNSUPPORTED")), ["Caps", "Handles"])])
    # D-FT-9: an IPv4 address mask is FULL of T413's ipv4 field, PARTIAL of the 128-bit address.
    V4 = {"outer_dst_ip": ip4(0xffffffff)}
    grp("NIC_RX ft_field_support.outer_dip = 0", {RXP + "ft_field_support.outer_dip": 0},
        [T("an IPv4 destination address mask (T413) with only ft_field_bitmask_support: OK (D-FT-9: "
           "either bit; read as PARTIAL of the 128-bit field) or BAD_PARAM (read as FULL of the IPv4 "
           "field only)", "PRM §7.11.3.4; T413/T414; T153 00h[18] (D-FT-9)", "acceptable",
           steps(ft(), fg(1, 0, 0, 1, V4, alts=[
               ("D-FT-9: either bit supports an IPv4 address mask", "OK", None),
               ("FULL of T413's ipv4 field: ft_field_support only", "BAD_PARAM",
                "FG_CRITERIA_UNSUPPORTED")])), ["Caps", "Handles", "Decision"])])
    grp("NIC_RX ft_field_bitmask_support.outer_dip = 0", {RXP + "ft_field_bitmask_support.outer_dip": 0},
        [T("an IPv6 /64 destination mask → BAD_PARAM (PARTIAL); an IPv4 destination address mask with "
           "only ft_field_support: OK (D-FT-9: either bit; read as FULL of T413's ipv4 field) or "
           "BAD_PARAM (read as PARTIAL of the 128-bit field)",
           "PRM §7.11.3.4; T413/T414; T153 00h[18] (D-FT-9)", "acceptable",
           steps(ft(), fg(1, 1, 1, 1, {"outer_dst_ip": "ffffffffffffffff" + "0" * 16},
                          status="BAD_PARAM", rule="FG_CRITERIA_UNSUPPORTED"),
                 fg(1, 0, 0, 1, V4, alts=[
                     ("D-FT-9: either bit supports an IPv4 address mask", "OK", None),
                     ("PARTIAL of the 128-bit address: bitmask bit only", "BAD_PARAM",
                      "FG_CRITERIA_UNSUPPORTED")])), ["Caps", "Handles", "Decision"])])
    # D-FT-19: §7.11.3.3 exempts the last table under nic_rx_multi_path_tirs, T149's note under
    # nic_rx_multi_path_tirs_fts; neither text says "only", so either bit exempts it.
    grp("nic_rx_multi_path_tirs = 0, nic_rx_multi_path_tirs_fts = 1 (the last flow table)",
        {"flow_table_nic_cap.nic_rx_multi_path_tirs": 0},
        [T("FWD from level 0 to [table of level 64, table of level 2 (last)] → OK (T149 00h[30] note: "
           "'Regardless of whether the destination list includes TIRs or not, the last Flow Table in "
           "the destination list is not required to have a level equal or greater than 64')",
           "PRM T149 00h[30]; §7.11.3.3; §7.11.4.1 (D-FT-19)", "valid",
           steps(ft(), ft(level=64), ft(level=2), fg(1, 0, 3),
                 fte(1, 0, 1, FWD, dests=[(DEST_FT, 2), (DEST_FT, 3)])), ["Caps", "Handles"])])
    grp("nic_rx_multi_path_tirs = 0, nic_rx_multi_path_tirs_fts = 0",
        {"flow_table_nic_cap.nic_rx_multi_path_tirs": 0,
         "flow_table_nic_cap.nic_rx_multi_path_tirs_fts": 0},
        [T("FWD from level 0 to [table of level 64, table of level 2 (last)] → BAD_PARAM (no exception "
           "without either bit); to [level 64, level 65] → OK",
           "PRM §7.11.3.3; §7.11.4.1 ('Multiple processing paths are supported for multiple Flow "
           "Tables'); T149 00h[31:30]", "invalid",
           steps(ft(), ft(level=64), ft(level=2), ft(level=64), fg(1, 0, 3),
                 fte(1, 0, 1, FWD, dests=[(DEST_FT, 2), (DEST_FT, 3)], status="BAD_PARAM",
                     rule="FTE_MULTI_LEVEL"),
                 fte(1, 0, 1, FWD, dests=[(DEST_FT, 2), (DEST_FT, 4)])), ["Caps", "Handles"])])
    return g


def group_tests():
    t = []
    crit = {"outer_ethertype": "0xffff", "outer_ip_protocol": "0xff", "outer_dst_ip": ip4(0xffffffff),
            "outer_cvlan_tag": 1, "outer_second_vid": "0xfff"}
    t.append(T("CREATE_FLOW_GROUP 0-7 and 8-15 with outer and misc criteria; QUERY_FLOW_GROUP "
               "returns them", "PRM §12.14.6 T405-T418; §12.14.8 T423-T426", "valid",
               steps(ft(), fg(1, 0, 7, 3, crit, out={"group_id": 1}), fg(1, 8, 15, 0, out={"group_id": 2}),
                     tbl("query_flow_group_in", 1, extra={"group_id": 1},
                         out=dict(start_flow_index=0, end_flow_index=7, match_criteria_enable=3, **crit)),
                     tbl("query_flow_group_in", 1, extra={"group_id": 2},
                         out={"start_flow_index": 8, "end_flow_index": 15, "match_criteria_enable": 0}))))
    t.append(T("start_flow_index 5 above end_flow_index 3 → BAD_PARAM, also in table 9, not allocated "
               "(the field before the object, D-CMD-7 step 6)", "PRM §12.14.6 T406 1Ch/24h; T128 (D-CMD-7)",
               "invalid", steps(ft(), fg(1, 5, 3, status="BAD_PARAM", rule="FG_INDEX_ORDER"),
                                fg(9, 5, 3, status="BAD_PARAM", rule="FG_INDEX_ORDER"))))
    t.append(T("end_flow_index 16 in a table of 16 flows → BAD_PARAM",
               "PRM §7.11.3.4 ('must not exceed the size of the Flow Table')", "invalid",
               steps(ft(), fg(1, 0, 16, status="BAD_PARAM", rule="FG_BEYOND_TABLE"))))
    t.append(T("groups 4-7 then 0-4 and 7-9 overlap → BAD_PARAM; 0-3 and 8-9 fit",
               "PRM §7.11.3.4 ('must not overlap')", "invalid",
               steps(ft(), fg(1, 4, 7), fg(1, 0, 4, status="BAD_PARAM", rule="FG_OVERLAP"),
                     fg(1, 7, 9, status="BAD_PARAM", rule="FG_OVERLAP"), fg(1, 0, 3), fg(1, 8, 9))))
    t.append(T("match_criteria_enable bit 3 → BAD_PARAM", "PRM §12.14.6 T406 3Ch ('other: reserved')",
               "invalid", steps(ft(), fg(1, 0, 3, 8, status="BAD_PARAM", rule="FG_CRITERIA_ENABLE"))))
    t.append(T("a dmac mask with outer_headers not enabled → BAD_PARAM ('Unused parameters are "
               "reserved')", "PRM §12.14.6 T406 3Ch/40h (D-FT-13)", "invalid",
               steps(ft(), fg(1, 0, 3, 2, {"outer_dmac_47_16": "0xffffffff"}, status="BAD_PARAM",
                             rule="FG_CRITERIA_RESERVED")), ["Handles", "Decision"]))
    t.append(T("an inner_headers mask (no ft_field_support bit) → BAD_PARAM",
               "PRM §7.11.3.4; T153 (D-FT-2)", "invalid",
               steps(ft(), fg(1, 0, 3, 4, {"inner_ip_protocol": "0xff"}, status="BAD_PARAM",
                             rule="FG_CRITERIA_UNSUPPORTED")), ["Handles", "Decision"]))
    t.append(T("DESTROY_FLOW_GROUP group_id 0 → BAD_INDEX; 9 → BAD_RESOURCE; a group of another "
               "table → BAD_RESOURCE", "PRM §12.14.7 T420 18h; §7.11.3.4.1; T128", "invalid",
               steps(ft(), ft(level=1), fg(2, 0, 3),
                     tbl("destroy_flow_group_in", 1, extra={"group_id": 0}, status="BAD_INDEX",
                         rule="FG_ID_OUT_OF_RANGE"),
                     tbl("destroy_flow_group_in", 1, extra={"group_id": 9}, status="BAD_RESOURCE",
                         rule="FG_NOT_FOUND"),
                     tbl("query_flow_group_in", 1, extra={"group_id": 1}, status="BAD_RESOURCE",
                         rule="FG_NOT_FOUND"))))
    t.append(T("DESTROY_FLOW_GROUP with a valid flow → BAD_RES_STATE; after DELETE_FLOW_TABLE_ENTRY, OK",
               "PRM §7.11.3.8; §12.14.7", "invalid",
               steps(ft(), fg(1, 0, 3), fte(1, 2, 1, DROP),
                     tbl("destroy_flow_group_in", 1, extra={"group_id": 1}, status="BAD_RES_STATE",
                         rule="FG_IN_USE"),
                     dfte(1, 2), tbl("destroy_flow_group_in", 1, extra={"group_id": 1}))))
    return t


def entry_tests():
    t = []
    m = {"outer_ethertype": "0x800", "outer_dst_ip": ip4(0xc0a80001)}
    t.append(T("SET_FLOW_TABLE_ENTRY FWD to TIR 1 with flow_tag 0x123 and a counter; "
               "QUERY_FLOW_TABLE_ENTRY returns the context", "PRM §12.14.9 T427-T436; §12.14.10 T437-T440",
               "valid",
               steps(ft(), fg(1, 0, 7, 1, {"outer_ethertype": "0xffff", "outer_dst_ip": ip4(0xffffffff)}),
                     fc_alloc(1),
                     fte(1, 3, 1, FWD | COUNT, dests=[(DEST_TIR, 1)], cnts=[1], tag=0x123, match=m),
                     qfte(1, 3, olen=FTE_FIXED + 16,
                          out=dict(group_id=1, flow_tag=0x123, action=FWD | COUNT, destination_list_size=1,
                                   flow_counter_list_size=1, **{"list[0]": "0x2000001", "list[2]": 1}, **m)))))
    t.append(T("FWD to two TIRs and a table of level 64 (multi-path, §7.11.2.4)",
               "PRM §7.11.2.4; §7.11.3.3; §7.11.4.1; destroying the table it names: §7.11.3.8, "
               "§12.14.3 (D-FT-12)", "valid",
               steps(ft(), ft(level=64), fg(1, 0, 3),
                     fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1), (DEST_TIR, 2), (DEST_FT, 2)]),
                     tbl("destroy_flow_table_in", 2, status="BAD_RES_STATE", rule="FTE_NONE_PLACEHOLDER"))))
    # fix the placeholder above: the referenced table's destroy is FT_IN_USE
    # D-FT-12: the destroy of the named table accepts both readings; what follows holds in both
    # (the TIR is named either way; deleting the flow frees it).
    t[-1]["steps"] = steps(ft(), ft(level=64), fg(1, 0, 3),
                           fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1), (DEST_TIR, 2), (DEST_FT, 2)]),
                           tbl("destroy_flow_table_in", 2, alts=D_FT_12),
                           cmd("destroy_tir_in", {"tirn": 1}, status="BAD_RES_STATE", rule="TIR_IN_USE"),
                           dfte(1, 0), cmd("destroy_tir_in", {"tirn": 1}))
    t[-1]["flags"] = ["Handles", "Decision"]
    t[-1]["result"] = "acceptable"
    t[-1]["comment"] += (": DESTROY_FLOW_TABLE of the table it names is BAD_RES_STATE (D-FT-12, the "
                         "model) or OK (§12.14.3); the TIR it names cannot go until the flow is deleted")
    t.append(T("SET op_mod 1 (modify_enable_mask action and destination list): ALLOW → FWD to TIR 2",
               "PRM §7.11.3.7; T428 04h/18h", "valid",
               steps(ft(), fg(1, 0, 3), fte(1, 1, 1, ALLOW),
                     fte(1, 1, 1, FWD, dests=[(DEST_TIR, 2)], op_mod=1, mask=5),
                     qfte(1, 1, olen=FTE_FIXED + 8, out={"action": FWD, "destination_list_size": 1,
                                                          "list[0]": "0x2000002"}))))
    t.append(T("flow_index 16 in a 16-flow table → BAD_INDEX (set, query, delete)", "PRM §12.14.9 T428 20h; T128",
               "invalid", steps(ft(), fg(1, 0, 15),
                                fte(1, 16, 1, DROP, status="BAD_INDEX", rule="FTE_INDEX_BEYOND_TABLE"),
                                qfte(1, 16, status="BAD_INDEX", rule="FTE_INDEX_BEYOND_TABLE"),
                                dfte(1, 16, status="BAD_INDEX", rule="FTE_INDEX_BEYOND_TABLE"))))
    t.append(T("group_id 4 not a group of the table → BAD_RESOURCE; group_id 0 and 2^24, outside the "
               "group handles (T418 group_id 23:0, D-OBJ-2) → BAD_INDEX",
               "PRM §7.11.3.6; T430 04h; T418; T128", "invalid",
               steps(ft(), fg(1, 0, 3), fte(1, 0, 4, DROP, status="BAD_RESOURCE", rule="FTE_GROUP_NOT_FOUND"),
                     fte(1, 0, 0, DROP, status="BAD_INDEX", rule="FTE_GROUP_OUT_OF_RANGE"),
                     fte(1, 0, 1 << 24, DROP, status="BAD_INDEX", rule="FTE_GROUP_OUT_OF_RANGE"))))
    t.append(T("flow_index 5 outside group 0-3 → BAD_PARAM", "PRM §7.11.3.6", "invalid",
               steps(ft(), fg(1, 0, 3), fg(1, 4, 7),
                     fte(1, 5, 1, DROP, status="BAD_PARAM", rule="FTE_INDEX_OUTSIDE_GROUP"))))
    t.append(T("op_mod 0 on a valid flow → BAD_RES_STATE", "PRM §12.14.9 T428 04h (D-FT-6)", "invalid",
               steps(ft(), fg(1, 0, 3), fte(1, 0, 1, DROP),
                     fte(1, 0, 1, ALLOW, status="BAD_RES_STATE", rule="FTE_EXISTS")), ["Handles", "Decision"]))
    t.append(T("modify, query, delete of an invalid flow → BAD_RES_STATE", "PRM §7.11.3.7-§7.11.3.9",
               "invalid", steps(ft(), fg(1, 0, 3),
                                fte(1, 0, 1, DROP, op_mod=1, mask=1, status="BAD_RES_STATE", rule="FTE_NOT_VALID"),
                                qfte(1, 0, status="BAD_RES_STATE", rule="FTE_NOT_VALID"),
                                dfte(1, 0, status="BAD_RES_STATE", rule="FTE_NOT_VALID"))))
    t.append(T("modify naming another group → BAD_PARAM; modify_enable_mask bit 4 → BAD_PARAM",
               "PRM §7.11.3.7 (D-FT-14); T428 18h", "invalid",
               steps(ft(), fg(1, 0, 3), fg(1, 4, 7), fte(1, 0, 1, DROP),
                     fte(1, 0, 2, ALLOW, op_mod=1, mask=1, status="BAD_PARAM", rule="FTE_MODIFY_GROUP"),
                     fte(1, 0, 1, ALLOW, op_mod=1, mask=0x11, status="BAD_PARAM", rule="FTE_MODIFY_MASK")),
               ["Handles", "Decision"]))
    t.append(T("modify ALLOW → FWD with only the action bit → BAD_PARAM", "PRM §7.11.3.7", "invalid",
               steps(ft(), fg(1, 0, 3), fte(1, 0, 1, ALLOW),
                     fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1)], op_mod=1, mask=1, status="BAD_PARAM",
                         rule="FTE_MODIFY_LIST_BIT"))))
    t.append(T("action bit 4 → BAD_PARAM; action 0 and DROP|ALLOW → BAD_PARAM", "PRM §7.11.2.2; T430 0Ch",
               "invalid", steps(ft(), fg(1, 0, 3),
                                fte(1, 0, 1, 0x10 | DROP, status="BAD_PARAM", rule="FTE_ACTION_RESERVED"),
                                fte(1, 0, 1, 0, status="BAD_PARAM", rule="FTE_ACTION_EXCLUSIVE"),
                                fte(1, 0, 1, DROP | ALLOW, status="BAD_PARAM", rule="FTE_ACTION_EXCLUSIVE"))))
    t.append(T("flow_tag on NIC_TX (flow_tag cap 0) → BAD_PARAM; COUNT on NIC_TX → BAD_PARAM; a TIR "
               "destination on NIC_TX → BAD_PARAM", "PRM §7.11.4.2; §7.11.3.5 (D-FT-4)", "invalid",
               steps(ft(TX), fg(1, 0, 3, type=TX), fc_alloc(1),
                     fte(1, 0, 1, ALLOW, tag=1, type=TX, status="BAD_PARAM", rule="FTE_FLOW_TAG_UNSUPPORTED"),
                     fte(1, 0, 1, ALLOW | COUNT, cnts=[1], type=TX, status="BAD_PARAM", rule="FTE_COUNT_UNSUPPORTED"),
                     fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1)], type=TX, status="BAD_PARAM",
                         rule="FTE_DEST_TIR_ON_TX")), ["Caps", "Handles"]))
    t.append(T("FWD with destination_list_size 0 → BAD_PARAM; DROP with a destination: BAD_PARAM "
               "(D-FT-15, the model) or OK (T430 10h: destination_list_size 'Valid only when "
               "action==FWD_DEST', so ignored)",
               "PRM T430 10h (D-FT-15)", "acceptable",
               steps(ft(), fg(1, 0, 3), fte(1, 0, 1, FWD, status="BAD_PARAM", rule="FTE_DEST_SIZE"),
                     fte(1, 0, 1, DROP, dests=[(DEST_TIR, 1)], alts=D_FT_15_DEST)),
               ["Handles", "Decision"]))
    t.append(T("65 destinations (2^log_max_destination 64) → EXCEED_LIM; two on NIC_TX (log 0) → EXCEED_LIM",
               "PRM §7.11.3.6; T151 10h[7:0]", "invalid",
               steps(ft(), fg(1, 0, 3), ft(TX), ft(TX, level=1), fg(2, 0, 3, type=TX),
                     fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1)] * 65, status="EXCEED_LIM", rule="FTE_DEST_TOO_MANY"),
                     fte(2, 0, 1 + 1, FWD, dests=[(DEST_FT, 3), (DEST_FT, 3)], type=TX, status="EXCEED_LIM",
                         rule="FTE_DEST_TOO_MANY")), ["Caps", "Handles"]))
    t.append(T("destination_list_size 2 with input_length holding one entry → BAD_INPUT_LEN",
               "PRM T430 300h; T128", "invalid",
               steps(ft(), fg(1, 0, 3), fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1)], nd=2,
                                            length=FTE_FIXED + 8, status="BAD_INPUT_LEN",
                                            rule="FTE_LIST_BEYOND_INPUT"))))
    t.append(T("destination_type 3 → BAD_PARAM", "PRM T434 00h[31:24]", "invalid",
               steps(ft(), fg(1, 0, 3), fte(1, 0, 1, FWD, dests=[(3, 1)], status="BAD_PARAM",
                                            rule="FTE_DEST_TYPE"))))
    t.append(T("a TIR destination 0 → BAD_INDEX; TIR 9 → BAD_RESOURCE", "PRM T434 00h[23:0]; T128",
               "invalid", steps(ft(), fg(1, 0, 3),
                                fte(1, 0, 1, FWD, dests=[(DEST_TIR, 0)], status="BAD_INDEX",
                                    rule="FTE_DEST_TIR_OUT_OF_RANGE"),
                                fte(1, 0, 1, FWD, dests=[(DEST_TIR, 9)], status="BAD_RESOURCE",
                                    rule="FTE_DEST_TIR_INVALID"))))
    t.append(T("a flow table destination 0 → BAD_INDEX; 9 → BAD_RESOURCE; a NIC_TX table → BAD_RESOURCE; "
               "a table of the same level → BAD_PARAM", "PRM §7.11.2.3; §7.11.3.3; T434", "invalid",
               steps(ft(), fg(1, 0, 3), ft(TX, level=3), ft(level=0 + 1),
                     fte(1, 0, 1, FWD, dests=[(DEST_FT, 0)], status="BAD_INDEX", rule="FTE_DEST_FT_OUT_OF_RANGE"),
                     fte(1, 0, 1, FWD, dests=[(DEST_FT, 9)], status="BAD_RESOURCE", rule="FTE_DEST_FT_INVALID"),
                     fte(1, 0, 1, FWD, dests=[(DEST_FT, 2)], status="BAD_RESOURCE", rule="FTE_DEST_FT_INVALID"),
                     ft(level=5), fg(4, 0, 3), ft(level=5 + 0, status="OK") if False else [],
                     fte(4, 0, 2, FWD, dests=[(DEST_FT, 3)], status="BAD_PARAM", rule="FTE_DEST_FT_LEVEL"))))
    # D-FT-22: §7.11.3.6 leaves the order of destinations undefined; §7.11.4.1's "TIRs
    # followed by Flow Tables" is read as list order, so the model refuses a table before a TIR.
    # The other reading (any order, the same set) accepts it: both are accepted.
    t.append(T("a flow table then a TIR: BAD_PARAM under D-FT-22 (TIRs precede flow tables, "
               "§7.11.4.1), OK when the order is free (§7.11.3.6)",
               "PRM §7.11.3.6; §7.11.4.1", "acceptable",
               steps(ft(), ft(level=64), fg(1, 0, 3),
                     fte(1, 0, 1, FWD, dests=[(DEST_FT, 2), (DEST_TIR, 1)],
                         status={"in": ["BAD_PARAM", "OK"]}))))
    t.append(T("multi-path from a table of level 64 → BAD_PARAM; to a table of level 1 that is not last "
               "→ BAD_PARAM", "PRM §7.11.3.3", "invalid",
               steps(ft(level=64), ft(level=2), fg(1, 0, 3), ft(), fg(3, 0, 3), ft(level=1),
                     fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1), (DEST_TIR, 2)], status="BAD_PARAM",
                         rule="FTE_MULTI_LEVEL"),
                     fte(3, 0, 2, FWD, dests=[(DEST_FT, 4), (DEST_FT, 2)], status="BAD_PARAM",
                         rule="FTE_MULTI_LEVEL"))))
    # D-FT-16: §7.11.2.4 bans nesting "Multi-processing paths to multiple Flow Tables"; neither
    # flow here has two flow-table destinations. Refused when every multi-path flow counts (the
    # model), OK when only flows to two or more tables do: both are accepted.
    t.append(T("a multi-path flow [TIR 1, table 2 (level 1, last)], then a multi-path flow [TIR 1, "
               "TIR 2] in table 2: BAD_PARAM when every multi-path flow counts as nesting (D-FT-16), "
               "OK when only 'multi-processing paths to multiple Flow Tables' do",
               "PRM §7.11.2.4 (D-FT-16); §7.11.3.3", "acceptable",
               steps(ft(), ft(level=1), fg(1, 0, 3), fg(2, 0, 3),
                     fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1), (DEST_FT, 2)]),
                     fte(2, 0, 2, FWD, dests=[(DEST_TIR, 1), (DEST_TIR, 2)],
                         status={"in": ["BAD_PARAM", "OK"]})), ["Handles", "Decision"]))
    t.append(T("COUNT with no counter → BAD_PARAM; two counters (2^log_max_flow_counter 1) → "
               "EXCEED_LIM; a counter without COUNT: BAD_PARAM (D-FT-15, the model) or OK (T430 14h: "
               "flow_counter_list_size 'Valid when action [COUNT] is set', so ignored)",
               "PRM T430 14h (D-FT-15); §7.11.3.6; T151 10h[15:8]", "acceptable",
               steps(ft(), fg(1, 0, 3), fc_alloc(1), fc_alloc(2),
                     fte(1, 0, 1, DROP | COUNT, status="BAD_PARAM", rule="FTE_COUNTER_SIZE"),
                     fte(1, 0, 1, DROP | COUNT, cnts=[1, 2], status="EXCEED_LIM", rule="FTE_COUNTER_TOO_MANY"),
                     fte(1, 0, 1, DROP, cnts=[1], alts=D_FT_15_CNT)),
               ["Caps", "Handles", "Decision"]))
    t.append(T("a counter id 0 → BAD_INDEX; 7 → BAD_RESOURCE", "PRM T436 00h[15:0]; T128", "invalid",
               steps(ft(), fg(1, 0, 3),
                     fte(1, 0, 1, DROP | COUNT, cnts=[0], status="BAD_INDEX", rule="FTE_COUNTER_OUT_OF_RANGE"),
                     fte(1, 0, 1, DROP | COUNT, cnts=[7], status="BAD_RESOURCE", rule="FTE_COUNTER_INVALID"))))
    t.append(T("QUERY_FLOW_TABLE_ENTRY with output_length missing the flow's one destination → BAD_OUTPUT_LEN",
               "PRM §12.14.10 T439/T440; T128", "invalid",
               steps(ft(), fg(1, 0, 3), fte(1, 0, 1, FWD, dests=[(DEST_TIR, 1)]),
                     qfte(1, 0, olen=FTE_FIXED, status="BAD_OUTPUT_LEN", rule="FTE_OUTPUT_TOO_SHORT"))))
    # D-FT-16: both flows forward to two flow tables, so every reading of §7.11.2.4 ("Multi-
    # processing paths to multiple Flow Tables must never be nested") refuses the second one,
    # whichever is set first. Tables: 1 level 0, 2 level 64, 3 level 1 (last: D-FT-19), 4 level 64.
    t.append(T("a flow to [table 2 (64), table 3 (1, last)] and a flow in table 3 to [table 2, table 4 "
               "(64)]: the second set is BAD_PARAM, in either order (never nested)",
               "PRM §7.11.2.4; §7.11.3.3 (D-FT-16, D-FT-19)", "invalid",
               steps(ft(), ft(level=64), ft(level=1), ft(level=64), fg(1, 0, 3), fg(3, 0, 3),
                     fte(1, 0, 1, FWD, dests=[(DEST_FT, 2), (DEST_FT, 3)]),
                     fte(3, 0, 2, FWD, dests=[(DEST_FT, 2), (DEST_FT, 4)], status="BAD_PARAM",
                         rule="FTE_MULTI_NESTED"),
                     dfte(1, 0),
                     fte(3, 0, 2, FWD, dests=[(DEST_FT, 2), (DEST_FT, 4)]),
                     fte(1, 0, 1, FWD, dests=[(DEST_FT, 2), (DEST_FT, 3)], status="BAD_PARAM",
                         rule="FTE_MULTI_NESTED")), ["Caps", "Handles"]))
    return t


def counter_tests():
    t = []
    t.append(T("ALLOC_FLOW_COUNTER twice, QUERY (0 packets), DEALLOC, QUERY → BAD_RESOURCE",
               "PRM §12.14.12-§12.14.14 ('initialized to 0x0'); §7.11.3.9", "valid",
               steps(fc_alloc(1), fc_alloc(2),
                     fc_query(2, out={"flow_statistics[0]": 0, "flow_statistics[1]": 0}),
                     cmd("dealloc_flow_counter_in", {"flow_counter_id": 2}),
                     fc_query(2, status="BAD_RESOURCE", rule="FC_NOT_FOUND"))))
    # T456: unallocated counters are "returned with unknown value": their slots are not compared
    # (D-FC-4); the traffic test of the second group shows clear and bulk on counters with hits.
    t.append(T("QUERY_FLOW_COUNTER with clear of a fresh counter; bulk of 4 from 0: id 1 (slots 2, 3) "
               "reads 0 ('initialized to 0x0'); ids 0, 2, 3 are not allocated, their value unknown",
               "PRM §12.14.12; §12.14.14 T453-T456 (D-FC-3)", "valid",
               steps(fc_alloc(1), fc_query(1, clear=1, out={"flow_statistics[0]": 0, "flow_statistics[1]": 0}),
                     fc_query(0, num=4, olen=0x50, out={"flow_statistics[2]": 0, "flow_statistics[3]": 0})),
               ["Handles", "Decision"]))
    t.append(T("DEALLOC and QUERY of id 0 → BAD_INDEX; DEALLOC of 3 → BAD_RESOURCE",
               "PRM §12.14.13 T450; §12.14.14 T454; T128", "invalid",
               steps(cmd("dealloc_flow_counter_in", {"flow_counter_id": 0}, status="BAD_INDEX", rule="FC_OUT_OF_RANGE"),
                     fc_query(0, status="BAD_INDEX", rule="FC_OUT_OF_RANGE"),
                     cmd("dealloc_flow_counter_in", {"flow_counter_id": 3}, status="BAD_RESOURCE",
                         rule="FC_NOT_FOUND"))))
    t.append(T("DEALLOC_FLOW_COUNTER of a counter a flow counts in → BAD_RES_STATE; after the flow, OK",
               "PRM §7.11.3.8; §12.14.13 ('must not be associated with any Flow')", "invalid",
               steps(ft(), fg(1, 0, 3), fc_alloc(1), fte(1, 0, 1, ALLOW | COUNT, cnts=[1]),
                     cmd("dealloc_flow_counter_in", {"flow_counter_id": 1}, status="BAD_RES_STATE",
                         rule="FC_IN_USE"),
                     dfte(1, 0), cmd("dealloc_flow_counter_in", {"flow_counter_id": 1}))))
    t.append(T("bulk query with clear → BAD_PARAM; from id 2 → BAD_PARAM; 257 counters → EXCEED_LIM; "
               "output_length for 1 of 4 → BAD_OUTPUT_LEN", "PRM §12.14.14 T454 18h/1Ch; T145 68h[23:16] "
               "(D-FC-3); T456", "invalid",
               steps(fc_query(0, clear=1, num=4, olen=0x50, status="BAD_PARAM", rule="FC_BULK_CLEAR"),
                     fc_query(2, num=4, olen=0x50, status="BAD_PARAM", rule="FC_BULK_ALIGN"),
                     fc_query(0, num=257, olen=0x1020, status="EXCEED_LIM", rule="FC_BULK_TOO_MANY"),
                     fc_query(0, num=4, olen=0x20, status="BAD_OUTPUT_LEN", rule="FC_OUTPUT_TOO_SHORT")),
               ["Caps", "Decision"]))
    return t


OWN_MAC = "024e49435246"  # the vport's permanent address (docs/vport.md D-VP-3)
PEER_MAC = "020000000099"


def rx_frame(ethertype, length):
    """A frame of `length` bytes (no FCS) to the vport: Ethernet II with `ethertype`, zeros after."""
    h = OWN_MAC + PEER_MAC + "%04x" % ethertype
    return [{"rx_frame": {"port": 1, "hex": h + "00" * (length - 14)}}]


def stats(*v):
    return {"flow_statistics[%d]" % k: x for k, x in v}


def counter_traffic_tests():
    """Counters with hits (§7.11.2.8: a frame hitting a COUNT flow adds 1 packet and its length,
    D-FC-2: without FCS): two flows on the ethertype, counters 1 and 2 (ALLOC'd in that order by the
    steer step, with the ICM pages the driver gives on demand); counter 3 gets none."""
    t = []
    A, B = 0x88B5, 0x88B6  # IEEE 802 local experimental ethertypes: nothing else parses them
    loose = [{"events": {"exact": False, "expect": []}}]
    t.append(T("frames through two COUNT flows (ethertype 88B5h → counter 1: 64 and 100 bytes; 88B6h → "
               "counter 2: 60 bytes); bulk of 4 from 0: slots [2k]/[2k+1] of ids 1, 2, 3 are packets and "
               "octets 2/164, 1/60, 0/0 (id 0 is not allocated: not compared); QUERY of 1 with clear "
               "reads 2/164 and resets it ('Read and reset'): 0/0 after, counter 2 untouched; a new "
               "frame counts from 0",
               "PRM §7.11.2.8; §12.14.14 T454 18h, T456, T491 (D-FC-2, D-FC-3)", "valid",
               steps([{"steer": {
                   "counters": ["c1", "c2", "c3"],
                   "tables": [{"name": "t0", "level": 0}],
                   "groups": [{"name": "g0", "table": "t0", "start": 0, "end": 1,
                               "criteria": {"outer_ethertype": "0xffff"}}],
                   "entries": [{"table": "t0", "group": "g0", "index": i, "action": DROP | COUNT,
                                "match": {"outer_ethertype": hex(e)}, "counters": [c]}
                               for i, (e, c) in enumerate(((A, "c1"), (B, "c2")))]}}],
                     rx_frame(A, 64), rx_frame(A, 100), rx_frame(B, 60), loose,
                     fc_query(0, num=4, olen=0x50,
                              out=stats((2, 2), (3, 164), (4, 1), (5, 60), (6, 0), (7, 0))),
                     fc_query(1, clear=1, out=stats((0, 2), (1, 164))),
                     fc_query(1, out=stats((0, 0), (1, 0))),
                     fc_query(2, out=stats((0, 1), (1, 60))),
                     rx_frame(A, 64), loose,
                     fc_query(1, out=stats((0, 1), (1, 64))))))
    return t


def write(name, feature, header, groups):
    tests = [x for g in groups for x in g["tests"]]
    for i, x in enumerate(tests, 1):
        x["tcId"] = i
        x.update({k: x.pop(k) for k in ("comment", "cite", "flags", "result", "steps")})
    used = sorted({f for x in tests for f in x["flags"]})
    d = {"schema": "nicref_vectors_v1", "feature": feature, "header": header,
         "notes": {k: NOTES[k] for k in used}, "numberOfTests": len(tests), "testGroups": groups}
    for x in tests:
        x_items = list(x.items())
        x.clear()
        x["tcId"] = dict(x_items)["tcId"]
        x.update({k: v for k, v in x_items if k != "tcId"})
    with open(os.path.join(OUT, name), "w") as fh:
        json.dump(d, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


def main():
    setup = base_setup()
    hdr = ["Flow steering (PRM §7.11, §12.14 T383-T456; capabilities T148-T153). Setup (PRM §3.1 "
           "order): tir.json group 0 (PD 1, transport domain 1, UAR 5, 16 ICM pages, EQ 0, CQ 1, RQs 1 "
           "and 2, RQT 1) and TIRs 1 and 2 Direct to RQs 1 and 2.",
           "Generated by vectors/steer/gen/steer_gen.py from the PRM's rules; decisions: docs/steer.md."]
    write("flow_table.json", "steer", hdr,
          [{"comment": "HCA initialized with the objects of the header", "setup": setup,
            "tests": table_tests()}])
    write("flow_group.json", "steer", hdr,
          [{"comment": "HCA initialized with the objects of the header", "setup": setup,
            "tests": group_tests()}])
    write("flow_entry.json", "steer", hdr,
          [{"comment": "HCA initialized with the objects of the header", "setup": setup,
            "tests": entry_tests()}])
    write("flow_counter.json", "steer", hdr + [
          "The second group receives: one RQ and one Direct TIR (rx_setup defaults), no flow table "
          "or counter before the test; frames go to the vport's address 02:4e:49:43:52:46."],
          [{"comment": "HCA initialized with the objects of the header", "setup": setup,
            "tests": counter_tests()},
           {"comment": "HCA initialized, rx_setup defaults (docs/vectors.md, rx_setup)",
            "setup": [{"bring_up": {"to": "initialized"}}, {"rx_setup": {}}],
            "tests": counter_traffic_tests()}])
    write("steer_caps.json", "steer", hdr + ["Each group lowers capabilities (docs/vectors.md, caps)."],
          caps_groups(setup))


if __name__ == "__main__":
    import sys
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        OUT = sys.argv[2]
    main()

"""Writes the vectors of the rules only a smaller device reaches: object counts a profile lowers
(log_max_objects: T145 log_max_cq, log_max_sq, ...), capabilities a group lowers (wq_signature,
log_max_vlan_list) and the CQ doorbell record's update_ci ahead of the CQEs written.

Every expectation comes from the PRM (ConnectX-4 PRM Rev 0.40), never from the model: the
statuses of T128, the capabilities of T145, the full/empty rule of §7.12.1. Refusals are matched
by their status and, in the events, by the clause the refusing rule cites (docs/vectors.md
"Clauses"); by rule name only where the rule cites no section. Rerun after editing:

    python3 vectors/gen/gen_limits.py

It writes vectors/{cq/cq_limits,cq/cq_record,wq/wq_limits,mkey/mkey_limits,tir/tir_limits,
vport/vport_limits}.json."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "eq", "gen"))
from gen_common import (CQ_BUF, CQ_DBR, EQ_BUF, SQ_BUF, SQ_DBR, UAR, UAR_PAGE, alloc_uar, be32,
                        bar_write, cmd, cq_init, create_cq, create_eq, eq_init, err_cqe, ev,
                        events, h, manage_pages, mem_expect, mem_write, ok)

# ---- notes ----

NOTES = {
    "Handles": {"bugType": "PROFILE", "description": "The test names objects by the numbers CREATE/ALLOC returned in the same test or its setup: the model hands out the lowest free number of each type from 1 (EQs from 0, UARs from 5; D-OBJ-2, D-UAR-1). A device numbering otherwise needs the numbers substituted."},
    "Limits": {"bugType": "PROFILE", "description": "The group's profile gives the device 2^1 objects of each type (profile log_max_objects 1: T145 log_max_cq, log_max_mkey, log_max_sq, log_max_rq, log_max_rmp, log_max_tis, log_max_tir, log_max_rqt are 1, which the first test of the file reads back). One object past the count is refused with EXCEED_LIM ('Required capability exceeds device limits', T128), not NO_RESOURCES, which T128 reserves for an 'unrecoverable situation': destroying one object makes room again, as each test then shows."},
    "Caps": {"bugType": "PROFILE", "description": "The group lowers a capability (\"caps\", docs/vectors.md): the device presents the value in both its maximum and current capabilities from power-on, as a device with that limit would. The expectation is what the PRM says of such a device."},
    "Acceptable": {"bugType": "AMBIGUOUS_SPEC", "description": "The PRM allows more than one outcome: the expectation lists each (any_of, with the reading it follows) and any of them conforms."},
    "Record": {"bugType": "DRIVER_VIOLATION", "description": "The CQ doorbell record's update_ci is 'Consumer counter of the last polled CQE' (§7.12.2 T70): a counter ahead of the CQEs the device wrote breaks it. §7.12.1 calls the CQ full only when 'the Producer Counter minus the Consumer Counter equals the CQ size' (counters signed): 0 - 5 is not 2, so the CQ is not full and the CQE is written; the model also reports the driver's fault."},
}

# ---- helpers ----


def ok_out(layout, **fields):
    return ok({"layout": layout, "fields": fields})


def done(opcode, status="OK"):
    return ev("cmd_done", slot=0, opcode=opcode, delivery="OK", status=status)


def refused(step, opcode, status, clause=None, rule=None):
    """The command refused with status (T128); the events: the refusal, named by the clause
    its rule cites (or by rule name where the rule cites no section), then the completion."""
    step["command"]["expect"] = {"delivery": "OK", "ownership": 0, "status": status}
    fail = ev("cmd_fail", slot=0, opcode=opcode)
    if clause:
        fail["clause"] = clause
    if rule:
        fail["rule"] = rule
    return [step, events([fail, done(opcode, status)])]


def accepted(step, opcode):
    return [step, events([done(opcode)])]


def caps_query(fields):
    """QUERY_HCA_CAP of the general capabilities, maximum (op_mod 0) then current (op_mod 1)."""
    out = []
    for op_mod in (0, 1):
        out += accepted(cmd("query_hca_cap_in", {"opcode": "QUERY_HCA_CAP", "op_mod": op_mod},
                            {"delivery": "OK", "ownership": 0, "status": "OK", "syndrome": 0,
                             "output": {"layout": "hca_cap", "at": "0x10", "fields": fields}},
                            output_length=0x1010), "QUERY_HCA_CAP")
    return out


tests = []


def T(comment, cite, flags, result, steps):
    tests.append({"tcId": 0, "comment": comment, "cite": cite, "flags": flags,
                  "result": result, "steps": steps})


def group(comment, setup, extra=None):
    """A group of the tests written since the last group."""
    g = {"comment": comment}
    g.update(extra or {})
    g["setup"] = setup
    g["tests"] = tests[:]
    tests.clear()
    return g


def write(path, feature, header, notes, groups):
    """One step per line, as the other hand-written vector files."""
    n = sum(len(g["tests"]) for g in groups)
    for i, t in enumerate(t for g in groups for t in g["tests"]):
        t["tcId"] = i + 1  # in file order, across the groups
    used = {f for g in groups for t in g["tests"] for f in t["flags"]}
    d = lambda v: json.dumps(v, ensure_ascii=False)
    L = ["{", '  "schema": "nicref_vectors_v1",', '  "feature": %s,' % d(feature),
         '  "header": %s,' % d(header),
         '  "notes": %s,' % d({k: v for k, v in notes.items() if k in used}),
         '  "numberOfTests": %d,' % n, '  "testGroups": [']
    for gi, g in enumerate(groups):
        L.append("    {")
        L.append('      "comment": %s,' % d(g["comment"]))
        for k in ("profile", "caps"):
            if k in g:
                L.append('      %s: %s,' % (d(k), d(g[k])))
        L.append('      "setup": [')
        L += ["        %s%s" % (d(s), "," if i + 1 < len(g["setup"]) else "")
              for i, s in enumerate(g["setup"])]
        L.append("      ],")
        L.append('      "tests": [')
        for ti, t in enumerate(g["tests"]):
            L.append("        {")
            for k in ("tcId", "comment", "cite", "flags", "result"):
                L.append('          %s: %s,' % (d(k), d(t[k])))
            L.append('          "steps": [')
            L += ["            %s%s" % (d(s), "," if i + 1 < len(t["steps"]) else "")
                  for i, s in enumerate(t["steps"])]
            L.append("          ]")
            L.append("        }" + ("," if ti + 1 < len(g["tests"]) else ""))
        L.append("      ]")
        L.append("    }" + ("," if gi + 1 < len(groups) else ""))
    L += ["  ]", "}"]
    with open(os.path.join(ROOT, path), "w") as f:
        f.write("\n".join(L) + "\n")
    return n


def alloc(layout, opcode, field, n):
    return cmd(layout, {"opcode": opcode}, ok_out(layout.replace("_in", "_out"), **{field: n}))


LIMITS = {"profile": {"log_max_objects": 1}}

# ---- CQ: 2^log_max_cq CQs ----

CQ_SETUP = [{"bring_up": {"to": "initialized"}}, manage_pages(16), alloc_uar(),
            eq_init(EQ_BUF, 4), create_eq(log_size=2, bitmask=1 << 4), events([], exact=False)]


def cq_buf(k):
    return CQ_BUF + 0x10000 * k


def cq_dbr(k):
    return CQ_DBR + 0x40 * k


def new_cq(k, cqn=None):
    """CQ of 4 CQEs in buffer k (its CQEs initialised, §12.7.1), record k; cqn expected."""
    c = create_cq(log_size=2, buf=cq_buf(k), dbr=cq_dbr(k), cqn=cqn or 1)
    if cqn is None:
        return [cq_init(cq_buf(k), 4), c]
    return [cq_init(cq_buf(k), 4)] + accepted(c, "CREATE_CQ")


T("QUERY_HCA_CAP: log_max_cq is 1 in the maximum (op_mod 0) and current (op_mod 1) capabilities: the device of this group supports 2 CQs",
  "PRM §12.3.3 T141/T143; T145 18h[4:0] log_max_cq ('Log (base 2) of the Maximum number of CQs supported')",
  ["Limits"], "valid", caps_query({"log_max_cq": 1}))
T("Two CQs (2^log_max_cq) are created; a third CREATE_CQ exceeds the device limit: EXCEED_LIM; after DESTROY_CQ of the second, the third is created",
  "PRM §7.12 ('the actual number supported ... can be retrieved by the QUERY_HCA_CAP command (log_max_cqs)'); T145 18h[4:0] log_max_cq; §12.7.1; T128 EXCEED_LIM ('Required capability exceeds device limits')",
  ["Limits", "Handles"], "invalid",
  new_cq(0, 1) + new_cq(1, 2) + [cq_init(cq_buf(2), 4)] +
  refused(create_cq(log_size=2, buf=cq_buf(2), dbr=cq_dbr(2)), "CREATE_CQ", "EXCEED_LIM", clause="PRM §7.12") +
  accepted(cmd("destroy_cq_in", {"opcode": "DESTROY_CQ", "cqn": 2}, ok()), "DESTROY_CQ") +
  accepted(create_cq(log_size=2, buf=cq_buf(2), dbr=cq_dbr(2), cqn=2), "CREATE_CQ"))
cq_limits = [group("profile log_max_objects 1 (2 CQs); HCA initialized, 16 more pages, UAR 5, EQ 0 of 4 EQEs at 0x31000000", CQ_SETUP, LIMITS)]

# ---- CQ doorbell record: update_ci ahead of the CQEs written ----

SQN = 1


def up_with_sq():
    """PD 1, TD 1, TIS 1, EQ 0 taking CQ errors; CQ 1 of 2 CQEs at CQ_BUF (record CQ_DBR) and
    SQ 1 completing to it, in ERR with flush_in_error_en: each WQE posted is flushed into a CQE
    (T63, §7.12.7)."""
    return [{"bring_up": {"to": "initialized"}}, manage_pages(16), alloc_uar(),
            cmd("alloc_pd_in", {"opcode": "ALLOC_PD"}, ok()),
            cmd("alloc_transport_domain_in", {"opcode": "ALLOC_TRANSPORT_DOMAIN"}, ok()),
            cmd("create_tis_in", {"opcode": "CREATE_TIS", "transport_domain": 1}, ok()),
            eq_init(EQ_BUF, 8), create_eq(log_size=3, bitmask=1 << 4),
            cq_init(CQ_BUF, 2), create_cq(log_size=1),
            cmd("create_sq_in", {"opcode": "CREATE_SQ", "flush_in_error_en": 1, "min_wqe_inline_mode": 1, "cqn": 1,
                                 "tis_lst_sz": 1, "tis_num_0": 1, "wq_type": 1, "pd": 1, "uar_page": UAR,
                                 "dbr_addr_31_0": h(SQ_DBR), "log_wq_stride": 6, "log_wq_sz": 6, "pas[0]": h(SQ_BUF)},
                ok(), length=0x118),
            cmd("modify_sq_in", {"opcode": "MODIFY_SQ", "sq_state": 0, "sqn": SQN, "state": 1}, ok(), length=0x110),
            cmd("modify_sq_in", {"opcode": "MODIFY_SQ", "sq_state": 1, "sqn": SQN, "state": 3}, ok(), length=0x110),
            events([], exact=False)]


def wqe(k):
    """WQE k (a SEND ctrl segment, ds 1, T25/T26), the record's send counter k+1 (T24), the
    doorbell (ctrl dwords 0-1 at Blue Flame buffer 0, §7.2.2)."""
    d0, d1 = (k << 8) | 0x0A, (SQN << 8) | 1
    return [mem_write(SQ_BUF + 64 * k, be32(d0) + be32(d1) + be32(2 << 2) + be32(0)),
            mem_write(SQ_DBR + 4, be32(k + 1)),
            bar_write(UAR_PAGE + 0x800, d0), bar_write(UAR_PAGE + 0x804, d1)]


def sq_db(k):
    return ev("sq_doorbell", sqn=SQN, wqe_index=k, opcode=0x0A, ds=1, bf=0)


def cqe_ev(pc, k):
    return ev("cqe", cqn=1, index=pc, opcode=13, syndrome=5, wqe_counter=k)


T("The CQ doorbell record says update_ci 5 while no CQE was written (a CQ of 2 CQEs): software claims CQEs it cannot have polled. The CQ is not full by §7.12.1 (0 - 5 is not the CQ size), so the flush CQE of the next WQE is written at entry 0 with owner 0 and the CQ stays OK",
  "PRM §7.12.2 T70 update_ci ('Consumer counter of the last polled CQE'); §7.12.1 ('If the Producer Counter minus the Consumer Counter equals the CQ size, then the CQ is full'; 'Both counters are treated as signed'); §7.12.3.1; T73/T74; D-CQ-2",
  ["Record"], "invalid",
  [mem_write(CQ_DBR, be32(5))] + wqe(0) +
  [events([sq_db(0), ev("violation", clause="PRM §7.12.2"), cqe_ev(0, 0)]),
   mem_expect(CQ_BUF, err_cqe(0, 0, 1))] +
  accepted(cmd("query_cq_in", {"opcode": "QUERY_CQ", "cqn": 1},
               ok_out("query_cq_out", producer_counter=1, cq_status=0), output_length=0x110), "QUERY_CQ"))
cq_record = [group("HCA initialized, 16 more pages, UAR 5, PD 1, TD 1, TIS 1, EQ 0 (8 EQEs at 0x31000000, CQ errors); CQ 1 of 2 CQEs at 0x30000000 (record 0x30100000) and SQ 1 completing to it, in ERR with flush_in_error_en", up_with_sq())]

# ---- SQ, RQ, RMP: 2^log_max_sq/rq/rmp; wq_signature ----


def wq_setup():
    """As vectors/wq/sq.json: pages, PD 1, UAR 5, TD 1, EQ 0, CQ 1, TIS 1 (§3.1 order)."""
    return [{"bring_up": {"to": "initialized"}}, manage_pages(16),
            alloc("alloc_pd_in", "ALLOC_PD", "pd", 1), alloc_uar(),
            alloc("alloc_transport_domain_in", "ALLOC_TRANSPORT_DOMAIN", "transport_domain", 1),
            eq_init(EQ_BUF, 8), create_eq(log_size=3, bitmask=0x1C0020),
            cq_init(CQ_BUF, 8), create_cq(log_size=3),
            cmd("create_tis_in", {"opcode": "CREATE_TIS", "transport_domain": 1},
                ok_out("create_tis_out", tisn=1)),
            events([], exact=False)]


def create_sq(k, sqn=None, **extra):
    f = {"opcode": "CREATE_SQ", "min_wqe_inline_mode": 1, "cqn": 1, "tis_lst_sz": 1, "tis_num_0": 1, "wq_type": 1, "pd": 1,
         "uar_page": UAR, "dbr_addr_31_0": h(SQ_DBR + 0x40 * k), "log_wq_stride": 6,
         "log_wq_sz": 5, "pas[0]": h(SQ_BUF + 0x10000 * k)}
    f.update(extra)
    return cmd("create_sq_in", f, ok_out("create_sq_out", sqn=sqn) if sqn else None, length=0x118)


RQ_BUF, RQ_DBR = 0x33000000, 0x33100000
RMP_BUF, RMP_DBR = 0x34000000, 0x34100000


def create_rq(k, rqn=None, **extra):
    f = {"opcode": "CREATE_RQ", "cqn": 1, "wq_type": 1, "pd": 1,
         "dbr_addr_31_0": h(RQ_DBR + 0x40 * k), "log_wq_stride": 6, "log_wq_sz": 4,
         "pas[0]": h(RQ_BUF + 0x10000 * k)}
    f.update(extra)
    return cmd("create_rq_in", f, ok_out("create_rq_out", rqn=rqn) if rqn else None, length=0x118)


def create_rmp(k, rmpn=None):
    f = {"opcode": "CREATE_RMP", "state": 1, "wq_type": 1, "pd": 1,
         "dbr_addr_31_0": h(RMP_DBR + 0x40 * k), "log_wq_stride": 6, "log_wq_sz": 4,
         "pas[0]": h(RMP_BUF + 0x10000 * k)}
    return cmd("create_rmp_in", f, ok_out("create_rmp_out", rmpn=rmpn) if rmpn else None, length=0x118)


def exhaust(make, opcode, destroy_layout, destroy_opcode, handle, clause):
    """Two objects, the third refused (EXCEED_LIM), the second destroyed, the third again."""
    return (accepted(make(0, 1), opcode) + accepted(make(1, 2), opcode) +
            refused(make(2), opcode, "EXCEED_LIM", clause=clause) +
            accepted(cmd(destroy_layout, {"opcode": destroy_opcode, handle: 2}, ok()), destroy_opcode) +
            accepted(make(2, 2), opcode))


T("QUERY_HCA_CAP: log_max_sq, log_max_rq and log_max_rmp are 1 in the maximum and current capabilities: the device of this group supports 2 of each",
  "PRM §12.3.3 T141/T143; T145 6Ch[20:16] log_max_sq, 6Ch[28:24] log_max_rq, 70h[28:24] log_max_rmp ('Log (base2) of the number of ... supported')",
  ["Limits"], "valid", caps_query({"log_max_sq": 1, "log_max_rq": 1, "log_max_rmp": 1}))
T("Two SQs (2^log_max_sq) are created; a third CREATE_SQ exceeds the device limit: EXCEED_LIM; after DESTROY_SQ of the second, the third is created",
  "PRM §7.9; T145 6Ch[20:16] log_max_sq; §12.10.1; T128 EXCEED_LIM ('Required capability exceeds device limits')",
  ["Limits", "Handles"], "invalid",
  exhaust(create_sq, "CREATE_SQ", "destroy_sq_in", "DESTROY_SQ", "sqn", "PRM §7.9"))
T("Two RQs (2^log_max_rq) are created; a third CREATE_RQ exceeds the device limit: EXCEED_LIM; after DESTROY_RQ of the second, the third is created",
  "PRM §7.7; T145 6Ch[28:24] log_max_rq; §12.11.1; T128 EXCEED_LIM",
  ["Limits", "Handles"], "invalid",
  exhaust(create_rq, "CREATE_RQ", "destroy_rq_in", "DESTROY_RQ", "rqn", "PRM §7.7"))
T("Two RMPs (2^log_max_rmp) are created; a third CREATE_RMP exceeds the device limit: EXCEED_LIM; after DESTROY_RMP of the second, the third is created",
  "PRM §7.10; T145 70h[28:24] log_max_rmp; §12.13.1; T128 EXCEED_LIM",
  ["Limits", "Handles"], "invalid",
  exhaust(create_rmp, "CREATE_RMP", "destroy_rmp_in", "DESTROY_RMP", "rmpn", "PRM §7.10"))
wq_limits = [group("profile log_max_objects 1 (2 SQs, RQs, RMPs, CQs, TISs); HCA initialized, 16 more pages, PD 1, UAR 5, TD 1, EQ 0, CQ 1, TIS 1", wq_setup(), LIMITS)]

T("QUERY_HCA_CAP reports wq_signature = 0 as the maximum (op_mod bit 0 = 0) and the current (bit 0 = 1) capability: the device of this group does not check WQE signatures",
  "PRM §12.3.3 T141/T143; T145 40h[11] wq_signature ('WQE signature check on SQ')",
  ["Caps"], "valid", caps_query({"wq_signature": 0}))
T("CREATE_SQ with wq_signature 1 while HCA_CAP.wq_signature = 0: T55 says a set wq_signature means the WQE signature 'will be checked on this WQ', which this device cannot do: the parameter is not supported (BAD_PARAM); the same SQ without it is then created as SQ 1",
  "PRM §7.4 T55 00h[27] wq_signature ('If set, WQE signature will be checked on this WQ'); T145 40h[11] wq_signature ('WQE signature check on SQ'); T128 BAD_PARAM ('Parameter not supported')",
  ["Caps", "Handles"], "invalid",
  refused(create_sq(0, wq_signature=1), "CREATE_SQ", "BAD_PARAM", rule="WQ_SIGNATURE_UNSUPPORTED") +
  accepted(create_sq(0, 1), "CREATE_SQ"))
T("CREATE_RQ with wq_signature 1 while HCA_CAP.wq_signature = 0. T55 offers wq_signature on every WQ, while T145 words the capability 'WQE signature check on SQ': one reading makes it the capability of every WQ (BAD_PARAM, as for the SQ), the other leaves RQs outside it (OK); either conforms",
  "PRM §7.4 T55 00h[27] wq_signature; T145 40h[11] wq_signature ('WQE signature check on SQ'); T128 BAD_PARAM",
  ["Caps", "Acceptable"], "acceptable",
  [{"command": {**create_rq(0, wq_signature=1)["command"], "expect": {"delivery": "OK", "ownership": 0, "any_of": [
      {"reading": "the capability is every WQ's", "status": "BAD_PARAM"},
      {"reading": "the capability is the SQ's only", "status": "OK", "syndrome": 0}]}}},
   {"events": {"any_of": [
       {"reading": "the capability is every WQ's", "exact": True,
        "expect": [ev("cmd_fail", slot=0, opcode="CREATE_RQ", rule="WQ_SIGNATURE_UNSUPPORTED"), done("CREATE_RQ", "BAD_PARAM")]},
       {"reading": "the capability is the SQ's only", "exact": True, "expect": [done("CREATE_RQ")]}]}}])
T("CREATE_SQ with wq_signature 0 on the same device: OK",
  "PRM §7.4 T55 00h[27]; §12.10.1",
  ["Caps", "Handles"], "valid", accepted(create_sq(0, 1), "CREATE_SQ"))
wq_limits.append(group("HCA_CAP.wq_signature = 0; HCA initialized, 16 more pages, PD 1, UAR 5, TD 1, EQ 0, CQ 1, TIS 1", wq_setup(), {"caps": {"hca_cap.wq_signature": 0}}))

# ---- MKeys: 2^log_max_mkey ----


def create_mkey(k, index=None):
    """A PA MKey (access_mode 0) of 4 KB at 0x100000 + 64 KB * k (T10)."""
    f = {"opcode": "CREATE_MKEY", "lr": 1, "access_mode": 0, "qpn": "0xffffff", "pd": 1,
         "start_addr": h(0x100000 + 0x10000 * k), "len": "0x1000"}
    return cmd("create_mkey_in", f, ok_out("create_mkey_out", mkey_index=index) if index else None, length=0x110)


T("QUERY_HCA_CAP: log_max_mkey is 1 in the maximum and current capabilities: the device of this group supports 2 MKeys",
  "PRM §12.3.3 T141/T143; T145 1Ch[21:16] log_max_mkey ('Log (base 2) of the maximum number of data MKey entries')",
  ["Limits"], "valid", caps_query({"log_max_mkey": 1}))
T("Two MKeys (2^log_max_mkey) are created; a third CREATE_MKEY exceeds the device limit: EXCEED_LIM; after DESTROY_MKEY of the second, the third is created",
  "PRM §12.3.3 T145 1Ch[21:16] log_max_mkey; §12.5.1; T128 EXCEED_LIM ('Required capability exceeds device limits')",
  ["Limits", "Handles"], "invalid",
  exhaust(create_mkey, "CREATE_MKEY", "destroy_mkey_in", "DESTROY_MKEY", "mkey_index", "PRM §12.3.3"))
mkey_limits = [group("profile log_max_objects 1 (2 MKeys); HCA initialized, PD 1, 16 more pages",
                     [{"bring_up": {"to": "initialized"}}, alloc("alloc_pd_in", "ALLOC_PD", "pd", 1),
                      manage_pages(16), events([], exact=False)], LIMITS)]

# ---- TIS, TIR, RQT: 2^log_max_tis/tir/rqt ----


def tir_setup():
    """PD 1, TD 1, UAR 5, pages, EQ 0, CQ 1 and RQs 1 and 2 (the device's two RQs)."""
    return [{"bring_up": {"to": "initialized"}}, alloc("alloc_pd_in", "ALLOC_PD", "pd", 1),
            alloc("alloc_transport_domain_in", "ALLOC_TRANSPORT_DOMAIN", "transport_domain", 1),
            alloc_uar(), manage_pages(16), eq_init(EQ_BUF, 8), create_eq(log_size=3),
            cq_init(CQ_BUF, 8), create_cq(log_size=3), create_rq(0, 1), create_rq(1, 2),
            events([], exact=False)]


def create_tis(k, tisn=None):
    return cmd("create_tis_in", {"opcode": "CREATE_TIS", "transport_domain": 1},
               ok_out("create_tis_out", tisn=tisn) if tisn else None)


def create_tir(k, tirn=None):
    """A Direct TIR (disp_type 0) delivering to RQ 1 (T45)."""
    return cmd("create_tir_in", {"opcode": "CREATE_TIR", "disp_type": 0, "inline_rqn": 1, "transport_domain": 1},
               ok_out("create_tir_out", tirn=tirn) if tirn else None)


def create_rqt(k, rqtn=None):
    """An RQT of one entry, RQ 1 (T59)."""
    return cmd("create_rqt_in", {"opcode": "CREATE_RQT", "rqt_max_size": 1, "rqt_actual_size": 1, "rq_num[0]": 1},
               ok_out("create_rqt_out", rqtn=rqtn) if rqtn else None, length=0x114)


T("QUERY_HCA_CAP: log_max_tis, log_max_tir and log_max_rqt are 1 in the maximum and current capabilities: the device of this group supports 2 of each",
  "PRM §12.3.3 T141/T143; T145 6Ch[4:0] log_max_tis, 6Ch[12:8] log_max_tir, 70h[20:16] log_max_rqt",
  ["Limits"], "valid", caps_query({"log_max_tis": 1, "log_max_tir": 1, "log_max_rqt": 1}))
T("Two TISs (2^log_max_tis) are created; a third CREATE_TIS exceeds the device limit: EXCEED_LIM; after DESTROY_TIS of the second, the third is created",
  "PRM §12.3.3 T145 6Ch[4:0] log_max_tis; §12.9.1; T128 EXCEED_LIM ('Required capability exceeds device limits')",
  ["Limits", "Handles"], "invalid",
  exhaust(create_tis, "CREATE_TIS", "destroy_tis_in", "DESTROY_TIS", "tisn", "PRM §12.3.3"))
T("Two Direct TIRs (2^log_max_tir) are created; a third CREATE_TIR exceeds the device limit: EXCEED_LIM; after DESTROY_TIR of the second, the third is created",
  "PRM §7.5 ('the number of supported TIRs is reported via the QUERY_HCA command through the log_max_tir parameter'); §12.3.3 T145 6Ch[12:8] log_max_tir; §12.8.1; T128 EXCEED_LIM",
  ["Limits", "Handles"], "invalid",
  exhaust(create_tir, "CREATE_TIR", "destroy_tir_in", "DESTROY_TIR", "tirn", "PRM §12.3.3"))
T("Two RQTs (2^log_max_rqt) are created; a third CREATE_RQT exceeds the device limit: EXCEED_LIM; after DESTROY_RQT of the second, the third is created",
  "PRM §12.3.3 T145 70h[20:16] log_max_rqt; §12.12.1; T128 EXCEED_LIM",
  ["Limits", "Handles"], "invalid",
  exhaust(create_rqt, "CREATE_RQT", "destroy_rqt_in", "DESTROY_RQT", "rqtn", "PRM §12.3.3"))
tir_limits = [group("profile log_max_objects 1 (2 TISs, TIRs, RQTs, RQs); HCA initialized, PD 1, TD 1, UAR 5, 16 more pages, EQ 0, CQ 1, RQs 1 and 2", tir_setup(), LIMITS)]

# ---- the vlan list of the NIC vport: 2^log_max_vlan_list ----


def vlan_list(n, first=1):
    """MODIFY_NIC_VPORT_CONTEXT of the vlan list (field_select bit 2, allowed_list_type 2) of n
    vlans first, first+1, ... (T17: vlan at 00h[11:0] of each 64-bit element)."""
    f = {"opcode": "MODIFY_NIC_VPORT_CONTEXT", "field_select": "0x4", "allowed_list_type": 2,
         "allowed_list_size": n}
    for i in range(n):
        f["addresses_list[%d]" % i] = "0x%016X" % ((first + i) << 32)
    return cmd("modify_nic_vport_context_in", f, None, length=0x200 + 8 * n)


def vlan_query(n, first=1):
    f = {"allowed_list_size": n}
    for i in range(n):
        f["addresses_list[%d]" % i] = "0x%016X" % ((first + i) << 32)
    return accepted(cmd("query_nic_vport_context_in", {"opcode": "QUERY_NIC_VPORT_CONTEXT", "allowed_list_type": 2},
                        ok_out("query_nic_vport_context_out", **f), output_length=0x110 + 8 * max(n, 1)),
                    "QUERY_NIC_VPORT_CONTEXT")


def with_ok(step):
    step["command"]["expect"] = ok()
    return step


T("QUERY_HCA_CAP reports log_max_vlan_list = 2 as the maximum and current capability",
  "PRM §12.3.3 T141/T143; T145 7Ch[20:16] log_max_vlan_list ('Log (base2) of the maximum size of vlan list used in nic_vport_context')",
  ["Caps"], "valid", caps_query({"log_max_vlan_list": 2}))
T("A vlan list of 5 on a device whose vlan list holds at most 2^2 = 4 (log_max_vlan_list 2): BAD_PARAM under either reading of T16's bound (4, or the log value 2 itself); the list stays empty",
  "PRM §7.3 T16 F0h allowed_list_size ('allowed_list_size must be <=HCA_CAP.log_max_vlan_list', in the line that names the vlan list current_uc_mac_address); T145 7Ch[20:16]; §12.16.4 T483; T128 BAD_PARAM ('parameter out of range'); D-VP-1",
  ["Caps"], "invalid",
  refused(vlan_list(5), "MODIFY_NIC_VPORT_CONTEXT", "BAD_PARAM", clause="PRM §7.3") + vlan_query(0))
T("A vlan list of 2, within the bound under either reading: OK, and QUERY_NIC_VPORT_CONTEXT returns it",
  "PRM §7.3 T16 F0h allowed_list_size; T17; §12.16.4 T483; §12.16.3 T481",
  ["Caps"], "valid", accepted(with_ok(vlan_list(2)), "MODIFY_NIC_VPORT_CONTEXT") + vlan_query(2))
T("A vlan list of 4 = 2^log_max_vlan_list. T16's bound is the capability, a log: read as the size it gives (2^2 = 4, D-VP-1) the list fits (OK); read as the number itself (2) it does not (BAD_PARAM); either conforms",
  "PRM §7.3 T16 F0h allowed_list_size ('must be <=HCA_CAP.log_max_vlan_list'); T145 7Ch[20:16] ('Log (base2) of the maximum size of vlan list'); §12.16.4 T483; D-VP-1",
  ["Caps", "Acceptable"], "acceptable",
  [{"command": {**vlan_list(4)["command"], "expect": {"delivery": "OK", "ownership": 0, "any_of": [
      {"reading": "the bound is 2^log_max_vlan_list", "status": "OK", "syndrome": 0},
      {"reading": "the bound is log_max_vlan_list itself", "status": "BAD_PARAM"}]}}}])
vport_limits = [group("HCA_CAP.log_max_vlan_list = 2 (4 vlans); HCA initialized", [{"bring_up": {"to": "initialized"}}],
                      {"caps": {"hca_cap.log_max_vlan_list": 2}})]

# ---- the files ----

write("cq/cq_limits.json", "cq",
      ["The CQ count limit (PRM §7.12, T145 18h[4:0] log_max_cq) on a device of 2 CQs: the profile of the group sets log_max_objects 1 (docs/vectors.md \"profile\").",
       "Refusals are matched by status (T128) and, in the events, by the clause the refusing rule cites. Generated by vectors/gen/gen_limits.py."],
      NOTES, cq_limits)
write("cq/cq_record.json", "cq",
      ["The CQ doorbell record (PRM §7.12.2 T69/T70) when software breaks it: update_ci ahead of the CQEs the device wrote (§7.12.1).",
       "CQEs come from an SQ in ERR with flush_in_error_en, as in cqe.json. Generated by vectors/gen/gen_limits.py."],
      NOTES, cq_record)
write("wq/wq_limits.json", "wq",
      ["The SQ, RQ and RMP count limits (PRM §7.7, §7.9, §7.10; T145 log_max_sq, log_max_rq, log_max_rmp) on a device of 2 of each (profile log_max_objects 1), and WQE signatures (T55 00h[27]) on a device without HCA_CAP.wq_signature (caps).",
       "Setup as in sq.json. Refusals are matched by status (T128) and, in the events, by the clause the refusing rule cites (WQ_SIGNATURE_UNSUPPORTED, which cites tables only, by its name). Generated by vectors/gen/gen_limits.py."],
      NOTES, wq_limits)
write("mkey/mkey_limits.json", "mkey",
      ["The MKey count limit (PRM §12.3.3 T145 1Ch[21:16] log_max_mkey) on a device of 2 MKeys (profile log_max_objects 1).",
       "Refusals are matched by status (T128) and, in the events, by the clause the refusing rule cites. Generated by vectors/gen/gen_limits.py."],
      NOTES, mkey_limits)
write("tir/tir_limits.json", "tir",
      ["The TIS, TIR and RQT count limits (PRM §12.3.3 T145 log_max_tis, log_max_tir, log_max_rqt) on a device of 2 of each (profile log_max_objects 1).",
       "Setup as in tir.json with RQs 1 and 2. Refusals are matched by status (T128) and, in the events, by the clause the refusing rule cites. Generated by vectors/gen/gen_limits.py."],
      NOTES, tir_limits)
write("vport/vport_limits.json", "vport",
      ["The vlan list of the NIC vport (PRM §7.3 T16, §12.16.4) on a device whose list holds 4 vlans (caps hca_cap.log_max_vlan_list 2): the default's 2^12 is beyond what the 12-bit allowed_list_size can state.",
       "Refusals are matched by status (T128) and, in the events, by the clause the refusing rule cites. Generated by vectors/gen/gen_limits.py."],
      NOTES, vport_limits)

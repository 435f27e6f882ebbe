#!/usr/bin/python3
"""The vocabulary of gen_qp.py (vectors/qp/*.json): the public mlx5 constants it uses (opcodes,
states, opt_param_mask bits, the transitions' optional masks), the command and setup step
builders, the test-file builder, the notes and the header. The expectations are derived in
gen_qp.py from the sources its docstring lists ([IFC], [QPH], [MLX5IB], [IBTA], [PRM], [S004]);
nothing here reads nicref's output or its model.
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

# ---- public constants ------------------------------------------------------------------------
# [IFC] MLX5_CMD_OP_*
OP = {"CREATE_QP": 0x500, "DESTROY_QP": 0x501, "RST2INIT_QP": 0x502, "INIT2RTR_QP": 0x503,
      "RTR2RTS_QP": 0x504, "RTS2RTS_QP": 0x505, "SQERR2RTS_QP": 0x506, "2ERR_QP": 0x507,
      "2RST_QP": 0x50A, "QUERY_QP": 0x50B, "SQD_RTS_QP": 0x50C, "INIT2INIT_QP": 0x50E,
      "QUERY_ROCE_ADDRESS": 0x760, "SET_ROCE_ADDRESS": 0x761}
# the input layout of each command ([IFC] struct name without mlx5_ifc_ and _bits)
LAYOUT = {"CREATE_QP": "create_qp_in", "DESTROY_QP": "destroy_qp_in",
          "RST2INIT_QP": "rst2init_qp_in", "INIT2RTR_QP": "init2rtr_qp_in",
          "RTR2RTS_QP": "rtr2rts_qp_in", "RTS2RTS_QP": "rts2rts_qp_in",
          "SQERR2RTS_QP": "sqerr2rts_qp_in", "2ERR_QP": "qp_2err_in", "2RST_QP": "qp_2rst_in",
          "QUERY_QP": "query_qp_in", "SQD_RTS_QP": "sqd2rts_qp_in",
          "INIT2INIT_QP": "init2init_qp_in", "QUERY_ROCE_ADDRESS": "query_roce_address_in",
          "SET_ROCE_ADDRESS": "set_roce_address_in"}
# [QPH] enum mlx5_qp_state
RST, INIT, RTR, RTS, SQER, SQD, ERR = 0, 1, 2, 3, 4, 5, 6
STATE_NAME = {RST: "RST", INIT: "INIT", RTR: "RTR", RTS: "RTS", SQER: "SQER", SQD: "SQD",
              ERR: "ERR"}
# [QPH] MLX5_QP_ST_*
ST_RC, ST_UC, ST_UD, ST_XRC = 0, 1, 2, 3
PM_MIGRATED = 3                      # [QPH] MLX5_QP_PM_MIGRATED
RQ_SRQ = 1                           # [QPH] MLX5_SRQ_RQ
# [QPH] enum mlx5_qp_optpar
OPT = {"ALT_ADDR_PATH": 1 << 0, "RRE": 1 << 1, "RAE": 1 << 2, "RWE": 1 << 3,
       "PKEY_INDEX": 1 << 4, "Q_KEY": 1 << 5, "RNR_TIMEOUT": 1 << 6,
       "PRIMARY_ADDR_PATH": 1 << 7, "SRA_MAX": 1 << 8, "RRA_MAX": 1 << 9, "PM_STATE": 1 << 10,
       "RETRY_COUNT": 1 << 12, "RNR_RETRY": 1 << 13, "ACK_TIMEOUT": 1 << 14, "PRI_PORT": 1 << 16,
       "SRQN": 1 << 18, "CQN_RCV": 1 << 19}
# [MLX5IB] opt_mask[cur][new][st] for RC and UD (the optional attributes of each transition)
OPT_MASK = {
    ("INIT2INIT_QP", ST_RC): ("RRE", "RAE", "RWE", "PKEY_INDEX", "PRI_PORT"),
    ("INIT2INIT_QP", ST_UD): ("PKEY_INDEX", "Q_KEY", "PRI_PORT"),
    ("INIT2RTR_QP", ST_RC): ("ALT_ADDR_PATH", "RRE", "RAE", "RWE", "PKEY_INDEX"),
    ("INIT2RTR_QP", ST_UD): ("PKEY_INDEX", "Q_KEY"),
    ("RTR2RTS_QP", ST_RC): ("ALT_ADDR_PATH", "RRE", "RAE", "RWE", "PM_STATE", "RNR_TIMEOUT"),
    ("RTR2RTS_QP", ST_UD): ("Q_KEY",),
    ("RTS2RTS_QP", ST_RC): ("RRE", "RAE", "RWE", "RNR_TIMEOUT", "PM_STATE", "ALT_ADDR_PATH"),
    ("RTS2RTS_QP", ST_UD): ("Q_KEY", "SRQN", "CQN_RCV"),
}
# [MLX5IB] optab / [IBTA] §10.3: the state each modify command moves from and to
MOVE = {"RST2INIT_QP": ((RST,), INIT), "INIT2INIT_QP": ((INIT,), INIT),
        "INIT2RTR_QP": ((INIT,), RTR), "RTR2RTS_QP": ((RTR,), RTS),
        "RTS2RTS_QP": ((RTS,), RTS), "SQERR2RTS_QP": ((SQER,), RTS),
        "SQD_RTS_QP": ((SQD,), RTS),
        "2ERR_QP": ((RST, INIT, RTR, RTS, SQER, SQD, ERR), ERR),
        "2RST_QP": ((RST, INIT, RTR, RTS, SQER, SQD, ERR), RST)}
MODIFY = ["RST2INIT_QP", "INIT2INIT_QP", "INIT2RTR_QP", "RTR2RTS_QP", "RTS2RTS_QP",
          "SQERR2RTS_QP", "SQD_RTS_QP", "2ERR_QP", "2RST_QP"]
# [IFC] MLX5_CMD_STAT_BAD_QP_STATE_ERR; PRM T128 0x10 BAD_RESOURCE_STATE ("not in the presumed state")
BAD_QP_STATE = "0x10"
WRONG_STATE = {"in": ["BAD_RES_STATE", BAD_QP_STATE]}

# the schema wants a project document named in every cite; a QP command is beyond the PRM
CITE_OK = re.compile(r"(PRM|seed|00[0-4]|ADP|DLL|UV) ")
# ---- citations -----------------------------------------------------------------------------
C_IFC = "mlx5_ifc.h"
C_STATES = "IBTA Vol. 1 §10.3 (QP state transitions); Linux mlx5 ib qp.c optab"
C_ATTRS = "IBTA Vol. 1 §11.2.4 (Modify QP attributes per transition; Linux verbs.c qp_state_table)"
C_OPTMASK = "Linux mlx5 ib qp.c opt_mask; qp.h enum mlx5_qp_optpar"
C_T128 = "PRM T128"
C_S004_QP01 = "seed 004 L42-44 (QP0/QP1 reserved for management)"
C_S004_OPS = "seed 004 L33-37 (RC: Send/Receive/Write; UD: Send/Receive)"
C_S004_NUM = "seed 004 L42-43, L151 (4096 QPs standard)"

# ---- the setup every group shares ----------------------------------------------------------
PD, UAR, UAR2, TD = 1, 5, 6, 1
CQ_SND, CQ_RCV, CQ3 = 1, 2, 3
EQ = 0
FIRST_QPN = 2       # lowest free from 2 (Handles note): QP0/QP1 are never handed out
GID0 = "00000000000000000000ffffc0000201"       # ::ffff:192.0.2.1, the local RoCEv2 IPv4 GID
GID_V6 = "20010db8000000000000000000000001"     # 2001:db8::1
RGID = "00000000000000000000ffffc0000202"       # ::ffff:192.0.2.2, the peer
SMAC = (0x0200, 0x00000001)
RMAC = (0x0200, 0x00000002)


def cmd(name, fields=None, expect=None, **extra):
    """One command step: input through [IFC]'s layout, the output checked as `expect` says."""
    c = {"layout": LAYOUT.get(name, name),
         "fields": dict({"opcode": name}, **(fields or {}))}
    c.update(extra)
    c["expect"] = expect if expect is not None else {"status": "OK"}
    return {"command": c}


def ok_out(layout, fields):
    return {"status": "OK", "output": {"layout": layout, "fields": fields}}


def eq_cq_setup():
    """EQ 0 (8 EQEs) and CQs 1, 2 and 3 (8 CQEs each), owned by hardware (PRM §7.12, §8.x)."""
    s = [{"mem_write": {"addr": hex(0x31000000 + 64 * i + 63), "hex": "01"}} for i in range(8)]
    s.append(cmd("CREATE_EQ", {"log_eq_size": 3, "uar_page": UAR, "event_bitmask": "0x1C0020",
                               "pas[0]": "0x31000000"}, ok_out("create_eq_out", {"eq_number": EQ}),
                 length="0x118", layout="create_eq_in"))
    for k, cqn in enumerate((CQ_SND, CQ_RCV, CQ3)):
        base = 0x30000000 + 0x10000 * k
        s += [{"mem_write": {"addr": hex(base + 64 * i + 63), "hex": "f1"}} for i in range(8)]
        s.append(cmd("CREATE_CQ", {"log_cq_size": 3, "uar_page": UAR, "c_eqn": EQ,
                                   "dbr_addr": hex(0x30100000 + 0x40 * k), "pas[0]": hex(base)},
                     ok_out("create_cq_out", {"cqn": cqn}), length="0x118",
                     layout="create_cq_in"))
    return s


def gid_entry(l3=GID0, v6=False, version=2, vlan=None, mac=SMAC):
    f = {"source_l3_address": l3, "roce_l3_type": 1 if v6 else 0, "roce_version": version,
         "source_mac_47_32": mac[0], "source_mac_31_0": mac[1]}
    if vlan is not None:
        f.update({"vlan_valid": 1, "vlan_id": vlan})
    return f


def set_gid(index, entry, expect=None):
    return cmd("SET_ROCE_ADDRESS", dict({"roce_address_index": index, "vhca_port_num": 0}, **entry),
               expect)


def query_gid(index, expect):
    return cmd("QUERY_ROCE_ADDRESS", {"roce_address_index": index, "vhca_port_num": 0}, expect,
               output_length="0x30")


def common_setup(gid=True):
    s = [{"bring_up": {"to": "initialized"}},
         cmd("MANAGE_PAGES", dict({"op_mod": 1, "input_num_entries": 16},
                                  **{f"pas[{i}]": hex(0x11000000 + 0x1000 * i) for i in range(16)}),
             length="0x90", layout="manage_pages_in"),
         cmd("ALLOC_PD", {}, ok_out("alloc_pd_out", {"pd": PD}), layout="alloc_pd_in"),
         cmd("ALLOC_UAR", {}, ok_out("alloc_uar_out", {"uar": UAR}), layout="alloc_uar_in"),
         cmd("ALLOC_TRANSPORT_DOMAIN", {}, ok_out("alloc_transport_domain_out",
                                                  {"transport_domain": TD}),
             layout="alloc_transport_domain_in")]
    s += eq_cq_setup()
    if gid:
        s.append(set_gid(0, gid_entry()))
    s.append({"events": {"exact": False, "expect": []}})
    return s


# ---- QP building blocks --------------------------------------------------------------------
def qp_create_fields(st, k, **over):
    """What a driver puts in CREATE_QP ([MLX5IB] create_qp_common / [IFC] qpc): RQ of 16 x 64 B,
    SQ of 16 x 64 B, one 4 KB page (log_page_size 0 = 4 KB)."""
    f = {"st": st, "pm_state": PM_MIGRATED, "pd": PD, "uar_page": UAR, "log_rq_size": 4,
         "log_rq_stride": 2, "log_sq_size": 4, "cqn_snd": CQ_SND, "cqn_rcv": CQ_RCV,
         "log_page_size": 0, "dbr_addr": hex(0x35100000 + 0x40 * k),
         "pas[0]": hex(0x35000000 + 0x10000 * k)}
    f.update(over)
    # [IFC] create_qp_in pas[]: a page address for every page of the buffer (D-QP-12).
    base = int(f["pas[0]"], 16) if "pas[0]" in f else 0x35000000 + 0x10000 * k
    for i in range(1, qp_pages(f)):
        f.setdefault(f"pas[{i}]", hex(base + (4096 << f.get("log_page_size", 0)) * i))
    return f


def num(v):
    return int(v, 16) if isinstance(v, str) else v


def qp_pages(f):
    """Pages the buffer a qpc describes spans ([IFC] qpc; the mlx5 driver lays it out so,
    [MLX5IB] set_rq_size/calc_sq_size): the RQ (2^log_rq_size strides of 16 B << log_rq_stride,
    rq_type 0 only), then the SQ (2^log_sq_size 64-byte WQEBBs unless no_sq), from page_offset
    (page / 64 units), in pages of 4 KB << log_page_size."""
    page = 4096 << num(f.get("log_page_size", 0))
    size = num(f.get("page_offset", 0)) * (page // 64)
    if num(f.get("rq_type", 0)) == 0:
        size += (1 << num(f.get("log_rq_size", 0))) << (num(f.get("log_rq_stride", 0)) + 4)
    if not num(f.get("no_sq", 0)):
        size += (1 << num(f.get("log_sq_size", 0))) * 64
    return (size + page - 1) // page


def npas(f):
    return sum(1 for key in f if key.startswith("pas["))


def create_qp(st, k=0, qpn=None, expect=None, input_length=None, **over):
    if expect is None:
        expect = ok_out("create_qp_out", {"qpn": qpn if qpn is not None else FIRST_QPN + k})
    extra = {"input_length": input_length} if input_length else {}
    f = qp_create_fields(st, k, **over)
    return cmd("CREATE_QP", f, expect, length=hex(0x110 + 8 * max(1, npas(f))), **extra)


P = "primary_address_path_"
# the attributes a driver gives on each transition (values chosen to be recognisable)
RC_RST2INIT = {P + "pkey_index": 0, P + "vhca_port_num": 1, "rre": 1, "rwe": 1, "rae": 0}
UD_RST2INIT = {P + "pkey_index": 0, P + "vhca_port_num": 1, "q_key": "0x11111111"}
RC_INIT2RTR = {"mtu": 3, "remote_qpn": "0x123", "next_rcv_psn": "0xabcd", "min_rnr_nak": 12,
               "log_rra_max": 2, P + "grh": 1, P + "src_addr_index": 0, P + "hop_limit": 64,
               P + "rgid_rip": RGID, P + "rmac_47_32": RMAC[0], P + "rmac_31_0": RMAC[1],
               P + "vhca_port_num": 1, P + "pkey_index": 0}
UD_INIT2RTR = {}
RC_RTR2RTS = {"next_send_psn": "0x1234", "retry_count": 7, "rnr_retry": 7,
              P + "ack_timeout": 14, "log_sra_max": 2}
UD_RTR2RTS = {"next_send_psn": "0x22"}
ATTRS = {("RST2INIT_QP", ST_RC): RC_RST2INIT, ("RST2INIT_QP", ST_UD): UD_RST2INIT,
         ("INIT2RTR_QP", ST_RC): RC_INIT2RTR, ("INIT2RTR_QP", ST_UD): UD_INIT2RTR,
         ("RTR2RTS_QP", ST_RC): RC_RTR2RTS, ("RTR2RTS_QP", ST_UD): UD_RTR2RTS}
# what QUERY_QP must show after each transition (the union of what was given so far)
SEEN = {ST_RC: [RC_RST2INIT, RC_INIT2RTR, RC_RTR2RTS], ST_UD: [UD_RST2INIT, UD_INIT2RTR,
                                                               UD_RTR2RTS]}
PATH_TO = {RST: [], INIT: ["RST2INIT_QP"], RTR: ["RST2INIT_QP", "INIT2RTR_QP"],
           RTS: ["RST2INIT_QP", "INIT2RTR_QP", "RTR2RTS_QP"],
           ERR: ["RST2INIT_QP", "2ERR_QP"]}


def modify(name, qpn, st=ST_RC, fields=None, mask=0, expect=None, ctx=None):
    """A transition as a driver sends it: the qpc carries st, pm_state, pd and the CQs on every
    modify ([MLX5IB] __mlx5_ib_modify_qp), plus the attributes of the transition."""
    f = {"qpn": qpn}
    if name not in ("2ERR_QP", "2RST_QP"):
        f.update({"st": st, "pm_state": PM_MIGRATED, "pd": PD, "cqn_snd": CQ_SND,
                  "cqn_rcv": CQ_RCV, "opt_param_mask": hex(mask)})
        f.update({k: v for k, v in (ctx or {}).items() if k in ("pd", "cqn_snd", "cqn_rcv")})
        f.update(ATTRS.get((name, st), {}) if fields is None else fields)
    return cmd(name, f, expect)


def drive(qpn, st, target, ctx=None):
    """The commands that bring a new QP to `target`; ctx: the PD/CQs it was created with."""
    return [modify(n, qpn, st, ctx=ctx) for n in PATH_TO[target]]


def beyond(rule):
    """A number outside its object's range: T128 BAD_INDEX ('Index out of range (might be beyond
    table size or attempt to access a reserved resource)'), the model's reading (D-OBJ-2, rule
    <rule>_OUT_OF_RANGE), or BAD_RESOURCE ('reserved or unallocated resource')."""
    return {"any_of": [{"reading": "D-OBJ-2: outside the range (BAD_INDEX)", "status": "BAD_INDEX",
                        "rule": f"{rule}_OUT_OF_RANGE"},
                       {"reading": "unallocated (BAD_RESOURCE)", "status": "BAD_RESOURCE"}]}


def query(qpn, fields, expect_status="OK"):
    if expect_status != "OK":
        return cmd("QUERY_QP", {"qpn": qpn}, {"status": expect_status}, output_length="0x110")
    return cmd("QUERY_QP", {"qpn": qpn}, ok_out("query_qp_out", fields), output_length="0x110")


def query_state(qpn, state):
    return query(qpn, {"state": state})


def given(st, upto):
    """Fields a QUERY_QP must return after the first `upto` transitions of st's chain."""
    f = {}
    for d in SEEN[st][:upto]:
        f.update(d)
    return f


def created(st):
    f = qp_create_fields(st, 0)
    for k in ("pas[0]", "dbr_addr", "log_page_size"):
        f.pop(k)
    return f


# ---- tests ---------------------------------------------------------------------------------
class File:
    def __init__(self, feature, header, notes):
        self.feature, self.header, self.notes, self.groups = feature, header, notes, []

    def group(self, comment, setup, profile=None, caps=None):
        g = {"comment": comment}
        if profile:
            g["profile"] = profile
        if caps:
            g["caps"] = caps
        g["setup"] = setup
        g["tests"] = []
        self.groups.append(g)
        return g

    def test(self, g, comment, cite, result, steps, flags=("Handles",)):
        n = sum(len(x["tests"]) for x in self.groups) + 1
        if not CITE_OK.search(cite):
            cite += "; beyond PRM Rev 0.40"
        g["tests"].append({"tcId": n, "comment": comment, "cite": cite, "flags": list(flags),
                           "result": result, "steps": steps})

    def doc(self):
        return {"schema": "nicref_vectors_v1", "feature": self.feature, "header": self.header,
                "notes": self.notes,
                "numberOfTests": sum(len(g["tests"]) for g in self.groups),
                "testGroups": self.groups}


NOTES = {
    "Handles": {"bugType": "PROFILE", "description":
                "Objects are named by the numbers the device handed out in the same test: PD, "
                "TD, CQ, RMP from 1, EQ from 0, UAR from 5 (D-OBJ-2, D-UAR-1), QPNs lowest free "
                "from 2 because QP0 and QP1 are never handed out (seed 004 L42-44; D-QP-3). A "
                "device numbering otherwise needs the numbers substituted; the numbering-free "
                "reading of QP0/QP1 is pinned by create.json's matchers (qpn >= 2)."},
    "Reserved": {"bugType": "CONFORMANCE", "description":
                 "PRM §12.1 'Reserved fields on input must be set to 0', T128 BAD_PARAM "
                 "'reserved not equal 0', applied to the reserved bits of the public mlx5 layout; "
                 "the default profile refuses (D-CMD-8) and nothing changes."},
    "Framing": {"bugType": "CONFORMANCE", "description":
                "input_length below what the command's layout needs: BAD_INPUT_LEN (T128 0x50); "
                "output_length below its output: BAD_OUTPUT_LEN (0x51); nothing changes."},
    "Acceptable": {"bugType": "AMBIGUOUS_SPEC", "description":
                   "The public material requires the refusal (or the outcome) but not the exact "
                   "status, or allows two readings: the test admits each status that fits "
                   "(PRM T128 / mlx5_ifc.h MLX5_CMD_STAT_*) or lists each reading (any_of); "
                   "what it checks afterwards holds under every reading."},
}
HEADER = [
    "QP commands beyond ConnectX-4 PRM Rev 0.40, from the public mlx5 interface: Linux "
    "include/linux/mlx5/mlx5_ifc.h (opcodes, qpc/ads layouts, command in/out), "
    "include/linux/mlx5/qp.h (optpar bits, states, service types), "
    "drivers/infiniband/hw/mlx5/qp.c (optab, opt_mask), IBTA Vol. 1 §10.3 and §11.2.4.",
    "Setup: HCA initialized, 16 ICM pages at 0x11000000, PD 1, UAR 5, TD 1, EQ 0, CQs 1, 2, 3 "
    "(CQ 1 the send CQ, CQ 2 the receive CQ of every QP), GID 0 = ::ffff:192.0.2.1 (RoCEv2, "
    "IPv4) on port 1.",
    "Generated by vectors/qp/gen/gen_qp.py from the public material only (never from nicref); "
    "do not edit by hand.",
]


def rst2init_hex_reserved():
    """RST2INIT_QP of QPN 2 as raw bytes ([IFC] rst2init_qp_in, 110h bytes) with a valid RC
    context (port 1, PD 1, CQs 1/2) and one reserved bit set: 08h[31] (reserved_at_40)."""
    b = bytearray(0x110)
    b[0:2] = OP["RST2INIT_QP"].to_bytes(2, "big")
    b[8:12] = (0x80000000 | FIRST_QPN).to_bytes(4, "big")
    q = 0x18                                      # qpc
    b[q + 0x04:q + 0x08] = PD.to_bytes(4, "big")  # qpc 20h[23:0] pd
    b[q + 0x01] = ST_RC                           # qpc 00h[23:16] st
    b[q + 0x02] = PM_MIGRATED << 3                # qpc 00h[12:11] pm_state
    b[q + 0x18 + 0x25] = 1                        # ads 120h[23:16] vhca_port_num (bit 0x128)
    b[q + 0x7C:q + 0x80] = CQ_SND.to_bytes(4, "big")   # qpc 3E0h cqn_snd
    b[q + 0x9C:q + 0xA0] = CQ_RCV.to_bytes(4, "big")   # qpc 4E0h cqn_rcv
    return " ".join(b[i:i + 4].hex() for i in range(0, len(b), 4))


def reserved_event(offset, bits):
    """The driver violation the project reports for a reserved bit set (PRM §12.1; D-CMD-8)."""
    return {"events": {"exact": False, "expect": [
        {"event": "violation", "rule": "CMD_RESERVED_NOT_ZERO", "arg": hex(offset << 32 | bits)}]}}


def short(step, input_length):
    step["command"]["input_length"] = input_length
    return step

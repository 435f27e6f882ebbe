"""What the LRO vector files of gen_lro.py share: the segments (Scapy), the receive setup,
the test builder that runs lro_model.py under each reading, the expectation steps. Written
from ConnectX-4 PRM Rev 0.40 §3.3.6 alone (see gen_lro.py)."""
# The parts import everything from here (`from lro_common import *`), these modules included.
import json
import os
import struct  # noqa: F401
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
OUT = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(OUT))
EXAMPLES = os.path.join(ROOT, "examples", "lro")
sys.path.insert(0, os.path.join(ROOT, "vectors", "gen"))

from scapy.all import (IP, TCP, UDP, Dot1Q, Dot3, Ether, IPv6, IPv6ExtHdrDestOpt,  # noqa: E402,F401
                       IPv6ExtHdrFragment, IPv6ExtHdrHopByHop, IPOption_NOP, LLC, SNAP, Raw)

import lro_model as M  # noqa: E402
from genfiles import VFileBase, write_or_check  # noqa: E402

OWN_MAC = "02:4e:49:43:52:46"  # the vport's permanent address
PEER_MAC = "02:00:00:00:00:99"
DATA = 0x50000000             # the rx_setup data region
WQE_SPAN = 0x8000             # each receive WQE: one entry of 32 KiB, its own buffer
RQ_SPAN = 0x80000             # RQ i's buffers from DATA + 0x1000 + i * RQ_SPAN
US = 1000

C_OPEN = "PRM §3.3.6.2"
C_END = "PRM §3.3.6.3"
C_MERGE = "PRM §3.3.6.4"
C_SCATTER = "PRM §3.3.6.5"
C_CQE = "PRM §3.3.6.6 T5, §7.12.1.1 T68"
C_TIR = "PRM §3.3.6.1, T45 lro_enable_mask"
C_TIMER = "PRM §3.3.6.3, T45 lro_timeout_period_usecs, T147 lro_timer_supported_periods"
C_SIZE = "PRM §3.3.6.3, §3.3.6.4, T45 lro_max_msg_sz, T147 lro_max_msg_sz_mode"
C_FLOW = "PRM §3.3.6.1 (LRO Flow ID)"

CAPS = "per_protocol_networking_offload_caps."

# ---------------------------------------------------------------------------------------------
# Segments


def payload(n, seed):
    return bytes((seed * 13 + i * 7 + 3) & 0xFF for i in range(n))


SEQ0, ACK0, WIN0 = 0x10000000, 0x20000000, 0x2000
TS = [("NOP", None), ("NOP", None)]


def seg(seq=SEQ0, n=100, flags="A", ack=ACK0, win=WIN0, ts=None, v6=False, sport=0x1234,
        dport=0x5678, src=None, dst=None, vlan=None, ttl=64, tos=0, ipflags=0, ipid=1,
        opts=None, ip_opts=None, ext=None, fl=0, chksum=None, ipchk=None, reserved=0):
    """One TCP segment, its payload n bytes seeded by its sequence number."""
    o = list(opts) if opts is not None else []
    if ts is not None and opts is None:
        o = TS + [("Timestamp", ts)]
    seq &= 0xFFFFFFFF
    tcp = TCP(sport=sport, dport=dport, seq=seq, ack=ack, flags=flags, window=win, options=o,
              reserved=reserved)
    if chksum is not None:
        tcp.chksum = chksum
    if v6:
        ip = IPv6(src=src or "2001:db8::1", dst=dst or "2001:db8::2", hlim=ttl, tc=tos, fl=fl)
        if ext is not None:
            ip = ip / ext
    else:
        ip = IP(src=src or "10.0.0.1", dst=dst or "10.0.0.2", ttl=ttl, tos=tos, flags=ipflags,
                id=ipid, options=ip_opts or [])
        if ipchk is not None:
            ip.chksum = ipchk
    e = Ether(dst=OWN_MAC, src=PEER_MAC)
    if vlan is not None:
        e = e / Dot1Q(prio=vlan[0], vlan=vlan[1])
    b = bytes(e / ip / tcp / Raw(payload(n, seq)))
    return b + bytes(max(0, 60 - len(b)))  # §3.3.8: 64 bytes with the FCS


def stream(k, n=100, seq=SEQ0, **kw):
    """k in-order segments of n bytes."""
    return [seg(seq=seq + i * n, n=n, **kw) for i in range(k)]


# ---------------------------------------------------------------------------------------------
# Vector files (docs/vectors.md)


class VFile(VFileBase):
    """A vector file of this generator (genfiles.VFileBase: the groups and the document)."""


BRING_UP = {"bring_up": {"to": "initialized"}}


class Setup:
    """A group's receive configuration, for the rx_setup step and for the model."""

    def __init__(self, tirs=({},), rqs=None, caps=None, profile=None, steer=True, vsd=0,
                 cap_bytes=None):
        self.tirs = list(tirs)     # each: {"rq": i, "lro": {...} or absent}
        self.rqs = rqs or [{}]
        self.caps = caps or {}
        self.profile = profile or {}
        self.steer = steer
        self.vsd = vsd
        self.cap_bytes = cap_bytes or {}  # (rq, wqe) -> byte_count of that WQE

    def step(self):
        tirs = []
        for t in self.tirs:
            d = {"rq": t.get("rq", 0)}
            if "lro" in t:
                d["lro"] = t["lro"]
            tirs.append(d)
        rqs = []
        for r in self.rqs:
            d = dict(r)
            if self.vsd:
                d["vsd"] = 1
            rqs.append(d)
        s = {"data": {"addr": hex(DATA), "size": "0x100000"}, "rqs": rqs, "tirs": tirs}
        if self.steer:
            s["steer_all"] = list(range(len(self.tirs)))
        return {"rx_setup": s}

    def device(self, readings=(), posts=None):
        c = self.caps
        per = [8, 16, 32, 1024]
        for i in range(4):
            per[i] = c.get(CAPS + f"lro_timer_supported_periods_{i}", per[i])
        caps = M.Caps(psh_flag=c.get(CAPS + "lro_psh_flag", 1),
                      time_stamp=c.get(CAPS + "lro_time_stamp", 1),
                      min_mss=self.profile.get("lro_min_mss_size", 1), periods=tuple(per),
                      msg_sz_mode=self.profile.get("lro_max_msg_sz_mode", 0))
        rqs = []
        for i in range(len(self.rqs)):
            cb = {w: b for (r, w), b in self.cap_bytes.items() if r == i}
            rqs.append(M.Rq(capacity=lambda w, cb=cb: cb.get(w, WQE_SPAN), vsd=self.vsd,
                            posted=posts[i] if posts else None))
        tirs = [M.Tir(rq=t.get("rq", 0), lro=t.get("lro")) for t in self.tirs]
        return M.Device(tirs, rqs, caps, max_sessions=self.profile.get("lro_max_sessions", 256),
                        readings=readings)


def group(vf, comment, setup):
    st = [BRING_UP, setup.step()]
    g = vf.group(comment, st, caps=setup.caps or None, profile=setup.profile or None)
    g["_setup"] = setup
    return g


def wqe_addr(rq, w):
    return DATA + 0x1000 + rq * RQ_SPAN + w * WQE_SPAN


ABRT_OTHER = {"in": [2, 3]}   # T68 lro_abrt "10,11 – LRO Exception or other" (D-LRO-4)


def cqe_expect(c):
    """The CQE fields a vector pins: T5 says which LRO fields are valid when."""
    f = dict(c["fields"])
    if c["err"]:
        f["layout"] = "err_cqe"
        return f
    if f.get("lro_num_seg", 0) == 0:
        f.pop("checksum", None)   # a frame alone: T4's IP checksum (D-RX-10), not LRO's
        return f
    if f["lro_abrt"] == 2:
        f["lro_abrt"] = ABRT_OTHER
    if f["l4_hdr_type"] not in (3, 4):
        f.pop("lro_ack_seq_num")      # T5: "Should be ignored if l4_hdr_type != 3 or 4"
        f.pop("timestamp_l", None)    # T5: TSecr valid only with l4_hdr_type 3 or 4
    return f


def ev_expect(o):
    k = o["ev"]
    if k == "open":
        return {"event": "lro_open", "wqe_counter": o["wqe"], "len": o["len"]}
    if k == "merge":
        return {"event": "lro_merge", "wqe_counter": o["wqe"], "num_seg": o["num_seg"],
                "bytes": o["bytes"]}
    if k == "end":
        return {"event": "lro_end", "wqe_counter": o["wqe"], "cause": o["cause"],
                "num_seg": o["num_seg"], "byte_cnt": o["byte_cnt"]}
    if k == "pass":
        return {"event": "lro_pass", "cause": o["cause"]}
    if k == "cqe":
        e = {"event": "cqe", "opcode": o["fields"]["opcode"], "wqe_counter": o["wqe"]}
        if o["err"]:
            e["syndrome"] = o["fields"]["syndrome"]
        return e
    if k == "drop":
        return {"event": "rx_drop", "reason": o["reason"]}
    if k == "violation":
        return {"event": "violation", "rule": o["rule"]}
    raise ValueError(k)


def has_open(x):
    if isinstance(x, dict):
        if "in" in x and len(x) == 1:
            return True
        return any(has_open(v) for v in x.values())
    if isinstance(x, list):
        return any(has_open(v) for v in x)
    return False


def run_ops(setup, ops, readings, posts=None):
    """Runs the ops through a model device; returns [(op, outputs)] and the WQEs each RQ took."""
    d = setup.device(readings, posts)
    res = []
    for op in ops:
        k = op[0]
        if k == "frame":
            res.append((op, d.frame(op[1])))
        elif k == "advance":
            res.append((op, d.advance(op[1])))
        elif k == "modify":
            res.append((op, d.modify_tir(op[1], op[2])))
        elif k == "destroy":
            res.append((op, d.destroy_tir(op[1])))
        elif k == "rq_error":
            res.append((op, d.rq_error(op[1], *op[2:])))
        else:
            res.append((op, []))
    return res, [r.next_wqe for r in d.rqs]


def test(vf, g, comment, cite, ops, readings=(), posts=None, check_mem=True, csum=False,
         events=True):
    """One test: post WQEs, run `ops` ("frame", bytes) / ("advance", ns) / ("modify", tir, lro)
    / ("destroy", tir) / ("rq_error", rq) / ("check",) / ("step", json step), and after each
    "check" and at the end expect the events, CQEs and host memory the model gives. Readings:
    [(name, reading-set)] of the PRM's other readings this test depends on."""
    setup = g["_setup"]
    runs = [("D-LRO decisions (docs/lro.md)", ())] + [(n, r) for n, r in readings]
    # T147: each timer fires anywhere in N..2N, so sessions that opened together may end in
    # either order; the runs that differ only by it are kept (uniq drops the others)
    tie = "timers opened together fire in the other order (T147)"
    runs += [((tie if not r else n + "; " + tie), set(r) | {"timer_ties_reversed"})
             for n, r in runs]
    # §3.3.6.3 marks the size limit (*) yet its sentence names only "timestamp mismatch or ECN
    # mismatch" as letting the segment open the next session: both readings, wherever it shows
    alone = "over the limit: alone (§3.3.6.3)"
    runs += [((alone if not r else n + "; " + alone), set(r) | {"max_size_alone"})
             for n, r in runs]
    if posts is None:
        results = [run_ops(setup, ops, r) for _, r in runs]
        posts = [max(1, max(x)) for x in zip(*[t for _, t in results])]
    results = [run_ops(setup, ops, r, posts) for _, r in runs]
    steps = []
    for rq, n in enumerate(posts):
        for w in range(n):
            e = {"offset": hex(0x1000 + rq * RQ_SPAN + w * WQE_SPAN),
                 "byte_count": setup.cap_bytes.get((rq, w), WQE_SPAN)}
            steps.append({"rq_post": {"rq": rq, "entries": [e]}})
    # split each run's outputs at the checks
    chunks_per_run = []
    for res, _ in results:
        chunks, cur = [], []
        for op, outs in res:
            cur += outs
            if op[0] == "check":
                chunks.append(cur)
                cur = []
        chunks.append(cur)
        chunks_per_run.append(chunks)
    n_chunks = len(chunks_per_run[0])
    ci = 0
    open_ = False
    for op in ops + [("check",)]:
        k = op[0]
        if k == "frame":
            steps.append({"rx_frame": {"port": 1, "hex": op[1].hex()}})
        elif k == "advance":
            steps.append({"advance_ns": op[1]})
        elif k == "modify":
            steps.append({"modify_tir": {"tir": op[1], "lro": op[2]}})
        elif k == "destroy":
            steps.append({"destroy_tir": {"tir": op[1]}})
        elif k == "rq_error":
            steps.append({"rq_state": {"rq": op[1], "to": op[2] if len(op) > 2 else "ERR"}})
        elif k == "step":
            steps.append(op[1])
        elif k == "check":
            if ci >= n_chunks:
                break
            per = [chunks_per_run[r][ci] for r in range(len(runs))]
            s, o = expect_steps(runs, per, events, check_mem, csum)
            steps += s
            open_ |= o
            ci += 1
    result = "acceptable" if open_ or has_open(steps) else "valid"
    vf.n += 1
    t = {"tcId": vf.n, "comment": comment, "cite": cite, "flags": [], "result": result,
         "steps": steps}
    g["tests"].append(t)
    return t


def expect_steps(runs, per, events, check_mem, csum):
    """The events, cqes and mem_expect steps of one check point, an any_of where the readings
    differ."""
    steps = []
    open_ = False
    evs = [[ev_expect(o) for o in outs] for outs in per]
    cqs = [[cqe_expect(o) for o in outs if o["ev"] == "cqe"] for outs in per]
    if not csum:
        for cl in cqs:
            for c in cl:
                if c.get("lro_num_seg", 0):
                    c.pop("checksum", None)
    if events:
        alts = uniq([(runs[i][0], e) for i, e in enumerate(evs)])
        if len(alts) == 1:
            if alts[0][1]:
                steps.append({"events": {"expect": alts[0][1], "exact": False}})
        else:
            open_ = True
            steps.append({"events": {"any_of": [{"reading": r, "expect": e, "exact": False}
                                                for r, e in alts]}})
    alts = uniq([(runs[i][0], c) for i, c in enumerate(cqs)])
    if len(alts) == 1:
        steps.append({"cqes": {"cq": "rx", "expect": alts[0][1]}})
    else:
        open_ = True
        steps.append({"cqes": {"cq": "rx", "any_of": [{"reading": r, "expect": c}
                                                      for r, c in alts]}})
    if check_mem:
        # host memory of every WQE completed, where all readings agree on it
        mems = [{(o["rq"], o["wqe"]): o["mem"] for o in outs
                 if o["ev"] == "cqe" and o["mem"] is not None} for outs in per]
        for key in sorted(mems[0]):
            if all(m.get(key) == mems[0][key] for m in mems):
                steps.append({"mem_expect": {"addr": hex(wqe_addr(*key)),
                                             "hex": mems[0][key].hex()}})
    return steps, open_


def uniq(alts):
    out = []
    for r, v in alts:
        for i, (r2, v2) in enumerate(out):
            if v2 == v:
                break
        else:
            out.append((r, v))
    return out


def frames(segs):
    return [("frame", s) for s in segs]


END = ("advance", 200 * US)
RQ_LEAVE = ("the PRM says nothing of LRO when an RQ leaves RDY: its sessions are abandoned",
            {"rq_leave_discards"})   # past 2N of every period a test uses (N at most 32 µs + slack)


def dump(doc):
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"

#!/usr/bin/python3
"""Independent generator of the LRO golden vectors (vectors/lro/*.json) and of the example
capture (examples/lro/).

    /usr/bin/python3 vectors/lro/gen/gen_lro.py [--check]

Writes session.json, merge.json, termination.json, timer.json, cqe.json, flush.json,
limits.json and stream.json beside this folder, and examples/lro/{stream.pcap,README.md,
expected_explain.json};
--check compares instead of writing (exit 1 on a difference). The TCP segments are built with
Scapy; which segments merge, why and when each session ends and every field of its CQE come
from lro_model.py, an independent model of ConnectX-4 PRM Rev 0.40 §3.3.6 (T5, T45, T68, T147)
and the decisions of issue 15 (D-LRO-1..10, docs/lro.md), never from nicref's output.

Where the PRM leaves a point open, the model is run under each reading (lro_model.READINGS)
and the test is `acceptable`, listing every reading's expectation (`any_of`); lro_abrt of the
"exception or other" causes is the matcher {"in": [2, 3]} (T68 "10,11").
"""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
OUT = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(OUT))
EXAMPLES = os.path.join(ROOT, "examples", "lro")
sys.path.insert(0, os.path.join(ROOT, "vectors", "gen"))

from scapy.all import (IP, TCP, UDP, Dot1Q, Dot3, Ether, IPv6, IPv6ExtHdrDestOpt,  # noqa: E402
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


# ---------------------------------------------------------------------------------------------
# session.json: opening a session (§3.3.6.2) and every eligibility rule, accepted and refused

def gen_session():
    vf = VFile("session.json", "lro", [
        "LRO session creation (PRM §3.3.6.2) on a Direct TIR with LRO (T45 10h): each "
        "eligibility condition, met (a session opens on the segment: lro_open, its WQE held "
        "without a CQE until the timer ends it) and not met (lro_pass with the cause, a "
        "normal CQE with lro_num_seg 0); the per-TIR IPv4/IPv6 enable mask, LRO off, the "
        "capabilities lro_psh_flag and lro_time_stamp lowered. Expectations from "
        "vectors/lro/gen/lro_model.py."])
    g = group(vf, "one RQ, a Direct TIR with LRO (enable_mask 3, timeout 32 µs, max_msg_sz 64), "
              "every frame to it", Setup(tirs=[{"rq": 0, "lro": {}}]))
    ok = [
        ("an IPv4 TCP segment with ACK and 100 bytes of payload opens a session; the timer "
         "ends it with lro_num_seg 1, lro_abrt 01", seg()),
        ("an IPv6 TCP segment opens a session", seg(v6=True)),
        ("a segment with NOP, NOP, timestamp opens a session; the CQE carries its TSval/TSecr",
         seg(ts=(1000, 2000))),
        ("a segment with PSH opens a session (HCA_CAP.lro_psh_flag 1); lro_tcp_psh 1",
         seg(flags="PA")),
        ("a segment without ACK opens a session; l4_hdr_type 1", seg(flags="")),
        ("a segment of 1 byte of payload (lro_min_mss_size 1) opens a session",
         seg(n=1, ts=(5, 6))),
        ("ECE and CWR are not among the flags that must be clear: a segment with both opens "
         "a session", seg(flags="AEC")),
        ("a C-VLAN tagged segment opens a session; the tag is stripped before the first "
         "segment is scattered (§3.3.6.5)", seg(vlan=(3, 7))),
    ]
    for comment, s in ok:
        test(vf, g, comment, C_OPEN + ", " + C_CQE, [("frame", s), END])
    test(vf, g, "a segment whose timestamp is followed by End of option list opens a session "
         "(D-LRO-2)", C_OPEN + " 'No TCP options other than timestamp'",
         [("frame", seg(opts=[("Timestamp", (7, 8)), ("EOL", None), ("EOL", None)])), END],
         readings=[("EOL is an option other than the timestamp", {"eol_is_option"})])
    refused = [
        ("SYN", seg(flags="S"), "tcp_flags"),
        ("SYN ACK", seg(flags="SA"), "tcp_flags"),
        ("FIN", seg(flags="FA"), "tcp_flags"),
        ("RST", seg(flags="RA"), "tcp_flags"),
        ("URG", seg(flags="UA"), "tcp_flags"),
        ("NS", seg(flags="NA"), "tcp_flags"),
        ("a reserved TCP flag bit", seg(reserved=1), "tcp_flags"),
        ("an MSS option", seg(opts=[("MSS", 1460)]), "tcp_options"),
        ("a window scale option beside the timestamp",
         seg(opts=[("NOP", None), ("WScale", 7), ("Timestamp", (1, 2)), ("NOP", None),
                   ("NOP", None)]), "tcp_options"),
        ("a SACK option", seg(opts=[("NOP", None), ("NOP", None), ("SAck", (100, 200))]),
         "tcp_options"),
        ("a malformed option list (kind 8, length 9)",
         seg(opts=[("NOP", None), ("NOP", None), (8, b"\0" * 7), ("NOP", None)]),
         "tcp_options"),
        ("IPv4 options (four NOPs)", seg(ip_opts=[IPOption_NOP()] * 4), "ip_options"),
        ("an IPv6 hop-by-hop extension header", seg(v6=True, ext=IPv6ExtHdrHopByHop()),
         "ip_options"),
        ("an IPv6 destination options extension header", seg(v6=True, ext=IPv6ExtHdrDestOpt()),
         "ip_options"),
        ("a wrong TCP checksum", seg(chksum=0x1234), "invalid"),
        ("a wrong IPv4 header checksum", seg(ipchk=0x1234), "invalid"),
        ("no payload (a pure ACK; lro_min_mss_size >= 1)", seg(n=0), "small"),
    ]
    for name, s, cause in refused:
        test(vf, g, f"{name}: no session ({cause}); the segment completes alone, lro_num_seg 0",
             C_OPEN, [("frame", s), END])
    # fragments: the first fragment of an IPv4 datagram carries the TCP header
    f4 = seg(ipflags="MF")
    test(vf, g, "an IPv4 first fragment (MF) with the TCP header: no session (fragment); its "
         "TCP checksum cannot be verified, so 'packet validation' may also refuse it",
         C_OPEN + " 'The packet is not an IP fragment'", [("frame", f4), END],
         readings=[("a fragment fails validation first (invalid)", {"frag_invalid"})])
    f6 = seg(v6=True, ext=IPv6ExtHdrFragment(m=1, id=7))
    test(vf, g, "an IPv6 first fragment (Fragment header, M 1): no session; D-LRO-8 names the "
         "extension header first (ip_options)", C_OPEN + " 'No IPv4 options or IPv6 extension "
         "headers', 'not an IP fragment'", [("frame", f6), END],
         readings=[("the fragment is named first", {"fragment_first"}),
                   ("a fragment fails validation first (invalid)", {"frag_invalid"}),
                   ("fragment first, failing validation", {"frag_invalid", "fragment_first"})])
    snap = bytes(Dot3(dst=OWN_MAC, src=PEER_MAC) / LLC(dsap=0xAA, ssap=0xAA, ctrl=3) /
                 SNAP(OUI=0, code=0x0800) / IP(src="10.0.0.1", dst="10.0.0.2") /
                 TCP(sport=0x1234, dport=0x5678, seq=SEQ0, ack=ACK0, flags="A", window=WIN0) /
                 Raw(payload(100, 0)))
    test(vf, g, "an LLC/SNAP frame carrying IPv4/TCP: no session (the parser does not look "
         "behind SNAP, or it does and the cause is llc_snap)",
         C_OPEN + " 'No LLC/SNAP'", [("frame", snap), END],
         readings=[("TCP behind SNAP is seen and refused (llc_snap)", {"llc_snap_parsed"})])
    u = bytes(Ether(dst=OWN_MAC, src=PEER_MAC) / IP(src="10.0.0.1", dst="10.0.0.2") /
              UDP(sport=0x1234, dport=0x5678) / Raw(payload(100, 0)))
    test(vf, g, "a UDP datagram on an LRO TIR is received as always (LRO is for TCP, D-LRO-9)",
         C_OPEN + " 'TCP Packet'", [("frame", u), END])
    # capabilities lowered
    g = group(vf, "HCA_CAP.lro_psh_flag 0", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                 caps={CAPS + "lro_psh_flag": 0}))
    test(vf, g, "PSH without lro_psh_flag: no session (psh)", C_OPEN + ", T147 lro_psh_flag",
         [("frame", seg(flags="PA")), END])
    test(vf, g, "without PSH the segment opens a session", C_OPEN + ", T147 lro_psh_flag",
         [("frame", seg(flags="A")), END])
    g = group(vf, "HCA_CAP.lro_time_stamp 0", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                   caps={CAPS + "lro_time_stamp": 0}))
    test(vf, g, "a timestamp option without lro_time_stamp: no session (timestamp_off)",
         C_OPEN + ", T147 lro_time_stamp", [("frame", seg(ts=(1, 2))), END])
    test(vf, g, "without the timestamp the segment opens a session",
         C_OPEN + ", T147 lro_time_stamp", [("frame", seg()), END])
    # the enable mask
    for mask, v4ok in ((1, True), (2, False)):
        g = group(vf, f"lro_enable_mask {mask} (IPv{4 if mask == 1 else 6} only)",
                  Setup(tirs=[{"rq": 0, "lro": {"enable_mask": mask}}]))
        for v6 in (False, True):
            yes = v4ok != v6
            test(vf, g, f"an IPv{6 if v6 else 4} segment: " +
                 ("opens a session" if yes else "no session (not_enabled)"),
                 "PRM §3.3.6.2, T45 lro_enable_mask", [("frame", seg(v6=v6)), END])
    g = group(vf, "a Direct TIR without LRO", Setup(tirs=[{"rq": 0}]))
    test(vf, g, "LRO off: a TCP stream is received segment by segment, lro_num_seg 0",
         C_TIR + " 'When bitmask is completely clear LRO is disabled'",
         [*frames(stream(3)), END])
    g = group(vf, "lro_timeout_period_usecs 7, below the smallest supported period (8)",
              Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": 7}}]))
    test(vf, g, "LRO does not work on the TIR: no session (inactive)",
         "PRM T45 lro_timeout_period_usecs 'If requested timeout period is smaller than the "
         "minimal supported LRO will not work in this TIR'", [*frames(stream(2)), END],
         readings=[("reported as not enabled", {"inactive_is_not_enabled"})])
    g = group(vf, "lro_max_msg_sz 0", Setup(tirs=[{"rq": 0, "lro": {"max_msg_sz": 0}}]))
    test(vf, g, "lro_max_msg_sz 0 disables LRO: no session (inactive)",
         "PRM T45 lro_max_msg_sz '0 - disable LRO'", [*frames(stream(2)), END],
         readings=[("reported as not enabled", {"inactive_is_not_enabled"})])
    return vf


# ---------------------------------------------------------------------------------------------
# merge.json: the merge conditions (§3.3.6.4), what a merged buffer holds (§3.3.6.5)

def gen_merge():
    vf = VFile("merge.json", "lro", [
        "Merging segments into an open session (PRM §3.3.6.4): sequence continuity, the "
        "timestamp order, the IP fields that must match and those that may change, ECN, the "
        "size limit lro_max_msg_sz in mode 0, flows kept apart by the LRO Flow ID (§3.3.6.1), "
        "and the merged buffer: the first segment's headers then every payload (§3.3.6.5). "
        "Expectations from vectors/lro/gen/lro_model.py."])
    g = group(vf, "one RQ, a Direct TIR with LRO (defaults), every frame to it",
              Setup(tirs=[{"rq": 0, "lro": {}}]))
    test(vf, g, "three in-order IPv4 segments merge into one buffer: the first segment's "
         "headers, then the three payloads", C_MERGE + ", " + C_SCATTER,
         [*frames(stream(3)), END])
    test(vf, g, "three in-order IPv6 segments merge", C_MERGE + ", " + C_SCATTER,
         [*frames(stream(3, v6=True)), END])
    test(vf, g, "eight 1448-byte segments with timestamps merge (11584 bytes of payload)",
         C_MERGE, [*frames([seg(seq=SEQ0 + i * 1448, n=1448, ts=(100 + i, 50))
                            for i in range(8)]), END])
    test(vf, g, "segments of different sizes merge in order", C_MERGE,
         [*frames([seg(seq=SEQ0, n=100), seg(seq=SEQ0 + 100, n=300),
                   seg(seq=SEQ0 + 400, n=50)]), END])
    gap = [seg(seq=SEQ0), seg(seq=SEQ0 + 100), seg(seq=SEQ0 + 1000), seg(seq=SEQ0 + 1100)]
    test(vf, g, "a gap in the sequence: the segment ends the session (out_of_order) and "
         "completes alone; the next segment, in order after it, opens a new session",
         C_END + " 'Out of order segment', " + C_MERGE + " 'Matching on TCP Sequence Number'",
         [*frames(gap), END])
    rtx = [seg(seq=SEQ0), seg(seq=SEQ0 + 100), seg(seq=SEQ0 + 100)]
    test(vf, g, "a retransmission (the previous sequence number again): out_of_order",
         C_END + " 'Out of order segment'", [*frames(rtx), END])
    wrap = [seg(seq=0xFFFFFF9C + i * 100) for i in range(3)]
    test(vf, g, "the sequence number wraps through 2^32 inside a session: the segments merge",
         C_MERGE + " 'Matching on TCP Sequence Number'", [*frames(wrap), END])
    test(vf, g, "timestamps rising and equal merge (TSval >= the previous)",
         C_MERGE + " 'the incoming segment timestamp value is >= the ... previous'",
         [*frames([seg(seq=SEQ0, ts=(10, 1)), seg(seq=SEQ0 + 100, ts=(10, 2)),
                   seg(seq=SEQ0 + 200, ts=(11, 3))]), END])
    test(vf, g, "a TSval lower than the session's ends it (ts_older, (*)): the segment opens "
         "the next session", C_END + " 'Timestamp Value of the new segments < ...' (*)",
         [*frames([seg(seq=SEQ0, ts=(10, 1)), seg(seq=SEQ0 + 100, ts=(12, 1)),
                   seg(seq=SEQ0 + 200, ts=(11, 1))]), END])
    test(vf, g, "a timestamp after segments without one ends the session (ts_prev_absent, "
         "(*)): the segment opens the next session",
         C_END + " 'The previous segment does not contain the timestamp option' (*)",
         [*frames([seg(seq=SEQ0), seg(seq=SEQ0 + 100), seg(seq=SEQ0 + 200, ts=(5, 1))]), END])
    test(vf, g, "a segment without the timestamp after segments with one ends the session "
         "(ts_absent, (*)): the segment opens the next session",
         C_END + " 'The segment does not contain a timestamp option but the previous segments "
         "contain' (*)",
         [*frames([seg(seq=SEQ0, ts=(5, 1)), seg(seq=SEQ0 + 100, ts=(6, 1)),
                   seg(seq=SEQ0 + 200)]), END])
    # IP fields that may change, and those that must not
    test(vf, g, "TTL and IPv4 identification change between segments: they merge; "
         "lro_min_ttl is the lowest TTL",
         C_MERGE + " 'Matching on all IP fields, except: TTL/Hop Limit, IPv4.Checksum, IPv4. "
         "Total Length and IPv4.Identification'",
         [*frames([seg(seq=SEQ0, ttl=64, ipid=1), seg(seq=SEQ0 + 100, ttl=61, ipid=9),
                   seg(seq=SEQ0 + 200, n=300, ttl=63, ipid=2)]), END])
    test(vf, g, "IPv6 hop limit and payload length change: they merge; lro_min_ttl is the "
         "lowest hop limit", C_MERGE + " (TTL/Hop Limit, IPv6.Payload Length)",
         [*frames([seg(v6=True, seq=SEQ0, ttl=60), seg(v6=True, seq=SEQ0 + 100, n=200, ttl=59),
                   seg(v6=True, seq=SEQ0 + 300, ttl=64)]), END])
    mism = [
        ("the IPv4 DSCP", dict(tos=0), dict(tos=0x28)),
        ("the IPv4 DF flag", dict(ipflags=0), dict(ipflags="DF")),
        ("the IPv6 flow label", dict(v6=True, fl=0x12345), dict(v6=True, fl=0x12346)),
        ("the IPv6 traffic class (DSCP)", dict(v6=True, tos=0), dict(v6=True, tos=0x28)),
    ]
    for name, a, b in mism:
        test(vf, g, f"{name} changes: the segment ends the session (ip_mismatch) and "
             "completes alone", C_END + " 'IP field of the incoming packet does not match', "
             + C_MERGE, [*frames([seg(seq=SEQ0, **a), seg(seq=SEQ0 + 100, **a),
                                  seg(seq=SEQ0 + 200, **b)]), END])
    # ECN
    for name, a, b in (("ECE", "A", "AE"), ("CWR", "A", "AC"), ("ECE cleared", "AE", "A")):
        test(vf, g, f"the TCP ECN flags change ({name}): the session ends (ecn, (*)); the "
             "segment opens the next session",
             C_END + " 'a different value for the ECN flags (ECE and CWR)' (*), " + C_MERGE,
             [*frames([seg(seq=SEQ0, flags=a), seg(seq=SEQ0 + 100, flags=a),
                       seg(seq=SEQ0 + 200, flags=b)]), END])
    test(vf, g, "the IPv6 ECN bits of the traffic class change (ECT(1) to CE): the session "
         "ends (ecn, (*)) and the segment opens the next",
         C_END + " 'a different value for the ECN field (ECT, CE) in the IP header' (*)",
         [*frames([seg(v6=True, seq=SEQ0, tos=1), seg(v6=True, seq=SEQ0 + 100, tos=1),
                   seg(v6=True, seq=SEQ0 + 200, tos=3)]), END],
         readings=[("ECN is an IP field that must match (ip_mismatch)", {"ip_ecn_is_ip_field"})])
    test(vf, g, "the IPv4 ECN field changes (ECT(0) to CE): the session ends (ecn, (*)) and "
         "the segment opens the next; the IP-field rule would end it without the restart",
         C_END + " 'a different value for the ECN field (ECT, CE) in the IP header' (*)",
         [*frames([seg(seq=SEQ0, tos=2), seg(seq=SEQ0 + 100, tos=2),
                   seg(seq=SEQ0 + 200, tos=3)]), END],
         readings=[("ECN is an IP field that must match (ip_mismatch)", {"ip_ecn_is_ip_field"})])
    # flows
    test(vf, g, "two flows (source ports differ) interleaved: two sessions, each merging its "
         "own segments; the timer ends them in the order they opened", C_FLOW + ", " + C_MERGE,
         [("frame", seg(seq=SEQ0)), ("frame", seg(seq=0x500, sport=0x1235)),
          ("frame", seg(seq=SEQ0 + 100)), ("frame", seg(seq=0x500 + 100, sport=0x1235)),
          ("frame", seg(seq=SEQ0 + 200)), END])
    test(vf, g, "the same addresses and ports under two VLAN IDs are two flows",
         C_FLOW + " (VLAN ID)",
         [("frame", seg(seq=SEQ0, vlan=(0, 5))), ("frame", seg(seq=0x700, vlan=(0, 6))),
          ("frame", seg(seq=SEQ0 + 100, vlan=(0, 5))), ("frame", seg(seq=0x764, vlan=(0, 6))),
          END])
    test(vf, g, "the reverse direction of a connection is another flow",
         C_FLOW, [("frame", seg(seq=SEQ0)),
                  ("frame", seg(seq=0x900, src="10.0.0.2", dst="10.0.0.1", sport=0x5678,
                                dport=0x1234)),
                  ("frame", seg(seq=SEQ0 + 100)), END])
    # the size limit, mode 0
    g = group(vf, "lro_max_msg_sz 2 (512 bytes of TCP header and payload, mode 0)",
              Setup(tirs=[{"rq": 0, "lro": {"max_msg_sz": 2}}]))
    test(vf, g, "20 + 4 x 100 = 420 bytes merge; the fifth 100 would make 520 > 512: the "
         "session ends (max_size, lro_abrt 00) and the segment opens the next",
         C_SIZE + " (*)", [*frames(stream(6)), END])
    test(vf, g, "20 + 4 x 100 + 92 = 512 bytes exactly: the fifth segment merges (the limit "
         "is not exceeded, D-LRO-6)", C_SIZE,
         [*frames(stream(4) + [seg(seq=SEQ0 + 400, n=92)]), END],
         readings=[("'not exhaust': the limit itself is refused",
                    {"limit_exclusive"})])
    test(vf, g, "20 + 4 x 100 + 93 = 513 bytes: the fifth segment does not merge (max_size)",
         C_SIZE, [*frames(stream(4) + [seg(seq=SEQ0 + 400, n=93)]), END])
    g = group(vf, "lro_max_msg_sz 2, timestamps (TCP header 32 bytes)",
              Setup(tirs=[{"rq": 0, "lro": {"max_msg_sz": 2}}]))
    test(vf, g, "the limit counts the first segment's TCP header with its options: 32 + 4 x "
         "100 = 432 merge, the fifth (532) does not",
         C_SIZE, [*frames([seg(seq=SEQ0 + i * 100, ts=(1, 1)) for i in range(5)]), END])
    return vf


# ---------------------------------------------------------------------------------------------
# termination.json: every cause an arriving segment can end a session with (§3.3.6.3), the
# restart of the four (*) cases and the standalone completion of the others

def gen_termination():
    vf = VFile("termination.json", "lro", [
        "Ending a session on an arriving segment of its flow (PRM §3.3.6.3): each condition "
        "of the list. The completion reports only the data already coalesced; after it the "
        "segment opens a new session when the cause is one of the four marked (*) (the size "
        "limit, the timestamp cases, ECN) and otherwise completes alone (lro_num_seg 0). "
        "Expectations from vectors/lro/gen/lro_model.py."])
    g = group(vf, "one RQ, a Direct TIR with LRO (defaults), every frame to it",
              Setup(tirs=[{"rq": 0, "lro": {}}]))
    base = stream(2)
    nxt = SEQ0 + 200
    cases = [
        ("a wrong TCP checksum", seg(seq=nxt, chksum=0x1234), "'Invalid TCP/IP checksum'"),
        ("a wrong IPv4 header checksum", seg(seq=nxt, ipchk=0x1234),
         "'Invalid TCP/IP checksum'"),
        ("FIN", seg(seq=nxt, flags="FA"), "'One of the flags is enabled: ... FIN'"),
        ("SYN", seg(seq=nxt, flags="SA"), "'... SYN'"),
        ("RST", seg(seq=nxt, flags="RA"), "'... RST'"),
        ("URG", seg(seq=nxt, flags="UA"), "'... URG'"),
        ("NS", seg(seq=nxt, flags="NA"), "'... NS'"),
        ("a reserved TCP flag", seg(seq=nxt, reserved=4), "'... reserved TCP flags'"),
        ("an MSS option", seg(seq=nxt, opts=[("MSS", 1000)]),
         "'The packet contains TCP options other than timestamp'"),
        ("IPv4 options", seg(seq=nxt, ip_opts=[IPOption_NOP()] * 4),
         "'The packet contains IPv4 options'"),
        ("no payload (a duplicate ACK)", seg(seq=nxt, n=0),
         "'Segment TCP payload size is < HCA_CAP.lro_min_mss_size'"),
        ("the IPv4 first fragment (MF)", seg(seq=nxt, ipflags="MF"),
         "'The packet is an IP fragment'"),
        ("a gap in the sequence", seg(seq=nxt + 1), "'Out of order segment'"),
        ("a DSCP change", seg(seq=nxt, tos=0x10), "'IP field ... does not match'"),
    ]
    for name, s, clause in cases:
        rd = [("a fragment fails validation first (invalid)", {"frag_invalid"})] \
            if "fragment" in name else []
        test(vf, g, f"{name}: the session ends with the two coalesced segments; the segment "
             "completes alone (no restart)", C_END + " " + clause,
             [*frames(base), ("frame", s), END], readings=rd)
    v6 = stream(2, v6=True)
    test(vf, g, "IPv6: an extension header on a segment of the flow ends the session; the "
         "segment completes alone", C_END + " 'IPv6 extension headers'",
         [*frames(v6), ("frame", seg(seq=nxt, v6=True, ext=IPv6ExtHdrDestOpt())), END])
    test(vf, g, "a segment of the flow that is not eligible, then an eligible one in order "
         "after it: the second opens a new session", C_END + ", " + C_OPEN,
         [*frames(base), ("frame", seg(seq=nxt, flags="UA")),
          ("frame", seg(seq=nxt + 100)), END])
    restart = [
        ("a lower TSval (ts_older)", [seg(seq=SEQ0, ts=(9, 1)), seg(seq=SEQ0 + 100, ts=(9, 1)),
                                      seg(seq=nxt, ts=(8, 1))], seg(seq=nxt + 100, ts=(8, 2))),
        ("a timestamp after none (ts_prev_absent)", base + [seg(seq=nxt, ts=(8, 1))],
         seg(seq=nxt + 100, ts=(9, 1))),
        ("no timestamp after one (ts_absent)", [seg(seq=SEQ0, ts=(9, 1)),
                                                seg(seq=SEQ0 + 100, ts=(9, 1)), seg(seq=nxt)],
         seg(seq=nxt + 100)),
        ("an ECE change (ecn)", base + [seg(seq=nxt, flags="AE")],
         seg(seq=nxt + 100, flags="AE")),
    ]
    for name, segs, follow in restart:
        test(vf, g, f"{name}: the session ends and the segment opens the next session, which "
             "the next in-order segment joins", C_END + " (*) 'the new segment can be a "
             "candidate for creation of a new session'",
             [*frames(segs), ("frame", follow), END])
    g = group(vf, "lro_max_msg_sz 2 (512 bytes)", Setup(tirs=[{"rq": 0, "lro": {"max_msg_sz": 2}}]))
    test(vf, g, "the size limit (max_size, (*)): the session ends with lro_abrt 00; the "
         "segment opens the next session", C_END + " 'will exceed TIR's maximum IP length' (*), "
         "T68 lro_abrt 00", [*frames(stream(7)), END])
    g = group(vf, "HCA_CAP.lro_psh_flag 0", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                 caps={CAPS + "lro_psh_flag": 0}))
    test(vf, g, "PSH without lro_psh_flag: the session ends; the segment completes alone",
         C_END + " 'PSH flag is enabled and HCA_CAP.lro_psh_flag = 0'",
         [*frames(base), ("frame", seg(seq=nxt, flags="PA")), END])
    g = group(vf, "HCA_CAP.lro_time_stamp 0", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                   caps={CAPS + "lro_time_stamp": 0}))
    test(vf, g, "a timestamp without lro_time_stamp: the session ends; the segment completes "
         "alone", C_END + " 'When HCA_CAP.lro_time_stamp is disabled and TCP timestamp option "
         "appears'", [*frames(base), ("frame", seg(seq=nxt, ts=(1, 1))), END])
    g = group(vf, "HCA_CAP.lro_psh_flag 1 (the default)", Setup(tirs=[{"rq": 0, "lro": {}}]))
    test(vf, g, "PSH with lro_psh_flag: the segment merges and the session goes on",
         C_MERGE + ", T5 lro_tcp_psh", [*frames(base), ("frame", seg(seq=nxt, flags="PA")),
                                        ("frame", seg(seq=nxt + 100)), END])
    return vf


# ---------------------------------------------------------------------------------------------
# timer.json: the LRO timer (§3.3.6.3 "LRO timer expiration", T45, T147), N to 2N

def gen_timer():
    vf = VFile("timer.json", "lro", [
        "The LRO timer (PRM §3.3.6.3, T45 lro_timeout_period_usecs, T147 "
        "lro_timer_supported_periods): the period in force is the largest supported period "
        "not above the request; a session ends (lro_abrt 01) between N and 2N after it "
        "opened (T147), so these vectors look before N (still open) or from 2N on (ended), "
        "and the one that looks inside lists both readings. Expectations from "
        "vectors/lro/gen/lro_model.py."])
    g = group(vf, "timeout 32 µs (a supported period: N = 32 µs)",
              Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": 32}}]))
    test(vf, g, "at N/2 the session is still open (no CQE); at 2N it has ended (timer)",
         C_TIMER, [("frame", seg()), ("advance", 16 * US), ("check",), ("advance", 48 * US)])
    test(vf, g, "segments at 0 and N/2 merge; at 2N after the first the session has ended "
         "under either start of the timer", C_TIMER,
         [("frame", seg()), ("advance", 16 * US), ("frame", seg(seq=SEQ0 + 100)),
          ("advance", 8 * US), ("check",), ("advance", 64 * US)],
         readings=[("the timer restarts at each merge", {"timer_from_last"})])
    test(vf, g, "segments at 0 and N/2, then at 1.25 N the session has ended if the timer "
         "runs from the open and expires at N (D-LRO-5); a device whose timer restarts at "
         "each merge, or expires later inside N..2N, still holds it",
         C_TIMER + ", D-LRO-5",
         [("frame", seg()), ("advance", 16 * US), ("frame", seg(seq=SEQ0 + 100)),
          ("advance", 24 * US)],
         readings=[("the timer restarts at each merge, or expires later in (N, 2N]",
                    {"timer_from_last"})])
    test(vf, g, "after the timer ended a session, the next segment of the flow opens a new one",
         C_TIMER + ", " + C_OPEN,
         [("frame", seg()), ("advance", 64 * US), ("frame", seg(seq=SEQ0 + 100)),
          ("advance", 64 * US)])
    test(vf, g, "two sessions opened 1.5 N apart end in that order (the first by 2N, the second "
         "no earlier than 2.5 N); whether the first ended before the second opened is not "
         "pinned (events not compared)", C_TIMER,
         [("frame", seg()), ("advance", 48 * US), ("frame", seg(seq=0x900, sport=0x4321)),
          ("advance", 80 * US)], events=False)
    for req, n, before, after in ((20, 16, 12, 40), (1000, 32, 20, 70), (9, 8, 6, 17)):
        g = group(vf, f"timeout {req} µs: the period in force is {n} µs",
                  Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": req}}]))
        test(vf, g, f"request {req} µs: adjusted down to the supported {n} µs; open at "
             f"{before} µs, ended at {after} µs", C_TIMER + " 'adjusted to the nearest timeout "
             "period which is < requested'",
             [("frame", seg()), ("advance", before * US), ("check",),
              ("advance", (after - before) * US)])
    g = group(vf, "timeout 1024 µs", Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": 1024}}]))
    test(vf, g, "N = 1024 µs: still open after 500 µs, ended at 2048 µs", C_TIMER,
         [("frame", seg()), ("advance", 500 * US), ("check",), ("advance", 1600 * US)])
    g = group(vf, "lro_timer_supported_periods[2] lowered to 20 µs, timeout 32 µs",
              Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": 32}}],
                    caps={CAPS + "lro_timer_supported_periods_2": 20}))
    test(vf, g, "the period in force is 20 µs: open at 15 µs, ended at 41 µs",
         C_TIMER, [("frame", seg()), ("advance", 15 * US), ("check",), ("advance", 26 * US)])
    return vf


# ---------------------------------------------------------------------------------------------
# cqe.json: the fields of a session's CQE (§3.3.6.6 T5, T68)

def gen_cqe():
    vf = VFile("cqe.json", "lro", [
        "The CQE of a session (PRM §3.3.6.6 T5, §7.12.1.1 T68): lro_num_seg, byte_cnt from the "
        "MAC header, lro_min_ttl, lro_tcp_win and lro_ack_seq_num of the last segment, "
        "lro_tcp_psh, lro_dup_ack_cnt 0, lro_timestamp_is_valid with TSval/TSecr of the last "
        "segment, l4_hdr_type with ACK seen in any segment, the checksum over the TCP header "
        "and the merged payload (T5; T4's 'merged payload' reading listed), the VLAN strip. "
        "Expectations from vectors/lro/gen/lro_model.py."])
    g = group(vf, "one RQ, a Direct TIR with LRO (defaults), every frame to it",
              Setup(tirs=[{"rq": 0, "lro": {}}]))
    csum_r = [("T4: the checksum of the merged payload only", {"checksum_payload_only"})]
    test(vf, g, "three segments: the checksum covers the first TCP header and the three "
         "payloads, without pseudo-header, not complemented (D-LRO-7)", C_CQE + ", T4",
         [*frames(stream(3)), END], readings=csum_r, csum=True)
    test(vf, g, "one segment alone: lro_num_seg 1 and the checksum of its TCP header and "
         "payload", C_CQE + ", T4", [("frame", seg(ts=(3, 4))), END], readings=csum_r,
         csum=True)
    odd = [seg(seq=SEQ0, n=101), seg(seq=SEQ0 + 101, n=99), seg(seq=SEQ0 + 200, n=51)]
    test(vf, g, "odd payload lengths: the checksum sums the merged bytes as one stream "
         "(D-LRO-7)", C_CQE + ", T4", [*frames(odd), END],
         readings=csum_r + [("each payload summed alone", {"checksum_per_segment"})], csum=True)
    test(vf, g, "lro_tcp_win and lro_ack_seq_num are the last segment's; lro_tcp_psh is set "
         "by a PSH in the middle segment",
         C_CQE + " lro_tcp_win, lro_ack_seq_num, lro_tcp_psh",
         [*frames([seg(seq=SEQ0, ack=ACK0, win=100), seg(seq=SEQ0 + 100, ack=ACK0 + 50,
                                                         win=200, flags="PA"),
                   seg(seq=SEQ0 + 200, ack=ACK0 + 90, win=150)]), END])
    test(vf, g, "TSval and TSecr of the last segment in timestamp_h / timestamp_l, "
         "lro_timestamp_is_valid 1", C_CQE + " lro_timestamp_is_valid, timestamp_h/l",
         [*frames([seg(seq=SEQ0 + i * 100, ts=(0x1000 + i, 0x7000 + 3 * i)) for i in range(4)]),
          END])
    test(vf, g, "without timestamps lro_timestamp_is_valid is 0", C_CQE,
         [*frames(stream(2)), END])
    test(vf, g, "the first segment without ACK, the second with: l4_hdr_type 4 (T5: the CQE "
         "says ACK while the first header does not)", C_CQE + " L4_hdr_type",
         [*frames([seg(seq=SEQ0, flags=""), seg(seq=SEQ0 + 100, flags="A")]), END])
    test(vf, g, "no segment with ACK: l4_hdr_type 1", C_CQE + " L4_hdr_type",
         [*frames([seg(seq=SEQ0, flags=""), seg(seq=SEQ0 + 100, flags="")]), END])
    test(vf, g, "lro_min_ttl: TTLs 64, 3, 200 give 3; lro_dup_ack_cnt 0", C_CQE + " lro_min_ttl",
         [*frames([seg(seq=SEQ0, ttl=64), seg(seq=SEQ0 + 100, ttl=3),
                   seg(seq=SEQ0 + 200, ttl=200)]), END])
    test(vf, g, "IPv6: lro_min_ttl is the lowest hop limit; byte_cnt from the MAC header",
         C_CQE, [*frames([seg(v6=True, seq=SEQ0, ttl=9), seg(v6=True, seq=SEQ0 + 100, ttl=8)]),
                 END])
    test(vf, g, "C-VLAN tagged segments: the tag is stripped from the first, byte_cnt counts "
         "the buffer without it; cv, up, vid report the first tag", C_CQE + ", " + C_SCATTER,
         [*frames([seg(seq=SEQ0, vlan=(5, 0x123)), seg(seq=SEQ0 + 100, vlan=(5, 0x123))]), END])
    g = group(vf, "vlan_strip_disable 1", Setup(tirs=[{"rq": 0, "lro": {}}], vsd=1))
    test(vf, g, "with vlan_strip_disable the first segment is scattered with its tag; the "
         "merged payloads follow", C_CQE + ", " + C_SCATTER + " 'when VLAN stripping is "
         "configured'", [*frames([seg(seq=SEQ0, vlan=(1, 9)), seg(seq=SEQ0 + 100, vlan=(1, 9))]),
                         END])
    return vf


# ---------------------------------------------------------------------------------------------
# flush.json: TIR modify and destroy, the RQ leaving RDY, the WQE's room

def gen_flush():
    vf = VFile("flush.json", "lro", [
        "Sessions ended by the configuration (PRM §3.3.6.1, §3.3.6.3 'TIR destruction or "
        "update'): MODIFY_TIR of the LRO fields and DESTROY_TIR complete the TIR's sessions "
        "before the command completes; an RQ leaving RDY completes its sessions first "
        "(D-LRO-10); a WQE too small for the next segment (§3.3.6.4: 'the LRO session is "
        "flushed and completion with error is generated', D-LRO-3). Expectations from "
        "vectors/lro/gen/lro_model.py."])
    g = group(vf, "one RQ, a Direct TIR with LRO (defaults), every frame to it",
              Setup(tirs=[{"rq": 0, "lro": {}}]))
    test(vf, g, "MODIFY_TIR turning LRO off completes the open session (tir_change); the next "
         "segment is received without LRO", "PRM §3.3.6.1 'when modifying a TIR (MODIFY_TIR) "
         "to disable LRO, the device first completes all outstanding LRO sessions', T48 bit 0",
         [*frames(stream(2)), ("modify", 0, {"enable_mask": 0}), ("check",),
          ("frame", seg(seq=SEQ0 + 200)), END])
    test(vf, g, "MODIFY_TIR changing the LRO timeout completes the open session; the next "
         "segment opens a new one", C_END + " 'TIR destruction or update', T48 bit 0",
         [*frames(stream(2)), ("modify", 0, {"enable_mask": 3, "timeout_usecs": 16}),
          ("check",), ("frame", seg(seq=SEQ0 + 200)), END])
    test(vf, g, "MODIFY_TIR with two sessions open completes both (D-LRO-10: in the order "
         "they opened)",
         C_END + " 'TIR destruction or update', D-LRO-10",
         [("frame", seg()), ("frame", seg(seq=0x900, sport=0x4321)),
          ("frame", seg(seq=SEQ0 + 100)), ("modify", 0, {"enable_mask": 0}), END],
         readings=[("the PRM orders no flush: the other order", {"flush_reversed"})])
    test(vf, g, "MODIFY_RQ to ERR with two sessions open on the RQ completes both",
         C_END + ", D-LRO-10",
         [("frame", seg()), ("frame", seg(seq=0x900, sport=0x4321)), ("rq_error", 0),
          ("check",)], posts=[2],
         readings=[("the PRM orders no flush: the other order", {"flush_reversed"}), RQ_LEAVE])
    test(vf, g, "MODIFY_RQ to ERR completes the open session first (rq_state), then the next "
         "segment is dropped (the RQ is not ready)", C_END + ", D-LRO-10, PRM §7.12.7",
         [*frames(stream(2)), ("rq_error", 0), ("check",), ("frame", seg(seq=SEQ0 + 200))],
         posts=[1], readings=[RQ_LEAVE])
    big = bytes(Ether(dst=OWN_MAC, src=PEER_MAC) / IP(src="10.0.0.1", dst="10.0.0.9") /
                UDP(sport=9, dport=9) / Raw(payload(600, 1)))
    g = group(vf, "the second WQE holds 400 bytes", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                          cap_bytes={(0, 1): 400}))
    test(vf, g, "a UDP datagram longer than its WQE (a receive error: local length, the RQ to "
         "ERR): the RQ's open session completes (rq_state) before the RQ leaves RDY, after the "
         "error completion (D-LRO-10)",
         C_END + ", D-LRO-10, PRM §7.12.7 T74 0x1",
         [*frames(stream(2)), ("frame", big)], posts=[2],
         readings=[("the session's completion first, then the error's",
                    {"rx_error_sessions_first"}), RQ_LEAVE])
    test(vf, g, "DESTROY_TIR completes the open session first (tir_change)",
         "PRM §3.3.6.1 'When a TIR that is enabled for LRO is destroyed ... the device first "
         "completes all outstanding LRO sessions ... Only then does the DESTROY_TIR command "
         "complete'", [*frames(stream(2, v6=True)), ("destroy", 0), ("check",)])
    test(vf, g, "MODIFY_RQ to RST completes the open session first (rq_state)",
         C_END + ", D-LRO-10, T57",
         [*frames(stream(2)), ("rq_error", 0, "RST"), ("check",)], posts=[1],
         readings=[RQ_LEAVE])
    st = Setup(tirs=[{"rq": 0, "lro": {}}], steer=False)
    g = group(vf, "a Direct TIR with LRO, steered by the test's own flow", st)
    flow = {"steer": {"tables": [{"name": "t0", "level": 0}],
                      "groups": [{"name": "g0", "table": "t0"}],
                      "entries": [{"table": "t0", "group": "g0", "index": 0, "action": 4,
                                   "dest": [{"tir": 0}]}]}}
    delete = {"steer": {"delete": [{"table": "t0", "index": 0}]}}
    test(vf, g, "DESTROY_TIR (its flow deleted first) completes the open session before the "
         "command completes", "PRM §3.3.6.1 'When a TIR that is enabled for LRO is destroyed "
         "... the device first completes all outstanding LRO sessions'",
         [("step", flow), *frames(stream(3)), ("step", delete), ("destroy", 0)])
    # the WQE's room (D-LRO-3)
    small = Setup(tirs=[{"rq": 0, "lro": {}}], cap_bytes={(0, 0): 400})
    g = group(vf, "the first WQE holds 400 bytes", small)
    test(vf, g, "154 + 100 + 100 = 354 bytes fit; the third payload (454) does not: a "
         "completion with error (local length), the RQ to ERR, the segment not delivered",
         C_MERGE + " 'the RQ WQE should be large enough ... otherwise the LRO session is "
         "flushed and completion with error is generated', T74 0x1, D-LRO-3",
         [*frames(stream(4)), END], posts=[2],
         readings=[("the session completes normally, the segment alone",
                    {"wqe_space_normal"})])
    return vf


# ---------------------------------------------------------------------------------------------
# limits.json: the session limit, lro_min_mss_size, the size mode, several TIRs

def gen_limits():
    vf = VFile("limits.json", "lro", [
        "Device limits (PRM §3.3.6.2 'The HW has available resources for a new LRO session', "
        "T147 lro_min_mss_size, lro_max_msg_sz_mode): the profile's lro_max_sessions "
        "(D-LRO-1), lro_min_mss_size above 1, the size limit counted from the L2 header "
        "(mode 1), sessions per TIR and RQ (D-LRO-1). Expectations from "
        "vectors/lro/gen/lro_model.py."])
    g = group(vf, "lro_max_sessions 2", Setup(tirs=[{"rq": 0, "lro": {}}],
                                              profile={"lro_max_sessions": 2}))
    flows = [seg(seq=0x100 * (k + 1), sport=0x1000 + k) for k in range(3)]
    test(vf, g, "three flows, two sessions: the third flow's segment completes alone "
         "(no_resources)", C_OPEN + " 'The HW has available resources', D-LRO-1",
         [*frames(flows), END])
    test(vf, g, "once the timer ended the two sessions, the third flow opens one",
         C_OPEN + ", D-LRO-1", [*frames(flows[:2]), ("advance", 70 * US),
                                ("frame", flows[2]), END])
    test(vf, g, "a segment of an open session still merges when no session is free",
         C_MERGE + ", D-LRO-1", [*frames(flows[:2]), ("frame", seg(seq=0x200, sport=0x1000)),
                                 END])
    g = group(vf, "one RQ, a Direct TIR with LRO (defaults)", Setup(tirs=[{"rq": 0, "lro": {}}]))
    test(vf, g, "255 segments of 6 bytes merge into one session (lro_num_seg 255, T68's 8 "
         "bits); the 256th cannot join it: the session ends and the segment opens the next one "
         "(D-LRO-6 names it max_size)", C_MERGE + ", T68 lro_num_seg",
         [("frame", s) for s in stream(256, n=6)] + [END],
         readings=[("the 256th segment completes alone", {"seg_limit_alone"})])
    g = group(vf, "lro_min_mss_size 100", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                profile={"lro_min_mss_size": 100}))
    test(vf, g, "99 bytes of payload: no session (small)",
         C_OPEN + " 'Segment TCP payload size is >= HCA_CAP.lro_min_mss_size'",
         [("frame", seg(n=99)), END])
    test(vf, g, "100 bytes open a session; a 99-byte segment ends it and completes alone",
         C_OPEN + ", " + C_END + " 'Segment TCP payload size is < HCA_CAP.lro_min_mss_size'",
         [("frame", seg(n=100)), ("frame", seg(seq=SEQ0 + 100, n=99)), END])
    g = group(vf, "lro_max_msg_sz_mode 1 (from the L2 header), lro_max_msg_sz 2 (512 bytes)",
              Setup(tirs=[{"rq": 0, "lro": {"max_msg_sz": 2}}],
                    profile={"lro_max_msg_sz_mode": 1}))
    test(vf, g, "54 + 4 x 100 = 454 bytes merge; the fifth (554) does not: max_size",
         C_SIZE + " (start_from_L2_header)", [*frames(stream(5)), END])
    test(vf, g, "54 + 4 x 100 + 58 = 512 bytes exactly merge", C_SIZE,
         [*frames(stream(4) + [seg(seq=SEQ0 + 400, n=58)]), END],
         readings=[("'not exhaust': the limit itself is refused",
                    {"limit_exclusive"})])
    g = group(vf, "two RQs, two Direct TIRs with LRO, each frame to both (multi-path)",
              Setup(rqs=[{}, {}], tirs=[{"rq": 0, "lro": {}}, {"rq": 1, "lro": {}}]))
    test(vf, g, "each TIR runs its own session over the same segments (D-LRO-1)",
         C_FLOW + ", D-LRO-1, §7.11.3.6", [*frames(stream(3)), END],
         readings=[("the copies reach the TIRs in the other order (§7.11.3.6)",
                    {"tir_copies_reversed"})])
    g = group(vf, "one RQ, two Direct TIRs with LRO on it, each frame to both (multi-path)",
              Setup(tirs=[{"rq": 0, "lro": {}}, {"rq": 0, "lro": {}}]))
    test(vf, g, "sessions are per TIR (§3.3.6.1 'the TIR extracts LRO Flow IDs', D-LRO-1): "
         "the two copies of each segment go to two sessions on the one RQ, each in its own WQE",
         C_FLOW + ", D-LRO-1, §7.11.3.6", [*frames(stream(3)), END],
         readings=[("the copies reach the TIRs in the other order (§7.11.3.6)",
                    {"tir_copies_reversed"})])
    g = group(vf, "two RQs; a Direct TIR with LRO and one without, each frame to both",
              Setup(rqs=[{}, {}], tirs=[{"rq": 0, "lro": {}}, {"rq": 1}]))
    test(vf, g, "the TIR without LRO receives every segment alone while the other merges them",
         C_TIR + ", D-LRO-1, §7.11.3.6", [*frames(stream(3)), END],
         readings=[("the copies reach the TIRs in the other order (§7.11.3.6)",
                    {"tir_copies_reversed"})])
    g = group(vf, "lro_max_sessions 1; two RQs, two Direct TIRs with LRO, each frame to both",
              Setup(rqs=[{}, {}], tirs=[{"rq": 0, "lro": {}}, {"rq": 1, "lro": {}}],
                    profile={"lro_max_sessions": 1}))
    test(vf, g, "the limit is the device's (D-LRO-1): the copy that comes first opens the one "
         "session, the other TIR's copy completes alone (no_resources)",
         C_OPEN + " 'The HW has available resources', D-LRO-1, §7.11.3.6",
         [*frames(stream(2)), END],
         readings=[("the copies reach the TIRs in the other order (§7.11.3.6)",
                    {"tir_copies_reversed"})])
    return vf


# ---------------------------------------------------------------------------------------------
# The example capture (examples/lro/): a few flows whose sessions end for different reasons

def example():
    """Frames with their times (µs) and the TIR settings `nicref lro explain` is given. The
    flows follow one another 70 µs apart (more than 2N after the last session of the flow
    before opened), so which session ends first never depends on where in N..2N a timer fires
    (T147): everything but the moment a timer fires is the PRM's."""
    lro = {"enable_mask": 3, "timeout_usecs": 32, "max_msg_sz": 8}
    flows = [
        # 40001: three segments, then the timer
        [(0, seg(seq=1000 + i * 500, n=500, sport=40001)) for i in range(3)],
        # 40002: timestamps, then a lower TSval (ts_older, (*)): the next session, the timer
        [(0, seg(seq=7000 + i * 400, n=400, ts=(tv, 9), sport=40002))
         for i, tv in enumerate((50, 51, 49, 52))],
        # 40003: a gap (out_of_order, alone), PSH opens a session, FIN ends it (alone)
        [(0, seg(seq=100, n=300, sport=40003)), (0, seg(seq=400, n=300, sport=40003)),
         (0, seg(seq=2000, n=300, sport=40003)),
         (0, seg(seq=2300, n=300, flags="PA", sport=40003)),
         (0, seg(seq=2600, n=300, flags="FA", sport=40003))],
        # 40004, IPv6: 1000-byte segments; the third passes 2048 bytes (max_size, (*))
        [(0, seg(seq=5000 + i * 1000, n=1000, sport=40004, v6=True)) for i in range(3)],
        # 40005: ECE appears (ecn, (*)): the next session, the timer
        [(0, seg(seq=300 + i * 200, n=200, flags="AE" if i else "A", sport=40005))
         for i in range(3)],
        # 40001 again: a new session
        [(0, seg(seq=2500, n=500, sport=40001))],
    ]
    ev, t = [], 0
    for fl in flows:
        for k, (_, fr) in enumerate(fl):
            ev.append((t, fr))
            t += 2
        t += 70
    return ev, lro


def gen_stream():
    vf = VFile("stream.json", "lro", [
        "The example capture of examples/lro (stream.pcap) replayed at its times into a TIR "
        "with its LRO settings: five flows whose sessions end by the timer, a lower TSval, a "
        "gap, FIN, the size limit and ECN (PRM §3.3.6.2-§3.3.6.6); the same expectations as "
        "examples/lro/expected_explain.json, from vectors/lro/gen/lro_model.py."])
    ev, lro = example()
    g = group(vf, "one RQ, a Direct TIR with the example's LRO settings",
              Setup(tirs=[{"rq": 0, "lro": lro}]))
    ops, now = [], 0
    for t, fr in ev:
        if t > now:
            ops.append(("advance", (t - now) * US))
            now = t
        ops.append(("frame", fr))
    test(vf, g, "the example capture: every session, its end and its CQE",
         C_OPEN + ", " + C_END + ", " + C_MERGE + ", " + C_CQE, ops + [END])
    return vf


def gen_example():
    """The expected explanation, shaped as `nicref lro explain --json` prints it
    (docs/lro_explain.md): frames by their 1-based number in the capture."""
    ev, lro = example()
    setup = Setup(tirs=[{"rq": 0, "lro": lro}])
    d = setup.device()
    t0 = ev[0][0]
    frames_of = {}     # wqe -> [frame numbers]
    open_ns = {}
    sessions, alone = [], []
    ending = None      # (frame number or None, end ns)

    def take(outs, number, now):
        nonlocal ending
        for o in outs:
            if o["ev"] == "open":
                frames_of[o["wqe"]] = [number]
                open_ns[o["wqe"]] = now
            elif o["ev"] == "merge":
                frames_of[o["wqe"]].append(number)
            elif o["ev"] == "end":
                ending = (o, number)
            elif o["ev"] == "pass":
                alone.append({"frame": number, "cause": o["cause"]})
            elif o["ev"] == "cqe":
                f = {k: v for k, v in o["fields"].items() if k in EXPLAIN_CQE}
                if ending and ending[0]["wqe"] == o["wqe"]:
                    e, by = ending
                    sessions.append({"frames": frames_of.pop(o["wqe"]),
                                     "open_ns": open_ns.pop(o["wqe"]),
                                     "end_ns": e["t"],
                                     "end": {"cause": e["cause"], "by_frame": by},
                                     "cqe": f})
                    ending = None
                else:
                    alone[-1]["cqe"] = f
    for k, (t, fr) in enumerate(ev):
        take(d.advance((t - t0) * US - d.now), None, None)
        take(d.frame(fr), k + 1, d.now)
    take(d.advance(1000 * US), None, None)
    sessions.sort(key=lambda x: x["frames"][0])
    cmd = ("nicref lro explain --json --tir-lro enable_mask={enable_mask},timeout_usecs="
           "{timeout_usecs},max_msg_sz={max_msg_sz} stream.pcap").format(**lro)
    exp = {"capture": "stream.pcap", "command": cmd,
           "note": "written by vectors/lro/gen/gen_lro.py from its own model of PRM §3.3.6 "
                   "(lro_model.py), never from nicref: sessions in the order they opened, "
                   "frames by number (1-based), times from the first frame (a session ends N "
                   "µs after it opened, D-LRO-5; the capture has no frame inside N..2N of a "
                   "session), lro_abrt 2 for the 'exception or other' causes (T68 allows 3), "
                   "the checksum of a frame alone as D-RX-10",
           "tir": {"lro_enable_mask": lro["enable_mask"],
                   "lro_timeout_period_usecs": lro["timeout_usecs"],
                   "lro_max_msg_sz": lro["max_msg_sz"], "period_in_force_usecs": 32},
           "sessions": sessions, "alone": alone,
           "summary": {"frames": len(ev), "sessions": len(sessions),
                       "merged_frames": sum(len(x["frames"]) for x in sessions),
                       "alone": len(alone)}}
    pcap = pcap_bytes([(t * US, fr) for t, fr in ev])
    return {"stream.pcap": pcap, "expected_explain.json": dump(exp).encode(),
            "README.md": README.format(cmd=cmd, n=len(ev), **lro).encode()}


EXPLAIN_CQE = ("opcode", "byte_cnt", "checksum", "lro_num_seg", "lro_tcp_psh", "lro_abrt",
               "lro_dup_ack_cnt", "lro_min_ttl", "lro_tcp_win", "lro_ack_seq_num",
               "lro_timestamp_is_valid", "timestamp_h", "timestamp_l", "l4_hdr_type")

README = """# An example capture for `nicref lro explain`

`stream.pcap` holds {n} TCP segments of five flows from 10.0.0.1 / 2001:db8::1 to port 22136
(5678h), one flow after the other (70 µs apart, more than twice the timer period), whose LRO
sessions end for different reasons (ConnectX-4 PRM Rev 0.40 §3.3.6.3):

| flow (source port) | what happens |
|---|---|
| 40001 | three 500-byte segments merge; the timer ends the session; a later segment opens a new one |
| 40002 | timestamps; a lower TSval ends the session (`ts_older`, one of the (*) causes) and opens the next |
| 40003 | a gap in the sequence (`out_of_order`: the segment is delivered alone), then PSH opens a session that FIN ends (`tcp_flags`) |
| 40004 | IPv6, 1000-byte segments: the third would pass lro_max_msg_sz (`max_size`) and opens the next session |
| 40005 | the TCP ECE flag appears (`ecn`, a (*) cause): the segment opens the next session |

The TIR's LRO settings (T45 10h): lro_enable_mask {enable_mask}, lro_timeout_period_usecs
{timeout_usecs} (a supported period: N = 32 µs), lro_max_msg_sz {max_msg_sz} (2048 bytes of TCP
header and payload, mode 0); the device's defaults otherwise. So:

```sh
{cmd}
```

`expected_explain.json` is what an independent model of the PRM's LRO rules
(`vectors/lro/gen/lro_model.py`) says each session is: its frames by number (1-based), why and
by which frame it ended, and its CQE fields (T5, T68). `make lro-gen-check` regenerates the
three files from `vectors/lro/gen/gen_lro.py` and fails when they differ.
"""


def pcap_bytes(recs):
    """Classic pcap, nanosecond timestamps (magic a1b23c4d), link type 1, little-endian."""
    out = struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1)
    for ns, fr in recs:
        out += struct.pack("<IIII", ns // 10**9, ns % 10**9, len(fr), len(fr)) + fr
    return out


# ---------------------------------------------------------------------------------------------

def dump(doc):
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def strip_private(vf):
    d = vf.doc()
    for g in d["testGroups"]:
        g.pop("_setup", None)
    return d


def main(argv):
    check = "--check" in argv
    files = {}
    for vf in (gen_session(), gen_merge(), gen_termination(), gen_timer(), gen_cqe(),
               gen_flush(), gen_limits(), gen_stream()):
        files[os.path.join(OUT, vf.name)] = dump(strip_private(vf)).encode()
    for name, data in gen_example().items():
        files[os.path.join(EXAMPLES, name)] = data
    return write_or_check(files, check, "gen_lro")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""Independent predictions of `nicref replay` on the examples (issue 16, done-when): for each
record of examples/replay/*.pcap (built by gen_examples.py), what the device does with it, in
the --jsonl format of docs/replay.md, derived here from ConnectX-4 PRM Rev 0.40 and the
project's recorded decisions, never from nicref's output:

  - which RQ: the setup's rules in order (PRM §7.11.2: the first flow that matches), then the
    TIR (Direct: its RQ; Indirect: the RQT entry hash mod 8, D-RX-13), the RSS input and hash
    type (T46/T47, D-RSS-2) hashed by the Toeplitz of vectors/rx/gen/gen_rx.py, which checks
    itself against Microsoft's published values before anything is derived;
  - the CQE (T67/T68): opcode 2, byte_cnt without a stripped C-VLAN tag (§3.3.7, D-RX-3),
    srqn_user_index 0x100 + RQ (docs/vectors.md), the rule's flow tag, wqe_counter the RQ's
    CQEs so far (the replay re-posts every WQE), the header fields and checksum of gen_rx.py's
    hdr_fields / ip_csum (D-RX-9, D-RX-10), rx_hash_* (0 for a Direct TIR);
  - the drops: a frame for another station (vport filter, D-RX-6), L3 payload over the
    1500-byte MTU (D-RX-5), no rule and no default (steering, §7.11.2.5); their counters
    (D-RX-8); a record cut by the snapshot length is not injected (docs/replay.md);
  - frames under 60 bytes are padded with zeros (IEEE 802.3 §4.2.3.3, docs/replay.md).
The CQE timestamp is not predicted (the device's clock: D-TS-1); the check ignores it, by name.

    predict.py CAPTURE_NAME   prints the predicted lines (one JSON object per record)"""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "vectors", "rx", "gen"))
sys.path.insert(0, HERE)

import gen_examples  # noqa: E402
import gen_rx  # noqa: E402
from scapy.all import IP, TCP, UDP, Dot1Q, Ether, IPv6  # noqa: E402

MTU = 1500                      # the port's default MTU (docs/registers.md D-REG-20)
OWN = bytes.fromhex("024e49435246")
UI = 0x100

# The setups of the examples, as their JSON files say, read here as plain rules.
RSS_SEL = {0: 0x0000000F, 1: 0x4000000F, 2: 0x8000000F, 3: 0xC000000F}


def l3l4(b):
    e = Ether(b)
    p = e.payload
    vlan = None
    if isinstance(p, Dot1Q) and e.type == 0x8100:
        vlan = p.vlan
        p = p.payload
    et = 0x0800 if isinstance(p, IP) else 0x86DD if isinstance(p, IPv6) else None
    proto = p.proto if isinstance(p, IP) else p.nh if isinstance(p, IPv6) else None
    dport = p.payload.dport if isinstance(p.payload, (TCP, UDP)) else None
    return vlan, et, proto, dport


def route_one_rq(b):
    return {"tir": ("direct", 0), "flow_tag": 0}


def route_rss8(b):
    _, et, proto, _ = l3l4(b)
    table = {(0x0800, 6): 0, (0x0800, 17): 1, (0x86DD, 6): 2, (0x86DD, 17): 3}
    k = table.get((et, proto))
    if k is None:
        return {"tir": ("direct", 0), "flow_tag": 0}
    return {"tir": ("rss", RSS_SEL[k]), "flow_tag": k + 1}


def route_vlan_port(b):
    vlan, _, proto, dport = l3l4(b)
    if vlan == 10:
        return {"tir": ("direct", 0), "flow_tag": 10}
    if proto == 6 and dport == 443:
        return {"tir": ("direct", 1), "flow_tag": 443}
    return None  # no rule, no default: the NIC_RX miss drops it


ROUTES = {"one_rq.pcap": route_one_rq, "rss8.pcap": route_rss8, "vlan_port.pcap": route_vlan_port}


def l3_payload_len(b):
    at, et = 14, struct.unpack(">H", b[12:14])[0]
    while et in (0x8100, 0x88A8):
        et = struct.unpack(">H", b[at + 2:at + 4])[0]
        at += 4
    return len(b) - at


def predict(name):
    route = ROUTES[name]
    count = {}
    out, last = [], None
    for number, (t_us, data, wire) in enumerate(gen_examples.frames(name), 1):
        t_ns = gen_examples.T0 + t_us * 1000
        rec = {"frame": number, "t_ns": t_ns}
        if len(data) < wire:
            rec.update(len=wire, outcome="skipped", reason="truncated")
            out.append(rec)
            continue
        b = data + bytes(max(0, 60 - len(data)))
        rec.update(len=len(b), outcome="dropped")
        if len(data) < 60:
            rec["padded"] = True
        if not (b[0] & 1) and b[:6] != OWN:
            rec["copies"] = [{"drop": "vport_filter", "counters": []}]
        elif l3_payload_len(b) > MTU:
            rec["copies"] = [{"drop": "over_mtu", "port": 1, "counters": [
                "a_frame_too_long_errors", "dot3stats_frame_too_long", "if_in_errors",
                "ether_stats_oversize_pkts"]}]
        else:
            r = route(b)
            if r is None:
                rec["copies"] = [{"drop": "steering", "counters": ["if_in_discards"]}]
            else:
                kind, arg = r["tir"]
                hdr = gen_rx.hdr_fields(b)
                htype = hres = 0
                if kind == "rss":
                    data_in, htype = gen_rx.rss_input(Ether(b), arg, 0)
                    hres = gen_rx.toeplitz(gen_rx.MS_KEY, data_in) if htype else 0
                    rq = (gen_rx.toeplitz(gen_rx.MS_KEY, data_in) if htype else 0) % 8
                else:
                    rq = arg
                strip = hdr["cv"] == 1
                cqe = {"opcode": 2, "byte_cnt": len(b) - (4 if strip else 0),
                       "srqn_user_index": UI + rq, "flow_tag": r["flow_tag"],
                       "wqe_counter": count.get(rq, 0) & 0xFFFF,
                       "l2_ok": hdr["l2_ok"], "l3_ok": hdr["l3_ok"], "l4_ok": hdr["l4_ok"],
                       "l3_hdr_type": hdr["l3_hdr_type"], "l4_hdr_type": hdr["l4_hdr_type"],
                       "ip_frag": hdr["ip_frag"], "ip_ext_opts": hdr.get("ip_ext_opts", 0),
                       "cv": hdr["cv"], "up": hdr["up"], "cfi": hdr["cfi"], "vid": hdr["vid"],
                       "checksum": gen_rx.ip_csum(b)[0], "rx_hash_type": htype,
                       "rx_hash_result": hres, "rx_drop_counter": 0, "lro_num_seg": 0, "se": 0}
                count[rq] = count.get(rq, 0) + 1
                rec["outcome"] = "delivered"
                rec["copies"] = [{"rq": rq, "cqe": cqe}]
        out.append(rec)
    return out


def main(argv):
    gen_rx.verify_toeplitz()
    if len(argv) != 1 or argv[0] not in ROUTES:
        sys.exit(__doc__)
    for rec in predict(argv[0]):
        print(json.dumps(rec))


if __name__ == "__main__":
    main(sys.argv[1:])

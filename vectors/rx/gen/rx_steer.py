"""Frames through the NIC_RX flow tables by match field (PRM §7.11.2, §12.14.9).
Part of gen_rx.py (its docstring says how the expectations are derived)."""
from rx_common import *  # noqa: F401,F403
from rx_rss import *  # noqa: F401,F403,E402
from rx_cqe import *  # noqa: F401,F403,E402
from rx_vport import *  # noqa: F401,F403,E402
from rx_events import *  # noqa: F401,F403,E402

# ---------------------------------------------------------------------------------------------
# steer_frames.json: every match field of T153 with a frame, every action, miss, multi-path,
# flow counters

MATCH = [  # (T153 field, fte_match_param criteria, value for the frame, a frame that matches,
           #  one that does not)
    ("outer_dmac", {"outer_dmac_47_16": "0xffffffff", "outer_dmac_15_0": "0xffff"},
     {"outer_dmac_47_16": "0x024e4943", "outer_dmac_15_0": "0x5246"},
     v4(UDP), Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) / IP() / UDP() / payload(32)),
    ("outer_smac", {"outer_smac_47_16": "0xffffffff", "outer_smac_15_0": "0xffff"},
     {"outer_smac_47_16": "0x02000000", "outer_smac_15_0": "0x0099"},
     v4(UDP), Ether(dst=OWN_MAC, src="02:00:00:00:00:98") / IP() / UDP() / payload(32)),
    ("outer_ether_type", {"outer_ethertype": "0xffff"}, {"outer_ethertype": "0x86dd"},
     v6(UDP), v4(UDP)),
    ("outer_first_prio", {"outer_cvlan_tag": 1, "outer_first_prio": 7},
     {"outer_cvlan_tag": 1, "outer_first_prio": 5},
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(prio=5, vlan=9) / IP() / UDP() / payload(32),
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(prio=4, vlan=9) / IP() / UDP() / payload(32)),
    ("outer_first_cfi", {"outer_cvlan_tag": 1, "outer_first_cfi": 1},
     {"outer_cvlan_tag": 1, "outer_first_cfi": 1},
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(id=1, vlan=9) / IP() / UDP() / payload(32),
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(id=0, vlan=9) / IP() / UDP() / payload(32)),
    ("outer_first_vid", {"outer_cvlan_tag": 1, "outer_first_vid": "0xfff"},
     {"outer_cvlan_tag": 1, "outer_first_vid": 9},
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(vlan=9) / IP() / UDP() / payload(32),
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(vlan=10) / IP() / UDP() / payload(32)),
    ("outer_second_prio", {"outer_second_cvlan_tag": 1, "outer_second_prio": 7},
     {"outer_second_cvlan_tag": 1, "outer_second_prio": 6},
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(vlan=9, type=0x8100) / Dot1Q(prio=6, vlan=3) /
     IP() / UDP() / payload(32),
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(vlan=9, type=0x8100) / Dot1Q(prio=2, vlan=3) /
     IP() / UDP() / payload(32)),
    ("outer_second_cfi", {"outer_second_cvlan_tag": 1, "outer_second_cfi": 1},
     {"outer_second_cvlan_tag": 1, "outer_second_cfi": 1},
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(vlan=9, type=0x8100) / Dot1Q(id=1, vlan=3) /
     IP() / UDP() / payload(32),
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(vlan=9, type=0x8100) / Dot1Q(id=0, vlan=3) /
     IP() / UDP() / payload(32)),
    ("outer_second_vid", {"outer_second_cvlan_tag": 1, "outer_second_vid": "0xfff"},
     {"outer_second_cvlan_tag": 1, "outer_second_vid": 3},
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(vlan=9, type=0x8100) / Dot1Q(vlan=3) /
     IP() / UDP() / payload(32),
     Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(vlan=9, type=0x8100) / Dot1Q(vlan=4) /
     IP() / UDP() / payload(32)),
    ("outer_ipv6_flow_label", {"outer_ipv6_flow_label": "0xfffff"}, {"outer_ipv6_flow_label": "0x12345"},
     Ether(dst=OWN_MAC, src=PEER_MAC) / IPv6(fl=0x12345) / UDP() / payload(32),
     Ether(dst=OWN_MAC, src=PEER_MAC) / IPv6(fl=0x12346) / UDP() / payload(32)),
    ("outer_sip", {"outer_src_ip": "00" * 12 + "ffffffff"}, {"outer_src_ip": "00" * 12 + "0a000001"},
     v4(UDP), v4(UDP, src="10.0.0.9")),
    ("outer_dip", {"outer_dst_ip": "ff" * 16}, {"outer_dst_ip": ip_bytes("2001:db8::2").hex()},
     v6(UDP), v6(UDP, dst="2001:db8::3")),
    ("outer_frag", {"outer_frag": 1}, {"outer_frag": 1},
     Ether(dst=OWN_MAC, src=PEER_MAC) / IP(flags="MF") / UDP() / payload(32), v4(UDP)),
    ("outer_ip_protocol", {"outer_ip_protocol": "0xff"}, {"outer_ip_protocol": 17},
     v4(UDP), v4(TCP)),
    ("outer_ip_ecn", {"outer_ip_ecn": 3}, {"outer_ip_ecn": 2},
     Ether(dst=OWN_MAC, src=PEER_MAC) / IP(tos=2) / UDP() / payload(32),
     Ether(dst=OWN_MAC, src=PEER_MAC) / IP(tos=1) / UDP() / payload(32)),
    ("outer_ip_dscp", {"outer_ip_dscp": "0x3f"}, {"outer_ip_dscp": 46},
     Ether(dst=OWN_MAC, src=PEER_MAC) / IP(tos=46 << 2) / UDP() / payload(32),
     Ether(dst=OWN_MAC, src=PEER_MAC) / IP(tos=10 << 2) / UDP() / payload(32)),
    ("outer_udp_sport", {"outer_udp_sport": "0xffff"}, {"outer_udp_sport": "0x1234"},
     v4(UDP), v4(UDP, sport=0x1235)),
    ("outer_udp_dport", {"outer_udp_dport": "0xffff"}, {"outer_udp_dport": "0x5678"},
     v4(UDP), v4(UDP, dport=0x5679)),
    ("outer_tcp_sport", {"outer_tcp_sport": "0xffff"}, {"outer_tcp_sport": "0x1234"},
     v4(TCP), v4(TCP, sport=0x1235)),
    ("outer_tcp_dport", {"outer_tcp_dport": "0xffff"}, {"outer_tcp_dport": "0x5678"},
     v4(TCP), v4(TCP, dport=0x5679)),
    ("outer_tcp_flags", {"outer_tcp_flags": "0x1ff"}, {"outer_tcp_flags": "0x012"},
     v4(TCP, flags="SA"), v4(TCP, flags="S")),
]


def steer_one(crit, value, action=4, dest=None, counters=None, tag=0x77, extra=None):
    e = {"table": "t0", "group": "g0", "index": 0, "action": action, "flow_tag": tag,
         "match": value}
    if dest is not None:
        e["dest"] = dest
    if counters:
        e["counters"] = counters
    s = {"tables": [{"name": "t0", "level": 0}],
         "groups": [{"name": "g0", "table": "t0", "start": 0, "end": 0, "criteria": crit}],
         "entries": [e]}
    if counters:
        s["counters"] = counters
    if extra:
        s.update(extra)
    return {"steer": s}


def prio_vlan_tag_cases(vf, g):
    """§7.11.3.10.1: a prio-tagged frame (an 802.1Q tag with VID 0) against the three flows the
    section names. Its first two sentences are clear: "only prio-tagged" matches vlan_tag 1 and
    first_vid 0, "only untagged" matches vlan_tag 0. Its third says one flow matching vlan_tag 0
    and first_vid 0 takes both kinds, which contradicts the first (a prio-tagged frame has
    vlan_tag 1): D-FT-21 follows the first two, the third's reading is accepted."""
    cite = C_STEER + ", §7.11.3.10.1"
    untagged = raw(v4(UDP))
    prio = raw(Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(prio=3, vlan=0) / IP(src="10.0.0.1",
               dst="10.0.0.2") / UDP(sport=0x1234, dport=0x5678) / payload(32))
    only_prio = ({"outer_cvlan_tag": 1, "outer_first_vid": "0xfff"},
                 {"outer_cvlan_tag": 1, "outer_first_vid": 0})
    only_untagged = ({"outer_cvlan_tag": 1}, {"outer_cvlan_tag": 0})
    both = ({"outer_cvlan_tag": 1, "outer_first_vid": "0xfff"},
            {"outer_cvlan_tag": 0, "outer_first_vid": 0})
    hit_prio = cqes([cqe_ok(prio, flow_tag=0x77, strip=True)])
    hit_untagged = cqes([cqe_ok(untagged, flow_tag=0x77)])
    miss = [events([drop(5)]), cqes([])]
    vf.test(g, "prio-tagged only (vlan_tag 1, first_vid 0): a prio-tagged frame matches, an "
            "untagged one misses", cite, [
                steer_one(*only_prio, dest=[{"tir": 0}]), post(), frame_step(prio), hit_prio,
                frame_step(untagged)] + miss)
    vf.test(g, "untagged only (vlan_tag 0): an untagged frame matches, a prio-tagged one "
            "misses", cite, [
                steer_one(*only_untagged, dest=[{"tir": 0}]), post(), frame_step(untagged),
                hit_untagged, frame_step(prio)] + miss)
    vf.test(g, "the single flow of vlan_tag 0 and first_vid 0 takes an untagged frame", cite, [
        steer_one(*both, dest=[{"tir": 0}]), post(), frame_step(untagged), hit_untagged])
    vf.test(g, "the single flow of vlan_tag 0 and first_vid 0 and a prio-tagged frame "
            "(D-FT-21)", cite, [
                steer_one(*both, dest=[{"tir": 0}]), post(), frame_step(prio),
                {"events": {"any_of": [
                    {"reading": "D-FT-21: the frame has vlan_tag 1 (sentence 1): a miss",
                     "expect": [drop(5)], "exact": False},
                    {"reading": "sentence 3: the flow takes prio-tagged frames too",
                     "expect": [{"event": "cqe", "opcode": 2}], "exact": False}]}}],
            "acceptable")


def gen_steer():
    vf = VFile("steer_frames.json", "rx_steer", [
        "NIC_RX flow steering with frames (PRM §7.11.2, §12.14.9 T429-T434): every match field "
        "of T153 that ft_field_support lists, each action (ALLOW, DROP, FWD_DEST, COUNT), "
        "miss to a table, multi-path to two TIRs, flow counters counting."])
    g = vf.group("one RQ and one Direct TIR; no steering until the test builds it",
                 [BRING_UP, rx_setup()])
    b = raw(v4(UDP))
    vf.test(g, "no NIC_RX root: the default drops (reason 5)", "PRM §7.11.2.5",
            [post(), frame_step(b), events([drop(5)]), cqes([])])
    for name, crit, value, yes, no in MATCH:
        y, n = raw(yes), raw(no)
        f = hdr_fields(y)
        vf.test(g, f"{name}: the matching frame is delivered with the flow tag, the other "
                "one misses (dropped)", C_STEER + ", T153 " + name + ", T410/T416", [
                    steer_one(crit, value, dest=[{"tir": 0}]), post(), frame_step(y),
                    cqes([cqe_ok(y, flow_tag=0x77, strip=f["cv"] == 1)]), frame_step(n),
                    events([drop(5)]), cqes([])])
    prio_vlan_tag_cases(vf, g)
    any_ = {"outer_ethertype": "0xffff"}
    val = {"outer_ethertype": "0x0800"}
    vf.test(g, "DROP: dropped (reason 5)", C_STEER + " T430 action DROP", [
        steer_one(any_, val, action=2), post(), frame_step(b), events([drop(5)]), cqes([])])
    vf.test(g, "ALLOW: the type's default, drop for NIC_RX (D-FT-7)",
            C_STEER + " T430 action ALLOW, §7.11.2.5", [
                steer_one(any_, val, action=1), post(), frame_step(b),
                {"events": {"any_of": [
                    {"reading": "D-FT-7: the NIC_RX default (drop)", "expect": [drop(5)],
                     "exact": False},
                    {"reading": "the table's miss path (none: the default too)",
                     "expect": [{"event": "rx_drop", "reason": 5, "len": len(b)}],
                     "exact": False}]}}], "acceptable")
    vf.test(g, "FWD_DEST and COUNT: delivered and counted", C_STEER + ", §7.11.2.8", [
        steer_one(any_, val, action=4 | 8, dest=[{"tir": 0}], counters=["c0"]),
        post(count=2), frame_step(b), frame_step(b),
        cqes([cqe_ok(b, flow_tag=0x77), cqe_ok(b, flow_tag=0x77, wqe_counter=1)]),
        {"flow_counters": {"expect": [{"counter": "c0", "packets": 2,
                                       "octets": fc_octets(len(b), 2)}]}}])
    vf.test(g, "a miss goes to the identified miss table, whose flow delivers",
            C_STEER + ", T388 table_miss_action", [
                {"steer": {"tables": [{"name": "t1", "level": 1},
                                      {"name": "t0", "level": 0, "miss": "t1"}],
                           "groups": [{"name": "g0", "table": "t0", "criteria": any_},
                                      {"name": "g1", "table": "t1"}],
                           "entries": [{"table": "t0", "group": "g0", "action": 4,
                                        "match": {"outer_ethertype": "0x86dd"},
                                        "dest": [{"tir": 0}], "flow_tag": 1},
                                       {"table": "t1", "group": "g1", "action": 4,
                                        "dest": [{"tir": 0}], "flow_tag": 2}]}},
                post(), frame_step(b), cqes([cqe_ok(b, flow_tag=2)])])
    vf.test(g, "FWD_DEST to a table of a higher level", C_STEER + ", §7.11.2.4", [
        {"steer": {"tables": [{"name": "t1", "level": 1}, {"name": "t0", "level": 0}],
                   "groups": [{"name": "g0", "table": "t0"}, {"name": "g1", "table": "t1"}],
                   "entries": [{"table": "t0", "group": "g0", "action": 4,
                                "dest": [{"table": "t1"}]},
                               {"table": "t1", "group": "g1", "action": 4,
                                "dest": [{"tir": 0}], "flow_tag": 3}]}},
        post(), frame_step(b), cqes([cqe_ok(b, flow_tag=3)])])
    vf.test(g, "a deleted flow no longer matches", C_STEER + ", §12.14.11", [
        steer_one(any_, val, dest=[{"tir": 0}], extra={"delete": [{"table": "t0", "index": 0}]}),
        post(), frame_step(b), events([drop(5)]), cqes([])])
    g = vf.group("two RQs, two Direct TIRs", [BRING_UP, rx_setup(
        rqs=[{}, {}], tirs=[{"rq": 0}, {"rq": 1}])])
    one = cqe_ok(b, rq=0, flow_tag=0x77)
    two = cqe_ok(b, rq=1, flow_tag=0x77)
    vf.test(g, "a multi-path flow delivers one copy to each TIR (order not defined, §7.11.3.6)",
            C_STEER + ", §7.11.2.4, T149 nic_rx_multi_path_tirs", [
                steer_one(any_, val, dest=[{"tir": 0}, {"tir": 1}]), post(rq=0), post(rq=1),
                frame_step(b), {"cqes": {"cq": "rx", "any_of": [
                    {"reading": "list order", "expect": [one, two]},
                    {"reading": "the other order", "expect": [two, one]}]}}], "acceptable")
    frag_port_group(vf)
    return vf


def frag_port_group(vf):
    """The TCP ports of IPv6 fragments (RFC 8200 §4.5): a first fragment (offset 0, M 1)
    carries the headers behind its Fragment header, the TCP header included, even with a
    Destination Options header between; behind a later fragment's Fragment header is fragment
    data, whose bytes are no port (D-FT-5: a field the frame does not have reads 0). A group of
    its own at the end of the file, so that the earlier tests keep their numbers."""
    g = vf.group("IPv6 fragments: one RQ and one Direct TIR", [BRING_UP, rx_setup()])
    ip6 = Ether(dst=OWN_MAC, src=PEER_MAC) / IPv6(src="2001:db8::1", dst="2001:db8::2")
    tcp = TCP(sport=0x1234, dport=0x5678, flags="PA")
    first = raw(ip6 / IPv6ExtHdrFragment(offset=0, m=1, id=0x78) / IPv6ExtHdrDestOpt() / tcp /
                payload(32))
    later = raw(ip6 / IPv6ExtHdrFragment(offset=10, m=0, id=0x78, nh=6) /
                Raw(bytes(tcp) + bytes(payload(32))))
    vf.test(g, "outer_tcp_dport 0x5678: an IPv6 first fragment with a Destination Options "
            "header before its TCP header (dport 0x5678) is delivered with the flow tag; a later "
            "fragment whose data looks like the same TCP header misses (dropped)",
            C_STEER + ", T153 outer_tcp_dport, T410/T416; RFC 8200 §4.5", [
                steer_one({"outer_tcp_dport": "0xffff"}, {"outer_tcp_dport": "0x5678"},
                          dest=[{"tir": 0}]), post(), frame_step(first),
                cqes([cqe_ok(first, flow_tag=0x77)]), frame_step(later), events([drop(5)]),
                cqes([])])



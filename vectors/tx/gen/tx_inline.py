"""inline_mode.json: the inline-header rule.

Part of the independent send-path generator (gen_tx.py): nothing here comes from nicref's
output."""
import pkt
from pkt import ARP, ICMP, IP, DST4, HOP4A, SRC4, IPOption_RR, Raw, build, eth, payload
from vecfmt import Sq, VFile, cqe_err, cqe_ok, tx_setup
from txcommon import (CL_INL, C_INL, NOTES, SETUP, SYN_LEN, SYN_PROT, SYN_QP_OP, S_SEND,
                      VPORT_INLINE, post, send)
from tx_csum import tcp4, udp6


def inline_file():
    f = VFile("inline_mode.json", "tx_inline", [
        "The inline-header rule (ConnectX-4 PRM Rev 0.40 §7.9.3, §7.9.3.1, T61 min_wqe_inline_mode, "
        "T16 NIC vport min_wqe_inline_mode, T147 wqe_inline_mode = 1 on this device): a WQE whose "
        "eth segment inlines fewer headers than the SQ's mode requires is dropped; one that "
        "inlines enough is sent.",
        "The vport's minimum (T16) is the device's: no command writes it (T483 has no "
        "field_select bit for it), so a group sets it through the device profile "
        "(vport_min_wqe_inline_mode, VportInline note) where the test needs a vport below L2 or "
        "above it; tx_setup creates the SQ with the mode it is given, or with the vport's when "
        "none is (§7.9.3 'SW must query the required minimal inline header'; T61: "
        "'SQ.min_wqe_inline_mode must be >= Nic_vport.min_sq_wqe_inline_mode').",
    ], NOTES)

    def ok(g, comment, fr, ihs, mode):
        t = g.test(comment, C_INL + f" (mode {mode})", "valid", ["VportInline"] if g.profile else [])
        sq = Sq()
        i = post(t, sq, send(fr, ihs=ihs))
        t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    def dropped(g, comment, fr, ihs, mode):
        t = g.test(comment + ": dropped (§7.9.3 'Send WQEs with inline headers less than the "
                   "required are dropped'), no frame", C_INL + f" (mode {mode})", "acceptable",
                   ["InlineMode", "Violation"] + (["VportInline"] if g.profile else []))
        sq = Sq()
        i = post(t, sq, send(fr, ihs=ihs))
        t.no_frames()
        t.cqes_any([("silently dropped: the WQE completes", [cqe_ok(i, S_SEND)]),
                    ("dropped and completed in error", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT]})])])
        t.violation(CL_INL)

    g0 = f.group("vport minimum 0 (profile), SQ min_wqe_inline_mode 0 (none)",
                 SETUP + [tx_setup(min_wqe_inline_mode=0)], profile=VPORT_INLINE(0))
    ok(g0, "mode 0 (none): a SEND with no inline header at all (inline_header_size 0) is sent",
       tcp4(seed=40), 0, 0)

    g1 = f.group("min_wqe_inline_mode 1 (L2)", SETUP + [tx_setup(min_wqe_inline_mode=1)])
    ok(g1, "mode 1 (L2): 14 bytes inlined for an untagged frame (L2 'till the last EtherType')",
       tcp4(seed=41), 14, 1)
    dropped(g1, "mode 1 (L2): 12 bytes inlined (the EtherType missing)", tcp4(seed=42), 12, 1)
    dropped(g1, "mode 1 (L2): nothing inlined", tcp4(seed=43), 0, 1)
    t = g1.test("mode 1 (L2): 12 bytes inlined, dropped: nothing counted as transmitted (vport "
                "unicast packets 0, PPCNT aFramesTransmittedOK 0); the RFC 2863 discard and "
                "ifOutUcastPkts ('including those that were discarded or not sent') counters may "
                "count it", C_INL + "; PRM §12.17.1 T489; PRM §11.1.5 T116, T118",
                "acceptable", ["InlineMode", "Violation", "Counters"])
    sq = Sq()
    i = post(t, sq, send(tcp4(seed=57), ihs=12))
    t.no_frames()
    t.cqes_any([("silently dropped: the WQE completes", [cqe_ok(i, S_SEND)]),
                ("dropped and completed in error", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT]})])])
    t.violation(CL_INL)
    t.add({"command": {"layout": "query_vport_counter_in", "fields": {"opcode": "QUERY_VPORT_COUNTER", "clear": 0},
                       "output_length": "0x210", "expect": {"status": "OK", "output": {
                           "layout": "query_vport_counter_out", "fields": {"transmitted_eth_unicast_packets": 0}}}}})
    for grp, layout, fields in ((0, "access_reg_ppcnt_ieee_802_3_out", {"a_frames_transmitted_ok_low": 0}),
                                (1, "access_reg_ppcnt_rfc_2863_out", {"if_out_discards_low": {"in": [0, 1]},
                                                                      "if_out_ucast_pkts_low": {"in": [0, 1]}})):
        t.add({"command": {"layout": "access_reg_ppcnt_in",
                           "fields": {"opcode": "ACCESS_REG", "op_mod": 1, "register_id": "0x5008",
                                      "local_port": 1, "grp": grp, "prio_tc": 0, "clr": 0},
                           "output_length": "0x110",
                           "expect": {"status": "OK", "output": {"layout": layout, "fields": fields}}}})
    ok(g1, "mode 1 (L2): 18 bytes inlined for an 802.1Q-tagged frame", tcp4(seed=44, vlan=(0, 5)), 18, 1)
    dropped(g1, "mode 1 (L2): 14 bytes inlined for an 802.1Q-tagged frame (the last EtherType is "
            "at 16)", tcp4(seed=45, vlan=(0, 5)), 14, 1)
    llc = build(eth(etype=0) ) [:12] + (100).to_bytes(2, "big") + bytes([0xAA, 0xAA, 0x03, 0, 0, 0, 0x88, 0xB5]) + payload(92, 46)
    ok(g1, "mode 1 (L2): an LLC/SNAP frame with 22 bytes inlined (Max(17, L2 till the last "
       "EtherType) = 22)", llc, 22, 1)
    dropped(g1, "mode 1 (L2): an LLC/SNAP frame with 16 bytes inlined (less than 17)", llc, 16, 1)

    g2 = f.group("vport minimum 2 (IP, profile); the SQ takes the vport's mode (tx_setup gives none)",
                 SETUP + [tx_setup()], profile=VPORT_INLINE(2))
    ok(g2, "mode 2 (IP): IPv4/TCP with 34 bytes inlined (to the end of the IPv4 header)", tcp4(seed=47), 34, 2)
    dropped(g2, "mode 2 (IP): IPv4/TCP with 33 bytes inlined", tcp4(seed=48), 33, 2)
    ok(g2, "mode 2 (IP): IPv6/UDP with 54 bytes inlined", udp6(seed=49), 54, 2)
    dropped(g2, "mode 2 (IP): IPv6/UDP with 40 bytes inlined", udp6(seed=50), 40, 2)
    ok(g2, "mode 2 (IP): IPv4 with options (IHL 7), 14 + 28 bytes inlined",
       tcp4(seed=51, ipopts=[IPOption_RR(routers=[HOP4A])]), 14 + 28, 2)
    ok(g2, "mode 2 (IP): a non-IP frame (ARP): the L2 rule applies, 14 bytes suffice",
       build(eth(dst=pkt.BCAST_MAC) / ARP(psrc=SRC4, pdst=DST4)) + bytes(22), 14, 2)

    g3 = f.group("vport minimum 1 (L2, the default), SQ min_wqe_inline_mode 3 (TCP/UDP)",
                 SETUP + [tx_setup(min_wqe_inline_mode=3)])
    ok(g3, "mode 3 (TCP/UDP): IPv4/TCP with 54 bytes inlined", tcp4(seed=52), 54, 3)
    dropped(g3, "mode 3 (TCP/UDP): IPv4/TCP with 53 bytes inlined", tcp4(seed=53), 53, 3)
    ok(g3, "mode 3 (TCP/UDP): IPv6/UDP with 62 bytes inlined", udp6(seed=54), 62, 3)
    dropped(g3, "mode 3 (TCP/UDP): IPv6/UDP with 54 bytes inlined (the UDP header missing)", udp6(seed=55), 54, 3)
    ok(g3, "mode 3 (TCP/UDP): ICMP over IPv4 carries no TCP/UDP header: the IP rule, 34 bytes",
       build(eth() / IP(src=SRC4, dst=DST4) / ICMP() / Raw(payload(60, 56))), 34, 3)
    return f

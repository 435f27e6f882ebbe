"""pair.json: two devices joined by nicref_link.
"""
from roce_common import *  # noqa: F401,F403


def pair_sent(path, outs, dev):
    """sent() for one device of a pair: its own addresses (path), its QP's UDP source port."""
    st = sent(outs, v6=True, dev=dev)
    for a in st["frames"]["any_of"]:
        for e in a["expect"]:
            fr = bytes.fromhex(e["hex"])
            d = M.parse(fr)
            pth = M.Path(path.smac, path.dmac, path.sip, path.dip, sport=path.sport,
                         ecn=d["ecn"], ttl=64)
            hdr_len = len(fr) - 14 - 40 - 8 - 12 - 4 - len(d["payload"]) - d["pad"]
            h = fr[14 + 40 + 8 + 12:14 + 40 + 8 + 12 + hdr_len]
            b = M.frame(pth, d["opcode"], d["dest_qp"], d["psn"], d["payload"], h,
                        ackreq=d["ackreq"], m=(fr[14 + 40 + 8 + 1] >> 6) & 1)
            csum = fr[14 + 40 + 6:14 + 40 + 8] != b"\x00\x00"
            e["hex"] = (with_udp_csum(b) if csum else b).hex()
    return st


# ---- two devices ------------------------------------------------------------------------------
def gen_pair():
    f = VFile("pair", "roce_pair", header(
        "RoCEv2 on two devices joined by a link (docs/vectors.md 'Two devices'): RC SEND, "
        "WRITE, READ end to end; loss, duplication, reordering and CE marking by the link; "
        "every message placed once and in order, every WQE completed once; UD a to b."))
    msg = pattern(600, 21)
    g = f.group("RC pair a-b, MTU 256, IPv4, ack_timeout 10 (4.19 ms)",
                setup2(mtu=1, ack_timeout=10))
    base = [{"qp_recv": {"qp": 0, "entries": [{"offset": hex(RQ_OFF[0]),
                                               "byte_count": 1024}]}, "dev": "b"}]
    done_send = [mem(DATA + RQ_OFF[0], msg, dev="b"),
                 cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 600}], dev="b"),
                 cqes("send", [req_cqe("SEND", 0)], dev="a")]
    f.test(g, "SEND of 600 bytes a -> b: placed in b's WQE, one receive CQE on b, one REQ CQE "
              "on a", C["pair"] + "; " + C["send"], base + [post("SEND", [{"bytes": msg.hex()}])]
           + done_send)
    f.test(g, "RDMA WRITE of 600 bytes a -> b (b's data MKey): placed, no CQE on b, REQ CQE on a",
           C["pair"] + "; " + C["write"],
           [post("RDMA_WRITE", [{"bytes": msg.hex()}], raddr={"offset": hex(WR_OFF)}),
            mem(DATA + WR_OFF, msg, dev="b"), cqes("recv", [], dev="b"),
            cqes("send", [req_cqe("RDMA_WRITE", 0)], dev="a")])
    f.test(g, "RDMA READ of 600 bytes: a reads b's memory into its own", C["pair"] + "; " +
           C["req_read"],
           [{"mem_write": {"addr": hex(DATA + WR_OFF), "hex": msg.hex()}, "dev": "b"},
            post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 600}],
                 raddr={"offset": hex(WR_OFF)}),
            mem(DATA + 0x3000, msg, dev="a"), cqes("send", [req_cqe("RDMA_READ", 0)], dev="a")])
    f.test(g, "WRITE of 3 packets, the FIRST lost (a -> b ordinal 0): b NAKs the sequence, a "
              "goes back to PSN 0; placed once, one CQE", C["pair"] + "; " + C["req_nak_seq"] +
           "; " + C["psn_seq"],
           [{"link": {"dir": "ab", "loss": [0]}},
            post("RDMA_WRITE", [{"bytes": msg.hex()}], raddr={"offset": hex(WR_OFF)}),
            {"advance_ns": 1000000},
            mem(DATA + WR_OFF, msg, dev="b"), cqes("send", [req_cqe("RDMA_WRITE", 0)], dev="a"),
            events([ev_nak(0, M.AETH_NAK | M.NAK_PSN_SEQ)], dev="b"),
            {"link_counters": {"ab": {"lost": 1}}}])
    f.test(g, "WRITE of 3 packets, the LAST lost: nothing tells a but its timer; after the "
              "local ACK timeout a resends; placed once, one CQE", C["pair"] + "; " + C["req_to"],
           [{"link": {"dir": "ab", "loss": [2]}},
            post("RDMA_WRITE", [{"bytes": msg.hex()}], raddr={"offset": hex(WR_OFF)}),
            {"advance_ns": 1000000}, cqes("send", [], dev="a"),
            {"advance_ns": 30000000},
            mem(DATA + WR_OFF, msg, dev="b"), cqes("send", [req_cqe("RDMA_WRITE", 0)], dev="a"),
            events([{"event": EV_RETX, "reason": 0}], dev="a")])
    f.test(g, "SEND a -> b, b's ACK lost: a times out and resends; b sees a duplicate, ACKs "
              "again, places nothing twice: one CQE on each side", C["pair"] + "; " +
           C["psn_dup"],
           base + [{"link": {"dir": "ba", "loss": [0]}}, post("SEND", [{"bytes": msg.hex()}]),
                   {"advance_ns": 30000000}] + done_send)
    f.test(g, "SEND a -> b duplicated by the link: one placement, one CQE on b", C["pair"] +
           "; " + C["psn_dup"],
           base + [{"link": {"dir": "ab", "duplicate": [0, 1, 2]}},
                   post("SEND", [{"bytes": msg.hex()}]), {"advance_ns": 1000000}] + done_send)
    f.test(g, "WRITE of 3 packets, the FIRST held back (reordered behind the others): Go-Back-N "
              "repairs it; placed once, one CQE", C["pair"] + "; " + C["req_nak_seq"],
           [{"link": {"dir": "ab", "delay_ns": 1000, "reorder": [0], "reorder_ns": 5000}},
            post("RDMA_WRITE", [{"bytes": msg.hex()}], raddr={"offset": hex(WR_OFF)}),
            {"advance_ns": 2000000},
            mem(DATA + WR_OFF, msg, dev="b"), cqes("send", [req_cqe("RDMA_WRITE", 0)], dev="a")])
    ten = [post("RDMA_WRITE", [{"bytes": pattern(600, 30 + i).hex()}],
                raddr={"offset": hex(WR_OFF + 0x1000 * i)}) for i in range(10)]
    f.test(g, "10 WRITEs of 600 bytes with 10% random loss both ways (seed 7): every WRITE "
              "placed, every WQE completed once and in order", C["pair"] + "; " +
           C["req_nak_seq"] + "; " + C["req_to"],
           [{"link": {"loss_ppm": 100000, "seed": 7, "tick_ns": 100000}}] + ten + [{"advance_ns": 2000000000}] +
           [mem(DATA + WR_OFF + 0x1000 * i, pattern(600, 30 + i), dev="b") for i in range(10)] +
           [cqes("send", [req_cqe("RDMA_WRITE", i) for i in range(10)], dev="a")])
    g6 = f.group("RC pair a-b over IPv6 (a 2001:db8::1, b 2001:db8::2), MTU 256",
                 setup2(mtu=1, local={"l3": "ipv6"}))
    pa = M.Path("02:4e:49:43:52:0a", "02:4e:49:43:52:0b", LIP6, PIP6, sport=UDP_SPORT0)
    pb = M.Path("02:4e:49:43:52:0b", "02:4e:49:43:52:0a", PIP6, LIP6, sport=UDP_SPORT0)
    small = pattern(100, 40)
    f.test(g6, "IPv6 SEND of 100 bytes a -> b: a's SEND ONLY (to b's QP 2) and b's ACK (to a's "
               "QP 2, PSN 0, MSN 1) whole on the wire, the message placed on b",
           C["pair"] + "; " + C["send"] + "; " + C["icrc"],
           base + [post("SEND", [{"bytes": small.hex()}]),
                   pair_sent(pa, [Out("RC_SEND_ONLY", 0, small, dest_qp=QPN0,
                                      ackreq="open_last")], "a"),
                   pair_sent(pb, [Out("RC_ACK", 0, dest_qp=QPN0, aeth=(M.AETH_ACK, 0, 1))],
                             "b"),
                   mem(DATA + RQ_OFF[0], small, dev="b"),
                   cqes("send", [req_cqe("SEND", 0)], dev="a")],
           result="acceptable", flags=("Acceptable",))
    ge = f.group("RC pair a-b, MTU 256, the packets of both sent ECN-capable (path tclass 2)",
                 setup2(mtu=1, ack_timeout=10, path={"tclass": 2}))
    f.test(ge, "The link marks a's first packet CE: b (notification point) sends a CNP to a's "
               "QP, a receives it; the SEND still completes once", C["cnp_np"] + "; " + C["pair"],
           base + [{"link": {"dir": "ab", "ce": [0]}}, post("SEND", [{"bytes": msg.hex()}]),
                   {"advance_ns": 1000000}] + done_send +
           [events([{"event": EV_CNP, "dir": 0}], dev="b"),
            events([{"event": EV_CNP, "dir": 1}], dev="a"),
            {"link_counters": {"ab": {"ce_marked": 1}}}])
    gu = f.group("UD pair a-b, IPv4", setup2(type="UD"))
    f.test(gu, "UD SEND of 200 bytes a -> b: b's buffer holds the GRH area then the payload; "
               "CQE of 240 bytes on b, REQ CQE on a", C["ud_recv"] + "; " + C["ud_send"],
           [{"qp_recv": {"qp": 0, "entries": [{"offset": hex(RQ_OFF[0]), "byte_count": 512}]},
             "dev": "b"},
            post("SEND", [{"bytes": pattern(200).hex()}]),
            mem(DATA + RQ_OFF[0] + 40, pattern(200), dev="b"),
            cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 240}], dev="b"),
            cqes("send", [req_cqe("SEND", 0)], dev="a")])
    f.test(gu, "UD SEND a -> b lost by the link: completes on a anyway (unreliable), nothing "
               "on b", "IBTA Vol. 1 §9.8 (UD: unacknowledged, unreliable)",
           [{"qp_recv": {"qp": 0, "entries": [{"offset": hex(RQ_OFF[0]), "byte_count": 512}]},
             "dev": "b"}, {"link": {"dir": "ab", "loss": [0]}},
            post("SEND", [{"bytes": pattern(200).hex()}]), {"advance_ns": 1000000},
            cqes("recv", [], dev="b"), cqes("send", [req_cqe("SEND", 0)], dev="a")])
    for g_ in f.groups:
        g_["devices"] = 2
    return f

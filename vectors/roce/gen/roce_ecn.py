"""ecn_cnp.json: the notification point (CE -> CNP).
"""
from roce_common import *  # noqa: F401,F403


# ---- ECN / CNP (notification point) -----------------------------------------------------------
def gen_ecn():
    f = VFile("ecn_cnp", "roce_ecn_cnp", header(
        "RoCEv2 congestion notification: a CE-marked packet arriving at QP 2 makes the device "
        "send a CNP (opcode 0x81) to the source QP, besides handling the packet; the reaction "
        "point of the seed-004 profile is in rc_requester.json."))
    H = ("Handles",)
    msg = pattern(100, 11)
    for v6 in (True, False):
        fam = "IPv6" if v6 else "IPv4"
        g = f.group(f"RC QP 0 in RTS, {fam}, MTU 1024", setup1(
            mtu=3, local={"l3": "ipv6" if v6 else "ipv4"}))
        pce = Peer(v6=v6, ecn=3)
        pect = Peer(v6=v6, ecn=2)
        f.test(g, f"{fam} SEND marked CE (ECN 11): placed and ACKed as usual, and a CNP "
                  "(opcode 0x81) goes to QP 0x100", C["cnp_np"],
               recv() + [rx(pce.send(0, msg)), mem(DATA + RQ_OFF[0], msg),
                         cqes("recv", [{"opcode": 2, "byte_cnt": 100}]),
                         {"events": {"any_of": cnp_orders()}}],
               result="acceptable", flags=H + ("Acceptable",))
        f.test(g, f"{fam} SEND marked ECT(0) (ECN 10, not CE): no CNP, only the ACK",
               C["cnp_np"], recv() + [rx(pect.send(0, msg)),
                                      events([ev_tx("RC_ACK", 0)])] +
               ([sent([ack(0, 1, 0)])] if v6 else []),
               result="acceptable" if v6 else "valid",
               flags=H + (("Acceptable",) if v6 else ()))
        f.test(g, f"{fam} CE-marked SEND with a wrong ICRC: dropped before anything, no CNP",
               C["icrc_bad"] + "; " + C["cnp_np"],
               recv() + [rx(pce.send(0, msg, icrc_ok=False)), no_frames(), cqes("recv", []),
                         events([ev_drop("bad_icrc")])],
               result="invalid", flags=H + ("BadIcrc",))
        f.test(g, f"{fam} CE-marked WRITE with a wrong R_Key: the NAK, and the CNP (the mark is "
                  "the network's, not the request's)", C["cnp_np"] + "; " + C["rkey"],
               [rx(pce.write(0, msg, DATA + WR_OFF, rkey=0x999)),
                events([{"event": EV_CNP, "dir": 0}])], result="invalid", flags=H)
    gs = f.group("seed004 profile: RC QP 0 in RTS, IPv6, MTU 1024",
                 setup1(mtu=3, local={"l3": "ipv6"}), profile={"roce_profile": 1})
    pce = Peer(v6=True, ecn=3)
    f.test(gs, "seed004: two CE-marked SENDs back to back: a CNP for each (the note's RX side "
               "sends the CNP for every ECN packet; no rate limit is given)",
           "seed 004 L137 (for RX side, send the CNP to TX); " + C["cnp_np"],
           recv((RQ_OFF[0], RQ_OFF[1])) + [
               rx(pce.send(0, msg)), rx(pce.send(1, msg)),
               events([ev_tx("CNP", dest_qp=PEER_QPN), ev_tx("CNP", dest_qp=PEER_QPN)]),
               cqes("recv", [{"opcode": 2}, {"opcode": 2}])], flags=H + ("Seed004",))
    gu = f.group("UD QP 0 in RTS, IPv6", setup1(type="UD", local={"l3": "ipv6"}))
    pu = Peer(v6=True, ecn=3)
    f.test(gu, "IPv6 UD SEND marked CE from source QP 0x123: delivered, and a CNP to QP 0x123 "
               "(the DETH's source QP)", C["cnp_np"] + "; " + C["ud_recv"],
           recv() + [rx(pu.pkt("UD_SEND_ONLY", 0, msg, M.deth(QKEY, 0x123), ackreq=0)),
                     cqes("recv", [{"opcode": 2, "byte_cnt": 140}]),
                     events([{"event": EV_CNP, "dir": 0}, ev_tx("CNP", dest_qp=0x123)])],
           flags=H)
    return f

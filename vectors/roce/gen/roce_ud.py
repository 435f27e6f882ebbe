"""ud.json: UD receive and send on one device.
"""
from roce_common import *  # noqa: F401,F403


# ---- UD ----------------------------------------------------------------------------------------
def gen_ud():
    f = VFile("ud", "roce_ud", header(
        "RoCEv2 UD on one device: SEND ONLY with DETH in (the Q_Key check, the 40-byte GRH "
        "area, the source QP in the CQE) and out (the datagram segment, the Q_Key bit-31 "
        "rule)."))
    H = ("Handles",)
    msg = pattern(120, 9)
    for v6 in (False, True):
        fam = "IPv6" if v6 else "IPv4"
        g = f.group(f"UD QP 0 in RTS, {fam}, q_key 0x11111111, sq_psn 0",
                    setup1(type="UD", local={"l3": "ipv6" if v6 else "ipv4"}))
        p = Peer(v6=v6)
        fr = p.pkt("UD_SEND_ONLY", 7, msg, M.deth(QKEY, PEER_QPN), ackreq=0)
        ip = fr[14:14 + (40 if v6 else 20)]
        grh = [mem(DATA + RQ_OFF[0], ip)] if v6 else [mem(DATA + RQ_OFF[0] + 20, ip)]
        f.test(g, f"{fam} UD SEND ONLY (Q_Key right, source QP 0x100): the receive buffer "
                  "holds the 40-byte GRH area (" + ("the IPv6 header" if v6 else
                                                    "the IPv4 header in its last 20 bytes") +
                  ") then the payload; RESP_SEND CQE of 160 bytes; source QP 0x100 in the "
                  "CQE (flags_rqpn[23:0], bytes 25-27); no ACK",
               C["ud_recv"],
               recv() + [rx(fr)] + grh + [
                   mem(DATA + RQ_OFF[0] + 40, msg),
                   cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 160}]),
                   mem(RCQ + 25, bytes.fromhex("000100")), no_frames()], flags=H)
        f.test(g, f"{fam} UD SEND with Q_Key 0x22222222 (the QP's is 0x11111111): dropped "
                  "silently", C["ud_qkey"],
               recv() + [rx(p.pkt("UD_SEND_ONLY", 7, msg, M.deth(0x22222222, PEER_QPN),
                                  ackreq=0)),
                         cqes("recv", []), mem(DATA + RQ_OFF[0] + 40, bytes(120)), no_frames(),
                         events([ev_drop("qkey_mismatch", QPN0, 7)])],
               result="invalid", flags=H)
        f.test(g, f"{fam} UD SEND with a wrong ICRC: dropped silently", C["icrc_bad"],
               recv() + [rx(p.pkt("UD_SEND_ONLY", 7, msg, M.deth(QKEY, PEER_QPN), ackreq=0,
                                  icrc_ok=False)), cqes("recv", []),
                         events([ev_drop("bad_icrc")])],
               result="invalid", flags=H + ("BadIcrc",))
        f.test(g, f"{fam} UD SEND with P_Key 0x1234: dropped silently", C["pkey"],
               recv() + [rx(p.pkt("UD_SEND_ONLY", 7, msg, M.deth(QKEY, PEER_QPN), ackreq=0,
                                  pkey=0x1234)), cqes("recv", []),
                         events([ev_drop("pkey_mismatch", QPN0, 7)])],
               result="invalid", flags=H)
        f.test(g, f"{fam} UD SEND ONLY with immediate: RESP_SEND_IMM CQE with the immediate",
               C["ud_recv"] + "; " + C["send_imm"],
               recv() + [rx(p.pkt("UD_SEND_ONLY_IMM", 7, msg,
                                  M.deth(QKEY, PEER_QPN) + M.immdt(0x0BADF00D), ackreq=0)),
                         mem(DATA + RQ_OFF[0] + 40, msg),
                         mem(RCQ + 36, bytes.fromhex("0badf00d")),
                         cqes("recv", [{"opcode": M.CQE_RESP_SEND_IMM, "byte_cnt": 160}])],
               flags=H)
        f.test(g, f"{fam} UD SEND with no receive WQE: dropped silently (UD has no RNR)",
               "IBTA Vol. 1 §9.8 (UD: no acknowledgement, a message with no receive WQE is "
               "dropped)", [rx(fr), no_frames(), cqes("recv", []),
                            events([ev_drop("ud_no_receive_wqe", QPN0, 7)])],
               result="invalid", flags=H)
        f.test(g, f"{fam} UD SEND of 300 bytes into a 256-byte buffer (300 + 40 > 256): the "
                  "WQE completes with Local Length Error, or the datagram is dropped",
               "IBTA Vol. 1 §9.8, §11.4.1.2 (UD message too long for the receive WQE); mlx5 "
               "MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR",
               recv() + [rx(p.pkt("UD_SEND_ONLY", 7, pattern(300), M.deth(QKEY, PEER_QPN),
                                  ackreq=0)),
                         {"cqes": {"qp": 0, "cq": "recv", "any_of": [
                             {"reading": "completed in error, Local Length Error",
                              "expect": [{"layout": "err_cqe", "opcode": M.CQE_RESP_ERR,
                                          "syndrome": M.SYN["LOCAL_LENGTH"]}], "exact": True},
                             {"reading": "dropped, the WQE kept", "expect": [],
                              "exact": True}]}}, no_frames()],
               result="acceptable", flags=H + ("Acceptable",))
        # UD send
        out_path = dev_path(v6)
        for wr_qkey, sent_qkey, why in ((0x33333333, 0x33333333, "the WR's Q_Key"),
                                        (0x80000005, QKEY, "bit 31 set: the QP's Q_Key")):
            o = Out("UD_SEND_ONLY", 0, msg, dest_qp=0x155, deth=(sent_qkey, QPN0), ackreq=0)
            st = sent([o], v6=v6) if v6 else events([ev_tx("UD_SEND_ONLY", 0, 0x155)])
            f.test(g, f"{fam} UD SEND of 120 bytes to QP 0x155 with Q_Key {wr_qkey:#x}: UD "
                      f"SEND ONLY, DETH Q_Key {sent_qkey:#x} ({why}), source QP 2, PSN 0; the "
                      "REQ CQE at once (UD is unacknowledged)",
                   C["ud_qkey31"] + "; " + C["ud_send"],
                   [post("SEND", [{"bytes": msg.hex()}], av={"qpn": "0x155",
                                                               "q_key": hex(wr_qkey)}),
                    st, cqes("send", [req_cqe("SEND", 0)])],
                   result="acceptable" if v6 else "valid",
                   flags=H + (("Acceptable",) if v6 else ()))
        del out_path
        if v6:
            f.test(g, "IPv6 UD SEND of 5000 bytes (above every path MTU, 4096 the largest): "
                      "nothing sent, the WQE completes with Local Length Error (0x1)",
                   "IBTA Vol. 1 §9.8 (a UD message is one packet, at most the path MTU), "
                   "§10.8.3 (Local Length Error); mlx5 MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR",
                   [post("SEND", [{"bytes": pattern(5000).hex()}], av={"qpn": "0x155"}),
                    no_frames(), cqes("send", [err_cqe(M.SYN["LOCAL_LENGTH"], 0)])],
                   result="invalid", flags=H)
        if v6:
            o1 = Out("UD_SEND_ONLY", 0, msg, dest_qp=0x155, deth=(QKEY, QPN0), ackreq=0)
            o2 = Out("UD_SEND_ONLY", 1, msg[::-1], dest_qp=0x156, deth=(QKEY, QPN0), ackreq=0)
            f.test(g, "IPv6 two UD SENDs: PSNs 0 and 1 (a UD QP numbers its packets too); "
                      "wqe_counter 0 and 2 (a UD WQE of ctrl, the 48-byte address vector and "
                      "a data segment takes two WQEBBs)",
                   C["ud_send"] + "; IBTA Vol. 1 §9.7.1",
                   [post("SEND", [{"bytes": msg.hex()}], av={"qpn": "0x155"}),
                    post("SEND", [{"bytes": msg[::-1].hex()}], av={"qpn": "0x156"}),
                    sent([o1, o2]), cqes("send", [req_cqe("SEND", 0), req_cqe("SEND", 2)])],
                   result="acceptable", flags=H + ("Acceptable",))
    return f

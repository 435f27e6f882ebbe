"""Session 29 (the RoCE review): groups appended to ud.json, rc_responder.json and
rc_requester.json (one device, the vector is the peer).

Written from PRM Rev 0.40, IBTA Vol. 1 and the decisions' text only (never from nicref's code
or output):

- PRM §7.4.4.1 T26, the ctrl segment's CE: "00 - Generate CQE only on WQE completion with
  error. 01 - Generate CQE only on first WQE completion with error (i.e if CQE on previous WQE
  completed in error, no CQE will be generated) 10 - Generate CQE on WQE completion (good or
  bad) 11 - Generate CQE and EQE (local Solicited event)". PRM T68 se (cqe64 3Ch bit 1): "This
  CQE cause EQE generation for solicited event". So CE 11b makes a CQE on success whose se is
  1 (D-ROCE-20, as the Ethernet SQ's D-TX-8); CE 00b and 01b make none on success; under 01b
  the WQE after one that completed in error (the QP in Error flushes it) gets no CQE.
- IBTA Vol. 1 §9.2 (BTH SE: the requester asks for a solicited event at the responder) and
  §11.4.2.2 (a solicited completion): the receive completion of a message whose last packet
  carries SE is solicited: T68 se 1 in the receive CQE (D-ROCE-21).
- IBTA Vol. 1 §9.7.5.1: a NAK acknowledges every request before its PSN. Under seed 004's
  check order (L89-101: the length before the PSN) a malformed request AHEAD of the expected
  PSN is NAKed Invalid Request; the NAK carries the expected PSN, never the request's, which
  would acknowledge PSNs never received (D-ROCE-RC-15).
- IEEE 802.1Q: a tagged frame's TCI is PCP (3 bits) | DEI (1) | VID (12). PRM Rev 0.40 has no
  QP context nor datagram segment (the QP commands are beyond it), so nothing fixes the PCP of
  a RoCE frame whose GID entry has a VLAN: the VID is the entry's (SET_ROCE_ADDRESS vlan_id);
  the PCP is 0 or the address path's eth_prio (the public mlx5 ads field; Linux writes the
  priority there). Both readings are accepted (D-ROCE-22).
"""
from roce_common import *  # noqa: F401,F403

C_CE = ("PRM §7.4.4.1 T26 (ctrl CE: 00 a CQE on error only; 01 on the first error only; 10 "
        "always; 11 a CQE and a local solicited event); T68 se; D-ROCE-20")
C_SE = ("PRM T68 se (\"This CQE cause EQE generation for solicited event\"); IBTA Vol. 1 §9.2 "
        "(BTH SE), §11.4.2.2 (solicited completion); D-ROCE-21")
C_NAK_AHEAD = ("seed 004 L89-101 (Length before PSN); IBTA Vol. 1 §9.7.5.1 (a NAK acknowledges "
               "the requests before its PSN), §9.7.5.2.2; D-ROCE-RC-15")
H = ("Handles",)


def extend_ud(f):
    p = Peer(v6=True)
    g = f.group("D-ROCE-20, D-ROCE-21: UD QP 0 in RTS, IPv6, q_key 0x11111111: the ctrl's CE "
                "and the solicited bit of the CQEs",
                setup1(type="UD", local={"l3": "ipv6"}))
    msg = pattern(120, 29)
    f.test(g, "UD SEND ONLY with BTH SE: RESP_SEND CQE of 160 bytes with se 1",
           C_SE, recv() + [rx(p.pkt("UD_SEND_ONLY", 7, msg, M.deth(QKEY, PEER_QPN), ackreq=0,
                                    se=1)),
                           cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 160,
                                          "se": 1}])], flags=H)
    f.test(g, "UD SEND ONLY without BTH SE: RESP_SEND CQE with se 0",
           C_SE, recv() + [rx(p.pkt("UD_SEND_ONLY", 7, msg, M.deth(QKEY, PEER_QPN), ackreq=0)),
                           cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 160,
                                          "se": 0}])], flags=H)
    for ce, want, what in ((3, [req_cqe("SEND", 0, se=1)], "a REQ CQE with se 1"),
                           (2, [req_cqe("SEND", 0, se=0)], "a REQ CQE with se 0"),
                           (1, [], "no CQE"), (0, [], "no CQE")):
        f.test(g, f"UD SEND of 120 bytes with ctrl CE {ce:02b}b: sent; {what}", C_CE,
               [post("SEND", [{"bytes": msg.hex()}], av={"qpn": "0x155"}, ctrl={"ce": ce}),
                events([ev_tx("UD_SEND_ONLY", 0, 0x155)]), cqes("send", want)], flags=H)
    for ce, want in ((0, [err_cqe(M.SYN["LOCAL_LENGTH"], 0), err_cqe(M.SYN["WR_FLUSH"], 2)]),
                     (1, [err_cqe(M.SYN["LOCAL_LENGTH"], 0)])):
        f.test(g, f"Two UD SENDs with ctrl CE {ce:02b}b, the first of 5000 bytes (above the "
                  "path MTU: Local Length Error, the QP to Error), the second flushed: "
                  + ("both error CQEs (0x1 at 0, 0x5 at 2)" if ce == 0 else
                     "the first error CQE only (CE 01b: none after a WQE that completed in "
                     "error)"),
               C_CE + "; IBTA Vol. 1 §9.8, §10.3.1 (WRs in Error complete with a flush error)",
               [post("SEND", [{"bytes": pattern(5000).hex()}], av={"qpn": "0x155"},
                     ctrl={"ce": ce}),
                post("SEND", [{"bytes": msg.hex()}], av={"qpn": "0x155"}, ctrl={"ce": ce}),
                no_frames(), cqes("send", want), query_state(6)],
               result="invalid", flags=H)


def extend_responder(f):
    p = Peer(v6=True)
    g = f.group("D-ROCE-21: RC QP 0 in RTS, IPv6, MTU 1024: the BTH SE of a message's last "
                "packet makes its receive CQE solicited",
                setup1(mtu=3, local={"l3": "ipv6"}))
    msg = pattern(100, 31)
    f.test(g, "SEND ONLY with SE: RESP_SEND CQE with se 1; then a SEND ONLY without SE: se 0",
           C_SE, recv(offsets=(RQ_OFF[0], RQ_OFF[1])) + [
               rx(p.send(0, msg, se=1)), rx(p.send(1, msg)),
               cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 100, "se": 1},
                             {"opcode": M.CQE_RESP_SEND, "byte_cnt": 100, "se": 0}])],
           flags=H)
    f.test(g, "SEND FIRST (1024, no SE) then SEND LAST (10 bytes, SE): one RESP_SEND CQE of "
              "1034 bytes with se 1", C_SE,
           recv(byte_count=4096) + [rx(p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0)),
                                    rx(p.pkt("RC_SEND_LAST", 1, pattern(10), se=1)),
                                    cqes("recv", [{"opcode": M.CQE_RESP_SEND,
                                                   "byte_cnt": 1034, "se": 1}])], flags=H)
    f.test(g, "RDMA WRITE ONLY with immediate and SE: RESP_WR_IMM CQE with the immediate and "
              "se 1", C_SE + "; " + C["send_imm"],
           recv() + [rx(p.write(0, msg, DATA + WR_OFF, op="RC_WRITE_ONLY_IMM", imm=0x5E5E5E5E,
                                se=1)),
                     mem(DATA + WR_OFF, msg),
                     cqes("recv", [{"opcode": M.CQE_RESP_WR_IMM, "se": 1}]),
                     mem(RCQ + 36, bytes.fromhex("5e5e5e5e"))], flags=H)
    gs = f.group("D-ROCE-RC-15: seed004 profile (roce_profile 1): RC QP 0 in RTS, MTU 1024, "
                 "expected PSN 0; a fatal NAK for a request ahead",
                 setup1(mtu=3, local={"l3": "ipv6"}), profile={"roce_profile": 1})
    for psn in (3, 0x7FFFF):
        f.test(gs, f"seed004: SEND FIRST of 500 bytes (shorter than the MTU) with PSN {psn:#x}, "
                   "ahead of the expected 0: NAK Invalid Request carrying PSN 0 (the expected "
                   f"one), not {psn:#x}, which would acknowledge PSNs never received; the QP "
                   "to Error", C_NAK_AHEAD,
               recv(byte_count=4096) + [rx(p.pkt("RC_SEND_FIRST", psn, pattern(500))),
                                        events([ev_nak(0, M.AETH_NAK | M.NAK_INV_REQ)]),
                                        query_state(6)],
               result="invalid", flags=("Handles", "Seed004"))


def extend_requester(f):
    p = Peer(v6=True)
    g = f.group("D-ROCE-20: RC QP 0 in RTS, IPv6, MTU 256, retry 7/7: the ctrl's CE",
                setup1(mtu=1, local={"l3": "ipv6"}))
    m0, m1 = pattern(64, 81), pattern(64, 82)
    s01 = req_pkts("SEND", m0, 256, 0) + req_pkts("SEND", m1, 256, 1)
    for ce0, ce1, want, what in (
            (3, 2, [req_cqe("SEND", 0, se=1), req_cqe("SEND", 1, se=0)],
             "two REQ CQEs, the first (CE 11b) with se 1, the second (CE 10b) with se 0"),
            (0, 2, [req_cqe("SEND", 1, se=0)], "one REQ CQE, the second's (CE 00b: none on "
             "success)"),
            (1, 3, [req_cqe("SEND", 1, se=1)], "one REQ CQE, the second's with se 1 (CE 01b: "
             "none on success)")):
        f.test(g, f"Two SENDs with ctrl CE {ce0:02b}b and {ce1:02b}b, both acknowledged (ACK "
                  f"PSN 1, MSN 2): {what}", C_CE,
               [post("SEND", [{"bytes": m0.hex()}], ctrl={"ce": ce0}),
                post("SEND", [{"bytes": m1.hex()}], ctrl={"ce": ce1}),
                sent(s01), rx(p.ack(1, 2)), cqes("send", want)],
               result="acceptable", flags=H + ("Acceptable",))
    for ce, want in ((0, [err_cqe(M.SYN["REMOTE_ACCESS"], 0), err_cqe(M.SYN["WR_FLUSH"], 1)]),
                     (1, [err_cqe(M.SYN["REMOTE_ACCESS"], 0)])):
        f.test(g, f"Two SENDs with ctrl CE {ce:02b}b, NAK Remote Access Error for PSN 0: the "
                  "first completes in error (0x13), the second is flushed: " +
                  ("both error CQEs" if ce == 0 else
                   "only the first's CQE (CE 01b: none after a WQE that completed in error)"),
               C_CE + "; " + C["req_nak_fatal"],
               [post("SEND", [{"bytes": m0.hex()}], ctrl={"ce": ce}),
                post("SEND", [{"bytes": m1.hex()}], ctrl={"ce": ce}),
                rx(p.ack(0, 0, syndrome=M.AETH_NAK | M.NAK_REM_ACCESS)),
                cqes("send", want), query_state(6)], result="invalid", flags=H)


C_VLAN = ("IEEE 802.1Q (TCI: PCP 15:13, DEI 12, VID 11:0); mlx5_ifc.h roce_addr_layout "
          "(vlan_valid, vlan_id) and ads (eth_prio), beyond PRM Rev 0.40; D-ROCE-22")


def tagged(step, vid, pcps):
    """The frames step `step` (from sent()) with an 802.1Q tag after the MACs, one reading per
    PCP in pcps."""
    alts = []
    for pcp in pcps:
        for a in step["frames"]["any_of"]:
            exp = []
            for fr in a["expect"]:
                b = bytes.fromhex(fr["hex"])
                tci = pcp << 13 | vid
                b = b[:12] + bytes([0x81, 0x00, tci >> 8, tci & 0xFF]) + b[12:]
                exp.append({"port": fr["port"], "hex": b.hex()})
            alts.append({"reading": f"PCP {pcp}, " + a["reading"], "expect": exp,
                         "exact": a["exact"]})
    return {"frames": {"any_of": alts}}


def extend_requester_vlan(f):
    g = f.group("D-ROCE-22: RC QP 0 in RTS, IPv6, MTU 256, the path's eth_prio 5; its GID "
                "entry (index 0) set again with VLAN 100",
                setup1(mtu=1, local={"l3": "ipv6"}, path={"eth_prio": 5}))
    mac = int(LMAC.replace(":", ""), 16)
    gid = {"command": {"layout": "set_roce_address_in",
                       "fields": {"opcode": "SET_ROCE_ADDRESS", "roce_address_index": 0,
                                  "vhca_port_num": 1,
                                  "source_l3_address": "20010db8" + "00" * 11 + "01",
                                  "roce_l3_type": 1, "roce_version": 2,
                                  "source_mac_47_32": mac >> 32,
                                  "source_mac_31_0": mac & 0xFFFFFFFF,
                                  "vlan_valid": 1, "vlan_id": 100},
                       "expect": {"status": "OK"}}}
    m = pattern(64, 91)
    f.test(g, "SEND of 64 bytes through a GID entry with VLAN 100: the frame carries an "
              "802.1Q tag of VID 100 whose PCP is 0 or the path's eth_prio 5 (PRM Rev 0.40 "
              "is silent; both accepted)", C_VLAN,
           [gid, post("SEND", [{"bytes": m.hex()}]),
            tagged(sent(req_pkts("SEND", m, 256, 0)), 100, (5, 0))],
           result="acceptable", flags=H + ("Acceptable",))


def extend_requester_all(f):
    extend_requester(f)
    extend_requester_vlan(f)


EXTEND = {"ud": extend_ud, "rc_responder": extend_responder, "rc_requester": extend_requester_all}
extend = extender(EXTEND)

"""rc_responder.json: one device as the RC responder (the vector is the requester).
"""
from roce_common import *  # noqa: F401,F403


# ---- responder (one device; the vector is the requester) ------------------------------------
def gen_responder():
    f = VFile("rc_responder", "roce_rc_responder", header(
        "RoCEv2 RC responder on one device: the vector sends request frames (built by Scapy) "
        "to QP 2 and expects placement, receive CQEs and the whole ACK/NAK frames the device "
        "sends (IPv6; every reading of the credit field, ECN bits and UDP checksum)."))
    p = Peer(v6=True)
    H = ("Handles", "Acceptable")
    A = "acceptable"
    msg = pattern(100)
    wd = pattern(64, 2)

    g = f.group("RC QP 0 in RTS, IPv6 2001:db8::1 (peer 2001:db8::2, QP 0x100), MTU 1024, "
                "rq_psn 0, min_rnr_nak 1", setup1(mtu=3, local={"l3": "ipv6"}))
    f.test(g, "SEND ONLY (AckReq) into a posted receive WQE: placed, RESP_SEND CQE, the ACK "
              "frame (PSN 0, MSN 1) to QP 0x100 from the QP's path (hop limit 64, UDP source "
              "0xC000)", C["send"] + "; " + C["msn"] + "; " + C["icrc"],
           recv() + [rx(p.send(0, msg)), mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 100,
                                    "wqe_counter": 0}]),
                     sent([ack(0, 1, 0)])], result=A, flags=H)
    f.test(g, "SEND ONLY with a wrong ICRC: dropped silently (nothing placed, no CQE, no frame)",
           C["icrc_bad"], recv() + [rx(p.send(0, msg, icrc_ok=False)),
                                    mem(DATA + RQ_OFF[0], bytes(100)), cqes("recv", []),
                                    no_frames(), events([ev_drop("bad_icrc")])],
           result="invalid", flags=("Handles", "BadIcrc"))
    f.test(g, "A SEND with a wrong ICRC then the same SEND right: the bad one left no trace "
              "(PSN 0 still expected)", C["icrc_bad"],
           recv() + [rx(p.send(0, msg, icrc_ok=False)), rx(p.send(0, msg)),
                     mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 100}]),
                     sent([ack(0, 1, 0)])], result=A, flags=H + ("BadIcrc",))
    f.test(g, "SEND ONLY with ImmDt 0xDEADBEEF: RESP_SEND_IMM CQE carrying the immediate "
              "(mlx5_cqe64 imm_inval_pkey, CQE bytes 36-39, as received)", C["send_imm"],
           recv() + [rx(p.send(0, msg, op="RC_SEND_ONLY_IMM", imm=0xDEADBEEF)),
                     mem(DATA + RQ_OFF[0], msg), mem(RCQ + 36, bytes.fromhex("deadbeef")),
                     cqes("recv", [{"opcode": M.CQE_RESP_SEND_IMM, "byte_cnt": 100}]),
                     sent([ack(0, 1, 0)])], result=A, flags=H)
    big = pattern(2500, 1)
    frs = [p.send(psn, big[off:off + n], op=op, ackreq=1 if op.endswith("LAST") else 0)
           for op, psn, off, n in M.packetise("SEND", 2500, 1024, 0)]
    f.test(g, "SEND of 2500 bytes as FIRST/MIDDLE/LAST (1024, 1024, 452), AckReq on LAST only, "
              "into a 4096-byte WQE: placed in order, one CQE of 2500 bytes, one ACK (PSN 2, "
              "MSN 1) or also coalescible ACKs before it", C["multi"] + "; " + C["ack_coal"],
           recv(byte_count=4096) + [rx(x) for x in frs] + [
               mem(DATA + RQ_OFF[0], big),
               cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 2500, "wqe_counter": 0}]),
               sent([ack(2, 1, 0)], nothing_else=False)], result=A, flags=H)
    f.test(g, "Two SENDs into two WQEs: CQEs with wqe_counter 0 and 1, ACKs PSN 0 (MSN 1, one "
              "WQE left) and PSN 1 (MSN 2)", C["send"] + "; " + C["msn"],
           recv((RQ_OFF[0], RQ_OFF[1])) + [
               rx(p.send(0, msg)), rx(p.send(1, msg[::-1])),
               mem(DATA + RQ_OFF[0], msg), mem(DATA + RQ_OFF[1], msg[::-1]),
               cqes("recv", [{"opcode": 2, "byte_cnt": 100, "wqe_counter": 0},
                             {"opcode": 2, "byte_cnt": 100, "wqe_counter": 1}]),
               sent([ack(0, 1, 1), ack(1, 2, 0)])], result=A, flags=H)
    f.test(g, "RDMA WRITE ONLY of 64 bytes with the data MKey: placed at the RETH VA, no "
              "receive CQE, ACK PSN 0 MSN 1", C["write"],
           [rx(p.write(0, wd, DATA + WR_OFF)), mem(DATA + WR_OFF, wd), cqes("recv", []),
            sent([ack(0, 1, 0)])], result=A, flags=H)
    wbig = pattern(3000, 3)
    frs = []
    for op, psn, off, n in M.packetise("WRITE", 3000, 1024, 0):
        if op.endswith("FIRST"):
            frs.append(p.write(psn, wbig[off:off + n], DATA + WR_OFF, dma_len=3000, op=op,
                               ackreq=0))
        else:
            frs.append(p.pkt(op, psn, wbig[off:off + n], ackreq=1 if op.endswith("LAST") else 0))
    f.test(g, "RDMA WRITE of 3000 bytes as FIRST (RETH)/MIDDLE/LAST: placed whole, ACK PSN 2",
           C["write"] + "; " + C["multi"],
           [rx(x) for x in frs] + [mem(DATA + WR_OFF, wbig), cqes("recv", []),
                                   sent([ack(2, 1, 0)], nothing_else=False)], result=A,
           flags=H)
    f.test(g, "RDMA WRITE ONLY with immediate: placed, consumes a receive WQE, RESP_WR_IMM CQE "
              "with the WRITE's length and the immediate", C["write_imm"],
           recv() + [rx(p.write(0, wd, DATA + WR_OFF, op="RC_WRITE_ONLY_IMM", imm=0x01020304)),
                     mem(DATA + WR_OFF, wd), mem(RCQ + 36, bytes.fromhex("01020304")),
                     cqes("recv", [{"opcode": M.CQE_RESP_WR_IMM, "byte_cnt": 64}]),
                     sent([ack(0, 1, 0)])], result=A, flags=H)
    f.test(g, "RDMA WRITE ONLY with a wrong R_Key (0x23C): NAK Remote Access Error (AETH "
              "0x62, PSN 0, MSN 0), nothing placed; the responder's QP goes to ERR and drops "
              "what follows", C["rkey"] + "; IBTA Vol. 1 §10.7.3.1 (a class C responder error: "
              "NAK, then the QP to the Error state)",
           [rx(p.write(0, wd, DATA + WR_OFF, rkey=RKEY + 0x100)), mem(DATA + WR_OFF, bytes(64)),
            cqes("recv", []), sent([nak(0, 0, M.NAK_REM_ACCESS)]), query_state(6),
            rx(p.write(0, wd, DATA + WR_OFF)), no_frames(), mem(DATA + WR_OFF, bytes(64))],
           result=A, flags=H)
    f.test(g, "RDMA WRITE ONLY past the MKey's end (VA = end - 32, 64 bytes): NAK Remote "
              "Access Error, nothing placed", C["rkey"],
           [rx(p.write(0, wd, DATA + 0x100000 - 32)), mem(DATA + 0x100000 - 32, bytes(32)),
            sent([nak(0, 0, M.NAK_REM_ACCESS)])], result=A, flags=H)
    f.test(g, "RDMA WRITE ONLY below the MKey's start (VA = start - 16): NAK Remote Access "
              "Error", C["rkey"],
           [rx(p.write(0, wd, DATA - 16)), sent([nak(0, 0, M.NAK_REM_ACCESS)])], result=A,
           flags=H)
    f.test(g, "RDMA WRITE ONLY of 0 bytes (RETH DMA length 0) with an R_Key that names nothing: "
              "no R_Key check for a zero-length transfer, ACKed", "IBTA Vol. 1 §9.7.4.1.5 "
              "(C9-88: a zero-length RDMA request is not checked against the R_Key and VA)",
           [rx(p.write(0, b"", 0, rkey=0xABCDEF)), sent([ack(0, 1, 0)])], result=A, flags=H)
    f.test(g, "RDMA READ request of 100 bytes: one READ RESPONSE ONLY, PSN 0, the data",
           C["read"],
           [{"mem_write": {"addr": hex(DATA + WR_OFF), "hex": msg.hex()}},
            rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 100))),
            events([ev_tx("RC_READ_RESPONSE_ONLY", 0)])], flags=("Handles",))
    rbig = pattern(2100, 4)
    f.test(g, "RDMA READ request of 2100 bytes at PSN 0: responses FIRST/MIDDLE/LAST with PSNs "
              "0, 1, 2; the next request's ePSN is 3", C["read"],
           [{"mem_write": {"addr": hex(DATA + WR_OFF), "hex": rbig.hex()}},
            rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 2100))),
            events([ev_tx(op, psn) for op, psn, _, _ in M.read_responses(2100, 1024, 0)]),
            rx(p.write(3, wd, DATA + WR_OFF)), mem(DATA + WR_OFF, wd),
            sent([ack(3, 2, 0)], nothing_else=False)], result=A, flags=H)
    f.test(g, "A duplicate RDMA READ request (PSN 0 again): executed again, one more READ "
              "RESPONSE ONLY with PSN 0 and the memory as it is now", C["psn_dup"] + "; IBTA "
              "Vol. 1 §9.7.5.1.5 (a duplicate READ is answered again)",
           [{"mem_write": {"addr": hex(DATA + WR_OFF), "hex": msg.hex()}},
            rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 100))),
            events([ev_tx("RC_READ_RESPONSE_ONLY", 0)]),
            rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 100))),
            events([ev_tx("RC_READ_RESPONSE_ONLY", 0)])], flags=("Handles",))
    f.test(g, "RDMA READ request with a wrong R_Key: NAK Remote Access Error, no response",
           C["rkey"],
           [rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY ^ 0x100, 64))),
            sent([nak(0, 0, M.NAK_REM_ACCESS)])], result=A, flags=H)

    # PSN checks
    f.test(g, "Duplicate SEND (PSN 0 again after it completed): ACKed again, not placed a "
              "second time, no second CQE", C["psn_dup"],
           recv((RQ_OFF[0], RQ_OFF[1])) + [
               rx(p.send(0, msg)), rx(p.send(0, msg)),
               mem(DATA + RQ_OFF[1], bytes(100)),
               cqes("recv", [{"opcode": 2, "byte_cnt": 100, "wqe_counter": 0}]),
               sent([ack(0, 1, 1), ack(0, 1, 1)])], result=A, flags=H)
    f.test(g, "Duplicate RDMA WRITE carrying other bytes: ACKed, the memory keeps the first "
              "WRITE's bytes", C["psn_dup"],
           [rx(p.write(0, wd, DATA + WR_OFF)), rx(p.write(0, wd[::-1], DATA + WR_OFF)),
            mem(DATA + WR_OFF, wd), sent([ack(0, 1, 0), ack(0, 1, 0)])], result=A, flags=H)
    f.test(g, "SEND with PSN 1 while 0 is expected: NAK PSN Sequence Error (AETH 0x60) with "
              "the ePSN 0, nothing placed", C["psn_seq"],
           recv() + [rx(p.send(1, msg)), mem(DATA + RQ_OFF[0], bytes(100)), cqes("recv", []),
                     sent([nak(0, 0, M.NAK_PSN_SEQ)])], result=A, flags=H)
    f.test(g, "Two packets ahead of ePSN: one NAK only (NAK-sent latch); then PSN 0 is placed "
              "and ACKed; the next packet ahead (PSN 3 for ePSN 1) is NAKed again",
           C["psn_seq"],
           recv((RQ_OFF[0], RQ_OFF[1])) + [
               rx(p.send(1, msg)), rx(p.send(2, msg)), sent([nak(0, 0, M.NAK_PSN_SEQ)]),
               rx(p.send(0, msg)), sent([ack(0, 1, 1)]),
               rx(p.send(3, msg)), sent([nak(1, 1, M.NAK_PSN_SEQ)]),
               cqes("recv", [{"opcode": 2, "byte_cnt": 100, "wqe_counter": 0}])],
           result=A, flags=H)
    f.test(g, "PSN ePSN + 2^23 - 1 is ahead (NAK sequence); ePSN + 2^23 is a duplicate "
              "(not placed)", C["psn_seq"] + "; " + C["psn_wrap"],
           recv() + [rx(p.send(M.HALF - 1, msg)), sent([nak(0, 0, M.NAK_PSN_SEQ)]),
                     rx(p.send(M.HALF, msg)), mem(DATA + RQ_OFF[0], bytes(100)),
                     cqes("recv", [])], result=A, flags=H)

    # opcode sequence and length
    for comment, pkts, npsn in (
            ("SEND MIDDLE with no message open", [p.pkt("RC_SEND_MIDDLE", 0, pattern(1024))], 0),
            ("SEND FIRST then SEND ONLY (the message not ended)",
             [p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0), p.send(1, msg)], 1),
            ("WRITE MIDDLE after a SEND FIRST",
             [p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0),
              p.pkt("RC_WRITE_MIDDLE", 1, pattern(1024))], 1)):
        f.test(g, comment + f": NAK Invalid Request (AETH 0x61) for PSN {npsn}", C["opseq"],
               recv(byte_count=4096) + [rx(x) for x in pkts] +
               [events([ev_nak(npsn, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid",
               flags=("Handles",))
    f.test(g, "SEND FIRST shorter than the path MTU (1000 of 1024): NAK Invalid Request",
           C["len"], recv(byte_count=4096) + [
               rx(p.pkt("RC_SEND_FIRST", 0, pattern(1000))),
               events([ev_nak(0, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid",
           flags=("Handles",))
    f.test(g, "SEND FIRST (1024) then a SEND MIDDLE of 1000 bytes (not the MTU): NAK Invalid "
              "Request for PSN 1", C["len"], recv(byte_count=4096) + [
               rx(p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0)),
               rx(p.pkt("RC_SEND_MIDDLE", 1, pattern(1000))),
               events([ev_nak(1, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid",
           flags=("Handles",))
    f.test(g, "SEND ONLY longer than the path MTU (1028 of 1024): NAK Invalid Request",
           C["len"], recv(byte_count=4096) + [
               rx(p.send(0, pattern(1028))),
               events([ev_nak(0, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid",
           flags=("Handles",))
    f.test(g, "SEND of 200 bytes into a 128-byte receive WQE: NAK Invalid Request; the WQE "
              "completes in error, Local Length Error (RESP_ERR, syndrome 0x1)", C["len_rq"],
           recv(byte_count=128) + [
               rx(p.send(0, pattern(200))),
               events([ev_nak(0, M.AETH_NAK | M.NAK_INV_REQ)]),
               cqes("recv", [{"layout": "err_cqe", "opcode": M.CQE_RESP_ERR,
                              "syndrome": M.SYN["LOCAL_LENGTH"]}])], result="invalid",
           flags=("Handles",))
    # RNR
    f.test(g, "SEND with no receive WQE: RNR NAK (AETH 0x20 | min_rnr_nak 1 = 0x21, PSN 0); "
              "after a WQE is posted the resent SEND is placed and ACKed", C["rnr"],
           [rx(p.send(0, msg)), sent([nak(0, 0, 1, M.AETH_RNR)]), cqes("recv", [])] +
           recv() + [rx(p.send(0, msg)), mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": 2, "byte_cnt": 100}]), sent([ack(0, 1, 0)])],
           result=A, flags=H)
    # destination, P_Key, TVer, classification
    drops = (("SEND to QP 7 (no such QP)", p.send(0, msg, dest_qp=7), C["destqp"],
              ev_drop("destqp_unknown", qpn=7, psn=0)),
             ("SEND to QP 1 (reserved, never an RC QP: seed 004 L42-44; named as a reserved "
              "QP or as no QP)", p.send(0, msg, dest_qp=1), C["destqp"],
              ev_drop(["management_qp", "destqp_unknown"], qpn=1, psn=0)),
             ("SEND with P_Key 0x1234 (the port's only P_Key is 0xFFFF)",
              p.send(0, msg, pkey=0x1234), C["pkey"], ev_drop("pkey_mismatch", QPN0, 0)),
             ("SEND with P_Key 0x0000 (the invalid key)", p.send(0, msg, pkey=0), C["pkey"],
              ev_drop("pkey_mismatch", QPN0, 0)),
             ("SEND with BTH TVer 1", p.send(0, msg, tver=1), C["tver"],
              ev_drop("tver_nonzero")))
    for comment, fr, cite, why in drops:
        two = isinstance(why["reason"], dict)
        f.test(g, comment + ": dropped silently (no frame, no CQE, nothing placed), the "
                  "roce_drop event naming why", cite,
               recv() + [rx(fr), no_frames(), cqes("recv", []),
                         mem(DATA + RQ_OFF[0], bytes(100)), events([why])],
               result="acceptable" if two else "invalid",
               flags=("Handles", "Acceptable") if two else ("Handles",))
    f.test(g, "SEND with P_Key 0x7FFF (a limited member; the port's 0xFFFF is full): accepted",
           C["pkey"], recv() + [rx(p.send(0, msg, pkey=0x7FFF)), mem(DATA + RQ_OFF[0], msg),
                                cqes("recv", [{"opcode": 2, "byte_cnt": 100}]),
                                sent([ack(0, 1, 0)])], result=A, flags=H)
    q = Peer(v6=True)
    q.path.dip = "2001:db8::9"
    f.test(g, "SEND to an IP address that is no GID of the port: not the transport's "
              "(D-ROCE-1): no CQE on the QP, no ACK", C["class"],
           recv() + [rx(q.send(0, msg)), cqes("recv", []), no_frames()], result="invalid",
           flags=("Handles",))
    f.test(g, "A SEND whose UDP destination port is 4792: not RoCEv2 (Annex A17 §A17.2: port "
              "4791), not the transport's: no CQE on the QP, no ACK", C["class"],
           recv() + [rx(other_port(p.send(0, msg), 4792)), cqes("recv", []), no_frames()],
           result="invalid", flags=("Handles",))
    v1 = bytes.fromhex(LMAC.replace(":", "") + PMAC.replace(":", "")) + b"\x89\x15" + \
        bytes(GRH(ipver=6, tclass=0, flowlabel=0, paylen=12 + 100 + 4, nexthdr=0x1B, hoplmt=64,
                  sgid=int.from_bytes(bytes(16), "big"), dgid=0)) + \
        M.bth_bytes(M.CODE["RC_SEND_ONLY"], QPN0, 0, ackreq=1) + msg + bytes(4)
    f.test(g, "A RoCEv1 frame (EtherType 0x8915, GRH, BTH) to QP 2: not the RoCEv2 transport's "
              "(D-ROCE-1): no CQE, no ACK", C["class"] + "; IBTA Vol. 1 Annex A16 (RoCE v1)",
           recv() + [rx(v1), cqes("recv", []), no_frames()], result="invalid",
           flags=("Handles",))
    w3 = pattern(2500, 8)
    f.test(g, "RDMA WRITE FIRST announcing 3000 bytes, then MIDDLE and a LAST that end the "
              "message at 2500: NAK Invalid Request for the LAST (PSN 2)", C["len"],
           [rx(p.write(0, w3[:1024], DATA + WR_OFF, dma_len=3000, op="RC_WRITE_FIRST",
                       ackreq=0)),
            rx(p.pkt("RC_WRITE_MIDDLE", 1, w3[1024:2048], ackreq=0)),
            rx(p.pkt("RC_WRITE_LAST", 2, w3[2048:])),
            events([ev_nak(2, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid",
           flags=("Handles",))
    f.test(g, "2ERR_QP with two receive WQEs posted: both complete with WR_FLUSH_ERR (RESP_ERR, "
              "0x5); a SEND then arrives: dropped, no ACK", "IBTA Vol. 1 §10.3.1 (Error state: "
              "outstanding WRs flushed, incoming packets dropped); mlx5 "
              "MLX5_CQE_SYNDROME_WR_FLUSH_ERR",
           recv((RQ_OFF[0], RQ_OFF[1])) + [
               {"command": {"layout": "qp_2err_in", "fields": {"opcode": "0x507", "qpn": QPN0},
                            "expect": {"status": "OK"}}},
               cqes("recv", [err_cqe(M.SYN["WR_FLUSH"], 0, M.CQE_RESP_ERR),
                             err_cqe(M.SYN["WR_FLUSH"], 1, M.CQE_RESP_ERR)]),
               rx(p.send(0, msg)), no_frames(), cqes("recv", []),
               events([ev_drop("qp_not_receiving", QPN0, 0)])], result="invalid",
           flags=("Handles",))
    alts = sent([ack(0, 1, 0)])["frames"]["any_of"]
    alts.append({"reading": "ACK coalesced: nothing sent yet", "expect": [], "exact": True})
    f.test(g, "SEND ONLY without AckReq: ACK at once or coalesced (seed 004 L105 'implicit "
              "ACK'); placed and completed either way", C["ack_coal"],
           recv() + [rx(p.send(0, msg, ackreq=0)), mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": 2, "byte_cnt": 100}]),
                     {"frames": {"any_of": alts}}], result=A, flags=H)
    f.test(g, "Two WRITEs, the second of two packets: ACKs with MSN 1 then MSN 2", C["msn"],
           [rx(p.write(0, wd, DATA + WR_OFF)), sent([ack(0, 1, 0)]),
            rx(p.write(1, pattern(1024), DATA + WR_OFF, dma_len=1100, op="RC_WRITE_FIRST",
                       ackreq=0)),
            rx(p.pkt("RC_WRITE_LAST", 2, pattern(76))),
            sent([ack(2, 2, 0)], nothing_else=False)], result=A, flags=H)

    gr = f.group("RC QP 0 left in RTR, IPv6", setup1(mtu=3, to="RTR", local={"l3": "ipv6"}))
    f.test(gr, "A QP in RTR receives: SEND placed, CQE, ACK", "IBTA Vol. 1 §10.3.1 (Ready to "
               "Receive: incoming requests are processed and acknowledged); " + C["send"],
           recv() + [rx(p.send(0, msg)), mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": 2, "byte_cnt": 100}]), sent([ack(0, 1, 0)])],
           result=A, flags=H)
    gi = f.group("RC QP 0 left in INIT, IPv6", setup1(mtu=3, to="INIT", local={"l3": "ipv6"}))
    f.test(gi, "A QP in INIT does not receive: the SEND is dropped silently", "IBTA Vol. 1 "
               "§10.3.1 (Initialized: incoming packets silently dropped)",
           recv() + [rx(p.send(0, msg)), no_frames(), cqes("recv", []),
                     mem(DATA + RQ_OFF[0], bytes(100)),
                     events([ev_drop("qp_not_receiving", QPN0, 0)])], result="invalid",
           flags=("Handles",))

    # IPv4
    g4 = f.group("RC QP 0 in RTS, IPv4 192.0.2.1 (peer 192.0.2.2), MTU 1024", setup1(mtu=3))
    p4 = Peer()
    f.test(g4, "IPv4 SEND ONLY: placed, RESP_SEND CQE, an ACK PSN 0 to QP 0x100", C["send"],
           recv() + [rx(p4.send(0, msg)), mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": 2, "byte_cnt": 100}]),
                     events([ev_tx("RC_ACK", 0)])], flags=("Handles",))
    f.test(g4, "IPv4 SEND ONLY with a wrong ICRC: dropped silently", C["icrc_bad"],
           recv() + [rx(p4.send(0, msg, icrc_ok=False)), no_frames(), cqes("recv", []),
                     mem(DATA + RQ_OFF[0], bytes(100)), events([ev_drop("bad_icrc")])],
           result="invalid",
           flags=("Handles", "BadIcrc"))
    f.test(g4, "IPv4 SEND with ECT(0), a TTL of 3 and DSCP 46 (masked fields): the ICRC holds, "
               "accepted", C["icrc"],
           recv() + [rx(M.frame(M.Path(PMAC, LMAC, PIP4, LIP4, dscp=46, ecn=2, ttl=3,
                                       sport=0xD000), "RC_SEND_ONLY", QPN0, 0, msg, ackreq=1)),
                     mem(DATA + RQ_OFF[0], msg), cqes("recv", [{"opcode": 2}]),
                     events([ev_tx("RC_ACK", 0)])], flags=("Handles",))

    # PSN wrap on the responder
    gw = f.group("RC QP 0, IPv6, rq_psn 0xFFFFFF", setup1(mtu=3, rq_psn="0xffffff",
                                                          local={"l3": "ipv6"}))
    f.test(gw, "SENDs at PSN 0xFFFFFF then 0: both accepted (24-bit wrap)", C["psn_wrap"],
           recv((RQ_OFF[0], RQ_OFF[1])) + [rx(p.send(0xFFFFFF, msg)), rx(p.send(0, msg[::-1])),
                                           mem(DATA + RQ_OFF[1], msg[::-1]),
                                           cqes("recv", [{"opcode": 2}, {"opcode": 2}]),
                                           sent([ack(0xFFFFFF, 1, 1), ack(0, 2, 0)])],
           result=A, flags=H)
    f.test(gw, "PSN 0xFFFFFE while 0xFFFFFF is expected: a duplicate (not placed)",
           C["psn_wrap"] + "; " + C["psn_dup"],
           recv() + [rx(p.send(0xFFFFFE, msg)), mem(DATA + RQ_OFF[0], bytes(100)),
                     cqes("recv", [])], result="invalid", flags=("Handles",))

    # access rights
    ga = f.group("RC QP 0 with rwe 0 and rre 0", setup1(mtu=3, rwe=0, rre=0,
                                                      local={"l3": "ipv6"}))
    f.test(ga, "RDMA WRITE to a QP without remote write enabled: NAK (Remote Access Error or "
               "Invalid Request), nothing placed", C["rwe"] + "; " + C["rkey"],
           [rx(p.write(0, wd, DATA + WR_OFF)), mem(DATA + WR_OFF, bytes(64)),
            events([{"event": EV_NAK, "psn": 0, "syndrome": {"in": [0x61, 0x62]}}])],
           result=A, flags=H)
    f.test(ga, "RDMA READ to a QP without remote read enabled: NAK, no response",
           C["rwe"] + "; " + C["rkey"],
           [rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 64))),
            events([{"event": EV_NAK, "psn": 0, "syndrome": {"in": [0x61, 0x62]}}])],
           result=A, flags=H)
    gm = f.group("RC QP 0, the data MKey without remote write (mkey rw 0)",
                 setup1(mtu=3, local={"l3": "ipv6"},
                        mkey={"lw": 1, "rr": 1, "rw": 0}))
    f.test(gm, "RDMA WRITE through an MKey without remote write: NAK Remote Access Error",
           C["rkey"], [rx(p.write(0, wd, DATA + WR_OFF)), mem(DATA + WR_OFF, bytes(64)),
                       sent([nak(0, 0, M.NAK_REM_ACCESS)])], result=A, flags=H)

    # seed 004 profile against the ConnectX-like one
    gs = f.group("seed004 profile (roce_profile 1): RC QP 0 in RTS, MTU 1024",
                 setup1(mtu=3, local={"l3": "ipv6"}), profile={"roce_profile": 1})
    S = ("Handles", "Seed004")
    f.test(gs, "seed004: an RDMA READ request is not in the operation set: NAK Invalid "
               "Request (Fatal.invalid req)", C["s004_ops"],
           [rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 64))),
            events([ev_nak(0, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid", flags=S)
    f.test(gs, "seed004: a READ request with a PSN ahead: the OPCODE check comes first "
               "(RC_CHK order), NAK Invalid Request", C["s004_order"],
           [rx(p.pkt("RC_READ_REQUEST", 5, b"", M.reth(DATA + WR_OFF, RKEY, 64))),
            events([{"event": EV_NAK, "syndrome": M.AETH_NAK | M.NAK_INV_REQ}])],
           result="invalid", flags=S)
    f.test(gs, "seed004: SEND FIRST shorter than the MTU with a PSN ahead: Length before PSN, "
               "NAK Invalid Request", C["s004_order"],
           recv(byte_count=4096) + [rx(p.pkt("RC_SEND_FIRST", 3, pattern(500))),
                                    events([{"event": EV_NAK, "syndrome": 0x61}])],
           result="invalid", flags=S)
    f.test(gs, "seed004: SEND with no receive WQE and a PSN ahead: RQ check before PSN, RNR "
               "NAK", C["s004_order"] + "; " + C["rnr"],
           [rx(p.send(4, msg)), events([{"event": EV_NAK, "syndrome": M.AETH_RNR | 1}])],
           result="invalid", flags=S)
    f.test(gs, "seed004: SEND FIRST (1024) then a SEND LAST of 0 bytes: the note's length rule "
               "(Last: <= MTU) admits it; one message of 1024 bytes, ACK of PSN 1",
           "seed 004 L94 (Length: First/Middle == MTU; Last/Only <= MTU)",
           recv(byte_count=4096) + [rx(p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0)),
                                    rx(p.pkt("RC_SEND_LAST", 1, b"")),
                                    mem(DATA + RQ_OFF[0], pattern(1024)),
                                    cqes("recv", [{"opcode": 2, "byte_cnt": 1024}]),
                                    sent([ack(1, 1, 0)])], result=A, flags=S + ("Acceptable",))
    f.test(gs, "seed004: SEND with P_Key 0x7FFF (bits 14:0 equal, bit 14 set): accepted",
           "seed 004 L95", recv() + [rx(p.send(0, msg, pkey=0x7FFF)),
                                     cqes("recv", [{"opcode": 2, "byte_cnt": 100}])], flags=S)
    f.test(gs, "seed004: SEND ONLY with AckReq: the ACK at once (PSN 0, MSN 1)",
           "seed 004 L105", recv() + [rx(p.send(0, msg)), sent([ack(0, 1, 0)])], result=A,
           flags=S + ("Acceptable",))
    f.test(gs, "seed004: SEND FIRST (no AckReq) then LAST (AckReq): one ACK only, for the LAST "
               "(the FIRST is acknowledged implicitly)", "seed 004 L105 (ack_req=1: ACK at "
               "once; otherwise implicit ACK)",
           recv(byte_count=4096) + [rx(p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0)),
                                    rx(p.pkt("RC_SEND_LAST", 1, pattern(10))),
                                    sent([ack(1, 1, 0)])], result=A, flags=S + ("Acceptable",))
    gc = f.group("connectx profile (roce_profile 0): the same two-fault packets",
                 setup1(mtu=3, local={"l3": "ipv6"}))
    f.test(gc, "connectx: a READ request with a PSN ahead: the PSN is validated first (NAK PSN "
               "Sequence Error with ePSN 0)", C["ibta_order"] + "; " + C["psn_seq"],
           [rx(p.pkt("RC_READ_REQUEST", 5, b"", M.reth(DATA + WR_OFF, RKEY, 64))),
            events([ev_nak(0, M.AETH_NAK | M.NAK_PSN_SEQ)])], result="invalid",
           flags=("Handles",))
    f.test(gc, "connectx: SEND FIRST shorter than the MTU with a PSN ahead: NAK PSN Sequence "
               "Error", C["ibta_order"],
           recv(byte_count=4096) + [rx(p.pkt("RC_SEND_FIRST", 3, pattern(500))),
                                    events([ev_nak(0, M.AETH_NAK | M.NAK_PSN_SEQ)])],
           result="invalid", flags=("Handles",))
    f.test(gc, "connectx: SEND with no receive WQE and a PSN ahead: PSN first, NAK PSN "
               "Sequence Error (not RNR)", C["ibta_order"],
           [rx(p.send(4, msg)), events([ev_nak(0, M.AETH_NAK | M.NAK_PSN_SEQ)])],
           result="invalid", flags=("Handles",))
    return f

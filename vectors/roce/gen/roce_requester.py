"""rc_requester.json: one device as the RC requester (the vector is the responder).
"""
from roce_common import *  # noqa: F401,F403


def gen_requester():
    f = VFile("rc_requester", "roce_rc_requester", header(
        "RoCEv2 RC requester on one device: the vector posts send WQEs on QP 2 and expects the "
        "whole request frames (IPv6; each reading of AckReq on non-last packets, ECN and the "
        "UDP checksum), then sends the ACK/NAK/READ responses a responder would and expects "
        "the requester's CQEs, retransmissions and state."))
    p = Peer(v6=True)
    H = ("Handles", "Acceptable")
    A = "acceptable"
    msg = pattern(100, 5)
    m600 = pattern(600, 6)

    g = f.group("RC QP 0 in RTS, IPv6, MTU 256 (mtu 1), sq_psn 0, retry 7/7, ack_timeout 14",
                setup1(mtu=1, local={"l3": "ipv6"}))
    f.test(g, "SEND of 100 bytes: one SEND ONLY (PSN 0, AckReq) to QP 0x100; no CQE before the "
              "ACK; the ACK completes it (REQ CQE, SEND, wqe_counter 0)",
           C["req_pkt"] + "; " + C["req_ack"],
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            cqes("send", []), rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND", 0)])],
           result=A, flags=H)
    f.test(g, "SEND with immediate 0xCAFEF00D: SEND ONLY with ImmDt", C["req_pkt"] + "; " +
           C["send_imm"],
           [post("SEND_IMM", [{"bytes": msg.hex()}], imm="0xcafef00d"),
            sent(req_pkts("SEND_IMM", msg, 256, 0, imm=0xCAFEF00D)),
            rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND_IMM", 0)])], result=A, flags=H)
    f.test(g, "SEND of 600 bytes: FIRST/MIDDLE/LAST of 256, 256, 88 bytes, PSNs 0-2",
           C["req_pkt"],
           [post("SEND", [{"bytes": m600.hex()}]), sent(req_pkts("SEND", m600, 256, 0)),
            rx(p.ack(2, 1)), cqes("send", [req_cqe("SEND", 0)])], result=A, flags=H)
    f.test(g, "SEND of 256 bytes (exactly the MTU): one SEND ONLY", C["req_pkt"],
           [post("SEND", [{"bytes": pattern(256).hex()}]),
            sent(req_pkts("SEND", pattern(256), 256, 0))], result=A, flags=H)
    f.test(g, "SEND of 0 bytes: one SEND ONLY with no payload", C["req_pkt"],
           [post("SEND", []), sent(req_pkts("SEND", b"", 256, 0)), rx(p.ack(0, 1)),
            cqes("send", [req_cqe("SEND", 0)])], result=A, flags=H)
    f.test(g, "SEND gathered from two data segments (60 + 40 bytes): one SEND ONLY of 100 "
              "bytes in segment order", C["req_pkt"],
           [post("SEND", [{"bytes": msg[:60].hex()}, {"bytes": msg[60:].hex()}]),
            sent(req_pkts("SEND", msg, 256, 0))], result=A, flags=H)
    f.test(g, "SEND of 100 bytes of inline data (an inline segment): one SEND ONLY carrying "
              "them", C["req_pkt"],
           [post("SEND", [{"inline": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0))],
           result=A, flags=H)
    f.test(g, "RDMA WRITE of 600 bytes to VA 0x90000000, R_Key 0x77: WRITE FIRST (RETH: VA, "
              "R_Key, DMA length 600)/MIDDLE/LAST; the ACK completes it", C["req_pkt"] + "; " +
           C["req_ack"],
           [post("RDMA_WRITE", [{"bytes": m600.hex()}], raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(req_pkts("WRITE", m600, 256, 0)), rx(p.ack(2, 1)),
            cqes("send", [req_cqe("RDMA_WRITE", 0)])], result=A, flags=H)
    f.test(g, "RDMA WRITE with immediate, 600 bytes: FIRST/MIDDLE/LAST_IMM (ImmDt on the last)",
           C["req_pkt"] + "; " + C["write_imm"],
           [post("RDMA_WRITE_IMM", [{"bytes": m600.hex()}], imm="0x11223344",
                 raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(req_pkts("WRITE_IMM", m600, 256, 0, imm=0x11223344)), rx(p.ack(2, 1)),
            cqes("send", [req_cqe("RDMA_WRITE_IMM", 0)])], result=A, flags=H)
    f.test(g, "RDMA WRITE ONLY of 100 bytes: RETH and payload in one packet", C["req_pkt"],
           [post("RDMA_WRITE", [{"bytes": msg.hex()}], raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(req_pkts("WRITE", msg, 256, 0))], result=A, flags=H)
    rd = Out("RC_READ_REQUEST", 0, b"", reth=(RVA, RRKEY, 600), ackreq="open")
    f.test(g, "RDMA READ of 600 bytes: a READ REQUEST (RETH VA, R_Key, 600) with PSN 0; the "
              "responses (PSN 0-2) are placed through the WQE's scatter entry; REQ CQE "
              "(RDMA_READ); the next request takes PSN 3", C["req_read"],
           [post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 600}],
                 raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent([rd])] +
           [rx(p.read_resp(op, psn, m600[off:off + n]))
            for op, psn, off, n in M.read_responses(600, 256, 0)] +
           [mem(DATA + 0x3000, m600), cqes("send", [req_cqe("RDMA_READ", 0)]),
            post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 3))],
           result=A, flags=H)
    f.test(g, "Two SENDs, one ACK for PSN 1 (coalesced): both complete, in order",
           C["req_ack"],
           [post("SEND", [{"bytes": msg.hex()}]), post("SEND", [{"bytes": msg[::-1].hex()}]),
            sent(req_pkts("SEND", msg, 256, 0) + req_pkts("SEND", msg[::-1], 256, 1)),
            rx(p.ack(1, 2)), cqes("send", [req_cqe("SEND", 0), req_cqe("SEND", 1)])],
           result=A, flags=H)
    f.test(g, "Two SENDs, an ACK for PSN 0 only: the first completes, the second waits",
           C["req_ack"],
           [post("SEND", [{"bytes": msg.hex()}]), post("SEND", [{"bytes": msg.hex()}]),
            rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND", 0)]),
            rx(p.ack(1, 2)), cqes("send", [req_cqe("SEND", 1)])], flags=("Handles",))
    f.test(g, "An ACK for a PSN before any outstanding request (ghost): ignored, no CQE; the "
              "right ACK then completes the SEND", C["req_ghost"],
           [post("SEND", [{"bytes": msg.hex()}]), rx(p.ack(0xFFFFFF, 0)), cqes("send", []),
            rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND", 0)])], flags=("Handles",))
    rq2 = Out("RC_READ_REQUEST", 1, b"", reth=(RVA + 256, RRKEY, 344), ackreq="open")
    f.test(g, "RDMA READ of 600 bytes whose MIDDLE response is lost: the LAST (PSN 2) shows the "
              "gap, the READ is asked again from PSN 1 (RETH VA + 256, 344 bytes), roce_retx "
              "reason 3 (implied NAK: no NAK was received); the resent responses complete it "
              "once", "IBTA Vol. 1 §9.7.5.1.5, §9.7.6.1.3 (a READ response beyond the expected "
              "PSN is an implied NAK: the requester reissues the READ for the rest, PSN of the "
              "first missing response, VA and length advanced), §9.7.4.1.4; the roce_retx "
              "event's reason 3, implied NAK (nicref/trace.h; D-ROCE-RC-26)",
           [post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 600}],
                 raddr={"addr": hex(RVA), "rkey": RRKEY}), sent([rd]),
            rx(p.read_resp("RC_READ_RESPONSE_FIRST", 0, m600[:256])),
            rx(p.read_resp("RC_READ_RESPONSE_LAST", 2, m600[512:])), sent([rq2]),
            events([{"event": EV_RETX, "from_psn": 1, "reason": 3}]), cqes("send", []),
            rx(p.read_resp("RC_READ_RESPONSE_FIRST", 1, m600[256:512])),
            rx(p.read_resp("RC_READ_RESPONSE_LAST", 2, m600[512:])),
            mem(DATA + 0x3000, m600), cqes("send", [req_cqe("RDMA_READ", 0)])],
           result=A, flags=H)
    f.test(g, "A WQE with an opcode an RC QP does not run (0x0E, LSO): completes in error, "
              "Local QP Operation Error (0x2), nothing sent, the QP to ERR", "IBTA Vol. 1 "
              "§10.8.3 (Local QP Operation Error); mlx5 MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR 0x2",
           [post(0x0E, [{"bytes": msg.hex()}]), no_frames(),
            cqes("send", [err_cqe(M.SYN["LOCAL_QP_OP"], 0)]), query_state(6)],
           result="invalid", flags=("Handles",))
    # NAK sequence: Go-Back-N
    w = req_pkts("WRITE", m600, 256, 0)
    resumed = [Out("RC_WRITE_FIRST", 1, m600[256:512], reth=(RVA + 256, RRKEY, 344),
                   ackreq="open"), w[2]]
    alts = sent(w[1:])["frames"]["any_of"]
    for a in alts:
        a["reading"] = "original opcodes, " + a["reading"]
    for a in sent(resumed)["frames"]["any_of"]:
        a["reading"] = "new FIRST with RETH, " + a["reading"]
        alts.append(a)
    f.test(g, "WRITE of 3 packets, NAK PSN Sequence Error with PSN 1: Go-Back-N from PSN 1 "
              "(PSNs 1, 2 again); the ACK of PSN 2 completes the WRITE once",
           C["req_nak_seq"],
           [post("RDMA_WRITE", [{"bytes": m600.hex()}], raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(w), rx(p.ack(1, 0, syndrome=M.AETH_NAK | M.NAK_PSN_SEQ)),
            {"frames": {"any_of": alts}},
            events([{"event": EV_RETX, "from_psn": 1, "reason": 1}]),
            cqes("send", []), rx(p.ack(2, 1)), cqes("send", [req_cqe("RDMA_WRITE", 0)])],
           result=A, flags=H)
    alts = sent(w[1:], nothing_else=False)["frames"]["any_of"]
    for a in alts:
        a["reading"] = "original opcodes, " + a["reading"]
    for a in sent(resumed, nothing_else=False)["frames"]["any_of"]:
        a["reading"] = "new FIRST with RETH, " + a["reading"]
        alts.append(a)
    f.test(g, "WRITE of 3 packets, an ACK of PSN 0 only, then silence: after the local ACK "
              "timeout the requester resends from PSN 1 (not from the message's start)",
           C["req_to"],
           [post("RDMA_WRITE", [{"bytes": m600.hex()}], raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(w), rx(p.ack(0, 0)), cqes("send", []), {"advance_ns": 268500000},
            {"frames": {"any_of": alts}},
            events([{"event": EV_RETX, "from_psn": 1, "reason": 0}]),
            rx(p.ack(2, 1)), cqes("send", [req_cqe("RDMA_WRITE", 0)])], result=A, flags=H)
    f.test(g, "Two SENDs, NAK PSN Sequence Error with PSN 0: both resent (PSN 0, 1) in order",
           C["req_nak_seq"],
           [post("SEND", [{"bytes": msg.hex()}]), post("SEND", [{"bytes": msg[::-1].hex()}]),
            sent(req_pkts("SEND", msg, 256, 0) + req_pkts("SEND", msg[::-1], 256, 1)),
            rx(p.ack(0, 0, syndrome=M.AETH_NAK | M.NAK_PSN_SEQ)),
            sent(req_pkts("SEND", msg, 256, 0) + req_pkts("SEND", msg[::-1], 256, 1))],
           result=A, flags=H)
    # fatal NAKs
    for code, syn, name in ((M.NAK_INV_REQ, "REMOTE_INVAL_REQ", "Invalid Request"),
                            (M.NAK_REM_ACCESS, "REMOTE_ACCESS", "Remote Access Error"),
                            (M.NAK_REM_OP, "REMOTE_OP", "Remote Operational Error")):
        f.test(g, f"Two SENDs, NAK {name} (AETH {0x60 | code:#x}) for PSN 0: the first "
                  f"completes in error (REQ_ERR, syndrome {M.SYN[syn]:#x}), the second is "
                  "flushed (0x5), the QP goes to ERR", C["req_nak_fatal"],
               [post("SEND", [{"bytes": msg.hex()}]), post("SEND", [{"bytes": msg.hex()}]),
                rx(p.ack(0, 0, syndrome=M.AETH_NAK | code)),
                cqes("send", [err_cqe(M.SYN[syn], 0), err_cqe(M.SYN["WR_FLUSH"], 1)]),
                query_state(6)], result="invalid", flags=("Handles",))
    f.test(g, "A SEND posted after 2ERR_QP: completes at once with WR_FLUSH_ERR (0x5), nothing "
              "sent", "IBTA Vol. 1 §10.3.1, §11.4.1.1 (WRs posted in Error are flushed); mlx5 "
              "MLX5_CQE_SYNDROME_WR_FLUSH_ERR",
           [{"command": {"layout": "qp_2err_in", "fields": {"opcode": "0x507", "qpn": QPN0},
                         "expect": {"status": "OK"}}},
            post("SEND", [{"bytes": msg.hex()}]), no_frames(),
            cqes("send", [err_cqe(M.SYN["WR_FLUSH"], 0)])], result="invalid",
           flags=("Handles",))
    # RNR
    f.test(g, "SEND, RNR NAK with timer 14 (1.28 ms, Table 45): not resent at 1.2 ms, resent "
              "(PSN 0) by 2.5 ms; then ACKed and completed", C["req_rnr"],
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            rx(p.ack(0, 0, syndrome=M.AETH_RNR | 14)), {"advance_ns": 1200000}, no_frames(),
            {"advance_ns": 1300000}, sent(req_pkts("SEND", msg, 256, 0)),
            events([{"event": EV_RETX, "from_psn": 0, "reason": 2}]),
            rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND", 0)])], result=A, flags=H)
    # timeout
    f.test(g, "SEND, no ACK: ack_timeout 14 (4.096 us x 2^14 = 67.1 ms): nothing resent at "
              "67 ms; resent (PSN 0) by 4 x 67.1 ms", C["req_to"],
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            {"advance_ns": 67000000}, no_frames(), {"advance_ns": 201500000},
            sent(req_pkts("SEND", msg, 256, 0), nothing_else=False),
            events([{"event": EV_RETX, "from_psn": 0, "reason": 0}])], result=A, flags=H)

    f.test(g, "SEND whose ACK never comes: resent after the local ACK timeout (at most 4 times "
              "in 268.5 ms, retry_count 7), then ACKed: one CQE, no error, the QP still in RTS",
           C["req_to"],
           [post("SEND", [{"bytes": msg.hex()}]), {"advance_ns": 268500000},
            rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND", 0)]), query_state(3)],
           flags=("Handles",))

    gr = f.group("RC QP 0, IPv6, MTU 256, retry_count 0, rnr_retry 0, ack_timeout 10 "
                 "(4.19 ms)", setup1(mtu=1, local={"l3": "ipv6"}, retry_count=0, rnr_retry=0,
                                     ack_timeout=10))
    f.test(gr, "rnr_retry 0: the first RNR NAK fails the SEND (REQ_ERR, RNR retry exceeded "
               "0x16), the QP goes to ERR", C["req_rnr"],
           [post("SEND", [{"bytes": msg.hex()}]), rx(p.ack(0, 0, syndrome=M.AETH_RNR | 1)),
            {"advance_ns": 100000},
            cqes("send", [err_cqe(M.SYN["RNR_RETRY_EXC"], 0)]), query_state(6)],
           result="invalid", flags=("Handles",))
    f.test(gr, "retry_count 0: the first local ACK timeout fails the SEND (REQ_ERR, transport "
               "retry exceeded 0x15) with no resend; the QP goes to ERR", C["req_to_exc"],
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            {"advance_ns": 4000000}, cqes("send", []), {"advance_ns": 13000000}, no_frames(),
            cqes("send", [err_cqe(M.SYN["TRANSPORT_RETRY_EXC"], 0)]), query_state(6)],
           result=A, flags=H)
    f.test(gr, "retry_count 0: a NAK PSN Sequence Error needs a retry there is none of: the "
               "SEND completes with transport retry exceeded (0x15), nothing resent, QP to ERR",
           C["req_to_exc"] + "; " + C["req_nak_seq"] + " (a NAK-sequence retry counts against "
           "retry_cnt)",
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            rx(p.ack(0, 0, syndrome=M.AETH_NAK | M.NAK_PSN_SEQ)), no_frames(),
            cqes("send", [err_cqe(M.SYN["TRANSPORT_RETRY_EXC"], 0)]), query_state(6)],
           result=A, flags=H)
    g1 = f.group("RC QP 0, IPv6, MTU 256, rnr_retry 1", setup1(mtu=1, local={"l3": "ipv6"},
                                                             rnr_retry=1))
    f.test(g1, "rnr_retry 1: the first RNR NAK (timer 1, 10 us) is retried once after 10 us; "
               "the second fails the SEND (0x16) and the QP goes to ERR", C["req_rnr"],
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            rx(p.ack(0, 0, syndrome=M.AETH_RNR | 1)), {"advance_ns": 9000}, no_frames(),
            {"advance_ns": 11000}, sent(req_pkts("SEND", msg, 256, 0)),
            rx(p.ack(0, 0, syndrome=M.AETH_RNR | 1)), {"advance_ns": 100000}, no_frames(),
            cqes("send", [err_cqe(M.SYN["RNR_RETRY_EXC"], 0)]), query_state(6)],
           result=A, flags=H)
    gt = f.group("RC QP 0, IPv6, MTU 256, retry_count 2, ack_timeout 10 (4.19 ms)",
                 setup1(mtu=1, local={"l3": "ipv6"}, retry_count=2, ack_timeout=10))
    f.test(gt, "retry_count 2, never an ACK: the SEND goes out 3 times (1 + 2 retries), then "
               "REQ_ERR 0x15 and ERR", C["req_to_exc"] + "; " + C["req_to"],
           [post("SEND", [{"bytes": msg.hex()}])] + [{"advance_ns": 1000000}] * 60 +
           [sent(req_pkts("SEND", msg, 256, 0) * 3),
            cqes("send", [err_cqe(M.SYN["TRANSPORT_RETRY_EXC"], 0)]), query_state(6)],
           result=A, flags=H)
    adp = {"command": {"layout": "access_reg_roce_accl_in", "fields": {
        "opcode": "ACCESS_REG", "op_mod": 0, "register_id": "0x4050",
        "adp_retx_profile_select": 1, "adp_retx_profile_id": 1,
        "roce_adp_retrans_field_select": 1, "roce_adp_retrans_en": 1,
        "qp_total_timeout": 0, "range_num": 1, "start_range_index": 0, "time_unit": 1,
        "time_base": 4, "retx_total_timeout": 16, "timeout_init_low_bound": 3,
        "timeout_init_range_size": 1, "timeout_range_0_prev_range_index": 0,
        "timeout_range_0_dec_mode": 1, "timeout_range_0_timeout_retry_num": 2,
        "timeout_range_0_range_low_bound": 3, "timeout_range_0_range_size": 2},
        "output_length": "0x50", "expect": {"status": "OK"}}}
    st = setup1(mtu=1, local={"l3": "ipv6"})
    ga = f.group("ADP on (ROCE_ACCL: enabled, profile 1: time_base 4 us, initial exponent 3 "
                 "only, one range 3..4), then RC QP 0 in RTS, IPv6, MTU 256, ack_timeout 14",
                 st[:1] + [adp] + st[1:])
    f.test(ga, "ADP: a SEND never ACKed is resent after the profile's first timer, time_base x "
               "2^3 = 32 us (not the classic 67.1 ms): nothing at 31 us, the resend by 33 us",
           "seed 001 L7-11 (initial timeout = rand(low, low + size - 1); HW timer = time_base "
           "x 2^granularity), L25 (the initial value is retried once), L43 (capped by "
           "QP.ack_timeout), L62-72 (a profile selected: profile-based timeouts); seed 000 "
           "(ROCE_ACCL)",
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            {"advance_ns": 31000}, no_frames(), {"advance_ns": 2000},
            sent(req_pkts("SEND", msg, 256, 0)),
            events([{"event": EV_RETX, "from_psn": 0, "reason": 0}])], result=A, flags=H)

    gw = f.group("RC QP 0, IPv6, MTU 256, sq_psn 0xFFFFFF", setup1(
        mtu=1, local={"l3": "ipv6"}, sq_psn="0xffffff"))
    f.test(gw, "WRITE of 600 bytes from PSN 0xFFFFFF: PSNs 0xFFFFFF, 0, 1 (wrap)",
           C["req_pkt"] + "; " + C["psn_wrap"],
           [post("RDMA_WRITE", [{"bytes": m600.hex()}], raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(req_pkts("WRITE", m600, 256, 0xFFFFFF)), rx(p.ack(1, 1)),
            cqes("send", [req_cqe("RDMA_WRITE", 0)])], result=A, flags=H)

    # the outstanding window
    many = [post("SEND", [{"bytes": pattern(16, i).hex()}]) for i in range(30)]
    outs = [req_pkts("SEND", pattern(16, i), 256, i)[0] for i in range(30)]
    gs = f.group("seed004 profile: RC QP 0, IPv6, MTU 256, log_sq_size 6",
                 setup1(mtu=1, local={"l3": "ipv6"}), profile={"roce_profile": 1})
    S = ("Handles", "Acceptable", "Seed004")
    f.test(gs, "seed004: 30 SENDs posted: 16 go out (OSQ_PER_QP); an ACK of PSN 3 frees 4 "
               "slots: 4 more", C["s004_window"],
           many + [sent(outs[:16]), rx(p.ack(3, 4)), sent(outs[16:20]),
                   cqes("send", [req_cqe("SEND", i) for i in range(4)])], result=A, flags=S)
    f.test(gs, "seed004: an RDMA READ WQE is not in the operation set: the QP faults (an error "
               "CQE, the QP to ERR), nothing is sent", "seed 004 L68 (a WQE other than UD "
               "SEND / RC SEND / WRITE: a fault on that QP only and an interrupt), L33-37",
           [post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 64}],
                 raddr={"addr": hex(RVA), "rkey": RRKEY}), no_frames(),
            cqes("send", [{"layout": "err_cqe", "opcode": M.CQE_REQ_ERR,
                           "syndrome": {"ne": 0}, "wqe_counter": 0}]), query_state(6)],
           result=A, flags=S)
    cnp_in = p.pkt("CNP", 0, b"", b"\x00" * 16, ackreq=0, becn=1)
    f.test(gs, "seed004: 30 SENDs, 16 out; a CNP arrives: the window is 8; an ACK of PSN 11 "
               "(4 outstanding) lets only 4 more go (PSN 16-19)", C["s004_cnp"],
           many + [sent(outs[:16]), rx(cnp_in),
                   events([{"event": EV_CNP, "dir": 1},
                           {"event": "roce_cc", "qpn": QPN0, "limit": 8}]),
                   rx(p.ack(11, 12)), sent(outs[16:20])], result=A, flags=S)
    more = [post("SEND", [{"bytes": pattern(16, i).hex()}]) for i in range(16, 46)]
    outs2 = [req_pkts("SEND", pattern(16, i), 256, i)[0] for i in range(16, 46)]
    f.test(gs, "seed004: 16 SENDs out, a CNP, all 16 ACKed; 10 s later (past CNP_TIMER_THRD) "
               "30 more SENDs: 16 go out (the window restored)", C["s004_cnp"],
           many[:16] + [sent(outs[:16]), rx(cnp_in), rx(p.ack(15, 16)),
                        cqes("send", [req_cqe("SEND", i) for i in range(16)]),
                        {"advance_ns": 10000000000},
                        events([{"event": "roce_cc", "qpn": QPN0, "limit": 16}])] + more +
           [sent(outs2[:16])],
           result=A, flags=S)
    gc = f.group("connectx profile: RC QP 0, IPv6, MTU 256, log_sq_size 6",
                 setup1(mtu=1, local={"l3": "ipv6"}))
    gp = f.group("RC QP 0, IPv6, MTU 256, path traffic class 0xB8 (DSCP 46), hop limit 5",
                 setup1(mtu=1, local={"l3": "ipv6"}, path={"tclass": "0xb8", "hop_limit": 5}))
    f.test(gp, "A SEND leaves with the path's traffic class (DSCP 46) and hop limit 5",
           "IBTA Vol. 1 Annex A17 §A17.4.5 (the GRH fields of the address vector become the "
           "IP header: traffic class, flow label, hop limit)",
           [post("SEND", [{"bytes": msg.hex()}]),
            sent(req_pkts("SEND", msg, 256, 0), dscp=46, ttl=5)], result=A, flags=H)
    f.test(gc, "connectx: 30 SENDs posted: all 30 go out (no fixed outstanding cap; the PSN "
               "window is 2^23)", C["req_pkt"] + "; seed 004 L126-133 (the seed004 profile "
               "only)", many + [sent(outs)], result=A, flags=H)
    return f

"""The vectors that name a silent drop's reason, a NAK code or an error CQE syndrome that no
other vector of vectors/roce/ named (issue 17: "every rule of items 1-7 is named by a vector").

gen_roce.py calls extend(f) with each vector file it builds; the tests here go into a group of
their own at the end of the file, so every earlier test keeps its tcId. Same sources as
gen_roce.py (IBTA Vol. 1, Annex A17, public mlx5 constants, seed 004 by line) and the public
drop table of nicref/roce.h (roce_drops.py); never nicref's reference/ or harness/ code.
"""
import roce_common as G
import roce_model as M
from roce_drops import ev_drop

NOW = "IBTA Vol. 1 §9.6.1 (packets that fail header validation are silently dropped)"


def nak_or_drop(rules, naks, qpn=G.QPN0, psn=0):
    """An events any_of: the packet is dropped (for any of the rules) or NAKed with one of the
    codes, whichever the device's order and operation set make it."""
    alts = [{"reading": "dropped (" + ", ".join([rules] if isinstance(rules, str) else rules) +
             ")", "expect": [ev_drop(rules, qpn, psn)], "exact": False}]
    for code in naks:
        alts.append({"reading": f"NAK {code:#x}",
                     "expect": [G.ev_nak(psn, code)], "exact": False})
    return {"events": {"any_of": alts}}


def responder(f):
    p = G.Peer(v6=True)
    H, A = ("Handles",), ("Handles", "Acceptable")
    msg = G.pattern(100, 21)
    g = f.group("RC QP 0 in RTS, IPv6, MTU 1024, rae 0: drop reasons and NAK codes by name",
                G.setup1(mtu=3, local={"l3": "ipv6"}))
    f.test(g, "RDMA WRITE ONLY whose packet ends 8 bytes after the BTH (its RETH needs 16): "
              "malformed, dropped silently", NOW + ", §9.3.2 (RETH 16 bytes); " +
           "Annex A17 §A17.4",
           [G.rx(p.pkt("RC_WRITE_ONLY", 0, b"", bytes(8))), G.no_frames(),
            G.events([ev_drop("short_headers")])], result="invalid", flags=H)
    f.test(g, "A reserved RC opcode (0x1F) to QP 2: dropped as an opcode the transport does "
              "not run, or NAK Invalid Request (IBTA lists an unsupported or reserved opcode "
              "among its causes)", "IBTA Vol. 1 §9.2.1 Table 38 (0x18-0x1F reserved), "
           "§9.7.5.2.2 (NAK Invalid Request)",
           G.recv() + [G.rx(p.pkt(0x1F, 0, msg)), G.cqes("recv", []),
                       nak_or_drop("opcode_not_run", (M.AETH_NAK | M.NAK_INV_REQ,))],
           result="acceptable", flags=A)
    f.test(g, "A UC SEND ONLY (0x24) to RC QP 2: dropped, as an opcode of a service not "
              "modelled or of a service not the QP's", "IBTA Vol. 1 §9.6.1.4 (C9-13: the "
           "opcode's transport service must be the QP's), §9.2.1 Table 38",
           G.recv() + [G.rx(p.pkt("UC_SEND_ONLY", 0, msg)), G.no_frames(), G.cqes("recv", []),
                       G.events([ev_drop(["opcode_not_run", "service_mismatch"], G.QPN0, 0)])],
           result="acceptable", flags=A)
    f.test(g, "A UD SEND ONLY (DETH, Q_Key right) to RC QP 2: the opcode's service is not the "
              "QP's, dropped silently", "IBTA Vol. 1 §9.6.1.4 (C9-13)",
           G.recv() + [G.rx(p.pkt("UD_SEND_ONLY", 0, msg, M.deth(G.QKEY, G.PEER_QPN),
                                  ackreq=0)),
                       G.no_frames(), G.cqes("recv", []),
                       G.events([ev_drop("service_mismatch", G.QPN0, 0)])],
           result="invalid", flags=H)
    aeth = (G.DATA + G.WR_OFF).to_bytes(8, "big") + G.RKEY.to_bytes(4, "big") + \
        (5).to_bytes(8, "big") + bytes(8)
    f.test(g, "RC CMP_SWAP (AtomicETH) to a QP without remote atomics: dropped (seed 004's "
              "engine has no atomics), or NAK Invalid Request / Remote Access Error",
           "seed 004 L33-37 (the operation set: Send, Receive, Write, no atomics); IBTA Vol. 1 "
           "§9.4.5 (atomic operations), §9.7.5.2.2-§9.7.5.2.3",
           [G.rx(p.pkt("RC_CMP_SWAP", 0, b"", aeth)),
            G.mem(G.DATA + G.WR_OFF, bytes(8)),
            nak_or_drop("atomic_request", (M.AETH_NAK | M.NAK_INV_REQ,
                                           M.AETH_NAK | M.NAK_REM_ACCESS))],
           result="acceptable", flags=A)
    f.test(g, "SEND ONLY into a receive WQE whose L_Key is no MKey (0x999): the responder "
              "cannot place it: NAK Remote Operational Error (AETH 0x63, PSN 0), the receive "
              "WQE completes in error (RESP_ERR; Local Protection Error, or Local QP Operation "
              "Error for a WQE it cannot use)",
           "IBTA Vol. 1 §9.7.5.2.5 (NAK Remote Operational Error: the responder could not "
           "complete the request for a reason of its own), §10.8.3 (class B responder errors: "
           "the QP to Error); mlx5 device.h MLX5_CQE_SYNDROME_LOCAL_PROT_ERR 0x4, "
           "LOCAL_QP_OP_ERR 0x2",
           [{"qp_recv": {"qp": 0, "entries": [{"offset": hex(G.RQ_OFF[0]), "byte_count": 256,
                                               "lkey": 0x999}]}},
            G.rx(p.send(0, msg)), G.mem(G.DATA + G.RQ_OFF[0], bytes(100)),
            G.events([G.ev_nak(0, M.AETH_NAK | M.NAK_REM_OP)]),
            G.cqes("recv", [{"layout": "err_cqe", "opcode": M.CQE_RESP_ERR,
                             "syndrome": {"in": [M.SYN["LOCAL_QP_OP"], M.SYN["LOCAL_PROT"]]}}])],
           result="acceptable", flags=A)


def requester(f):
    p = G.Peer(v6=True)
    H = ("Handles",)
    msg = G.pattern(64, 22)
    g = f.group("RC QP 0 in RTS, IPv6, MTU 256: drop reasons by name",
                G.setup1(mtu=1, local={"l3": "ipv6"}))
    f.test(g, "A ghost ACK (PSN 0xFFFFFF, before every outstanding request) is dropped and "
              "named: response_unexpected; the SEND stays outstanding", G.C["req_ghost"],
           [G.post("SEND", [{"bytes": msg.hex()}]), G.rx(p.ack(0xFFFFFF, 0)),
            G.cqes("send", []), G.events([ev_drop("ghost_response", G.QPN0, 0xFFFFFF)])],
           result="invalid", flags=H)
    f.test(g, "A READ RESPONSE ONLY while only a SEND is outstanding: either dropped as a "
              "response nothing waits for (response_unexpected, the SEND still outstanding), "
              "or the SEND completes with Bad Response Error (0x10) and the QP goes to Error",
           "IBTA Vol. 1 §9.7.5.1.5 (a READ response matches an outstanding RDMA READ), "
           "§10.8.3 / §11.6.2 (completion status Bad Response Error: an unexpected transport "
           "opcode returned by the responder); mlx5 device.h MLX5_CQE_SYNDROME_BAD_RESP_ERR 0x10",
           [G.post("SEND", [{"bytes": msg.hex()}]),
            G.rx(p.read_resp("RC_READ_RESPONSE_ONLY", 0, G.pattern(16), msn=1)),
            {"cqes": {"qp": 0, "cq": "send", "any_of": [
                {"reading": "dropped: no CQE yet", "expect": [], "exact": True},
                {"reading": "Bad Response Error", "expect": [
                    G.err_cqe(M.SYN["BAD_RESP"], 0)], "exact": False}]}},
            {"events": {"any_of": [
                {"reading": "dropped, named", "exact": False,
                 "expect": [ev_drop("ghost_response", G.QPN0, 0)]},
                {"reading": "Bad Response Error: the QP to Error", "exact": False,
                 "expect": [{"event": "qp_state", "qpn": G.QPN0, "to": 6, "cause": 1}]}]}}],
           result="acceptable", flags=("Handles", "Acceptable"))
    gl = f.group("RC QP 0 in RTS, IPv6, MTU 256, the data MKey without local write (lw 0)",
                 G.setup1(mtu=1, local={"l3": "ipv6"}, mkey={"lw": 0, "rr": 1, "rw": 1}))
    rd = G.pattern(64, 26)
    f.test(gl, "RDMA READ of 64 bytes into the data region through an MKey without local write: "
               "the response cannot be placed: the READ completes with a local protection or "
               "access error (REQ_ERR 0x4 or 0x11), nothing written",
           "IBTA Vol. 1 §10.6.3.1 (local access rights of an L_Key: Local Write for the "
           "destination of an RDMA READ), §10.8.3 (class B: the QP to Error); mlx5 device.h "
           "MLX5_CQE_SYNDROME_LOCAL_PROT_ERR 0x4, LOCAL_ACCESS_ERR 0x11",
           [G.post("RDMA_READ", [{"addr": hex(G.DATA + G.RQ_OFF[0]), "byte_count": 64,
                                  "lkey": "data"}],
                   raddr={"addr": hex(G.RVA), "rkey": G.RRKEY}),
            G.rx(p.read_resp("RC_READ_RESPONSE_ONLY", 0, rd, msn=1)),
            G.mem(G.DATA + G.RQ_OFF[0], bytes(64)),
            G.cqes("send", [{"layout": "err_cqe", "opcode": M.CQE_REQ_ERR, "wqe_counter": 0,
                             "syndrome": {"in": [M.SYN["LOCAL_PROT"],
                                                 M.SYN["LOCAL_ACCESS"]]}}])],
           result="acceptable", flags=("Handles", "Acceptable"))
    clear = {"command": {"layout": "set_roce_address_in",
                         "fields": {"opcode": "SET_ROCE_ADDRESS", "roce_address_index": 0,
                                    "vhca_port_num": 1},
                         "expect": {"status": "OK"}}}
    f.test(g, "The GID entry the QP's path names (index 0) is cleared (SET_ROCE_ADDRESS of an "
              "all-zero entry), then a SEND: no frame can be built without a source GID, the "
              "packet is dropped (tx_no_gid)", "IBTA Vol. 1 Annex A17 §A17.4 (the source IP "
           "address is the SGID of the path's GID index); IBTA Vol. 1 §9.7 (a lost packet is "
           "the reliable service's to retry)",
           [clear, G.post("SEND", [{"bytes": msg.hex()}]), G.no_frames(),
            G.events([ev_drop("no_source_gid", G.QPN0, 0)])], result="invalid", flags=H)


def requester_port(f):
    """The port refuses what the QP sends: over the port's MTU, or the port down."""
    H = ("Handles",)
    msg = G.pattern(2048, 25)
    g = f.group("RC QP 0 in RTS, IPv6, path MTU 2048 (mtu 4) on a port of MTU 1500 (its "
                "power-on admin_mtu, D-REG-20)", G.setup1(mtu=4, local={"l3": "ipv6"}))
    f.test(g, "A SEND of 2048 bytes: one RC SEND ONLY packet whose IPv6 packet is 2112 bytes, "
              "beyond the port's MTU of 1500: not sent, dropped (tx_over_mtu)",
           "PRM §11.1.1 T106 (PMTU: packets exceeding the MTU are dropped); IBTA Vol. 1 §9.7 "
           "(a lost packet is the reliable service's to retry)",
           [G.post("SEND", [{"bytes": msg.hex()}]), G.no_frames(),
            G.events([ev_drop("over_port_mtu", G.QPN0, 0)])], result="invalid", flags=H)
    g2 = f.group("RC QP 0 in RTS, IPv6, MTU 256", G.setup1(mtu=1, local={"l3": "ipv6"}))
    down = {"command": {"layout": "access_reg_paos_in",
                        "fields": {"opcode": "ACCESS_REG", "op_mod": 0, "register_id": "0x5006",
                                   "local_port": 1, "admin_status": 2, "ase": 1},
                        "output_length": "0x20", "expect": {"status": "OK"}}}
    f.test(g2, "Port 1 taken down (PAOS admin_status 2), then a SEND: nothing goes out, the "
               "packet is dropped (tx_link_down)",
           "PRM §11.1.1 (PAOS: a port down by configuration passes no traffic); IBTA Vol. 1 "
           "§9.7 (a lost packet is the reliable service's to retry)",
           [down, G.post("SEND", [{"bytes": G.pattern(64).hex()}]), G.no_frames(),
            G.events([ev_drop("port_down", G.QPN0, 0)])], result="invalid", flags=H)


def loopback(f):
    """A QP whose peer is itself (its own GID, its own QPN): every packet loops back inside the
    device (docs/roce.md D-ROCE-12: a FIFO of 4 MiB drained after the doorbell's work)."""
    g = f.group("RC QP 0 in RTS, IPv4, MTU 1024, connected to itself (peer 192.0.2.1, QP 2), "
                "a data region of 16 MiB",
                G.setup1(mtu=3, peer={"ip": G.LIP4, "mac": G.LMAC, "qpn": G.QPN0},
                         data={"addr": hex(G.DATA), "size": "0x1000000"}))
    f.test(g, "One doorbell of an 8 MiB SEND to the QP's own GID: 8192 packets of about 1.1 KB "
              "loop back before any is received, more than the 4 MiB loopback queue holds: the "
              "rest are dropped (loopback_full; a lost packet is the reliable service's to "
              "retry)", "docs/roce.md D-ROCE-12 (the loopback queue); IBTA Vol. 1 §9.7 (RC "
           "retries what is lost)",
           [G.post("SEND", [{"addr": hex(G.DATA), "byte_count": 8 << 20, "lkey": "data"}]),
            G.events([ev_drop("loopback_queue_full", G.QPN0)])],
           result="invalid", flags=("Handles",))


def ud(f):
    H = ("Handles",)
    msg = G.pattern(100, 23)
    g = f.group("UD QP 0 in RTS, IPv6: drop reasons by name",
                G.setup1(type="UD", local={"l3": "ipv6"}))
    p = G.Peer(v6=True)
    f.test(g, "An RC SEND ONLY to UD QP 2: the opcode's service is not the QP's, dropped",
           "IBTA Vol. 1 §9.6.1.4 (C9-13)",
           G.recv() + [G.rx(p.send(0, msg)), G.no_frames(), G.cqes("recv", []),
                       G.events([ev_drop("service_mismatch", G.QPN0, 0)])],
           result="invalid", flags=H)
    big = G.pattern(1100, 24)
    f.test(g, "A UD SEND ONLY of 1100 bytes (the path MTU of a 1500-byte Ethernet port is "
              "1024) into a 2048-byte buffer: dropped (ud_length)", "IBTA Vol. 1 §9.6.3.1 "
           "(C9-53: a UD packet's payload exceeds the PMTU: silently dropped), §9.8 (a UD "
           "message is one packet); Annex A17 §A17.4 (the RoCE MTU: the largest IBTA MTU the "
           "Ethernet MTU holds)",
           G.recv(byte_count=2048) + [
               G.rx(p.pkt("UD_SEND_ONLY", 3, big, M.deth(G.QKEY, G.PEER_QPN), ackreq=0)),
               G.no_frames(), G.cqes("recv", []),
               G.events([ev_drop("ud_over_mtu", G.QPN0, 3)])],
           result="invalid", flags=H)


def ecn(f):
    A = ("Handles", "Acceptable")
    p = G.Peer(v6=True)
    g = f.group("RC QP 0 in RTS, IPv6: CNPs nobody sends for",
                G.setup1(mtu=3, local={"l3": "ipv6"}))
    cnp = p.pkt("CNP", 0, b"", bytes(16), dest_qp=9, ackreq=0, becn=1)
    f.test(g, "A CNP to QP 9 (no such QP): dropped (no sending QP to slow down)",
           "IBTA Vol. 1 Annex A17 §A17.9.1 (the CNP names the QP whose traffic was marked); "
           "IBTA Vol. 1 §9.6.1.4 (C9-12)",
           [G.rx(cnp), G.no_frames(),
            G.events([ev_drop(["cnp_for_no_sender", "destqp_unknown"], 9, 0)])],
           result="acceptable", flags=A)
    gi = f.group("RC QP 0 left in INIT, IPv6", G.setup1(mtu=3, to="INIT", local={"l3": "ipv6"}))
    f.test(gi, "A CNP to QP 2 in INIT (it sends nothing): dropped", "IBTA Vol. 1 Annex A17 "
           "§A17.9.1; IBTA Vol. 1 §10.3.1 (Initialized: incoming packets dropped)",
           [G.rx(p.pkt("CNP", 0, b"", bytes(16), ackreq=0, becn=1)), G.no_frames(),
            G.events([ev_drop(["cnp_for_no_sender", "qp_not_receiving"], G.QPN0, 0)])],
           result="acceptable", flags=A)


EXTEND = {"rc_responder": (responder,), "rc_requester": (requester, requester_port, loopback),
          "ud": (ud,), "ecn_cnp": (ecn,)}


def extend(f):
    for gen in EXTEND.get(f.name, ()):
        gen(f)

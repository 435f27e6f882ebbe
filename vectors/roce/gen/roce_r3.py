"""What issue 17 left open in the RC requester, session 28 (docs/roce.md D-ROCE-RC-29): a vector
appended to rc_requester.json (one device, the vector is the responder).

Written from PRM Rev 0.40 §7.12, IBTA Vol. 1 and the decision's text only (never from nicref's
code or output):

- PRM §7.12.1: the CQ is full when the producer counter less the consumer counter (the record's
  update_ci, which software writes as it polls) equals its size; a CQE to post to a full CQ
  with overflow detection on (T76 oi 0) transfers the CQ to error (T76 status 0x9
  CQ_OVERFLOW), the work queue to error and generates the event (§7.13.8.2 T84/T85: the CQ
  error event, type 04h). §7.12.5: the CQE may not be written. A CQ in error takes no more.
- IBTA Vol. 1 §9.7.5.1: a NAK for PSN n acknowledges the requests before n; a NAK PSN
  Sequence Error asks the requester to go back to n.
- IBTA Vol. 1 §10.3.1 (Error state): a QP in Error sends nothing; its outstanding WRs complete
  with a flush error, which a CQ in error cannot take.

So when the ACK a NAK carries completes a WQE whose CQE overruns the send CQ, the QP is in
Error from that moment: the go-back the same NAK asks for does not happen, nothing is sent then
or later, and the CQ keeps the CQEs written before the overrun and nothing after.
"""
from roce_common import *  # noqa: F401,F403

C_OVERRUN_STOPS = (
    "PRM §7.12.1 (a CQE to a full CQ with overflow detection: the CQ and the work queue to "
    "error, the event); §7.12.5; T76 status 0x9; §7.13.8.2 T84/T85; IBTA Vol. 1 §9.7.5.1 (a NAK "
    "acknowledges the requests before its PSN); §10.3.1 (Error state: nothing sent); "
    "D-ROCE-10, D-ROCE-RC-29")


def extend_requester(f):
    p = Peer(v6=True)
    g = f.group("D-ROCE-RC-29: RC QP 0 in RTS, IPv6, MTU 256, retry 7/7, CQs of 2 CQEs (never "
                "polled until the end); a send CQE that overruns the CQ",
                setup1(mtu=1, log_cq_size=1, local={"l3": "ipv6"}))
    m0, m1, m2, wr = pattern(64, 71), pattern(64, 72), pattern(64, 73), pattern(600, 74)
    s0, s1 = req_pkts("SEND", m0, 256, 0), req_pkts("SEND", m1, 256, 1)
    s2, w3 = req_pkts("SEND", m2, 256, 2), req_pkts("WRITE", wr, 256, 3)
    f.test(g, "Two SENDs (PSNs 0, 1) acknowledged: their two CQEs fill the send CQ. A SEND "
              "(PSN 2) and an RDMA WRITE of 600 bytes (PSNs 3-5) go out; NAK PSN Sequence "
              "Error for PSN 3: it acknowledges the SEND, whose CQE overruns the CQ "
              "(CQ_OVERRUN, the CQ error event 04h), so the QP is in Error: the NAK's go-back "
              "does not happen, nothing is sent then or after the local ACK timeout; the CQ "
              "holds the two CQEs from before and nothing more; QUERY_QP says ERR",
           C_OVERRUN_STOPS,
           [post("SEND", [{"bytes": m0.hex()}]), post("SEND", [{"bytes": m1.hex()}]),
            sent(s0 + s1),
            rx(p.ack(1, 2)),
            events([{"event": "cqe", "opcode": M.CQE_REQ, "wqe_counter": 0},
                    {"event": "cqe", "opcode": M.CQE_REQ, "wqe_counter": 1}]),
            post("SEND", [{"bytes": m2.hex()}]),
            post("RDMA_WRITE", [{"bytes": wr.hex()}],
                 raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(s2 + w3),
            rx(p.ack(3, 3, syndrome=M.AETH_NAK | M.NAK_PSN_SEQ)),
            no_frames(),
            events([{"event": "violation", "rule": "CQ_OVERRUN"},
                    {"event": "eqe", "type": 4}]),
            {"advance_ns": 300000000},
            no_frames(),
            cqes("send", [req_cqe("SEND", 0), req_cqe("SEND", 1)]),
            query_state(6)],
           result="invalid", flags=("Handles", "Overrun"))


EXTEND = {"rc_requester": extend_requester}
extend = extender(EXTEND)

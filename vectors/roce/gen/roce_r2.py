"""What session 27's first round left open in the RC requester (docs/roce.md D-ROCE-RC-27):
vectors appended to rc_requester.json (one device, the vector is the responder).

Written from IBTA Vol. 1 and the decision's text only (never from nicref's code or output):

- [IBTA] §9.7.5.2.2-§9.7.5.2.5, §10.8.3: a fatal NAK (Invalid Request, Remote Access Error,
  Remote Operational Error) names, by its PSN, the request the responder refused; that
  request's WQE completes with the matching error status and the QP goes to Error.
- [IBTA] §9.7.2: a READ request takes one PSN per response; a response whose PSN lies beyond
  an outstanding READ whose responses are missing means they were lost (an implied NAK,
  §9.7.4.1.4 as this project cites it).
- [IBTA] §10.3.1: every WR outstanding when the QP enters Error completes with a flush error,
  in the order of its queue.
- Open (D-ROCE-RC-27): a fatal NAK for the request after such a READ. Reading "D-ROCE-RC-27":
  the NAK is taken: the QP goes to Error, the READ (outstanding, never completed) completes
  flushed first, then the refused request with the NAK's error. Reading "implied NAK first"
  (Linux rxe rxe_comp.c: check_psn sees a response past an outstanding READ before check_ack
  reads its syndrome): the READ is asked again and the NAK is not acted on; no CQE yet.
  Neither gives the READ the NAK's error: the NAK is not for the READ.
- [IBTA] §10.3.1, §11.4.2.1 (D-ROCE-RC-28): a receive WR posted to a QP in Error completes
  with a flush error (Linux ib_drain_rq waits for exactly that completion). When the device
  notices it is the device's: the RQ has no doorbell but its record; the vector lets the clock
  move (1 us) before it looks, and rings no send doorbell.
"""
from roce_common import *  # noqa: F401,F403
from roce_f4 import readings

C_FATAL_AFTER_READ = (
    "IBTA Vol. 1 §9.7.5.2.2-§9.7.5.2.5, §10.8.3 (a fatal NAK completes the request it names, "
    "by its PSN, in error; the QP to Error); §9.7.2 (a READ takes a PSN per response); "
    "§10.3.1 (every outstanding WR completes with a flush error, in order); whether the "
    "READ before it is asked again first (an implied NAK, Linux rxe rxe_comp.c check_psn) "
    "or flushed is open (D-ROCE-RC-27)")


def extend_requester(f):
    p = Peer(v6=True)
    g = f.group("D-ROCE-RC-27: RC QP 0 in RTS, IPv6, MTU 256, retry 7/7; a fatal NAK after a "
                "READ whose responses are missing", setup1(mtu=1, local={"l3": "ipv6"}))
    msg = pattern(100, 61)
    rd0 = Out("RC_READ_REQUEST", 0, b"", reth=(RVA, RRKEY, 100), ackreq="open")
    snd = req_pkts("SEND", msg, 256, 1)
    for code, syn, name in ((M.NAK_INV_REQ, "REMOTE_INVAL_REQ", "Invalid Request"),
                            (M.NAK_REM_ACCESS, "REMOTE_ACCESS", "Remote Access Error"),
                            (M.NAK_REM_OP, "REMOTE_OP", "Remote Operational Error")):
        f.test(g, f"An RDMA READ of 100 bytes (PSN 0) and a SEND (PSN 1); the READ's response "
                  f"never comes; NAK {name} (AETH {0x60 | code:#x}) for PSN 1: the error names "
                  f"the SEND (WQE 1, syndrome {M.SYN[syn]:#x}), never the READ; the READ is "
                  "flushed first (0x5, WQE 0) and the QP goes to Error (D-ROCE-RC-27), or it "
                  "is asked again first and nothing completes yet (implied NAK first)",
               C_FATAL_AFTER_READ,
               [post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 100}],
                     raddr={"addr": hex(RVA), "rkey": RRKEY}),
                post("SEND", [{"bytes": msg.hex()}]), sent([rd0] + snd),
                rx(p.ack(1, 1, syndrome=M.AETH_NAK | code)),
                readings((("D-ROCE-RC-27: nothing sent", []),
                          ("implied NAK first: the READ asked again", [rd0]))),
                {"cqes": {"qp": 0, "cq": "send", "any_of": [
                    {"reading": "D-ROCE-RC-27: the READ flushed, then the SEND's error",
                     "expect": [err_cqe(M.SYN["WR_FLUSH"], 0), err_cqe(M.SYN[syn], 1)],
                     "exact": True},
                    {"reading": "implied NAK first: nothing completes yet",
                     "expect": [], "exact": True}]}}],
               result="acceptable", flags=("Handles", "Acceptable"))


C_POSTED_IN_ERR = ("IBTA Vol. 1 §10.3.1, §11.4.2.1 (a WR posted in Error completes with a "
                   "flush error, in order); mlx5 MLX5_CQE_SYNDROME_WR_FLUSH_ERR; when the "
                   "device notices is its own (D-ROCE-RC-28: at the next clock step)")


def extend_responder(f):
    g = f.group("D-ROCE-RC-28: RC QP 0 in RTS, IPv4, MTU 256; receive WQEs posted after the QP "
                "entered Error", setup1(mtu=1))
    to_err = {"command": {"layout": "qp_2err_in", "fields": {"opcode": "0x507", "qpn": QPN0},
                          "expect": {"status": "OK"}}}
    rcq = [err_cqe(M.SYN["WR_FLUSH"], i, M.CQE_RESP_ERR) for i in range(2)]
    f.test(g, "2ERR_QP with no receive WQE; then receive WQE 0 is posted and the clock moves "
              "1 us (no send doorbell): WQE 0 completes with WR_FLUSH_ERR (RESP_ERR, 0x5); "
              "WQE 1 the same way after it, each once, in order", C_POSTED_IN_ERR,
           [to_err, cqes("recv", []),
            recv((RQ_OFF[0],), byte_count=256)[0], {"advance_ns": 1000},
            cqes("recv", rcq[:1]),
            recv((RQ_OFF[1],), byte_count=256)[0], {"advance_ns": 1000},
            cqes("recv", rcq[1:]), {"advance_ns": 1000}, cqes("recv", [])],
           result="invalid", flags=("Handles",))


EXTEND = {"rc_requester": extend_requester, "rc_responder": extend_responder}
extend = extender(EXTEND)

"""The receive WQE of a SEND in progress when the QP enters Error (finding F6, docs/roce.md
"Findings"; D-ROCE-RC-18): vectors appended to rc_responder.json (one device, the vector is the
requester) and pair.json (two devices).

Written from IBTA Vol. 1 only (never from nicref's code or output):

- [IBTA] §9.4.1 / §9.7.4: a SEND's packets fill one receive WQE, the one at the head of the
  receive queue when the message starts; the WQE completes when the LAST (or ONLY) is placed.
- [IBTA] §10.3.1 (Error state): every WR outstanding when the QP enters Error, and every one
  posted later, completes with a flush error, in the order of its queue. A receive WQE a SEND's
  FIRST started to fill has not completed: it is outstanding, and the oldest of the receive
  queue, so its flush completion comes first. Whatever makes the QP enter Error (2ERR_QP, the
  QP's own requester exhausting retry_cnt, §9.7.6.1.2) does not change that.

The tests place the appended ones after every other group of the files (their tcIds do not move
the others').
"""
from roce_common import *  # noqa: F401,F403

C_FLUSH = ("IBTA Vol. 1 §10.3.1 (Error state: every outstanding WR completes with a flush "
           "error, in order: the WQE a SEND in progress holds is outstanding and the oldest); "
           "mlx5 MLX5_CQE_SYNDROME_WR_FLUSH_ERR")


def flushed(n, dev=None):
    """The receive CQEs of WQEs 0..n-1, each flushed (RESP_ERR, WR_FLUSH_ERR), in order."""
    return cqes("recv", [err_cqe(M.SYN["WR_FLUSH"], i, M.CQE_RESP_ERR) for i in range(n)],
                dev=dev)


def extend_responder(f):
    p = Peer(v6=True)
    g = f.group("F6 (D-ROCE-RC-18): RC QP 0 in RTS, IPv6, MTU 1024; a SEND in progress when "
                "the QP enters Error", setup1(mtu=3, local={"l3": "ipv6"}))
    two = recv((RQ_OFF[0], RQ_OFF[1]), byte_count=4096)
    first = rx(p.pkt("RC_SEND_FIRST", 0, pattern(1024, 5), ackreq=0))
    to_err = {"command": {"layout": "qp_2err_in", "fields": {"opcode": "0x507", "qpn": QPN0},
                          "expect": {"status": "OK"}}}
    f.test(g, "SEND FIRST (1024 bytes, no AckReq) fills receive WQE 0; then 2ERR_QP: WQE 0, "
              "held by the unfinished message, completes first with WR_FLUSH_ERR (RESP_ERR, "
              "0x5), then WQE 1; the message's MIDDLE then arrives: dropped, nothing more "
              "completes", C["send"] + "; " + C["multi"] + "; " + C_FLUSH,
           two + [first, cqes("recv", []), to_err, flushed(2),
                  rx(p.pkt("RC_SEND_MIDDLE", 1, pattern(1024, 6), ackreq=0)), cqes("recv", []),
                  events([ev_drop("qp_not_receiving", QPN0, 1)])], result="invalid",
           flags=("Handles",))
    f.test(g, "SEND FIRST fills receive WQE 0, the only one posted; 2ERR_QP: WQE 0 completes "
              "with WR_FLUSH_ERR (it is outstanding though taken)", C["send"] + "; " + C_FLUSH,
           recv((RQ_OFF[0],), byte_count=4096) + [first, cqes("recv", []), to_err, flushed(1)],
           result="invalid", flags=("Handles",))


def extend_pair(f):
    g = f.group("F6 (D-ROCE-RC-18): RC pair a-b, MTU 256, IPv4, ack_timeout 10 (4.19 ms), "
                "retry_count 1", setup2(mtu=1, ack_timeout=10, retry_count=1))
    a_msg, b_msg = pattern(600, 31), pattern(64, 32)
    # b's QP enters Error by its own requester: b's SEND to a is lost every time; retry_count
    # 1 is two transmissions, each timed out after 1 to 4 local ACK timeouts (IBTA §9.7.6.1.3,
    # 4.096 us x 2^10): at most 8 x 4.19 ms = 33.6 ms.
    f.test(g, "F6's shape: a's SEND of 600 bytes (FIRST, MIDDLE, LAST) loses its MIDDLE and "
              "LAST, so b's receive WQE 0 holds an unfinished message; then every frame is "
              "lost both ways and b's own SEND to a exhausts retry_cnt: b's send CQE 0x15, and "
              "b's receive WQEs 0 then 1 complete flushed, in order (no WQE skipped)",
           C["pair"] + "; " + C["send"] + "; " + C["req_to_exc"] + "; " + C_FLUSH,
           [{"qp_recv": {"qp": 0, "entries": [{"offset": hex(RQ_OFF[i]), "byte_count": 1024}]},
             "dev": "b"} for i in range(2)] +
           [{"link": {"dir": "ab", "loss": [1, 2], "tick_ns": 100000}},
            post("SEND", [{"bytes": a_msg.hex()}]),
            {"advance_ns": 100000},
            cqes("recv", [], dev="b"),
            {"link": {"loss_ppm": 1000000, "tick_ns": 100000}},
            {"qp_post": {"qp": 0, "opcode": "SEND", "data": [{"bytes": b_msg.hex()}]},
             "dev": "b"},
            {"advance_ns": 60000000},
            cqes("send", [err_cqe(M.SYN["TRANSPORT_RETRY_EXC"], 0)], dev="b"),
            flushed(2, dev="b"),
            {"command": query_state(6)["command"], "dev": "b"}],
           result="invalid", flags=("Handles",))
    g["devices"] = 2


EXTEND = {"rc_responder": extend_responder, "pair": extend_pair}
extend = extender(EXTEND)

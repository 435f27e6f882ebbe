"""The RC requester's retry rules met by finding F4 (docs/roce.md D-ROCE-RC-21, -22, -23):
vectors appended to rc_requester.json (one device, the vector is the responder) and pair.json
(two devices over a duplicating link).

Written from IBTA Vol. 1 and the decisions' text only (never from nicref's code or output).
What IBTA fixes is pinned; what it leaves open is accepted under each reading (`any_of`):

- [IBTA] §9.7.5.1.6: an ACK of PSN p acknowledges (completes, in order) every request up to p
  that was sent and not yet acknowledged (§9.7.1: the PSNs sent are those it may be answered
  for) -- also when the requester had gone back (a NAK, an RNR NAK) before it arrived.
- [IBTA] §9.7.6.1.3: a go-back resends from the oldest unacknowledged PSN, in order; nothing
  acknowledged is sent again, nothing is placed twice, every WQE completes once.
- Open (D-ROCE-RC-22): whether a copy of a NAK PSN Sequence Error (the responder sends one per
  ePSN, §9.7.5.2.1, so a second one without progress is a duplicate of the first) or a READ
  gap shown again starts a second go-back and takes a second retry of retry_cnt. Reading
  "latch" (D-ROCE-RC-22, Linux rxe's started_retry): no; the copy is dropped as
  `response_unexpected` (D-ROCE-RC-6). Reading "every NAK": yes.
- Open (D-ROCE-RC-23): whether an RNR wait ends when an ACK moves the oldest unacknowledged PSN
  (§9.7.5.2.8 says only that the requester waits before resending the refused request). Reading
  "ends on progress": the requester resumes at once after what was acknowledged. Reading "runs
  out": it resends what is still unacknowledged when the timer (Table 45) expires. Reading
  "ends, the ACK timer resends" (D-ROCE-RC-23's "the ACK timer for what remains"): the wait
  ends and what is still unacknowledged is left to the local ACK timer (§9.7.6.1.1), which
  resends it from the oldest unacknowledged PSN. Reading "D-ROCE-RC-25" (ends when all is acknowledged, else runs out)
  (D-ROCE-RC-25): the wait ends early only when progress acknowledged everything sent;
  otherwise it runs out and then resends from the oldest unacknowledged PSN (§9.7.5.2.8 read
  strictly: no retry before the RNR NAK's timer, whichever request it is). IBTA requires no
  earlier resend, so the four differ only in when; none resends an acknowledged PSN.
- The roce_retx event's reason (nicref's event contract, `nicref/trace.h`: 0 the ACK timer, 1 a
  NAK PSN Sequence Error, 2 an RNR wait, 3 an implied NAK): lost READ responses, shown by a
  READ response after a missing one or by an ACK beyond the READ, are the requester's own
  inference, IBTA Vol. 1 §9.7.4.1.4's implied NAK (no NAK was received): reason 3, pinned.

`ReqModel` is the generator's own small model of the requester's PSN bookkeeping under each
reading; the NAK-copy and RNR vectors take the PSNs it resends from it, the others list their
readings by hand.
"""
from roce_common import *  # noqa: F401,F403

LATCH, EVERY_NAK = "latch", "every NAK"
ON_PROGRESS, RUNS_OUT, TIMER = "ends on progress", "runs out", "ends, the ACK timer resends"
LEFT_RUNS_OUT = "D-ROCE-RC-25"  # ends when all is acknowledged, else runs out

C_ACK = ("IBTA Vol. 1 §9.7.5.1.6 (an ACK of PSN p completes every outstanding request up to p, "
         "in order), §9.7.1 (the requests sent and not acknowledged are those answered for)")
C_GBN = "IBTA Vol. 1 §9.7.6.1.3 (Go-Back-N: resend from the oldest unacknowledged PSN)"
C_NAKCOPY = ("IBTA Vol. 1 §9.7.5.2.1 (the responder sends one NAK PSN Sequence Error per "
             "expected PSN: a second one without progress is a copy); whether a copy takes a "
             "second retry is open (D-ROCE-RC-22 latch, Linux rxe started_retry, or not)")
C_RNRPROG = ("IBTA Vol. 1 §9.7.5.2.8 (RNR NAK: wait the timer, Table 45, before resending the "
             "refused request); whether progress ends the wait is open (D-ROCE-RC-23, "
             "D-ROCE-RC-25)")
C_IMPLIED = ("IBTA Vol. 1 §9.7.4.1.4 (lost READ responses, inferred by the requester from a "
             "later response: an implied NAK, no NAK received); the roce_retx event's reason 3 "
             "(nicref/trace.h, D-ROCE-RC-26)")


class ReqModel:
    """The requester's PSNs (IBTA §9.7.1, §9.7.6.1.3): `una` the oldest unacknowledged, `npsn`
    the next to send, `hpsn` the one after the last ever sent. `go` holds the PSNs sent (first
    sends and resends) since the last call of take()."""

    def __init__(self, nak_reading=LATCH, rnr_reading=ON_PROGRESS, retry_cnt=7):
        self.una = self.npsn = self.hpsn = 0
        self.nak_reading, self.rnr_reading = nak_reading, rnr_reading
        self.retries, self.latch, self.rnr = retry_cnt, False, False
        self.go, self.failed, self.dropped = [], False, 0

    def take(self):
        g, self.go = self.go, []
        return g

    def _send_to_end(self):
        while self.npsn < self.hpsn:
            self.go.append(self.npsn)
            self.npsn += 1

    def post(self, n):
        self.hpsn += n
        if not self.rnr:
            self._send_to_end()

    def _progress(self, upto):
        """An acknowledgement of every PSN before `upto` (§9.7.5.1.6)."""
        if upto > self.una:
            self.una = upto
            self.latch = False
            self.npsn = max(self.npsn, self.una)   # nothing acknowledged is sent again

    def ack(self, p):
        if not self.una <= p < self.hpsn:
            self.dropped += 1                      # a ghost (§9.7.5.1.6)
            return
        self._progress(p + 1)
        if self.rnr and self.rnr_reading == TIMER:
            self.rnr = False                       # the wait ends; the ACK timer resends
            return
        if self.rnr and self.rnr_reading == ON_PROGRESS:
            self.rnr = False
        if self.rnr and self.rnr_reading == LEFT_RUNS_OUT and self.una == self.hpsn:
            self.rnr = False                       # nothing left to retry: the wait ends
        if not self.rnr:
            self._send_to_end()

    def nak_seq(self, p):
        self._progress(p)
        if self.latch and self.nak_reading == LATCH:
            self.dropped += 1                      # the same loss shown again
            return
        if self.retries == 0:
            self.failed = True                     # §9.7.6.1.2: retry_cnt exhausted
            return
        self.retries -= 1
        self.latch = True
        self.npsn = p
        if not self.rnr:
            self._send_to_end()

    def rnr_nak(self, p):
        self._progress(p)
        self.npsn, self.rnr = p, True

    def rnr_expires(self):
        if self.rnr:
            self.rnr = False
            self.npsn = self.una
            self._send_to_end()

    def ack_timeout(self):
        """§9.7.6.1.3: the local ACK timer resends from the oldest unacknowledged PSN."""
        if self.una < self.hpsn:
            self.latch, self.rnr, self.npsn = False, False, self.una
            self._send_to_end()


def readings(steps_by_reading):
    """One frames step whose alternatives are each reading's frames (sent(): every device
    choice of ECN, MigReq, UDP checksum, AckReq) labelled by the reading."""
    alts, seen = [], []
    for name, outs in steps_by_reading:
        for a in sent(outs)["frames"]["any_of"]:
            key = json.dumps(a["expect"])
            if key in seen:
                continue
            seen.append(key)
            a["reading"] = name + ": " + a["reading"]
            alts.append(a)
    return {"frames": {"any_of": alts}}


def implied_events(from_psn):
    """The go-back of a READ gap and what the copy that shows it again does, per reading of
    D-ROCE-RC-22; the reason is pinned to 3 under both (C_IMPLIED)."""
    retx = {"event": EV_RETX, "qpn": QPN0, "from_psn": from_psn, "reason": 3}
    return {"events": {"any_of": [
        {"reading": LATCH + ": one go-back (implied NAK), the copy dropped (D-ROCE-RC-6)",
         "expect": [retx, ev_drop("ghost_response", qpn=QPN0)], "exact": False},
        {"reading": EVERY_NAK + ": a go-back (implied NAK) for each",
         "expect": [retx, retx], "exact": False}]}}


def sends(msgs, psns):
    out = []
    for p in psns:
        out += req_pkts("SEND", msgs[p], 256, p)
    return out


def extend_requester(f):
    p = Peer(v6=True)
    H = ("Handles", "Acceptable")
    A = "acceptable"
    msgs = [pattern(100, 50 + i) for i in range(3)]
    nak_seq = M.AETH_NAK | M.NAK_PSN_SEQ
    g = f.group("F4 rules (D-ROCE-RC-21..23): RC QP 0 in RTS, IPv6, MTU 256, retry 7/7, "
                "ack_timeout 14 (67.1 ms)", setup1(mtu=1, local={"l3": "ipv6"}))

    # ---- D-ROCE-RC-22: a copy of a NAK PSN Sequence Error --------------------------------
    per = []
    for r in (LATCH, EVERY_NAK):
        m = ReqModel(nak_reading=r)
        m.post(3)
        m.take()
        m.nak_seq(1)
        m.nak_seq(1)
        per.append((r, sends(msgs, m.take())))
    drop = ev_drop("ghost_response", qpn=QPN0)
    retx = {"event": EV_RETX, "qpn": QPN0, "from_psn": 1, "reason": 1}
    f.test(g, "D-ROCE-RC-22: three SENDs (PSN 0-2); a NAK PSN Sequence Error for PSN 1 and a "
              "copy of it: PSNs 1, 2 resent once (latch: the copy dropped as "
              "response_unexpected) or twice (every NAK a go-back); nothing before PSN 1 "
              "resent; the ACK of PSN 2 completes the three SENDs once, in order; the QP "
              "stays in RTS",
           C["req_nak_seq"] + "; " + C_NAKCOPY + "; " + C_ACK + "; " + C_GBN,
           [post("SEND", [{"bytes": b.hex()}]) for b in msgs] +
           [sent(sends(msgs, [0, 1, 2])),
            rx(p.ack(1, 1, syndrome=nak_seq)), rx(p.ack(1, 1, syndrome=nak_seq)),
            readings(per),
            {"events": {"any_of": [
                {"reading": LATCH + ": one go-back, the copy dropped (D-ROCE-RC-6)",
                 "expect": [retx, drop], "exact": False},
                {"reading": EVERY_NAK + ": a go-back for each NAK",
                 "expect": [retx, retx], "exact": False}]}},
            rx(p.ack(2, 3)),
            cqes("send", [req_cqe("SEND", i) for i in range(3)]), query_state(3)],
           result=A, flags=H)

    # ---- D-ROCE-RC-22 with retry_cnt 1: the copy is the difference -----------------------
    g1 = f.group("F4 rules: RC QP 0 in RTS, IPv6, MTU 256, retry_count 1, rnr_retry 7, "
                 "ack_timeout 14", setup1(mtu=1, local={"l3": "ipv6"}, retry_count=1))
    fr = []
    for r in (LATCH, EVERY_NAK):
        m = ReqModel(nak_reading=r, retry_cnt=1)
        m.post(1)
        m.take()
        m.nak_seq(0)
        m.nak_seq(0)
        fr.append(m.take())
    assert fr[0] == fr[1] == [0]   # both readings resend PSN 0 exactly once
    f.test(g1, "D-ROCE-RC-22, retry_count 1: a SEND, a NAK PSN Sequence Error for PSN 0 and a "
               "copy of it: PSN 0 resent exactly once under either reading; then the ACK of "
               "PSN 0: the SEND completes (latch: the copy took no retry) or failed at the "
               "copy with transport retry exceeded 0x15 (every NAK a retry); one CQE either way",
           C["req_nak_seq"] + "; " + C_NAKCOPY + "; " + C["req_to_exc"],
           [post("SEND", [{"bytes": msgs[0].hex()}]), sent(sends(msgs, [0])),
            rx(p.ack(0, 0, syndrome=nak_seq)), rx(p.ack(0, 0, syndrome=nak_seq)),
            sent(sends(msgs, fr[0])), rx(p.ack(0, 1)),
            {"cqes": {"qp": 0, "cq": "send", "any_of": [
                {"reading": LATCH + ": the copy takes no retry, the ACK completes the SEND",
                 "expect": [req_cqe("SEND", 0)], "exact": True},
                {"reading": EVERY_NAK + ": the copy needs a second retry of 1: 0x15",
                 "expect": [err_cqe(M.SYN["TRANSPORT_RETRY_EXC"], 0)], "exact": True}]}}],
           result=A, flags=H)

    # ---- D-ROCE-RC-22: a READ gap shown again --------------------------------------------
    m600 = pattern(600, 52)
    rd = Out("RC_READ_REQUEST", 0, b"", reth=(RVA, RRKEY, 600), ackreq="open")
    rq2 = Out("RC_READ_REQUEST", 1, b"", reth=(RVA + 256, RRKEY, 344), ackreq="open")
    alts = readings(((LATCH, [rq2]), (EVERY_NAK, [rq2, rq2])))["frames"]["any_of"]
    f.test(g, "D-ROCE-RC-22: an RDMA READ of 600 bytes; FIRST (PSN 0) then LAST (PSN 2) "
              "shows the MIDDLE missing: the READ is asked again from PSN 1 (VA + 256, 344 "
              "bytes; roce_retx reason 3, implied NAK); a copy of the LAST shows the same gap "
              "again: asked again once more (every gap a retry) or not (latch: the copy "
              "dropped as response_unexpected); the resent responses place the 600 bytes "
              "once and complete the READ once; the QP stays in RTS",
           "IBTA Vol. 1 §9.7.5.1.5, §9.7.6.1.3 (a READ response beyond the expected PSN is an "
           "implied NAK: the READ is reissued from the first missing response); " +
           C["req_read"] + "; " + C_IMPLIED + "; whether the same gap shown again is a second "
           "retry is open (D-ROCE-RC-22)",
           [post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 600}],
                 raddr={"addr": hex(RVA), "rkey": RRKEY}), sent([rd]),
            rx(p.read_resp("RC_READ_RESPONSE_FIRST", 0, m600[:256])),
            rx(p.read_resp("RC_READ_RESPONSE_LAST", 2, m600[512:])),
            rx(p.read_resp("RC_READ_RESPONSE_LAST", 2, m600[512:])),
            {"frames": {"any_of": alts}}, implied_events(1), cqes("send", []),
            rx(p.read_resp("RC_READ_RESPONSE_FIRST", 1, m600[256:512])),
            rx(p.read_resp("RC_READ_RESPONSE_LAST", 2, m600[512:])),
            mem(DATA + 0x3000, m600), cqes("send", [req_cqe("RDMA_READ", 0)]),
            query_state(3)],
           result=A, flags=H)

    # ---- D-ROCE-RC-22: an ACK beyond a READ whose response is missing, and a copy of it ------
    # F4's third root cause: the responder answers the go-back's duplicate requests with the
    # ACK of its ePSN - 1, which lies beyond the READ asked again; each copy must not be a new
    # loss. Go-Back-N resends from the READ; whether the SEND after it is sent again (an ACK
    # covered it, but it cannot complete before the READ) is the device's choice.
    m256 = pattern(256, 53)
    rd0 = Out("RC_READ_REQUEST", 0, b"", reth=(RVA, RRKEY, 256), ackreq="open")
    snd = req_pkts("SEND", msgs[0], 256, 1)
    alts = readings(((LATCH + ", the READ only", [rd0]),
                     (LATCH + ", Go-Back-N: the READ and the SEND", [rd0] + snd),
                     (EVERY_NAK + ", the READ only", [rd0, rd0]),
                     (EVERY_NAK + ", the READ and the SEND", [rd0] + snd + [rd0] + snd)))[
        "frames"]["any_of"]
    f.test(g, "D-ROCE-RC-22: an RDMA READ of 256 bytes (PSN 0) then a SEND (PSN 1); the READ "
              "response is lost and an ACK of PSN 1 arrives (beyond the READ: its response is "
              "missing), then a copy of that ACK: the READ is asked again from PSN 0 once "
              "(latch: the copy dropped as response_unexpected) or once per ACK, each time "
              "with roce_retx reason 3 (implied NAK); the response then places the 256 bytes "
              "once, the ACK "
              "of PSN 1 completes both WQEs once, in order (READ, SEND); the QP stays in RTS",
           "IBTA Vol. 1 §9.7.5.1.5, §9.7.6.1.3 (a response beyond an outstanding READ whose "
           "responses are missing is an implied NAK: the READ is reissued); " + C_ACK +
           "; Linux rxe rxe_comp.c check_psn (a response past an outstanding READ: retry) and "
           "its started_retry latch; " + C_IMPLIED + "; whether the copy is a second retry is "
           "open (D-ROCE-RC-22)",
           [post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 256}],
                 raddr={"addr": hex(RVA), "rkey": RRKEY}),
            post("SEND", [{"bytes": msgs[0].hex()}]), sent([rd0] + snd),
            rx(p.ack(1, 2)), rx(p.ack(1, 2)), {"frames": {"any_of": alts}},
            implied_events(0), cqes("send", []),
            rx(p.read_resp("RC_READ_RESPONSE_ONLY", 0, m256)), rx(p.ack(1, 2)),
            mem(DATA + 0x3000, m256),
            cqes("send", [req_cqe("RDMA_READ", 0), req_cqe("SEND", 1)]), query_state(3)],
           result=A, flags=H)

    # ---- D-ROCE-RC-23 (and -21): an RNR wait and an ACK of the refused PSN -----------------
    early, late = [], []
    for r in (ON_PROGRESS, RUNS_OUT, LEFT_RUNS_OUT, TIMER):
        m = ReqModel(rnr_reading=r)
        m.post(2)
        m.take()
        m.rnr_nak(0)
        m.ack(0)
        m.rnr_expires()                 # by 2.5 ms: the RNR timer (1.28 ms) has run out
        early.append((r, m.take()))
        m.ack_timeout()                 # by 272.5 ms: the ACK timer has expired at least once
        late.append(m.take())
    assert [e[1] for e in early] == [[1], [1], [1], []] and late == [[1], [1], [1], [1]]
    by_early = {}
    for r, psns in early:
        by_early.setdefault(tuple(psns), []).append(r)
    # by 272.5 ms the ACK timer (67.1 ms to 4 x that, C9-141) has resent PSN 1 one to four times
    # (it runs under every reading: PSN 1 is never acknowledged in the window)
    f.test(g, "D-ROCE-RC-23: two SENDs (PSN 0, 1); an RNR NAK for PSN 0 (timer 14, 1.28 ms), "
              "then, before the wait ends, an ACK of PSN 0 (a later copy was executed): the "
              "first SEND completes at the ACK; PSN 1 is sent again (by 2.5 ms: at once, the "
              "wait ended by progress, or when it runs out; or later, by the local ACK timer), "
              "PSN 0 never again; the ACK of PSN 1 completes the second; the QP stays in RTS",
           C["req_rnr"] + "; " + C_RNRPROG + "; " + C_ACK + "; " + C_GBN + "; " + C["req_to"],
           [post("SEND", [{"bytes": msgs[0].hex()}]), post("SEND", [{"bytes": msgs[1].hex()}]),
            sent(sends(msgs, [0, 1])),
            rx(p.ack(0, 0, syndrome=M.AETH_RNR | 14)), rx(p.ack(0, 1)),
            cqes("send", [req_cqe("SEND", 0)]), {"advance_ns": 2500000},
            readings([(" / ".join(rs), sends(msgs, list(k))) for k, rs in by_early.items()]),
            {"advance_ns": 270000000},
            readings([("the ACK timer resent PSN 1 %d time%s" % (n, "s" if n > 1 else ""),
                       sends(msgs, late[0] * n)) for n in (1, 2, 3, 4)]),
            rx(p.ack(1, 2)), cqes("send", [req_cqe("SEND", 1)]), query_state(3)],
           result=A, flags=H)

    # ---- D-ROCE-RC-21: an ACK for PSNs sent before the go-back -----------------------------
    per = []
    for r in (ON_PROGRESS, RUNS_OUT, LEFT_RUNS_OUT):
        m = ReqModel(rnr_reading=r)
        m.post(3)
        m.take()
        m.rnr_nak(1)
        m.ack(2)
        m.rnr_expires()
        per.append(m.take())
    assert per == [[], [], []]
    f.test(g, "D-ROCE-RC-21: three SENDs (PSN 0-2); an RNR NAK for PSN 1 (timer 14) sets the "
              "requester back to PSN 1; before it resends, an ACK of PSN 2 arrives (for "
              "requests sent before the go-back): it is taken, the three SENDs complete once, "
              "in order; nothing is sent again (nothing is unacknowledged), by 2.5 ms or "
              "after; the QP stays in RTS",
           C_ACK + "; " + C_GBN + "; " + C["req_rnr"],
           [post("SEND", [{"bytes": b.hex()}]) for b in msgs] +
           [sent(sends(msgs, [0, 1, 2])),
            rx(p.ack(1, 1, syndrome=M.AETH_RNR | 14)), rx(p.ack(2, 3)),
            cqes("send", [req_cqe("SEND", i) for i in range(3)]),
            {"advance_ns": 2500000}, no_frames(), {"advance_ns": 300000000}, no_frames(),
            query_state(3)],
           result=A, flags=H)
    # F4's first root cause: a NAK sequence error taken during an RNR wait sets the requester
    # back without resending (the wait holds it); ACKs for what was sent before it must count.
    alts = []
    for name, psns in (("the go-back waits for the RNR timer", []),
                       ("the go-back resends at once", [0, 1, 2])):
        for a in sent(sends(msgs, psns))["frames"]["any_of"]:
            a["reading"] = name + ": " + a["reading"]
            alts.append(a)
    dedup = []
    for a in alts:
        if all(json.dumps(a["expect"]) != json.dumps(b["expect"]) for b in dedup):
            dedup.append(a)
    f.test(g, "D-ROCE-RC-21: three SENDs (PSN 0-2); an RNR NAK for PSN 0 (timer 14, 1.28 ms), "
              "then a NAK PSN Sequence Error for PSN 0 (the responder's answer to PSN 1) during "
              "the wait: the requester goes back to PSN 0 (resending now or after the wait); "
              "then, before the wait ends, an ACK of PSN 2 (a copy of PSN 0 was executed, and "
              "the rest): it acknowledges requests sent before the go-back, the three SENDs "
              "complete once, in order; nothing is sent again; the QP stays in RTS",
           C_ACK + "; " + C["req_rnr"] + "; " + C["req_nak_seq"] + "; " + C_GBN,
           [post("SEND", [{"bytes": b.hex()}]) for b in msgs] +
           [sent(sends(msgs, [0, 1, 2])),
            rx(p.ack(0, 0, syndrome=M.AETH_RNR | 14)), rx(p.ack(0, 0, syndrome=nak_seq)),
            {"frames": {"any_of": dedup}}, rx(p.ack(2, 3)),
            cqes("send", [req_cqe("SEND", i) for i in range(3)]),
            {"advance_ns": 2500000}, no_frames(), {"advance_ns": 300000000}, no_frames(),
            query_state(3)],
           result=A, flags=H)
    f.test(g, "D-ROCE-RC-21: three SENDs (PSN 0-2); a NAK PSN Sequence Error for PSN 1: PSNs "
              "1, 2 resent; then an ACK of PSN 1 and an ACK of PSN 2 (answers to the first "
              "sends, or to the resends: the same PSNs) complete the three SENDs once, in "
              "order; no ghost; nothing more sent",
           C["req_nak_seq"] + "; " + C_ACK + "; " + C_GBN,
           [post("SEND", [{"bytes": b.hex()}]) for b in msgs] +
           [sent(sends(msgs, [0, 1, 2])), rx(p.ack(1, 1, syndrome=nak_seq)),
            sent(sends(msgs, [1, 2])), rx(p.ack(1, 2)), rx(p.ack(2, 3)),
            cqes("send", [req_cqe("SEND", i) for i in range(3)]), no_frames(),
            query_state(3)], result=A, flags=H)


def extend_pair(f):
    g = f.group("F4 rules: RC pair a-b, MTU 256, IPv4, retry 7/7, ack_timeout 10 (4.19 ms)",
                setup2(mtu=1, ack_timeout=10))
    ten = [post("RDMA_WRITE", [{"bytes": pattern(600, 60 + i).hex()}],
                raddr={"offset": hex(WR_OFF + 0x1000 * i)}) for i in range(10)]
    f.test(g, "F4: 10 WRITEs of 600 bytes over a link that duplicates every frame both ways "
              "and reorders a's first (a NAK sequence error, and its copy): every WRITE placed "
              "once, every WQE completed once and in order, both QPs in RTS (nothing was lost; "
              "retry_cnt 7 outlasts a second retry per copy under either reading of "
              "D-ROCE-RC-22)",
           C["pair"] + "; " + C["req_nak_seq"] + "; " + C_NAKCOPY + "; " + C_ACK,
           [{"link": {"dir": "ab", "duplicate_ppm": 1000000, "reorder": [0],
                      "reorder_ns": 5000, "delay_ns": 1000}},
            {"link": {"dir": "ba", "duplicate_ppm": 1000000, "delay_ns": 1000}}] + ten +
           [{"advance_ns": 50000000}] +
           [mem(DATA + WR_OFF + 0x1000 * i, pattern(600, 60 + i), dev="b") for i in range(10)] +
           [cqes("send", [req_cqe("RDMA_WRITE", i) for i in range(10)], dev="a"),
            query_state(3), {"command": query_state(3)["command"], "dev": "b"},
            {"link_counters": {"ab": {"lost": 0}, "ba": {"lost": 0}}}])
    g2 = f.group("F4 rules: RC pair a-b, MTU 256, IPv4, retry 7/7, ack_timeout 10, a's first "
                 "PSN 0x7FFFFC (b's expected PSN the same)",
                 setup2(mtu=1, ack_timeout=10, sq_psn="0x7ffffc"))
    msgs = [pattern(300, 70 + i) for i in range(3)]
    src = pattern(600, 9)
    f.test(g2, "F4's shape: SEND, SEND, RDMA READ (600 bytes), SEND from a before b has a "
               "receive WQE; every frame duplicated both ways, a's second frame reordered; b "
               "answers an RNR NAK and, during a's RNR wait, a NAK PSN Sequence Error for the "
               "same PSN (D-ROCE-RC-22's 'the same loss'); b posts three receive WQEs at 20 us: "
               "every SEND placed once (three receive CQEs), the READ's 600 bytes placed, a's "
               "four WQEs completed once and in order, both QPs in RTS",
           C["pair"] + "; " + C["req_rnr"] + "; " + C["req_nak_seq"] + "; " + C_NAKCOPY +
           "; " + C_RNRPROG + "; " + C_ACK,
           [{"link": {"dir": "ab", "delay_ns": 1000, "reorder": [1], "reorder_ns": 3000,
                      "duplicate_ppm": 1000000, "tick_ns": 100000}},
            {"link": {"dir": "ba", "duplicate_ppm": 1000000, "tick_ns": 100000}},
            {"mem_write": {"addr": hex(DATA + WR_OFF), "hex": src.hex()}, "dev": "b"},
            post("SEND", [{"bytes": msgs[0].hex()}]), post("SEND", [{"bytes": msgs[1].hex()}]),
            post("RDMA_READ", [{"addr": hex(DATA + 0x8000), "byte_count": 600}],
                 raddr={"offset": hex(WR_OFF)}),
            post("SEND", [{"bytes": msgs[2].hex()}]), {"advance_ns": 20000}] +
           [{"qp_recv": {"qp": 0, "entries": [{"offset": hex(RQ_OFF[i]), "byte_count": 512}]},
             "dev": "b"} for i in range(3)] +
           [{"advance_ns": 200000000}] +
           [mem(DATA + RQ_OFF[i], msgs[i], dev="b") for i in range(3)] +
           [mem(DATA + 0x8000, src, dev="a"),
            cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 300}] * 3, dev="b"),
            cqes("send", [req_cqe("SEND", 0), req_cqe("SEND", 1), req_cqe("RDMA_READ", 2),
                          req_cqe("SEND", 3)], dev="a"),
            query_state(3), {"command": query_state(3)["command"], "dev": "b"},
            {"link_counters": {"ab": {"lost": 0}, "ba": {"lost": 0}}}])
    for g_ in f.groups:
        g_["devices"] = 2


EXTEND = {"rc_requester": extend_requester, "pair": extend_pair}
extend = extender(EXTEND)

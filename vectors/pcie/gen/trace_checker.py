"""The link checker of the independent PCIe DLL model: both ends' rules of PCI Express Base
Specification §3.6 (seed 003; docs/pcie.md "Trace format", nicref_dll_trace_v1) played from a
recorded trace, the first violation per direction. Split from dll_model.py, whose CRCs, packet
lengths and constants it uses; written from the seed and the decisions, never from reference/."""
from dll_model import (DLLP_ACK, DLLP_BYTES, DLLP_NAK, LCRC_BYTES, SEQHDR_BYTES,
                       SEQ_MOD, WINDOW, dllp_body, dllp_crc, lcrc, span)

# ---------------------------------------------------------------------------------------------
# The link checker (nicref_dll_trace_v1, docs/pcie.md "Trace format"): both ends' rules played
# from a recorded trace; the first violation per direction.

DIRS = ("down", "up")
OTHER = {"down": "up", "up": "down"}

RULE_CITES = {
    "tx.seq": "PCIe Base §3.6.2.1 (seed 003 L46-49)",
    "tx.lcrc": "PCIe Base §3.6.2.1 (seed 003 L53-69, L76)",
    "tx.window": "PCIe Base §3.6.2.1 (seed 003 L48)",
    "tx.replay_early": "PCIe Base §3.6.2.1 (seed 003 L84, L123)",
    "tx.replay_late": "PCIe Base §3.6.2.1 (seed 003 L84, L123-126)",
    "tx.replay_order": "PCIe Base §3.6.2.1 (seed 003 L100, L106-107)",
    "tx.no_retrain": "PCIe Base §3.6.2.1 (seed 003 L90)",
    "rx.ack_seq": "PCIe Base §3.6.3.1 (seed 003 L293)",
    "rx.ack_unsent": "PCIe Base §3.6.2.2 (seed 003 L158-159)",
    "rx.accepted_bad": "PCIe Base §3.6.3.1 (seed 003 L219-257)",
    "rx.missed_nak": "PCIe Base §3.6.3.1 (seed 003 L201-203, L210-214, L227-231, L248-252)",
    "rx.ack_late": "PCIe Base §3.6.3.1 (seed 003 L244, L272-291)",
    "dllp.crc": "PCIe Base §3.6.2.2 (seed 003 L143-147)",
}


class _Side:
    """What the checker knows of one end: its transmitter (from the TLPs it sends and the
    Acks/Naks it receives) and its receiver (from the TLPs it receives)."""

    def __init__(self):
        # transmitter
        self.nts = 0
        self.ackd = 0xFFF
        self.retry = []             # [(seq, data, lcrc)]
        self.timer_start = None     # t the REPLAY_TIMER started (None: held/stopped)
        self.nak_at = None          # t of a Nak received that owes a replay
        self.expired_at = None      # t the timer expired (owes a replay)
        self.replay_plan = None     # entries of the replay in progress (L106: may finish them)
        self.replay_pos = 0         # the index in it of the last TLP retransmitted
        self.replay_num = 0
        self.retrain_done_since_replay = False
        self.owed_retrain_done = None   # t2 + tolerance after a retrain it owed a replay for
        self.cause_line = None      # the record that started the timer or owes the replay
        # receiver
        self.nrs = 0
        self.nak_sched = 0
        self.bad_pending = {}       # seq -> line: TLPs received bad/lost, not since good
        self.nak_due = None         # (deadline, line)
        self.ack_due = None         # (deadline, line): forwarded TLPs unacknowledged
        self.dup_due = None         # (deadline, line): a duplicate unanswered


# L125-126: the Simplified REPLAY_TIMER Limit's range by Extended Synch (D-DLL-3)
REPLAY_RANGE = {0: (24000, 31000), 1: (80000, 100000)}


def replay_range(header):
    """(min, max) of the header: "replay_limit" pins both; else replay_limit_min and
    replay_limit_max, each defaulting to the seed's range for the header's Extended Synch."""
    if "replay_limit" in header:
        assert "replay_limit_min" not in header and "replay_limit_max" not in header
        return header["replay_limit"], header["replay_limit"]
    lo, hi = REPLAY_RANGE[header.get("extended_synch", 0)]
    return header.get("replay_limit_min", lo), header.get("replay_limit_max", hi)


class Checker:
    """Plays both ends' rules over a trace; `verdicts()` gives, per direction, None (ok) or
    (rule, t, line, cause_line, message): the earliest violation by t (a missed deadline counts
    at its deadline), then by line. `line` is the line at which the checker sees the violation
    (the record, or for a deadline the first record past it); `cause_line` the record that
    opened the obligation (the record itself for a violation of a record).

    A record's t is its packet's first symbol; the packet is received at once (the header's
    delay must be 0), and every obligation it opens counts from its last symbol, t + its
    length (`span`, D-DLL-22: REPLAY_TIMER L33-35, L102, L134; the Ack latency L295). A device's
    REPLAY_TIMER limit may be anywhere in the header's range: a replay is early below its lower
    end, late past its upper end and the tolerance (L123-126, D-DLL-3)."""

    def __init__(self, header):
        self.h = header
        assert header.get("delay", 0) == 0
        self.tol = header.get("tolerance", 2000)
        self.ack_limit = header.get("ack_latency_limit", 1000)
        self.replay_min, self.replay_max = replay_range(header)
        assert self.replay_min <= self.replay_max
        self.cost = header.get("symbol_cost", 1)
        self.width = header.get("link_width", 1)
        self.side = {d: _Side() for d in DIRS}
        self.found = {d: None for d in DIRS}
        self.retrain_from = None

    def _end(self, t, nbytes):
        """The instant a packet of nbytes transmitted at t ends (its last symbol)."""
        return t + span(nbytes, self.cost, self.width)

    def _tlp_end(self, t, data):
        return self._end(t, SEQHDR_BYTES + len(data) + LCRC_BYTES)

    def _violate(self, d, rule, t, line, cause_line, msg):
        cur = self.found[d]
        if cur is None or (t, line) < (cur[1], cur[2]):
            self.found[d] = (rule, t, line, cause_line, msg)

    # -- deadlines ----------------------------------------------------------------------------

    def _deadlines(self, d):
        """[(deadline, rule, cause_line)] of the end d."""
        s = self.side[d]
        out = []
        if s.nak_due:
            out.append((s.nak_due[0], "rx.missed_nak", s.nak_due[1]))
        if s.ack_due and s.nak_sched == 0:
            out.append((s.ack_due[0], "rx.ack_late", s.ack_due[1]))
        if s.dup_due:
            out.append((s.dup_due[0], "rx.ack_late", s.dup_due[1]))
        if s.retry and s.replay_plan is None:
            if s.owed_retrain_done is not None:
                out.append((s.owed_retrain_done, "tx.replay_late", s.cause_line))
            elif s.nak_at is not None:
                out.append((s.nak_at + self.tol, "tx.replay_late", s.cause_line))
            elif s.timer_start is not None:
                out.append((s.timer_start + self.replay_max + self.tol, "tx.replay_late",
                            s.cause_line))
        return out

    def _due(self, t, line):
        if self.retrain_from is not None:
            return      # while the link retrains no deadline falls due
        for d in DIRS:
            for deadline, rule, cause in self._deadlines(d):
                if t > deadline:
                    self._violate(d, rule, deadline, line, cause if cause else line,
                                  f"deadline {deadline} passed")
                    self._clear(d, rule)

    def _clear(self, d, rule):
        s = self.side[d]
        if rule == "rx.missed_nak":
            s.nak_due = None
        elif rule == "rx.ack_late":
            s.ack_due = s.dup_due = None
        else:
            s.nak_at = s.expired_at = s.timer_start = s.owed_retrain_done = None

    # -- records ------------------------------------------------------------------------------

    def record(self, rec, line):
        t = rec["t"]
        self._due(t, line)
        d = rec["dir"]
        if "phy" in rec:
            self._phy(d, rec["phy"], t, line)
        elif "tlp" in rec:
            self._tlp(d, rec, t, line)
        else:
            self._dllp(d, rec, t, line)

    def _phy(self, d, what, t, line=None):
        if what == "retrain":
            if self.retrain_from is None:
                self.retrain_from = t
                # an end whose REPLAY_TIMER had expired owes its replay after the retrain
                for x in DIRS:
                    s = self.side[x]
                    # the timer may have expired (a limit at the range's lower end)
                    if (s.retry and s.replay_plan is None and s.timer_start is not None
                            and t - s.timer_start >= self.replay_min):
                        s.expired_at = s.timer_start + self.replay_min
            return
        # retrain_done: the timers held; what was owed before is owed from now. An obligation
        # that began before the retrain moves by its length; one that began during it (a
        # packet's last symbol then) starts at its end; one still to begin stays.
        start = self.retrain_from if self.retrain_from is not None else t
        shift = t - start
        self.retrain_from = None

        def moved(v):
            return v + shift if v < start else max(v, t)

        for x in DIRS:
            s = self.side[x]
            if s.timer_start is not None:
                s.timer_start = moved(s.timer_start)
            for name in ("nak_due", "ack_due", "dup_due"):
                v = getattr(s, name)
                if v:
                    setattr(s, name, (v[0] + shift, v[1]))
            if s.nak_at is not None:
                s.nak_at = moved(s.nak_at)
        s = self.side[d]
        s.retrain_done_since_replay = True
        for x in DIRS:
            s = self.side[x]
            if s.retry and s.replay_plan is None and s.nak_at is not None:
                s.owed_retrain_done = t + self.tol
                s.cause_line = line
            elif s.retry and s.replay_plan is None and s.expired_at is not None:
                # expired at the range's lower end, or not before its upper end
                s.owed_retrain_done = max(t, s.timer_start + self.replay_max) + self.tol
                s.cause_line = line
        self.side[d].retrain_done_since_replay = True

    def _replay_cause(self, s, t):
        if s.nak_at is not None or s.expired_at is not None:
            return True
        if s.timer_start is not None and t - s.timer_start >= self.replay_min:
            return True
        return s.owed_retrain_done is not None

    def _tlp(self, d, rec, t, line):
        s, r = self.side[d], self.side[OTHER[d]]
        p = rec["tlp"]
        seq, data = p["seq"], bytes.fromhex(p["data"])
        val = int(p["lcrc"], 0)
        reserved = p.get("reserved", 0)
        nullified = p.get("nullified", False)
        corrupt, lost = rec.get("corrupt", False), rec.get("lost", False)
        good = lcrc(seq, data, reserved)
        # -- the transmitter's rules (not for a copy the link made)
        if not rec.get("duplicate", False):    # a link's copy: not transmitted
            in_retry = [e for e in s.retry if e[0] == seq]
            planned = s.replay_plan or []
            if nullified:
                if seq != s.nts:
                    self._violate(d, "tx.seq", t, line, line, f"nullified TLP seq {seq}, "
                                  f"NEXT_TRANSMIT_SEQ {s.nts}")
                elif val != good ^ 0xFFFFFFFF and not corrupt:
                    self._violate(d, "tx.lcrc", t, line, line, "nullified TLP's LCRC not inverted")
            elif in_retry or any(e[0] == seq for e in planned):
                self._retransmission(d, s, rec, seq, data, val, corrupt, t, line)
            else:
                unacked = {e[0] for e in s.retry}
                if s.replay_plan is not None and any(
                        e[0] in unacked for e in s.replay_plan[s.replay_pos + 1:]):
                    self._violate(d, "tx.replay_order", t, line, line,
                                  f"new TLP {seq} before the replay ended")
                elif seq != s.nts:
                    self._violate(d, "tx.seq", t, line, line, f"TLP seq {seq}, NEXT_TRANSMIT_SEQ "
                                  f"{s.nts}")
                elif d_(s.nts, s.ackd) >= WINDOW:
                    self._violate(d, "tx.window", t, line, line, f"{d_(s.nts - 1, s.ackd)} "
                                  "TLPs outstanding")
                elif val != good and not corrupt:
                    self._violate(d, "tx.lcrc", t, line, line, f"LCRC {val:#010x}, not {good:#010x}")
                s.replay_plan = None
                if seq == s.nts:
                    # the original's LCRC is the computed one (a corrupted record's value says
                    # nothing of what was sent; a wrong one sent is tx.lcrc already)
                    s.retry.append((seq, data, good))
                    s.nts = (seq + 1) % SEQ_MOD
                    if s.timer_start is None and s.nak_at is None and s.expired_at is None:
                        s.timer_start = self._tlp_end(t, data)             # L33
                        s.cause_line = line
        # -- the receiver at the other end
        if lost:
            if not nullified:
                r.bad_pending.setdefault(seq, line)
            return
        if nullified:
            if val == good ^ 0xFFFFFFFF and not corrupt:
                return
            self._rx_bad(r, seq, t, line, data)
            return
        if val != good or corrupt:
            self._rx_bad(r, seq, t, line, data)
            return
        end = self._tlp_end(t, data)     # obligations from the TLP's last symbol (L295)
        if seq != r.nrs:
            if d_(r.nrs, seq) <= WINDOW:
                if r.dup_due is None:
                    r.dup_due = (end + self.tol, line)
                return
            r.bad_pending.setdefault(seq, line)
            if r.nak_sched == 0:
                r.nak_sched = 1
                r.nak_due = (end + self.tol, line)
            return
        r.bad_pending.pop(seq, None)
        r.nrs = (r.nrs + 1) % SEQ_MOD
        r.nak_sched = 0
        if r.ack_due is None:
            r.ack_due = (end + self.ack_limit + self.tol, line)

    def _rx_bad(self, r, seq, t, line, data):
        r.bad_pending.setdefault(seq, line)
        if r.nak_sched == 0:
            r.nak_sched = 1
            r.nak_due = (self._tlp_end(t, data) + self.tol, line)

    def _retransmission(self, d, s, rec, seq, data, val, corrupt, t, line):
        if s.replay_plan is None:
            # a replay begins: it needs a cause (L84, L123) and starts at the oldest (L100)
            if not self._replay_cause(s, t):
                self._violate(d, "tx.replay_early", t, line, line,
                              f"retransmission of {seq} without a Nak or an expiry")
            s.replay_num = (s.replay_num + 1) % 4
            if s.replay_num == 0 and not s.retrain_done_since_replay:
                self._violate(d, "tx.no_retrain", t, line, line,
                              "fourth replay without progress and no retrain")
            s.retrain_done_since_replay = False
            s.replay_plan = list(s.retry)
            s.replay_pos = next((k for k, e in enumerate(s.replay_plan) if e[0] == seq), 0)
            s.nak_at = s.expired_at = s.owed_retrain_done = None
            s.timer_start = self._tlp_end(t, data)                 # L34, L102
            s.cause_line = line
            if not s.retry or seq != s.retry[0][0]:
                self._violate(d, "tx.replay_order", t, line, line,
                              f"the replay starts at {seq}, the oldest unacknowledged is "
                              f"{s.retry[0][0] if s.retry else None}")
        else:
            # the next planned TLP, in order; one acknowledged meanwhile may be skipped (L106)
            unacked = {e[0] for e in s.retry}
            expect = None
            for k in range(s.replay_pos + 1, len(s.replay_plan)):
                e = s.replay_plan[k]
                if e[0] == seq:
                    expect = k
                    break
                if e[0] in unacked:
                    break
            if expect is None:
                nxt = next((e[0] for e in s.replay_plan[s.replay_pos + 1:] if e[0] in unacked),
                           None)
                self._violate(d, "tx.replay_order", t, line, line,
                              f"replayed {seq}, next unacknowledged is {nxt}")
                expect = next((k for k, e in enumerate(s.replay_plan) if e[0] == seq),
                              s.replay_pos)
            s.replay_pos = expect
        entry = next((e for e in s.replay_plan if e[0] == seq), None)
        if entry and entry[1] != data:
            self._violate(d, "tx.replay_order", t, line, line, f"replayed {seq} with other data")
        elif entry and entry[2] != val and not corrupt:
            self._violate(d, "tx.lcrc", t, line, line, f"replayed {seq} with another LCRC")
        if s.replay_pos >= len(s.replay_plan) - 1:
            s.replay_plan = None      # the last planned TLP: the replay is over

    def _dllp(self, d, rec, t, line):
        y, x = self.side[d], self.side[OTHER[d]]     # y sent it, x receives it
        p = rec["dllp"]
        kind = p["type"]
        dtype = DLLP_ACK if kind == "ack" else DLLP_NAK if kind == "nak" else int(kind, 0)
        seq = p.get("seq", 0)
        good = dllp_crc(dllp_body(dtype, seq, p.get("reserved", 0)))
        crc = int(p["crc"], 0)
        corrupt, lost = rec.get("corrupt", False), rec.get("lost", False)
        dup = rec.get("duplicate", False)    # a copy the link made: the sender did not send it
        if crc != good and not corrupt and not dup:
            self._violate(d, "dllp.crc", t, line, line, f"CRC {crc:#06x}, not {good:#06x}")
        if dtype not in (DLLP_ACK, DLLP_NAK):
            return
        if not dup:
            self._acknak_sent(d, y, x, kind, seq, t, line)
        # -- the receiving transmitter (T8), unless the DLLP did not arrive good
        if lost or corrupt or crc != good:
            return
        self._acknak_received(x, dtype, seq, t, line)

    def _acknak_sent(self, d, y, x, kind, seq, t, line):
        # -- the sender's receiver rules (L293, L219-L257, L158)
        last = (y.nrs - 1) % SEQ_MOD
        if seq != last:
            ahead = d_(seq, last)
            sent_by_x = d_(seq, x.ackd) <= d_(x.nts - 1, x.ackd)
            if 1 <= ahead < WINDOW and sent_by_x and any(
                    d_(b, last) <= ahead for b in y.bad_pending if 1 <= d_(b, last) < WINDOW):
                self._violate(d, "rx.accepted_bad", t, line, line,
                              f"{kind} {seq} acknowledges a TLP not received good")
            elif not sent_by_x:
                self._violate(d, "rx.ack_unsent", t, line, line,
                              f"{kind} {seq}: the other end has not sent it")
            else:
                self._violate(d, "rx.ack_seq", t, line, line,
                              f"{kind} {seq}, NEXT_RCV_SEQ - 1 is {last}")
        else:
            if kind == "ack" or kind == "nak":
                y.ack_due = None
                y.dup_due = None
            if kind == "nak":
                y.nak_due = None
        if kind == "nak":
            y.nak_due = None

    def _acknak_received(self, x, dtype, seq, t, line):
        t = self._end(t, DLLP_BYTES)     # from the DLLP's last symbol received (L134)
        n = d_(x.nts - 1, x.ackd)
        if d_(seq, x.ackd) > n:
            return      # a data link protocol error at x: discarded
        if seq != x.ackd:
            k = d_(seq, x.ackd)
            x.retry = [e for e in x.retry if d_(e[0], x.ackd) > k]
            x.ackd = seq
            x.replay_num = 0
            x.timer_start = t if x.retry else None
            x.cause_line = line
            x.expired_at = None
            # an Ack with later progress supersedes a Nak not yet answered (L113: the Nak may
            # be ignored); the restarted timer still owes a replay if nothing more comes
            x.nak_at = None
            if not x.retry:
                x.owed_retrain_done = None
        if dtype == DLLP_NAK and x.retry:
            x.nak_at = t
            x.cause_line = line
            x.timer_start = None

    def verdicts(self):
        return dict(self.found)


def d_(a, b):
    return (a - b) % SEQ_MOD


def check_trace(lines):
    """lines: the JSONL text lines. Returns {dir: None | (rule, t, line, cause_line, msg)}."""
    import json
    header = json.loads(lines[0])
    assert header["format"] == "nicref_dll_trace_v1"
    c = Checker(header)
    for i, text in enumerate(lines[1:], start=2):
        c.record(json.loads(text), i)
    return c.verdicts()

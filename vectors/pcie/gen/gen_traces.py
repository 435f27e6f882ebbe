#!/usr/bin/python3
"""Example link traces for `nicref pcie check` (examples/pcie/*.jsonl) and their verdicts
(examples/pcie/expected.json), from this folder's independent model.

    /usr/bin/python3 vectors/pcie/gen/gen_traces.py [--check]

Two ends of dll_model.DllEnd joined by a link with no delay (header "delay": 0: a packet is
received at the instant it is transmitted, in file order) run a script of TLPs offered by each
transaction layer, with faults injected on the link (a TLP or DLLP corrupted: "corrupt": true,
or lost: "lost": true). A packet lasts one symbol time per byte (the header's default
symbol_cost 1 on one lane): the ends start REPLAY_TIMER and AckNak_LATENCY_TIMER at the last
symbol of the packet concerned (D-DLL-22); packets of one direction may overlap in time (the
link does not pace them). The conforming traces are what the two conforming ends transmit. Each
non-conforming trace is a conforming run in which one end's transmission is changed on purpose
(dropped, delayed, a field altered, a record added) so that it breaks one checker rule of
docs/pcie.md. The verdicts come from trace_checker.Checker, and the generator refuses to write a
trace whose verdict is not the one its script intends.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
OUT = os.path.join(ROOT, "examples", "pcie")
sys.path.insert(0, HERE)

import dll_model as M  # noqa: E402
import trace_checker as C  # noqa: E402
from gen_pcie import tlp  # noqa: E402

# The REPLAY_TIMER limit is the seed's range (L125: 24000-31000 with Extended Synch 0): the
# header leaves it to its default.
HEADER = {"format": "nicref_dll_trace_v1", "ack_latency_limit": 1000, "extended_synch": 0,
          "tolerance": 2000, "delay": 0}


class Link:
    """Ends A ("down": what A transmits) and B ("up"), no delay; a packet lasts its bytes times
    the header's symbol_cost (1 by default) over its link_width, from the instant it is
    transmitted. Both ends' REPLAY_TIMER limit is `limit` (by default the lower end of the
    header's range)."""

    def __init__(self, faults=None, tamper=None, header=None, limit=None):
        self.header = header or HEADER
        h = self.header
        lim = limit if limit is not None else C.replay_range(h)[0]
        p = M.Params(ack_latency_limit=h["ack_latency_limit"], replay_limit=lim,
                     replay_limit_es1=lim, extended_synch=h["extended_synch"],
                     symbol_cost=h.get("symbol_cost", 1), link_width=h.get("link_width", 1))
        self.ends = {"down": M.DllEnd(p), "up": M.DllEnd(p)}
        self.records = []
        self.now = 0
        self.faults = faults or {}      # (dir, "tlp"|"dllp", k) -> "corrupt" | "lost"
        self.tamper = tamper or {}      # (dir, "tlp"|"dllp"|"phy", k) -> f(rec) -> [recs]
        self.count = {}
        self.retraining = {"down": False, "up": False}

    # -- transmissions ----------------------------------------------------------------------

    def _record(self, d, item):
        if "tlp" in item:
            t = item["tlp"]
            rec = {"t": self.now, "dir": d, "tlp": {"seq": t["seq"], "data": item["data"].hex(),
                                                    "lcrc": f"0x{t['lcrc']:08x}",
                                                    "nullified": t["nullified"]}}
            kind = "tlp"
        else:
            p = item["dllp"]
            rec = {"t": self.now, "dir": d, "dllp": {"type": p["type"], "seq": p["seq"],
                                                     "crc": f"0x{p['crc']:04x}"}}
            kind = "dllp"
        k = self.count.get((d, kind), 0)
        self.count[(d, kind)] = k + 1
        fault = self.faults.get((d, kind, k))
        if fault == "duplicate":
            # the link delivers a second copy: only the receiver sees it
            copy = json.loads(json.dumps(rec))
            copy["duplicate"] = True
            f = self.tamper.get((d, kind, k))
            return (f(rec) if f else [rec]) + [copy]
        if fault:
            rec[fault] = True
        f = self.tamper.get((d, kind, k))
        return f(rec) if f else [rec]

    def put(self, rec):
        """Write a record and hand it to the other end (unless lost); then what that end
        transmits in answer, at once (depth first: the file order is the causal order)."""
        self.records.append(rec)
        if "phy" in rec or rec.get("lost"):
            return
        d = rec["dir"]
        dst = self.ends[C.OTHER[d]]
        if "tlp" in rec:
            p = rec["tlp"]
            crc = int(p["lcrc"], 0) ^ (0x00010000 if rec.get("corrupt") else 0)
            dst.rx_tlp(p["seq"], bytes.fromhex(p["data"]), crc, edb=p["nullified"],
                       reserved=p.get("reserved", 0))
        else:
            p = rec["dllp"]
            dtype = M.DLLP_ACK if p["type"] == "ack" else M.DLLP_NAK
            good = M.dllp_crc(M.dllp_body(dtype, p["seq"]))
            ok = int(p["crc"], 0) == good and not rec.get("corrupt")
            dst.rx_dllp(dtype, p["seq"], ok)
        self.flush(C.OTHER[d])

    def flush(self, d):
        e = self.ends[d]
        while e.sent:
            item = e.sent.pop(0)
            for rec in self._record(d, item):
                self.put(rec)
        if e.retraining and not self.retraining[d]:
            self.retraining[d] = True
            # the link retrains: the other end's LTSSM is in Recovery too (L38)
            self.ends[C.OTHER[d]].in_recovery = True
            self._phy(d, "retrain")

    def _phy(self, d, what):
        k = self.count.get((d, "phy"), 0)
        self.count[(d, "phy")] = k + 1
        rec = {"t": self.now, "dir": d, "phy": what}
        f = self.tamper.get((d, "phy", k))
        for r in (f(rec) if f else [rec]):
            self.records.append(r)

    def pump(self):
        while any(e.sent for e in self.ends.values()):
            for d in C.DIRS:
                self.flush(d)
        for d in C.DIRS:
            self.flush(d)

    # -- the script's verbs -----------------------------------------------------------------

    def tl(self, d, i, nullify=False, data=None):
        """End d's TL hands over TLP i (a Memory Read, gen_pcie.tlp), or the bytes data."""
        e = self.ends[d]
        e.tl_send(data if data is not None else bytes.fromhex(tlp(i)), nullify)
        self.pump()
        return not e.tl_stalled

    def retrain_done(self, d):
        self._phy(d, "retrain_done")
        self.retraining[d] = False
        self.ends[d].retrain_done()
        self.ends[C.OTHER[d]].retrain_done()
        self.pump()

    @staticmethod
    def _next_due(e):
        ds = []
        if e.replay_timer_running and not e.held() and e.retry:
            ds.append(e.replay_timer_wait + e.limit() - e.replay_timer)
        if e.unacked_rx and e.nak_scheduled == 0 and not e.held():
            ds.append(e.acknak_wait + e.p.ack_latency_limit - e.acknak_latency_timer)
        return min(ds) if ds else None

    def run_to(self, t):
        while self.now < t:
            dists = [t - self.now] + [x for x in map(self._next_due, self.ends.values())
                                      if x is not None]
            step = max(1, min(dists))
            for e in self.ends.values():
                e.advance(step)
            self.now += step
            self.pump()

    def text(self):
        lines = [json.dumps(self.header, separators=(", ", ": "))]
        lines += [json.dumps(r, separators=(", ", ": ")) for r in self.records]
        return "\n".join(lines) + "\n"


def up_tlp(i):
    return 1000 + i


def offer(link, schedule):
    """schedule: [(t, dir, i)] in time order."""
    for t, d, i in schedule:
        link.run_to(t)
        link.tl(d, i if d == "down" else up_tlp(i))


# -- conforming traces ------------------------------------------------------------------------

def ok_clean():
    link = Link()
    offer(link, sorted([(100 * k, "down", k) for k in range(8)]
                       + [(150 + 300 * k, "up", k) for k in range(3)]))
    link.run_to(5000)
    return link, "TLPs both ways, no fault: each end acknowledges within the Ack latency limit"


def ok_corrupt_tlp():
    link = Link(faults={("down", "tlp", 2): "corrupt"})
    offer(link, [(100 * k, "down", k) for k in range(6)])
    link.run_to(5000)
    return link, ("TLP 2 corrupted on the link: B sends a Nak of 1 at once, A replays from 2 "
                  "(L100); B's later Acks are in time")


def ok_lost_tlp():
    link = Link(faults={("down", "tlp", 2): "lost"})
    offer(link, [(100 * k, "down", k) for k in range(6)])
    link.run_to(5000)
    return link, ("TLP 2 lost on the link: TLP 3 is out of sequence at B (a Nak of 1, L248-252), "
                  "A replays 2 and 3")


def ok_lost_ack():
    link = Link(faults={("up", "dllp", 0): "lost"})
    offer(link, [(0, "down", 0)])
    link.run_to(26000)
    link.tl("down", 1)
    link.run_to(30000)
    return link, ("B's Ack lost: A's REPLAY_TIMER expires 24,000 after the last symbol of TLP 0 "
                  "(18 bytes on the wire: at 24,018, L33, L123) and A replays TLP 0; B sees a "
                  "duplicate and acknowledges it at once (L244)")


def ok_bad_dllp():
    link = Link(faults={("up", "dllp", 0): "corrupt"})
    offer(link, [(100 * k, "down", k) for k in range(4)] + [(1500, "down", 4)])
    link.run_to(5000)
    return link, ("B's first Ack corrupted on the link (A discards it: Bad DLLP at A, L147); "
                  "B's next Ack covers every TLP")


def ok_nullified():
    link = Link()
    link.tl("down", 0)
    link.run_to(100)
    link.tl("down", 1, nullify=True)
    link.run_to(200)
    link.tl("down", 1)
    link.run_to(3000)
    return link, ("A nullifies a TLP (inverted LCRC, L70-81): B drops it silently (L206); the "
                  "next TLP reuses its sequence number")


def _rollover_link(tamper=None, retrain_at=80000):
    link = Link(faults={("down", "tlp", k): "corrupt" for k in range(4)}, tamper=tamper)
    link.tl("down", 0)
    link.run_to(retrain_at)
    link.retrain_done("down")
    link.run_to(retrain_at + 3000)
    return link


def ok_rollover():
    link = _rollover_link()
    return link, ("TLP 0 corrupted four times: a Nak, then REPLAY_TIMER expiries at 24,018 and "
                  "48,036 (24,000 after the last symbol of the replay before; B's Nak is still "
                  "scheduled, L248), the fourth replay without progress at 72,054 rolls "
                  "REPLAY_NUM over: A retrains (L90) and replays after retrain_done at 80,000")


def ok_both_ways():
    link = Link(faults={("down", "tlp", 4): "corrupt", ("up", "tlp", 6): "corrupt",
                        ("down", "dllp", 1): "lost"})
    offer(link, sorted([(200 * k, "down", k) for k in range(10)]
                       + [(50 + 250 * k, "up", k) for k in range(10)]))
    link.run_to(8000)
    return link, ("traffic both ways, a TLP corrupted in each direction and one of A's Acks "
                  "lost: each end Naks, replays and acknowledges as it should")


def ok_duplicate():
    link = Link(faults={("down", "tlp", 1): "duplicate", ("up", "dllp", 0): "duplicate"})
    offer(link, [(0, "down", 0), (100, "down", 1), (200, "down", 2)])
    link.run_to(3000)
    return link, ("the link duplicates TLP 1 and B's Ack (\"duplicate\": true, seen by the "
                  "receiver only): B acknowledges the duplicate TLP at once (L244); the second "
                  "Ack equals ACKD_SEQ at A, no error (L160)")


def ok_es1():
    h = dict(HEADER, extended_synch=1)
    link = Link(faults={("up", "dllp", 0): "lost"}, header=h)
    link.tl("down", 0)
    link.run_to(90000)
    return link, ("Extended Synch 1 (the header's range: 80,000-100,000): B's Ack lost, A (its "
                  "limit 80,000) replays at 80,018, not at 24,018 (L126)")


def ok_ack_during_replay():
    link = Link(faults={("up", "dllp", 0): "lost"})
    offer(link, [(0, "down", 0), (10, "down", 1), (20, "down", 2)])
    link.run_to(30000)
    return link, ("B's Ack of 2 lost: A's expiry replays 0, 1, 2; B answers the duplicate 0 with "
                  "an Ack of 2 at once, and A finishes its replay with 1 and 2 though they are "
                  "acknowledged meanwhile (L106: allowed)")


def ok_nullified_corrupt():
    link = Link(faults={("down", "tlp", 1): "corrupt"})
    link.tl("down", 0)
    link.run_to(100)
    link.tl("down", 1, nullify=True)
    link.run_to(200)
    link.tl("down", 1)
    link.run_to(3000)
    return link, ("a nullified TLP corrupted on the link: B finds its LCRC not the inverse, Bad "
                  "TLP and a Nak of 0 (L208-216); A has nothing to replay but what it sent")


# -- non-conforming traces --------------------------------------------------------------------

def drop(rec):
    return []


def v_replay_late():
    link = Link(faults={("up", "dllp", 0): "lost"}, tamper={("down", "tlp", 1): drop})
    link.tl("down", 0)
    link.run_to(50000)
    return link, ("B's Ack lost; A does not replay when REPLAY_TIMER expires at 24,018 (its "
                  "replay is removed) and replays only at 48,036: too late past the range's "
                  "upper end 31,000 + tolerance from the last symbol of TLP 0 (18)")


def v_replay_early():
    link = Link(faults={("up", "dllp", 0): "lost"})
    offer(link, [(0, "down", 0), (100, "down", 1)])
    link.run_to(5000)
    first = dict(link.records[0])
    first["t"] = 5000
    first.pop("corrupt", None)
    link.put(first)
    link.run_to(8000)
    return link, ("A retransmits TLP 0 at 5,000 with no Nak and REPLAY_TIMER far below its "
                  "limit (B's Ack was lost)")


def v_replay_order():
    link = Link(faults={("down", "tlp", 0): "lost"}, tamper={("down", "tlp", 2): drop})
    link.tl("down", 0)
    link.tl("down", 1)
    link.tl("down", 2)
    link.run_to(30000)
    return link, ("TLP 0 lost; on B's Nak A's replay skips TLP 0 (its retransmission is removed) "
                  "and starts at 1")


def v_ack_unsent():
    link = Link()
    offer(link, [(0, "down", 0), (100, "down", 1), (200, "down", 2)])
    link.run_to(1500)
    body = M.dllp_body(M.DLLP_ACK, 100)
    link.put({"t": 1500, "dir": "up", "dllp": {"type": "ack", "seq": 100,
                                               "crc": f"0x{M.dllp_crc(body):04x}"}})
    link.run_to(3000)
    return link, "B sends an Ack of 100 when A has sent only 0-2 (L158-159 at A)"


def _as_ack(seq):
    def f(rec):
        body = M.dllp_body(M.DLLP_ACK, seq)
        rec = dict(rec)
        rec["dllp"] = {"type": "ack", "seq": seq, "crc": f"0x{M.dllp_crc(body):04x}"}
        return [rec]
    return f


def v_accepted_bad():
    link = Link(faults={("down", "tlp", 1): "corrupt"}, tamper={("up", "dllp", 0): _as_ack(1)})
    offer(link, [(0, "down", 0), (100, "down", 1), (200, "down", 2)])
    link.run_to(3000)
    return link, ("TLP 1 corrupted on the link; B acknowledges it (an Ack of 1 where its Nak "
                  "was)")


def v_missed_nak():
    link = Link(faults={("down", "tlp", 1): "corrupt"}, tamper={("up", "dllp", 0): drop})
    offer(link, [(0, "down", 0), (100, "down", 1), (200, "down", 2)])
    link.run_to(30000)
    return link, ("TLP 1 corrupted on the link; B sends no Nak (its Nak is removed): A recovers "
                  "only by REPLAY_TIMER at 24,018")


def v_ack_seq():
    link = Link(tamper={("up", "dllp", 0): _as_ack(3)})
    offer(link, [(100 * k, "down", k) for k in range(5)])
    link.run_to(27000)
    return link, ("B has received 0-4 and sends an Ack of 3, not NEXT_RCV_SEQ - 1 = 4 (L293); "
                  "A recovers TLP 4 by REPLAY_TIMER")


def _bad_crc(rec):
    rec = dict(rec)
    rec["dllp"] = dict(rec["dllp"])
    rec["dllp"]["crc"] = f"0x{int(rec['dllp']['crc'], 0) ^ 0x0100:04x}"
    return [rec]


def v_dllp_crc():
    link = Link(tamper={("up", "dllp", 0): _bad_crc})
    offer(link, [(0, "down", 0), (100, "down", 1)])
    link.run_to(27000)
    return link, ("B transmits its first Ack with a wrong CRC (not a link fault); A discards it "
                  "and recovers by REPLAY_TIMER")


def _bad_lcrc(rec):
    rec = dict(rec)
    rec["tlp"] = dict(rec["tlp"])
    rec["tlp"]["lcrc"] = f"0x{int(rec['tlp']['lcrc'], 0) ^ 0x10:08x}"
    return [rec]


def v_tx_lcrc():
    link = Link(tamper={("down", "tlp", 1): _bad_lcrc})
    offer(link, [(100 * k, "down", k) for k in range(3)])
    link.run_to(3000)
    return link, ("A transmits TLP 1 with a wrong LCRC (not a link fault): B Naks it, A replays "
                  "it")


def _reseq(seq, invert=0):
    """A tamper giving the TLP sequence number seq, its LCRC right for seq (XOR invert: the
    inverted LCRC of a nullified TLP)."""
    def f(rec):
        rec = dict(rec)
        p = dict(rec["tlp"])
        p["seq"] = seq
        p["lcrc"] = f"0x{M.lcrc(seq, bytes.fromhex(p['data'])) ^ invert:08x}"
        rec["tlp"] = p
        return [rec]
    return f


def v_tx_seq():
    link = Link(tamper={("down", "tlp", 3): _reseq(4)})
    offer(link, [(100 * k, "down", k) for k in range(5)])
    link.run_to(3000)
    return link, ("A's fourth TLP carries sequence number 4 where NEXT_TRANSMIT_SEQ is 3 (its "
                  "LCRC right for 4)")


def v_window():
    link = Link(faults={("up", "dllp", k): "lost" for k in range(8)})
    for k in range(2047):
        link.run_to(k)
        assert link.tl("down", k)
    link.run_to(2100)
    assert not link.tl("down", 2047)          # the conforming end stalls (L48)
    data = bytes.fromhex(tlp(2047))
    link.put({"t": 2100, "dir": "down", "tlp": {"seq": 2047, "data": data.hex(),
                                                "lcrc": f"0x{M.lcrc(2047, data):08x}",
                                                "nullified": False}})
    link.run_to(2500)
    return link, ("every Ack of B lost: A has 2047 TLPs unacknowledged ((2047 - 4095) mod 4096 "
                  "= 2048, L48) and sends one more")


def v_no_retrain():
    # the fourth replay without progress falls due at 72,054: the first replay (on the Nak)
    # restarts REPLAY_TIMER at the last symbol of its 18-byte TLP (18), each later one 18 after
    # the expiry that caused it: 18 + 24,000 + 18 + 24,000 + 18 + 24,000
    link = _rollover_link(tamper={("down", "phy", 0): drop, ("down", "phy", 1): drop},
                          retrain_at=3 * 18 + 3 * 24000)
    return link, ("as ok_rollover, but A replays at once after the fourth replay without "
                  "progress: no retrain (its phy records removed)")


def _delay(dt):
    def f(rec):
        rec = dict(rec)
        rec["t"] += dt
        return [rec]
    return f


def v_replay_late_nak():
    link = Link(faults={("down", "tlp", 1): "corrupt"}, tamper={("down", "tlp", 2): drop})
    offer(link, [(0, "down", 0), (100, "down", 1), (200, "down", 2)])
    link.run_to(30000)
    return link, ("TLP 1 corrupted; B's Nak arrives at 100 but A does not replay (its replay is "
                  "removed) until REPLAY_TIMER expires at 24,118: later than the Nak + tolerance")


def _new_data(rec):
    rec = dict(rec)
    p = dict(rec["tlp"])
    data = bytes.fromhex(tlp(77))
    p["data"] = data.hex()
    p["lcrc"] = f"0x{M.lcrc(p['seq'], data):08x}"
    rec["tlp"] = p
    return [rec]


def v_replay_data():
    link = Link(faults={("down", "tlp", 1): "corrupt"}, tamper={("down", "tlp", 2): _new_data})
    offer(link, [(0, "down", 0), (100, "down", 1)])
    link.run_to(3000)
    return link, ("TLP 1 corrupted; A's replay of 1 carries other TLP bytes (with an LCRC right "
                  "for them): a replay must resend the original TLP (L100)")


def v_dup_unanswered():
    link = Link(faults={("up", "dllp", 0): "lost"}, tamper={("up", "dllp", 1): _delay(5000)})
    link.tl("down", 0)
    link.run_to(32000)
    return link, ("B's Ack lost; A's replay at 24,018 is a duplicate at B, which answers it only "
                  "5,000 later (an Ack is owed as soon as possible, L244)")


def v_missed_nak_oos():
    link = Link(faults={("down", "tlp", 1): "lost"}, tamper={("up", "dllp", 0): drop})
    offer(link, [(0, "down", 0), (100, "down", 1), (200, "down", 2)])
    link.run_to(30000)
    return link, ("TLP 1 lost: TLP 2 arrives out of sequence and B sends no Nak (its Nak "
                  "removed, L248-252)")


def v_accepted_lost():
    link = Link(faults={("down", "tlp", 1): "lost"}, tamper={("up", "dllp", 0): _as_ack(2)})
    offer(link, [(0, "down", 0), (100, "down", 1), (200, "down", 2)])
    link.run_to(3000)
    return link, ("TLP 1 lost; B acknowledges 2 (an Ack of 2 where its Nak was): it never "
                  "received TLP 1")


def v_null_seq():
    link = Link(tamper={("down", "tlp", 1): _reseq_null(5)})
    link.tl("down", 0)
    link.run_to(100)
    link.tl("down", 1, nullify=True)
    link.run_to(200)
    link.tl("down", 1)
    link.run_to(3000)
    return link, ("A nullifies a TLP that carries sequence number 5 where NEXT_TRANSMIT_SEQ is 1 "
                  "(its inverted LCRC right for 5)")


def _reseq_null(seq):
    return _reseq(seq, 0xFFFFFFFF)


def v_after_replay_order():
    link = Link(faults={("down", "tlp", 1): "lost"}, tamper={("down", "tlp", 4): _delay(2000)})
    offer(link, [(0, "down", 0), (100, "down", 1), (200, "down", 2), (300, "down", 3)])
    link.run_to(4000)
    link.records = [r for _, r in sorted(enumerate(link.records),
                                         key=lambda x: (x[1]["t"], x[0]))]
    return link, ("TLP 1 lost; in A's replay TLP 2 comes 2,000 late, after a new TLP 3 (A breaks "
                  "the replay); B acknowledges 3, which it received out of sequence (2 was not "
                  "there yet): TLP 3 was sent (line 7), so the Ack is an Ack of a TLP not "
                  "received in sequence, not of one never sent")


def v_ack_late():
    link = Link(tamper={("up", "dllp", 0): drop})
    link.tl("down", 0)
    link.run_to(30000)
    return link, ("B never acknowledges TLP 0 (its Ack removed) until A's replay at 24,018 "
                  "makes it a duplicate")


def v_both():
    link = Link(tamper={("down", "tlp", 2): _bad_lcrc, ("up", "dllp", 0): _bad_crc})
    offer(link, [(100 * k, "down", k) for k in range(4)])
    link.run_to(27000)
    return link, ("A transmits TLP 2 with a wrong LCRC and B answers with a Nak whose CRC is "
                  "wrong: one violation in each direction")


# -- the REPLAY_TIMER limit's range and the packets' last symbols ---------------------------

def big_tlp(i):
    """A 4-DW Memory Write of 1024 DW with a digest (Fmt/Type 60h, TD 1, Length 0 = 1024 DW,
    requester 0000h, tag i, byte enables FFh, address 1_0000_0000h): 16 + 4096 + 4 = 4116
    bytes, the largest TLP; 4122 bytes on the wire with its sequence number and LCRC."""
    head = bytes.fromhex(f"60008000 0000{i & 0xFF:02x}ff 00000001 00000000")
    return head + bytes(k & 0xFF for k in range(4096)) + bytes(4)


def ok_limit_30000():
    link = Link(faults={("up", "dllp", 0): "lost"}, limit=30000)
    link.tl("down", 0)
    link.run_to(35000)
    return link, ("A's REPLAY_TIMER limit is 30,000, inside the seed's 24,000-31,000 (L125): B's "
                  "Ack lost, A replays at 30,018 (30,000 after the last symbol of TLP 0); the "
                  "header gives the range, not one value (D-DLL-3)")


def ok_limit_31000():
    link = Link(faults={("up", "dllp", 0): "lost"}, limit=31000)
    offer(link, [(0, "down", 0), (100, "down", 1)])
    link.run_to(36000)
    return link, ("A's limit at the range's upper end, 31,000 (L125): B's Ack of 1 (covering 0 "
                  "and 1) lost, A replays both at 31,018")


def v_limit_pinned():
    h = dict(HEADER, replay_limit=30000)
    link = Link(faults={("up", "dllp", 0): "lost"}, header=h, limit=24500)
    link.tl("down", 0)
    link.run_to(30000)
    return link, ("the header pins the limit at 30,000 (\"replay_limit\": both ends of the range) "
                  "but A replays at 24,518, its REPLAY_TIMER at 24,500")


def ok_big_tlp_replay():
    link = Link(faults={("up", "dllp", 0): "lost"})
    link.tl("down", 0, data=big_tlp(0))
    link.run_to(32000)
    return link, ("a 4116-byte TLP (4122 symbol times on the wire), B's Ack lost: A's "
                  "REPLAY_TIMER starts at its last symbol (4,122, L33) and expires at 28,122")


def ok_big_tlp_ack():
    link = Link()
    link.tl("down", 0, data=big_tlp(0))
    link.run_to(8000)
    return link, ("a 4116-byte TLP: B's Ack latency runs from its last symbol received (4,122, "
                  "L295): the Ack at 5,122")


def v_big_tlp_ack_late():
    link = Link(tamper={("up", "dllp", 0): _delay(2001)})
    link.tl("down", 0, data=big_tlp(0))
    link.run_to(10000)
    return link, ("as ok_big_tlp_ack, B's Ack 2,001 later (7,123): past 4,122 + the Ack latency "
                  "limit 1,000 + tolerance 2,000")


def v_replay_from_first_symbol():
    link = Link(faults={("up", "dllp", 0): "lost"}, tamper={("down", "tlp", 1): _delay(-4122)})
    link.tl("down", 0, data=big_tlp(0))
    link.run_to(32000)
    return link, ("a 4116-byte TLP, B's Ack lost; A counts REPLAY_TIMER from the TLP's first "
                  "symbol and replays at 24,000: 19,878 after its last symbol (L33)")


def ok_x16_big_tlp():
    h = dict(HEADER, link_width=16)
    link = Link(faults={("up", "dllp", 0): "lost"}, header=h)
    link.tl("down", 0, data=big_tlp(0))
    link.run_to(30000)
    return link, ("16 lanes (\"link_width\": 16): the 4116-byte TLP lasts ceil(4122 / 16) = 258 "
                  "symbol times; B's Ack at 1,258 lost, A replays at 24,258")


def random_run(seed, corrupt=0.1, lost=0.03, duplicate=0.02, header=None, limit=None):
    """A conforming run with random traffic both ways and random link faults (the self-check
    asks the checker to find nothing in it); retrains when an end rolls REPLAY_NUM over. The
    ends' REPLAY_TIMER limit is `limit` (default: the lower end of the header's range)."""
    import random
    r = random.Random(seed)
    faults = {}
    for d in C.DIRS:
        for kind in ("tlp", "dllp"):
            for k in range(400):
                x = r.random()
                if x < corrupt:
                    faults[(d, kind, k)] = "corrupt"
                elif x < corrupt + lost:
                    faults[(d, kind, k)] = "lost"
                elif x < corrupt + lost + duplicate:
                    faults[(d, kind, k)] = "duplicate"
    link = Link(faults=faults, header=header, limit=limit)

    def retrains():
        for d in C.DIRS:
            if link.ends[d].retraining:
                link.run_to(link.now + r.choice([0, 100, 5000]))
                link.retrain_done(d)

    t = 0
    for i in range(r.randint(5, 40)):
        t += r.choice([0, 1, 10, 100, 300, 1000, 3000])
        d = r.choice(C.DIRS)
        link.run_to(t)
        retrains()
        link.tl(d, i if d == "down" else up_tlp(i), nullify=r.random() < 0.05)
    end = t + 120000
    while link.now < end:
        link.run_to(min(end, link.now + 5000))
        retrains()
    return link


# (script, intended first violation down, up)
TRACES = [
    (ok_clean, None, None),
    (ok_corrupt_tlp, None, None),
    (ok_lost_tlp, None, None),
    (ok_lost_ack, None, None),
    (ok_bad_dllp, None, None),
    (ok_nullified, None, None),
    (ok_rollover, None, None),
    (ok_both_ways, None, None),
    (ok_duplicate, None, None),
    (ok_es1, None, None),
    (ok_ack_during_replay, None, None),
    (ok_nullified_corrupt, None, None),
    (v_replay_late, "tx.replay_late", None),
    (v_replay_early, "tx.replay_early", None),
    (v_replay_order, "tx.replay_order", None),
    (v_ack_unsent, None, "rx.ack_unsent"),
    (v_accepted_bad, None, "rx.accepted_bad"),
    (v_missed_nak, None, "rx.missed_nak"),
    (v_ack_seq, None, "rx.ack_seq"),
    (v_dllp_crc, None, "dllp.crc"),
    (v_tx_lcrc, "tx.lcrc", None),
    (v_tx_seq, "tx.seq", None),
    (v_window, "tx.window", None),
    (v_no_retrain, "tx.no_retrain", None),
    (v_ack_late, None, "rx.ack_late"),
    (v_both, "tx.lcrc", "dllp.crc"),
    (v_replay_late_nak, "tx.replay_late", None),
    (v_replay_data, "tx.replay_order", None),
    (v_dup_unanswered, None, "rx.ack_late"),
    (v_missed_nak_oos, None, "rx.missed_nak"),
    (v_accepted_lost, None, "rx.accepted_bad"),
    (v_null_seq, "tx.seq", None),
    (v_after_replay_order, "tx.replay_order", "rx.accepted_bad"),
    (ok_limit_30000, None, None),
    (ok_limit_31000, None, None),
    (v_limit_pinned, "tx.replay_early", None),
    (ok_big_tlp_replay, None, None),
    (ok_big_tlp_ack, None, None),
    (v_big_tlp_ack_late, None, "rx.ack_late"),
    (v_replay_from_first_symbol, "tx.replay_early", None),
    (ok_x16_big_tlp, None, None),
]


README_HEAD = """# Example link traces for `nicref pcie check`

Traces of a PCIe link between two data link layer ends, in the trace format of
[docs/pcie.md](../../docs/pcie.md#trace-format-nicref-pcie-check-trace) (`nicref_dll_trace_v1`:
a header line, then one record per line; `down` is what end A transmitted, `up` what end B
transmitted). They are written by `vectors/pcie/gen/gen_traces.py` from an independent Python
model of PCI Express Base Specification §3.6 (seed 003; `vectors/pcie/gen/dll_model.py`), never
from nicref: two conforming ends joined by a link with no delay (a packet is received at the
instant it is transmitted, in file order), faults injected on the link (`"corrupt": true`: the
receiver sees a bad LCRC or CRC; `"lost": true`: it sees nothing; `"duplicate": true`: a
second copy only the receiver sees). The `ok_*` traces are what
two conforming ends transmit; each `v_*` trace is such a run with one end's transmissions changed
on purpose (a record removed, altered or added) so that it breaks the rule named below.

`expected.json` gives each trace's verdict per direction: `"ok"`, or the first violation's rule,
its citation, `t` (the instant: for a missed deadline, the deadline) and `line` (the line, 1 =
the header, at which the checker sees it: the record itself, or for a missed deadline the first
record past it), with `cause_line` (the record that opened the obligation: the TLP that started
REPLAY_TIMER, the bad TLP that owed a Nak, the delivered TLP that owed an Ack). The generator
refuses to write a trace whose verdict under its own checker is not the one the script intends.

    build/gcc/nicref pcie check examples/pcie/v_missed_nak.jsonl     # up: rx.missed_nak ...
    /usr/bin/python3 vectors/pcie/gen/gen_traces.py [--check]        # rewrite (or compare)

Header of every trace (unless its row says otherwise): `ack_latency_limit` 1000,
`extended_synch` 0, `tolerance` 2000, `delay` 0, and the defaults for the rest: the REPLAY_TIMER
limit's range 24000-31000 (the seed's, L125) and one symbol time per byte on one lane. A packet
of n bytes (with its sequence number and LCRC: an 18-byte 3-DW Memory Read request, a 4122-byte
Memory Write of 1024 DW with digest, a 6-byte DLLP) lasts n symbol times from its record's `t`,
and the timers start at its last symbol (D-DLL-22); the ends' REPLAY_TIMER limit is 24000
unless the row says otherwise. The generator's link does not pace the packets of one direction:
they may overlap in time.

"""

README_TAIL = """
Readings the verdicts rest on (the checker of `trace_checker.py`):
- A retransmission is a TLP whose sequence number is unacknowledged (or is the next of the
  replay in progress: a TLP acknowledged while a replay runs may still be sent, L106). A replay
  needs a cause: a Nak received since the previous replay began, or REPLAY_TIMER at the lower
  end of the header's range (L123-125); it starts at the oldest unacknowledged TLP (L100). One
  owed to REPLAY_TIMER is late past the range's upper end and the tolerance.
- Every obligation counts from the last symbol of the packet that opens it: REPLAY_TIMER from
  the TLP sent (L33, L34, L102) or the Ack received (L35, L134), the Ack latency and a Nak or an
  Ack owed from the TLP received (L295).
- An Ack or Nak whose sequence number is not the sender's NEXT_RCV_SEQ − 1 is, in this order:
  `rx.accepted_bad` when it covers a TLP the sender received bad, lost or out of sequence;
  `rx.ack_unsent` when the other end has not sent it (neither its ACKD_SEQ nor
  unacknowledged); `rx.ack_seq` otherwise.
- The receiver rules are judged from what the end transmits whether or not the link then loses
  it (a lost Ack still answers the obligation to acknowledge); the transmitter rules from what
  the end receives (a lost or corrupted DLLP does not reach it).
- A retransmission whose TLP bytes differ from the original's is `tx.replay_order` (L100: the
  original TLP is replayed), even when its LCRC is right for the bytes sent; its LCRC is judged
  (`tx.lcrc`: not the original's) only when the bytes are the original's.
- `rx.ack_late` is not judged while the end's NAK_SCHEDULED is 1 (docs/pcie.md); a Nak whose
  sequence number is NEXT_RCV_SEQ − 1 answers it as an Ack does.
"""


def readme(expected):
    rows = []
    for name, v in expected.items():
        verdict = " / ".join(
            f"{d}: " + ("ok" if v[d] == "ok" else f"`{v[d]['rule']}` (t {v[d]['t']}, line "
                                                   f"{v[d]['line']})") for d in C.DIRS)
        rows.append(f"| `{name}` | {v['shows']} | {verdict} |")
    return (README_HEAD + "| trace | what it shows | verdict |\n|---|---|---|\n"
            + "\n".join(rows) + "\n" + README_TAIL)


def build():
    """{file name: text}, plus expected.json and README.md."""
    files, expected = {}, {}
    for script, want_down, want_up in TRACES:
        link, what = script()
        text = link.text()
        name = script.__name__ + ".jsonl"
        verdict = C.check_trace(text.splitlines())
        entry = {"shows": what}
        for d, want in (("down", want_down), ("up", want_up)):
            v = verdict[d]
            got = v[0] if v else None
            if got != want:
                raise AssertionError(f"{name}: {d}: the checker finds {v}, the script intends "
                                     f"{want}")
            if v is None:
                entry[d] = "ok"
            else:
                rule, t, line, cause, msg = v
                entry[d] = {"rule": rule, "cite": C.RULE_CITES[rule], "t": t, "line": line,
                            "cause_line": cause}
        files[name] = text
        expected[name] = entry
    files["expected.json"] = json.dumps(expected, indent=1, ensure_ascii=False) + "\n"
    files["README.md"] = readme(expected)
    return files


def main(argv):
    check = "--check" in argv
    bad = 0
    files = build()
    if not check:
        os.makedirs(OUT, exist_ok=True)
    for name, text in sorted(files.items()):
        path = os.path.join(OUT, name)
        if check:
            try:
                with open(path, encoding="utf-8") as fh:
                    same = fh.read() == text
            except OSError:
                same = False
            if not same:
                print(f"gen_traces: {path} differs from the generator's output", file=sys.stderr)
                bad = 1
        else:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""Self-check of the PCIe data link layer vector generator and its model.

    /usr/bin/python3 vectors/pcie/gen/test_gen_pcie.py      (or: python3 -m pytest vectors/pcie/gen)

1. CRCs: the LCRC's two implementations (bit-serial from the seed's text, zlib.crc32) and a
   third, polynomial long division over GF(2) written out here, agree; the published CRC-32
   check value (CRC of "123456789" = CBF43926h) and residue (DEBB20E3h); the DLLP CRC's
   bit-serial and reflected forms and the long division agree on every Ack and Nak body, and
   its residue is constant (556Fh, the value a public implementation, cocotbext-pcie, checks).
2. Sequence arithmetic: the mod-4096 distance, the 2048 window (2047 outstanding at most), the
   duplicate window (NEXT_RCV_SEQ - seq) mod 4096 <= 2048.
3. Hand-computed cases run on the model: each expectation written here from the seed's lines,
   not from the model.
4. The vectors can fail: run by a small runner on the model they all pass, and each of 17
   plausible mistakes (mutants of the model: the window off by one, the duplicate window's
   edge, the Ack's sequence number, the LCRC's byte order, ...) fails at least one.
5. The files on disk are the generator's output; each obeys the file rules of docs/vectors.md
   (numberOfTests, unique tcIds, a cite naming seed 003 and a line inside it, acceptable tests
   with a matcher admitting two values or a PROFILE flag naming a D-DLL decision, valid tests
   with neither); a comment's sequence arithmetic holds; every rule of RULES has a
   test; the example traces (examples/pcie) are the trace generator's output and their
   verdicts stand, and random conforming runs (the ends' REPLAY_TIMER limit at either end of
   the seed's range, packets of several lengths) are judged conforming.
"""
import json
import os
import re
import sys
import unittest
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)

import dll_model as M  # noqa: E402
import trace_checker as C  # noqa: E402
import gen_pcie as G  # noqa: E402
import vecfmt  # noqa: E402

SEED_LINES = 308


def gf2_crc(data, width, poly, init):
    """CRC as polynomial arithmetic: the message's bits in transmission order (byte 0 bit 0
    first, L63), the first `width` bits inverted (the all-ones seed), times x^width, modulo
    the generator polynomial x^width + poly; then complemented. Returns the remainder with
    bit width-1 the coefficient of x^(width-1)."""
    bits = []
    for byte in data:
        for i in range(8):
            bits.append(byte >> i & 1)
    for i in range(min(width, len(bits))):
        bits[i] ^= init >> (width - 1 - i) & 1
    m = 0
    for b in bits:
        m = m << 1 | b
    m <<= width
    gen = 1 << width | poly
    for shift in range(m.bit_length() - 1, width - 1, -1):
        if m >> shift & 1:
            m ^= gen << (shift - width)
    return m ^ ((1 << width) - 1)


def field(rem, width):
    """D-DLL-2's mapping: remainder bit width-1 is field bit 0 of byte 0, and so on."""
    out = bytearray(width // 8)
    for k in range(width // 8):
        for j in range(8):
            if rem >> (width - 1 - (8 * k + j)) & 1:
                out[k] |= 1 << j
    return int.from_bytes(out, "little")


def prng(seed):
    x = seed
    while True:
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        yield x >> 33


class Crc(unittest.TestCase):
    def test_check_value(self):
        self.assertEqual(M.lcrc_bitwise(b"123456789"), 0xCBF43926)
        self.assertEqual(M.lcrc_zlib(b"123456789"), 0xCBF43926)

    def test_three_lcrcs_agree(self):
        r = prng(1)
        for n in list(range(0, 20)) + [64, 255, 1030]:
            data = bytes(next(r) & 0xFF for _ in range(n))
            if n < 4:
                continue   # the seed inversion covers the first 32 bits: TLP data is longer
            a = M.lcrc_bitwise(data)
            self.assertEqual(a, M.lcrc_zlib(data), data.hex())
            self.assertEqual(a, field(gf2_crc(data, 32, M.LCRC_POLY, 0xFFFFFFFF), 32), data.hex())

    def test_residue(self):
        for i in range(50):
            tlp = bytes.fromhex(G.tlp(i))
            data = M.seq_header(i * 37 % 4096) + tlp
            c = M.lcrc(i * 37 % 4096, tlp)
            self.assertEqual(M.lcrc_residue(data + c.to_bytes(4, "little")), M.LCRC_RESIDUE)

    def test_hand_lcrc(self):
        # the sequence header of seq 0 and the TLP 00000001 0000000f 10000000: 14 bytes
        data = bytes.fromhex("0000" "000000010000000f10000000")
        self.assertEqual(M.lcrc(0, bytes.fromhex(G.tlp(0))), zlib.crc32(data))
        # sequence 0xABC: byte 0 = 0000b | Ah, byte 1 = BCh (L46-L47, Figure 3-15)
        self.assertEqual(M.seq_header(0xABC), bytes([0x0A, 0xBC]))
        self.assertEqual(M.seq_header(0xABC, reserved=5), bytes([0x5A, 0xBC]))
        # the nullified value is the uncomplemented remainder: the inverse of the LCRC (L76)
        rem = M.lcrc_register_bitwise(data)
        self.assertEqual(field(rem ^ 0xFFFFFFFF, 32) ^ 0xFFFFFFFF, field(rem, 32))

    def test_dllp_crc(self):
        residues = set()
        for dtype in (M.DLLP_ACK, M.DLLP_NAK):
            for seq in range(4096):
                body = M.dllp_body(dtype, seq)
                a = M.dllp_crc_bitwise(body)
                self.assertEqual(a, M.dllp_crc_reflected(body))
                if seq % 97 == 0:
                    self.assertEqual(a, field(gf2_crc(body, 16, M.DLLP_POLY, 0xFFFF), 16))
                residues.add(M.dllp_residue(body + a.to_bytes(2, "little")))
        self.assertEqual(residues, {0x556F})

    def test_dllp_body(self):
        self.assertEqual(M.dllp_body(M.DLLP_NAK, 0xABC), bytes([0x10, 0x00, 0x0A, 0xBC]))
        self.assertEqual(M.dllp_body(M.DLLP_ACK, 1, reserved=0xFFF), bytes([0, 0xFF, 0xF0, 1]))


class Arithmetic(unittest.TestCase):
    def test_distance(self):
        self.assertEqual(M.d(0, 4095), 1)
        self.assertEqual(M.d(4095, 0), 4095)
        self.assertEqual(M.d(0, 2048), 2048)
        self.assertEqual(M.d(0, 2047), 2049)

    def test_window(self):
        e = M.DllEnd()
        for k in range(2047):
            e.tl_send(bytes.fromhex(G.tlp(k)))
            self.assertFalse(e.tl_stalled)
        self.assertEqual(e.next_transmit_seq, 2047)
        e.tl_send(bytes.fromhex(G.tlp(0)))     # (2047 - 4095) mod 4096 = 2048 >= 2048 (L48)
        self.assertTrue(e.tl_stalled)
        self.assertEqual(len(e.retry), 2047)
        self.assertEqual(e.take()[2], [])       # D-DLL-1: no error

    def test_duplicate_window(self):
        for nrs, seq, dup in ((0, 2048, True), (0, 2047, False), (10, 4058, True),
                              (10, 9, True), (10, 11, False), (2048, 0, True), (2048, 4095, False)):
            e = M.DllEnd()
            e.next_rcv_seq = nrs
            tlp = bytes.fromhex(G.tlp(1))
            e.rx_tlp(seq, tlp, M.lcrc(seq, tlp))
            sent, _, errors = e.take()
            kind = sent[0]["dllp"]["type"]
            self.assertEqual(kind, "ack" if dup else "nak", (nrs, seq))
            self.assertEqual(errors, [] if dup else ["bad_tlp"])
            self.assertEqual(sent[0]["dllp"]["seq"], (nrs - 1) % 4096)   # L293


class Hand(unittest.TestCase):
    """Cases worked out by hand from the seed."""

    def test_nak_replays_all(self):
        e = M.DllEnd()
        for k in range(3):
            e.tl_send(bytes.fromhex(G.tlp(k)))
        e.take()
        e.rx_dllp(M.DLLP_NAK, 0)            # acknowledges 0 (L164), replays 1, 2 (L100)
        sent, _, errors = e.take()
        self.assertEqual([s["tlp"]["seq"] for s in sent], [1, 2])
        self.assertTrue(all(s["tlp"]["replay"] for s in sent))
        self.assertEqual(errors, [])        # L173
        self.assertEqual(e.ackd_seq, 0)

    def test_rollover_on_fourth(self):
        e = M.DllEnd()
        e.tl_send(bytes.fromhex(G.tlp(0)))
        for k in range(3):
            e.rx_dllp(M.DLLP_NAK, 0xFFF)
            self.assertEqual(e.replay_num, k + 1)
        e.take()
        e.rx_dllp(M.DLLP_NAK, 0xFFF)
        sent, _, errors = e.take()
        self.assertEqual((sent, errors, e.retraining), ([], ["replay_num_rollover"], True))
        e.advance(10 ** 6)                 # L38: no expiry while retraining
        self.assertEqual(e.take(), ([], [], []))
        e.retrain_done()
        self.assertEqual([s["tlp"]["seq"] for s in e.take()[0]], [0])

    def test_timer_window(self):
        for limit in (24000, 31000):
            e = M.DllEnd(M.Params(replay_limit=limit))
            e.tl_send(bytes.fromhex(G.tlp(0)))
            e.take()
            e.advance(23999)
            self.assertEqual(e.take(), ([], [], []))
            e.advance(31001 - 23999)
            sent, _, errors = e.take()
            self.assertEqual(errors, ["replay_timer_timeout"])
            self.assertEqual(len(sent), 1)

    def test_ack_latency(self):
        e = M.DllEnd(M.Params(ack_latency_limit=1000))
        tlp = bytes.fromhex(G.tlp(0))
        e.rx_tlp(0, tlp, M.lcrc(0, tlp))
        e.advance(999)
        self.assertEqual(e.take()[0], [])
        e.advance(1)                       # L278: reaches the limit
        self.assertEqual(e.take()[0], [{"dllp": {"type": "ack", "seq": 0, "crc": 0x62B3}}])

    def test_invalid_ack(self):
        e = M.DllEnd()
        e.tl_send(bytes.fromhex(G.tlp(0)))
        e.rx_dllp(M.DLLP_ACK, 1)           # never sent: L158-L159
        self.assertEqual(e.take()[2], ["dl_protocol_error"])
        self.assertEqual(e.ackd_seq, 0xFFF)


class Files(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.vfs = G.build()

    def test_files_are_output(self):
        for vf in self.vfs:
            with open(os.path.join(ROOT, "vectors", "pcie", vf.name), encoding="utf-8") as fh:
                self.assertEqual(fh.read(), vecfmt.dump(vf.doc()), vf.name)

    def test_file_rules(self):
        for vf in self.vfs:
            doc = json.loads(vecfmt.dump(vf.doc()))
            tests = [t for g in doc["testGroups"] for t in g["tests"]]
            self.assertEqual(doc["numberOfTests"], len(tests))
            ids = [t["tcId"] for t in tests]
            self.assertEqual(len(ids), len(set(ids)))
            for t in tests:
                lines = [int(x) for x in re.findall(r"L(\d+)", t["cite"])]
                self.assertTrue(lines and "seed 003" in t["cite"], t["cite"])
                self.assertTrue(all(1 <= n <= SEED_LINES for n in lines), t["cite"])
                # the language has no any_of (docs/pcie.md): an open point is a matcher or
                # a PROFILE flag naming a D-DLL decision (docs/vectors.md, result)
                self.assertNotIn("any_of", json.dumps(t["steps"]))
                matchers = re.findall(r'\{"in": \[[^]]*\]\}', json.dumps(t["steps"]))
                profile = [f for f in t["flags"] if doc["notes"][f]["bugType"] == "PROFILE"]
                if t["result"] == "acceptable":
                    self.assertTrue(matchers or profile, t["comment"])
                    for m in matchers:
                        self.assertGreaterEqual(len(json.loads(m)["in"]), 2)
                    for f in profile:
                        self.assertRegex(doc["notes"][f]["description"], r"D-DLL-\d+")
                else:
                    self.assertEqual(t["result"], "valid")
                    self.assertEqual((matchers, profile), ([], []))
                for f in t["flags"]:
                    self.assertIn(f, doc["notes"])

    def test_comment_arithmetic(self):
        """A comment's sequence arithmetic holds: "(a - b) mod 4096 = c" is (a - b) mod 4096,
        a comparison after it ("<= 2048") is true, and a TLP it calls a duplicate lies within
        2048 behind NEXT_RCV_SEQ (L243), one out of sequence beyond (L246)."""
        pat = re.compile(r"\((\d+) - (\d+)\) mod 4096 = (\d+)(?:\s*(<=|>=|<|>)\s*(\d+))?")
        ops = {"<=": lambda x, y: x <= y, ">=": lambda x, y: x >= y,
               "<": lambda x, y: x < y, ">": lambda x, y: x > y}
        seen = 0
        for vf in self.vfs:
            doc = json.loads(vecfmt.dump(vf.doc()))
            for t in (t for g in doc["testGroups"] for t in g["tests"]):
                for m in pat.finditer(t["comment"]):
                    a, b, c = (int(m.group(k)) for k in (1, 2, 3))
                    where = f"{vf.name} tcId {t['tcId']}: {m.group(0)}"
                    self.assertEqual((a - b) % 4096, c, where)
                    if m.group(4):
                        self.assertTrue(ops[m.group(4)](c, int(m.group(5))), where)
                    before = t["comment"][max(0, m.start() - 20):m.start()]
                    after = t["comment"][m.end():m.end() + 20]
                    if "duplicate" in before + after:
                        self.assertLessEqual(c, 2048, where)
                    if "out of sequence" in before + after:
                        self.assertGreater(c, 2048, where)
                    seen += 1
        self.assertGreater(seen, 5)

    def test_rules_covered(self):
        cov = {}
        for vf in self.vfs:
            for r, ids in vf.rules.items():
                cov.setdefault(r, []).extend(ids)
        self.assertEqual(set(cov), set(G.RULES))


# -- the vectors can fail: a small runner of the files on the model, and mutants of the model

def _matches(want, got):
    if isinstance(want, dict) and "in" in want and len(want) == 1:
        return got in want["in"]
    return want == got


def _sent_matches(want, got):
    if len(want) != len(got):
        return False
    for w, g in zip(want, got):
        (kind, wv), = w.items()
        if kind not in g:
            return False
        if any(g[kind].get(k) != v for k, v in wv.items()):
            return False
    return True


def run_file(doc, end_class=M.DllEnd, first=False):
    """The tcIds whose expectations the model (end_class) does not meet (first: stop at the
    first)."""
    failed = []
    for grp in doc["testGroups"]:
        setup = grp["setup"][0]["dll"]
        for t in grp["tests"]:
            p = M.Params(ack_latency_limit=setup.get("ack_latency_limit", 1000),
                         replay_limit=setup.get("replay_limit", 24000),
                         extended_synch=setup.get("extended_synch", 0))
            o = M.Options(ack_before_replay=setup.get("priority", "recommended") == "recommended")
            end = end_class(p, o)
            ok = True
            for st in t["steps"]:
                if "expect" not in st:
                    M.run_steps(end, [st])
                    continue
                exp = st["expect"]
                sent, delivered, errors = end.take()
                got_sent = vecfmt._render_sent(sent)
                if "sent" in exp and not _sent_matches(exp["sent"], got_sent):
                    ok = False
                if "delivered" in exp and exp["delivered"] != delivered:
                    ok = False
                if "errors" in exp and exp["errors"] != errors:
                    ok = False
                if "tl_stalled" in exp and exp["tl_stalled"] != end.tl_stalled:
                    ok = False
                st_now = end.state()
                for k, v in exp.get("state", {}).items():
                    if not _matches(v, st_now[k]):
                        ok = False
            if not ok:
                failed.append(t["tcId"])
                if first:
                    return failed
    return failed


def _mutants():
    """(name, DllEnd subclass or a patch of the module) of plausible implementation mistakes."""
    out = []

    def sub(name, **methods):
        out.append((name, type("Mut", (M.DllEnd,), methods), None))

    def patch(name, attr, value):
        out.append((name, M.DllEnd, (attr, value)))

    def window_2047(self, tlp, nullify=False):
        if M.d(self.next_transmit_seq, self.ackd_seq) >= 2047 and not self.retraining:
            self.tl_stalled = True
            return
        M.DllEnd.tl_send(self, tlp, nullify)
    sub("window stalls at 2047 (>= 2047)", tl_send=window_2047)

    def null_advances(self, tlp, nullify=False):
        M.DllEnd.tl_send(self, tlp, nullify)
        if nullify and not self.tl_stalled:
            self.next_transmit_seq = (self.next_transmit_seq + 1) % 4096
    sub("a nullified TLP advances NEXT_TRANSMIT_SEQ", tl_send=null_advances)

    def no_reset(self, dtype, seq, crc_ok=True, reserved=0, phy_error=False):
        before = self.replay_num
        M.DllEnd.rx_dllp(self, dtype, seq, crc_ok, reserved, phy_error)
        if dtype == M.DLLP_ACK and self.replay_num == 0 and before:
            self.replay_num = before
    sub("REPLAY_NUM not reset by an Ack with progress", rx_dllp=no_reset)

    def lenient(self, dtype, seq, crc_ok=True, reserved=0, phy_error=False):
        M.DllEnd.rx_dllp(self, dtype, seq, crc_ok, reserved, phy_error)
        if self.errors and self.errors[-1] == "dl_protocol_error":
            self.errors.pop()
    sub("an invalid AckNak_Seq_Num not reported", rx_dllp=lenient)

    def ack_nrs(self, dtype):
        self.next_rcv_seq = (self.next_rcv_seq + 1) % 4096
        M.DllEnd._send_dllp(self, dtype)
        self.next_rcv_seq = (self.next_rcv_seq - 1) % 4096
    sub("Ack/Nak carry NEXT_RCV_SEQ, not NEXT_RCV_SEQ - 1", _send_dllp=ack_nrs)

    def nak_always(self):
        self.nak_scheduled = 1
        self._send_dllp(M.DLLP_NAK)
    sub("a Nak even when NAK_SCHEDULED is 1", _schedule_nak=nak_always)

    def no_bad_tlp(self):
        self._schedule_nak()
    sub("Bad TLP not reported for an LCRC error", _bad_tlp=no_bad_tlp)

    def replay_first_only(self, entries):
        M.DllEnd._retransmit(self, entries[:1])
    sub("a replay sends only the oldest TLP", _retransmit=replay_first_only)

    def replay_newest_first(self, entries):
        M.DllEnd._retransmit(self, list(reversed(entries)))
    sub("a replay in reverse order", _retransmit=replay_newest_first)

    def timer_every_tlp(self, tlp):
        self._timer_restart(True, M.SEQHDR_BYTES + len(tlp) + M.LCRC_BYTES)
    sub("REPLAY_TIMER restarted by every TLP", _start_timer_if_stopped=timer_every_tlp)

    def advance_in_retrain(self, symbols):
        if not self.retraining:
            return M.DllEnd.advance(self, symbols)
        self.retraining = False
        self.replay_timer_running = True
        M.DllEnd.advance(self, symbols)
        self.retraining = True
    sub("REPLAY_TIMER runs (and expires) during the retrain", advance=advance_in_retrain)

    def dup_lt(self, seq, tlp, crc, edb=False, phy_error=False, reserved=0):
        if (not phy_error and not edb and seq != self.next_rcv_seq
                and M.d(self.next_rcv_seq, seq) == 2048 and crc == M.lcrc(seq, tlp, reserved)):
            self._schedule_nak()
            self.errors.append("bad_tlp")
            return
        M.DllEnd.rx_tlp(self, seq, tlp, crc, edb, phy_error, reserved)
    sub("duplicate window (NEXT_RCV_SEQ - seq) mod 4096 < 2048", rx_tlp=dup_lt)

    def rollover_at_3(self, cause_timer, increment=True):
        if increment and self.replay_num == 2 and self.retry:
            self.replay_num = 3
        M.DllEnd._replay(self, cause_timer, increment)
    sub("REPLAY_NUM rolls over after three replays", _replay=rollover_at_3)

    def lat_restart(self, seq, tlp, crc, edb=False, phy_error=False, reserved=0):
        n = len(self.delivered)
        M.DllEnd.rx_tlp(self, seq, tlp, crc, edb, phy_error, reserved)
        if len(self.delivered) > n and self.unacked_rx:
            self.acknak_latency_timer = 0
    sub("AckNak_LATENCY_TIMER restarted by every delivered TLP", rx_tlp=lat_restart)

    def lcrc_be(seq, tlp, reserved=0):
        v = M.HARNESS_LCRC(seq, tlp, reserved)
        return int.from_bytes(v.to_bytes(4, "little"), "big")
    out.append(("LCRC bytes big-endian", M.DllEnd, ("lcrc", lcrc_be)))

    def dllp_nocomp(body):
        return M.HARNESS_DLLP_CRC(body) ^ 0xFFFF
    out.append(("DLLP CRC not complemented", M.DllEnd, ("dllp_crc", dllp_nocomp)))

    def seq_swapped(seq, tlp, reserved=0):
        return M.lcrc_zlib(bytes([seq & 0xFF, (reserved & 0xF) << 4 | seq >> 8]) + bytes(tlp))
    out.append(("sequence header bytes swapped", M.DllEnd, ("lcrc", seq_swapped)))
    return out


class Mutants(unittest.TestCase):
    """Every vector passes on the model; each plausible mistake fails at least one."""

    @classmethod
    def setUpClass(cls):
        cls.docs = [json.loads(vecfmt.dump(vf.doc())) for vf in G.build()]

    def run_all(self, cls, first=False):
        failed = []
        for doc in sorted(self.docs, key=lambda d: len(json.dumps(d))):
            failed += run_file(doc, cls, first)
            if failed and first:
                break
        return failed

    def test_model_passes(self):
        self.assertEqual(self.run_all(M.DllEnd), [])

    def test_mutants_fail(self):
        for name, cls, patch in _mutants():
            saved = None
            if patch:
                saved = getattr(M, patch[0])
                setattr(M, patch[0], patch[1])
            try:
                failed = self.run_all(cls, first=True)
            finally:
                if patch:
                    setattr(M, patch[0], saved)
            self.assertTrue(failed, f"no vector fails the mutant: {name}")


class Traces(unittest.TestCase):
    def test_traces(self):
        import gen_traces
        self.assertEqual(gen_traces.main(["--check"]), 0)

    def test_random_conforming_runs(self):
        """Two conforming ends under random traffic and link faults (corrupted and lost
        packets, retrains): the checker finds no violation in either direction."""
        import gen_traces
        retrains = 0
        for seed in range(40):
            link = gen_traces.random_run(seed, corrupt=0.05 + 0.25 * (seed % 3) / 2)
            text = link.text()
            retrains += text.count("retrain_done")
            ts = [json.loads(x)["t"] for x in text.splitlines()[1:]]
            self.assertEqual(ts, sorted(ts))
            v = C.check_trace(text.splitlines())
            self.assertEqual(v, {"down": None, "up": None}, f"seed {seed}")
        self.assertGreater(retrains, 0)

    def test_random_runs_across_the_limit_range_and_packet_lengths(self):
        """The same with the ends' REPLAY_TIMER limit at either end of the seed's range
        (L125: a device may use any, D-DLL-3) and packets lasting 2 symbol times a byte, or
        a quarter on four lanes (D-DLL-22): still no violation."""
        import gen_traces
        for seed in range(12):
            h = dict(gen_traces.HEADER, **[{}, {"symbol_cost": 2}, {"link_width": 4}][seed % 3])
            link = gen_traces.random_run(seed, corrupt=0.2, header=h,
                                         limit=(24000, 31000)[seed % 2])
            v = C.check_trace(link.text().splitlines())
            self.assertEqual(v, {"down": None, "up": None}, f"seed {seed}")


if __name__ == "__main__":
    unittest.main(verbosity=1)

#!/usr/bin/python3
"""Self-test of corpora/captures/ (run: /usr/bin/python3 corpora/captures/test_gen_captures.py).

1. gen_captures.py, run into a temporary directory, writes files byte-identical to the
   committed ones (the captures and expected.json).
2. tshark (Wireshark's reader and dissectors, independent of both this generator's bookkeeping
   and nicref) reads every capture it can:
   - `tshark -r F -q -z expert` reports no Error-severity item (a malformed packet is one),
     except in malformed.pcap, where only the malformed frames may carry errors or warnings;
   - it counts as many frames as expected.json's summary says;
   - the RoCE frames it dissects (a BTH with opcode and DestQP) add up, by opcode class, to
     the summary's classes (rc, uc, ud, xrc, cnp, cm_mad, vendor);
   - per expected flow (src, dst, qp): the number of RC request frames and of retransmissions
     (a PSN seen before) equals expected.json's; the ACKs / read responses to ack_qp exist;
     every retransmission's gap from the previous transmission of its PSN is the classic
     timer 4.096 us x 2^timeout within 1 us for a conforming flow, and at least one is not
     for a non-conforming one;
   - every CM ConnectRequest / ConnectReply, as Wireshark's CM dissector decodes it, names
     (local QPN, starting PSN) of its sender: the QPN is the ack_qp of an expected flow from
     that sender whose first request carries that PSN, or (a side that only responds) the qp
     of an expected flow to it.
Exit status 0 when everything holds, 1 otherwise (unittest).
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GEN = os.path.join(HERE, "gen_captures.py")

with open(os.path.join(HERE, "expected.json")) as fh:
    EXPECTED = json.load(fh)

REQ_OPS = set(range(0x00, 0x0D)) | {0x13, 0x14, 0x15, 0x16, 0x17}   # RC requests
RESP_OPS = {0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12}                       # RC responses


def opclass(op, dqp):
    if dqp == 1:
        return "cm_mad"
    if op == 0x81:
        return "cnp"
    for lo, name in ((0x00, "rc"), (0x20, "uc"), (0x40, "rd"), (0x60, "ud"), (0x80, "reserved"),
                     (0xA0, "xrc"), (0xC0, "vendor")):
        if lo <= op < lo + (0x40 if name == "vendor" else 0x20):
            return name
    raise AssertionError(op)


def tshark(*args):
    r = subprocess.run(["tshark"] + list(args), capture_output=True, text=True)
    return r.stdout


def fields(path, *names, flt=None):
    args = ["-r", path, "-T", "fields", "-E", "occurrence=f"]
    if flt:
        args += ["-Y", flt]
    for n in names:
        args += ["-e", n]
    rows = []
    for line in tshark(*args).splitlines():
        rows.append(line.split("\t"))
    return rows


def captures():
    return [c for c in EXPECTED["captures"]]


class Regenerate(unittest.TestCase):
    def test_byte_identical(self):
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, GEN, tmp], check=True)
            made = sorted(os.listdir(tmp))
            self.assertIn("expected.json", made)
            committed = sorted(f for f in os.listdir(HERE)
                               if f.endswith((".pcap", ".pcapng")) or f == "expected.json")
            self.assertEqual(made, committed)
            for name in made:
                with open(os.path.join(tmp, name), "rb") as a, \
                        open(os.path.join(HERE, name), "rb") as b:
                    self.assertEqual(a.read(), b.read(), name)

    def test_every_capture_listed_once(self):
        files = [c["file"] for c in captures()]
        self.assertEqual(len(files), len(set(files)))
        for f in files:
            self.assertTrue(os.path.exists(os.path.join(ROOT, f)), f)


class Tshark(unittest.TestCase):
    def path(self, c):
        return os.path.join(ROOT, c["file"])

    def test_expert_info(self):
        for c in captures():
            with self.subTest(c["file"]):
                p = self.path(c)
                out = tshark("-r", p, "-q", "-z", "expert")
                if c["file"].endswith("malformed.pcap"):
                    bad = fields(p, "frame.number",
                                 flt="_ws.expert.severity >= \"Warning\" && !tcp")
                    self.assertLessEqual(len(bad), c["summary"]["classes"]["malformed"], out)
                    self.assertGreater(len(bad), 0)
                else:
                    self.assertNotIn("Errors (", out, out)
                    self.assertNotIn("Malformed", out, out)
                    # Wireshark's InfiniBand dissector writes "Invalid Packet Length from
                    # LRH! [Malformed Packet]" in the Info column of a RoCE frame cut by the
                    # snapshot length (not in the expert info); any other frame is clean
                    for n, wire, cap, info in fields(p, "frame.number", "frame.len",
                                                     "frame.cap_len", "_ws.col.Info"):
                        if "Malformed" in info:
                            self.assertLess(int(cap), int(wire), (n, info))

    def test_frames_and_classes(self):
        for c in captures():
            if "summary" not in c or c["file"].endswith("malformed.pcap"):
                continue
            with self.subTest(c["file"]):
                p = self.path(c)
                rows = fields(p, "frame.number", "infiniband.bth.opcode",
                              "infiniband.bth.destqp")
                self.assertEqual(len(rows), c["summary"]["frames"])
                got = {}
                for _, op, dqp in rows:
                    if op and dqp:
                        k = opclass(int(op, 0), int(dqp, 0))
                        got[k] = got.get(k, 0) + 1
                want = {k: v for k, v in c["summary"]["classes"].items()
                        if v and k not in ("cut", "malformed", "not_roce")}
                self.assertEqual(got, want)
                self.assertEqual(sum(got.values()),
                                 c["summary"]["roce_v1"] + c["summary"]["roce_v2"])

    def flow_rows(self, p):
        rows = fields(p, "frame.time_epoch", "ip.src", "ip.dst", "ipv6.src", "ipv6.dst",
                      "infiniband.grh.sgid", "infiniband.grh.dgid", "infiniband.bth.opcode",
                      "infiniband.bth.destqp", "infiniband.bth.psn", flt="infiniband.bth")
        out = []
        for t, s4, d4, s6, d6, sg, dg, op, dqp, psn in rows:
            if not (op and dqp and psn):
                continue
            src, dst = (s4, d4) if s4 else (s6, d6) if s6 else (sg, dg)
            sec, _, frac = t.partition(".")
            ns = int(sec) * 10**9 + int((frac + "000000000")[:9])
            out.append((ns, src, dst, int(op, 0), int(dqp, 0), int(psn, 0)))
        return out

    def test_flows(self):
        for c in captures():
            if "flows" not in c:
                continue
            with self.subTest(c["file"]):
                timeout = int(c["args"][c["args"].index("--timeout") + 1])
                period = 4096 << timeout
                rows = self.flow_rows(self.path(c))
                for fl in c["flows"]:
                    reqs = [r for r in rows if r[1] == fl["src"] and r[2] == fl["dst"] and
                            r[4] == fl["qp"] and r[3] in REQ_OPS]
                    acks = [r for r in rows if r[1] == fl["dst"] and r[2] == fl["src"] and
                            r[4] == fl["ack_qp"] and r[3] in RESP_OPS]
                    self.assertEqual(len(reqs), fl["requests"], fl)
                    self.assertTrue(acks, fl)
                    last, retx, gaps_ok = {}, 0, True
                    for t, _, _, _, _, psn in reqs:
                        if psn in last:
                            retx += 1
                            if abs(t - last[psn] - period) > 1000:
                                gaps_ok = False
                        last[psn] = t
                    self.assertEqual(retx, fl["retransmissions"], fl)
                    self.assertEqual(gaps_ok, fl["conforming"], fl)

    def test_cm_exchange(self):
        for c in captures():
            if "flows" not in c or not c["summary"]["classes"]["cm_mad"]:
                continue
            with self.subTest(c["file"]):
                p = self.path(c)
                rows = self.flow_rows(p)
                cm = fields(p, "ip.src", "ip.dst", "infiniband.cm.req.localqpn",
                            "infiniband.cm.req.startpsn", "infiniband.cm.rep.localqpn",
                            "infiniband.cm.rep.startpsn", flt="infiniband.cm.req or "
                                                            "infiniband.cm.rep")
                by_ack = {(fl["src"], fl["ack_qp"]): fl for fl in c["flows"]}
                seen = 0
                for src, dst, rq, rp, pq, pp in cm:
                    qpn, psn = (rq, rp) if rq else (pq, pp)
                    qpn, psn = int(qpn, 0), int(psn, 0)
                    # the sender of a REQ/REP is the requester of the flow whose ACKs go to
                    # its local QPN; that flow's first request carries the starting PSN
                    fl = by_ack.get((src, qpn))
                    if fl is None:
                        # a side that only receives requests: its QPN is a flow's qp
                        peers = [f for f in c["flows"] if f["dst"] == src and f["qp"] == qpn]
                        self.assertTrue(peers, (src, qpn))
                        seen += 1
                        continue
                    first = [r for r in rows if r[1] == fl["src"] and r[4] == fl["qp"] and
                             r[3] in REQ_OPS]
                    self.assertEqual(first[0][5], psn, fl)
                    seen += 1
                self.assertGreater(seen, 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)

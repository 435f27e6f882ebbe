#!/usr/bin/python3
"""Self-check of the send-path vector generator.

    /usr/bin/python3 vectors/tx/gen/test_gen_tx.py      (or: python3 -m pytest vectors/tx/gen)

1. Every offload expectation (checksums, LSO segments) is derived a second time by hand
   (hand.py: struct and a written-out ones'-complement sum, no Scapy) and must agree.
2. Every expected frame in the files is checked by hand: where the device computed a checksum
   it verifies (a frame's sum folds to 0xFFFF), IPv4 lengths match the bytes.
3. Raw WQEs are parsed back by hand against the PRM tables (ctrl T26, UMR T31-T33, MKey T10,
   MTT T12) and their signatures re-summed (§9.2.3); WQE sizes agree with the bytes.
4. The files on disk are exactly what the generator writes, and they pass the vector schema
   (vectors/schemas/vector_file.schema.json) with the send-path steps of the contract added,
   plus the file rules of ci/validate_vectors.py.
5. Where tshark is installed, every expected frame opens without a malformed-packet mark.
"""
import copy
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)

import gen_tx  # noqa: E402
import tx_umr  # noqa: E402
import hand  # noqa: E402
import pkt  # noqa: E402
import wqe as W  # noqa: E402

FILES = {make.__name__: make() for make in gen_tx.FILES}
DOCS = {vf.name: vf.build() for vf in FILES.values()}


def all_frames(doc):
    """(tcId, frame bytes, pinned?) for every frame a frames step expects."""
    for g in doc["testGroups"]:
        for t in g["tests"]:
            for s in t["steps"]:
                if "frames" not in s:
                    continue
                fs = s["frames"]
                alts = fs.get("any_of") or [fs]
                for a in alts:
                    for fr in a["expect"]:
                        yield t["tcId"], bytes.fromhex(fr["hex"]), "any_of" not in fs, a.get("reading", "")


def l4_verifies(frame):
    """A frame whose L4 checksum the device computed: the sum over pseudo-header and segment,
    checksum included, is 0xFFFF (RFC 1071)."""
    info = hand.parse(frame)
    ck = struct.unpack_from(">H", frame, hand.csum_field(info))[0]
    s = hand.l4_sum(frame)
    return hand.ones_sum(struct.pack(">H", ck), s) == 0xFFFF


class Offloads(unittest.TestCase):
    def test_every_offload_agrees_with_the_hand_derivation(self):
        n = 0
        for kind, posted, a, b, reading, expected in gen_tx.DERIVED:
            if kind == "offload":
                self.assertEqual(expected.hex(), hand.offload(posted, a, b, reading).hex(),
                                 f"offload l3cs={a} l4cs={b} reading={reading}")
            else:
                got = hand.lso(posted, a, b, reading)
                self.assertEqual([f.hex() for f in expected], [f.hex() for f in got],
                                 f"lso hdr={a} mss={b} cwr={reading}")
            n += 1
        self.assertGreater(n, 40)

    def test_udp_zero_goes_out_as_ffff(self):
        seen = 0
        for kind, posted, a, b, reading, expected in gen_tx.DERIVED:
            if kind == "offload" and hand.parse(posted)["proto"] == 17 and hand.l4_sum(posted) == 0xFFFF:
                info = hand.parse(expected)
                self.assertEqual(struct.unpack_from(">H", expected, hand.csum_field(info))[0], 0xFFFF)
                seen += 1
        self.assertEqual(seen, 2)

    def test_checksummed_frames_verify(self):
        """Every pinned frame of csum.json and lso.json whose checksum was requested verifies."""
        for name in ("csum.json", "lso.json"):
            for tc, fr, pinned, reading in all_frames(DOCS[name]):
                info = hand.parse(fr)
                if info["kind"] == "ip4":
                    h = fr[info["l3"]:info["l3"] + info["ihl"]]
                    if "l3cs only" not in reading:
                        pass
                if not pinned or info["proto"] not in (6, 17) or info["routed"]:
                    continue
                ck = struct.unpack_from(">H", fr, hand.csum_field(info))[0]
                if ck == pkt_garbage():
                    continue  # a case that asks for no L4 checksum
                self.assertTrue(l4_verifies(fr), f"{name}#{tc}: L4 checksum does not verify")

    def test_lso_segments_by_hand(self):
        """The rules of §3.3.2 checked on the emitted segments: sizes, ids, sequence numbers."""
        for kind, posted, hdr, mss, reading, segs in gen_tx.DERIVED:
            if kind != "lso":
                continue
            info = hand.parse(posted)
            body = len(posted) - hdr
            self.assertEqual(len(segs), max(1, -(-body // mss)))
            seq0 = struct.unpack_from(">I", posted, info["l4"] + 4)[0]
            for i, s in enumerate(segs):
                si = hand.parse(s)
                self.assertLessEqual(len(s) - hdr, mss)
                self.assertEqual(struct.unpack_from(">I", s, si["l4"] + 4)[0], (seq0 + i * mss) & 0xFFFFFFFF)
                self.assertTrue(l4_verifies(s))
                if si["kind"] == "ip4":
                    self.assertEqual(si["total"], len(s) - si["l3"])
                    self.assertEqual(hand.ip4_checksum(s), struct.unpack_from(">H", s, si["l3"] + 10)[0])
                    self.assertEqual(struct.unpack_from(">H", s, si["l3"] + 4)[0],
                                     (struct.unpack_from(">H", posted, info["l3"] + 4)[0] + i) & 0xFFFF)
                else:
                    self.assertEqual(si["plen"], len(s) - si["l3"] - 40)
                flags = s[si["l4"] + 13]
                if i < len(segs) - 1:
                    self.assertEqual(flags & 0x09, 0, "PSH/FIN before the last segment")
                else:
                    self.assertEqual(flags & 0x09, posted[info["l4"] + 13] & 0x09)


def pkt_garbage():
    import pkt
    return pkt.GARBAGE_CSUM


class Frames(unittest.TestCase):
    def test_pinned_frames_are_never_short(self):
        """A frame under 64 bytes has two readings (§3.3.8, the Padding note): it may only
        appear inside an any_of, padded both ways."""
        for name, doc in DOCS.items():
            for tc, fr, pinned, reading in all_frames(doc):
                self.assertGreaterEqual(len(fr), 60, f"{name}#{tc}")
                if pinned:
                    self.assertGreaterEqual(len(fr), 64, f"{name}#{tc}: a pinned frame under 64 bytes")

    def test_tagged_headers_carry_their_tags(self):
        """IEEE 802.1Q/802.1ad by hand: after the two addresses, each tag is its TPID (8100h
        C-tag, 88A8h S-tag) and its TCI, outermost first; the EtherType given follows the last
        tag (it must not replace the first TPID, which would leave a frame with no tag)."""
        def hand(tags, etype):
            out = bytes.fromhex(pkt.DST_MAC.replace(":", "")) + bytes.fromhex(pkt.SRC_MAC.replace(":", ""))
            for kind, prio, vid in tags:
                out += struct.pack(">HH", {"q": 0x8100, "ad": 0x88A8}[kind], prio << 13 | vid)
            return out + struct.pack(">H", etype)

        for tags, kw in (((), {}), ((("q", 3, 100),), {"vlan": (3, 100)}),
                         ((("ad", 5, 0x123), ("q", 2, 0x456)), {"qinq": (5, 0x123), "vlan": (2, 0x456)})):
            self.assertEqual(pkt.build(pkt.eth(etype=0x88B5, **kw)), hand(tags, 0x88B5), tags)
            self.assertEqual(pkt.build(pkt.eth_tags(tags, 0x88B5)), hand(tags, 0x88B5), tags)
        three = (("ad", 0, 100), ("q", 0, 5), ("q", 0, 7))
        self.assertEqual(pkt.build(pkt.eth_tags(three, 0x88B5)), hand(three, 0x88B5))

    def test_tshark_reads_every_frame(self):
        tshark = shutil.which("tshark")
        if not tshark:
            self.skipTest("tshark not installed")
        from scapy.all import Ether, wrpcap
        frames = [fr for doc in DOCS.values() for _, fr, _, _ in all_frames(doc)]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "tx.pcap")
            wrpcap(path, [Ether(f) for f in frames])
            out = subprocess.run([tshark, "-r", path, "-Y", "_ws.malformed", "-T", "fields", "-e", "frame.number"],
                                 capture_output=True, text=True, check=True).stdout.split()
            self.assertEqual(out, [], f"malformed frames: {out}")
            total = subprocess.run([tshark, "-r", path, "-T", "fields", "-e", "frame.number"],
                                   capture_output=True, text=True, check=True).stdout.split()
            self.assertEqual(len(total), len(frames))


class Wqes(unittest.TestCase):
    def test_sizes_agree_with_bytes(self):
        for ihs in (0, 1, 2, 3, 14, 18, 30, 64, 962):
            seg = W.eth_seg(bytes(ihs))
            self.assertEqual(len(seg), W.eth_seg_size(ihs))
            self.assertEqual(struct.unpack_from(">H", seg, 12)[0], ihs)
        for n in (0, 1, 12, 13, 956):
            seg = W.inline_seg(bytes(n))
            self.assertEqual(len(seg), W.inline_seg_size(n))
            self.assertEqual(struct.unpack_from(">I", seg, 0)[0], 0x80000000 | n)

    def test_raw_wqes_parse_back(self):
        """Every raw WQE: T26 ctrl fields by hand, DS within the bytes, signature where given."""
        n = 0
        for name, doc in DOCS.items():
            for g in doc["testGroups"]:
                for t in g["tests"]:
                    rest = 0  # bytes of a WQE posted short of its DS still to come
                    for s in t["steps"]:
                        if "wqe" not in s or "hex" not in s["wqe"]:
                            continue
                        raw = bytes.fromhex(s["wqe"]["hex"])
                        if rest:  # the rest of that WQE, posted later: not a WQE of its own
                            self.assertIn("FlushOwnership", t["flags"], f"{name}#{t['tcId']}")
                            self.assertGreaterEqual(len(raw), rest, f"{name}#{t['tcId']}")
                            rest = 0
                            continue
                        d0, d1, d2, mkey = struct.unpack_from(">IIII", raw, 0)
                        opcode, idx, sqn, ds = d0 & 0xFF, (d0 >> 8) & 0xFFFF, d1 >> 8, d1 & 0x3F
                        self.assertEqual(sqn, 1, f"{name}#{t['tcId']}")
                        if {"Ownership", "FlushOwnership"} & set(t["flags"]):  # short of its DS
                            self.assertGreater(ds * 16, len(raw), f"{name}#{t['tcId']}")
                            if "FlushOwnership" in t["flags"]:
                                rest = ds * 16 - len(raw)
                        else:
                            self.assertLessEqual(ds * 16, len(raw), f"{name}#{t['tcId']}")
                        self.assertIn(opcode, (W.OP_NOP, W.OP_SEND, W.OP_UMR))
                        sig = d2 >> 24
                        if sig:
                            x = 0
                            for c in raw[:ds * 16] + struct.pack(">I", sqn)[1:] + struct.pack(">H", idx):
                                x ^= c
                            good = "off by" not in t["comment"]
                            self.assertEqual(x == 0xFF, good, f"{name}#{t['tcId']} signature")
                            # the two readings of §9.2.3 agree on these WQEs (index and SQ bytes XOR to 0)
                            y = 0
                            for c in struct.pack(">I", sqn)[1:] + struct.pack(">H", idx):
                                y ^= c
                            self.assertEqual(y, 0)
                        if opcode == W.OP_UMR:
                            self.check_umr(raw, mkey, t["comment"])
                        n += 1
        self.assertGreater(n, 8)

    def check_umr(self, raw, mkey, comment=""):
        """T31-T37 by hand. A WQE cut at its DS before the MKeyCtx (T31 40h) has only its UMR
        control segment to check."""
        self.assertEqual(mkey & 0xFF, tx_umr.UMR_TAG)
        # T32/T33 at 10h: inline bit 31; check_free 30:29; translation_offset_en 28;
        # translation_octword_actual_size 04h[31:16], translation_offset 04h[15:0]; mask 08h-0Fh
        c0, c1, mask = struct.unpack_from(">IIQ", raw, 0x10)
        inline, check_free = c0 >> 31, (c0 >> 29) & 3
        actual = c1 >> 16
        self.assertEqual(mask & tx_umr.UMR_MASK, tx_umr.UMR_MASK)
        extra = mask & ~tx_umr.UMR_MASK
        self.assertEqual(extra != 0, "reserved" in comment and "mask" in comment)
        self.assertEqual(check_free == 3, "11" in comment and "reserved" in comment)
        self.assertEqual(actual % 4 != 0, "aligned to 64B" in comment)
        if len(raw) < 0x80:
            self.assertIn("no MKeyCtx", comment)
            return
        # T9/T10 at 40h: free 00h[30], umr_en [15], lr [10], access_mode [9:8]; start_addr 10h; len 18h
        m0 = struct.unpack_from(">I", raw, 0x40)[0]
        self.assertEqual((m0 >> 30) & 1, 0)
        self.assertEqual((m0 >> 10) & 1, 1)
        access = (m0 >> 8) & 3
        self.assertIn(access, (1, 2))
        self.assertEqual(struct.unpack_from(">Q", raw, 0x50)[0], tx_umr.UMR_VA)
        npages = struct.unpack_from(">Q", raw, 0x58)[0] // 4096
        if "log_max_mrw_sz" in comment:  # a len past what the list maps: its two MTTs
            npages = len(tx_umr.UMR_PAGES)
        if not inline:
            # T34/T35 at 80h: mkey at 04h, the address at 08h, 'aligned to 2KB'
            _, pmkey, addr = struct.unpack_from(">IIQ", raw, 0x80)
            self.assertEqual(addr % 2048 != 0, "not 2 KB aligned" in comment)
            return
        if access == 2:
            # T36/T37: KLMs of 16 bytes, byte_count 'Must be up to 2GB'
            bc = struct.unpack_from(">I", raw, 0x80)[0]
            self.assertEqual(bc > 0x80000000, "2GB" in comment)
            return
        # T11/T12 entries at 80h: ptag with rd_en, as far as the bytes go
        for k in range(min(npages, actual * 2, (len(raw) - 0x80) // 8)):
            hi, lo = struct.unpack_from(">II", raw, 0x80 + 8 * k)
            self.assertEqual(lo & 1, 1)

    def test_umr_frame_follows_the_translation(self):
        """umr.json: the SEND through the UMR'd MKey expects page 0's last 128 bytes then page
        1's first 72 (VA 0x...F80 -> PA 0x48003F80, then 0x48001000)."""
        doc = DOCS["umr.json"]
        t = doc["testGroups"][0]["tests"][1]
        writes = {int(s["mem_write"]["addr"], 16): bytes.fromhex(s["mem_write"]["hex"])
                  for s in t["steps"] if "mem_write" in s}
        fr = [bytes.fromhex(s["frames"]["expect"][0]["hex"]) for s in t["steps"] if "frames" in s][0]
        self.assertEqual(fr[14:14 + 128], writes[0x48003000][0xF80:])
        self.assertEqual(fr[14 + 128:], writes[0x48001000][:72])


def tx_schema(schema):
    """The vector schema with the send-path steps of the contract (TX_SPEC 'The vector language
    for the send path'), as this generator reads them."""
    s = copy.deepcopy(schema)
    d = s["definitions"]
    num = {"$ref": "#/definitions/num"}
    hexs = {"$ref": "#/definitions/hex"}
    numname = {"anyOf": [num, {"type": "string"}]}
    cmp_ = {"anyOf": [{"$ref": "#/definitions/cmpNum"}, {"type": "string"}]}
    frame = {"type": "object", "required": ["port", "hex"], "additionalProperties": False,
             "properties": {"port": num, "hex": hexs}}
    cqe = {"type": "object", "additionalProperties": cmp_, "properties": {"layout": {"enum": ["cqe64", "err_cqe"]}}}

    def listing(item):
        alt = {"type": "object", "required": ["expect"], "additionalProperties": False,
               "properties": {"reading": {"$ref": "#/definitions/reading"}, "exact": {"type": "boolean"},
                              "expect": {"type": "array", "items": item}}}
        return {"type": "object", "additionalProperties": False,
                "properties": {"exact": {"type": "boolean"}, "expect": {"type": "array", "items": item},
                               "any_of": {"type": "array", "minItems": 2, "items": alt}},
                "oneOf": [{"required": ["expect"]}, {"required": ["any_of"]}]}

    seg = {"type": "object", "additionalProperties": False,
           "properties": {"bytes": hexs, "inline": hexs, "lkey": numname, "addr": num, "byte_count": num},
           "oneOf": [{"required": ["bytes"]}, {"required": ["inline"]}]}
    ring = {"enum": ["db", "bf", "record", "none"]}
    props = d["step"]["properties"]
    props["tx_setup"] = {"type": "object", "additionalProperties": False, "properties": {
        k: num for k in ("log_sq_size", "log_cq_size", "cqe_sz", "min_wqe_inline_mode",
                         "flush_in_error_en", "wq_signature")} | {
        "data": {"type": "object", "additionalProperties": False, "properties": {"addr": num, "size": num}}}}
    props["wqe"] = {"type": "object", "additionalProperties": False, "properties": {
        "opcode": {"anyOf": [num, {"enum": ["NOP", "SEND", "LSO", "UMR"]}]},
        "ctrl": {"type": "object", "additionalProperties": num},
        "eth": {"type": "object", "properties": {"inline_header": hexs}, "additionalProperties": num},
        "data": {"type": "array", "items": seg}, "umr": {"type": "object"}, "hex": hexs, "ring": ring}}
    props["sq_ring"] = {"type": "object", "additionalProperties": False, "properties": {"ring": ring}}
    props["frames"] = listing(frame)
    props["cqes"] = listing(cqe)
    return s


class Files(unittest.TestCase):
    def test_files_are_the_generators_output(self):
        for vf in FILES.values():
            path = os.path.join(ROOT, "vectors", "tx", vf.name)
            with open(path, encoding="utf-8") as fh:
                self.assertEqual(fh.read(), vf.dumps(), f"{path} is stale: run gen_tx.py")

    def test_schema_and_file_rules(self):
        spec = importlib.util.spec_from_file_location("validate_vectors", os.path.join(ROOT, "ci", "validate_vectors.py"))
        vv = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(vv)
        import jsonschema
        vv.validator = jsonschema.Draft7Validator(tx_schema(vv.schema))
        import pathlib
        problems = []
        for vf in FILES.values():
            problems += vv.check(pathlib.Path(ROOT, "vectors", "tx", vf.name))
        self.assertEqual(problems, [])

    def test_a_violation_is_matched_by_a_clause_the_test_cites(self):
        """A violation event names the PRM clause of the rule the driver broke (the model's rule
        names are not this generator's to know), and the test's `cite` cites that clause."""
        n = 0
        for name, doc in DOCS.items():
            for g in doc["testGroups"]:
                for t in g["tests"]:
                    for s in t["steps"]:
                        ev = s.get("events")
                        if not ev:
                            continue
                        for alt in ev.get("any_of") or [ev]:
                            for e in alt["expect"]:
                                if e.get("event") != "violation":
                                    continue
                                self.assertIn("clause", e, f"{name}#{t['tcId']}: a violation without its clause")
                                self.assertRegex(e["clause"], r"^PRM §\d+(\.\d+)*$")
                                sec = e["clause"][len("PRM "):]
                                self.assertRegex(t["cite"], re.escape(sec) + r"(?![.\d])",
                                                 f"{name}#{t['tcId']}: cite does not cite {sec}")
                                n += 1
        self.assertGreater(n, 50)

    def test_every_test_cites_the_prm_and_results_are_consistent(self):
        for name, doc in DOCS.items():
            for g in doc["testGroups"]:
                for t in g["tests"]:
                    self.assertIn("PRM §", t["cite"], f"{name}#{t['tcId']}")
                    text = json.dumps(t["steps"])
                    open_ = '"any_of"' in text or '"in":' in text
                    self.assertEqual(open_, t["result"] == "acceptable", f"{name}#{t['tcId']}")


class Readings(unittest.TestCase):
    def test_a_long_or_shared_reading_is_a_generator_error(self):
        """A reading over 80 characters is refused, not cut (a cut once made two readings of
        rx/rss.json one text); one text for two expectations is refused; one reading for one
        expectation given twice is not."""
        import vecfmt
        a = {"reading": "x" * 80, "expect": [1], "exact": True}
        vecfmt.check_readings([a, dict(a)])
        with self.assertRaises(vecfmt.GenError):
            vecfmt.check_readings([dict(a, reading="x" * 81)])
        with self.assertRaises(vecfmt.GenError):
            vecfmt.check_readings([a, dict(a, expect=[2])])
        t = vecfmt.Test("c", "PRM §1", "acceptable")
        with self.assertRaises(vecfmt.GenError):
            t.cqes_any([("r" * 81, []), ("s", [])])


if __name__ == "__main__":
    unittest.main(verbosity=1)

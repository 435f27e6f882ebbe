#!/usr/bin/python3
"""Self-check of the RoCE generator's model (roce_model.py), run by `make roce-gen-check`.

1. The ICRC against a frame a ConnectX-4 Lx put on the wire (a CNP, published with Scapy's
   RoCE tests, test/contrib/roce.uts): its last four bytes must be what icrc() computes.
2. The ICRC against Scapy's own (scapy.contrib.roce BTH.compute_icrc, IPv4 only) on every
   IPv4 frame the model can build, with and without ECN/TTL/DSCP changes: equal, and equal
   across a change of any masked field (TOS, TTL, IP checksum, UDP checksum, FECN/BECN).
3. IPv6: unchanged by traffic class, flow label, hop limit (masked), changed by anything else.
4. PSN arithmetic and packetisation invariants.
5. Every frame in the vector files parses back (opcode, PSN, ICRC valid unless the test says
   the ICRC is bad).
6. roce_f4.ReqModel (D-ROCE-RC-21..23's and -25's readings): a copy of a NAK takes no retry under the
   latch and one under "every NAK"; under every reading and any sequence of responses, no PSN
   acknowledged (IBTA §9.7.5.1.6) is sent again, and the PSNs sent stay below hpsn.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import roce_model as M  # noqa: E402
from scapy.contrib.roce import BTH  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402

FAIL = []


def check(cond, what):
    if not cond:
        FAIL.append(what)


# 1. a CNP captured on a ConnectX-4 Lx (Scapy test/contrib/roce.uts, "RoCE CNP captured on
#    ConnectX-4 Lx"): Ether / IPv4 (tos 0xc2, ttl 64) / UDP 0 -> 4791 / BTH 0x81 / 16 bytes / ICRC
CX4LX_CNP = bytes.fromhex(
    "e41d2dab2bc27cfe90643b32080045c2003c718c400040119161"
    "0a0011010a0012010000" "12b700280000" "8100ffff400001180000000000000000"
    "000000000000000000000000" "82fd002a")


def t_known_answer():
    got = M.icrc(CX4LX_CNP[14:-4], v6=False)
    check(got == CX4LX_CNP[-4:], f"ICRC of the ConnectX-4 Lx CNP: {got.hex()} != 82fd002a")
    d = M.parse(CX4LX_CNP)
    check(d["opcode"] == 0x81 and d["becn"] == 1 and d["dest_qp"] == 0x118 and d["icrc_ok"],
          "ConnectX-4 Lx CNP parses as opcode 0x81, BECN 1, dest QP 0x118")


def scapy_icrc(fr):
    p = Ether(fr)
    b = p[BTH]
    want = b.icrc
    del b.icrc
    again = bytes(Ether(bytes(p)))
    return want, again[-4:]


def t_scapy_ipv4():
    a = M.Path("02:00:00:00:00:01", "02:00:00:00:00:02", "192.0.2.1", "192.0.2.2")
    n = 0
    for op, hdrs, pay in (("RC_SEND_ONLY", b"", b"hello world!"),
                          ("RC_WRITE_ONLY", M.reth(0x1000, 0x5A, 5), b"abcde"),
                          ("RC_ACK", M.aeth(0x1F, 7), b""),
                          ("UD_SEND_ONLY", M.deth(0x11111111, 3), bytes(range(33)))):
        for ecn in (0, 2, 3):
            a.ecn, a.dscp, a.ttl = ecn, 26, 64 - ecn
            fr = M.frame(a, op, 0x12, 0xABCDEF, pay, hdrs, fecn=ecn & 1)
            _, sc = scapy_icrc(fr)
            check(sc == fr[-4:],
                  f"Scapy's ICRC {sc.hex()} != ours {fr[-4:].hex()} ({op} ecn {ecn})")
            check(M.parse(fr)["icrc_ok"], f"{op}: parse finds our ICRC bad")
            n += 1
    # masked fields do not change it; another field does
    base = M.frame(a, "RC_SEND_ONLY", 5, 9, b"xyzw")
    for mask_off, what in ((15, "TOS"), (22, "TTL"), (24, "IP checksum"), (40, "UDP checksum"),
                           (46, "BTH Resv8a")):
        b2 = bytearray(base)
        b2[mask_off] ^= 0x5A
        check(M.icrc(bytes(b2[14:-4]), False) == base[-4:], f"ICRC changed with {what}")
    for off, what in ((26, "source IP"), (36, "UDP source port"), (42, "BTH opcode"),
                      (51, "BTH PSN"), (len(base) - 5, "payload")):
        b2 = bytearray(base)
        b2[off] ^= 0x01
        check(M.icrc(bytes(b2[14:-4]), False) != base[-4:], f"ICRC unchanged by {what}")
    return n


def t_ipv6():
    a = M.Path("02:00:00:00:00:01", "02:00:00:00:00:02", "2001:db8::1", "2001:db8::2",
               dscp=10, ecn=1, ttl=9, flow=0x12345)
    base = M.frame(a, "RC_SEND_ONLY", 5, 9, b"v6 payload")
    check(M.parse(base)["icrc_ok"] and M.parse(base)["v6"], "IPv6 frame parses")
    for p in (M.Path(a.smac, a.dmac, a.sip, a.dip, dscp=0, ecn=3, ttl=255, flow=0),
              M.Path(a.smac, a.dmac, a.sip, a.dip, dscp=63, ecn=0, ttl=1, flow=0xFFFFF)):
        fr = M.frame(p, "RC_SEND_ONLY", 5, 9, b"v6 payload")
        check(fr[-4:] == base[-4:], "IPv6 ICRC changed with traffic class/flow label/hop limit")
    b2 = bytearray(base)
    b2[14 + 4] ^= 1          # payload length
    check(M.icrc(bytes(b2[14:-4]), True) != base[-4:], "IPv6 ICRC unchanged by payload length")


def t_psn():
    check(M.psn_add(0xFFFFFF, 1) == 0, "PSN wrap")
    check(M.psn_region(0, 0xFFFFFF) == "ahead", "0 is ahead of 0xFFFFFF")
    check(M.psn_region(0xFFFFFF, 0) == "duplicate", "0xFFFFFF is before 0")
    check(M.psn_region(M.psn_add(5, M.HALF - 1), 5) == "ahead", "2^23-1 ahead")
    check(M.psn_region(M.psn_add(5, M.HALF), 5) == "duplicate", "2^23 away is duplicate")
    for length in (0, 1, 255, 256, 257, 1024, 1025, 4096):
        pk = M.packetise("WRITE", length, 256, 0xFFFFFE)
        check(sum(p[3] for p in pk) == length, f"packetise({length}) loses bytes")
        check(all(p[3] == 256 for p in pk[:-1]), "FIRST/MIDDLE carry the MTU")
        check([p[1] for p in pk] == [M.psn_add(0xFFFFFE, i) for i in range(len(pk))],
              "PSNs consecutive across the wrap")


def frame_alts(step):
    fr = step.get("frames")
    if not fr:
        return []
    if "any_of" in fr:
        return [a["expect"] for a in fr["any_of"]]
    return [fr["expect"]]


def t_rules():
    """The rule functions the vectors' comments rely on."""
    # parse() reads through an 802.1Q tag (D-ROCE-22's frames): Scapy's Dot1Q builds it here
    from scapy.layers.l2 import Dot1Q
    a = M.Path("02:00:00:00:00:01", "02:00:00:00:00:02", "2001:db8::1", "2001:db8::2")
    fr = M.frame(a, "RC_SEND_ONLY", 0x100, 7, b"abcd")
    e = Ether(fr)
    tagged = bytes(Ether(src=e.src, dst=e.dst) / Dot1Q(prio=5, vlan=100) / e.payload)
    d, u = M.parse(tagged), M.parse(fr)
    check(d.get("tci") == (5 << 13 | 100) and d["icrc_ok"] and d["psn"] == u["psn"] == 7 and
          d["payload"] == u["payload"], "802.1Q: parse reads the TCI and the frame behind it")
    check(M.pkey_match(0x7FFF, 0xFFFF) and not M.pkey_match(0x7FFF, 0x7FFF),
          "P_Key: one full member needed")
    check(not M.pkey_match(0x1234, 0xFFFF) and not M.pkey_match(0x8000, 0x8000),
          "P_Key: low bits differ / the invalid key")
    check(M.pkey_match_s004(0x7FFF, 0xFFFF) and not M.pkey_match_s004(0x3FFF, 0x3FFF),
          "seed 004 P_Key rule (bit 14)")
    check(M.ud_qkey_sent(0x80000005, 0x11111111) == 0x11111111
          and M.ud_qkey_sent(0x33333333, 0x11111111) == 0x33333333, "Q_Key bit 31 rule")
    pk = M.packetise("WRITE", 600, 256, 0)
    check([p[0] for p in M.go_back_n(pk, 1)] == ["RC_WRITE_MIDDLE", "RC_WRITE_LAST"],
          "Go-Back-N from PSN 1 keeps the original opcodes")
    check([r[0] for r in M.read_responses(600, 256, 7)] ==
          ["RC_READ_RESPONSE_FIRST", "RC_READ_RESPONSE_MIDDLE", "RC_READ_RESPONSE_LAST"],
          "READ responses")


def t_f4():
    import random
    import roce_f4 as F
    for r, go, left in ((F.LATCH, [1, 2], 6), (F.EVERY_NAK, [1, 2, 1, 2], 5)):
        m = F.ReqModel(nak_reading=r)
        m.post(3)
        m.take()
        m.nak_seq(1)
        m.nak_seq(1)
        check(m.take() == go and m.retries == left, f"ReqModel {r}: a NAK and its copy")
        m.ack(1)
        m.nak_seq(2)
        check(m.take() == [2], f"ReqModel {r}: progress clears the latch")
    rnd = random.Random(17)
    for r in (F.ON_PROGRESS, F.RUNS_OUT, F.LEFT_RUNS_OUT, F.TIMER):
        for nr in (F.LATCH, F.EVERY_NAK):
            m = F.ReqModel(nak_reading=nr, rnr_reading=r, retry_cnt=7)
            for _ in range(400):
                op = rnd.randrange(6)
                if op == 0:
                    m.post(rnd.randrange(1, 3))
                elif m.hpsn > 0 and op == 1:
                    m.ack(rnd.randrange(max(0, m.una - 1), m.hpsn))
                elif m.una < m.hpsn and op == 2:
                    m.nak_seq(rnd.randrange(m.una, m.hpsn))
                elif m.una < m.hpsn and op == 3:
                    m.rnr_nak(rnd.randrange(m.una, m.hpsn))
                elif op == 4:
                    m.rnr_expires()
                else:
                    m.ack_timeout()
                go = m.take()
                check(all(m.una <= x < m.hpsn for x in go),
                      f"ReqModel {nr}/{r}: an acknowledged or unsent PSN sent {go}")
                m.retries = 7                      # keep the walk going


def t_vectors():
    out = os.path.dirname(HERE)
    n = 0
    for name in sorted(os.listdir(out)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(out, name)) as fh:
            doc = json.load(fh)
        for g in doc["testGroups"]:
            for t in g["tests"]:
                bad = "BadIcrc" in t["flags"]
                seen_bad = False
                for st in t["steps"]:
                    if "rx_frame" in st and "hex" in st["rx_frame"]:
                        fr = bytes.fromhex(st["rx_frame"]["hex"])
                        if fr[12:14] not in (b"\x08\x00", b"\x86\xdd"):
                            continue
                        d = M.parse(fr)
                        seen_bad |= not d["icrc_ok"]
                        check(bad or d["icrc_ok"], f"{name}#{t['tcId']}: a bad ICRC unflagged")
                        n += 1
                    for alt in frame_alts(st):
                        for e in alt:
                            d = M.parse(bytes.fromhex(e["hex"]))
                            check(d["icrc_ok"], f"{name}#{t['tcId']}: an expected frame's "
                                  "ICRC is bad")
                            n += 1
                check(seen_bad == bad, f"{name}#{t['tcId']}: BadIcrc flag and frames disagree")
    return n


def main():
    t_known_answer()
    n = t_scapy_ipv4()
    t_ipv6()
    t_psn()
    t_rules()
    t_f4()
    v = t_vectors()
    for f in FAIL:
        print("test_gen_roce: FAIL", f, file=sys.stderr)
    if not FAIL:
        print(f"test_gen_roce: ICRC = ConnectX-4 Lx capture and = Scapy on {n} IPv4 frames; "
              f"IPv6 masking; PSN/packetisation; the F4 readings; {v} vector frames parse back")
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())

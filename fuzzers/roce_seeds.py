#!/usr/bin/env python3
"""Seed inputs of the RoCE fuzz targets (fuzzers/roce_rx_fuzz.c, roce_rx_icrc_fuzz.c,
roce_pair_fuzz.c): writes corpora/roce_rx/, corpora/roce_rx_icrc/, corpora/roce_pair/ and the
dictionaries fuzzers/roce_rx.dict, fuzzers/roce_rx_icrc.dict, fuzzers/roce_pair.dict.

The input formats are the ones the targets' header comments document. The ICRCs of the
roce_rx_icrc seeds are computed here, from IBTA Vol. 1 Sec. 7.8.1 and the RoCEv2 Annex A17
Sec. A17.3.3 (CRC-32 of 8 bytes of 1s, the IPv4 header with TOS, TTL and checksum masked to 1s,
the UDP header with its checksum masked, the BTH with byte 4 masked, the rest; least significant
byte first), never by the model: a seed whose ICRC the model disagrees with shows up as an
"icrc" drop in its trace (NICREF_FUZZ_TRACE=1).

Usage: fuzzers/roce_seeds.py [--check]   (--check: the committed files are what it writes)
"""
import os
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# roce_rx ops
PKT, TIME, RECV, SEND, ARM = 0, 1, 2, 3, 4
# roce_rx's SEND sel bits 2:1 for each ctrl CE (T26): 10b is 0, so sel 0/1 is the old SEND
CE_SEL = {2: 0, 3: 2, 0: 4, 1: 6}
# roce_rx's fixed addresses (roce_rx_fuzz.c): the peer 192.0.2.2 to the device 192.0.2.1
SRC_IP, DST_IP = bytes([192, 0, 2, 2]), bytes([192, 0, 2, 1])
# the data MKey of the RC stack: index 1 (the first MKey the device hands out, D-OBJ-2) and
# harness/driver_qp.h's tag 0x3C
RKEY = 1 << 8 | 0x3C
DATA = 0x70000000


def bth(opcode, psn, dest_qp=0, ackreq=True, se=False, pad=0, pkey=0xFFFF):
    b0 = (0x80 if se else 0) | (pad & 3) << 4
    return struct.pack(">BBHI I", opcode, b0, pkey, dest_qp & 0xFFFFFF,
                       (0x80000000 if ackreq else 0) | (psn & 0xFFFFFF))


def reth(va, rkey, length):
    return struct.pack(">QII", va, rkey, length)


def aeth(syndrome, msn):
    return struct.pack(">I", (syndrome & 0xFF) << 24 | (msn & 0xFFFFFF))


def deth(qkey, src_qp):
    return struct.pack(">II", qkey, src_qp & 0xFFFFFF)


def payload(n, seed=0):
    return bytes((i * 7 + seed) & 0xFF for i in range(n))


def icrc(flags, sel, body):
    """The ICRC of the packet roce_rx builds around body (IPv4 only)."""
    n = 8 + len(body) + 4
    ttl = 64 - 8 * (flags >> 5)
    ecn = flags >> 1 & 3
    ip = bytearray(struct.pack(">BBHHHBBH4s4s", 0x45, ecn, 20 + n, 0, 0x4000, ttl, 17, 0,
                               SRC_IP, DST_IP))
    udp = bytearray(struct.pack(">HHHH", 0xC000 + (sel & 0xF0),
                                4790 if flags & 8 else 4791, n, 0))
    b = bytearray(body)
    # the target puts the QP number and the PSN in place before the ICRC: seeds name the QP
    # themselves (sel 3) so the body is the packet
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10] = ip[11] = 0xFF
    udp[6] = udp[7] = 0xFF
    if len(b) >= 5:
        b[4] = 0xFF
    c = zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(b)) & 0xFFFFFFFF
    return struct.pack("<I", c)


def pkt(body, flags=0, sel=3, with_icrc=False):
    out = bytes([PKT, flags, sel]) + struct.pack(">H", len(body)) + body
    if with_icrc:
        out += icrc(flags, sel, body)
    return out


# The QP numbers the device gives roce_rx's QPs: the lowest free from the QP table's base
# above the reserved QP0 and QP1 (the two RC QPs, then the UD QP). Seeds name them (sel 3 keeps the body's destination QP) so
# the twin's ICRCs hold.
RCQ0, RCQ1, UDQ = 0x02, 0x03, 0x04


def rx_seeds():
    q0, q1, qu = RCQ0, RCQ1, UDQ
    s = {}
    s["send-only"] = [bth(0x04, 0, q0) + payload(64)]
    s["send-imm"] = [bth(0x05, 0, q0) + struct.pack(">I", 0xCAFE) + payload(100)]
    s["write-only"] = [bth(0x0A, 0, q0) + reth(DATA + 0x40000, RKEY, 32) + payload(32)]
    s["write-imm"] = [bth(0x0B, 0, q1) + reth(DATA + 0x40000, RKEY, 16) +
                      struct.pack(">I", 7) + payload(16)]
    s["read-request"] = [bth(0x0C, 0, q0) + reth(DATA + 0x100, RKEY, 3000)]
    s["first-middle-last"] = [bth(0x00, 0, q0) + payload(1024, 1),
                              bth(0x01, 1, q0) + payload(1024, 2),
                              bth(0x02, 2, q0) + payload(10, 3)]
    s["write-first-last"] = [bth(0x06, 0, q1) + reth(DATA + 0x50000, RKEY, 1500) +
                             payload(1024),
                             bth(0x08, 1, q1) + payload(476)]
    s["out-of-sequence"] = [bth(0x04, 3, q0) + payload(8), bth(0x04, 0, q0) + payload(8),
                            bth(0x04, 0, q0) + payload(8)]
    s["ud-send"] = [bth(0x64, 0, qu) + deth(0x11111111, 0x200) + payload(200)]
    s["ud-send-imm-bad-qkey"] = [bth(0x65, 0, qu) + deth(0x80000000, 0x200) +
                                 struct.pack(">I", 1) + payload(20)]
    s["bad-rkey"] = [bth(0x0A, 0, q0) + reth(DATA, 0xDEAD00, 8) + payload(8)]
    s["rnr"] = [bth(0x04, i, q0) + payload(4) for i in range(10)]
    s["cnp"] = [bth(0x81, 0, q0, ackreq=False) + bytes(16)]
    return s


def rx_inputs(with_icrc):
    files = {}
    for name, bodies in rx_seeds().items():
        flags = 0
        data = b""
        for b in bodies:
            data += pkt(b, flags, 3, with_icrc)
        if name == "rnr":
            data += bytes([TIME]) + struct.pack(">H", 100)
        files["seed-" + name] = data
    # CE-marked (ECN 11b, flags bits 2:1) SEND: the notification point answers with a CNP
    b = bth(0x04, 0, RCQ0) + payload(40)
    files["seed-ce-marked"] = pkt(b, 0x06, 3, with_icrc)
    # requester: a SEND, a WRITE and a READ to the peer, then its ACKs and the READ response
    # (PSNs 0, 1 and 2..3: 2000 bytes at MTU 1024)
    req = bytes([SEND, 0, 0]) + struct.pack(">HH", 100, 0)
    req += bytes([SEND, 0, 2]) + struct.pack(">HH", 300, 1)
    req += bytes([SEND, 0, 4]) + struct.pack(">HH", 2000, 2)
    req += pkt(bth(0x11, 1, RCQ0) + aeth(0x00, 2), 0, 3, with_icrc)
    req += pkt(bth(0x0D, 2, RCQ0) + aeth(0x00, 3) + payload(1024), 0, 3, with_icrc)
    req += pkt(bth(0x0F, 3, RCQ0) + aeth(0x00, 3) + payload(976), 0, 3, with_icrc)
    files["seed-requester-acks"] = req
    # requester: a SEND unanswered, the ACK timer (4.2 ms) retransmits it, a NAK sequence error
    retx = bytes([SEND, 1, 0]) + struct.pack(">HH", 64, 0) + bytes([TIME]) + \
        struct.pack(">H", 9000)
    retx += pkt(bth(0x11, 0, RCQ1) + aeth(0x60, 0), 0, 3, with_icrc)
    retx += pkt(bth(0x11, 0, RCQ1) + aeth(0x20, 0), 0, 3, with_icrc)
    retx += bytes([TIME]) + struct.pack(">H", 60000)
    files["seed-requester-retx-nak"] = retx
    files["seed-recv-more"] = bytes([RECV, 0, 8, RECV, 2, 3]) + \
        pkt(bth(0x64, 0, UDQ) + deth(0x11111111, 5) + payload(8), 0, 3, with_icrc)
    send = lambda qp, ce, n=0: bytes([SEND, qp | CE_SEL[ce], 0]) + struct.pack(">HH", n, 0)
    arm = lambda qp, recv, sol: bytes([ARM, qp | recv << 2 | sol << 3])
    ack = lambda qp, psn, syn=0x00, msn=0: pkt(bth(0x11, psn, qp) + aeth(syn, msn), 0, 3,
                                               with_icrc)
    # T26 CE on success (D-ROCE-20): SENDs of CE 00b, 01b (no CQE), 11b (a solicited CQE: the
    # first CQE fires the CQ armed at set-up), 10b; one ACK covers PSNs 0-3. Then the send CQ
    # armed solicited: a 10b CQE leaves it armed, an 11b one fires it.
    files["seed-ce-success"] = send(0, 0) + send(0, 1) + send(0, 3) + send(0, 2) + \
        ack(RCQ0, 3, msn=4) + arm(0, 0, 1) + send(0, 2) + send(0, 3) + ack(RCQ0, 4, msn=5) + \
        ack(RCQ0, 5, msn=6)
    # T26 CE on error: a remote access error NAK (AETH 0x62) fails QP 0's first SEND (10b: its
    # error CQE), the others flush: 01b none (the previous one failed), 00b and 11b a CQE; on
    # QP 1 the first WQE in error has CE 01b and its CQE, the next 01b none.
    files["seed-ce-error"] = send(0, 2) + send(0, 1) + send(0, 0) + send(0, 1) + send(0, 3) + \
        ack(RCQ0, 0, 0x62) + send(1, 1) + send(1, 1) + ack(RCQ1, 0, 0x62)
    # D-ROCE-21 with the CQ arm (PRM §7.12.4): QP 0's receive CQ fires at its first CQE (armed
    # at set-up), then armed solicited: a SEND without SE leaves it armed, one with SE fires it;
    # the same on the UD QP; QP 1's receive CQ armed solicited fires at an error CQE (a SEND of
    # 5 KB into a 4 KB WQE, D-CQ-5).
    sol = pkt(bth(0x04, 0, RCQ0) + payload(16), 0, 3, with_icrc) + arm(0, 1, 1)
    sol += pkt(bth(0x04, 1, RCQ0) + payload(16), 0, 3, with_icrc)
    sol += pkt(bth(0x04, 2, RCQ0, se=True) + payload(16), 0, 3, with_icrc)
    sol += pkt(bth(0x64, 0, UDQ) + deth(0x11111111, 5) + payload(8), 0, 3, with_icrc)
    sol += arm(2, 1, 1)
    sol += pkt(bth(0x64, 0, UDQ, se=True) + deth(0x11111111, 5) + payload(8), 0, 3, with_icrc)
    sol += pkt(bth(0x04, 0, RCQ1) + payload(16), 0, 3, with_icrc) + arm(1, 1, 1)
    sol += pkt(bth(0x00, 1, RCQ1) + payload(1024, 1), 0, 3, with_icrc)
    for i in range(2, 5):
        sol += pkt(bth(0x01, i, RCQ1) + payload(1024, i), 0, 3, with_icrc)
    sol += pkt(bth(0x02, 5, RCQ1, se=True) + payload(1024, 5), 0, 3, with_icrc)
    files["seed-solicited"] = sol
    return files


# ---- roce_pair (roce_pair_fuzz.c) -------------------------------------------------------------
P_POST, P_RECV, P_FAULT, P_TIME = 0, 1, 2, 3


def pair_inputs():
    f = {}
    # who: bit 0 the side, bit 1 the QP, bits 3:2 the ctrl CE (T26) as ce ^ 2 (0 is 10b, as
    # before), bit 4 the ctrl SE
    post = lambda side, qp, op, ln, ce=2, se=0: \
        bytes([P_POST, side | qp << 1 | (ce ^ 2) << 2 | se << 4, op]) + struct.pack(">H", ln)
    recv = lambda side, qp, n: bytes([P_RECV, side | qp << 1, n])
    fault = lambda d, kind, v: bytes([P_FAULT, d, kind, v])
    time = lambda t: bytes([P_TIME]) + struct.pack(">H", t)
    f["seed-write-send-read"] = b"\x00" + recv(1, 0, 4) + post(0, 0, 2, 3000) + \
        post(0, 0, 0, 1000) + post(0, 0, 4, 2000) + time(200)
    f["seed-both-ways-imm-wrap"] = b"\x01" + recv(0, 1, 4) + recv(1, 1, 4) + \
        post(0, 1, 1, 500) + post(1, 1, 3, 4000) + post(1, 1, 1, 10) + time(500)
    f["seed-loss-every-3"] = b"\x00" + recv(1, 0, 8) + fault(0, 0, 1) + \
        post(0, 0, 0, 4096) + post(0, 0, 2, 4096) + post(0, 0, 0, 4096) + time(5000) + \
        time(65535)
    f["seed-reorder-dup-half"] = b"\x02" + recv(1, 0, 8) + fault(0, 3, 200) + \
        fault(1, 2, 150) + post(0, 0, 0, 3000) + post(0, 0, 2, 3000) + post(0, 0, 4, 3000) + \
        time(3000)
    f["seed-ce-seed004"] = b"\x04" + recv(1, 0, 8) + fault(0, 4, 255) + \
        b"".join(post(0, 0, 2, 4096) for _ in range(20)) + post(0, 0, 0, 100) + time(2000)
    f["seed-rnr"] = b"\x00" + post(0, 0, 0, 100) + time(100) + recv(1, 0, 1) + time(3000)
    f["seed-lose-all"] = b"\x03" + fault(0, 1, 255) + post(0, 0, 2, 100) + \
        post(0, 0, 0, 10) + time(65535) + time(65535)
    f["seed-window-seed004"] = b"\x05" + b"".join(post(0, 1, 2, 64) for _ in range(20)) + \
        time(100) + b"".join(post(1, 0, 2, 2048) for _ in range(18)) + time(1000)
    # T26 CE on success (D-ROCE-20) and the ctrl SE on B's receive CQEs (D-ROCE-21): SEND 00b
    # with SE, WRITE 01b, SEND_IMM 11b (a solicited send CQE), WRITE_IMM 10b with SE, READ 00b
    # last (the drain's zero-length WRITE shows it completed); then B the other way, 11b.
    f["seed-ce-se-success"] = b"\x00" + recv(1, 0, 8) + recv(0, 0, 4) + \
        post(0, 0, 0, 1000, 0, 1) + post(0, 0, 2, 2000, 1) + post(0, 0, 1, 300, 3) + \
        post(0, 0, 3, 4000, 2, 1) + post(0, 0, 4, 1500, 0) + post(1, 0, 0, 100, 3, 1) + \
        time(300)
    # T26 CE in error: every frame A to B lost, retry exhaustion (0x15) on the first WQE (01b:
    # the WQE before it did not fail, so a CQE), the flush after it: 00b, 10b, 11b a CQE each,
    # 01b none (the drain's WRITE ends it).
    f["seed-ce-error"] = b"\x03" + fault(0, 1, 255) + post(0, 0, 2, 100, 1) + \
        post(0, 0, 0, 10, 0) + post(0, 0, 2, 10, 2) + post(0, 0, 2, 10, 3) + \
        post(0, 0, 2, 10, 1) + time(65535) + time(65535)
    # seed004's window of 16 with CE 00b (no CQE): the harness counts outstanding messages by
    # the CQEs, less those that may have completed without one.
    f["seed-ce-window-seed004"] = b"\x04" + \
        b"".join(post(0, 0, 2, 1024, 0) for _ in range(20)) + post(0, 0, 2, 64, 2) + \
        b"".join(post(0, 0, 2, 1024, 1) for _ in range(4)) + time(2000)
    return f


RX_DICT = [b"\x04\x0c", b"\x04\x08", b"\x00\x00\x03", b"\x04\x00\xff\xff", b"\x0a\x00\xff\xff", b"\x0c\x00\xff\xff",
           b"\x11\x00\xff\xff", b"\x64\x00\xff\xff", b"\x81\x00\xff\xff", b"\x11\x11\x11\x11",
           b"\x80\x00\x00\x00", b"\x70\x00\x00\x00", b"\x00\x00\x01\x3c"]
PAIR_DICT = [b"\x00\x00\x00", b"\x00\x00\x02", b"\x00\x00\x04", b"\x01\x02\x08",
             b"\x02\x00\x00", b"\x02\x01\x04", b"\x03\xff\xff", b"\x00\x08", b"\x00\x0c",
             b"\x00\x14"]


def dict_text(entries):
    out = []
    for i, e in enumerate(entries):
        out.append('kw%d="%s"' % (i, "".join("\\x%02x" % c for c in e)))
    return "\n".join(out) + "\n"


def outputs():
    o = {}
    for name, data in rx_inputs(False).items():
        o["corpora/roce_rx/" + name] = data
    for name, data in rx_inputs(True).items():
        o["corpora/roce_rx_icrc/" + name] = data
    for name, data in pair_inputs().items():
        o["corpora/roce_pair/" + name] = data
    o["fuzzers/roce_rx.dict"] = dict_text(RX_DICT).encode()
    o["fuzzers/roce_rx_icrc.dict"] = dict_text(RX_DICT).encode()
    o["fuzzers/roce_pair.dict"] = dict_text(PAIR_DICT).encode()
    return o


def main():
    check = "--check" in sys.argv[1:]
    bad = 0
    for rel, data in sorted(outputs().items()):
        path = os.path.join(ROOT, rel)
        if check:
            try:
                with open(path, "rb") as fh:
                    same = fh.read() == data
            except OSError:
                same = False
            if not same:
                print("roce_seeds: %s is not what roce_seeds.py writes" % rel, file=sys.stderr)
                bad += 1
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
    if bad:
        return 1
    print("roce_seeds: %d files %s" % (len(outputs()), "checked" if check else "written"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

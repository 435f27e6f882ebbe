#!/usr/bin/env python3
"""Seed inputs of the dll_rx and dll_rx_crc fuzz targets (fuzzers/dll_rx_fuzz.c, which
documents the format): writes corpora/dll_rx/seed-*, corpora/dll_rx_crc/seed-* and the
dictionaries fuzzers/dll_rx.dict, fuzzers/dll_rx_crc.dict. Run from the repository root.

The two targets read the same ops, but dll_rx_crc's TLP and DLLP ops end with the packet's check
value as on the wire: the LCRC (PCI Express Base Specification §3.6.2.1, seed 003 T3: zlib's
CRC-32 of the sequence header and the TLP, little-endian; a nullified TLP carries its inverse)
and the DLLP CRC (§3.6.2.2: polynomial 100Bh, initial FFFFh, reflected, complemented, bits 7:0
in byte 4). They are computed here, from the specification, apart from the model's
reference/pcie/crc.c. Each seed is written twice: without the check values for dll_rx (which
computes them), with them for dll_rx_crc; a "bad" value stays bad only in dll_rx_crc."""
import os
import sys
import zlib

OP_TLP, OP_DLLP, OP_SEND, OP_TIME, OP_PHY = range(5)
ACK, NAK = 0x00, 0x10


def dllp_crc(body):
    reg = 0xFFFF
    for b in body:
        reg ^= b
        for _ in range(8):
            reg = (reg >> 1) ^ (0xD008 if reg & 1 else 0)
    return ~reg & 0xFFFF


def tlp_bytes(seq, n, fill):
    return bytes((fill + 7 * i) & 0xFF for i in range(n))


class Seed:
    """Builds one input for both targets at once."""

    def __init__(self, head):
        self.plain = bytearray(head)
        self.crc = bytearray(head)

    def both(self, b):
        self.plain += b
        self.crc += b

    def tlp(self, seq, n, fill=0x40, edb=False, phy=False, reserved=0, bad=False):
        hdr = bytes([(reserved & 0xF) << 4 | (seq >> 8) & 0xF, seq & 0xFF])
        data = tlp_bytes(seq, n, fill)
        self.both(bytes([OP_TLP, (1 if edb else 0) | (2 if phy else 0)]) + hdr + bytes([n]) + data)
        lcrc = zlib.crc32(hdr + data) & 0xFFFFFFFF
        if edb:
            lcrc ^= 0xFFFFFFFF
        if bad:
            lcrc ^= 0x00010000
        self.crc += lcrc.to_bytes(4, "little")

    def dllp(self, kind, seq, phy=False, bad=False):
        body = bytes([kind, 0, (seq >> 8) & 0xF, seq & 0xFF])
        self.both(bytes([OP_DLLP, 1 if phy else 0]) + body)
        crc = dllp_crc(body) ^ (0x0100 if bad else 0)
        self.crc += bytes([crc & 0xFF, crc >> 8])

    def send(self, n):
        self.both(bytes([OP_SEND, n]))

    def time(self, dt):
        self.both(bytes([OP_TIME, dt >> 8, dt & 0xFF]))

    def phy(self, sel):
        self.both(bytes([OP_PHY, sel]))


def seeds():
    s = Seed([0, 4, 2])  # Extended Synch 0, REPLAY_TIMER limit 512, Ack latency 16
    for seq in range(3):
        s.tlp(seq, 12 + seq)
    s.time(64)
    s.tlp(1, 13)  # a duplicate: Ack
    s.tlp(7, 16)  # TLPs lost: Nak, Bad TLP
    s.tlp(3, 20)  # in sequence again
    s.tlp(4, 63, fill=0x99)
    s.time(64)
    yield "seed-in-order", s

    s = Seed([0, 4, 2])
    for n in (3, 7, 31):
        s.send(n)
    s.dllp(ACK, 0)
    s.dllp(ACK, 1)
    s.send(9)
    s.dllp(NAK, 1)  # replay of 2 and 3
    s.dllp(ACK, 3)
    s.dllp(ACK, 100)  # beyond what was sent: DL protocol error (T8)
    s.time(1000)
    yield "seed-ack-nak", s

    s = Seed([1, 2, 1])
    s.tlp(0, 8, bad=True)  # dll_rx_crc: Bad TLP (R3)
    s.tlp(0, 8, edb=True)  # nullified, inverted LCRC: silent (R2)
    s.tlp(0, 8, edb=True, bad=True)  # dll_rx_crc: nullified, LCRC not inverted (E5)
    s.tlp(0, 0)  # too short for a TLP: Bad TLP
    s.tlp(0, 8, phy=True)  # receiver error (R1)
    s.tlp(0, 8, reserved=0xA)  # reserved bits enter the LCRC (D-DLL-19)
    s.send(4)
    s.dllp(ACK, 0, bad=True)  # dll_rx_crc: Bad DLLP (D2)
    s.dllp(ACK, 0, phy=True)  # receiver error (D1)
    s.dllp(0x30, 0)  # another DLLP type: no effect (D3)
    s.dllp(ACK, 0)
    yield "seed-bad", s

    s = Seed([2, 0, 0])  # replay_first, REPLAY_TIMER limit 256
    for n in range(4):
        s.send(5 * n)
    for _ in range(5):
        s.time(100)  # replays, REPLAY_NUM rollover, a retrain asked
    s.phy(1)  # back in L0
    s.time(100)
    s.phy(0)  # Recovery (the peer's retrain)
    s.time(100)
    s.phy(1)
    s.dllp(ACK, 3)
    s.phy(2)  # link down: every reset value
    s.send(1)
    s.tlp(0, 4)
    s.time(50)
    yield "seed-replay", s


DICT = [
    ("tlp", "\\x00\\x00"),
    ("dllp", "\\x01\\x00"),
    ("ack", "\\x00\\x00\\x00\\x00"),
    ("nak", "\\x10\\x00\\x00\\x00"),
    ("send", "\\x02\\x1f"),
    ("time", "\\x03\\x01\\x00"),
    ("phy_down", "\\x04\\x02"),
]


def main():
    if not os.path.isdir("fuzzers") or not os.path.isdir("corpora"):
        sys.exit("dll_rx_seeds.py: run from the repository root")
    for t in ("dll_rx", "dll_rx_crc"):
        os.makedirs("corpora/" + t, exist_ok=True)
    for name, s in seeds():
        with open("corpora/dll_rx/" + name, "wb") as f:
            f.write(s.plain)
        with open("corpora/dll_rx_crc/" + name, "wb") as f:
            f.write(s.crc)
    text = "".join('%s="%s"\n' % kv for kv in DICT)
    for t in ("dll_rx", "dll_rx_crc"):
        with open("fuzzers/%s.dict" % t, "w") as f:
            f.write("# fuzzers/dll_rx_seeds.py writes this file: op tokens of %s\n" % t + text)


if __name__ == "__main__":
    main()

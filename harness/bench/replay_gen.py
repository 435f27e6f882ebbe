#!/usr/bin/python3
"""The capture `make bench` replays (issue 16 item 7): N frames (default 1,000,000) of TCP and
UDP over IPv4 and IPv6, 64 to 1500 bytes on the wire (60 to 1496 without the FCS, as a capture
holds them), to the function's address (02:4E:49:43:52:46, docs/vport.md), a quarter of them to
one of the 16 ports harness/bench/replay_bench.json steers by rule.

Scapy builds a pool of 4096 distinct frames (random 5-tuples, so RSS spreads them over the 8
RQs); the records cycle through the pool in a seeded random order, 1 us apart, written straight
into a classic pcap (nanosecond stamps, link type 1), so a million records take seconds. The
output is the same for the same arguments on every host.

usage: replay_gen.py OUT.pcap [N]"""
import random
import struct
import sys

from scapy.all import IP, TCP, UDP, Ether, IPv6, Raw

MAC = "02:4e:49:43:52:46"
RULE_PORTS = [80, 443, 53, 123, 4791, 5201, 8080, 9000, 11211, 6379, 5432, 3306, 27017, 2049,
              179, 22]
POOL = 4096
CHUNK = 2 << 20  # the size of a huge page on x86-64


def pool(rng):
    frames = []
    for i in range(POOL):
        v6 = rng.random() < 0.5
        udp = rng.random() < 0.5
        size = rng.randint(60, 1496)
        sport = rng.randint(1024, 65535)
        dport = rng.choice(RULE_PORTS) if rng.random() < 0.25 else rng.randint(1024, 65535)
        if v6:
            l3 = IPv6(src="2001:db8::%x" % rng.randint(1, 0xffff),
                      dst="2001:db8:1::%x" % rng.randint(1, 0xffff))
        else:
            l3 = IP(src="10.%d.%d.%d" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254)),
                    dst="192.168.%d.%d" % (rng.randint(0, 255), rng.randint(1, 254)))
        l4 = UDP(sport=sport, dport=dport) if udp else TCP(sport=sport, dport=dport, flags="A")
        p = Ether(dst=MAC, src="02:00:00:00:%02x:%02x" % (i >> 8, i & 0xff)) / l3 / l4
        pad = max(0, size - len(p))
        frames.append(bytes(p / Raw(bytes(rng.getrandbits(8) for _ in range(pad)))))
    return frames


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    rng = random.Random(16)
    frames = pool(rng)
    order = [rng.randrange(POOL) for _ in range(65536)]
    # Written in whole, aligned pieces of CHUNK bytes (not record by record through an 8 KiB
    # buffer): the kernel then keeps the file's pages in the page cache as large folios, as it
    # does for a file that readahead brought in from disk, and a replay's mapping of them costs
    # a tenth of the system time of a cache of 4 KiB pages (docs/replay.md "Speed").
    buf = bytearray(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 262144, 1))
    with open(out, "wb") as f:
        t = 1_000_000_000_000_000_000
        for i in range(n):
            fr = frames[order[i & 0xFFFF] ^ (i >> 16) & (POOL - 1)]
            t += 1000
            buf += struct.pack("<IIII", t // 1_000_000_000, t % 1_000_000_000, len(fr), len(fr))
            buf += fr
            if len(buf) >= CHUNK:
                f.write(buf[:CHUNK])
                del buf[:CHUNK]
        f.write(buf)


if __name__ == "__main__":
    main()

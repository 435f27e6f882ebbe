#!/usr/bin/python3
"""The captures of examples/replay/ (docs/replay.md), built with Scapy:

    /usr/bin/python3 examples/replay/gen_examples.py [--check]

one_rq.pcap     what a real capture holds: UDP and TCP over IPv4 and IPv6, a VLAN-tagged frame,
                a runt from the sending host (54 bytes: the MAC pads it), bad IPv4 and UDP
                checksums, ARP, a frame for another station, a jumbo over the 1500-byte MTU, a
                record cut by the snapshot length and one stamped before the record before it
rss8.pcap       48 TCP and UDP flows over IPv4 and IPv6, and an ARP, for RSS over 8 RQs
vlan_port.pcap  VLAN 10 and VLAN 20 frames, TCP to port 443 and to port 80, tagged or not

`frames(name)` gives each capture's records (time, bytes, wire length) to the independent
prediction (examples/replay/predict.py). --check compares instead of writing (exit 1 when a
file differs)."""
import os
import random
import struct
import sys

from scapy.all import ARP, IP, TCP, UDP, Dot1Q, Ether, IPv6, Raw

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "vectors", "gen"))
from genfiles import write_or_check  # noqa: E402

OWN_MAC = "02:4e:49:43:52:46"  # the vport's permanent address (docs/vport.md D-VP-3)
PEER_MAC = "02:00:00:00:00:99"
T0 = 1_700_000_000 * 10**9     # the first record's time (ns)


def payload(n, seed=0):
    return Raw(bytes((i * 7 + seed) & 0xFF for i in range(n)))


def eth(dst=OWN_MAC):
    return Ether(dst=dst, src=PEER_MAC)


def one_rq():
    """(time offset in us, frame bytes, wire length) of one_rq.pcap."""
    bad_ip = eth() / IP(src="10.0.0.1", dst="10.0.0.2", chksum=0x1234) / UDP(sport=1, dport=2) / payload(20)
    bad_udp = eth() / IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1, dport=2, chksum=0x4321) / payload(20)
    jumbo = eth() / IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=5, dport=6) / payload(1600 - 42)
    cut = bytes(eth() / IP(src="10.0.0.1", dst="10.0.0.2") / TCP(sport=7, dport=8, flags="A") / payload(200))
    recs = [
        (0, eth() / IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1234, dport=80) / payload(40)),
        (10, eth() / IP(src="10.0.0.1", dst="10.0.0.2") / TCP(sport=1234, dport=80, flags="S")),
        (20, eth() / IPv6(src="2001:db8::1", dst="2001:db8::2") / TCP(sport=4321, dport=443, flags="PA") / payload(100)),
        (30, eth() / Dot1Q(vlan=10, prio=3) / IP(src="10.0.0.3", dst="10.0.0.2") / UDP(sport=9, dport=9) / payload(30)),
        (40, bad_ip),
        (50, bad_udp),
        (60, Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) / ARP(psrc="10.0.0.1", pdst="10.0.0.2")),
        (70, eth(dst="02:00:00:00:00:42") / IP(src="10.0.0.1", dst="10.0.0.9") / UDP() / payload(20)),
        (80, jumbo),
    ]
    out = [(t, bytes(p), len(bytes(p))) for t, p in recs]
    out.append((90, cut[:96], len(cut)))                      # cut by a 96-byte snapshot length
    out.append((85, bytes(recs[0][1]), len(bytes(recs[0][1]))))  # stamped 5 us before the one before
    return out


def flows(seed, n):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        v6, udp = i % 2, (i // 2) % 2
        sport, dport = rng.randint(1024, 65535), rng.randint(1, 65535)
        l3 = (IPv6(src="2001:db8::%x" % rng.randint(1, 0xffff), dst="2001:db8:1::%x" % rng.randint(1, 0xffff))
              if v6 else IP(src="10.1.%d.%d" % (rng.randint(0, 255), rng.randint(1, 254)),
                            dst="10.2.%d.%d" % (rng.randint(0, 255), rng.randint(1, 254))))
        l4 = UDP(sport=sport, dport=dport) if udp else TCP(sport=sport, dport=dport, flags="A")
        out.append(eth() / l3 / l4 / payload(rng.randint(0, 400), i))
    return out


def rss8():
    recs = [(10 * i, bytes(p), len(bytes(p))) for i, p in enumerate(flows(8, 48))]
    arp = bytes(Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) / ARP(psrc="10.1.0.1", pdst="10.2.0.1"))
    recs.append((480, arp, len(arp)))
    return recs


def vlan_port():
    def tcp(dport, vlan=None):
        p = eth()
        if vlan is not None:
            p = p / Dot1Q(vlan=vlan, prio=1)
        return p / IP(src="10.3.0.1", dst="10.3.0.2") / TCP(sport=40000 + dport, dport=dport, flags="A") / payload(64)
    recs = [tcp(443), tcp(80), tcp(443, vlan=10), tcp(80, vlan=10), tcp(80, vlan=20), tcp(443, vlan=20),
            eth() / Dot1Q(vlan=10) / IPv6(src="2001:db8::1", dst="2001:db8::2") / UDP(sport=1, dport=2) / payload(8)]
    return [(10 * i, bytes(p), len(bytes(p))) for i, p in enumerate(recs)]


CAPTURES = {"one_rq.pcap": one_rq, "rss8.pcap": rss8, "vlan_port.pcap": vlan_port}


def frames(name):
    return CAPTURES[name]()


def pcap_bytes(recs):
    """A classic pcap (microsecond stamps, link type 1, snapshot length 65535)."""
    b = bytearray(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for t_us, data, wire in recs:
        t = T0 // 1000 + t_us
        b += struct.pack("<IIII", t // 10**6, t % 10**6, len(data), wire) + data
    return bytes(b)


def main(argv):
    files = {os.path.join(HERE, name): pcap_bytes(fn()) for name, fn in CAPTURES.items()}
    return write_or_check(files, "--check" in argv, "gen_examples")

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

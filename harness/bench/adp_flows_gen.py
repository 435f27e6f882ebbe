#!/usr/bin/python3
"""N RC flows in one RoCEv2 capture, to time `nicref adp check` on many flows (issue 11: it was
quadratic in the flows). The capture itself is not checked in (8 MB for 50,000 flows):

    /usr/bin/python3 harness/bench/adp_flows_gen.py 50000 build/flows50k.pcap
    time build/gcc/nicref adp check build/flows50k.pcap --classic --timeout 3

Flow i: requester 10.x.y.z (10.0.0.0 + i + 1) -> responder 11.0.0.1, DestQP i + 1, SEND Only
PSN 0 at i us; every 10th flow loses it and resends after the classic timer 4.096 us << 3
(--classic --timeout 3); the ACK (to requester QP 0x800000 + i) comes 3 us after the last
transmission. Nanosecond pcap."""
import struct, sys

def ip_sum(h):
    s = sum(struct.unpack('!10H', h))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff

def frame(src, dst, opcode, dqp, psn, aeth=None):
    bth = struct.pack('!BBHII', opcode, 0x40, 0xffff, dqp & 0xffffff, psn & 0xffffff)
    pay = bth + (struct.pack('!I', aeth) if aeth is not None else b'') + b'\0' * 4  # ICRC
    udp = struct.pack('!HHHH', 49152, 4791, 8 + len(pay), 0) + pay
    iph = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0, src, dst)
    iph = iph[:10] + struct.pack('!H', ip_sum(iph)) + iph[12:]
    return b'\x02\0\0\0\0\x02' + b'\x02\0\0\0\0\x01' + b'\x08\x00' + iph + udp

def main(n, path):
    ev = []
    resp = bytes([11, 0, 0, 1])
    for i in range(n):
        a = 0x0a000000 + i + 1
        req = struct.pack('!I', a)
        t = i * 1000
        ev.append((t, 0, frame(req, resp, 0x04, i + 1, 0)))
        last = t
        if i % 10 == 0:
            last = t + (4096 << 3)
            ev.append((last, 0, frame(req, resp, 0x04, i + 1, 0)))
        ev.append((last + 3000, 1, frame(resp, req, 0x11, 0x800000 + i, 0, aeth=i & 0xffffff)))
    ev.sort(key=lambda e: (e[0], e[1]))
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b23c4d, 2, 4, 0, 0, 65535, 1))
        base = 1_700_000_000 * 10**9
        for t, _, fr in ev:
            ts = base + t
            f.write(struct.pack('<IIII', ts // 10**9, ts % 10**9, len(fr), len(fr)))
            f.write(fr)

if __name__ == '__main__':
    main(int(sys.argv[1]), sys.argv[2])

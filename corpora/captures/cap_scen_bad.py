"""Scenario 10: malformed frames.

Part of the capture generator (gen_captures.py): from public formats only, it never runs nicref."""
import random
import struct

from scapy.layers.inet import IP, UDP
from scapy.packet import Raw

from cap_frames import (A, B, Frame, GID_A, GID_B, IP_A, IP_B, IpId, LT_ETHERNET, Link, MAC_A,
                        MAC_B, OP_SEND_ONLY, ROCE_PORT, bth, grh, payload_bytes, roce_v2_v4,
                        transport)
from cap_rc import Flow, check_pairing, rc_events, rc_frames
from cap_files import mlx_qpns, sort_frames, tag_sports, write_pcap


# ---- 10. Malformed frames --------------------------------------------------------------------

def gen_malformed(out):
    rng = random.Random(2113)
    ipid = IpId(rng)
    link = Link("eth")
    frames, flows = [], []
    qa, qb = mlx_qpns(rng, 2), mlx_qpns(rng, 2)
    sport = 0xC000 | rng.randrange(0x4000)
    fl = Flow("v4", A, B, qa[0], qb[0], rng.randrange(1 << 24), sport, sport, "unique")
    flows.append(fl)
    ev, _ = rc_events(rng, fl, 0, 6, {2: 1})
    frames += rc_frames(link, rng, fl, ev, ipid)

    def good_v4(t, op=OP_SEND_ONLY):
        tr = transport(op, qb[1], rng.randrange(1 << 24), b"", payload_bytes(rng, 32))
        return roce_v2_v4(IP_A, IP_B, sport + 1, tr, ipid.next(IP_A))[1]

    def fix_ipsum(b):
        b = bytearray(b)
        b[10:12] = b"\0\0"
        ihl = max(5, b[0] & 0x0F) * 4
        s = sum(struct.unpack("!%dH" % (ihl // 2), bytes(b[:ihl])))
        while s >> 16:
            s = (s & 0xFFFF) + (s >> 16)
        b[10:12] = struct.pack("!H", ~s & 0xFFFF)
        return bytes(b)

    bad = []
    l3 = bytearray(good_v4(0))                   # IHL 4 (< 5): not a valid IPv4 header
    l3[0] = 0x44
    bad.append(("ihl", fix_ipsum(l3)))
    l3 = bytearray(good_v4(0))                   # version 6 under EtherType 0x0800
    l3[0] = 0x65
    bad.append(("version", fix_ipsum(l3)))
    l3 = bytearray(good_v4(0))                   # total length 16 < IHL*4
    l3[2:4] = struct.pack("!H", 16)
    bad.append(("totlen_small", fix_ipsum(l3)))
    l3 = bytearray(good_v4(0))                   # total length beyond the frame
    l3[2:4] = struct.pack("!H", 1400)
    bad.append(("totlen_big", fix_ipsum(l3)))
    l3 = bytearray(good_v4(0))                   # UDP length 16 < 8 + 12
    l3[24:26] = struct.pack("!H", 16)
    bad.append(("udplen", bytes(l3)))
    # RoCEv2 whose IP/UDP lengths end 6 bytes into the BTH (the frame is padded to 60 bytes)
    tr6 = bth(OP_SEND_ONLY, qb[1], 5)[:6]
    l3 = bytes(IP(src=IP_A, dst=IP_B, tos=0x6A, ttl=64, id=ipid.next(IP_A), flags="DF") /
               UDP(sport=sport + 1, dport=ROCE_PORT, chksum=0) / Raw(tr6))
    bad.append(("bth_short_v2", l3))
    t = 30_000
    for why, l3b in bad:
        _, data = link.wrap(MAC_A, MAC_B, 0x0800, l3b)
        frames.append(Frame(t, data, "malformed", why=why))
        t += rng.randrange(3_000, 9_000)
    # RoCEv1: GRH next header 0x11 instead of 0x1B
    tr = transport(OP_SEND_ONLY, qb[1], 7, b"", payload_bytes(rng, 32))
    g = grh(GID_A, GID_B, len(tr), nexthdr=0x11) + tr
    _, data = link.wrap(MAC_A, MAC_B, 0x8915, g)
    frames.append(Frame(t, data, "malformed", why="grh_nexthdr"))
    t += 4_000
    # RoCEv1 whose frame (60 bytes, the Ethernet minimum) ends 6 bytes into the BTH
    g = grh(GID_A, GID_B, 6) + bth(OP_SEND_ONLY, qb[1], 8)[:6]
    _, data = link.wrap(MAC_A, MAC_B, 0x8915, g)
    assert len(data) == 60
    frames.append(Frame(t, data, "malformed", why="bth_short_v1"))
    frames = sort_frames(frames)
    tag_sports(frames)
    check_pairing(frames, flows)
    write_pcap(out.path("malformed.pcap"), frames, LT_ETHERNET)
    out.add("malformed.pcap",
            "one good RC QP pair plus 8 malformed frames: IPv4 IHL 4, IPv4 version 6 under "
            "EtherType 0x0800, IPv4 total length 16 and 1400 (beyond the frame), UDP length 16 "
            "on port 4791, a RoCEv2 and a RoCEv1 frame ending inside the BTH, a RoCEv1 GRH "
            "with next header 0x11",
            0, frames, flows)

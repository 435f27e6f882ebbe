"""Scenarios 3 and 4: RoCEv1 and RoCEv2 mixed; UC, UD, CNP, XRC, vendor opcodes and other
traffic mixed in.

Part of the capture generator (gen_captures.py): from public formats only, it never runs nicref."""
import random
import struct

from scapy.layers.dns import DNS, DNSQR
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import ICMPv6ND_NS, ICMPv6NDOptSrcLLAddr, IPv6
from scapy.packet import Raw

from cap_frames import (A, B, Frame, IP6_A, IP6_B, IP_A, IP_B, IpId, LT_ETHERNET, Link, MAC_A,
                        MAC_B, OP_CNP, OP_UC_SEND_ONLY, OP_UC_WRITE_ONLY, OP_UD_SEND_ONLY,
                        OP_XRC_SEND_ONLY, ROCE_PORT, deth, icrc_value, other_frame,
                        payload_bytes, reth, roce_frame, transport)
from cap_rc import Flow, arp_bytes, check_pairing, psn_add, rc_events, rc_frames, tcp_bytes
from cap_files import lldp_frame, loss_plan, mlx_qpns, sort_frames, tag_sports, write_pcap


# ---- 3. RoCEv1 and RoCEv2 mixed --------------------------------------------------------------

def gen_mixed_versions(out):
    rng = random.Random(2103)
    ipid = IpId(rng)
    link = Link("eth")
    frames, flows = [], []
    spec = [("v1", "psn")] * 3 + [("v4", "udp_sport")] * 4 + [("v6", "unique")]
    qa, qb = mlx_qpns(rng, len(spec)), mlx_qpns(rng, len(spec))
    for i, (kind, by) in enumerate(spec):
        sport = 0xC000 | rng.randrange(0x4000)
        fl = Flow(kind, A, B, qa[i], qb[i], rng.randrange(1 << 24), sport, sport, by)
        flows.append(fl)
        nb = rng.randint(4, 7)
        plan = loss_plan(rng, nb, 0.25, 0.08)
        if kind == "v1" and not plan:
            plan[1] = 1
        ev, _ = rc_events(rng, fl, rng.randrange(0, 40_000), nb, plan)
        frames += rc_frames(link, rng, fl, ev, ipid)
    frames.append(lldp_frame(link, 7_000))
    frames = sort_frames(frames)
    tag_sports(frames)
    check_pairing(frames, flows)
    write_pcap(out.path("roce_v1_v2_mixed.pcap"), frames, LT_ETHERNET, nano=False)
    out.add("roce_v1_v2_mixed.pcap",
            "microsecond pcap: 3 RoCEv1 RC QP pairs (EtherType 0x8915, GRH between link-local "
            "GIDs, paired by PSN), 4 RoCEv2 IPv4 QP pairs (paired by UDP source port) and one "
            "RoCEv2 IPv6 QP pair (the only flow between its addresses), with retransmissions on "
            "both versions",
            0, frames, flows, nano=False)


# ---- 4. UC, UD, CNP, XRC, vendor opcodes, ARP/LLDP/TCP mixed in ------------------------------

def gen_mixed_transports(out):
    rng = random.Random(2104)
    ipid = IpId(rng)
    link = Link("eth")
    frames, flows = [], []
    qa, qb = mlx_qpns(rng, 8), mlx_qpns(rng, 8)
    for i in range(2):
        sport = 0xC000 | rng.randrange(0x4000)
        fl = Flow("v4", A, B, qa[i], qb[i], rng.randrange(1 << 24), sport, sport, "udp_sport")
        flows.append(fl)
        ev, _ = rc_events(rng, fl, rng.randrange(0, 20_000), 6, {1: 1} if i == 0 else {})
        frames += rc_frames(link, rng, fl, ev, ipid)
    t = 3_000
    # UC: SEND Only and RDMA WRITE Only on one UC QP pair (no ACKs: UC is unacknowledged)
    psn = rng.randrange(1 << 24)
    sport = 0xC000 | rng.randrange(0x4000)
    for k in range(6):
        if k % 2:
            tr = transport(OP_UC_WRITE_ONLY, qb[2], psn,
                           reth(0x7F00_0000_0000 + k * 4096, 0x1234, 64), payload_bytes(rng, 64))
        else:
            tr = transport(OP_UC_SEND_ONLY, qb[2], psn, b"", payload_bytes(rng, 96))
        frames.append(roce_frame(link, t, A, B, "v4", sport, tr, "uc", ipid))
        psn = psn_add(psn, 1)
        t += rng.randrange(2_000, 9_000)
    # UD: SEND Only with DETH both ways between two UD QPs (e.g. IPoIB-like datagrams)
    for k in range(6):
        s, d, dq, sq = (A, B, qb[3], qa[3]) if k % 2 == 0 else (B, A, qa[3], qb[3])
        tr = transport(OP_UD_SEND_ONLY, dq, rng.randrange(1 << 24), deth(0x11111111, sq),
                       payload_bytes(rng, 128))
        frames.append(roce_frame(link, t, s, d, "v4", 0xC000 | rng.randrange(0x4000), tr, "ud",
                                 ipid))
        t += rng.randrange(1_000, 7_000)
    # CNPs from B to the RC requester QPs (DSCP 48, as mlx5 sends them; BECN set; 16 reserved)
    for k in range(4):
        tr = transport(OP_CNP, flows[k % 2].req_qp, 0, b"", b"\0" * 16, becn=1)
        frames.append(roce_frame(link, 2_000 + k * 17_000, B, A, "v4",
                                 0xC000 | rng.randrange(0x4000), tr, "cnp", ipid, tos=0xC0))
    # XRC: SEND Only with XRCETH (the XRC SRQ number) to an XRC target QP
    for k in range(3):
        tr = transport(OP_XRC_SEND_ONLY, qb[4], rng.randrange(1 << 24),
                       struct.pack("!I", 0x00A5C0 + k), payload_bytes(rng, 64))
        frames.append(roce_frame(link, 11_000 + k * 9_000, A, B, "v4",
                                 0xC000 | rng.randrange(0x4000), tr, "xrc", ipid))
    # manufacturer-specific opcodes (0xC0-0xFF, e.g. a DC transport)
    for k, op in enumerate((0xC4, 0xE4, 0xC4)):
        tr = transport(op, qb[5], rng.randrange(1 << 24), b"", payload_bytes(rng, 48))
        frames.append(roce_frame(link, 15_000 + k * 6_000, A, B, "v4",
                                 0xC000 | rng.randrange(0x4000), tr, "vendor", ipid))
    # a UD datagram to UDP 4791 fragmented by a router (DF clear): the first fragment holds the
    # UDP header and the BTH (class ud), the second is an IPv4 non-first fragment (not_roce)
    big = transport(OP_UD_SEND_ONLY, qb[6], rng.randrange(1 << 24), deth(0x22222222, qa[6]),
                    payload_bytes(rng, 1800))
    whole = bytes(IP(src=IP_A, dst=IP_B, tos=0x68, ttl=63, id=0x7A31, flags=0) /
                  UDP(sport=0xC000 | rng.randrange(0x4000), dport=ROCE_PORT, chksum=0) /
                  Raw(big))
    whole = whole[:-4] + icrc_value(whole, "v4")
    body = whole[20:]
    for off, chunk, mf in ((0, body[:1480], 1), (1480, body[1480:], 0)):
        hdr = IP(src=IP_A, dst=IP_B, tos=0x68, ttl=63, id=0x7A31, flags=mf,
                 frag=off // 8, proto=17, len=20 + len(chunk))
        l3 = bytes(hdr) + chunk
        h, data = link.wrap(MAC_A, MAC_B, 0x0800, l3)
        if off == 0:
            frames.append(Frame(20_500, data, "ud", ver=2, bth_end=len(h) + 28 + 12))
        else:
            frames.append(Frame(20_520, data, "not_roce"))
    # non-RoCE: LLDP, ARP, NVMe/TCP, DNS, IPv6 neighbour solicitation
    frames.append(lldp_frame(link, 500))
    frames.append(other_frame(link, 900, MAC_A, "ff:ff:ff:ff:ff:ff",
                              arp_bytes(1, MAC_A, IP_A, "00:00:00:00:00:00", IP_B), 0x0806))
    frames.append(other_frame(link, 1_100, MAC_B, MAC_A,
                              arp_bytes(2, MAC_B, IP_B, MAC_A, IP_A), 0x0806))
    seq_a, seq_b = 0x1C2D3E4F, 0x5A6B7C8D
    for k, (s, d, sp, dp, sq, ak, fl_, pl) in enumerate([
            (IP_A, IP_B, 51234, 4420, seq_a, 0, "S", b""),
            (IP_B, IP_A, 4420, 51234, seq_b, seq_a + 1, "SA", b""),
            (IP_A, IP_B, 51234, 4420, seq_a + 1, seq_b + 1, "A", b""),
            (IP_A, IP_B, 51234, 4420, seq_a + 1, seq_b + 1, "PA", payload_bytes(rng, 128)),
            (IP_B, IP_A, 4420, 51234, seq_b + 1, seq_a + 129, "PA", payload_bytes(rng, 132))]):
        sm, dm = (MAC_A, MAC_B) if s == IP_A else (MAC_B, MAC_A)
        frames.append(other_frame(link, 4_000 + k * 2_500, sm, dm,
                                  tcp_bytes(s, d, sp, dp, sq, ak, fl_, pl), 0x0800))
    dns = bytes(IP(src=IP_A, dst="10.0.0.53", ttl=64, id=0x1111) /
                UDP(sport=40001, dport=53) / DNS(id=0x2B2B, rd=1, qd=DNSQR(qname="leaf-07.lab.")))
    frames.append(other_frame(link, 8_800, MAC_A, MAC_B, dns, 0x0800))
    ns = bytes(IPv6(src=IP6_A, dst="ff02::1:ff00:2", hlim=255) /
               ICMPv6ND_NS(tgt=IP6_B) / ICMPv6NDOptSrcLLAddr(lladdr=MAC_A))
    frames.append(other_frame(link, 9_900, MAC_A, "33:33:ff:00:00:02", ns, 0x86DD))
    frames = sort_frames(frames)
    tag_sports(frames)
    check_pairing(frames, flows)
    write_pcap(out.path("mixed_transports.pcap"), frames, LT_ETHERNET)
    out.add("mixed_transports.pcap",
            "two RC QP pairs checked, with UC, UD, CNP (DSCP 48), XRC and manufacturer-specific "
            "opcode frames, an IPv4-fragmented UDP 4791 datagram, and ARP, LLDP, NVMe/TCP, DNS "
            "and IPv6 neighbour solicitation frames mixed in (counted, not checked)",
            0, frames, flows)

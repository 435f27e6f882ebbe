"""Scenarios 7 to 9: pcapng merged from two interfaces; Linux cooked captures (SLL, SLL2);
ERF (native InfiniBand).

Part of the capture generator (gen_captures.py): from public formats only, it never runs nicref."""
import random
import struct
import zlib

from cap_frames import (A, B, Frame, IP_A, IP_B, IpId, LT_ERF, LT_ETHERNET, LT_SLL, LT_SLL2,
                        Link, MAC_A, MAC_B, Node, OP_ACK, OP_SEND_ONLY, T0_NS, aeth,
                        other_frame, payload_bytes, transport)
from cap_rc import Flow, arp_bytes, check_pairing, psn_add, rc_events, rc_frames, tcp_bytes
from cap_files import mlx_qpns, sort_frames, tag_sports, write_pcap, write_pcapng


# ---- 7. pcapng merged from two interfaces ----------------------------------------------------

def two_port_frames(seed):
    """Two ports of one dual-port adapter, each with its own subnet and 3 RC QP pairs."""
    rng = random.Random(seed)
    ipid = IpId(rng)
    link = Link("eth")
    frames, flows = [], []
    qa, qb = mlx_qpns(rng, 6), mlx_qpns(rng, 6)
    ports = [(A, B), (Node("b8:ce:f6:4a:10:03", "10.0.1.1"), Node("b8:ce:f6:4a:10:04",
                                                                    "10.0.1.2"))]
    for i in range(6):
        port = i // 3
        s, d = ports[port]
        sport = 0xC000 | rng.randrange(0x4000)
        fl = Flow("v4", s, d, qa[i], qb[i], rng.randrange(1 << 24), sport, sport, "udp_sport")
        flows.append(fl)
        ev, _ = rc_events(rng, fl, rng.randrange(0, 20_000), 5, {1: 1} if i in (1, 4) else {})
        fr = rc_frames(link, rng, fl, ev, ipid)
        for f in fr:
            f.iface = port
        frames += fr
    frames = sort_frames(frames)
    tag_sports(frames)
    check_pairing(frames, flows)
    return frames, flows


def gen_pcapng(out):
    frames, flows = two_port_frames(2108)
    ifaces = [(LT_ETHERNET, 262144, b"enp65s0f0np0", b"ConnectX-6 Dx port 1"),
              (LT_ETHERNET, 262144, b"enp65s0f1np1", b"ConnectX-6 Dx port 2")]
    write_pcapng(out.path("merged_2if.pcapng"), frames, ifaces)
    out.add("merged_2if.pcapng",
            "pcapng merged from the two ports of a dual-port adapter (two interface blocks, "
            "both Ethernet, snaplen 262144, nanosecond if_tsresol), 3 RC QP pairs on each",
            0, frames, flows, snaplens=(262144, 262144), linktypes=(LT_ETHERNET, LT_ETHERNET))
    ifaces_snap = [ifaces[0], (LT_ETHERNET, 128, b"enp65s0f1np1", b"ConnectX-6 Dx port 2")]
    write_pcapng(out.path("merged_snaplen_differ.pcapng"), frames, ifaces_snap)
    out.add("merged_snaplen_differ.pcapng",
            "the same merge, but port 2 was captured with snaplen 128: libpcap refuses a "
            "pcapng whose interfaces differ in snapshot length",
            2, stderr=["editcap"])
    # link types differ: port 2 recorded with tcpdump -i any (Linux cooked SLL)
    sll = Link("sll", local=MAC_A)
    mixed = []
    for f in frames:
        if f.iface == 1:
            et = struct.unpack("!H", f.data[12:14])[0]
            src = ":".join("%02x" % x for x in f.data[6:12])
            _, data = sll.wrap(src, None, et, f.data[14:])
            g = Frame(f.t, data, f.cls, ver=f.ver, bth_end=f.bth_end + 2, iface=1)
            mixed.append(g)
        else:
            mixed.append(f)
    ifaces_lt = [ifaces[0], (LT_SLL, 262144, b"any", b"Pseudo-device that captures on all "
                                                      b"interfaces")]
    write_pcapng(out.path("merged_linktype_differ.pcapng"), mixed, ifaces_lt)
    out.add("merged_linktype_differ.pcapng",
            "a merge of an Ethernet capture and a Linux cooked (tcpdump -i any) capture: "
            "libpcap refuses a pcapng whose interfaces differ in link type",
            2, stderr=["editcap"])


# ---- 8. Linux cooked captures (SLL, SLL2) of soft-RoCE (rxe) traffic ------------------------

def rxe_sport(qpn):
    """Linux rxe: src_port = 0xC000 + (hash_32(qpn, 14) & 0x3fff), one port per local QP (so
    the two directions of a QP pair use different ports)."""
    return 0xC000 + ((((qpn * 0x61C88647) & 0xFFFFFFFF) >> 18) & 0x3FFF)


def gen_sll(out):
    for name, kind, seed, lt in (("sll_rxe.pcap", "sll", 2110, LT_SLL),
                                 ("sll2_rxe.pcap", "sll2", 2111, LT_SLL2)):
        rng = random.Random(seed)
        ipid = IpId(rng)
        link = Link(kind, local=MAC_A, ifindex=2)
        frames, flows = [], []
        qa, qb = [0x11, 0x12, 0x13], [0x16, 0x17, 0x18]     # rxe numbers QPs from 0x11
        for i in range(3):
            fl = Flow("v4", A, B, qa[i], qb[i], rng.randrange(1 << 24), rxe_sport(qa[i]),
                      rxe_sport(qb[i]), "psn")
            flows.append(fl)
            ev, _ = rc_events(rng, fl, rng.randrange(0, 30_000), 6,
                              {2: 1} if i != 1 else {0: 1, 4: 2})
            frames += rc_frames(link, rng, fl, ev, ipid)
        frames.append(other_frame(link, 300, MAC_A, None,
                                  arp_bytes(1, MAC_A, IP_A, "00:00:00:00:00:00", IP_B), 0x0806))
        frames.append(other_frame(link, 450, MAC_B, None,
                                  arp_bytes(2, MAC_B, IP_B, MAC_A, IP_A), 0x0806))
        seq = 0x0BADCAFE
        for k in range(4):
            s, d, sm = (IP_A, IP_B, MAC_A) if k % 2 == 0 else (IP_B, IP_A, MAC_B)
            frames.append(other_frame(link, 2_000 + k * 4_100, sm, None,
                                      tcp_bytes(s, d, 22 if s == IP_B else 60100,
                                                60100 if s == IP_B else 22, seq + k * 64,
                                                0x1000, "PA", payload_bytes(rng, 64)), 0x0800))
        frames = sort_frames(frames)
        tag_sports(frames)
        check_pairing(frames, flows)
        write_pcap(out.path(name), frames, lt, nano=False)
        out.add(name,
                "tcpdump -i any (%s, microsecond pcap) of soft-RoCE (rxe) traffic: 3 RC QP pairs "
                "whose two directions use different UDP source ports (rxe derives the port from "
                "the local QPN), so the PSN pairs each ACK; ARP and SSH mixed in" %
                ("Linux cooked SLL" if kind == "sll" else "Linux cooked SLL2"),
                0, frames, flows, linktypes=(lt,), nano=False)


# ---- 9. ERF (native InfiniBand) --------------------------------------------------------------

def gen_erf(out):
    """ibdump-like capture of native InfiniBand in ERF records (ERF type 21 = InfiniBand):
    LRH (LNH = IBA local), BTH, payload, ICRC (computed over the LRH with VL set to 1s, the BTH
    with resv8a set to 1s, and the payload) and VCRC (left 0: nicref refuses the link type
    before it could look at a frame)."""
    rng = random.Random(2112)
    recs = []
    t = 0
    psn = rng.randrange(1 << 24)
    for k in range(6):
        if k % 2 == 0:
            slid, dlid, tr = 0x0003, 0x0007, transport(OP_SEND_ONLY, 0x1A4, psn, b"",
                                                       payload_bytes(rng, 64), ackreq=1)
        else:
            slid, dlid, tr = 0x0007, 0x0003, transport(OP_ACK, 0x0C9, psn, aeth(0x1F, k // 2 + 1))
            psn = psn_add(psn, 1)
        pktlen = (8 + len(tr)) // 4
        lrh = struct.pack("!BBHHH", 0x00, 0x02, dlid, pktlen, slid)   # VL0, SL0, LNH 2
        pkt = bytearray(lrh + tr)
        masked = bytearray(pkt)
        masked[0] |= 0xF0
        masked[12] = 0xFF
        pkt[-4:] = struct.pack("<I", zlib.crc32(bytes(masked[:-4])))
        pkt += b"\0\0"                                   # VCRC (not computed)
        ts = T0_NS + t
        erf_ts = ((ts // 10**9) << 32) | (((ts % 10**9) << 32) // 10**9)
        rlen = 16 + len(pkt)
        rec = struct.pack("<Q", erf_ts) + struct.pack("!BBHHH", 21, 0x04, rlen, 0, len(pkt)) + \
            bytes(pkt)
        recs.append(Frame(t, rec, "not_roce"))
        t += rng.randrange(2_000, 30_000)
    write_pcap(out.path("erf_infiniband.pcap"), recs, LT_ERF)
    out.add("erf_infiniband.pcap",
            "native InfiniBand (RC SEND and ACK between LIDs 3 and 7) in ERF records "
            "(LINKTYPE_ERF 197): not an Ethernet capture, refused with the link type named",
            2, stderr=["ERF", "Ethernet"])

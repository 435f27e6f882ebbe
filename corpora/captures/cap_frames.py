"""Frames of the captures: the checker's settings, link types, hosts, the InfiniBand transport
headers, the ICRC, the L3 builders and link layers, and the Frame record with what the capture
expects of it.

Part of the capture generator (gen_captures.py): from public formats only, it never runs nicref."""
import os
import struct
import zlib

from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw


HERE = os.path.dirname(os.path.abspath(__file__))
REL = "corpora/captures/"

# ---- The checker's settings every capture is judged with -------------------------------------

TIMEOUT, RETRY_CNT = 14, 7                 # the usual rdma_cm local ACK timeout / retry count
T_ACK_NS = 4096 << TIMEOUT                 # IBTA 9.7.6.1.1: 4.096 us x 2^14 = 67.108864 ms
ARGS = ["--classic", "--timeout", str(TIMEOUT), "--retry-cnt", str(RETRY_CNT)]
REORDER_TOL_NS = 100_000                   # the contract's default --reorder-tolerance-ns
T0_NS = 1_718_000_000 * 10**9              # capture start (fixed: reproducible files)
ROCE_PORT = 4791

# ---- Link types (tcpdump.org LINKTYPE_* values) -----------------------------------------------

LT_ETHERNET, LT_SLL, LT_SLL2, LT_ERF = 1, 113, 276, 197
LINK_KEY = {LT_ETHERNET: "ethernet", LT_SLL: "linux_sll", LT_SLL2: "linux_sll2"}

# ---- Hosts -----------------------------------------------------------------------------------

MAC_A, MAC_B = "b8:ce:f6:4a:10:01", "b8:ce:f6:4a:10:02"      # two ConnectX ports (NVIDIA OUI)
MAC_SW = "0c:42:a1:77:00:01"                                  # the switch (LLDP)
IP_A, IP_B = "10.0.0.1", "10.0.0.2"
IP6_A, IP6_B = "fd12:3456:789a:1::1", "fd12:3456:789a:1::2"
# RoCEv1 GIDs: the link-local GIDs derived from the MACs (EUI-64, universal/local bit flipped)
GID_A, GID_B = "fe80::bace:f6ff:fe4a:1001", "fe80::bace:f6ff:fe4a:1002"


def mac_bytes(mac):
    return bytes(int(x, 16) for x in mac.split(":"))


def ip6_bytes(addr):
    import ipaddress
    return ipaddress.IPv6Address(addr).packed


# ---- InfiniBand transport headers (IBTA Vol. 1) ----------------------------------------------

OP_SEND_FIRST, OP_SEND_MIDDLE, OP_SEND_LAST, OP_SEND_ONLY = 0x00, 0x01, 0x02, 0x04
OP_WRITE_FIRST, OP_WRITE_MIDDLE, OP_WRITE_LAST, OP_WRITE_ONLY = 0x06, 0x07, 0x08, 0x0A
OP_READ_REQ, OP_READ_RESP_ONLY, OP_ACK = 0x0C, 0x10, 0x11
OP_UC_SEND_ONLY, OP_UC_WRITE_ONLY = 0x24, 0x2A
OP_UD_SEND_ONLY = 0x64
OP_CNP = 0x81
OP_XRC_SEND_ONLY = 0xA4
PMTU = 1024                                # path MTU of every RC QP here (IB MTU 1024)
QKEY_GSI = 0x80010000                      # the well-known Q_Key of QP1 (IBTA 13.4.6.2)


def bth(opcode, dqpn, psn, ackreq=0, se=0, pad=0, pkey=0xFFFF, becn=0):
    """IBTA 9.2 BTH: opcode, SE|M|PadCnt|TVer, P_Key, FECN|BECN|resv, DestQP, A|resv, PSN."""
    return struct.pack("!BBHBBHBBH", opcode, (se << 7) | (pad << 4), pkey, becn << 6,
                       (dqpn >> 16) & 0xFF, dqpn & 0xFFFF, ackreq << 7, (psn >> 16) & 0xFF,
                       psn & 0xFFFF)


def reth(va, rkey, length):
    return struct.pack("!QII", va, rkey, length)


def aeth(syndrome, msn):
    return struct.pack("!I", (syndrome << 24) | (msn & 0xFFFFFF))


def deth(qkey, srcqp):
    return struct.pack("!II", qkey, srcqp & 0xFFFFFF)


def payload_bytes(rng, n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def transport(opcode, dqpn, psn, ext=b"", payload=b"", ackreq=0, se=0, becn=0):
    """BTH + extension headers + payload + pad to 4 bytes + 4-byte ICRC placeholder."""
    pad = (-len(payload)) % 4
    return bth(opcode, dqpn, psn, ackreq, se, pad, becn=becn) + ext + payload + b"\0" * pad + \
        b"\0" * 4


# ---- ICRC (IBTA Vol. 1 7.8.1; RoCEv2 Annex A17.3.3) ------------------------------------------
# CRC-32 (the Ethernet CRC) over: 8 bytes of 1s in place of the LRH, the IP header / GRH with
# its variant fields (IPv4 TOS, TTL, header checksum; IPv6/GRH traffic class, flow label, hop
# limit) set to 1s, the UDP header with its checksum set to 1s, the BTH with its 8 reserved
# bits after the P_Key (FECN, BECN, resv6) set to 1s, and the rest up to the ICRC. The CRC is
# stored least significant byte first, as the Ethernet FCS is.

def icrc_value(l3, kind):
    b = bytearray(l3)
    if kind == "v4":
        ihl = (b[0] & 0x0F) * 4
        end = struct.unpack("!H", b[2:4])[0] - 4
        b[1] = 0xFF
        b[8] = 0xFF
        b[10:12] = b"\xff\xff"
        b[ihl + 6:ihl + 8] = b"\xff\xff"
        b[ihl + 8 + 4] = 0xFF
    else:                                   # "v6" (RoCEv2 over IPv6) or "v1" (GRH)
        end = 40 + struct.unpack("!H", b[4:6])[0] - 4
        b[0] |= 0x0F
        b[1:4] = b"\xff\xff\xff"
        b[7] = 0xFF
        off = 40
        if kind == "v6":
            b[46:48] = b"\xff\xff"
            off = 48
        b[off + 4] = 0xFF
    return struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(b[:end])))


# ---- L3 builders: each returns (ethertype, l3 bytes, offset of the BTH in l3) ----------------

class Node:
    def __init__(self, mac, v4=None, v6=None, gid=None):
        self.mac, self.v4, self.v6, self.gid = mac, v4, v6, gid


A = Node(MAC_A, IP_A, IP6_A, GID_A)
B = Node(MAC_B, IP_B, IP6_B, GID_B)


class IpId:
    """Per-source IPv4 identification counters (Linux-like: increments per packet)."""

    def __init__(self, rng):
        self.n = {}
        self.rng = rng

    def next(self, src):
        v = self.n.get(src)
        if v is None:
            v = self.rng.randrange(0x10000)
        self.n[src] = (v + 1) & 0xFFFF
        return v


def roce_v2_v4(src, dst, sport, tr, ipid, tos=0x6A, udp_csum=0):
    """RoCEv2 over IPv4: DSCP 26 + ECT(0) (the usual lossless class), DF, TTL 64, UDP checksum
    0 (RoCEv2 leaves it 0 over IPv4 and relies on the ICRC)."""
    def build(t):
        return bytes(IP(src=src, dst=dst, tos=tos, ttl=64, id=ipid, flags="DF") /
                     UDP(sport=sport, dport=ROCE_PORT, chksum=udp_csum) / Raw(t))
    raw = build(tr)
    raw = raw[:-4] + icrc_value(raw, "v4")
    return 0x0800, raw, 28


def roce_v2_v6(src, dst, sport, tr, tc=0x6A, fl=0):
    """RoCEv2 over IPv6 (the UDP checksum is computed: zero is not allowed over IPv6)."""
    def build(t):
        return bytes(IPv6(src=src, dst=dst, tc=tc, fl=fl, hlim=64) /
                     UDP(sport=sport, dport=ROCE_PORT) / Raw(t))
    raw = build(tr)
    raw = build(tr[:-4] + icrc_value(raw, "v6"))
    return 0x86DD, raw, 48


def grh(sgid, dgid, paylen, nexthdr=0x1B, tc=0x6A, hop=1):
    return struct.pack("!IHBB", (6 << 28) | (tc << 20), paylen, nexthdr, hop) + \
        ip6_bytes(sgid) + ip6_bytes(dgid)


def roce_v1(sgid, dgid, tr):
    """RoCEv1: EtherType 0x8915, a 40-byte GRH (next header 0x1B = IBA transport), the BTH."""
    raw = grh(sgid, dgid, len(tr)) + tr
    raw = raw[:-4] + icrc_value(raw, "v1")
    return 0x8915, raw, 40


# ---- Link layers -----------------------------------------------------------------------------

def eth_hdr(src_mac, dst_mac, ethertype, vlans=()):
    h = mac_bytes(dst_mac) + mac_bytes(src_mac)
    for tpid, pcp, vid in vlans:
        h += struct.pack("!HH", tpid, (pcp << 13) | vid)
    return h + struct.pack("!H", ethertype)


def sll_hdr(pkttype, src_mac, ethertype):
    """Linux cooked v1 (LINKTYPE_LINUX_SLL): packet type, ARPHRD_ETHER, address length 6,
    address (8 bytes, padded), protocol."""
    return struct.pack("!HHH", pkttype, 1, 6) + mac_bytes(src_mac) + b"\0\0" + \
        struct.pack("!H", ethertype)


def sll2_hdr(pkttype, src_mac, ethertype, ifindex):
    """Linux cooked v2 (LINKTYPE_LINUX_SLL2): protocol, reserved, interface index, ARPHRD_ETHER,
    packet type, address length, address (8 bytes, padded)."""
    return struct.pack("!HHIHBB", ethertype, 0, ifindex, 1, pkttype, 6) + mac_bytes(src_mac) + \
        b"\0\0"


class Link:
    """How one capture wraps its L3 packets: Ethernet (with optional VLAN tags), SLL or SLL2.
    `local` is the MAC of the capturing host (SLL packet type: 4 outgoing, 0 to us)."""

    def __init__(self, kind, vlans=(), local=MAC_A, ifindex=3):
        self.kind, self.vlans, self.local, self.ifindex = kind, vlans, local, ifindex

    def linktype(self):
        return {"eth": LT_ETHERNET, "sll": LT_SLL, "sll2": LT_SLL2}[self.kind]

    def wrap(self, src_mac, dst_mac, ethertype, l3, tagged=True):
        if self.kind == "eth":
            h = eth_hdr(src_mac, dst_mac, ethertype, self.vlans if tagged else ())
            frame = h + l3
            if len(frame) < 60:                 # Ethernet minimum frame (FCS not captured)
                frame += b"\0" * (60 - len(frame))
            return h, frame
        pkttype = 4 if src_mac == self.local else 0
        if self.kind == "sll":
            h = sll_hdr(pkttype, src_mac, ethertype)
        else:
            h = sll2_hdr(pkttype, src_mac, ethertype, self.ifindex)
        return h, h + l3


# ---- Frames and what the capture expects of them ---------------------------------------------

class Frame:
    """One frame as written: time (ns), bytes on the wire, and what this generator knows of it:
    cls (the contract's class when fully captured), ver (1/2 for RoCE), bth_end (offset of the
    BTH's end in the frame, RoCE only), flow info for the request/response bookkeeping."""

    def __init__(self, t, data, cls, ver=None, bth_end=None, iface=0, **info):
        self.t, self.data, self.cls, self.ver, self.bth_end = t, data, cls, ver, bth_end
        self.iface = iface
        self.info = info


def roce_frame(link, t, src, dst, l3kind, sport, tr, cls, ipid=None, tos=0x6A, **info):
    """A RoCE frame between Nodes src -> dst (l3kind "v4", "v6" or "v1")."""
    if l3kind == "v4":
        et, l3, boff = roce_v2_v4(src.v4, dst.v4, sport, tr, ipid.next(src.v4), tos=tos)
    elif l3kind == "v6":
        et, l3, boff = roce_v2_v6(src.v6, dst.v6, sport, tr, tc=tos)
    else:
        et, l3, boff = roce_v1(src.gid, dst.gid, tr)
    h, data = link.wrap(src.mac, dst.mac, et, l3)
    return Frame(t, data, cls, ver=1 if l3kind == "v1" else 2, bth_end=len(h) + boff + 12,
                 **info)


def other_frame(link, t, src_mac, dst_mac, pkt_bytes, ethertype, tagged=True):
    """A frame that is not RoCE (ARP, LLDP, TCP, DNS, ND...)."""
    _, data = link.wrap(src_mac, dst_mac, ethertype, pkt_bytes, tagged)
    return Frame(t, data, "not_roce")

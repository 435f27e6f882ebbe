#!/usr/bin/python3
"""Writes the captures of corpora/captures/ (captures with the traits of real RoCE captures) and
their expected `nicref adp check` outcomes (corpora/captures/expected.json).

Run from anywhere:  /usr/bin/python3 corpora/captures/gen_captures.py [OUTDIR]
(OUTDIR defaults to this file's directory). Debian python3-scapy builds the frames; the pcap and
pcapng containers are written here with struct, so every byte (timestamps, snapshot lengths,
interface blocks) is this file's choice. Fixed seeds: the output is the same byte for byte on
every run.

Every expected value in expected.json is written from what this file put into the capture
(which frame has which class, which request is a retransmission, which QP acknowledges which),
from the public formats only: Ethernet/802.1Q, IPv4/IPv6, UDP 4791, IBTA Vol. 1 BTH (9.2),
AETH (9.3.5), RETH, DETH, GRH (RoCEv1: EtherType 0x8915), CNP (opcode 0x81, RoCEv2 Annex A17),
the IB CM MADs on QP1 (IBTA Vol. 1 chapter 12: REQ 0x0010, REP 0x0013, RTU 0x0014, DREQ 0x0015,
DREP 0x0016), pcap, pcapng, Linux cooked SLL/SLL2 and ERF, and the classic InfiniBand local ACK
timer (a retransmission exactly 4.096 us x 2^timeout after the previous transmission of its
PSN). It never runs nicref. See README.md for what each capture holds and why.
"""

import json
import os
import random
import struct
import sys
import zlib

from scapy.layers.dns import DNS, DNSQR
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.inet6 import ICMPv6ND_NS, ICMPv6NDOptSrcLLAddr, IPv6
from scapy.layers.l2 import ARP
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


# ---- RC flows --------------------------------------------------------------------------------

def psn_add(p, n):
    return (p + n) & 0xFFFFFF


def psn_le(a, b):
    """a <= b in 24-bit serial arithmetic (IBTA 9.7.2: the PSN space is a circle)."""
    return ((b - a) & 0xFFFFFF) < 0x800000


class Flow:
    """The requests of one side of an RC QP pair (requester `req` -> responder `resp`) and the
    acknowledgements travelling back. qp = the responder's QPN (DestQP of the requests),
    ack_qp = the requester's QPN (DestQP of the ACKs and read responses)."""

    def __init__(self, l3kind, req, resp, req_qp, resp_qp, psn0, sport_req, sport_ack,
                 paired_by):
        self.l3kind, self.req, self.resp = l3kind, req, resp
        self.req_qp, self.resp_qp, self.psn0 = req_qp, resp_qp, psn0
        self.sport_req, self.sport_ack = sport_req, sport_ack   # ints, or callables(rng)
        self.paired_by = paired_by
        self.requests = self.retransmissions = 0
        self.conforming = True

    def addr(self, node):
        return {"v4": node.v4, "v6": node.v6, "v1": node.gid}[self.l3kind]

    def key(self):
        return (self.addr(self.req), self.addr(self.resp), self.resp_qp)


def sport_of(s, rng):
    return s(rng) if callable(s) else s


def rc_events(rng, fl, t, nbatches, losses, late=None, reads=True):
    """One flow's frames as (t_ns, 'req'|'resp', dict). A batch is 1-4 messages posted back to
    back (AckReq on its last packet); the responder acknowledges the whole batch with one
    coalesced ACK for its last PSN (or, when the batch ends with an RDMA READ, with the read
    response, which acknowledges every earlier PSN implicitly: IBTA 9.7.5.1.3). losses[i] = how
    many times batch i goes unacknowledged: each time the requester resends the whole batch
    (go-back-N from its first PSN) exactly T_ACK_NS after the previous transmission of that
    first PSN. late = (batch, n, delta_ns): the n-th retransmission of that batch comes delta_ns
    late (the non-conforming twin)."""
    ev = []
    psn = fl.psn0
    msn = 0
    va = 0x7F3A_0000_0000 + rng.randrange(1 << 20) * 4096
    rkey = rng.randrange(0x1000, 0x100000)
    for bi in range(nbatches):
        lost = losses.get(bi, 0)
        nmsg = rng.randint(1, 4)
        pkts = []                                     # (opcode, psn, ext, payload)
        read_len = None
        for mi in range(nmsg):
            last_msg = mi == nmsg - 1
            r = rng.random()
            if reads and last_msg and lost == 0 and r < 0.25:
                read_len = rng.randrange(16, 513, 4)
                pkts.append((OP_READ_REQ, psn, reth(va, rkey, read_len), b""))
                psn = psn_add(psn, 1)
                va += 4096
            elif r < 0.45:
                npk = rng.randint(1, 3)
                size = (npk - 1) * PMTU + rng.randrange(4, 257)
                for k in range(npk):
                    n = PMTU if k < npk - 1 else size - (npk - 1) * PMTU
                    if npk == 1:
                        op, ext = OP_WRITE_ONLY, reth(va, rkey, size)
                    elif k == 0:
                        op, ext = OP_WRITE_FIRST, reth(va, rkey, size)
                    elif k < npk - 1:
                        op, ext = OP_WRITE_MIDDLE, b""
                    else:
                        op, ext = OP_WRITE_LAST, b""
                    pkts.append((op, psn, ext, payload_bytes(rng, n)))
                    psn = psn_add(psn, 1)
                va += 4096 * 4
            else:
                n = rng.randrange(32, 257)
                pkts.append((OP_SEND_ONLY, psn, b"", payload_bytes(rng, n)))
                psn = psn_add(psn, 1)
        spacing = [rng.randrange(80, 400) for _ in pkts]
        first_tx = t
        for attempt in range(lost + 1):
            if attempt:
                gap = T_ACK_NS
                if late and late[0] == bi and late[1] == attempt:
                    gap += late[2]
                    fl.conforming = False
                t = first_tx + gap
                first_tx = t
            tt = t
            for k, (op, p, ext, pl) in enumerate(pkts):
                ev.append((tt, "req", dict(op=op, psn=p, ext=ext, payload=pl,
                                           ackreq=int(k == len(pkts) - 1),
                                           retx=attempt > 0)))
                fl.requests += 1
                fl.retransmissions += attempt > 0
                tt += spacing[k]
            t = tt
        msn += nmsg
        t += rng.randrange(1800, 4000)                # the responder's ACK at our port
        last_psn = pkts[-1][1]
        if read_len is not None:
            ev.append((t, "resp", dict(op=OP_READ_RESP_ONLY, psn=last_psn,
                                       ext=aeth(0x1F, msn), payload=payload_bytes(rng, read_len))))
        else:
            ev.append((t, "resp", dict(op=OP_ACK, psn=last_psn, ext=aeth(0x1F, msn),
                                       payload=b"")))
        t += rng.randrange(1000, 20000)               # the application posts the next batch
    return ev, t


def rc_frames(link, rng, fl, ev, ipid):
    out = []
    for t, kind, d in ev:
        if kind == "req":
            tr = transport(d["op"], fl.resp_qp, d["psn"], d["ext"], d["payload"], d["ackreq"])
            out.append(roce_frame(link, t, fl.req, fl.resp, fl.l3kind,
                                  sport_of(fl.sport_req, rng), tr, "rc", ipid,
                                  flow=fl, kind="req", psn=d["psn"]))
        else:
            tr = transport(d["op"], fl.req_qp, d["psn"], d["ext"], d["payload"])
            out.append(roce_frame(link, t, fl.resp, fl.req, fl.l3kind,
                                  sport_of(fl.sport_ack, rng), tr, "rc", ipid,
                                  flow=fl, kind="resp", psn=d["psn"]))
    return out


def check_pairing(frames, flows, cm_pairs=()):
    """Asserts that what each flow's expected paired_by says is what separates it: for every
    ACK/read response, the candidates are the request flows in the reverse direction between
    the same two addresses; 'unique' = one candidate; 'cm' = the ACK's QP was named by a CM
    exchange in the capture; 'udp_sport' = the ACK's UDP source port is a source port of the
    requests of exactly one candidate, the right one; 'psn' = the source port names no
    candidate and the acknowledged PSN is outstanding in exactly one candidate, the right one."""
    sports = {}
    for f in frames:
        if f.info.get("kind") == "req":
            sports.setdefault(id(f.info["flow"]), set()).add(f.info["sport"])
    outstanding = {id(fl): [] for fl in flows}
    for f in frames:
        fl = f.info.get("flow")
        if fl is None:
            continue
        if f.info["kind"] == "req":
            if f.info["psn"] not in outstanding[id(fl)]:
                outstanding[id(fl)].append(f.info["psn"])
            continue
        cands = [c for c in flows if c.l3kind == fl.l3kind and c.req is fl.req and
                 c.resp is fl.resp]
        p = f.info["psn"]
        if fl.paired_by == "unique":
            assert cands == [fl], fl.key()
        elif fl.paired_by == "cm":
            assert cm_pairs.get((fl.req.mac, fl.req_qp)) == fl.resp_qp, fl.key()
            assert cm_pairs.get((fl.resp.mac, fl.resp_qp)) == fl.req_qp, fl.key()
        sport = f.info["sport"]
        by_port = [c for c in cands if sport is not None and sport in sports.get(id(c), ())]
        if fl.paired_by in ("unique", "cm"):
            pass
        elif fl.paired_by == "udp_sport":
            assert (fl.req.mac, fl.req_qp) not in cm_pairs
            assert by_port == [fl], (fl.key(), sport)
        elif fl.paired_by == "psn":
            assert (fl.req.mac, fl.req_qp) not in cm_pairs
            assert not by_port, (fl.key(), sport)
            by_psn = [c for c in cands if p in outstanding[id(c)]]
            assert by_psn == [fl], (fl.key(), p)
        else:
            raise AssertionError(fl.paired_by)
        outstanding[id(fl)] = [q for q in outstanding[id(fl)] if not psn_le(q, p)]
    for fl in flows:
        assert not outstanding[id(fl)], ("capture ends with PSNs outstanding", fl.key())


# ---- Other traffic ---------------------------------------------------------------------------

def lldp_bytes():
    """An LLDP frame from the switch port (IEEE 802.1AB TLVs: chassis ID = MAC, port ID =
    interface name, TTL 120, system name, end)."""
    def tlv(t, v):
        return struct.pack("!H", (t << 9) | len(v)) + v
    return tlv(1, b"\x04" + mac_bytes(MAC_SW)) + tlv(2, b"\x05Ethernet12") + \
        tlv(3, struct.pack("!H", 120)) + tlv(5, b"leaf-07") + \
        tlv(6, b"SONiC Software Version: SONiC.202311 - HwSku: Mellanox-SN4600C") + tlv(0, b"")


def arp_bytes(op, smac, sip, tmac, tip):
    return bytes(ARP(op=op, hwsrc=smac, psrc=sip, hwdst=tmac, pdst=tip))


def tcp_bytes(src, dst, sport, dport, seq, ack, flags, payload=b""):
    return bytes(IP(src=src, dst=dst, ttl=64, id=0x4000 + (seq & 0xFFF), flags="DF") /
                 TCP(sport=sport, dport=dport, seq=seq, ack=ack, flags=flags, window=502) /
                 Raw(payload))


# ---- CM MADs on QP1 (IBTA Vol. 1 chapter 12; MAD header 13.4.2) ------------------------------

CM_REQ, CM_REP, CM_RTU, CM_DREQ, CM_DREP = 0x0010, 0x0013, 0x0014, 0x0015, 0x0016


def mad_header(attr, tid):
    """Common MAD header: BaseVersion 1, MgmtClass 0x07 (CM), ClassVersion 2, Method 0x03
    (Send), Status, ClassSpecific, TransactionID, AttributeID, Reserved, AttributeModifier."""
    return struct.pack("!BBBBHHQHHI", 1, 0x07, 2, 0x03, 0, 0, tid, attr, 0, 0)


def v4_gid(ip):
    return b"\0" * 10 + b"\xff\xff" + bytes(int(x) for x in ip.split("."))


def cm_req(tid, comm_id, qpn, psn, guid, src_ip, dst_ip, src_port, service_port):
    """REQ (ConnectRequest, IBTA 12.6.5 Table 106): local QPN at byte 32 and starting PSN at
    byte 44 of the message (MAD bytes 56 and 68)."""
    d = bytearray(232)
    struct.pack_into("!I", d, 0, comm_id)
    struct.pack_into("!Q", d, 8, 0x0000000001060000 | service_port)   # RDMA CM, PS_TCP, port
    struct.pack_into("!Q", d, 16, guid)                                  # local CA GUID
    struct.pack_into("!I", d, 32, (qpn << 8) | 16)        # local QPN, responder resources 16
    struct.pack_into("!I", d, 36, 16)                     # local EECN 0, initiator depth 16
    d[43] = (20 << 3) | (0 << 1) | 1                      # remote CM timeout 20, RC, E2E fc
    struct.pack_into("!I", d, 44, (psn << 8) | (20 << 3) | RETRY_CNT)  # starting PSN
    struct.pack_into("!H", d, 48, 0xFFFF)                 # P_Key
    d[50] = (3 << 4) | 7                                  # path MTU 1024, RNR retry count 7
    d[51] = 15 << 4                                       # max CM retries 15
    # primary path (RoCE: permissive LIDs, IPv4-mapped GIDs, rate 100 Gb/s, TC, hop limit)
    struct.pack_into("!HH", d, 52, 0xFFFF, 0xFFFF)
    d[56:72] = v4_gid(src_ip)
    d[72:88] = v4_gid(dst_ip)
    d[91] = 16                                            # packet rate: 100 Gb/s
    d[92], d[93], d[94], d[95] = 0x6A, 64, 3 << 4, TIMEOUT << 3
    # bytes 96-139: no alternate path. Private data (140..231): the RDMA CM IP header
    # (version 0, IP version 4, source port, source and destination address, IPv4 in the last
    # 4 bytes of each 16)
    struct.pack_into("!BBH", d, 140, 0, 4 << 4, src_port)
    d[156:160] = bytes(int(x) for x in src_ip.split("."))
    d[172:176] = bytes(int(x) for x in dst_ip.split("."))
    return mad_header(CM_REQ, tid) + bytes(d)


def cm_rep(tid, comm_id, remote_comm_id, qpn, psn, guid):
    """REP (ConnectReply, IBTA 12.6.8 Table 110): local QPN at byte 12 and starting PSN at byte
    20 of the message (MAD bytes 36 and 44)."""
    d = struct.pack("!III", comm_id, remote_comm_id, 0)
    d += struct.pack("!III", qpn << 8, 0, psn << 8)
    d += struct.pack("!BBBB", 16, 16, (15 << 3) | (0 << 1) | 1, (7 << 5))
    d += struct.pack("!Q", guid)
    d += b"\0" * (232 - len(d))
    return mad_header(CM_REP, tid) + d


def cm_short(attr, tid, comm_id, remote_comm_id, qpn=None):
    """RTU (Table 111), DREQ (Table 112: remote QPN at byte 8), DREP (Table 113)."""
    d = struct.pack("!II", comm_id, remote_comm_id)
    if qpn is not None:
        d += struct.pack("!I", qpn << 8)
    d += b"\0" * (232 - len(d))
    return mad_header(attr, tid) + d


def mad_transport(gsi_psn, mad):
    """A MAD travels as a UD SEND Only to QP1 with a DETH (Q_Key 0x80010000, source QP 1)."""
    return transport(OP_UD_SEND_ONLY, 1, gsi_psn, deth(QKEY_GSI, 1), mad)


# ---- Container writers -----------------------------------------------------------------------

def caplen_of(f, snaplen):
    return min(len(f.data), snaplen)


def write_pcap(path, frames, linktype, snaplen=262144, nano=True):
    """pcap (little-endian): nanosecond magic 0xa1b23c4d or microsecond 0xa1b2c3d4 (tcpdump's
    default); a microsecond stamp is the nanosecond time truncated, as the kernel does."""
    out = [struct.pack("<IHHiIII", 0xA1B23C4D if nano else 0xA1B2C3D4, 2, 4, 0, 0, snaplen,
                       linktype)]
    for f in frames:
        ts = T0_NS + f.t
        frac = ts % 10**9 if nano else (ts % 10**9) // 1000
        n = caplen_of(f, snaplen)
        out.append(struct.pack("<IIII", ts // 10**9, frac, n, len(f.data)) + f.data[:n])
    with open(path, "wb") as fh:
        fh.write(b"".join(out))


def pcapng_opt(code, value):
    return struct.pack("<HH", code, len(value)) + value + b"\0" * ((-len(value)) % 4)


def pcapng_block(btype, body):
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def write_pcapng(path, frames, ifaces):
    """pcapng as mergecap writes a merge: one section header, one interface description block
    per interface (name, description, if_tsresol 9 = nanoseconds), then enhanced packet blocks
    in time order, each naming its interface."""
    out = [pcapng_block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) +
                        pcapng_opt(3, b"Linux 6.1.0-18-amd64") +
                        pcapng_opt(4, b"corpora/captures/gen_captures.py (nicref)") +
                        pcapng_opt(0, b""))]
    for linktype, snaplen, name, descr in ifaces:
        out.append(pcapng_block(1, struct.pack("<HHI", linktype, 0, snaplen) +
                                pcapng_opt(2, name) + pcapng_opt(3, descr) +
                                pcapng_opt(9, b"\x09") + pcapng_opt(0, b"")))
    for f in frames:
        ts = T0_NS + f.t
        snaplen = ifaces[f.iface][1]
        n = caplen_of(f, snaplen)
        body = struct.pack("<IIIII", f.iface, ts >> 32, ts & 0xFFFFFFFF, n, len(f.data)) + \
            f.data[:n] + b"\0" * ((-n) % 4)
        out.append(pcapng_block(6, body))
    with open(path, "wb") as fh:
        fh.write(b"".join(out))


# ---- The expected outcome, from the frames ---------------------------------------------------

def summary(frames, snaplens, linktypes, stamp_ns):
    """The contract's summary object, computed from what this file put into each frame.
    snaplens/linktypes: per interface; stamp_ns(frame) = the timestamp as written."""
    classes = dict.fromkeys(["rc", "uc", "rd", "ud", "xrc", "cnp", "cm_mad", "vendor",
                             "reserved", "cut", "malformed", "not_roce"], 0)
    links = dict.fromkeys(["ethernet", "linux_sll", "linux_sll2", "raw_ip"], 0)
    trunc = v1 = v2 = 0
    inv_ok = inv_bad = 0
    prev = None
    for f in frames:
        links[LINK_KEY[linktypes[f.iface]]] += 1
        n = caplen_of(f, snaplens[f.iface])
        cut = n < len(f.data)
        trunc += cut
        cls = f.cls
        if f.bth_end is not None and n < f.bth_end:
            assert cut
            cls = "cut"
        classes[cls] += 1
        if cls not in ("cut", "malformed", "not_roce"):
            assert f.ver in (1, 2)
            v1 += f.ver == 1
            v2 += f.ver == 2
        ts = stamp_ns(f)
        if prev is not None and ts < prev:
            if prev - ts <= REORDER_TOL_NS:
                inv_ok += 1
            else:
                inv_bad += 1
        prev = ts
    return {"frames": len(frames), "link_types": links, "truncated": trunc,
            "roce_v1": v1, "roce_v2": v2, "classes": classes,
            "timestamps": {"reorder_tolerance_ns": REORDER_TOL_NS,
                           "inversions_tolerated": inv_ok,
                           "inversions_beyond_tolerance": inv_bad}}


def flow_json(fl, frames, snaplen):
    """A flow's expected entry; requests/retransmissions count only the requests whose BTH is
    in the capture (a request cut inside its BTH is not seen)."""
    seen = [f for f in frames if f.info.get("flow") is fl and f.info.get("kind") == "req" and
            caplen_of(f, snaplen) >= f.bth_end]
    assert len(seen) == fl.requests
    return {"qp": fl.resp_qp, "ack_qp": fl.req_qp, "src": fl.addr(fl.req),
            "dst": fl.addr(fl.resp), "conforming": fl.conforming, "requests": fl.requests,
            "retransmissions": fl.retransmissions, "paired_by": fl.paired_by}


class Out:
    def __init__(self, outdir):
        self.outdir = outdir
        self.cases = []

    def path(self, name):
        return os.path.join(self.outdir, name)

    def add(self, name, what, exit_code, frames=None, flows=(), snaplens=(262144,),
            linktypes=(LT_ETHERNET,), nano=True, stderr=()):
        case = {"file": REL + name, "what": what, "args": list(ARGS), "exit": exit_code}
        if exit_code == 2:
            case["stderr_contains"] = list(stderr)
        else:
            def stamp(f):
                ts = T0_NS + f.t
                return ts if nano else ts - ts % 1000
            s = summary(frames, snaplens, linktypes, stamp)
            s["rc_flows"] = len(flows)
            case["summary"] = s
            case["flows"] = [flow_json(fl, frames, snaplens[0]) for fl in flows]
            bad = [fl for fl in flows if not fl.conforming]
            assert exit_code == (1 if bad else 0), name
        self.cases.append(case)


# ---- Scenario helpers ------------------------------------------------------------------------

def mlx_qpns(rng, n):
    """ConnectX-like QP numbers: distinct, in the few-hundred-to-thousands range."""
    qs = set()
    while len(qs) < n:
        qs.add(rng.randrange(0x100, 0x4000))
    return sorted(qs)


def loss_plan(rng, nbatches, p1=0.18, p2=0.05):
    plan = {}
    for b in range(nbatches):
        r = rng.random()
        if r < p2:
            plan[b] = 2
        elif r < p1:
            plan[b] = 1
    return plan


def sort_frames(frames):
    return sorted(frames, key=lambda f: f.t)      # stable: equal times keep their order


def tag_sports(frames):
    """Records the UDP source port of each RoCEv2 frame (read back from the bytes built)."""
    for f in frames:
        if f.ver == 2 and f.info.get("flow") is not None:
            d = f.data
            et_off = f.bth_end - 12 - 8           # UDP header start
            f.info["sport"] = struct.unpack("!H", d[et_off:et_off + 2])[0]
        elif f.info.get("flow") is not None:
            f.info["sport"] = None


def lldp_frame(link, t):
    return other_frame(link, t, MAC_SW, "01:80:c2:00:00:0e", lldp_bytes(), 0x88CC, tagged=False)


# ---- 1. Sixteen RC QP pairs, one UDP source port per QP pair ---------------------------------

def rc16(seed, link, late=None, l3kind="v4", bidir=(3, 11), wrap_pair=5, cm=False,
         pre_established=(), random_sports=False):
    """Sixteen RC QP pairs A<->B; pairs in `bidir` also carry requests B->A. Returns (frames,
    flows, cm_pairs)."""
    rng = random.Random(seed)
    ipid = IpId(rng)
    qa, qb = mlx_qpns(rng, 16), mlx_qpns(rng, 16)
    rng.shuffle(qb)
    flows, frames, cm_pairs, comm = [], [], {}, {}
    used_ports = set()
    t_cm = 0
    for i in range(16):
        psn_a = 0xFFFFFA if i == wrap_pair else rng.randrange(1 << 24)
        psn_b = rng.randrange(1 << 24)
        while True:
            sport = 0xC000 | rng.randrange(0x4000)     # ConnectX: one port per QP pair
            if sport not in used_ports:
                used_ports.add(sport)
                break
        if random_sports:
            # a random port on every frame: requests from 0xC000-0xDFFF, responses from
            # 0xE000-0xFFFF, so no response's port is ever a request's port
            s_req = (lambda r: 0xC000 | r.randrange(0x2000))
            s_ack = (lambda r: 0xE000 | r.randrange(0x2000))
        else:
            s_req = s_ack = sport
        by = "udp_sport"
        if cm and i not in pre_established:
            by = "cm"
        elif random_sports:
            by = "psn"
        fab = Flow(l3kind, A, B, qa[i], qb[i], psn_a, s_req, s_ack, by)
        flows.append(fab)
        start = rng.randrange(0, 60_000)
        if cm and i not in pre_established:
            # the connection is set up in the capture: REQ A->B, REP B->A, RTU A->B
            t_req = t_cm
            t_cm += rng.randrange(30_000, 90_000)
            guid_a, guid_b = 0xB8CEF603004A1001, 0xB8CEF603004A1002
            cid_a, cid_b = rng.getrandbits(32), rng.getrandbits(32)
            tid = (0x0000_0F2D << 32) | rng.getrandbits(32)
            gsi_a, gsi_b = rng.randrange(1 << 24), rng.randrange(1 << 24)
            cport = rng.randrange(32768, 61000)
            msgs = [
                (t_req, A, B, cm_req(tid, cid_a, qa[i], psn_a, guid_a, IP_A, IP_B, cport,
                                     18515), gsi_a),
                (t_req + rng.randrange(40_000, 150_000), B, A,
                 cm_rep(tid, cid_b, cid_a, qb[i], psn_b, guid_b), gsi_b),
            ]
            t_rtu = msgs[1][0] + rng.randrange(10_000, 30_000)
            msgs.append((t_rtu, A, B, cm_short(CM_RTU, tid, cid_a, cid_b), psn_add(gsi_a, 1)))
            for tm, s, d, mad, gpsn in msgs:
                frames.append(roce_frame(link, tm, s, d, l3kind,
                                         sport_of(s_req, rng) if random_sports else
                                         0xC000 | rng.randrange(0x4000),
                                         mad_transport(gpsn, mad), "cm_mad", ipid))
            cm_pairs[(MAC_A, qa[i])] = qb[i]
            cm_pairs[(MAC_B, qb[i])] = qa[i]
            comm[i] = (cid_a, cid_b)
            start = t_rtu + rng.randrange(5_000, 40_000)
        nb = rng.randint(5, 8)
        plan = loss_plan(rng, nb)
        if i == 9:                                   # the late-retransmission twin's flow
            plan[2] = 2
        lt = late if (late and i == 9) else None
        ev, end = rc_events(rng, fab, start, nb, plan, lt)
        frames += rc_frames(link, rng, fab, ev, ipid)
        if i in bidir:
            fba = Flow(l3kind, B, A, qb[i], qa[i], psn_b, s_req, s_ack, by)
            flows.append(fba)
            ev, end2 = rc_events(rng, fba, start + rng.randrange(500, 5000),
                                 rng.randint(3, 6), loss_plan(rng, 6))
            frames += rc_frames(link, rng, fba, ev, ipid)
            end = max(end, end2)
        if cm and i not in pre_established and i % 3 == 0:
            # some connections are torn down in the capture: DREQ A->B, DREP B->A
            tid = (0x0000_0F2D << 32) | rng.getrandbits(32)
            t1 = end + rng.randrange(50_000, 200_000)
            cid_a, cid_b = comm[i]
            for tm, s, d, mad in [
                    (t1, A, B, cm_short(CM_DREQ, tid, cid_a, cid_b, qb[i])),
                    (t1 + rng.randrange(20_000, 60_000), B, A,
                     cm_short(CM_DREP, tid, cid_b, cid_a))]:
                frames.append(roce_frame(link, tm, s, d, l3kind, 0xC000 | rng.randrange(0x4000),
                                         mad_transport(rng.randrange(1 << 24), mad), "cm_mad",
                                         ipid))
    frames.append(lldp_frame(link, 1_000))
    frames = sort_frames(frames)
    tag_sports(frames)
    return frames, flows, cm_pairs


def gen_rc16(out):
    link = Link("eth", vlans=((0x8100, 3, 100),))
    frames, flows, _ = rc16(2101, link)
    check_pairing(frames, flows)
    assert sum(fl.retransmissions for fl in flows) > 20
    write_pcap(out.path("rc16_sport.pcap"), frames, LT_ETHERNET)
    out.add("rc16_sport.pcap",
            "16 RC QP pairs between two hosts (VLAN 100, PCP 3, DSCP 26), random initial PSNs "
            "(one wraps past 0xFFFFFF), one UDP source port per QP pair in both directions, two "
            "QP pairs with requests both ways, coalesced ACKs and read responses, go-back-N "
            "retransmissions exactly 67.108864 ms after the previous transmission",
            0, frames, flows)
    # the twin: flow 9's second retransmission of batch 2 comes 150 us late
    frames, flows, _ = rc16(2101, link, late=(2, 2, 150_000))
    check_pairing(frames, flows)
    write_pcap(out.path("rc16_sport_late_retx.pcap"), frames, LT_ETHERNET)
    out.add("rc16_sport_late_retx.pcap",
            "rc16_sport.pcap's twin where one QP's second retransmission of a batch comes "
            "150 us after the classic timer (67.108864 ms + 150 us): that flow non-conforming",
            1, frames, flows)


# ---- 2. The same with the CM exchange on QP1 and randomised UDP source ports ------------------

def gen_rc16_cm(out):
    link = Link("eth")
    frames, flows, cm_pairs = rc16(2102, link, cm=True, pre_established=(2, 7, 12, 15),
                                   random_sports=True)
    check_pairing(frames, flows, cm_pairs)
    write_pcap(out.path("rc16_cm.pcap"), frames, LT_ETHERNET)
    out.add("rc16_cm.pcap",
            "16 RC QP pairs, 12 connected in the capture by the IB CM on QP1 (REQ/REP/RTU, some "
            "torn down by DREQ/DREP) and 4 connected before it started; a random UDP source "
            "port on every frame, so the CM exchange (12 pairs) or the PSN (4 pairs) pairs "
            "each ACK",
            0, frames, flows)


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


# ---- 5. Timestamp inversions -----------------------------------------------------------------

def inversion_base(seed):
    rng = random.Random(seed)
    ipid = IpId(rng)
    link = Link("eth")
    frames, flows = [], []
    qa, qb = mlx_qpns(rng, 4), mlx_qpns(rng, 4)
    for i in range(4):
        sport = 0xC000 | rng.randrange(0x4000)
        fl = Flow("v4", A, B, qa[i], qb[i], rng.randrange(1 << 24), sport, sport, "udp_sport")
        flows.append(fl)
        ev, _ = rc_events(rng, fl, rng.randrange(0, 10_000), 6, {2: 1} if i % 2 else {})
        frames += rc_frames(link, rng, fl, ev, ipid)
    frames = sort_frames(frames)
    tag_sports(frames)
    check_pairing(frames, flows)
    return frames, flows


def pick_swap(frames, start):
    """The first index i at or after `start` where frame i+1 is an ACK or read response of
    another flow than frame i: that response is then written before frame i, stamped 1 us
    after it (moving a response does not change any retransmission gap)."""
    for i in range(start, len(frames) - 2):
        a, b = frames[i], frames[i + 1]
        fa, fb = a.info.get("flow"), b.info.get("flow")
        if fa is not None and fb is not None and fa is not fb and b.info["kind"] == "resp" \
                and frames[i + 2].t >= a.t + 1_000 and b.t > a.t:
            return i
    raise AssertionError("no pair to swap")


def gen_inversions(out):
    frames, flows = inversion_base(2105)
    i = pick_swap(frames, 60)
    a, b = frames[i], frames[i + 1]
    # frame b (a different QP, another receive queue) is written first and stamped 1 us after
    # frame a: the capture shows frame i+2 (1-based) stamped 1 us before frame i+1
    b.t = a.t + 1_000
    assert i + 2 >= len(frames) or frames[i + 2].t >= b.t
    frames[i], frames[i + 1] = b, a
    write_pcap(out.path("ts_inversion_1us.pcap"), frames, LT_ETHERNET)
    out.add("ts_inversion_1us.pcap",
            "4 RC QP pairs; frame %d (QP 0x%x) is stamped 1 us before frame %d (QP 0x%x), as "
            "frames from two receive queues are: tolerated and counted" %
            (i + 2, a.info["flow"].resp_qp if a.info["kind"] == "req" else a.info["flow"].req_qp,
             i + 1, b.info["flow"].resp_qp if b.info["kind"] == "req" else b.info["flow"].req_qp),
            0, frames, flows)
    # the twin: the same capture, but frame i+2 is stamped 5 ms before frame i+1
    frames, flows = inversion_base(2105)
    a, b = frames[i], frames[i + 1]
    b.t = a.t + 1_000
    frames[i], frames[i + 1] = b, a
    a.t = b.t - 5_000_000
    write_pcap(out.path("ts_inversion_5ms.pcap"), frames, LT_ETHERNET)
    out.add("ts_inversion_5ms.pcap",
            "ts_inversion_1us.pcap's twin where frame %d is stamped 5 ms before frame %d: "
            "beyond the 100 us tolerance, refused" % (i + 2, i + 1),
            2, stderr=["frame %d" % (i + 1), "frame %d" % (i + 2), "reordercap"])


# ---- 6. Snapshot lengths ---------------------------------------------------------------------

def snap_capture(seed, kinds, vlans_for):
    rng = random.Random(seed)
    ipid = IpId(rng)
    frames, flows = [], []
    qa, qb = mlx_qpns(rng, len(kinds)), mlx_qpns(rng, len(kinds))
    for i, kind in enumerate(kinds):
        link = Link("eth", vlans=vlans_for(i))
        sport = 0xC000 | rng.randrange(0x4000)
        by = "udp_sport"
        fl = Flow(kind, A, B, qa[i], qb[i], rng.randrange(1 << 24), sport, sport, by)
        flows.append(fl)
        ev, _ = rc_events(rng, fl, rng.randrange(0, 20_000), 6, {3: 1} if i % 2 == 0 else {})
        frames += rc_frames(link, rng, fl, ev, ipid)
    link = Link("eth")
    frames.append(lldp_frame(link, 2_500))
    seq = 0x11223344
    for k in range(3):
        frames.append(other_frame(link, 5_000 + k * 3_000, MAC_A, MAC_B,
                                  tcp_bytes(IP_A, IP_B, 22, 60022, seq, 0x55667788, "PA",
                                            payload_bytes(rng, 200)), 0x0800))
        seq += 200
    frames = sort_frames(frames)
    tag_sports(frames)
    return frames, flows


def gen_snaplens(out):
    frames, flows = snap_capture(2106, ["v4", "v4", "v6", "v6"],
                                 lambda i: ((0x8100, 3, 100),) if i in (1, 3) else ())
    check_pairing(frames, flows)
    write_pcap(out.path("snaplen128.pcap"), frames, LT_ETHERNET, snaplen=128, nano=False)
    out.add("snaplen128.pcap",
            "tcpdump -s 128 (microsecond pcap): RC requests over IPv4 and IPv6 (two of them on "
            "VLAN 100) truncated after their headers, still checked; LLDP and SSH frames "
            "truncated too",
            0, frames, flows, snaplens=(128,), nano=False)
    # snaplen 64: IPv4 RoCE keeps its BTH (54 or 58 bytes of headers), IPv6 RoCE is cut
    # inside the BTH (62 bytes of headers) or, on VLAN 100, inside the UDP header
    frames, flows = snap_capture(2107, ["v4", "v4", "v6", "v6"],
                                 lambda i: ((0x8100, 3, 100),) if i == 3 else ())
    v6 = [fl for fl in flows if fl.l3kind == "v6"]
    flows4 = [fl for fl in flows if fl.l3kind == "v4"]
    check_pairing(frames, flows)
    for f in frames:
        if f.info.get("flow") in v6:
            f.info = {}                   # never seen by the checker: cut inside the BTH
    write_pcap(out.path("snaplen64.pcap"), frames, LT_ETHERNET, snaplen=64, nano=False)
    out.add("snaplen64.pcap",
            "tcpdump -s 64 (microsecond pcap): the IPv4 RC flows keep their BTH and AETH "
            "(requests truncated after them, checked); every IPv6 RoCE frame is cut inside the "
            "BTH (or, on VLAN 100, inside the UDP header): class cut, its flows not checked",
            0, frames, flows4, snaplens=(64,), nano=False)


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


# ---- main ------------------------------------------------------------------------------------

def main():
    outdir = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else HERE
    os.makedirs(outdir, exist_ok=True)
    out = Out(outdir)
    gen_rc16(out)
    gen_rc16_cm(out)
    gen_mixed_versions(out)
    gen_mixed_transports(out)
    gen_inversions(out)
    gen_snaplens(out)
    gen_pcapng(out)
    gen_sll(out)
    gen_erf(out)
    gen_malformed(out)
    with open(out.path("expected.json"), "w") as fh:
        json.dump({"generator": REL + "gen_captures.py", "version": 1, "captures": out.cases},
                  fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()

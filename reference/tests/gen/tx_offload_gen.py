#!/usr/bin/python3
"""Writes the expected frames of the send-offload unit tests (reference/tests/tx_offload_*_test.c)
into reference/tests/tx_offload_cases_<group>.h, one C header per group.

The inputs are built with Scapy the way a driver would put them in a send WQE: headers with the
checksum fields holding whatever the driver wrote (0xBEEF / 0xDEAD, or 0: PRM §3.3.1 "the value
placed in TCP/UDP checksum is ignored"), then the payload. The expected frames come from Scapy's
own checksum code (fields set to None and the packet rebuilt, or scapy.utils.checksum over the
bytes) and from the segmentation below, which follows the rules of docs/tx_offload.md (D-TXO-*)
and the PRM, never from nicref's C code. Rerun after editing:

    /usr/bin/python3 reference/tests/gen/tx_offload_gen.py

Scapy 2.5 or later (Debian python3-scapy)."""
import os
import re
import sys

from scapy.all import (IP, TCP, UDP, ICMP, ARP, Dot1Q, Dot1AD, Ether, IPv6, IPv6ExtHdrDestOpt,
                       IPv6ExtHdrFragment, IPv6ExtHdrHopByHop, IPv6ExtHdrRouting, IPOption_LSRR,
                       IPOption_NOP, IPOption_RR, IPOption_SSRR, IPOption_Timestamp,
                       ICMPv6EchoRequest, LLC, Dot3, Raw, raw)
from scapy.layers.inet6 import PadN
from scapy.layers.ipsec import AH
from scapy.utils import checksum

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

MAC = dict(dst="02:00:00:00:00:02", src="02:00:00:00:00:01")
V4 = dict(src="192.0.2.1", dst="198.51.100.2")
V6 = dict(src="2001:db8::1", dst="2001:db8::2")
BAD_IP = 0xBEEF  # what the driver left in the IPv4 header checksum
BAD_L4 = 0xDEAD  # and in the TCP/UDP checksum
MIN_FRAME = 60   # D-TXO-1: 64 bytes on the wire less the 4-byte FCS the model leaves out
FIN, PSH, CWR = 0x01, 0x08, 0x80


def data(n, seed=1):
    """n payload bytes, deterministic and not all zero."""
    return bytes((i * 7 + seed * 13 + 5) & 0xFF for i in range(n))


def eth(*tags):
    """Ether with tags: each tag is ("q", vid) for 802.1Q or ("ad", vid) for 802.1ad."""
    p = Ether(**MAC)
    for kind, vid in tags:
        p = p / (Dot1Q(vlan=vid) if kind == "q" else Dot1AD(vlan=vid))
    return p


def fixed(p, l3=True, l4=True):
    """The frame with the checksums the device computes: Scapy rebuilds the fields set to None."""
    q = p.copy()
    if l3 and IP in q:
        q[IP].chksum = None
    if l4:
        for layer in (TCP, UDP):
            if layer in q:
                q[layer].chksum = None
    return raw(q)


def pad(b, min_frame=MIN_FRAME):
    return b + bytes(max(0, min_frame - len(b)))


def ipv4_hdr_fixed(b, l3_off):
    """The bytes with the IPv4 header at l3_off given its checksum (scapy.utils.checksum)."""
    b = bytearray(b)
    hl = (b[l3_off] & 0xF) * 4
    b[l3_off + 10:l3_off + 12] = b"\0\0"
    b[l3_off + 10:l3_off + 12] = checksum(bytes(b[l3_off:l3_off + hl])).to_bytes(2, "big")
    return bytes(b)


class Case:
    def __init__(self, name, why, inp, result="TX_OK", frames=(), l3cs=0, l4cs=0, lso=0, mss=0,
                 ihs=None, min_frame=0, max_lso_cap=16):
        self.name, self.why, self.inp, self.result = name, why, bytes(inp), result
        self.frames = [bytes(f) for f in frames]
        self.req = dict(l3cs=l3cs, l4cs=l4cs, lso=lso, mss=mss,
                        ihs=min(len(self.inp), 14) if ihs is None else ihs,
                        min_frame=min_frame, max_lso_cap=max_lso_cap)


def send(name, why, p, l3=True, l4=True, expect_l3=None, expect_l4=None, **kw):
    """A plain send of p asking l3cs/l4cs; the expected frame has the checksums expect_l3 and
    expect_l4 say (by default: those asked for)."""
    e3 = l3 if expect_l3 is None else expect_l3
    e4 = l4 if expect_l4 is None else expect_l4
    out = fixed(p, e3, e4)
    mf = kw.pop("min_frame", 0)
    return Case(name, why, raw(p), frames=[pad(out, mf)], l3cs=int(l3), l4cs=int(l4),
                min_frame=mf, **kw)


def unchanged(name, why, b, l3=True, l4=True, **kw):
    mf = kw.pop("min_frame", 0)
    return Case(name, why, b, frames=[pad(b, mf)], l3cs=int(l3), l4cs=int(l4), min_frame=mf,
                **kw)


def v4tcp(pay=b"", *tags, **ip):
    ip = {**V4, "chksum": BAD_IP, **ip}
    return eth(*tags) / IP(**ip) / TCP(sport=40000, dport=80, seq=1000, flags="PA",
                                        chksum=BAD_L4) / Raw(pay)


def v4udp(pay=b"", *tags, **ip):
    ip = {**V4, "chksum": BAD_IP, **ip}
    return eth(*tags) / IP(**ip) / UDP(sport=5000, dport=53, chksum=BAD_L4) / Raw(pay)


def v6(*ext, l4=None, pay=b"", tags=()):
    p = eth(*tags) / IPv6(**V6)
    for e in ext:
        p = p / e
    return p / l4 / Raw(pay)


def tcp_(**kw):
    return TCP(**{"sport": 40000, "dport": 443, "seq": 7, "flags": "A", "chksum": BAD_L4, **kw})


def udp_(**kw):
    return UDP(**{"sport": 5000, "dport": 4789, "chksum": BAD_L4, **kw})


def sum_to_zero(p, layer):
    """p with its first two payload bytes chosen so that the L4 checksum computes to 0 before
    the UDP rule of RFC 768: c0, the checksum with those bytes 0, is ~S for the one's complement
    sum S of the rest; adding the word c0 makes the sum 0xFFFF, whose complement is 0."""
    q = p.copy()
    q[Raw].load = b"\0\0" + q[Raw].load[2:]
    c0 = Ether(fixed(q))[layer].chksum
    q[Raw].load = c0.to_bytes(2, "big") + q[Raw].load[2:]
    return q


# ---- the groups ----------------------------------------------------------------------------


def csum_cases():
    c = []
    why = "PRM §3.3.1/T28: l3cs IPv4 header checksum, l4cs TCP/UDP over the pseudo-header; the driver's values ignored"
    c.append(send("v4_tcp", why, v4tcp(data(100))))
    c.append(send("v4_udp", why, v4udp(data(37))))  # odd length: the last byte padded
    c.append(send("v4_tcp_l3_only", "T28: l3cs alone leaves the TCP checksum as written",
                  v4tcp(data(20)), l4=False))
    c.append(send("v4_tcp_l4_only", "T28: l4cs alone leaves the IPv4 header checksum as written",
                  v4tcp(data(20)), l3=False))
    c.append(send("v4_none", "T28: neither bit, nothing computed", v4tcp(data(20)), l3=False,
                  l4=False))
    p = v4udp(data(12))
    p[UDP].chksum = 0
    c.append(send("v4_udp_zero_written", "§3.3.1: a UDP checksum of 0 written by the driver is computed all the same (D-TXO-4)",
                  p, l3=False))
    opts = [IPOption_NOP(), IPOption_RR(routers=["10.0.0.1", "10.0.0.2"]),
            IPOption_Timestamp(flg=0, timestamp=[1, 2])]
    c.append(send("v4_options_tcp", "IPv4 options (RR, timestamp): offsets follow the IHL; both checksums",
                  v4tcp(data(50), options=opts)))
    c.append(send("v4_lsrr_tcp", "§3.3.1: no L4 checksum with an IPv4 LSRR option; the IPv4 header checksum still computed (D-TXO-2)",
                  v4tcp(data(30), options=[IPOption_LSRR(routers=["10.1.1.1", "10.2.2.2"])]),
                  expect_l4=False))
    c.append(send("v4_ssrr_udp", "§3.3.1: no L4 checksum with an IPv4 SSRR option (D-TXO-2)",
                  v4udp(data(30), options=[IPOption_NOP(), IPOption_SSRR(routers=["10.1.1.1"])]),
                  expect_l4=False))
    c.append(send("v4_mf_udp", "an IPv4 first fragment (MF): l4cs ignored, l3cs computed (D-TXO-7)",
                  v4udp(data(40), flags="MF"), expect_l4=False))
    c.append(send("v4_offset_udp", "an IPv4 later fragment (offset): l4cs ignored (D-TXO-7)",
                  v4udp(data(40), frag=100), expect_l4=False))
    c.append(send("v4_df_tcp", "DF alone is not a fragment: both checksums",
                  v4tcp(data(40), flags="DF")))
    p = sum_to_zero(v4udp(b"\0\0" + data(10)), UDP)
    out = fixed(p)
    assert out[-12 - 8 + 6:][:2] == b"\xff\xff", "the UDP case must compute 0"
    c.append(Case("v4_udp_sum_zero", "RFC 768: a computed UDP checksum of 0 is sent as 0xFFFF (D-TXO-3)",
                  raw(p), frames=[out], l3cs=1, l4cs=1))
    p = sum_to_zero(v4tcp(b"\0\0" + data(10)), TCP)
    out = fixed(p)
    assert out[-12 - 20 + 16:][:2] == b"\0\0", "the TCP case must compute 0"
    c.append(Case("v4_tcp_sum_zero", "RFC 9293: a computed TCP checksum of 0 stays 0 (D-TXO-3)",
                  raw(p), frames=[out], l3cs=1, l4cs=1))
    p = eth() / IP(**V4, chksum=BAD_IP) / ICMP(chksum=0x1234) / Raw(data(20))
    c.append(send("v4_icmp", "T28: l4cs ignored for non TCP/UDP; l3cs still applies", p,
                  expect_l4=False))
    p = eth() / IP(**V4, chksum=BAD_IP, proto=132) / Raw(data(24))
    c.append(send("v4_sctp", "T28: l4cs ignored for non TCP/UDP (SCTP)", p, expect_l4=False))
    # IPv6
    c.append(send("v6_tcp", why, v6(l4=tcp_(), pay=data(64))))
    c.append(send("v6_udp", why, v6(l4=udp_(), pay=data(33))))
    c.append(send("v6_udp_l3cs_only", "T28: l3cs ignored for non-IPv4; nothing computed",
                  v6(l4=udp_(), pay=data(8)), l4=False))
    c.append(send("v6_hbh_dst_tcp", "IPv6 hop-by-hop and destination options: the L4 header after them",
                  v6(IPv6ExtHdrHopByHop(), IPv6ExtHdrDestOpt(), l4=tcp_(), pay=data(40))))
    p = v6(IPv6ExtHdrHopByHop(), IPv6ExtHdrDestOpt(autopad=0, options=[PadN(optdata=b"\0" * 12)]),
           l4=udp_(), pay=data(20))
    assert len(raw(p[IPv6ExtHdrDestOpt])) - len(raw(p[UDP])) == 16
    c.append(send("v6_dst16_udp", "IPv6 destination options of 16 bytes (Hdr Ext Len 1)", p))
    c.append(send("v6_routing_udp", "§3.3.1: no L4 checksum with an IPv6 routing header (D-TXO-2)",
                  v6(IPv6ExtHdrRouting(addresses=["2001:db8::99"]), l4=udp_(), pay=data(20)),
                  expect_l4=False))
    c.append(send("v6_hbh_routing_tcp", "§3.3.1: a routing header after hop-by-hop (D-TXO-2)",
                  v6(IPv6ExtHdrHopByHop(), IPv6ExtHdrRouting(addresses=["2001:db8::99"]),
                     l4=tcp_(), pay=data(20)), expect_l4=False))
    c.append(send("v6_frag_atomic_udp", "an atomic IPv6 fragment header (offset 0, M 0) is no fragment (D-TXO-7)",
                  v6(IPv6ExtHdrFragment(offset=0, m=0, id=0x1234), l4=udp_(), pay=data(20))))
    c.append(send("v6_frag_m_udp", "an IPv6 fragment (M 1): l4cs ignored (D-TXO-7)",
                  v6(IPv6ExtHdrFragment(offset=0, m=1, id=0x1234), l4=udp_(), pay=data(24)),
                  expect_l4=False))
    # Scapy does not find the IPv6 header through AH for the pseudo-header, so the checksum is
    # taken from the same TCP segment without AH: the pseudo-header (addresses, length, next
    # header 6) is the same (RFC 8200 §8.1).
    ah = AH(nh=6, payloadlen=4, spi=0x100, seq=1, icv=data(12, 3))
    p = v6(ah, l4=tcp_(), pay=data(16))
    ref = fixed(v6(l4=tcp_(), pay=data(16)))
    out = bytearray(raw(p))
    out[-16 - 20 + 16:-16 - 20 + 18] = ref[-16 - 20 + 16:-16 - 20 + 18]
    c.append(Case("v6_ah_tcp", "IPv6 authentication header (RFC 4302 length): the TCP header after it (D-TXO-6)",
                  raw(p), frames=[out], l3cs=1, l4cs=1))
    p = sum_to_zero(v6(l4=udp_(), pay=b"\0\0" + data(10)), UDP)
    out = fixed(p)
    assert out[-12 - 8 + 6:][:2] == b"\xff\xff"
    c.append(Case("v6_udp_sum_zero", "RFC 8200 §8.1: a computed UDP checksum of 0 is sent as 0xFFFF (D-TXO-3)",
                  raw(p), frames=[out], l3cs=0, l4cs=1))
    p = eth() / IPv6(**V6) / ICMPv6EchoRequest(cksum=0x4321) / Raw(data(8))
    c.append(unchanged("v6_icmp", "T28: l4cs ignored for non TCP/UDP, l3cs for non-IPv4", raw(p)))
    # The IP length shorter than the frame: trailing bytes are not the datagram's (D-TXO-5).
    p = v4udp(data(4))
    b = raw(p) + b"\xAA" * 10
    out = fixed(p) + b"\xAA" * 10
    c.append(Case("v4_udp_trailer", "the L4 checksum covers the IP length only; bytes after the datagram are left (D-TXO-5)",
                  b, frames=[out], l3cs=1, l4cs=1))
    p = v6(l4=tcp_(), pay=data(6))
    b = raw(p) + b"\x55" * 7
    c.append(Case("v6_tcp_trailer", "IPv6 payload length shorter than the frame (D-TXO-5)",
                  b, frames=[fixed(p) + b"\x55" * 7], l3cs=0, l4cs=1))
    return c


def l2_cases():
    c = []
    why = "§3.3.7: the VLAN tags inlined by the driver are sent as they are; the offsets skip them (D-TXO-13)"
    c.append(send("q_v4_tcp", why, v4tcp(data(40), ("q", 100))))
    c.append(send("ad_q_v6_udp", why, eth(("ad", 10), ("q", 20)) / IPv6(**V6) / udp_() / Raw(data(30))))
    c.append(send("q_q_v4_udp", "two 802.1Q tags (D-TXO-6: either TPID in either place)",
                  v4udp(data(30), ("q", 1), ("q", 2))))
    c.append(send("ad_v4_tcp", "an 802.1ad tag alone", v4tcp(data(10), ("ad", 7))))
    c.append(send("q_ad_v4_tcp", "802.1Q outside 802.1ad (D-TXO-6: either TPID in either place)",
                  v4tcp(data(10), ("q", 7), ("ad", 8))))
    c.append(unchanged("three_tags", "a third tag is not skipped: no L3, nothing computed (D-TXO-6)",
                       raw(v4tcp(data(10), ("ad", 1), ("q", 2), ("q", 3)))))
    b = bytearray(raw(v4tcp(data(10), ("q", 5))))
    b[12:14] = b"\x91\x00"
    c.append(unchanged("tpid_9100", "TPID 0x9100 is not a tag the device knows: no L3 (D-TXO-6)", b))
    p = Dot3(**MAC) / LLC(dsap=0x42, ssap=0x42, ctrl=3) / Raw(data(40))
    c.append(unchanged("llc", "an 802.3 length field and LLC: no IP (D-TXO-6)", raw(p)))
    p = eth() / ARP(psrc="192.0.2.1", pdst="192.0.2.2")
    c.append(unchanged("arp", "ARP: neither checksum applies", raw(p)))
    return c


def bad_cases():
    """Truncated and malformed packets: every read bounded, a defined result (D-TXO-8)."""
    c = []
    full = raw(v4tcp(data(20)))
    c.append(unchanged("eth_cut", "10 bytes: no Ethernet header", full[:10]))
    c.append(unchanged("eth_only", "the Ethernet header alone", full[:14]))
    tagged = raw(v4tcp(data(20), ("q", 5)))
    c.append(unchanged("tag_cut", "cut inside the VLAN tag", tagged[:16]))
    c.append(unchanged("ipv4_cut", "cut inside the IPv4 header", full[:14 + 19]))
    opts = raw(v4tcp(data(8), options=[IPOption_RR(routers=["10.0.0.1"])]))
    c.append(unchanged("ipv4_opts_cut", "cut inside the IPv4 options (IHL says more)", opts[:14 + 22]))
    b = bytearray(full)
    b[14] = 0x44
    c.append(unchanged("ipv4_ihl4", "IHL 4 (< 5): not IPv4", b))
    b = bytearray(full)
    b[14] = 0x65
    c.append(unchanged("ipv4_version6", "version 6 under EtherType 0x0800: not IPv4", b))
    b = bytearray(full)
    b[16:18] = (len(full) - 14 + 1).to_bytes(2, "big")
    c.append(Case("ipv4_totlen_long", "total length past the frame: l3cs computed, l4cs not (D-TXO-5)",
                  b, frames=[ipv4_hdr_fixed(b, 14)], l3cs=1, l4cs=1))
    b = bytearray(full)
    b[16:18] = (20 + 10).to_bytes(2, "big")
    c.append(Case("ipv4_totlen_short_tcp", "total length leaves less than a TCP header (D-TXO-5)",
                  b, frames=[ipv4_hdr_fixed(b, 14)], l3cs=1, l4cs=1))
    b = bytearray(full)
    b[16:18] = (10).to_bytes(2, "big")
    c.append(Case("ipv4_totlen_below_ihl", "total length below the header length (D-TXO-5)",
                  b, frames=[ipv4_hdr_fixed(b, 14)], l3cs=1, l4cs=1))
    b = full[:14 + 20 + 10]
    c.append(Case("tcp_cut", "cut inside the TCP header: l3cs computed, l4cs not",
                  b, frames=[ipv4_hdr_fixed(b, 14)], l3cs=1, l4cs=1))
    b = bytearray(full)
    b[14 + 20 + 12] = 0x40
    c.append(Case("tcp_doff4", "TCP data offset 4 (< 5): no TCP header",
                  b, frames=[ipv4_hdr_fixed(b, 14)], l3cs=1, l4cs=1))
    b = bytearray(full)
    b[14 + 20 + 12] = 0xF0
    c.append(Case("tcp_doff15", "TCP data offset 15, past the frame: no TCP header",
                  b, frames=[ipv4_hdr_fixed(b, 14)], l3cs=1, l4cs=1))
    u = raw(v4udp(data(8)))
    b = u[:14 + 20 + 4]
    c.append(Case("udp_cut", "cut inside the UDP header",
                  b, frames=[ipv4_hdr_fixed(b, 14)], l3cs=1, l4cs=1))
    b = bytearray(raw(v4tcp(data(8), options=[IPOption_NOP(), IPOption_RR(routers=["10.0.0.1"])])))
    b[14 + 20 + 2] = 0  # the RR option's length byte: 0
    c.append(Case("ipv4_opt_len0", "an option of length 0: the list cannot be walked, no L4 checksum (D-TXO-2)",
                  b, frames=[ipv4_hdr_fixed(b, 14)], l3cs=1, l4cs=1))
    b = bytearray(raw(v4tcp(data(8), options=[IPOption_NOP(), IPOption_RR(routers=["10.0.0.1"])])))
    b[14 + 20 + 2] = 40  # the RR option's length past the header
    c.append(Case("ipv4_opt_len_long", "an option longer than the header (D-TXO-2)",
                  b, frames=[ipv4_hdr_fixed(b, 14)], l3cs=1, l4cs=1))
    p = v6(l4=tcp_(), pay=data(10))
    b = raw(p)
    c.append(unchanged("ipv6_cut", "cut inside the IPv6 header", b[:14 + 30]))
    c.append(unchanged("ipv6_tcp_cut", "cut inside the TCP header after IPv6", b[:14 + 40 + 12]))
    b = bytearray(b)
    b[18:20] = (len(b) - 54 + 1).to_bytes(2, "big")
    c.append(unchanged("ipv6_plen_long", "payload length past the frame (D-TXO-5)", b))
    b = raw(v6(IPv6ExtHdrHopByHop(), l4=tcp_(), pay=data(10)))
    b = bytearray(b)
    b[14 + 40 + 1] = 3  # Hdr Ext Len 3: 32 bytes, past the frame
    c.append(unchanged("ipv6_ext_long", "an extension header longer than the frame", b))
    b = raw(v6(IPv6ExtHdrHopByHop(), IPv6ExtHdrDestOpt(), l4=udp_(), pay=data(10)))
    c.append(unchanged("ipv6_ext_cut", "cut inside the second extension header", b[:14 + 40 + 8 + 4]))
    p = eth() / IPv6(**V6, nh=50) / Raw(data(40))
    c.append(unchanged("ipv6_esp", "ESP ends the chain: no L4 header (D-TXO-6)", raw(p)))
    p = eth() / IPv6(**V6) / IPv6ExtHdrDestOpt(nh=59) / Raw(data(16))
    c.append(unchanged("ipv6_no_next", "No Next Header (59) ends the chain", raw(p)))
    c.append(Case("empty", "no packet at all", b"", result="TX_ERR_LENGTH", l3cs=1, l4cs=1, ihs=0))
    c.append(Case("ihs_past_len", "inline headers longer than the packet", full, result="TX_ERR_LENGTH",
                  l3cs=1, l4cs=1, ihs=len(full) + 1))
    c.append(Case("mss_on_send", "mss on a plain send is not looked at (D-TXO-14)", full,
                  frames=[fixed(v4tcp(data(20)))], l3cs=1, l4cs=1, mss=100))
    return c


def pad_cases():
    c = []
    why = "§3.3.8, pad_tx_eth_packet: frames shorter than 64 bytes padded with zeros; 60 without the FCS (D-TXO-1)"
    arp = raw(eth() / ARP(psrc="192.0.2.1", pdst="192.0.2.2"))
    c.append(unchanged("arp_pad", why, arp, l3=False, l4=False, min_frame=MIN_FRAME))
    c.append(unchanged("arp_no_pad", "min_frame 0: no padding (pad_tx_eth_packet clear)", arp,
                       l3=False, l4=False))
    p = v4udp(b"")
    c.append(Case("udp_pad", "checksums over the datagram, then the zeros after it (D-TXO-1, D-TXO-5)",
                  raw(p), frames=[pad(fixed(p))], l3cs=1, l4cs=1, min_frame=MIN_FRAME))
    b = data(60)
    c.append(unchanged("exactly_60", "60 bytes: nothing added", b, l3=False, l4=False, min_frame=MIN_FRAME))
    c.append(unchanged("59", "59 bytes: one zero added", data(59), l3=False, l4=False, min_frame=MIN_FRAME))
    c.append(unchanged("61", "61 bytes: nothing added", data(61), l3=False, l4=False, min_frame=MIN_FRAME))
    p = v4udp(b"", ("q", 9))
    c.append(Case("vlan_pad", "a tagged frame is padded to 60 too, the tag counted (D-TXO-1)",
                  raw(p), frames=[pad(fixed(p))], l3cs=1, l4cs=1, min_frame=MIN_FRAME))
    c.append(unchanged("one_byte", "a 1-byte frame: no header, padded all the same", b"\x01",
                       min_frame=MIN_FRAME))
    return c


# ---- LSO -----------------------------------------------------------------------------------


def lso(name, why, hdr, pay, mss, ip_len=None, src_route=False, ihs_extra=0, min_frame=MIN_FRAME,
        max_lso_cap=16, l3cs=0, l4cs=0):
    """An LSO request: hdr is the header template (Scapy, through the TCP header, checksums as
    the driver left them), pay the TCP payload. The segments follow PRM §3.3.2 and D-TXO-9 to
    D-TXO-12: payload slices of mss bytes; IPv4 total length, identification + k; IPv6 payload
    length; sequence + k*mss; FIN and PSH on the last segment only, CWR on the first only; the
    IPv4 header checksum and the TCP checksum computed (not with a source route); the segments
    padded to min_frame."""
    tmpl = hdr.copy()
    if ip_len is not None and IP in tmpl:
        tmpl[IP].len = ip_len
    inp = raw(tmpl) + pay
    hlen = len(raw(hdr))
    t = hdr[TCP]
    n = max(1, -(-len(pay) // mss))
    frames = []
    for k in range(n):
        q = hdr.copy()
        chunk = pay[k * mss:(k + 1) * mss]
        q[TCP].seq = (t.seq + k * mss) % 2**32
        f = int(t.flags)
        if k < n - 1:
            f &= ~(FIN | PSH)
        if k > 0:
            f &= ~CWR
        q[TCP].flags = f
        if not src_route:
            q[TCP].chksum = None
        if IP in q:
            q[IP].len = None
            q[IP].id = (hdr[IP].id + k) % 2**16
            q[IP].chksum = None
        if IPv6 in q:
            q[IPv6].plen = None
        if chunk:
            q = q / Raw(chunk)
        frames.append(pad(raw(q), min_frame))
    return Case(name, why, inp, frames=frames, lso=1, mss=mss, ihs=hlen + ihs_extra,
                min_frame=min_frame, max_lso_cap=max_lso_cap, l3cs=l3cs, l4cs=l4cs)


def lso_err(name, why, hdr, pay, result, mss=100, ihs=None, max_lso_cap=16):
    inp = raw(hdr) + pay
    return Case(name, why, inp, result=result, lso=1, mss=mss,
                ihs=len(raw(hdr)) if ihs is None else ihs, min_frame=MIN_FRAME,
                max_lso_cap=max_lso_cap, l3cs=1, l4cs=1)


def h4(*tags, flags="A", seq=1000, ip_id=0x100, options=(), tcp_opts=(), **ip):
    return (eth(*tags) / IP(**{**V4, "id": ip_id, "chksum": BAD_IP, "options": list(options), **ip})
            / TCP(sport=40000, dport=80, seq=seq, ack=77, flags=flags, window=512,
                  chksum=BAD_L4, options=list(tcp_opts)))


def h6(*ext, tags=(), flags="A", seq=5000):
    p = eth(*tags) / IPv6(**V6)
    for e in ext:
        p = p / e
    return p / TCP(sport=40000, dport=443, seq=seq, ack=9, flags=flags, chksum=BAD_L4)


def lso_cases():
    c = []
    why = "PRM §3.3.2 (NDIS LSOv2): segments of mss payload bytes, headers updated per segment (D-TXO-9)"
    c.append(lso("v4_3x_exact", why, h4(flags="PA"), data(300), 100))
    c.append(lso("v4_3_last_short", why + "; the last segment shorter", h4(flags="FPA"), data(250), 100))
    c.append(lso("v4_2", why + ": 2 segments", h4(flags="PA"), data(150), 100))
    c.append(lso("v4_1_mss_large", "mss larger than the payload: one segment, every flag kept (D-TXO-9)",
                 h4(flags="FPAC"), data(100), 1460))
    c.append(lso("v4_many", why + ": 21 segments", h4(flags="PA"), data(1300), 64))
    c.append(lso("v4_mtu", why + ": mss 1448 with timestamps", h4(flags="PA",
                 tcp_opts=[("NOP", None), ("NOP", None), ("Timestamp", (1, 2))]), data(4000), 1448))
    c.append(lso("v4_flags", "FIN and PSH only on the last segment, CWR only on the first; ACK, URG, ECE on all (D-TXO-9)",
                 h4(flags="FPAUEC"), data(30), 10))
    c.append(lso("v4_id_seq_wrap", "IPv4 identification and TCP sequence wrap (D-TXO-9)",
                 h4(ip_id=0xFFFF, seq=0xFFFFFF00), data(300), 128))
    c.append(lso("v4_opts", "IPv4 and TCP options copied into every segment (D-TXO-9)",
                 h4(options=[IPOption_NOP(), IPOption_RR(routers=["10.0.0.1"])],
                    tcp_opts=[("MSS", 1460), ("NOP", None), ("WScale", 7)]), data(200), 90))
    c.append(lso("v4_last_padded", "§3.3.8: the last segment shorter than 60 bytes padded (D-TXO-1)",
                 h4(), data(203), 100))
    c.append(lso("v4_totlen_zero", "NDIS LSOv2 leaves the IPv4 total length 0: the template's lengths are not read (D-TXO-11)",
                 h4(), data(250), 100, ip_len=0))
    c.append(lso("v4_payload_zero", "no payload: one segment of the headers alone (D-TXO-12)",
                 h4(flags="FA"), b"", 100))
    c.append(lso("v4_checksums_asked", "l3cs and l4cs set change nothing: LSO computes both always (D-TXO-10)",
                 h4(), data(150), 100, l3cs=1, l4cs=1))
    c.append(lso("v4_ihs_past_tcp", "inline headers past the TCP header: the payload starts after the TCP header (D-TXO-11)",
                 h4(), data(150), 100, ihs_extra=10))
    c.append(lso("v4_lsrr", "§3.3.1: an LSRR option leaves the TCP checksum as the template has it (D-TXO-2)",
                 h4(options=[IPOption_LSRR(routers=["10.1.1.1"])]), data(150), 100, src_route=True))
    c.append(lso("v4_no_pad", "min_frame 0: a short last segment is not padded", h4(), data(105), 100,
                 min_frame=0))
    c.append(lso("v4_cap_exact", "a payload of exactly 2^max_lso_cap bytes is allowed (D-TXO-12)",
                 h4(), data(1024), 500, max_lso_cap=10))
    c.append(lso("q_v4", "§3.3.7: a VLAN tag in the template, in every segment (D-TXO-13)",
                 h4(("q", 100)), data(250), 100))
    c.append(lso("ad_q_v4", "QinQ tags in the template (D-TXO-13)", h4(("ad", 10), ("q", 20)), data(250), 100))
    c.append(lso("v6_3", why + ": IPv6", h6(flags="PA"), data(250), 100))
    c.append(lso("v6_ext", "IPv6 hop-by-hop and destination options in every segment; payload length counts them (D-TXO-9)",
                 h6(IPv6ExtHdrHopByHop(), IPv6ExtHdrDestOpt(), flags="FPAC"), data(350), 120))
    c.append(lso("ad_q_v6", "QinQ and IPv6 (D-TXO-13)", h6(tags=(("ad", 1), ("q", 2))), data(200), 64))
    c.append(lso("v6_routing", "§3.3.1: an IPv6 routing header leaves the TCP checksum as the template has it (D-TXO-2)",
                 h6(IPv6ExtHdrRouting(addresses=["2001:db8::99"])), data(150), 100, src_route=True))
    c.append(lso("v6_frag_atomic", "an atomic fragment header is no fragment: LSO goes on (D-TXO-7)",
                 h6(IPv6ExtHdrFragment(offset=0, m=0, id=7)), data(150), 100))
    # The refusals (D-TXO-12), checked in the order cap, mss, TCP, headers, size.
    c.append(lso_err("err_cap0", "max_lso_cap 0: the device has no LSO (T147)", h4(), data(100),
                     "TX_ERR_LSO_CAP", max_lso_cap=0))
    c.append(lso_err("err_mss0", "mss 0 (T28: the TCP payload bytes per segment)", h4(), data(100),
                     "TX_ERR_LSO_MSS", mss=0))
    c.append(lso_err("err_cap0_mss0", "max_lso_cap 0 comes before mss 0", h4(), data(100),
                     "TX_ERR_LSO_CAP", mss=0, max_lso_cap=0))
    c.append(lso_err("err_udp", "§3.3.2: LSO is for TCP; a UDP packet is refused",
                     eth() / IP(**V4) / UDP(), data(100), "TX_ERR_LSO_NOT_TCP"))
    c.append(lso_err("err_icmp", "LSO of ICMP", eth() / IP(**V4) / ICMP(), data(100),
                     "TX_ERR_LSO_NOT_TCP"))
    c.append(lso_err("err_arp", "LSO of ARP", eth() / ARP(), b"", "TX_ERR_LSO_NOT_TCP"))
    hf = h4()
    hf[IP].flags = "MF"
    c.append(lso_err("err_v4_frag", "LSO of an IPv4 fragment (D-TXO-7)", hf, data(100),
                     "TX_ERR_LSO_NOT_TCP"))
    c.append(lso_err("err_v6_frag", "LSO of an IPv6 fragment (D-TXO-7)",
                     h6(IPv6ExtHdrFragment(offset=0, m=1, id=7)), data(100), "TX_ERR_LSO_NOT_TCP"))
    c.append(Case("err_tcp_cut", "a TCP header cut short is no TCP packet",
                  raw(h4())[:14 + 20 + 12], result="TX_ERR_LSO_NOT_TCP", lso=1, mss=100, ihs=14,
                  min_frame=MIN_FRAME, max_lso_cap=16))
    c.append(lso_err("err_hdr_not_inline", "headers past the inline headers: the TCP header not inline (D-TXO-11)",
                     h4(), data(100), "TX_ERR_LSO_HDR", ihs=14 + 20))
    c.append(lso_err("err_hdr_one_short", "one header byte not inline", h4(), data(100),
                     "TX_ERR_LSO_HDR", ihs=14 + 20 + 19))
    c.append(lso_err("err_size", "a payload of 2^max_lso_cap + 1 bytes (D-TXO-12)", h4(), data(1025),
                     "TX_ERR_LSO_SIZE", mss=500, max_lso_cap=10))
    return c


# ---- output ----------------------------------------------------------------------------------


def c_bytes(name, b):
    lines = []
    for i in range(0, len(b), 16):
        lines.append("\t" + " ".join(f"0x{x:02x}," for x in b[i:i + 16]))
    body = "\n".join(lines) if b else "\t0"
    size = "" if b else "1"
    return f"static const uint8_t {name}[{size}] = {{\n{body}\n}};\n"


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write(group, cases, doc):
    names = set()
    out = [f"/* Generated by reference/tests/gen/tx_offload_gen.py: do not edit. {doc}\n"
           " * Inputs and expected frames computed by Scapy, independently of nicref. */\n",
           f"#ifndef NICREF_TESTS_TX_OFFLOAD_CASES_{group.upper()}_H\n",
           f"#define NICREF_TESTS_TX_OFFLOAD_CASES_{group.upper()}_H\n\n",
           '#include "tx_offload_util.h"\n\n']
    rows = []
    for c in cases:
        assert re.fullmatch(r"[a-z0-9_]+", c.name) and c.name not in names, c.name
        names.add(c.name)
        base = f"{group}_{c.name}"
        out.append(c_bytes(f"{base}_in", c.inp))
        for i, f in enumerate(c.frames):
            out.append(c_bytes(f"{base}_f{i}", f))
        if c.frames:
            out.append(f"static const struct txo_frame {base}_out[] = {{\n" +
                       "".join(f"\t{{ {base}_f{i}, {len(f)} }},\n" for i, f in enumerate(c.frames))
                       + "};\n")
        out.append("\n")
        r = c.req
        rows.append(f"\t{{ {c_str(c.name)}, {c_str(c.why)}, {base}_in, {len(c.inp)},\n"
                    f"\t  {{ .l3cs = {r['l3cs']}, .l4cs = {r['l4cs']}, .lso = {r['lso']}, "
                    f".mss = {r['mss']}, .inline_hdr_sz = {r['ihs']}, .min_frame = {r['min_frame']}, "
                    f".max_lso_cap = {r['max_lso_cap']} }},\n"
                    f"\t  {c.result}, {base + '_out' if c.frames else 'NULL'}, {len(c.frames)} }},\n")
    out.append(f"static const struct txo_case txo_cases_{group}[] = {{\n" + "".join(rows) + "};\n\n")
    out.append("#endif\n")
    path = os.path.join(OUT, f"tx_offload_cases_{group}.h")
    with open(path, "w") as fh:
        fh.write("".join(out))
    print(f"{os.path.relpath(path)}: {len(cases)} cases, "
          f"{sum(len(c.frames) for c in cases)} frames")


def main():
    write("csum", csum_cases(), "Checksums (PRM §3.3.1, T28).")
    write("l2", l2_cases(), "VLAN tags and L2 (PRM §3.3.7).")
    write("bad", bad_cases(), "Truncated and malformed packets (D-TXO-8).")
    write("pad", pad_cases(), "Padding (PRM §3.3.8).")
    write("lso", lso_cases(), "Large Send Offload (PRM §3.3.2).")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""The independent side of the receive parser and RSS unit tests (reference/tests/pkt_parse_rx_test.c,
rss_test.c): writes reference/tests/rss_cases.h and reference/tests/pkt_parse_cases.h.

Nothing here reads reference/. The frames are built with Scapy; what the parser must say about
each comes from Scapy's own dissection and checksum code (scapy.utils.checksum) and the rules of
docs/rss.md (D-PARSE-*); the RSS expectations come from a Toeplitz hash written here from its
public definition (Microsoft, "RSS Hashing Functions": for every set input bit, the 32 key bits
from that bit on are XORed into the result) and from the field-selection rules of docs/rss.md
(D-RSS-*) applied to the Scapy layers. Before anything is written, the Toeplitz below must give
the published results of Microsoft's RSS verification suite ("Verifying the RSS Hash
Calculation"; the same table is the RSS verification suite of the Intel 82599 datasheet
§7.1.2.8.3), which are also written into rss_cases.h so the C tests check the model against the
published values themselves.

    /usr/bin/python3 reference/tests/gen/rss_gen.py           # rewrite the headers
    /usr/bin/python3 reference/tests/gen/rss_gen.py --check   # fail if they differ (make rss-gen-check)

Either way it fails when docs/rss.md ("The independent side") gives other counts of frames and
rss_cases rows than it builds.

Scapy 2.5 or later (Debian python3-scapy)."""
import ipaddress
import itertools
import os
import struct
import sys

from scapy.all import (ARP, IP, TCP, UDP, ICMP, Dot1AD, Dot1Q, Ether, IPv6, IPv6ExtHdrDestOpt,
                       IPv6ExtHdrFragment, IPv6ExtHdrHopByHop, IPv6ExtHdrRouting, IPOption_NOP,
                       IPOption_RR, LLC, SNAP, Dot3, Raw, raw)
from scapy.layers.ipsec import AH, ESP
from scapy.utils import checksum

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

# ---------------------------------------------------------------------------------------------
# Toeplitz, from the public definition, and the published verification values.

MS_KEY = bytes.fromhex("6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c"
                       "6a42b73bbeac01fa")

# Microsoft "Verifying the RSS Hash Calculation": destination, source, IPv4/IPv6 only (source
# address then destination address), with TCP (addresses, then source port, destination port).
MS_V4 = [
    ("161.142.100.80", 1766, "66.9.149.187", 2794, 0x323e8fc2, 0x51ccc178),
    ("65.69.140.83", 4739, "199.92.111.2", 14230, 0xd718262a, 0xc626b0ea),
    ("12.22.207.184", 38024, "24.19.198.95", 12898, 0xd2d0a5de, 0x5c2b394a),
    ("209.142.163.6", 2217, "38.27.205.30", 48228, 0x82989176, 0xafc7327f),
    ("202.188.127.2", 1303, "153.39.163.191", 44251, 0x5d1809c5, 0x10e828a2),
]
MS_V6 = [
    ("3ffe:2501:200:3::1", 1766, "3ffe:2501:200:1fff::7", 2794, 0x2cc18cd5, 0x40207d3d),
    ("ff02::1", 4739, "3ffe:501:8::260:97ff:fe40:efab", 14230, 0x0f0c461c, 0xdde51bbf),
    ("fe80::200:f8ff:fe21:67cf", 38024, "3ffe:1900:4545:3:200:f8ff:fe21:67cf", 44251,
     0x4b61e985, 0x02d1feef),
]


def toeplitz(key, data):
    """For every set bit i of data (MSB of data[0] first), XOR in key bits i..i+31 (MSB of key[0]
    first). Key bits past the key read as 0 (docs/rss.md D-RSS-9)."""
    kbits = int.from_bytes(key, "big")
    klen = len(key) * 8
    res = 0
    for i in range(len(data) * 8):
        if data[i // 8] >> (7 - i % 8) & 1:
            # The 32-bit window starting at key bit i: shift the key so bit i is bit 31.
            shift = klen - i - 32
            win = (kbits >> shift) if shift >= 0 else (kbits << -shift)
            res ^= win & 0xFFFFFFFF
    return res


def addr(a):
    return ipaddress.ip_address(a).packed


def self_check():
    for rows in (MS_V4, MS_V6):
        for dst, dport, src, sport, h_ip, h_tcp in rows:
            ips = addr(src) + addr(dst)
            got_ip = toeplitz(MS_KEY, ips)
            got_tcp = toeplitz(MS_KEY, ips + struct.pack(">HH", sport, dport))
            if (got_ip, got_tcp) != (h_ip, h_tcp):
                sys.exit(f"rss_gen: Toeplitz disagrees with the published value for {src} -> "
                         f"{dst}: {got_ip:#010x}/{got_tcp:#010x}, published "
                         f"{h_ip:#010x}/{h_tcp:#010x}")


# ---------------------------------------------------------------------------------------------
# Frames. Each is (name, scapy packet or raw bytes).

MAC = dict(dst="02:00:00:00:00:02", src="02:00:00:00:00:01")
V4 = dict(src="198.51.100.7", dst="192.0.2.1")
V6 = dict(src="2001:db8::7", dst="2001:db8::1")
PAY = bytes(range(32, 32 + 24))
SPI = 0x1234ABCD


def frames():
    e = Ether(**MAC)
    f = [
        ("ipv4_tcp", e / IP(**V4, ttl=61, tos=0x28) / TCP(sport=40000, dport=443, flags="PA") / PAY),
        ("ipv4_tcp_rev", e / IP(src=V4["dst"], dst=V4["src"]) / TCP(sport=443, dport=40000, flags="A") / PAY),
        ("ipv4_udp", e / IP(**V4) / UDP(sport=5353, dport=53) / PAY),
        ("ipv6_tcp", e / IPv6(**V6, hlim=17, tc=0xB8) / TCP(sport=1024, dport=80, flags="S") / PAY),
        ("ipv6_udp", e / IPv6(**V6) / UDP(sport=4791, dport=4791) / PAY),
        ("ipv4_frag_first", e / IP(**V4, flags="MF", frag=0, proto=6) / raw(TCP(sport=7, dport=9) / PAY)),
        # Later fragments whose payload happens to look like a TCP / UDP header (D-PARSE-5).
        ("ipv4_frag_later", e / IP(**V4, frag=100, proto=6) / raw(TCP(sport=7, dport=9) / PAY)),
        ("ipv4_esp_frag_later", e / IP(**V4, frag=50, proto=50) / PAY),
        ("ipv6_frag_later", e / IPv6(**V6) / IPv6ExtHdrFragment(offset=10, m=0, id=7, nh=17)
         / raw(UDP(sport=1, dport=2) / PAY)),
        ("ipv4_icmp", e / IP(**V4) / ICMP() / PAY),
        ("ipv4_esp", e / IP(**V4) / ESP(spi=SPI, seq=1, data=PAY)),
        ("ipv6_esp", e / IPv6(**V6) / ESP(spi=SPI + 1, seq=1, data=PAY)),
        ("qinq_ipv4_tcp", e / Dot1AD(vlan=100, prio=5, id=1) / Dot1Q(vlan=200, prio=3)
         / IP(**V4) / TCP(sport=1000, dport=2000) / PAY),
        ("ipv6_ext_tcp", e / IPv6(**V6) / IPv6ExtHdrHopByHop() / IPv6ExtHdrDestOpt()
         / TCP(sport=3000, dport=22) / PAY),
        ("ipv6_frag_udp", e / IPv6(**V6) / IPv6ExtHdrFragment(offset=0, m=1, id=7)
         / UDP(sport=1, dport=2) / PAY),
        # Scapy computes a TCP checksum behind AH without the IPv6 pseudo-header: the TCP bytes
        # come from the same packet without AH (the pseudo-header is the same, RFC 8200 §8.1).
        ("ipv6_ah_tcp", e / IPv6(**V6) / AH(nh=6, payloadlen=4, spi=SPI + 2, seq=1, icv=bytes(12))
         / Raw(raw(IPv6(**V6) / TCP(sport=6000, dport=7000) / PAY)[40:])),
        ("arp", e / ARP(psrc=V4["src"], pdst=V4["dst"])),
        ("ipv4_tcp_cut", raw(e / IP(**V4) / TCP(sport=1, dport=2))[:14 + 20 + 10]),
        ("vlan_ipv4_udp_opts", e / Dot1Q(vlan=4095, prio=7, id=1) / IP(**V4, options=[IPOption_RR(), IPOption_NOP()])
         / UDP(sport=9, dport=10) / PAY),
        ("ipv6_routing_udp", e / IPv6(**V6) / IPv6ExtHdrRouting(addresses=["2001:db8::9"])
         / UDP(sport=11, dport=12) / PAY),
        ("llc_snap_ipv4", Dot3(**MAC) / LLC(dsap=0xAA, ssap=0xAA, ctrl=3) / SNAP(code=0x0800)
         / IP(**V4) / UDP() / PAY),
        ("llc_only", Dot3(**MAC) / LLC(dsap=0x42, ssap=0x42, ctrl=3) / PAY),
        ("ipv4_tcp_opts_ts", e / IP(**V4) / TCP(sport=5, dport=6, flags="A",
                                                 options=[("NOP", None), ("NOP", None), ("Timestamp", (1, 2))]) / PAY),
        ("ipv4_tcp_opts_mss", e / IP(**V4) / TCP(sport=5, dport=6, flags="SEC",
                                                  options=[("MSS", 1460)])),
        # A first fragment (offset 0, M 1) with an extension header behind the Fragment
        # header: RFC 8200 §4.5 puts the rest of the headers, the upper layer's included, in
        # the first fragment (D-PARSE-5: it keeps its L4 header).
        ("ipv6_frag_first_dstopt_tcp", e / IPv6(**V6) / IPv6ExtHdrFragment(offset=0, m=1, id=9)
         / IPv6ExtHdrDestOpt() / TCP(sport=3001, dport=23, flags="A") / PAY),
        # IPv4 with AH before TCP: the parse ends at AH (D-PARSE-10), whose SPI it reads
        # (D-PARSE-7); no L4 header, no ports (IPv6 walks the same AH: ipv6_ah_tcp).
        ("ipv4_ah_tcp", e / IP(**V4) / AH(nh=6, payloadlen=4, spi=SPI + 3, seq=1, icv=bytes(12))
         / TCP(sport=6001, dport=7001) / PAY),
    ]
    out = [(n, raw(p) if not isinstance(p, bytes) else p) for n, p in f]
    # Checksum variants: a wrong IPv4 header checksum, a wrong TCP checksum, UDP checksum 0 over
    # IPv4 (no checksum: valid) and over IPv6 (invalid), padding after the IP datagram.
    b = bytearray(out[0][1]); b[14 + 10] ^= 0x01; out.append(("ipv4_tcp_bad_ipcsum", bytes(b)))
    b = bytearray(out[0][1]); b[14 + 20 + 16] ^= 0x80; out.append(("ipv4_tcp_bad_l4csum", bytes(b)))
    out.append(("ipv4_udp_csum0", raw(e / IP(**V4) / UDP(sport=1, dport=2, chksum=0) / PAY)))
    out.append(("ipv6_udp_csum0", raw(e / IPv6(**V6) / UDP(sport=1, dport=2, chksum=0) / PAY)))
    out.append(("ipv4_udp_padded", raw(e / IP(**V4) / UDP(sport=1, dport=2) / b"xy") + bytes(20)))
    return out


# ---------------------------------------------------------------------------------------------
# What the parser must say, from Scapy's dissection (docs/rss.md D-PARSE-*).

L3_NONE, L3_V4, L3_V6 = 0, 1, 2
L4_NONE, L4_TCP, L4_UDP = 0, 1, 2


def expect_parse(b):
    e = dict(ntags=0, tags=[], ethertype=0, llc=0, llc_snap=0, l3=L3_NONE, l4_rx=L4_NONE,
             tos=0, ttl=0, ip_len=0, frag_off=0, more_frags=0, ip_opts=0, ipv6_ext=0,
             ipv6_frag_hdr=0, ip_csum_ok=0, has_spi=0, spi=0, sport=0, dport=0, tcp_flags=0,
             tcp_opts=0, tcp_ts=0, tcp_opt_other=0, udp_len=0, l4_csum_ok=0, fragment=0)
    if len(b) < 14:
        return e
    if struct.unpack(">H", b[12:14])[0] < 0x600:  # 802.3 length
        d = Dot3(b)
        e["llc"] = 1
        if LLC in d and d[LLC].dsap == 0xAA and d[LLC].ssap == 0xAA and d[LLC].ctrl == 3 and SNAP in d:
            e["llc_snap"], e["ethertype"] = 1, d[SNAP].code
        return e
    p = Ether(b)
    lay = p.payload
    e["ethertype"] = p.type
    while isinstance(lay, (Dot1Q, Dot1AD)) and e["ntags"] < 2:
        tpid = 0x88A8 if isinstance(lay, Dot1AD) else 0x8100  # Dot1AD is a Dot1Q subclass
        e["tags"].append((tpid, lay.prio, lay.id, lay.vlan))
        e["ntags"] += 1
        e["ethertype"] = lay.type
        lay = lay.payload
    ip = lay
    l3_at = 14 + 4 * e["ntags"]
    datagram_end = None
    if isinstance(ip, IP) and len(b) >= l3_at + ip.ihl * 4:
        e.update(l3=L3_V4, tos=ip.tos, ttl=ip.ttl, ip_len=ip.len, frag_off=ip.frag,
                 more_frags=int(ip.flags.MF), ip_opts=int(ip.ihl > 5))
        hdr = b[l3_at:l3_at + ip.ihl * 4]
        e["ip_csum_ok"] = int(checksum(hdr) == 0)
        e["fragment"] = int(ip.frag != 0 or bool(ip.flags.MF))
        proto, l4_at = ip.proto, l3_at + ip.ihl * 4
        datagram_end = l3_at + ip.len if ip.ihl * 4 <= ip.len <= len(b) - l3_at else None
        src_route = False
        srcdst = b[l3_at + 12:l3_at + 20]
    elif isinstance(ip, IPv6):
        e.update(l3=L3_V6, tos=ip.tc, ttl=ip.hlim, ip_len=ip.plen)
        proto, l4_at, h = ip.nh, l3_at + 40, ip.payload
        src_route = False
        while isinstance(h, (IPv6ExtHdrHopByHop, IPv6ExtHdrDestOpt, IPv6ExtHdrRouting,
                             IPv6ExtHdrFragment, AH)):
            e["ipv6_ext"] = 1
            if isinstance(h, IPv6ExtHdrRouting):
                src_route = True
            if isinstance(h, IPv6ExtHdrFragment) and not e["ipv6_frag_hdr"]:
                e.update(ipv6_frag_hdr=1, frag_off=h.offset, more_frags=h.m)
                e["fragment"] = int(h.offset != 0 or h.m != 0)
            if isinstance(h, AH) and not e["has_spi"]:
                e.update(has_spi=1, spi=h.spi)
            proto = h.nh
            l4_at += len(raw(h)) - len(raw(h.payload))
            h = h.payload
        end = l3_at + 40 + ip.plen
        datagram_end = end if end <= len(b) else None
        srcdst = b[l3_at + 8:l3_at + 40]
    else:
        return e
    later = e["frag_off"] != 0
    if proto == 50 and not later and len(b) >= l4_at + 4 and not e["has_spi"]:
        e.update(has_spi=1, spi=struct.unpack(">I", b[l4_at:l4_at + 4])[0])
    # IPv4's AH (RFC 4302 §2: the SPI at byte 4) is its upper layer: D-PARSE-10 ends the parse
    # there (proto 51 has no L4 header below)
    if proto == 51 and e["l3"] == L3_V4 and not later and len(b) >= l4_at + 8:
        e.update(has_spi=1, spi=struct.unpack(">I", b[l4_at + 4:l4_at + 8])[0])
    if later:
        e.update(has_spi=0, spi=0)
    l4_len = {6: 20, 17: 8}.get(proto)
    if l4_len is None or later or len(b) < l4_at + l4_len:
        return e
    if proto == 6:
        doff = b[l4_at + 12] >> 4
        if doff < 5 or len(b) < l4_at + doff * 4:
            return e
        t = TCP(b[l4_at:l4_at + doff * 4])
        e.update(l4_rx=L4_TCP, sport=t.sport, dport=t.dport, tcp_opts=int(doff > 5),
                 tcp_flags=int(t.flags) & 0x1FF)
        for kind, val in t.options:
            if kind == "Timestamp" and not e["tcp_ts"]:
                e["tcp_ts"] = 1
            elif kind not in ("NOP", "EOL"):
                e["tcp_opt_other"] = 1
        hl = doff * 4
    else:
        u = UDP(b[l4_at:l4_at + 8])
        e.update(l4_rx=L4_UDP, sport=u.sport, dport=u.dport, udp_len=u.len)
        hl = 8
    # D-PARSE-8: verified over the L4 bytes the IP length gives (UDP: its own length) and the
    # pseudo-header; not checkable in a fragment, with a source route, or lengths that do not fit.
    if e["fragment"] or src_route or datagram_end is None or datagram_end - l4_at < hl:
        return e
    n = datagram_end - l4_at
    if proto == 17:
        if not 8 <= e["udp_len"] <= n:
            return e
        n = e["udp_len"]
        if struct.unpack(">H", b[l4_at + 6:l4_at + 8])[0] == 0:
            e["l4_csum_ok"] = int(e["l3"] == L3_V4)
            return e
    if e["l3"] == L3_V4:
        pseudo = srcdst + struct.pack(">BBH", 0, proto, n)
    else:
        pseudo = srcdst + struct.pack(">IxxxB", n, proto)
    e["l4_csum_ok"] = int(checksum(pseudo + b[l4_at:l4_at + n]) == 0)
    return e


# ---------------------------------------------------------------------------------------------
# RSS expectations (docs/rss.md D-RSS-*), from the Scapy layers.

SEL_SRC, SEL_DST, SEL_SPORT, SEL_DPORT, SEL_SPI = 1, 2, 4, 8, 16
SEL_UDP, SEL_V6 = 1 << 30, 1 << 31


def rss_input(e, b, sel, symmetric):
    """The hash input and rx_hash_type for the frame b (parsed as e) under selector sel."""
    l3_at = 14 + 4 * e["ntags"]
    want_l3 = L3_V6 if sel & SEL_V6 else L3_V4
    want_l4 = L4_UDP if sel & SEL_UDP else L4_TCP
    ips = {}
    if e["l3"] == want_l3:
        src, dst, n = (12, 16, 4) if want_l3 == L3_V4 else (8, 24, 16)
        code = 1 if want_l3 == L3_V4 else 2
        if sel & SEL_SRC:
            ips["src"] = b[l3_at + src:l3_at + src + n]
        if sel & SEL_DST:
            ips["dst"] = b[l3_at + dst:l3_at + dst + n]
    ports = {}
    if e["l4_rx"] == want_l4 and not e["fragment"]:  # D-RSS-6: no ports in any fragment
        pcode = 1 if want_l4 == L4_TCP else 2
        if sel & SEL_SPORT:
            ports["src"] = struct.pack(">H", e["sport"])
        if sel & SEL_DPORT:
            ports["dst"] = struct.pack(">H", e["dport"])
    spi = struct.pack(">I", e["spi"]) if sel & SEL_SPI and e["has_spi"] and not e["fragment"] else None
    ht = 0
    if "src" in ips:
        ht |= code
    if "dst" in ips:
        ht |= code << 2
    if "src" in ports:
        ht |= pcode << 4
    if "dst" in ports:
        ht |= pcode << 6
    if spi is not None:  # D-RSS-7: 11 in each L4 slot no port holds
        if not ht >> 4 & 3:
            ht |= 3 << 4
        if not ht >> 6 & 3:
            ht |= 3 << 6
    if symmetric:  # D-RSS-4: each complete pair in ascending byte order
        for d in (ips, ports):
            if len(d) == 2 and d["src"] > d["dst"]:
                d["src"], d["dst"] = d["dst"], d["src"]
    data = ips.get("src", b"") + ips.get("dst", b"") + ports.get("src", b"") + ports.get("dst", b"")
    data += spi or b""
    return data, ht


def xor8(data, rqt_max):
    x = 0
    for c in data:
        x ^= c
    bits = min(8, rqt_max.bit_length() - 1) if rqt_max >= 1 else 0
    # D-RSS-5: the `bits` LSBs in reversed order (T45 "inverted LSBs")
    low = x & ((1 << bits) - 1)
    rev = int(format(low, f"0{bits}b")[::-1], 2) if bits else 0
    return (x >> bits << bits) | rev


def selectors():
    for l3, l4 in itertools.product((0, SEL_V6), (0, SEL_UDP)):
        for fields in range(32):
            yield l3 | l4 | fields


# ---------------------------------------------------------------------------------------------
# Output.

def c_bytes(b):
    return ", ".join(f"0x{c:02x}" for c in b)


def render_parse(fs):
    o = ['/* Generated by reference/tests/gen/rss_gen.py: do not edit. The receive parser\'s fields',
         ' * for frames built with Scapy, from Scapy\'s dissection and checksum code (docs/rss.md',
         ' * D-PARSE-*). */', "#ifndef PKT_PARSE_CASES_H", "#define PKT_PARSE_CASES_H", "",
         "#include <stddef.h>", "#include <stdint.h>", ""]
    for name, b in fs:
        o.append(f"static const uint8_t pp_{name}[] = {{ {c_bytes(b)} }};")
    o += ["", "struct pp_case {", "\tconst char *name;", "\tconst uint8_t *frame;", "\tsize_t len;",
          "\tuint8_t ntags;", "\tuint16_t tag_tpid[2], tag_vid[2];", "\tuint8_t tag_prio[2], tag_cfi[2];",
          "\tuint16_t ethertype;", "\tuint8_t llc, llc_snap, l3, l4_rx, tos, ttl;",
          "\tuint16_t ip_len, frag_off;", "\tuint8_t more_frags, fragment, ip_opts, ipv6_ext, ipv6_frag_hdr, ip_csum_ok;",
          "\tuint8_t has_spi;", "\tuint32_t spi;", "\tuint16_t sport, dport, tcp_flags;",
          "\tuint8_t tcp_opts, tcp_ts, tcp_opt_other;", "\tuint16_t udp_len;", "\tuint8_t l4_csum_ok;",
          "};", "", "static const struct pp_case pp_cases[] = {"]
    for name, b in fs:
        e = expect_parse(b)
        t = e["tags"] + [(0, 0, 0, 0)] * (2 - len(e["tags"]))
        o.append(f'\t{{ "{name}", pp_{name}, sizeof(pp_{name}), {e["ntags"]}, '
                 f'{{ 0x{t[0][0]:04x}, 0x{t[1][0]:04x} }}, {{ {t[0][3]}, {t[1][3]} }}, '
                 f'{{ {t[0][1]}, {t[1][1]} }}, {{ {t[0][2]}, {t[1][2]} }}, 0x{e["ethertype"]:04x}, '
                 f'{e["llc"]}, {e["llc_snap"]}, {e["l3"]}, {e["l4_rx"]}, 0x{e["tos"]:02x}, {e["ttl"]}, '
                 f'{e["ip_len"]}, {e["frag_off"]}, {e["more_frags"]}, {e["fragment"]}, {e["ip_opts"]}, '
                 f'{e["ipv6_ext"]}, {e["ipv6_frag_hdr"]}, {e["ip_csum_ok"]}, {e["has_spi"]}, '
                 f'0x{e["spi"]:08x}, {e["sport"]}, {e["dport"]}, 0x{e["tcp_flags"]:03x}, '
                 f'{e["tcp_opts"]}, {e["tcp_ts"]}, {e["tcp_opt_other"]}, {e["udp_len"]}, '
                 f'{e["l4_csum_ok"]} }},')
    o += ["};", "", "#endif", ""]
    return "\n".join(o)


RQT_MAX_SIZES = (0, 1, 2, 4, 64, 100, 128, 256, 1024, 65535)


def render_rss(fs):
    o = ['/* Generated by reference/tests/gen/rss_gen.py: do not edit. RSS expectations from a Toeplitz',
         ' * written from its public definition and checked against Microsoft\'s published RSS',
         ' * verification values (below, as published), and from the field rules of docs/rss.md',
         ' * (D-RSS-*) applied to frames built with Scapy (pkt_parse_cases.h). */',
         "#ifndef RSS_CASES_H", "#define RSS_CASES_H", "", "#include <stdint.h>", "",
         "#include \"pkt_parse_cases.h\"", "",
         f"static const uint8_t rss_ms_key[40] = {{ {c_bytes(MS_KEY)} }};", "",
         "/* Microsoft \"Verifying the RSS Hash Calculation\": source, destination, ports, and the",
         " * published IP-only and IP+TCP hashes. */",
         "struct rss_ms_case {", "\tuint8_t v6;", "\tuint8_t src[16], dst[16];", "\tuint16_t sport, dport;",
         "\tuint32_t hash_ip, hash_tcp;", "};", "static const struct rss_ms_case rss_ms_cases[] = {"]
    for v6, rows in ((0, MS_V4), (1, MS_V6)):
        for dst, dport, src, sport, h_ip, h_tcp in rows:
            o.append(f"\t{{ {v6}, {{ {c_bytes(addr(src))} }}, {{ {c_bytes(addr(dst))} }}, {sport}, {dport}, "
                     f"0x{h_ip:08x}, 0x{h_tcp:08x} }},")
    o += ["};", "",
          "/* For each frame of pp_cases and each selector (l3_prot_type x l4_prot_type x the 32",
          " * selected_fields sets): rx_hash_type, the Toeplitz hash under rss_ms_key without and with",
          " * symmetric hashing, and inverted XOR8 with rqt_max_size 64. */",
          "struct rss_case {", "\tuint8_t frame;", "\tuint32_t sel;", "\tuint8_t hash_type;",
          "\tuint32_t toeplitz, toeplitz_sym, xor8;", "};", "static const struct rss_case rss_cases[] = {"]
    for fi, (name, b) in enumerate(fs):
        e = expect_parse(b)
        for sel in selectors():
            data, ht = rss_input(e, b, sel, False)
            sdata, _ = rss_input(e, b, sel, True)
            o.append(f"\t{{ {fi}, 0x{sel:08x}, 0x{ht:02x}, 0x{toeplitz(MS_KEY, data):08x}, "
                     f"0x{toeplitz(MS_KEY, sdata):08x}, 0x{xor8(data, 64):02x} }},")
    o += ["};", "",
          "/* Inverted XOR8 of the IPv4 TCP frame's 4-tuple under each rqt_max_size. */",
          "struct rss_xor8_case {", "\tuint16_t rqt_max_size;", "\tuint32_t hash;", "};",
          "static const struct rss_xor8_case rss_xor8_cases[] = {"]
    e0 = expect_parse(fs[0][1])
    d0, _ = rss_input(e0, fs[0][1], 0xF, False)
    for m in RQT_MAX_SIZES:
        o.append(f"\t{{ {m}, 0x{xor8(d0, m):02x} }},")
    o += ["};", "", "#endif", ""]
    return "\n".join(o)


def doc_counts(fs):
    """docs/rss.md says how many frames this builds and how many rss_cases rows it writes; the
    numbers must be this generator's (they once said 29 and 3,712 for 30 and 3,840)."""
    import re
    path = os.path.join(OUT, "..", "..", "docs", "rss.md")
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    rows = len(fs) * sum(1 for _ in selectors())
    got = [re.search(r"builds (\d+) frames", doc), re.search(r"XOR8: ([\d,]+) rows", doc)]
    want = [len(fs), rows]
    if None in got or [int(m.group(1).replace(",", "")) for m in got] != want:
        print(f"rss_gen: docs/rss.md must say \"builds {want[0]} frames\" and \"XOR8: {want[1]:,} "
              f"rows\" (\"The independent side\")", file=sys.stderr)
        return 1
    return 0


def main():
    self_check()
    fs = frames()
    outputs = {os.path.join(OUT, "pkt_parse_cases.h"): render_parse(fs),
               os.path.join(OUT, "rss_cases.h"): render_rss(fs)}
    check = "--check" in sys.argv[1:]
    bad = 0
    for path, text in outputs.items():
        if check:
            try:
                with open(path) as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print(f"rss_gen: {os.path.relpath(path, OUT)} differs from the generator's output "
                      f"(rerun reference/tests/gen/rss_gen.py)", file=sys.stderr)
                bad = 1
        else:
            with open(path, "w") as f:
                f.write(text)
    sys.exit(bad | doc_counts(fs))


if __name__ == "__main__":
    main()

"""Packets and the device's send-side transformations, computed with Scapy.

Everything the device must put on the wire is derived here from public protocol facts
(RFC 791/793/768/8200, IEEE 802.1Q, NDIS LSOv2) and the PRM's offload clauses
(ConnectX-4 PRM Rev 0.40 §3.3.1, §3.3.2, §3.3.8, T28), never from nicref's output.
The self-check (test_gen_tx.py) re-derives the same bytes by hand (struct + a ones'-complement
sum written out) and asserts that both agree.
"""
import logging

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)

from scapy.all import (ARP, ICMP, IP, TCP, UDP, Dot1AD, Dot1Q, Ether, IPOption_LSRR,  # noqa: E402
                       IPOption_NOP, IPOption_RR, IPOption_SSRR, IPv6, IPv6ExtHdrDestOpt,
                       IPv6ExtHdrHopByHop, IPv6ExtHdrRouting, Raw)

DST_MAC = "02:00:00:00:00:02"
SRC_MAC = "02:00:00:00:00:01"
BCAST_MAC = "ff:ff:ff:ff:ff:ff"
MCAST_MAC = "01:00:5e:00:00:fb"
SRC4, DST4 = "192.0.2.1", "198.51.100.2"
HOP4A, HOP4B = "203.0.113.7", "203.0.113.9"
SRC6, DST6 = "2001:db8::1", "2001:db8::2"
HOP6 = "2001:db8:ffff::7"

# A checksum value no correct computation gives for our packets: the device must ignore it
# (§3.3.1: "the value placed in TCP/UDP checksum is ignored by the device").
GARBAGE_CSUM = 0xBEEF
# Minimum frame (§3.3.8: "padded ... to 64 bytes by appending trailing zeros (before the FCS)").
# Frames in the model carry no FCS (issue 12 item 1), so the clause reads two ways; see pad().
MIN_WITH_FCS = 60
MIN_WITHOUT_FCS = 64


def payload(n, seed=0):
    """n deterministic payload bytes (a pattern that never repeats with a short period)."""
    return bytes(((i * 7 + seed * 13 + (i >> 8) * 3) & 0xFF) for i in range(n))


def eth(dst=DST_MAC, vlan=None, qinq=None, etype=None):
    """Ethernet II header, optionally with an 802.1Q tag (vlan=(prio, vid)) and an outer
    802.1ad tag (qinq=(prio, vid)): VLAN insertion through the inline headers (§3.3.7)."""
    p = Ether(dst=dst, src=SRC_MAC)
    if qinq is not None:
        p = p / Dot1AD(prio=qinq[0], vlan=qinq[1])
    if vlan is not None:
        p = p / Dot1Q(prio=vlan[0], vlan=vlan[1])
    if etype is not None:
        # the EtherType after the last tag: on the Ether itself it would replace the tags'
        # TPID and the frame would carry no tag at all
        p.lastlayer().type = etype
    return p


def eth_tags(tags, etype, dst=DST_MAC):
    """Ethernet II header carrying `tags` in order, outermost first, each ("ad", prio, vid) an
    802.1ad S-tag (TPID 88A8h) or ("q", prio, vid) an 802.1Q C-tag (TPID 8100h); `etype` is the
    EtherType after the last tag (IEEE 802.1Q: each tag's TPID sits where the EtherType would,
    the tag's own EtherType field names what follows it)."""
    if not tags:
        return Ether(dst=dst, src=SRC_MAC, type=etype)
    p = Ether(dst=dst, src=SRC_MAC)
    for n, (kind, prio, vid) in enumerate(tags):
        cls = {"ad": Dot1AD, "q": Dot1Q}[kind]
        p = p / (cls(prio=prio, vlan=vid, type=etype) if n == len(tags) - 1 else cls(prio=prio, vlan=vid))
    return p


def build(p):
    """The bytes of a Scapy packet with every field made concrete."""
    return bytes(p)


def corrupt_csums(frame, ip=True, l4=True):
    """The packet the driver posts: checksum fields hold garbage (the device must compute
    them, or leave them, per the eth segment's l3cs/l4cs)."""
    p = Ether(frame)
    if ip and p.haslayer(IP):
        p[IP].chksum = GARBAGE_CSUM
    if l4:
        for layer in (TCP, UDP):
            if p.haslayer(layer):
                p[layer].chksum = GARBAGE_CSUM
    return bytes(p)


def _source_routed(p):
    return p.haslayer(IP) and any(isinstance(o, (IPOption_LSRR, IPOption_SSRR)) for o in p[IP].options)


def _routing_header(p):
    return p.haslayer(IPv6ExtHdrRouting)


def l4_excluded(frame):
    """§3.3.1: 'UDP/TCP transmit checksum calculation is not supported for IPv6 packets with
    routing extension header and for IPv4 packets with LSRR and SSRR IPv4 options.'"""
    p = Ether(frame)
    return _source_routed(p) or _routing_header(p)


def offload(frame, l3cs, l4cs, l4_reading="final"):
    """The frame the device transmits for a SEND with eth segment l3cs/l4cs (T28):
    l3cs: the IPv4 header checksum is computed (ignored for non-IPv4);
    l4cs: the TCP/UDP checksum that follows the (outer) IP header is computed over the
    pseudo-header (ignored for non-TCP/UDP). UDP: a computed 0 is sent as 0xFFFF (RFC 768;
    Scapy's UDP does the same). For the excluded cases l4_reading selects one reading:
    'final' (computed with the final destination, RFC 791/8200), 'header' (with the IP
    header's destination), 'asis' (left as posted)."""
    p = Ether(frame)
    if l3cs and p.haslayer(IP):
        del p[IP].chksum
    if l4cs:
        excluded = _source_routed(p) or _routing_header(p)
        for layer in (TCP, UDP):
            if p.haslayer(layer):
                if not excluded or l4_reading == "final":
                    del p[layer].chksum
                elif l4_reading == "header":
                    p[layer].chksum = _header_dst_l4_csum(p, layer)
                break
    return bytes(p)


def _header_dst_l4_csum(p, layer):
    """The L4 checksum computed with the IP header's destination in the pseudo-header:
    the same L4 segment under the same addresses, without the source-route option / routing
    header (neither enters the pseudo-header otherwise)."""
    l4 = p[layer].copy()
    del l4.chksum
    if p.haslayer(IP):
        q = IP(src=p[IP].src, dst=p[IP].dst) / l4
        return IP(bytes(q))[layer].chksum
    q = IPv6(src=p[IPv6].src, dst=p[IPv6].dst) / l4
    return IPv6(bytes(q))[layer].chksum


def pad(frame, minimum):
    """§3.3.8: frames shorter than the minimum get trailing zeros."""
    return frame + bytes(max(0, minimum - len(frame)))


def pad_readings(frames):
    """The readings of §3.3.8 for a list of frames: ('60', frames padded to 60 bytes without
    FCS = 64 with it) and ('64', padded to 64 bytes without FCS). Returns a list of
    (reading, frames); a single entry when no frame is shorter than 64 bytes."""
    a = [pad(f, MIN_WITH_FCS) for f in frames]
    b = [pad(f, MIN_WITHOUT_FCS) for f in frames]
    if a == b:
        return [(None, a)]
    return [("§3.3.8: 64 bytes with the FCS: 60 without it", a),
            ("§3.3.8: 64 bytes before the FCS", b)]


def lso(frame, hdr_len, mss, cwr_reading="first"):
    """The segments of an LSO WQE (§3.3.2, NDIS LSOv2): the header template (the first
    hdr_len bytes: L2, IPv4/IPv6 with options/extension headers, TCP with options) is
    repeated on each segment of mss payload bytes (the last shorter), with per segment:
    IPv4 total length / IPv6 payload length, IPv4 identification + segment index (mod 2^16),
    TCP sequence number + bytes before it, PSH and FIN only on the last segment, CWR on the
    first only ('first') or on every segment ('all'), IPv4 header and TCP checksums computed.
    """
    tpl = Ether(frame[:hdr_len])
    body = frame[hdr_len:]
    chunks = [body[i:i + mss] for i in range(0, len(body), mss)] or [b""]
    out = []
    for i, chunk in enumerate(chunks):
        p = tpl.copy()
        last = i == len(chunks) - 1
        if p.haslayer(IP):
            p[IP].id = (p[IP].id + i) & 0xFFFF
            p[IP].len = None
            p[IP].chksum = None
        if p.haslayer(IPv6):
            p[IPv6].plen = None
        t = p[TCP]
        t.seq = (t.seq + i * mss) & 0xFFFFFFFF
        flags = int(t.flags)
        if not last:
            flags &= ~0x09  # FIN (0x01), PSH (0x08): the last segment only
        if i > 0 and cwr_reading == "first":
            flags &= ~0x80  # CWR
        t.flags = flags
        t.chksum = None
        t.remove_payload()
        p = p / Raw(chunk) if chunk else p
        out.append(bytes(p))
    return out



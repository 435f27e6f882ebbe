"""csum.json: the checksum offloads (and the frame builders LSO shares).

Part of the independent send-path generator (gen_tx.py): nothing here comes from nicref's
output."""
import pkt
from pkt import (ARP, ICMP, IP, TCP, UDP, DST4, DST6, HOP4A, HOP4B, HOP6, SRC4, SRC6,
                 IPOption_LSRR, IPOption_NOP, IPOption_RR, IPOption_SSRR, IPv6,
                 IPv6ExtHdrDestOpt, IPv6ExtHdrHopByHop, IPv6ExtHdrRouting, Raw, build, eth,
                 payload)
from vecfmt import Sq, VFile, cqe_err, cqe_ok, tx_setup
from txcommon import (CL_CSUM_CAP, C_CSUM, C_LSO, C_PAD, C_VLAN, DERIVED, NOTES, SETUP, SYN_LEN,
                      SYN_QP_OP, S_LSO, S_SEND, post, send)


def tcp4(n=200, flags="A", vlan=None, ipopts=None, seed=0, tcpopts=None, ipid=1):
    iplen = 0xFFFF if n > 0xFFFF - 40 else None  # an LSO template too long for the field
    p = eth(vlan=vlan) / IP(src=SRC4, dst=DST4, id=ipid, len=iplen, options=ipopts or []) / \
        TCP(sport=40000, dport=80, seq=1000, ack=5000, flags=flags, options=tcpopts or [])
    return build(p / Raw(payload(n, seed)))


def udp4(n=200, ipopts=None, seed=0, vlan=None, sport=40001):
    p = eth(vlan=vlan) / IP(src=SRC4, dst=DST4, id=2, options=ipopts or []) / UDP(sport=sport, dport=50001)
    return build(p / Raw(payload(n, seed)))


def tcp6(n=200, ext=None, seed=0, vlan=None, qinq=None, flags="A", tcpopts=None):
    p = eth(vlan=vlan, qinq=qinq) / IPv6(src=SRC6, dst=DST6)
    for e in ext or []:
        p = p / e
    return build(p / TCP(sport=40000, dport=80, seq=1000, ack=5000, flags=flags,
                         options=tcpopts or []) / Raw(payload(n, seed)))


def udp6(n=200, ext=None, seed=0, vlan=None, qinq=None, sport=40001):
    p = eth(vlan=vlan, qinq=qinq) / IPv6(src=SRC6, dst=DST6)
    for e in ext or []:
        p = p / e
    return build(p / UDP(sport=sport, dport=50001) / Raw(payload(n, seed)))


def udp_zero_payload(make, n):
    """A UDP packet whose computed checksum is 0, so that it must go out as 0xFFFF (RFC 768):
    the last two payload bytes (an aligned 16-bit word) are chosen by hand so that the
    ones'-complement sum of pseudo-header and datagram is 0xFFFF."""
    import hand
    from pkt import Ether
    base = make(n)
    b = bytearray(base)
    b[-2:] = b"\0\0"
    s = hand.l4_sum(bytes(b))  # sum with the checksum field taken as 0
    word = (~s) & 0xFFFF
    b[-2:] = word.to_bytes(2, "big")
    assert hand.l4_sum(bytes(b)) == 0xFFFF
    p = Ether(bytes(b))
    assert p.haslayer(UDP)
    return bytes(b)


def csum_file():
    f = VFile("csum.json", "tx_csum", [
        "Transmit checksum offload (ConnectX-4 PRM Rev 0.40 §3.3.1, T28 l3cs/l4cs): the IPv4 header "
        "checksum; the TCP/UDP checksum over the pseudo-header for IPv4 (with options) and IPv6 "
        "(with extension headers); the cases the PRM excludes (IPv6 routing header, IPv4 LSRR/"
        "SSRR); a computed UDP checksum 0 sent as 0xFFFF (RFC 768); the bits ignored where they "
        "do not apply.",
        "Every posted packet carries 0xBEEF in its checksum fields: 'the value placed in TCP/UDP "
        "checksum is ignored by the device' (§3.3.1). Expected frames are computed by Scapy and "
        "checked by hand (vectors/tx/gen/test_gen_tx.py).",
    ], NOTES)
    g = f.group("one SQ", SETUP + [tx_setup()])

    def case(comment, frame, l3, l4, ihs=None, kinds=("ptr",), sizes=None, cite=C_CSUM,
             result="valid", flags=(), readings=None, lso=False):
        posted = pkt.corrupt_csums(frame)
        if ihs is None:
            ihs = 14
        t = g.test(comment, cite, result, list(flags))
        sq = Sq()
        i = post(t, sq, send(posted, ihs=ihs, kinds=kinds, sizes=sizes,
                             eth_f={"l3cs": l3, "l4cs": l4}))
        for r, r2 in (readings or [(None, "final")]):
            DERIVED.append(("offload", posted, l3, l4, r2, pkt.offload(posted, l3, l4, r2)))
        if readings:
            t.frames([], readings=[(r, [pkt.offload(posted, l3, l4, r2)]) for r, r2 in readings])
        else:
            t.frames([pkt.offload(posted, l3, l4)])
        t.cqes([cqe_ok(i, S_SEND)])

    case("IPv4/TCP, l3cs and l4cs: both checksums computed", tcp4(), 1, 1, ihs=54)
    case("IPv4/UDP, l3cs and l4cs: both checksums computed", udp4(), 1, 1, ihs=42)
    case("IPv4/TCP, l3cs only: the IPv4 checksum computed, the TCP checksum sent as posted (0xBEEF)",
         tcp4(seed=1), 1, 0, ihs=54)
    case("IPv4/TCP, l4cs only: the TCP checksum computed, the IPv4 checksum sent as posted (0xBEEF)",
         tcp4(seed=2), 0, 1, ihs=54)
    case("IPv4/UDP, neither bit: sent exactly as posted", udp4(seed=3), 0, 0, ihs=42)
    case("IPv4/TCP with 14 bytes inline and the IP and TCP headers gathered from memory: the "
         "device computes from the packet as gathered", tcp4(seed=4), 1, 1, ihs=14)
    case("IPv4/TCP with the headers split over inline and three data segments (IP header across a "
         "segment boundary)", tcp4(seed=5), 1, 1, ihs=20, kinds=("inline", "ptr", "ptr"), sizes=[9, 30])
    case("IPv4/TCP with an odd payload length (201): the last byte padded with zero for the sum "
         "(RFC 793)", tcp4(n=201, seed=6), 1, 1, ihs=54)
    case("IPv4/TCP with TCP options (MSS, NOP, window scale, timestamps): covered by the checksum",
         tcp4(seed=7, tcpopts=[("MSS", 1460), ("NOP", None), ("WScale", 7), ("Timestamp", (1, 2))]),
         1, 1, ihs=74)
    case("IPv4 with options (NOP, Record Route: IHL 9)/TCP: the IPv4 checksum covers the options, "
         "the TCP header found after them", tcp4(seed=8, ipopts=[IPOption_NOP(), IPOption_RR(routers=[HOP4A, "0.0.0.0", "0.0.0.0"])]),
         1, 1, ihs=14 + 36 + 20)
    case("IPv4 with options (Record Route)/UDP: both checksums computed",
         udp4(seed=9, ipopts=[IPOption_RR(routers=[HOP4A, HOP4B]), IPOption_NOP(), IPOption_NOP(), IPOption_NOP()]),
         1, 1, ihs=14 + 36 + 8)
    case("802.1Q-tagged IPv4/TCP (VLAN inserted through the inline headers, §3.3.7): checksums "
         "computed past the tag", tcp4(seed=10, vlan=(1, 10)), 1, 1, ihs=18 + 40, cite=C_CSUM + "; " + C_VLAN)
    case("IPv6/TCP, l4cs: the TCP checksum over the IPv6 pseudo-header (RFC 8200 §8.1)", tcp6(seed=11), 0, 1, ihs=74)
    case("IPv6/UDP, l4cs", udp6(seed=12), 0, 1, ihs=62)
    case("IPv6/TCP with l3cs too: 'For non IPv4 packets, the device ignores this bit'", tcp6(seed=13), 1, 1, ihs=74,
         cite=C_CSUM + " (l3cs on IPv6 ignored)")
    case("IPv6 with hop-by-hop and destination-options extension headers/TCP: the checksum of the "
         "TCP header after the chain", tcp6(seed=14, ext=[IPv6ExtHdrHopByHop(), IPv6ExtHdrDestOpt()]), 0, 1, ihs=14 + 40 + 16 + 20)
    case("IPv6 with a destination-options header/UDP", udp6(seed=15, ext=[IPv6ExtHdrDestOpt()]), 0, 1, ihs=14 + 40 + 8 + 8)
    case("802.1ad + 802.1Q tagged IPv6/UDP: checksum computed past both tags", udp6(seed=16, qinq=(0, 7), vlan=(0, 8)), 0, 1,
         ihs=22 + 48, cite=C_CSUM + "; " + C_VLAN)
    case("ICMP over IPv4 with l4cs: not TCP/UDP, 'the device ignores this bit'; the IPv4 checksum "
         "computed (l3cs)", build(eth() / IP(src=SRC4, dst=DST4, id=3) / ICMP(chksum=0xBEEF) / Raw(payload(64, 17))),
         1, 1, ihs=34, cite=C_CSUM + " (l4cs on non-TCP/UDP ignored)")
    case("ARP with l3cs and l4cs: neither IPv4 nor TCP/UDP; sent as posted",
         build(eth(dst=pkt.BCAST_MAC) / ARP(psrc=SRC4, pdst=DST4)) + bytes(22), 1, 1, ihs=14)

    for name, make in (("IPv4", lambda n: udp4(n=n, seed=18)), ("IPv6", lambda n: udp6(n=n, seed=19))):
        fr = udp_zero_payload(make, 60)
        case(f"{name}/UDP whose checksum computes to 0: sent as 0xFFFF (RFC 768: 'If the computed "
             "checksum is zero, it is transmitted as all ones')", fr, 1, 1, ihs=14,
             cite=C_CSUM + "; RFC 768")

    ex = [("L4 checksum left as posted", "asis"), ("computed with the final destination", "final"),
          ("computed with the IP header's destination", "header")]
    case("IPv6 with a routing header (type 0, one address)/TCP: L4 checksum 'not supported' (§3.3.1)",
         tcp6(seed=20, ext=[IPv6ExtHdrRouting(addresses=[HOP6])]), 0, 1, ihs=14 + 40 + 24 + 20,
         result="acceptable", flags=["Excluded"], readings=ex)
    case("IPv6 with a routing header/UDP: not supported", udp6(seed=21, ext=[IPv6ExtHdrRouting(addresses=[HOP6])]),
         0, 1, ihs=14 + 40 + 24 + 8, result="acceptable", flags=["Excluded"], readings=ex)
    case("IPv4 with LSRR/TCP: the IPv4 checksum computed, the TCP checksum 'not supported'",
         tcp4(seed=22, ipopts=[IPOption_LSRR(routers=[HOP4A, HOP4B])]), 1, 1, ihs=14 + 32 + 20,
         result="acceptable", flags=["Excluded"], readings=ex)
    case("IPv4 with SSRR/UDP: the IPv4 checksum computed, the UDP checksum 'not supported'",
         udp4(seed=23, ipopts=[IPOption_SSRR(routers=[HOP4A, HOP4B])]), 1, 1, ihs=14 + 32 + 8,
         result="acceptable", flags=["Excluded"], readings=ex)

    fr = udp4(n=2, seed=24)
    t = g.test("IPv4/UDP of 44 bytes with l3cs and l4cs: checksums over the packet (UDP length 10), "
               "then padded to the minimum frame: the zeros are not in the checksums",
               C_CSUM + "; " + C_PAD, "acceptable", ["Padding"])
    sq = Sq()
    posted = pkt.corrupt_csums(fr)
    i = post(t, sq, send(posted, ihs=42, eth_f={"l3cs": 1, "l4cs": 1}))
    t.frames([pkt.offload(posted, 1, 1)]).cqes([cqe_ok(i, S_SEND)])
    no_csum_cap_group(f)
    return f


def no_csum_cap_group(f):
    """A device that reports no checksum offload (T147 csum_cap 0, lowered by the group's caps):
    §3.3.1 says support 'is reported through the csum_cap bit', not what such a device does with
    l3cs/l4cs. Readings (D-TXO-16, docs/tx_offload.md): not applied and sent as posted, the WQE
    completes (the decision); applied anyway; refused in error. A group of its own at the end of
    the file, so that the earlier tests keep their numbers."""
    g = f.group("one SQ on a device whose csum_cap is 0",
                SETUP + [tx_setup()], caps={"per_protocol_networking_offload_caps.csum_cap": 0})
    cite = C_CSUM + ", T147 csum_cap; decision D-TXO-16"
    for name, frame, ihs in (("IPv4/TCP", tcp4(seed=30), 54), ("IPv4/UDP", udp4(seed=31), 42)):
        posted = pkt.corrupt_csums(frame)
        t = g.test(f"{name} with l3cs and l4cs on a device without checksum offload: sent as "
                   "posted (0xBEEF checksums) and the WQE completes, with the driver's mistake "
                   "reported (D-TXO-16); or the checksums computed anyway; or refused in error",
                   cite, "acceptable", ["CsumCap"])
        sq = Sq()
        i = post(t, sq, send(posted, ihs=ihs, eth_f={"l3cs": 1, "l4cs": 1}))
        DERIVED.append(("offload", posted, 0, 0, "final", posted))
        DERIVED.append(("offload", posted, 1, 1, "final", pkt.offload(posted, 1, 1)))
        t.frames([], readings=[("D-TXO-16: not applied, sent as posted", [posted]),
                               ("applied anyway", [pkt.offload(posted, 1, 1)]),
                               ("refused in error", [])])
        t.cqes_any([("D-TXO-16: sent as posted, or applied: the WQE completes", [cqe_ok(i, S_SEND)]),
                    ("refused in error", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP]}, S_SEND)])])
        t.maybe_violation("l3cs/l4cs asked of a device without csum_cap", CL_CSUM_CAP)

    posted = pkt.corrupt_csums(udp4(seed=32))
    t = g.test("IPv4/UDP with neither l3cs nor l4cs on a device without checksum offload: sent "
               "exactly as posted, nothing asked of the missing capability", cite, "valid")
    sq = Sq()
    i = post(t, sq, send(posted, ihs=42, eth_f={"l3cs": 0, "l4cs": 0}))
    t.frames([posted]).cqes([cqe_ok(i, S_SEND)])

    frame = tcp4(n=2000, seed=33, flags="PA")
    posted = pkt.corrupt_csums(frame)
    segs = pkt.lso(posted, 54, 1000)
    DERIVED.append(("lso", posted, 54, 1000, "first", segs))
    as_template = [pkt.corrupt_csums(s) for s in segs]
    t = g.test("IPv4/TCP LSO of 2000 bytes, mss 1000, on a device without checksum offload: two "
               "segments whose IPv4 and TCP checksums are computed (LSO is its own capability, "
               "max_lso_cap; D-TXO-10, D-TXO-16), or carry the template's (0xBEEF)",
               C_LSO + "; " + cite, "acceptable", ["CsumCap"])
    sq = Sq()
    i = post(t, sq, send(posted, ihs=54, opcode="LSO", eth_f={"l3cs": 1, "l4cs": 1, "mss": 1000}))
    t.frames([], readings=[("D-TXO-10/16: each segment's checksums computed", segs),
                           ("the template's checksums, not computed", as_template)])
    t.cqes([cqe_ok(i, S_LSO)])

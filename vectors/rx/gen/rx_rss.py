"""RSS vectors: the hash type, the Toeplitz over the selected fields, the indirection (PRM §3.3.3, T45-T47).
Part of gen_rx.py (its docstring says how the expectations are derived)."""
from rx_common import *  # noqa: F401,F403

# ---------------------------------------------------------------------------------------------
# rss.json: every rx_hash_field_select combination of IPv4/IPv6 x TCP/UDP, symmetric, the
# published values, inverted XOR8.

NRQ = 4


def rss_setup(sel, fn=2, symmetric=0, key=MS_KEY):
    return rx_setup(rqs=[{} for _ in range(NRQ)], rqt={"max_size": NRQ, "rqs": list(range(NRQ))},
                    tirs=[{"indirect": True, "hash_fn": fn, "symmetric": symmetric,
                           "key": key.hex(), "sel": hex(sel)}], steer_all=[0])


def rss_input(pkt, sel, symmetric):
    """D-RSS-2: SRC_IP, DST_IP, L4_SPORT, L4_DPORT, big-endian as on the wire; D-RSS-4 sorts each
    complete pair. Returns (input bytes, rx_hash_type)."""
    ipl = pkt[IPv6] if IPv6 in pkt else pkt[IP]
    v = 2 if IPv6 in pkt else 1
    l4 = pkt[TCP] if TCP in pkt else pkt[UDP]
    t = 1 if TCP in pkt else 2
    l3_want = 1 if sel >> 31 & 1 else 0
    l4_want = 1 if sel >> 30 & 1 else 0
    ip_ok = (v == 2) == bool(l3_want)
    l4_ok = (t == 2) == bool(l4_want)
    s, d = ip_bytes(ipl.src), ip_bytes(ipl.dst)
    sp, dp = struct.pack(">H", l4.sport), struct.pack(">H", l4.dport)
    fields, htype = [], 0
    ips = [(0, s, 0), (1, d, 2)]
    prt = [(2, sp, 4), (3, dp, 6)]
    got_ip = [b for bit, b, sh in ips if sel >> bit & 1 and ip_ok]
    got_pt = [b for bit, b, sh in prt if sel >> bit & 1 and l4_ok]
    for bit, b, sh in ips:
        if sel >> bit & 1 and ip_ok:
            htype |= v << sh
    for bit, b, sh in prt:
        if sel >> bit & 1 and l4_ok:
            htype |= t << sh
    if symmetric and len(got_ip) == 2:
        got_ip.sort()
    if symmetric and len(got_pt) == 2:
        got_pt.sort()
    fields = got_ip + got_pt
    return b"".join(fields), htype


def xor8_reversed(x, rqt_max):
    """D-RSS-5: T45 "XOR8 results but with inverted LSBs", log2(rqt_max_size) of them (at most
    8): their order reversed (the reading Linux mlx5e's RQT fill, mlx5e_bits_invert, supports)."""
    bits = min(8, rqt_max.bit_length() - 1)
    low = x & ((1 << bits) - 1)
    return (x >> bits << bits) | (int(format(low, f"0{bits}b")[::-1], 2) if bits else 0)


def rss_test(vf, g, comment, pkt, sel, symmetric=0, fn=2, extra_cite=""):
    b = raw(pkt)
    data, htype = rss_input(pkt, sel, symmetric)
    if fn == 2:
        h = toeplitz(MS_KEY, data)
        alt_h = compl_h = None
    else:  # D-RSS-5: XOR of the bytes, the order of its log2(rqt_max_size) LSBs reversed
        x = 0
        for c in data:
            x ^= c
        h = xor8_reversed(x, NRQ)
        compl_h = x ^ (NRQ - 1)  # the other reading of "inverted LSBs": complemented
        w = 0
        for i in range(0, len(data), 4):
            w ^= int.from_bytes(data[i:i + 4].ljust(4, b"\0"), "big")
        alt_h = w ^ (NRQ - 1)
    steps = [post(rq=i) for i in range(NRQ)] + [frame_step(b)]
    cite = C_RSS + extra_cite

    def cqe_for(hh, rq, typed=True):
        c = cqe_ok(b, rq=rq, rx_hash_type=htype)
        if typed:
            c["rx_hash_result"] = hh
        return c
    lsb, msb = h & (NRQ - 1), h >> 30
    if htype == 0:
        # D-RSS-3: nothing hashed: entry 0, rx_hash_type 0; other reading: not delivered
        # (T47 "Only packets which contain the enabled fields can be delivered").
        steps.append({"cqes": {"cq": "rx", "any_of": [
            {"reading": "D-RSS-3: hashed over nothing, RQT entry 0",
             "expect": [cqe_for(0, 0, typed=False)]},
            {"reading": "T47: not delivered to this TIR", "expect": []}]}})
        vf.test(g, comment + " (no selected field present)", cite, steps, "acceptable")
        return
    alts = [("D-RSS-1: the hash's LSBs select the RQT entry", cqe_for(h, lsb))]
    if msb != lsb:
        alts.append(("the hash's MSBs select the RQT entry", cqe_for(h, msb)))
    if fn == 1 and compl_h != h:
        alts.append(("T45 \"inverted LSBs\" as complemented LSBs",
                     cqe_for(compl_h, compl_h & (NRQ - 1))))
    if alt_h is not None and alt_h != h and alt_h != (compl_h if fn == 1 else None):
        alts.append(("XOR8 of 32-bit words", cqe_for(alt_h, alt_h & (NRQ - 1))))
    if len(alts) == 1:
        steps.append(cqes([alts[0][1]]))
        vf.test(g, comment, cite, steps)
    else:
        steps.append({"cqes": {"cq": "rx", "any_of": [{"reading": r, "expect": [c]}
                                                       for r, c in alts]}})
        vf.test(g, comment + " (the RQT entry: D-RSS-1)", cite, steps, "acceptable")


def gen_rss():
    vf = VFile("rss.json", "rx_rss", [
        "RSS through an Indirect TIR (PRM §3.3.3, T45-T47): the CQE's rx_hash_result and "
        "rx_hash_type (T68) and the RQ the RQT entry names, for every rx_hash_field_select "
        "combination of IPv4/IPv6 x TCP/UDP, symmetric hashing, Microsoft's published "
        "verification flows, and inverted XOR8; hashes from gen_rx.py's own Toeplitz."])
    src4, sp4, dst4, dp4 = MS_V4[0][:4]
    src6, sp6, dst6, dp6 = MS_V6[0][:4]
    for l3 in (0, 1):
        for l4 in (0, 1):
            proto = UDP if l4 else TCP
            pkt = (v6(proto, 24, src6, dst6, sp6, dp6) if l3 else
                   v4(proto, 24, src4, dst4, sp4, dp4))
            for fields in range(16):
                sel = l3 << 31 | l4 << 30 | fields
                g = vf.group(f"Toeplitz, selector {sel:#010x}", [BRING_UP, rss_setup(sel)])
                rss_test(vf, g, f"{'IPv6' if l3 else 'IPv4'}/{'UDP' if l4 else 'TCP'} frame, "
                         f"selected_fields {fields:#x}", pkt, sel)
    # symmetric (D-RSS-4): both directions of a flow hash alike
    for l3 in (0, 1):
        for l4 in (0, 1):
            proto = UDP if l4 else TCP
            sel = l3 << 31 | l4 << 30 | 0xF
            g = vf.group(f"Toeplitz, symmetric, selector {sel:#010x}",
                         [BRING_UP, rss_setup(sel, symmetric=1)])
            for rev in (0, 1):
                a, ap, b_, bp = (src6, sp6, dst6, dp6) if l3 else (src4, sp4, dst4, dp4)
                if rev:
                    a, ap, b_, bp = b_, bp, a, ap
                pkt = v6(proto, 24, a, b_, ap, bp) if l3 else v4(proto, 24, a, b_, ap, bp)
                rss_test(vf, g, f"symmetric, {'reverse' if rev else 'forward'} direction",
                         pkt, sel, symmetric=1, extra_cite=", T45 20h[31] symmetric")
    # Microsoft's published flows: the hash must be the published value
    for flows, l3 in ((MS_V4, 0), (MS_V6, 1)):
        for k, (src, sp, dst, dp, h_ip, h_tcp) in enumerate(flows):
            for sel, want in ((l3 << 31 | 0x3, h_ip), (l3 << 31 | 0xF, h_tcp)):
                pkt = v6(TCP, 24, src, dst, sp, dp) if l3 else v4(TCP, 24, src, dst, sp, dp)
                data, _ = rss_input(pkt, sel, 0)
                assert toeplitz(MS_KEY, data) == want
                g = vf.group(f"Microsoft verification flow {k} ({'IPv6' if l3 else 'IPv4'}), "
                             f"selector {sel:#010x}", [BRING_UP, rss_setup(sel)])
                rss_test(vf, g, f"published hash {want:#010x}", pkt, sel)
    # inverted XOR8 (T45 rx_hash_fn 1, D-RSS-5)
    for l3 in (0, 1):
        sel = l3 << 31 | 0xF
        pkt = v6(TCP, 24, src6, dst6, sp6, dp6) if l3 else v4(TCP, 24, src4, dst4, sp4, dp4)
        g = vf.group(f"inverted XOR8, selector {sel:#010x}", [BRING_UP, rss_setup(sel, fn=1)])
        rss_test(vf, g, "inverted XOR8 over the 4-tuple (D-RSS-5)", pkt, sel,
                 fn=1, extra_cite=", T45 rx_hash_fn 1")
    # Inverted XOR8 where its two readings differ: with 2 inverted LSBs (rqt_max_size 4) a
    # reversal and a complement agree on 01 and 10 and differ on 00 and 11. Source = destination
    # and sport = dport make the XOR of a pair 0, so the selectors give both cases.
    for proto, l4 in ((TCP, 0), (UDP, 1)):
        pkt = v4(proto, 24, "10.0.0.1", "10.0.0.1", 0x1234, 0x1234)
        for fields in range(1, 16):
            sel = l4 << 30 | fields
            g = vf.group(f"inverted XOR8, src = dst, sport = dport, selector {sel:#010x}",
                         [BRING_UP, rss_setup(sel, fn=1)])
            rss_test(vf, g, f"IPv4/{'UDP' if l4 else 'TCP'} 10.0.0.1 -> 10.0.0.1, ports 0x1234, "
                     f"selected_fields {fields:#x}: inverted XOR8 (D-RSS-5)", pkt, sel, fn=1,
                     extra_cite=", T45 rx_hash_fn 1")
    gen_rss_spi(vf)
    gen_rss_mismatch(vf)
    return vf


def toeplitz_wrap(key, data):
    """The other reading of D-RSS-9: the key wraps around past its last bit."""
    k = key * (1 + (len(data) * 8 + 32) // (len(key) * 8))
    return toeplitz(k, data)


def rss_alts(vf, g, comment, b, data, htypes, cite, not_delivered=None, wrap=False):
    """One frame through the TIR of rss_setup: every combination of the readings the decisions
    choose between (the rx_hash_type readings `htypes`, [(reading, value)], the first being the
    recorded decision; the RQT entry, D-RSS-1; the key past its end, D-RSS-9, when `wrap`) and,
    with `not_delivered`, T47's reading that the frame must not reach this TIR at all."""
    steps = [post(rq=i) for i in range(NRQ)] + [frame_step(b)]
    hashes = [("", toeplitz(MS_KEY, data))]
    if wrap and toeplitz_wrap(MS_KEY, data) != hashes[0][1]:
        hashes.append(("the key wraps around (not D-RSS-9); ", toeplitz_wrap(MS_KEY, data)))
    alts = []
    for hr, h in hashes:
        for tr, ht in htypes:
            for ir, idx in (("D-RSS-1 LSBs", h & (NRQ - 1)), ("MSBs", h >> 30)):
                if ir == "MSBs" and idx == h & (NRQ - 1):
                    continue
                r = f"{hr}{tr}; RQT entry by the hash's {ir}"
                alts.append((r[:80], cqe_ok(b, rq=idx, rx_hash_type=ht, rx_hash_result=h)))
    if not_delivered:
        alts.append((not_delivered, None))
    if len(alts) == 1:
        steps.append(cqes([alts[0][1]]))
        vf.test(g, comment, cite, steps)
        return
    steps.append({"cqes": {"cq": "rx", "any_of": [
        {"reading": r, "expect": [c] if c else []} for r, c in alts]}})
    vf.test(g, comment, cite, steps, "acceptable")


def spi_htype(ip_ver, ports=0):
    """rx_hash_type of a flow hashed on both IPs and the SPI: the IP slots name the version
    (T68 01 IPv4, 10 IPv6); the SPI (11, T68) goes in the L4 slots no port fills: D-RSS-7 (both
    slots), or only the source slot, or only the destination slot."""
    base = ip_ver | ip_ver << 2 | ports
    if ports:
        return [("D-RSS-7: the ports keep their slots", base)]
    return [("D-RSS-7: SPI (11) in both L4 slots", base | 0xF0),
            ("SPI in the L4 source slot only", base | 0x30),
            ("SPI in the L4 destination slot only", base | 0xC0)]


def gen_rss_spi(vf):
    """T47 bit 4 IPSEC_SPI (D-RSS-2 order: SRC_IP, DST_IP, L4_SPORT, L4_DPORT, SPI; D-PARSE-7:
    the SPI of ESP at its first word, RFC 4303 §2.1, of AH at byte 4, RFC 4302 §2)."""
    cite = C_RSS + ", T47 IPSEC_SPI (bit 4), D-RSS-7"
    src4, dst4 = MS_V4[1][0], MS_V4[1][2]
    src6, dst6 = MS_V6[1][0], MS_V6[1][2]
    spi = 0x11223344
    esp4 = raw(Ether(dst=OWN_MAC, src=PEER_MAC) / IP(src=src4, dst=dst4) /
               ESP(spi=spi, seq=1) / payload(32))
    ah4 = raw(Ether(dst=OWN_MAC, src=PEER_MAC) / IP(src=src4, dst=dst4) /
              AH(nh=17, payloadlen=4, spi=spi, seq=1, icv=bytes(12)) /
              UDP(sport=0x1234, dport=0x5678) / payload(16))
    ips4 = ip_bytes(src4) + ip_bytes(dst4)
    spib = struct.pack(">I", spi)
    sel = 0x13  # IPv4, SRC_IP | DST_IP | IPSEC_SPI
    g = vf.group(f"Toeplitz, selector {sel:#010x} (IPv4 addresses and the IPsec SPI)",
                 [BRING_UP, rss_setup(sel)])
    rss_alts(vf, g, "IPv4/ESP: the source and destination addresses and the ESP SPI are hashed",
             esp4, ips4 + spib, spi_htype(1), cite + ", RFC 4303 §2.1")
    rss_alts(vf, g, "IPv4/AH/UDP: the AH SPI (byte 4 of AH) is hashed with the addresses",
             ah4, ips4 + spib, spi_htype(1), cite + ", RFC 4302 §2")
    tcp4 = raw(v4(TCP, 24, src4, dst4, 0x1234, 0x5678))
    rss_alts(vf, g, "IPv4/TCP without IPsec: the SPI is absent, the addresses alone are hashed "
             "(D-RSS-3)", tcp4, ips4, [("D-RSS-3: IPs only, no SPI slot", 0x05)],
             cite + ", D-RSS-3", not_delivered="T47: not delivered to this TIR (no SPI)")
    g = vf.group("Toeplitz, selector 0x00000010 (the IPsec SPI alone)",
                 [BRING_UP, rss_setup(0x10)])
    rss_alts(vf, g, "IPv4/ESP, only IPSEC_SPI selected: the SPI alone is hashed, the IP slots "
             "say none", esp4, spib,
             [(r, h & 0xF0) for r, h in spi_htype(1)], cite)
    # IPv6 with AH before TCP: the 4-tuple and the SPI, 40 bytes of input (D-RSS-9)
    sel = 1 << 31 | 0x1F
    ah6 = raw(Ether(dst=OWN_MAC, src=PEER_MAC) / IPv6(src=src6, dst=dst6) /
              AH(nh=6, payloadlen=4, spi=spi, seq=1, icv=bytes(12)) /
              TCP(sport=MS_V6[1][1], dport=MS_V6[1][3]) / payload(16))
    data = (ip_bytes(src6) + ip_bytes(dst6) + struct.pack(">HH", MS_V6[1][1], MS_V6[1][3]) +
            spib)
    assert len(data) == 40
    g = vf.group(f"Toeplitz, selector {sel:#010x} (IPv6/TCP 4-tuple and the IPsec SPI)",
                 [BRING_UP, rss_setup(sel)])
    rss_alts(vf, g, "IPv6/AH/TCP: addresses, ports and SPI, 40 bytes of input: key bits past "
             "bit 319 read 0 (D-RSS-9)", ah6, data, spi_htype(2, 0x50), cite + ", D-RSS-9",
             wrap=True)


def gen_rss_mismatch(vf):
    """Selectors whose l3_prot_type / l4_prot_type differ from the frame's protocols. T47: a
    field's protocol type is ignored when none of its fields is selected (D-RSS-8: pinned); a
    selected field the frame lacks is left out (D-RSS-3), or, T47's other reading, the frame
    must not reach the TIR at all."""
    src4, sp4, dst4, dp4 = MS_V4[2][:4]
    tcp4 = v4(TCP, 24, src4, dst4, sp4, dp4)
    udp4 = v4(UDP, 24, src4, dst4, sp4, dp4)
    nd = "T47: not delivered to this TIR (a selected field is missing)"
    cases = [
        ("IPv4/TCP frame, selector IPv6 + TCP, all four fields: the IPs are not IPv6 and are "
         "left out; the ports are hashed (D-RSS-3)", tcp4, 1 << 31 | 0xF, nd, ", D-RSS-3"),
        ("IPv4/UDP frame, selector IPv4 + TCP, all four fields: the ports are not TCP and are "
         "left out; the IPs are hashed (D-RSS-3)", udp4, 0xF, nd, ", D-RSS-3"),
        ("IPv4/TCP frame, selector l3_prot_type IPv6 with only the ports selected: l3_prot_type "
         "is ignored (T47, D-RSS-8)", tcp4, 1 << 31 | 0xC, None, ", D-RSS-8"),
        ("IPv4/TCP frame, selector l4_prot_type UDP with only the IPs selected: l4_prot_type is "
         "ignored (T47, D-RSS-8)", tcp4, 1 << 30 | 0x3, None, ", D-RSS-8"),
    ]
    for comment, pkt, sel, alt, extra in cases:
        data, htype = rss_input(pkt, sel, 0)
        g = vf.group(f"Toeplitz, selector {sel:#010x} (protocol types against the frame's)",
                     [BRING_UP, rss_setup(sel)])
        rss_alts(vf, g, comment, raw(pkt), data, [("as selected", htype)],
                 C_RSS + ", T47 l3_prot_type/l4_prot_type" + extra, not_delivered=alt)
    # neither field family matches: nothing hashed (rss_test's D-RSS-3 case)
    v6udp = v6(UDP, 24, MS_V6[2][0], MS_V6[2][2], MS_V6[2][1], MS_V6[2][3])
    g = vf.group("Toeplitz, selector 0x0000000f (IPv4 + TCP) for an IPv6/UDP frame",
                 [BRING_UP, rss_setup(0xF)])
    rss_test(vf, g, "IPv6/UDP frame, selector IPv4 + TCP", v6udp, 0xF,
             extra_cite=", T47, D-RSS-3")



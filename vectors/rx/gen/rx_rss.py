"""RSS vectors: the hash type, the Toeplitz over the selected fields, the indirection (PRM §3.3.3, T45-T47).
Part of gen_rx.py (its docstring says how the expectations are derived)."""
from rx_common import *  # noqa: F401,F403

# ---------------------------------------------------------------------------------------------
# rss.json: every rx_hash_field_select combination of IPv4/IPv6 x TCP/UDP, symmetric, the
# published values, inverted XOR8, the SPI, IPv4 AH, fragments, a tag, IPv6 extension headers.

NRQ = 4


def rss_setup(sel, fn=2, symmetric=0, key=MS_KEY):
    return rx_setup(rqs=[{} for _ in range(NRQ)], rqt={"max_size": NRQ, "rqs": list(range(NRQ))},
                    tirs=[{"indirect": True, "hash_fn": fn, "symmetric": symmetric,
                           "key": key.hex(), "sel": hex(sel)}], steer_all=[0])


def rss_input(pkt, sel, symmetric, endpoints=False):
    """D-RSS-2: SRC_IP, DST_IP, L4_SPORT, L4_DPORT, big-endian as on the wire; D-RSS-4 sorts each
    complete pair. `endpoints`: D-RSS-4's other reading, the (IP, port) endpoints sorted as
    wholes (with both IPs and both ports taken), each pair sorted alone otherwise. Returns
    (input bytes, rx_hash_type)."""
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
    if symmetric and endpoints and len(got_ip) == 2 and len(got_pt) == 2:
        if (got_ip[0], got_pt[0]) > (got_ip[1], got_pt[1]):
            got_ip.reverse()
            got_pt.reverse()
    else:
        if symmetric and len(got_ip) == 2:
            got_ip.sort()
        if symmetric and len(got_pt) == 2:
            got_pt.sort()
    fields = got_ip + got_pt
    return b"".join(fields), htype


READING_MAX = 80  # docs/vectors.md "any_of": a reading is at most 80 characters


def any_of_cqes(alts):
    """The cqes step of `alts` = [(reading, cqe or None for "no CQE")]: an alternative whose
    expectation an earlier one already gives is left out (the earlier reading names both). A
    reading longer than READING_MAX, or one text for two different expectations, is this
    generator's error: the runner cannot tell which reading held (rss.json tcId 125 once had
    two readings cut to one text at 80 characters)."""
    out = []
    for r, c in alts:
        assert len(r) <= READING_MAX, f"reading over {READING_MAX} characters: {r!r}"
        e = [c] if c else []
        if any(e == o["expect"] for o in out):
            continue
        assert all(r != o["reading"] for o in out), f"one reading, two expectations: {r!r}"
        out.append({"reading": r, "expect": e})
    return out


def xor8_reversed(x, rqt_max):
    """D-RSS-5: T45 "XOR8 results but with inverted LSBs", log2(rqt_max_size) of them (at most
    8): their order reversed (the reading Linux mlx5e's RQT fill, mlx5e_bits_invert, supports)."""
    bits = min(8, rqt_max.bit_length() - 1)
    low = x & ((1 << bits) - 1)
    return (x >> bits << bits) | (int(format(low, f"0{bits}b")[::-1], 2) if bits else 0)


def xor_words(data):
    """The XOR of the input's 32-bit words (the last zero-padded): D-RSS-5's other width."""
    w = 0
    for i in range(0, len(data), 4):
        w ^= int.from_bytes(data[i:i + 4].ljust(4, b"\0"), "big")
    return w


def xor8_hashes(data):
    """D-RSS-5's readings of inverted XOR8, the recorded one first: [(reading, hash)]. The XOR
    of the bytes or of the 32-bit words; its log2(rqt_max_size) LSBs reversed or complemented."""
    x = 0
    for c in data:
        x ^= c
    w = xor_words(data)
    return [("D-RSS-5: bytes, LSBs reversed", xor8_reversed(x, NRQ)),
            ("T45 \"inverted LSBs\": bytes, LSBs complemented", x ^ (NRQ - 1)),
            ("XOR of 32-bit words, LSBs complemented", w ^ (NRQ - 1)),
            ("XOR of 32-bit words, LSBs reversed", xor8_reversed(w, NRQ))]


def rss_test(vf, g, comment, pkt, sel, symmetric=0, fn=2, extra_cite=""):
    b = raw(pkt)
    data, htype = rss_input(pkt, sel, symmetric)
    if fn == 2:
        hashes = [("", toeplitz(MS_KEY, data))]
        if symmetric:
            # D-RSS-4's other reading: the (IP, port) endpoints sorted as wholes
            ep, _ = rss_input(pkt, sel, symmetric, endpoints=True)
            hashes.append(("endpoints sorted (not D-RSS-4)", toeplitz(MS_KEY, ep)))
    else:  # D-RSS-5: XOR of the bytes, the order of its log2(rqt_max_size) LSBs reversed
        hashes = xor8_hashes(data)
    h = hashes[0][1]
    steps = [post(rq=i) for i in range(NRQ)] + [frame_step(b)]
    cite = C_RSS + extra_cite

    def cqe_for(hh, rq, typed=True):
        c = cqe_ok(b, rq=rq, rx_hash_type=htype)
        if typed:
            c["rx_hash_result"] = hh
        return c
    if htype == 0:
        # D-RSS-3: nothing hashed: entry 0, rx_hash_type 0; other reading: not delivered
        # (T47 "Only packets which contain the enabled fields can be delivered").
        steps.append({"cqes": {"cq": "rx", "any_of": any_of_cqes([
            ("D-RSS-3: hashed over nothing, RQT entry 0", cqe_for(0, 0, typed=False)),
            ("T47: not delivered to this TIR", None)])}})
        vf.test(g, comment + " (no selected field present)", cite, steps, "acceptable")
        return
    # every hash reading with the LSBs (D-RSS-1) and, where they differ, the MSBs as the entry
    alts = []
    for hr, hh in hashes:
        lsb = "D-RSS-1: the hash's LSBs select the RQT entry"
        if hr:
            lsb = hr + "; LSBs pick the entry"
        alts.append((lsb, cqe_for(hh, hh & (NRQ - 1))))
        if hh >> 30 != hh & (NRQ - 1):
            alts.append((hr + "; MSBs pick the entry" if hr else
                         "the hash's MSBs select the RQT entry",
                         cqe_for(hh, hh >> 30)))
    alts = any_of_cqes(alts)
    if len(alts) == 1:
        steps.append(cqes(alts[0]["expect"]))
        vf.test(g, comment, cite, steps)
    else:
        steps.append({"cqes": {"cq": "rx", "any_of": alts}})
        vf.test(g, comment + " (the RQT entry: D-RSS-1)", cite, steps, "acceptable")


def gen_rss():
    vf = VFile("rss.json", "rx_rss", [
        "RSS through an Indirect TIR (PRM §3.3.3, T45-T47): the CQE's rx_hash_result and "
        "rx_hash_type (T68) and the RQ the RQT entry names, for every rx_hash_field_select "
        "combination of IPv4/IPv6 x TCP/UDP, symmetric hashing, Microsoft's published "
        "verification flows, inverted XOR8, the IPsec SPI, IPv4 AH (D-PARSE-10), fragments "
        "(D-RSS-6), a VLAN tag and IPv6 extension headers; hashes from gen_rx.py's own "
        "Toeplitz."])
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
    gen_rss_ipv4_ah(vf)
    gen_rss_frag(vf)
    gen_rss_l2_ext(vf)
    return vf


def toeplitz_wrap(key, data):
    """The other reading of D-RSS-9: the key wraps around past its last bit."""
    k = key * (1 + (len(data) * 8 + 32) // (len(key) * 8))
    return toeplitz(k, data)


def rss_alts(vf, g, comment, b, data, htypes, cite, not_delivered=None, wrap=False, more=None):
    """One frame through the TIR of rss_setup: every combination of the readings the decisions
    choose between (the input readings `htypes`, [(reading, rx_hash_type)] or [(reading,
    rx_hash_type, input)] where a reading changes the input too, the first being the recorded
    decision; the RQT entry, D-RSS-1; the key past its end, D-RSS-9, when `wrap`) and, with
    `not_delivered`, T47's reading that the frame must not reach this TIR at all. `more`: other
    CQE fields (a stripped tag)."""
    steps = [post(rq=i) for i in range(NRQ)] + [frame_step(b)]
    alts = []
    for tr, ht, *own in htypes:
        d = own[0] if own else data
        hashes = [("", toeplitz(MS_KEY, d))]
        if wrap and toeplitz_wrap(MS_KEY, d) != hashes[0][1]:
            hashes.append(("key wraps (not D-RSS-9)", toeplitz_wrap(MS_KEY, d)))
        for hr, h in hashes:
            for ir, idx in (("entry: LSBs (D-RSS-1)", h & (NRQ - 1)), ("entry: MSBs", h >> 30)):
                r = "; ".join(x for x in (hr, tr, ir) if x)
                alts.append((r, cqe_ok(b, rq=idx, rx_hash_type=ht, rx_hash_result=h,
                                       **(more or {}))))
    if not_delivered:
        alts.append((not_delivered, None))
    alts = any_of_cqes(alts)
    if len(alts) == 1:
        steps.append(cqes(alts[0]["expect"]))
        vf.test(g, comment, cite, steps)
        return
    steps.append({"cqes": {"cq": "rx", "any_of": alts}})
    vf.test(g, comment, cite, steps, "acceptable")


def spi_htype(ip_ver, ports=0):
    """rx_hash_type of a flow hashed on both IPs and the SPI: the IP slots name the version
    (T68 01 IPv4, 10 IPv6); the SPI (11, T68) goes in the L4 slots no port fills: D-RSS-7 (both
    slots), or only the source slot, or only the destination slot."""
    base = ip_ver | ip_ver << 2 | ports
    if ports:
        return [("D-RSS-7: ports keep their slots", base)]
    return [("D-RSS-7: SPI in both L4 slots", base | 0xF0),
            ("SPI in the L4 src slot only", base | 0x30),
            ("SPI in the L4 dst slot only", base | 0xC0)]


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




def gen_rss_ipv4_ah(vf):
    """IPv4 with AH before TCP/UDP (D-PARSE-10): the PRM names AH only among the IPv6 extension
    headers (T68 ip_ext_opts); for IPv4 it is silent. Recorded reading: AH is IPv4's upper layer,
    the parse ends there (its SPI is read, D-PARSE-7; no ports). Other reading: AH is walked as
    in IPv6 (RFC 4302 §2: one header format for both, Next Header and Payload Len in 4-byte
    units minus 2) and the ports behind it are hashed. Each test lists both (with D-RSS-7's SPI
    slots, D-RSS-1's entry and, for a selected field the first reading leaves missing, T47's
    "not delivered")."""
    src, sp, dst, dp = MS_V4[3][:4]
    spi = 0x55667788
    ips = ip_bytes(src) + ip_bytes(dst)
    spib = struct.pack(">I", spi)
    nd = "T47: not delivered (D-PARSE-10: no ports)"
    for proto, nh, code in ((TCP, 6, 1), (UDP, 17, 2)):
        name = "TCP" if nh == 6 else "UDP"
        fr = raw(Ether(dst=OWN_MAC, src=PEER_MAC) / IP(src=src, dst=dst) /
                 AH(nh=nh, payloadlen=4, spi=spi, seq=1, icv=bytes(12)) /
                 proto(sport=sp, dport=dp) / payload(16))
        assert fr[14 + 9] == 51
        ports = struct.pack(">HH", sp, dp)
        l4sel = (code - 1) << 30
        cite = C_RSS + ", T47, D-PARSE-10, RFC 4302 §2"
        for fields in (0xF, 0x1F):
            sel = l4sel | fields
            g = vf.group(f"Toeplitz, selector {sel:#010x} (IPv4/AH/{name}: D-PARSE-10)",
                         [BRING_UP, rss_setup(sel)])
            both = 0x05 | code << 4 | code << 6
            if fields == 0xF:
                readings = [("D-PARSE-10: AH ends IPv4 (D-RSS-3)", 0x05, ips),
                            ("ports past IPv4 AH", both, ips + ports)]
                what = "the 4-tuple selected"
            else:
                readings = ([("D-PARSE-10: AH ends IPv4; " + r, ht, ips + spib)
                             for r, ht in spi_htype(1)] +
                            [("ports past IPv4 AH; " + r, ht, ips + ports + spib)
                             for r, ht in spi_htype(1, code << 4 | code << 6)])
                what = "the 4-tuple and the SPI selected"
            rss_alts(vf, g, f"IPv4/AH/{name}, {what}: the parse ends at AH (D-PARSE-10: the "
                     f"IPs{' and the SPI' if fields & 0x10 else ''} are hashed, "
                     f"rx_hash_type {readings[0][1]:#04x}), or AH is walked as in IPv6 and "
                     f"the ports are hashed too (rx_hash_type {readings[-1][1]:#04x})",
                     fr, None, readings, cite, not_delivered=nd)


def gen_rss_frag(vf):
    """Fragments through an Indirect TIR (D-RSS-6): no fragment, the first included, gives
    ports, so all fragments of a datagram hash alike (IPs only, rx_hash_type IPs' slots). The
    other reading of a first fragment hashes the ports its L4 header carries; a later
    fragment's bytes after the IP headers are fragment data (D-PARSE-5), never ports. With
    the ports selected and left out, T47's "not delivered" is listed too."""
    cite = C_RSS + ", T47, D-RSS-6, D-PARSE-5"
    src4, sp4, dst4, dp4 = MS_V4[4][:4]
    src6, sp6, dst6, dp6 = MS_V6[2][:4]
    tcp_like = struct.pack(">HH", sp4, dp4) + bytes(16) + payload(24).load
    cases = [
        (0, "IPv4/TCP first fragment (MF, offset 0)", True,
         Ether(dst=OWN_MAC, src=PEER_MAC) / IP(src=src4, dst=dst4, flags="MF", frag=0) /
         TCP(sport=sp4, dport=dp4) / payload(24), ip_bytes(src4) + ip_bytes(dst4),
         struct.pack(">HH", sp4, dp4)),
        (0, "IPv4 later fragment (offset 3) whose data looks like the same TCP ports", False,
         Ether(dst=OWN_MAC, src=PEER_MAC) / IP(src=src4, dst=dst4, frag=3, proto=6) /
         Raw(tcp_like), ip_bytes(src4) + ip_bytes(dst4), None),
        (1, "IPv6/TCP first fragment (Fragment header, offset 0, M 1)", True,
         Ether(dst=OWN_MAC, src=PEER_MAC) / IPv6(src=src6, dst=dst6) /
         IPv6ExtHdrFragment(nh=6, offset=0, m=1, id=7) / TCP(sport=sp6, dport=dp6) /
         payload(24), ip_bytes(src6) + ip_bytes(dst6), struct.pack(">HH", sp6, dp6)),
        (1, "IPv6 later fragment (offset 10) whose data looks like TCP ports", False,
         Ether(dst=OWN_MAC, src=PEER_MAC) / IPv6(src=src6, dst=dst6) /
         IPv6ExtHdrFragment(nh=6, offset=10, m=0, id=7) / Raw(tcp_like),
         ip_bytes(src6) + ip_bytes(dst6), None),
    ]
    for l3, comment, first, pkt, ips, ports in cases:
        sel = l3 << 31 | 0xF
        v = 2 if l3 else 1
        g = vf.group(f"Toeplitz, selector {sel:#010x}, fragments (D-RSS-6)",
                     [BRING_UP, rss_setup(sel)])
        readings = [("D-RSS-6: a fragment gives no ports", v | v << 2, ips)]
        if first:
            readings.append(("the first fragment's ports hashed", v | v << 2 | 0x50, ips + ports))
        rss_alts(vf, g, f"{comment}, the 4-tuple selected: the addresses alone are hashed "
                 f"(D-RSS-6){'; or the ports of its TCP header too' if first else ''}",
                 raw(pkt), None, readings, cite,
                 not_delivered="T47: not delivered (no ports in a fragment)")


def gen_rss_l2_ext(vf):
    """What the hash skips to reach its fields: an 802.1Q tag (D-PARSE-1; stripped by the RQ,
    vlan_strip_disable 0, and reported in cv/up/vid, §3.3.7) and IPv6 extension headers other
    than AH (hop-by-hop, routing with no segment left, destination options: T68 ip_ext_opts
    lists them as supported; D-PARSE-4). The input is the 4-tuple of the untagged frame or of
    the fixed IPv6 header and the TCP/UDP header behind the chain (D-RSS-2)."""
    src4, sp4, dst4, dp4 = MS_V4[1][:4]
    src6, sp6, dst6, dp6 = MS_V6[1][:4]
    cases = [
        ("IPv4/TCP behind an 802.1Q tag (prio 2, vid 0x55)", 0,
         Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(prio=2, vlan=0x55) /
         IP(src=src4, dst=dst4) / TCP(sport=sp4, dport=dp4) / payload(24),
         ip_bytes(src4) + ip_bytes(dst4) + struct.pack(">HH", sp4, dp4), 0x55,
         {"strip": True, "cv": 1, "up": 2, "vid": 0x55}, C_VLAN + ", D-PARSE-1"),
        ("IPv6/UDP behind an 802.1Q tag (prio 6, vid 0x123)", 1 << 31 | 1 << 30,
         Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(prio=6, vlan=0x123) /
         IPv6(src=src6, dst=dst6) / UDP(sport=sp6, dport=dp6) / payload(24),
         ip_bytes(src6) + ip_bytes(dst6) + struct.pack(">HH", sp6, dp6), 0xAA,
         {"strip": True, "cv": 1, "up": 6, "vid": 0x123}, C_VLAN + ", D-PARSE-1"),
        ("IPv6/TCP behind hop-by-hop, routing (segments left 0) and destination options "
         "headers", 1 << 31,
         Ether(dst=OWN_MAC, src=PEER_MAC) / IPv6(src=src6, dst=dst6) / IPv6ExtHdrHopByHop() /
         IPv6ExtHdrRouting(segleft=0) / IPv6ExtHdrDestOpt() / TCP(sport=sp6, dport=dp6) /
         payload(24),
         ip_bytes(src6) + ip_bytes(dst6) + struct.pack(">HH", sp6, dp6), 0x5A, None,
         "T68 ip_ext_opts, D-PARSE-4, RFC 8200 §4"),
    ]
    for comment, l34, pkt, data, ht, more, extra in cases:
        sel = l34 | 0xF
        b = raw(pkt)
        g = vf.group(f"Toeplitz, selector {sel:#010x}, {comment.split(' behind ')[1]}",
                     [BRING_UP, rss_setup(sel)])
        rss_alts(vf, g, f"{comment}, the 4-tuple selected: hashed as without them "
                 f"(rx_hash_type {ht:#04x})", b, data, [("D-RSS-2: the 4-tuple", ht)],
                 C_RSS + ", " + extra, more=more)

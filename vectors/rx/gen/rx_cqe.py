"""CQE field and scatter vectors (PRM §7.12.1.1 T67/T68, §7.4.1.2, §7.4.4.1.5 T40, §7.10).
Part of gen_rx.py (its docstring says how the expectations are derived)."""
from rx_common import *  # noqa: F401,F403
from rx_rss import *  # noqa: F401,F403,E402

# ---------------------------------------------------------------------------------------------
# cqe.json: the header fields of T68 and the checksum of T4 for frames built with Scapy

def gen_cqe():
    vf = VFile("cqe.json", "rx_cqe", [
        "Responder CQEs (PRM §7.12.1.1 T67/T68): byte_cnt, l2/l3/l4_ok, l3/l4_hdr_type, "
        "ip_frag, ip_ext_opts, cv/up/cfi/vid, flow_tag, srqn_user_index, wqe_counter, opcode, "
        "owner, 64 and 128-byte CQEs; the checksum (T4, §3.3.1) under D-RX-10 and its other "
        "reading."])
    frames = [
        ("IPv4/UDP", v4(UDP)),
        ("IPv4/TCP SYN (no ACK)", v4(TCP, flags="S")),
        ("IPv4/TCP ACK without payload", v4(TCP, 0, flags="A")),
        ("IPv4/TCP ACK with payload", v4(TCP, 32, flags="PA")),
        ("IPv6/UDP", v6(UDP)),
        ("IPv6/TCP", v6(TCP)),
        ("IPv4 with options", Ether(dst=OWN_MAC, src=PEER_MAC) /
         IP(src="10.0.0.1", dst="10.0.0.2", options=[IPOption_NOP()] * 4) / UDP() / payload(20)),
        ("IPv6 with a hop-by-hop header", Ether(dst=OWN_MAC, src=PEER_MAC) /
         IPv6(src="2001:db8::1", dst="2001:db8::2") / IPv6ExtHdrHopByHop() / UDP() / payload(20)),
        ("IPv4 first fragment (MF)", Ether(dst=OWN_MAC, src=PEER_MAC) /
         IP(src="10.0.0.1", dst="10.0.0.2", flags="MF") / UDP(len=200) / payload(40)),
        ("IPv4 later fragment", Ether(dst=OWN_MAC, src=PEER_MAC) /
         IP(src="10.0.0.1", dst="10.0.0.2", frag=10, proto=17) / payload(40)),
        ("IPv4/UDP with checksum 0 (RFC 768: none)", v4(UDP, chksum=0)),
        ("ARP (not IP)", Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) / ARP()),
    ]
    bad_ip = Ether(raw(v4(UDP)))
    bad_ip[IP].chksum ^= 0x0100
    bad_l4 = Ether(raw(v4(TCP)))
    bad_l4[TCP].chksum ^= 0x0001
    frames += [("IPv4 with a wrong header checksum", bad_ip),
               ("IPv4/TCP with a wrong checksum", bad_l4),
               ("802.1Q tag prio 5 cfi 1 vid 0x123 (stripped)",
                Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(prio=5, id=1, vlan=0x123) /
                IP(src="10.0.0.1", dst="10.0.0.2") / UDP() / payload(30))]
    for cqe_sz in (0, 1):
        g = vf.group(f"one RQ, a Direct TIR, every frame to it with flow tag 0x42, "
                     f"{64 << cqe_sz}-byte CQEs", [BRING_UP, rx_setup(cqe_sz=cqe_sz,
                                                                     steer_all=[0],
                                                                     flow_tag=0x42)])
        frame_tests(vf, g, frames, cqe_sz)
    # the same frame three times: wqe_counter counts, owner stays 0 in the first pass
    g = vf.group("wqe_counter and owner", [BRING_UP, rx_setup(steer_all=[0])])
    b = raw(v4(UDP))
    vf.test(g, "three frames, three WQEs: wqe_counter 0, 1, 2", C_CQE + ", T68 wqe_counter",
            [post(count=3), frame_step(b), frame_step(b), frame_step(b),
             cqes([cqe_ok(b, wqe_counter=i) for i in range(3)])])
    g = vf.group("a CQ of 2 entries: the owner bit of the second pass",
                 [BRING_UP, rx_setup(log_cq_size=1, steer_all=[0])])
    steps = [post(count=3)]
    for i in range(3):
        steps += [frame_step(b), cqes([cqe_ok(b, wqe_counter=i, owner=i >> 1)])]
    vf.test(g, "the third CQE, in the second pass, has owner 1", "PRM §7.12.3.1, T68 owner",
            steps)
    gen_cqe_no_csum_cap(vf)  # D-RX-17: tcIds 48-52
    # IPv6 fragments (RFC 8200 §4.5): a first fragment (offset 0, M 1) carries the headers
    # behind its Fragment header, the upper layer's included, so its TCP/UDP header is present
    # (T68 l4_hdr_type) even with another extension header between; a later fragment's bytes
    # are fragment data. ip_frag (T68 "the packet is fragmented") is set in both; no fragment's
    # L4 checksum can be validated (l4_ok 0, D-PARSE-8). A group of its own, after csum_cap 0.
    def v6frag(offset, m, *rest, nh=None):
        fh = IPv6ExtHdrFragment(offset=offset, m=m, id=0x77) if nh is None else \
            IPv6ExtHdrFragment(offset=offset, m=m, id=0x77, nh=nh)
        p = Ether(dst=OWN_MAC, src=PEER_MAC) / IPv6(src="2001:db8::1", dst="2001:db8::2") / fh
        for layer in rest:
            p = p / layer
        return p
    frag_frames = [
        ("IPv6 first fragment, a Destination Options header, then TCP ACK with data",
         v6frag(0, 1, IPv6ExtHdrDestOpt(), TCP(sport=0x1234, dport=80, flags="PA"), payload(32))),
        ("IPv6 first fragment, then TCP ACK with data",
         v6frag(0, 1, TCP(sport=0x1234, dport=80, flags="PA"), payload(32))),
        ("IPv6 first fragment, a Destination Options header, then UDP",
         v6frag(0, 1, IPv6ExtHdrDestOpt(), UDP(sport=0x1234, dport=4789, len=200), payload(32))),
        ("IPv6 later fragment (offset 10) whose data looks like a TCP header",
         v6frag(10, 0, Raw(bytes(TCP(sport=0x1234, dport=80, flags="PA")) + bytes(payload(32))),
                nh=6)),
    ]
    g = vf.group("IPv6 fragments (RFC 8200 §4.5): one RQ, a Direct TIR, every frame to it with "
                 "flow tag 0x42, 64-byte CQEs", [BRING_UP, rx_setup(steer_all=[0], flow_tag=0x42)])
    frame_tests(vf, g, frag_frames, 0)
    return vf


def frame_tests(vf, g, frames, cqe_sz):
    """The T68 header-field test of each frame, and (64-byte CQEs) its T4 checksum test."""
    for name, p in frames:
        b = raw(p)
        f = hdr_fields(b)
        strip = f["cv"] == 1
        if f["l3_hdr_type"] == 0:
            f.pop("ip_ext_opts", None)  # T68: undefined for a non-IP packet
        c = cqe_ok(b, flow_tag=0x42, strip=strip, **f)
        if IP in p and UDP in p and p[UDP].chksum == 0:
            # D-RX-9: RFC 768's "no checksum" passes; T68 l4_ok "checksum was successfully
            # validated" also reads as 0 when there was nothing to validate
            steps = [post(), frame_step(b), {"cqes": {"cq": "rx", "any_of": [
                {"reading": "D-RX-9: UDP checksum 0 over IPv4 (RFC 768 'no checksum') is "
                            "ok: l4_ok 1", "expect": [dict(c, l4_ok=1)]},
                {"reading": "T68 'checksum was successfully validated': nothing was, "
                            "l4_ok 0", "expect": [dict(c, l4_ok=0)]}]}}]
            vf.test(g, f"{name}: T68 header fields (l4_ok: D-RX-9)", C_CQE, steps,
                    "acceptable")
        else:
            steps = [post(), frame_step(b), cqes([c])]
            vf.test(g, f"{name}: T68 header fields",
                    C_CQE + (", " + C_VLAN if strip else ""), steps)
        if cqe_sz:
            continue
        ours, other = ip_csum(b)
        steps = [post(), frame_step(b)]
        if ours == other:
            steps.append(cqes([cqe_ok(b, flow_tag=0x42, strip=strip, checksum=ours)]))
            vf.test(g, f"{name}: checksum", C_CSUM, steps)
        else:
            steps.append({"cqes": {"cq": "rx", "any_of": [
                {"reading": "D-RX-10: sum of the IP header and payload",
                 "expect": [cqe_ok(b, flow_tag=0x42, strip=strip, checksum=ours)]},
                {"reading": "sum of the bytes after the IP header",
                 "expect": [cqe_ok(b, flow_tag=0x42, strip=strip, checksum=other)]}]}})
            vf.test(g, f"{name}: checksum (D-RX-10)", C_CSUM, steps, "acceptable")


def gen_cqe_no_csum_cap(vf):
    """§3.3.1: checksum offload support 'is reported through the csum_cap bit' (T147 00h[31]);
    receive checksum offload 'is reported through CQE checksum bits' (l3_ok, l4_ok, T4's
    checksum). With csum_cap 0 the PRM does not say what the CQE carries: D-RX-17 (docs/rx.md)
    takes nothing validated (T68 l3_ok/l4_ok 'otherwise this bit is disabled') and the checksum
    T4's 'invalid' 0; the vectors list that first, then 'validated and summed anyway' (each T4
    sum reading of D-RX-10) and 'not validated, the sum still given'. Every other field is the
    frame's, as with csum_cap 1."""
    bad_ip = Ether(raw(v4(UDP)))
    bad_ip[IP].chksum ^= 0x0100
    bad_l4 = Ether(raw(v4(TCP)))
    bad_l4[TCP].chksum ^= 0x0001
    frames = [("IPv4/UDP", v4(UDP)),
              ("IPv4/TCP ACK with payload", v4(TCP, 32, flags="PA")),
              ("IPv6/TCP", v6(TCP)),
              ("IPv4 with a wrong header checksum", bad_ip),
              ("IPv4/TCP with a wrong checksum", bad_l4)]
    g = vf.group("one RQ, a Direct TIR, every frame to it with flow tag 0x42, on a device whose "
                 "csum_cap is 0", [BRING_UP, rx_setup(steer_all=[0], flow_tag=0x42)],
                 caps={"per_protocol_networking_offload_caps.csum_cap": 0})
    for name, p in frames:
        b = raw(p)
        f = hdr_fields(b)
        ours, other = ip_csum(b)
        none = dict(f, l3_ok=0, l4_ok=0)
        readings = [("D-RX-17: nothing validated (l3_ok, l4_ok 0), checksum 0 (T4 'invalid')",
                     none, 0),
                    ("validated anyway, the D-RX-10 sum", f, ours)]
        if other != ours:
            readings.append(("validated anyway, the sum of the bytes after the IP header", f,
                             other))
        readings.append(("not validated, the D-RX-10 sum still given", none, ours))
        steps = [post(), frame_step(b), {"cqes": {"cq": "rx", "any_of": [
            {"reading": r, "expect": [cqe_ok(b, flow_tag=0x42, checksum=c, **fields)]}
            for r, fields, c in readings]}}]
        vf.test(g, f"{name}, csum_cap 0: l3_ok, l4_ok and the checksum (D-RX-17)",
                "PRM §3.3.1, T147 csum_cap, T68 checksum/l3_ok/l4_ok, T4; decision D-RX-17",
                steps, "acceptable", flags=["CsumCap"])


# ---------------------------------------------------------------------------------------------
# scatter.json: RQ and RMP scatter, Null entry, signature, padding, VLAN strip and vsd, no WQE,
# too short, lkey, flush

def gen_scatter():
    vf = VFile("scatter.json", "rx_scatter", [
        "Receive WQEs (PRM §7.4.1.2, §7.4.4.1.5 T40, §7.10, T42): scatter over entries, the "
        "Null entry, signatures (§9.2.3), start and end padding (§3.3.9-§3.3.10), VLAN "
        "stripping and vsd (§3.3.7), no WQE, a frame larger than the WQE, an L_Key that does "
        "not translate, RQ ERR and flush (§7.12.7 T74)."])
    b = raw(v4(UDP, 100))
    n = len(b)
    g = vf.group("one RQ with 128-byte strides", [BRING_UP, rx_setup(
        rqs=[{"log_wq_stride": 7}], steer_all=[0])])
    vf.test(g, "a frame split over three entries", C_RQ, [
        post(entries=[{"offset": "0x1000", "byte_count": 40}, {"offset": "0x2000", "byte_count": 40},
                      {"offset": "0x3000", "byte_count": 400}]),
        frame_step(b), cqes([cqe_ok(b)]), mem(DATA + 0x1000, b[:40]), mem(DATA + 0x2000, b[40:80]),
        mem(DATA + 0x3000, b[80:])])
    vf.test(g, "a Null entry ends the list: the frame does not fit what is before it",
            C_RQ + ", " + C_ERR, [
                post(entries=[{"offset": "0x1000", "byte_count": 64}, {"null": True},
                              {"offset": "0x3000", "byte_count": 400}]),
                frame_step(b), events([{"event": "violation", "rule": "RX_WQE_TOO_SHORT",
                                        "clause": "PRM §7.4.1.2"}]),
                cqes([{"layout": "err_cqe", "opcode": 14, "syndrome": 1,
                       "srqn_user_index": UI, "wqe_counter": 0}])])
    vf.test(g, "no WQE posted: dropped (reason 9), then the next CQE's rx_drop_counter "
            "(38h[31:24], D-RX-4) counts it", C_RQ + ", T68", [
                frame_step(b), events([drop(9)]), post(), frame_step(b),
                cqes([dict(cqe_ok(b), s_wqe_opcode=1)])])
    vf.test(g, "a scatter entry whose L_Key is no MKey: Local_Protection_Error, and the WQE "
            "posted after it is flushed", C_ERR + ", §7.4.4.1.5 T40, §6.1", [
                post(entries=[{"offset": "0x1000", "byte_count": 400, "lkey": "0x7700"}]),
                post(), frame_step(b),
                events([{"event": "violation", "rule": "RX_WQE_LKEY"},
                        {"event": "wq_state", "to": 3}]),
                cqes([{"layout": "err_cqe", "opcode": 14, "syndrome": 4, "wqe_counter": 0},
                      {"layout": "err_cqe", "opcode": 14, "syndrome": 5, "wqe_counter": 1}]),
                frame_step(b), events([drop(8)])])
    vf.test(g, "a frame longer than the WQE's entries: Local_Length_Error (D-RX-2)",
            C_ERR + ", " + C_RQ, [
                post(entries=[{"offset": "0x1000", "byte_count": 64}]), frame_step(b),
                {"events": {"any_of": [
                    {"reading": "D-RX-2: error CQE 0x1, the RQ to ERR",
                     "expect": [{"event": "violation", "rule": "RX_WQE_TOO_SHORT"},
                                {"event": "cqe", "opcode": 14, "syndrome": 1}], "exact": False},
                    {"reading": "dropped, no completion",
                     "expect": [{"event": "rx_drop"}], "exact": False}]}}], "acceptable")
    # signatures
    g = vf.group("an RQ with wq_signature", [BRING_UP, rx_setup(
        rqs=[{"log_wq_stride": 6, "wq_signature": 1}], steer_all=[0])])
    vf.test(g, "a WQE whose signature makes the XOR 0xFF is taken", "PRM §9.2.3, T22/T23",
            [post(entries=[{"offset": "0x1000", "byte_count": 400}]), frame_step(b),
             cqes([cqe_ok(b)]), mem(DATA + 0x1000, b)])
    vf.test(g, "a wrong signature: a completion with error (T74 has no syndrome for it: "
            "D-RX-14 takes 0x2)", "PRM §9.2.3, T23, §7.12.7", [
                post(entries=[{"offset": "0x1000", "byte_count": 400}], signature="0x00"),
                frame_step(b), events([{"event": "violation", "rule": "RX_WQE_SIGNATURE",
                                        "clause": "PRM §9.2.3"}]),
                cqes([{"layout": "err_cqe", "opcode": 14, "syndrome": {"ne": 0}}])],
            "acceptable")
    # RMP
    for wq_type, name in ((1, "cyclic"), (0, "linked-list")):
        g = vf.group(f"an RQ on a {name} RMP", [BRING_UP, rx_setup(
            rmp={"wq_type": wq_type, "log_wq_stride": 6}, rqs=[{"on_rmp": 1}], steer_all=[0])])
        vf.test(g, "two frames take the RMP's WQEs in order", C_RMP + ", T68 wqe_counter", [
            post(rq="rmp", entries=[{"offset": "0x1000", "byte_count": 400}]),
            post(rq="rmp", entries=[{"offset": "0x2000", "byte_count": 400}]),
            frame_step(b), frame_step(b), cqes([cqe_ok(b, wqe_counter=0), cqe_ok(b, wqe_counter=1)]),
            mem(DATA + 0x1000, b), mem(DATA + 0x2000, b)])
    # VLAN strip and vsd
    t = raw(Ether(dst=OWN_MAC, src=PEER_MAC) / Dot1Q(prio=3, vlan=7) /
            IP(src="10.0.0.1", dst="10.0.0.2") / UDP() / payload(40))
    for vsd in (0, 1):
        g = vf.group(f"vlan_strip_disable {vsd}", [BRING_UP, rx_setup(
            rqs=[{"vsd": vsd}], steer_all=[0])])
        host = t if vsd else t[:12] + t[16:]
        steps = [post(entries=[{"offset": "0x1000", "byte_count": 400}]), frame_step(t)]
        if not vsd:
            vf.test(g, "a C-VLAN tagged frame written without its tag, the tag in cv/up/vid",
                    C_VLAN, steps + [cqes([cqe_ok(t, strip=True, cv=1, up=3, vid=7)]),
                                     mem(DATA + 0x1000, host)])
            continue
        # D-RX-3: §3.3.7 reports the tag the device removes; T68 cv "present in the incoming
        # frame" also reads as any tag: both listed
        vf.test(g, "a C-VLAN tagged frame kept whole; the tag not stripped is not reported "
                "(D-RX-3)", C_VLAN, steps + [{"cqes": {"cq": "rx", "any_of": [
                    {"reading": "D-RX-3: §3.3.7 reports the tag it strips: cv 0",
                     "expect": [cqe_ok(t, cv=0, up=0, cfi=0, vid=0)]},
                    {"reading": "T68 cv 'present in the incoming frame': reported though kept",
                     "expect": [cqe_ok(t, cv=1, up=3, cfi=0, vid=7)]}]}},
                    mem(DATA + 0x1000, host)], "acceptable")
    # start padding (§3.3.9, D-RX-1): CL 64
    g = vf.group("start padding", [BRING_UP, rx_setup(steer_all=[0])])
    pad = (64 - n % 64) % 64
    vf.test(g, f"start_padding on the first entry: {pad} bytes passed over before the data "
            "(D-RX-1)", C_PAD, [
                post(entries=[{"offset": "0x1000", "byte_count": 512, "start_padding": 1}]),
                frame_step(b), cqes([cqe_ok(b)]),
                {"mem_expect": {"any_of": [
                    {"reading": "D-RX-1: padded by the data's length", "addr": hex(DATA + 0x1000 + pad),
                     "hex": b.hex()},
                    {"reading": "not padded (the start is aligned already)",
                     "addr": hex(DATA + 0x1000), "hex": b.hex()}]}}], "acceptable")
    vf.test(g, "start_padding on a later entry is a violation and ignored", C_PAD + ", T40", [
        post(entries=[{"offset": "0x1000", "byte_count": 40},
                      {"offset": "0x2000", "byte_count": 400, "start_padding": 1}]),
        frame_step(b), events([{"event": "violation", "rule": "RX_START_PAD_NOT_FIRST",
                                "clause": "PRM §3.3.9"}]),
        cqes([cqe_ok(b)]), mem(DATA + 0x1000, b[:40]), mem(DATA + 0x2000, b[40:])])
    g = vf.group("HCA_CAP.start_pad 0", [BRING_UP, rx_setup(steer_all=[0])],
                 caps={"hca_cap.start_pad": 0})
    vf.test(g, "start_padding without the capability: a violation, not padded", C_PAD, [
        post(entries=[{"offset": "0x1000", "byte_count": 400, "start_padding": 1}]),
        frame_step(b), events([{"event": "violation", "rule": "RX_START_PAD_UNSUPPORTED",
                                "clause": "PRM §3.3.9"}]),
        cqes([cqe_ok(b)]), mem(DATA + 0x1000, b)])
    # end padding (§3.3.10): zeros to the next 64-byte boundary of the host address
    g = vf.group("end_padding_mode 1", [BRING_UP, rx_setup(
        rqs=[{"end_padding_mode": 1}], steer_all=[0])])
    end = -(-n // 64) * 64
    vf.test(g, f"a {n}-byte frame padded with zeros to {end} bytes", C_PAD + ", T55", [
        {"mem_write": {"addr": hex(DATA + 0x1000), "hex": "ee" * 256}},
        post(entries=[{"offset": "0x1000", "byte_count": 512}]), frame_step(b), cqes([cqe_ok(b)]),
        mem(DATA + 0x1000, b + bytes(end - n) + b"\xee" * (256 - end))])
    # An RQ of wq_type 0 (T55: the RQ column allows both types; the linked-list WQE is T42/T43's
    # next segment, Next_WQE_index in bits 15:0 of its first dword, then the scatter list).
    # RQ 0's WQ buffer is 0x33000000, stride n at n * 64 (docs/vectors.md "Receive path").
    g = vf.group("an RQ of wq_type 0 (a linked list)", [BRING_UP, rx_setup(
        rqs=[{"wq_type": 0, "log_wq_stride": 6}], steer_all=[0])])
    ll = [raw(v4(UDP, 40 + 8 * k)) for k in range(3)]
    relink = [{"mem_write": {"addr": hex(0x33000000), "hex": "00000002"}},
              {"mem_write": {"addr": hex(0x33000000 + 2 * 64), "hex": "00000001"}}]
    three = [post(entries=[{"offset": hex(0x1000 * (k + 1)), "byte_count": 400}])
             for k in range(3)]
    vf.test(g, "WQEs posted in strides 0, 1, 2 and relinked 0 -> 2 -> 1: frames take them along "
            "Next_WQE_index, the scatter list after the 16-byte next segment, wqe_counter the "
            "stride", C_LL, three + relink + [frame_step(b) for b in ll] + [
                cqes([cqe_ok(ll[0], wqe_counter=0), cqe_ok(ll[1], wqe_counter=2),
                      cqe_ok(ll[2], wqe_counter=1)]),
                mem(DATA + 0x1000, ll[0]), mem(DATA + 0x3000, ll[1]), mem(DATA + 0x2000, ll[2])])
    vf.test(g, "RDY to ERR with flush_in_error_en: the WQEs still posted are flushed along the "
            "list, each flush CQE naming its stride", C_LL + ", §7.7.2.1, T53 flush_in_error_en",
            three + relink + [frame_step(ll[0]), {"rq_state": {"rq": 0, "to": "ERR"}},
                              cqes([cqe_ok(ll[0], wqe_counter=0),
                                    {"layout": "err_cqe", "opcode": 14, "syndrome": 5,
                                     "wqe_counter": 2},
                                    {"layout": "err_cqe", "opcode": 14, "syndrome": 5,
                                     "wqe_counter": 1}])])
    # A Next_WQE_index at or beyond the ring (T43 "Index (pointer) in the WQE buffer"; T55: the
    # buffer holds 2^log_wq_sz strides, 16 here). The PRM says nothing of it: D-RX-16 / D-RMP-1
    # take the stride modulo the ring, named everywhere, and a driver violation; the other
    # reading listed: the WQE cannot be read (a completion with error, the queue to ERR). The
    # steps after each any_of hold under both (host memory: the bytes left there before).
    C_BEYOND = "PRM §7.4.4.4 T43 Next_WQE_index, T55 log_wq_sz, §7.4.1"
    beyond_vio = {"event": "violation", "rule": "RX_LL_NEXT_BEYOND_RING",
                  "clause": "PRM §7.4.4.4"}
    mark = [{"mem_write": {"addr": hex(DATA + 0x1000 * (k + 1)), "hex": "ee" * 128}}
            for k in range(4)]

    def left(k, b):
        """Stride k's buffer: the frame (D-RX-16), or the marks left when it was not taken."""
        return {"mem_expect": {"any_of": [
            {"reading": "D-RX-16: written", "addr": hex(DATA + 0x1000 * (k + 1)), "hex": b.hex()},
            {"reading": "not taken", "addr": hex(DATA + 0x1000 * (k + 1)),
             "hex": "ee" * len(b)}]}}

    def read_err(kind):
        """The other reading's events: the error, the queue (1 RQ, 2 RMP) to ERR."""
        return {"reading": "the WQE cannot be read: the queue to ERR",
                "expect": [{"event": "wq_state", "type": kind, "to": 3}], "exact": False}

    g = vf.group("a linked-list RQ reaching a Next_WQE_index beyond its ring", [BRING_UP, rx_setup(
        rqs=[{"wq_type": 0, "log_wq_stride": 6}], steer_all=[0])])
    vf.test(g, "stride 0 names 0x12 (stride 2 modulo 16), stride 2 names 1: frames take strides "
            "0, 2, 1, wqe_counter the stride taken, and the driver's violation (D-RX-16)",
            C_BEYOND, mark + three + [
                {"mem_write": {"addr": hex(0x33000000), "hex": "00000012"}},
                {"mem_write": {"addr": hex(0x33000000 + 2 * 64), "hex": "00000001"}}] +
            [frame_step(b) for b in ll] + [
                {"events": {"any_of": [
                    {"reading": "D-RX-16: the stride modulo the ring, a violation",
                     "expect": [beyond_vio], "exact": False}, read_err(1)]}},
                {"cqes": {"cq": "rx", "any_of": [
                    {"reading": "D-RX-16: strides 0, 2, 1",
                     "expect": [cqe_ok(ll[0], wqe_counter=0), cqe_ok(ll[1], wqe_counter=2),
                                cqe_ok(ll[2], wqe_counter=1)]},
                    {"reading": "the WQE cannot be read: a completion with error",
                     "expect": [cqe_ok(ll[0], wqe_counter=0),
                                {"layout": "err_cqe", "opcode": 14}], "exact": False}]}},
                mem(DATA + 0x1000, ll[0]), left(2, ll[1]), left(1, ll[2])],
            "acceptable", flags=["LlBeyondRing"])
    vf.test(g, "RDY to ERR with flush_in_error_en: the flush follows stride 0's 0xFFF5 to stride "
            "5 (modulo 16), then 5's 1, each flush CQE naming the stride (D-RX-16)",
            C_BEYOND + ", §7.7.2.1", three + [
                {"mem_write": {"addr": hex(0x33000000), "hex": "0000fff5"}},
                {"mem_write": {"addr": hex(0x33000000 + 5 * 64), "hex": "00000001"}},
                frame_step(ll[0]), {"rq_state": {"rq": 0, "to": "ERR"}},
                {"events": {"any_of": [
                    {"reading": "D-RX-16: the stride modulo the ring, a violation",
                     "expect": [beyond_vio], "exact": False},
                    {"reading": "the WQE cannot be read: the flush stops there",
                     "expect": [{"event": "wq_state", "type": 1, "to": 3}], "exact": False}]}},
                {"cqes": {"cq": "rx", "any_of": [
                    {"reading": "D-RX-16: flushes name strides 5, 1",
                     "expect": [cqe_ok(ll[0], wqe_counter=0),
                                {"layout": "err_cqe", "opcode": 14, "syndrome": 5,
                                 "wqe_counter": 5},
                                {"layout": "err_cqe", "opcode": 14, "syndrome": 5,
                                 "wqe_counter": 1}]},
                    {"reading": "the WQE cannot be read: the flush stops there",
                     "expect": [cqe_ok(ll[0], wqe_counter=0)]}]}}],
            "acceptable", flags=["LlBeyondRing"])
    g = vf.group("a linked-list RQ with wq_signature reaching a Next_WQE_index beyond its ring",
                 [BRING_UP, rx_setup(rqs=[{"wq_type": 0, "log_wq_stride": 6, "wq_signature": 1}],
                                     steer_all=[0])])
    # Stride 0's next bytes 00 01 become 03 02 (0x302, stride 2 modulo 16): their XOR is 01 both
    # times, so stride 0's signature still holds; stride 2's, made for index 2 (D-RX-14), holds
    # only if the device names the stride it took.
    four = three + [post(entries=[{"offset": "0x4000", "byte_count": 400}])]
    vf.test(g, "stride 0 names 0x302 (stride 2 modulo 16): the WQE of stride 2 is signed for "
            "index 2 and taken without error, then stride 3 (D-RX-16, D-RX-14)",
            C_BEYOND + ", §9.2.3", mark + four + [
                {"mem_write": {"addr": hex(0x33000000), "hex": "00000302"}}] +
            [frame_step(b) for b in ll] + [
                {"events": {"any_of": [
                    {"reading": "D-RX-16: the stride modulo the ring, a violation",
                     "expect": [beyond_vio], "exact": False}, read_err(1)]}},
                {"cqes": {"cq": "rx", "any_of": [
                    {"reading": "D-RX-16: strides 0, 2, 3, signatures good",
                     "expect": [cqe_ok(ll[0], wqe_counter=0), cqe_ok(ll[1], wqe_counter=2),
                                cqe_ok(ll[2], wqe_counter=3)]},
                    {"reading": "the WQE cannot be read: a completion with error",
                     "expect": [cqe_ok(ll[0], wqe_counter=0),
                                {"layout": "err_cqe", "opcode": 14}], "exact": False}]}},
                mem(DATA + 0x1000, ll[0]), left(2, ll[1]), left(3, ll[2])],
            "acceptable", flags=["LlBeyondRing"])
    g = vf.group("an RQ on a linked-list RMP reaching a Next_WQE_index beyond its ring", [
        BRING_UP, rx_setup(rmp={"wq_type": 0, "log_wq_stride": 6}, rqs=[{"on_rmp": 1}],
                           steer_all=[0])])
    rthree = [post(rq="rmp", entries=[{"offset": hex(0x1000 * (k + 1)), "byte_count": 400}])
              for k in range(3)]
    vf.test(g, "the RMP's stride 0 names 0x22 (stride 2 modulo 16), stride 2 names 1: frames take "
            "strides 0, 2, 1 and the RMP stays RDY (D-RMP-1, D-RX-16)", C_BEYOND + ", §7.10",
            mark + rthree + [
                {"mem_write": {"addr": hex(0x34000000), "hex": "00000022"}},
                {"mem_write": {"addr": hex(0x34000000 + 2 * 64), "hex": "00000001"}}] +
            [frame_step(b) for b in ll] + [
                {"events": {"any_of": [
                    {"reading": "D-RMP-1: the stride modulo the ring, a violation",
                     "expect": [beyond_vio], "exact": False}, read_err(2)]}},
                {"cqes": {"cq": "rx", "any_of": [
                    {"reading": "D-RMP-1: strides 0, 2, 1",
                     "expect": [cqe_ok(ll[0], wqe_counter=0), cqe_ok(ll[1], wqe_counter=2),
                                cqe_ok(ll[2], wqe_counter=1)]},
                    {"reading": "the WQE cannot be read: the RMP and the RQ to ERR",
                     "expect": [cqe_ok(ll[0], wqe_counter=0)], "exact": False}]}},
                mem(DATA + 0x1000, ll[0]), left(2, ll[1]), left(1, ll[2])],
            "acceptable", flags=["LlBeyondRing"])
    return vf



"""Sessions opening and segments merging (PRM §3.3.6.2, §3.3.6.4, §3.3.6.5).
Part of gen_lro.py (its docstring says how the expectations are derived)."""
from lro_common import *  # noqa: F401,F403


# ---------------------------------------------------------------------------------------------
# session.json: opening a session (§3.3.6.2) and every eligibility rule, accepted and refused

def gen_session():
    vf = VFile("session.json", "lro", [
        "LRO session creation (PRM §3.3.6.2) on a Direct TIR with LRO (T45 10h): each "
        "eligibility condition, met (a session opens on the segment: lro_open, its WQE held "
        "without a CQE until the timer ends it) and not met (lro_pass with the cause, a "
        "normal CQE with lro_num_seg 0); the per-TIR IPv4/IPv6 enable mask, LRO off, the "
        "capabilities lro_psh_flag and lro_time_stamp lowered. Expectations from "
        "vectors/lro/gen/lro_model.py."])
    g = group(vf, "one RQ, a Direct TIR with LRO (enable_mask 3, timeout 32 µs, max_msg_sz 64), "
              "every frame to it", Setup(tirs=[{"rq": 0, "lro": {}}]))
    ok = [
        ("an IPv4 TCP segment with ACK and 100 bytes of payload opens a session; the timer "
         "ends it with lro_num_seg 1, lro_abrt 01", seg()),
        ("an IPv6 TCP segment opens a session", seg(v6=True)),
        ("a segment with NOP, NOP, timestamp opens a session; the CQE carries its TSval/TSecr",
         seg(ts=(1000, 2000))),
        ("a segment with PSH opens a session (HCA_CAP.lro_psh_flag 1); lro_tcp_psh 1",
         seg(flags="PA")),
        ("a segment without ACK opens a session; l4_hdr_type 1", seg(flags="")),
        ("a segment of 1 byte of payload (lro_min_mss_size 1) opens a session",
         seg(n=1, ts=(5, 6))),
        ("ECE and CWR are not among the flags that must be clear: a segment with both opens "
         "a session", seg(flags="AEC")),
        ("a C-VLAN tagged segment opens a session; the tag is stripped before the first "
         "segment is scattered (§3.3.6.5)", seg(vlan=(3, 7))),
    ]
    for comment, s in ok:
        test(vf, g, comment, C_OPEN + ", " + C_CQE, [("frame", s), END])
    test(vf, g, "a segment whose timestamp is followed by End of option list opens a session "
         "(D-LRO-2)", C_OPEN + " 'No TCP options other than timestamp'",
         [("frame", seg(opts=[("Timestamp", (7, 8)), ("EOL", None), ("EOL", None)])), END],
         readings=[("EOL is an option other than the timestamp", {"eol_is_option"})])
    refused = [
        ("SYN", seg(flags="S"), "tcp_flags"),
        ("SYN ACK", seg(flags="SA"), "tcp_flags"),
        ("FIN", seg(flags="FA"), "tcp_flags"),
        ("RST", seg(flags="RA"), "tcp_flags"),
        ("URG", seg(flags="UA"), "tcp_flags"),
        ("NS", seg(flags="NA"), "tcp_flags"),
        ("a reserved TCP flag bit", seg(reserved=1), "tcp_flags"),
        ("an MSS option", seg(opts=[("MSS", 1460)]), "tcp_options"),
        ("a window scale option beside the timestamp",
         seg(opts=[("NOP", None), ("WScale", 7), ("Timestamp", (1, 2)), ("NOP", None),
                   ("NOP", None)]), "tcp_options"),
        ("a SACK option", seg(opts=[("NOP", None), ("NOP", None), ("SAck", (100, 200))]),
         "tcp_options"),
        ("a malformed option list (kind 8, length 9)",
         seg(opts=[("NOP", None), ("NOP", None), (8, b"\0" * 7), ("NOP", None)]),
         "tcp_options"),
        ("IPv4 options (four NOPs)", seg(ip_opts=[IPOption_NOP()] * 4), "ip_options"),
        ("an IPv6 hop-by-hop extension header", seg(v6=True, ext=IPv6ExtHdrHopByHop()),
         "ip_options"),
        ("an IPv6 destination options extension header", seg(v6=True, ext=IPv6ExtHdrDestOpt()),
         "ip_options"),
        ("a wrong TCP checksum", seg(chksum=0x1234), "invalid"),
        ("a wrong IPv4 header checksum", seg(ipchk=0x1234), "invalid"),
        ("no payload (a pure ACK; lro_min_mss_size >= 1)", seg(n=0), "small"),
    ]
    for name, s, cause in refused:
        test(vf, g, f"{name}: no session ({cause}); the segment completes alone, lro_num_seg 0",
             C_OPEN, [("frame", s), END])
    # fragments: the first fragment of an IPv4 datagram carries the TCP header
    f4 = seg(ipflags="MF")
    test(vf, g, "an IPv4 first fragment (MF) with the TCP header: no session (fragment); its "
         "TCP checksum cannot be verified, so 'packet validation' may also refuse it",
         C_OPEN + " 'The packet is not an IP fragment'", [("frame", f4), END],
         readings=[("a fragment fails validation first (invalid)", {"frag_invalid"})])
    f6 = seg(v6=True, ext=IPv6ExtHdrFragment(m=1, id=7))
    test(vf, g, "an IPv6 first fragment (Fragment header, M 1): no session; D-LRO-8 names the "
         "extension header first (ip_options)", C_OPEN + " 'No IPv4 options or IPv6 extension "
         "headers', 'not an IP fragment'", [("frame", f6), END],
         readings=[("the fragment is named first", {"fragment_first"}),
                   ("a fragment fails validation first (invalid)", {"frag_invalid"}),
                   ("fragment first, failing validation", {"frag_invalid", "fragment_first"})])
    snap = bytes(Dot3(dst=OWN_MAC, src=PEER_MAC) / LLC(dsap=0xAA, ssap=0xAA, ctrl=3) /
                 SNAP(OUI=0, code=0x0800) / IP(src="10.0.0.1", dst="10.0.0.2") /
                 TCP(sport=0x1234, dport=0x5678, seq=SEQ0, ack=ACK0, flags="A", window=WIN0) /
                 Raw(payload(100, 0)))
    test(vf, g, "an LLC/SNAP frame carrying IPv4/TCP: no session (the parser does not look "
         "behind SNAP, or it does and the cause is llc_snap)",
         C_OPEN + " 'No LLC/SNAP'", [("frame", snap), END],
         readings=[("TCP behind SNAP is seen and refused (llc_snap)", {"llc_snap_parsed"})])
    u = bytes(Ether(dst=OWN_MAC, src=PEER_MAC) / IP(src="10.0.0.1", dst="10.0.0.2") /
              UDP(sport=0x1234, dport=0x5678) / Raw(payload(100, 0)))
    test(vf, g, "a UDP datagram on an LRO TIR is received as always (LRO is for TCP, D-LRO-9)",
         C_OPEN + " 'TCP Packet'", [("frame", u), END])
    # capabilities lowered
    g = group(vf, "HCA_CAP.lro_psh_flag 0", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                 caps={CAPS + "lro_psh_flag": 0}))
    test(vf, g, "PSH without lro_psh_flag: no session (psh)", C_OPEN + ", T147 lro_psh_flag",
         [("frame", seg(flags="PA")), END])
    test(vf, g, "without PSH the segment opens a session", C_OPEN + ", T147 lro_psh_flag",
         [("frame", seg(flags="A")), END])
    g = group(vf, "HCA_CAP.lro_time_stamp 0", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                   caps={CAPS + "lro_time_stamp": 0}))
    test(vf, g, "a timestamp option without lro_time_stamp: no session (timestamp_off)",
         C_OPEN + ", T147 lro_time_stamp", [("frame", seg(ts=(1, 2))), END])
    test(vf, g, "without the timestamp the segment opens a session",
         C_OPEN + ", T147 lro_time_stamp", [("frame", seg()), END])
    # the enable mask
    for mask, v4ok in ((1, True), (2, False)):
        g = group(vf, f"lro_enable_mask {mask} (IPv{4 if mask == 1 else 6} only)",
                  Setup(tirs=[{"rq": 0, "lro": {"enable_mask": mask}}]))
        for v6 in (False, True):
            yes = v4ok != v6
            test(vf, g, f"an IPv{6 if v6 else 4} segment: " +
                 ("opens a session" if yes else "no session (not_enabled)"),
                 "PRM §3.3.6.2, T45 lro_enable_mask", [("frame", seg(v6=v6)), END])
    g = group(vf, "a Direct TIR without LRO", Setup(tirs=[{"rq": 0}]))
    test(vf, g, "LRO off: a TCP stream is received segment by segment, lro_num_seg 0",
         C_TIR + " 'When bitmask is completely clear LRO is disabled'",
         [*frames(stream(3)), END])
    g = group(vf, "lro_timeout_period_usecs 7, below the smallest supported period (8)",
              Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": 7}}]))
    test(vf, g, "LRO does not work on the TIR: no session (inactive)",
         "PRM T45 lro_timeout_period_usecs 'If requested timeout period is smaller than the "
         "minimal supported LRO will not work in this TIR'", [*frames(stream(2)), END],
         readings=[("reported as not enabled", {"inactive_is_not_enabled"})])
    g = group(vf, "lro_max_msg_sz 0", Setup(tirs=[{"rq": 0, "lro": {"max_msg_sz": 0}}]))
    test(vf, g, "lro_max_msg_sz 0 disables LRO: no session (inactive)",
         "PRM T45 lro_max_msg_sz '0 - disable LRO'", [*frames(stream(2)), END],
         readings=[("reported as not enabled", {"inactive_is_not_enabled"})])
    return vf


# ---------------------------------------------------------------------------------------------
# merge.json: the merge conditions (§3.3.6.4), what a merged buffer holds (§3.3.6.5)

def gen_merge():
    vf = VFile("merge.json", "lro", [
        "Merging segments into an open session (PRM §3.3.6.4): sequence continuity, the "
        "timestamp order, the IP fields that must match and those that may change, ECN, the "
        "size limit lro_max_msg_sz in mode 0, flows kept apart by the LRO Flow ID (§3.3.6.1), "
        "and the merged buffer: the first segment's headers then every payload (§3.3.6.5). "
        "Expectations from vectors/lro/gen/lro_model.py."])
    g = group(vf, "one RQ, a Direct TIR with LRO (defaults), every frame to it",
              Setup(tirs=[{"rq": 0, "lro": {}}]))
    test(vf, g, "three in-order IPv4 segments merge into one buffer: the first segment's "
         "headers, then the three payloads", C_MERGE + ", " + C_SCATTER,
         [*frames(stream(3)), END])
    test(vf, g, "three in-order IPv6 segments merge", C_MERGE + ", " + C_SCATTER,
         [*frames(stream(3, v6=True)), END])
    test(vf, g, "eight 1448-byte segments with timestamps merge (11584 bytes of payload)",
         C_MERGE, [*frames([seg(seq=SEQ0 + i * 1448, n=1448, ts=(100 + i, 50))
                            for i in range(8)]), END])
    test(vf, g, "segments of different sizes merge in order", C_MERGE,
         [*frames([seg(seq=SEQ0, n=100), seg(seq=SEQ0 + 100, n=300),
                   seg(seq=SEQ0 + 400, n=50)]), END])
    gap = [seg(seq=SEQ0), seg(seq=SEQ0 + 100), seg(seq=SEQ0 + 1000), seg(seq=SEQ0 + 1100)]
    test(vf, g, "a gap in the sequence: the segment ends the session (out_of_order) and "
         "completes alone; the next segment, in order after it, opens a new session",
         C_END + " 'Out of order segment', " + C_MERGE + " 'Matching on TCP Sequence Number'",
         [*frames(gap), END])
    rtx = [seg(seq=SEQ0), seg(seq=SEQ0 + 100), seg(seq=SEQ0 + 100)]
    test(vf, g, "a retransmission (the previous sequence number again): out_of_order",
         C_END + " 'Out of order segment'", [*frames(rtx), END])
    wrap = [seg(seq=0xFFFFFF9C + i * 100) for i in range(3)]
    test(vf, g, "the sequence number wraps through 2^32 inside a session: the segments merge",
         C_MERGE + " 'Matching on TCP Sequence Number'", [*frames(wrap), END])
    test(vf, g, "timestamps rising and equal merge (TSval >= the previous)",
         C_MERGE + " 'the incoming segment timestamp value is >= the ... previous'",
         [*frames([seg(seq=SEQ0, ts=(10, 1)), seg(seq=SEQ0 + 100, ts=(10, 2)),
                   seg(seq=SEQ0 + 200, ts=(11, 3))]), END])
    test(vf, g, "a TSval lower than the session's ends it (ts_older, (*)): the segment opens "
         "the next session", C_END + " 'Timestamp Value of the new segments < ...' (*)",
         [*frames([seg(seq=SEQ0, ts=(10, 1)), seg(seq=SEQ0 + 100, ts=(12, 1)),
                   seg(seq=SEQ0 + 200, ts=(11, 1))]), END])
    test(vf, g, "a timestamp after segments without one ends the session (ts_prev_absent, "
         "(*)): the segment opens the next session",
         C_END + " 'The previous segment does not contain the timestamp option' (*)",
         [*frames([seg(seq=SEQ0), seg(seq=SEQ0 + 100), seg(seq=SEQ0 + 200, ts=(5, 1))]), END])
    test(vf, g, "a segment without the timestamp after segments with one ends the session "
         "(ts_absent, (*)): the segment opens the next session",
         C_END + " 'The segment does not contain a timestamp option but the previous segments "
         "contain' (*)",
         [*frames([seg(seq=SEQ0, ts=(5, 1)), seg(seq=SEQ0 + 100, ts=(6, 1)),
                   seg(seq=SEQ0 + 200)]), END])
    # IP fields that may change, and those that must not
    test(vf, g, "TTL and IPv4 identification change between segments: they merge; "
         "lro_min_ttl is the lowest TTL",
         C_MERGE + " 'Matching on all IP fields, except: TTL/Hop Limit, IPv4.Checksum, IPv4. "
         "Total Length and IPv4.Identification'",
         [*frames([seg(seq=SEQ0, ttl=64, ipid=1), seg(seq=SEQ0 + 100, ttl=61, ipid=9),
                   seg(seq=SEQ0 + 200, n=300, ttl=63, ipid=2)]), END])
    test(vf, g, "IPv6 hop limit and payload length change: they merge; lro_min_ttl is the "
         "lowest hop limit", C_MERGE + " (TTL/Hop Limit, IPv6.Payload Length)",
         [*frames([seg(v6=True, seq=SEQ0, ttl=60), seg(v6=True, seq=SEQ0 + 100, n=200, ttl=59),
                   seg(v6=True, seq=SEQ0 + 300, ttl=64)]), END])
    mism = [
        ("the IPv4 DSCP", dict(tos=0), dict(tos=0x28)),
        ("the IPv4 DF flag", dict(ipflags=0), dict(ipflags="DF")),
        ("the IPv6 flow label", dict(v6=True, fl=0x12345), dict(v6=True, fl=0x12346)),
        ("the IPv6 traffic class (DSCP)", dict(v6=True, tos=0), dict(v6=True, tos=0x28)),
    ]
    for name, a, b in mism:
        test(vf, g, f"{name} changes: the segment ends the session (ip_mismatch) and "
             "completes alone", C_END + " 'IP field of the incoming packet does not match', "
             + C_MERGE, [*frames([seg(seq=SEQ0, **a), seg(seq=SEQ0 + 100, **a),
                                  seg(seq=SEQ0 + 200, **b)]), END])
    # ECN
    for name, a, b in (("ECE", "A", "AE"), ("CWR", "A", "AC"), ("ECE cleared", "AE", "A")):
        test(vf, g, f"the TCP ECN flags change ({name}): the session ends (ecn, (*)); the "
             "segment opens the next session",
             C_END + " 'a different value for the ECN flags (ECE and CWR)' (*), " + C_MERGE,
             [*frames([seg(seq=SEQ0, flags=a), seg(seq=SEQ0 + 100, flags=a),
                       seg(seq=SEQ0 + 200, flags=b)]), END])
    test(vf, g, "the IPv6 ECN bits of the traffic class change (ECT(1) to CE): the session "
         "ends (ecn, (*)) and the segment opens the next",
         C_END + " 'a different value for the ECN field (ECT, CE) in the IP header' (*)",
         [*frames([seg(v6=True, seq=SEQ0, tos=1), seg(v6=True, seq=SEQ0 + 100, tos=1),
                   seg(v6=True, seq=SEQ0 + 200, tos=3)]), END],
         readings=[("ECN is an IP field that must match (ip_mismatch)", {"ip_ecn_is_ip_field"})])
    test(vf, g, "the IPv4 ECN field changes (ECT(0) to CE): the session ends (ecn, (*)) and "
         "the segment opens the next; the IP-field rule would end it without the restart",
         C_END + " 'a different value for the ECN field (ECT, CE) in the IP header' (*)",
         [*frames([seg(seq=SEQ0, tos=2), seg(seq=SEQ0 + 100, tos=2),
                   seg(seq=SEQ0 + 200, tos=3)]), END],
         readings=[("ECN is an IP field that must match (ip_mismatch)", {"ip_ecn_is_ip_field"})])
    # flows
    test(vf, g, "two flows (source ports differ) interleaved: two sessions, each merging its "
         "own segments; the timer ends them in the order they opened", C_FLOW + ", " + C_MERGE,
         [("frame", seg(seq=SEQ0)), ("frame", seg(seq=0x500, sport=0x1235)),
          ("frame", seg(seq=SEQ0 + 100)), ("frame", seg(seq=0x500 + 100, sport=0x1235)),
          ("frame", seg(seq=SEQ0 + 200)), END])
    test(vf, g, "the same addresses and ports under two VLAN IDs are two flows",
         C_FLOW + " (VLAN ID)",
         [("frame", seg(seq=SEQ0, vlan=(0, 5))), ("frame", seg(seq=0x700, vlan=(0, 6))),
          ("frame", seg(seq=SEQ0 + 100, vlan=(0, 5))), ("frame", seg(seq=0x764, vlan=(0, 6))),
          END])
    test(vf, g, "the reverse direction of a connection is another flow",
         C_FLOW, [("frame", seg(seq=SEQ0)),
                  ("frame", seg(seq=0x900, src="10.0.0.2", dst="10.0.0.1", sport=0x5678,
                                dport=0x1234)),
                  ("frame", seg(seq=SEQ0 + 100)), END])
    # the size limit, mode 0
    g = group(vf, "lro_max_msg_sz 2 (512 bytes of TCP header and payload, mode 0)",
              Setup(tirs=[{"rq": 0, "lro": {"max_msg_sz": 2}}]))
    test(vf, g, "20 + 4 x 100 = 420 bytes merge; the fifth 100 would make 520 > 512: the "
         "session ends (max_size, lro_abrt 00) and the segment opens the next",
         C_SIZE + " (*)", [*frames(stream(6)), END])
    test(vf, g, "20 + 4 x 100 + 92 = 512 bytes exactly: the fifth segment merges (the limit "
         "is not exceeded, D-LRO-6)", C_SIZE,
         [*frames(stream(4) + [seg(seq=SEQ0 + 400, n=92)]), END],
         readings=[("'not exhaust': the limit itself is refused",
                    {"limit_exclusive"})])
    test(vf, g, "20 + 4 x 100 + 93 = 513 bytes: the fifth segment does not merge (max_size)",
         C_SIZE, [*frames(stream(4) + [seg(seq=SEQ0 + 400, n=93)]), END])
    g = group(vf, "lro_max_msg_sz 2, timestamps (TCP header 32 bytes)",
              Setup(tirs=[{"rq": 0, "lro": {"max_msg_sz": 2}}]))
    test(vf, g, "the limit counts the first segment's TCP header with its options: 32 + 4 x "
         "100 = 432 merge, the fifth (532) does not",
         C_SIZE, [*frames([seg(seq=SEQ0 + i * 100, ts=(1, 1)) for i in range(5)]), END])
    return vf

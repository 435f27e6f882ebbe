"""Sessions ending: every termination cause and the timer (PRM §3.3.6.3, T45, T147).
Part of gen_lro.py (its docstring says how the expectations are derived)."""
from lro_common import *  # noqa: F401,F403
from lro_gen_session import *  # noqa: F401,F403,E402


# ---------------------------------------------------------------------------------------------
# termination.json: every cause an arriving segment can end a session with (§3.3.6.3), the
# restart of the four (*) cases and the standalone completion of the others

def gen_termination():
    vf = VFile("termination.json", "lro", [
        "Ending a session on an arriving segment of its flow (PRM §3.3.6.3): each condition "
        "of the list. The completion reports only the data already coalesced; after it the "
        "segment opens a new session when the cause is one of the four marked (*) (the size "
        "limit, the timestamp cases, ECN) and otherwise completes alone (lro_num_seg 0). "
        "Expectations from vectors/lro/gen/lro_model.py."])
    g = group(vf, "one RQ, a Direct TIR with LRO (defaults), every frame to it",
              Setup(tirs=[{"rq": 0, "lro": {}}]))
    base = stream(2)
    nxt = SEQ0 + 200
    cases = [
        ("a wrong TCP checksum", seg(seq=nxt, chksum=0x1234), "'Invalid TCP/IP checksum'"),
        ("a wrong IPv4 header checksum", seg(seq=nxt, ipchk=0x1234),
         "'Invalid TCP/IP checksum'"),
        ("FIN", seg(seq=nxt, flags="FA"), "'One of the flags is enabled: ... FIN'"),
        ("SYN", seg(seq=nxt, flags="SA"), "'... SYN'"),
        ("RST", seg(seq=nxt, flags="RA"), "'... RST'"),
        ("URG", seg(seq=nxt, flags="UA"), "'... URG'"),
        ("NS", seg(seq=nxt, flags="NA"), "'... NS'"),
        ("a reserved TCP flag", seg(seq=nxt, reserved=4), "'... reserved TCP flags'"),
        ("an MSS option", seg(seq=nxt, opts=[("MSS", 1000)]),
         "'The packet contains TCP options other than timestamp'"),
        ("IPv4 options", seg(seq=nxt, ip_opts=[IPOption_NOP()] * 4),
         "'The packet contains IPv4 options'"),
        ("no payload (a duplicate ACK)", seg(seq=nxt, n=0),
         "'Segment TCP payload size is < HCA_CAP.lro_min_mss_size'"),
        ("the IPv4 first fragment (MF)", seg(seq=nxt, ipflags="MF"),
         "'The packet is an IP fragment'"),
        ("a gap in the sequence", seg(seq=nxt + 1), "'Out of order segment'"),
        ("a DSCP change", seg(seq=nxt, tos=0x10), "'IP field ... does not match'"),
    ]
    for name, s, clause in cases:
        rd = [("a fragment fails validation first (invalid)", {"frag_invalid"})] \
            if "fragment" in name else []
        test(vf, g, f"{name}: the session ends with the two coalesced segments; the segment "
             "completes alone (no restart)", C_END + " " + clause,
             [*frames(base), ("frame", s), END], readings=rd)
    v6 = stream(2, v6=True)
    test(vf, g, "IPv6: an extension header on a segment of the flow ends the session; the "
         "segment completes alone", C_END + " 'IPv6 extension headers'",
         [*frames(v6), ("frame", seg(seq=nxt, v6=True, ext=IPv6ExtHdrDestOpt())), END])
    test(vf, g, "a segment of the flow that is not eligible, then an eligible one in order "
         "after it: the second opens a new session", C_END + ", " + C_OPEN,
         [*frames(base), ("frame", seg(seq=nxt, flags="UA")),
          ("frame", seg(seq=nxt + 100)), END])
    restart = [
        ("a lower TSval (ts_older)", [seg(seq=SEQ0, ts=(9, 1)), seg(seq=SEQ0 + 100, ts=(9, 1)),
                                      seg(seq=nxt, ts=(8, 1))], seg(seq=nxt + 100, ts=(8, 2))),
        ("a timestamp after none (ts_prev_absent)", base + [seg(seq=nxt, ts=(8, 1))],
         seg(seq=nxt + 100, ts=(9, 1))),
        ("no timestamp after one (ts_absent)", [seg(seq=SEQ0, ts=(9, 1)),
                                                seg(seq=SEQ0 + 100, ts=(9, 1)), seg(seq=nxt)],
         seg(seq=nxt + 100)),
        ("an ECE change (ecn)", base + [seg(seq=nxt, flags="AE")],
         seg(seq=nxt + 100, flags="AE")),
    ]
    for name, segs, follow in restart:
        test(vf, g, f"{name}: the session ends and the segment opens the next session, which "
             "the next in-order segment joins", C_END + " (*) 'the new segment can be a "
             "candidate for creation of a new session'",
             [*frames(segs), ("frame", follow), END])
    g = group(vf, "lro_max_msg_sz 2 (512 bytes)", Setup(tirs=[{"rq": 0, "lro": {"max_msg_sz": 2}}]))
    test(vf, g, "the size limit (max_size, (*)): the session ends with lro_abrt 00; the "
         "segment opens the next session", C_END + " 'will exceed TIR's maximum IP length' (*), "
         "T68 lro_abrt 00", [*frames(stream(7)), END])
    g = group(vf, "HCA_CAP.lro_psh_flag 0", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                 caps={CAPS + "lro_psh_flag": 0}))
    test(vf, g, "PSH without lro_psh_flag: the session ends; the segment completes alone",
         C_END + " 'PSH flag is enabled and HCA_CAP.lro_psh_flag = 0'",
         [*frames(base), ("frame", seg(seq=nxt, flags="PA")), END])
    g = group(vf, "HCA_CAP.lro_time_stamp 0", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                   caps={CAPS + "lro_time_stamp": 0}))
    test(vf, g, "a timestamp without lro_time_stamp: the session ends; the segment completes "
         "alone", C_END + " 'When HCA_CAP.lro_time_stamp is disabled and TCP timestamp option "
         "appears'", [*frames(base), ("frame", seg(seq=nxt, ts=(1, 1))), END])
    g = group(vf, "HCA_CAP.lro_psh_flag 1 (the default)", Setup(tirs=[{"rq": 0, "lro": {}}]))
    test(vf, g, "PSH with lro_psh_flag: the segment merges and the session goes on",
         C_MERGE + ", T5 lro_tcp_psh", [*frames(base), ("frame", seg(seq=nxt, flags="PA")),
                                        ("frame", seg(seq=nxt + 100)), END])
    return vf


# ---------------------------------------------------------------------------------------------
# timer.json: the LRO timer (§3.3.6.3 "LRO timer expiration", T45, T147), N to 2N

def gen_timer():
    vf = VFile("timer.json", "lro", [
        "The LRO timer (PRM §3.3.6.3, T45 lro_timeout_period_usecs, T147 "
        "lro_timer_supported_periods): the period in force is the largest supported period "
        "not above the request; a session ends (lro_abrt 01) between N and 2N after it "
        "opened (T147), so these vectors look before N (still open) or from 2N on (ended), "
        "and the one that looks inside lists both readings. Expectations from "
        "vectors/lro/gen/lro_model.py."])
    g = group(vf, "timeout 32 µs (a supported period: N = 32 µs)",
              Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": 32}}]))
    test(vf, g, "at N/2 the session is still open (no CQE); at 2N it has ended (timer)",
         C_TIMER, [("frame", seg()), ("advance", 16 * US), ("check",), ("advance", 48 * US)])
    test(vf, g, "segments at 0 and N/2 merge; at 2N after the first the session has ended "
         "under either start of the timer", C_TIMER,
         [("frame", seg()), ("advance", 16 * US), ("frame", seg(seq=SEQ0 + 100)),
          ("advance", 8 * US), ("check",), ("advance", 64 * US)],
         readings=[("the timer restarts at each merge", {"timer_from_last"})])
    test(vf, g, "segments at 0 and N/2, then at 1.25 N the session has ended if the timer "
         "runs from the open and expires at N (D-LRO-5); a device whose timer restarts at "
         "each merge, or expires later inside N..2N, still holds it",
         C_TIMER + ", D-LRO-5",
         [("frame", seg()), ("advance", 16 * US), ("frame", seg(seq=SEQ0 + 100)),
          ("advance", 24 * US)],
         readings=[("the timer restarts at each merge, or expires later in (N, 2N]",
                    {"timer_from_last"})])
    test(vf, g, "after the timer ended a session, the next segment of the flow opens a new one",
         C_TIMER + ", " + C_OPEN,
         [("frame", seg()), ("advance", 64 * US), ("frame", seg(seq=SEQ0 + 100)),
          ("advance", 64 * US)])
    test(vf, g, "two sessions opened 1.5 N apart end in that order (the first by 2N, the second "
         "no earlier than 2.5 N); whether the first ended before the second opened is not "
         "pinned (events not compared)", C_TIMER,
         [("frame", seg()), ("advance", 48 * US), ("frame", seg(seq=0x900, sport=0x4321)),
          ("advance", 80 * US)], events=False)
    for req, n, before, after in ((20, 16, 12, 40), (1000, 32, 20, 70), (9, 8, 6, 17)):
        g = group(vf, f"timeout {req} µs: the period in force is {n} µs",
                  Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": req}}]))
        test(vf, g, f"request {req} µs: adjusted down to the supported {n} µs; open at "
             f"{before} µs, ended at {after} µs", C_TIMER + " 'adjusted to the nearest timeout "
             "period which is < requested'",
             [("frame", seg()), ("advance", before * US), ("check",),
              ("advance", (after - before) * US)])
    g = group(vf, "timeout 1024 µs", Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": 1024}}]))
    test(vf, g, "N = 1024 µs: still open after 500 µs, ended at 2048 µs", C_TIMER,
         [("frame", seg()), ("advance", 500 * US), ("check",), ("advance", 1600 * US)])
    g = group(vf, "lro_timer_supported_periods[2] lowered to 20 µs, timeout 32 µs",
              Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": 32}}],
                    caps={CAPS + "lro_timer_supported_periods_2": 20}))
    test(vf, g, "the period in force is 20 µs: open at 15 µs, ended at 41 µs",
         C_TIMER, [("frame", seg()), ("advance", 15 * US), ("check",), ("advance", 26 * US)])
    # Session 30 (review revlro F1): periods of different TIRs in one clock step.
    g = group(vf, "one RQ; TIR 0 with timeout 1024 µs, TIR 1 with 32 µs, each frame to both "
              "(multi-path)",
              Setup(tirs=[{"rq": 0, "lro": {"timeout_usecs": 1024}},
                          {"rq": 0, "lro": {"timeout_usecs": 32}}]))
    test(vf, g, "a segment at t = 0 opens a session on each TIR; TIR 1's (N = 32 µs) has ended "
         "at 40 µs, when the next segment merges into TIR 0's and opens a new one on TIR 1; one "
         "clock step of 3 ms: TIR 1's new session (ends by 40 + 64 µs) completes before TIR "
         "0's (not before 1024 µs), though it opened later: lro_num_seg 1 before 2, under "
         "either order of the copies", C_TIMER + ", D-LRO-5",
         [("frame", seg()), ("advance", 40 * US), ("frame", seg(seq=SEQ0 + 100)),
          ("advance", 3000 * US)],
         readings=[("the copies reach the TIRs in the other order (§7.11.3.6)",
                    {"tir_copies_reversed"})])
    return vf

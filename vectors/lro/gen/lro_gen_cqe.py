"""The merged CQE, the flushes of a TIR or RQ change, and the limits (PRM §3.3.6.6 T5, T68; D-LRO-3, D-LRO-10).
Part of gen_lro.py (its docstring says how the expectations are derived)."""
from lro_common import *  # noqa: F401,F403
from lro_gen_session import *  # noqa: F401,F403,E402
from lro_gen_end import *  # noqa: F401,F403,E402


# ---------------------------------------------------------------------------------------------
# cqe.json: the fields of a session's CQE (§3.3.6.6 T5, T68)

def gen_cqe():
    vf = VFile("cqe.json", "lro", [
        "The CQE of a session (PRM §3.3.6.6 T5, §7.12.1.1 T68): lro_num_seg, byte_cnt from the "
        "MAC header, lro_min_ttl, lro_tcp_win and lro_ack_seq_num of the last segment, "
        "lro_tcp_psh, lro_dup_ack_cnt 0, lro_timestamp_is_valid with TSval/TSecr of the last "
        "segment, l4_hdr_type with ACK seen in any segment, the checksum over the merged "
        "payload (T4, D-LRO-7; T5's 'TCP header + TCP payload' reading listed), the VLAN strip. "
        "Expectations from vectors/lro/gen/lro_model.py."])
    g = group(vf, "one RQ, a Direct TIR with LRO (defaults), every frame to it",
              Setup(tirs=[{"rq": 0, "lro": {}}]))
    csum_r = [("T5: the first TCP header and the merged payload", {"checksum_with_header"})]
    test(vf, g, "three segments: the checksum covers the three payloads, without header or "
         "pseudo-header, not complemented (D-LRO-7)", C_CQE + ", T4",
         [*frames(stream(3)), END], readings=csum_r, csum=True)
    test(vf, g, "one segment alone: lro_num_seg 1 and the checksum of its payload", C_CQE + ", T4",
         [("frame", seg(ts=(3, 4))), END], readings=csum_r, csum=True)
    odd = [seg(seq=SEQ0, n=101), seg(seq=SEQ0 + 101, n=99), seg(seq=SEQ0 + 200, n=51)]
    test(vf, g, "odd payload lengths: the checksum sums the merged bytes as one stream "
         "(D-LRO-7)", C_CQE + ", T4", [*frames(odd), END],
         readings=csum_r + [("each payload summed alone", {"checksum_per_segment"})], csum=True)
    test(vf, g, "lro_tcp_win and lro_ack_seq_num are the last segment's; lro_tcp_psh is set "
         "by a PSH in the middle segment",
         C_CQE + " lro_tcp_win, lro_ack_seq_num, lro_tcp_psh",
         [*frames([seg(seq=SEQ0, ack=ACK0, win=100), seg(seq=SEQ0 + 100, ack=ACK0 + 50,
                                                         win=200, flags="PA"),
                   seg(seq=SEQ0 + 200, ack=ACK0 + 90, win=150)]), END])
    test(vf, g, "TSval and TSecr of the last segment in timestamp_h / timestamp_l, "
         "lro_timestamp_is_valid 1", C_CQE + " lro_timestamp_is_valid, timestamp_h/l",
         [*frames([seg(seq=SEQ0 + i * 100, ts=(0x1000 + i, 0x7000 + 3 * i)) for i in range(4)]),
          END])
    test(vf, g, "without timestamps lro_timestamp_is_valid is 0", C_CQE,
         [*frames(stream(2)), END])
    test(vf, g, "the first segment without ACK, the second with: l4_hdr_type 4 (T5: the CQE "
         "says ACK while the first header does not)", C_CQE + " L4_hdr_type",
         [*frames([seg(seq=SEQ0, flags=""), seg(seq=SEQ0 + 100, flags="A")]), END])
    test(vf, g, "no segment with ACK: l4_hdr_type 1", C_CQE + " L4_hdr_type",
         [*frames([seg(seq=SEQ0, flags=""), seg(seq=SEQ0 + 100, flags="")]), END])
    test(vf, g, "lro_min_ttl: TTLs 64, 3, 200 give 3; lro_dup_ack_cnt 0", C_CQE + " lro_min_ttl",
         [*frames([seg(seq=SEQ0, ttl=64), seg(seq=SEQ0 + 100, ttl=3),
                   seg(seq=SEQ0 + 200, ttl=200)]), END])
    test(vf, g, "IPv6: lro_min_ttl is the lowest hop limit; byte_cnt from the MAC header",
         C_CQE, [*frames([seg(v6=True, seq=SEQ0, ttl=9), seg(v6=True, seq=SEQ0 + 100, ttl=8)]),
                 END])
    test(vf, g, "C-VLAN tagged segments: the tag is stripped from the first, byte_cnt counts "
         "the buffer without it; cv, up, vid report the first tag", C_CQE + ", " + C_SCATTER,
         [*frames([seg(seq=SEQ0, vlan=(5, 0x123)), seg(seq=SEQ0 + 100, vlan=(5, 0x123))]), END])
    g_plain = g
    g = group(vf, "vlan_strip_disable 1", Setup(tirs=[{"rq": 0, "lro": {}}], vsd=1))
    test(vf, g, "with vlan_strip_disable the first segment is scattered with its tag; the "
         "merged payloads follow; the tag kept is not reported in cv (§3.3.7, D-RX-3)",
         C_CQE + ", " + C_SCATTER + " 'when VLAN stripping is configured', PRM §3.3.7",
         [*frames([seg(seq=SEQ0, vlan=(1, 9)), seg(seq=SEQ0 + 100, vlan=(1, 9))]), END],
         readings=[("T68 cv \"present in the incoming frame\": the kept tag reported too",
                   {"cv_unstripped"})])
    test(vf, g_plain, "the last segment without ACK: TSecr from the latest segment with ACK (T68 "
         "'latest coalesced segment with valid TSecr field', RFC 7323 §3.2; D-LRO-13), TSval "
         "from the last", C_CQE + " lro_timestamp_echo",
         [*frames([seg(seq=SEQ0, ts=(0x1000, 0x7000)), seg(seq=SEQ0 + 100, ts=(0x1001, 0x7001)),
                   seg(seq=SEQ0 + 200, flags="", ts=(0x1002, 0x7777))]), END],
         readings=[("T5: TSecr of the last coalesced segment, ACK or not", {"tsecr_last"})])
    return vf


# ---------------------------------------------------------------------------------------------
# flush.json: TIR modify and destroy, the RQ leaving RDY, the WQE's room

def gen_flush():
    vf = VFile("flush.json", "lro", [
        "Sessions ended by the configuration (PRM §3.3.6.1, §3.3.6.3 'TIR destruction or "
        "update'): MODIFY_TIR of the LRO fields and DESTROY_TIR complete the TIR's sessions "
        "before the command completes; an RQ leaving RDY completes its sessions first "
        "(D-LRO-10); a WQE too small for the next segment (§3.3.6.4: 'the LRO session is "
        "flushed and completion with error is generated', D-LRO-3). Expectations from "
        "vectors/lro/gen/lro_model.py."])
    g = group(vf, "one RQ, a Direct TIR with LRO (defaults), every frame to it",
              Setup(tirs=[{"rq": 0, "lro": {}}]))
    test(vf, g, "MODIFY_TIR turning LRO off completes the open session (tir_change); the next "
         "segment is received without LRO", "PRM §3.3.6.1 'when modifying a TIR (MODIFY_TIR) "
         "to disable LRO, the device first completes all outstanding LRO sessions', T48 bit 0",
         [*frames(stream(2)), ("modify", 0, {"enable_mask": 0}), ("check",),
          ("frame", seg(seq=SEQ0 + 200)), END])
    test(vf, g, "MODIFY_TIR changing the LRO timeout completes the open session; the next "
         "segment opens a new one", C_END + " 'TIR destruction or update', T48 bit 0",
         [*frames(stream(2)), ("modify", 0, {"enable_mask": 3, "timeout_usecs": 16}),
          ("check",), ("frame", seg(seq=SEQ0 + 200)), END])
    test(vf, g, "MODIFY_TIR with two sessions open completes both (D-LRO-10: in the order "
         "they opened)",
         C_END + " 'TIR destruction or update', D-LRO-10",
         [("frame", seg()), ("frame", seg(seq=0x900, sport=0x4321)),
          ("frame", seg(seq=SEQ0 + 100)), ("modify", 0, {"enable_mask": 0}), END],
         readings=[("the PRM orders no flush: the other order", {"flush_reversed"})])
    test(vf, g, "MODIFY_RQ to ERR with two sessions open on the RQ completes both",
         C_END + ", D-LRO-10",
         [("frame", seg()), ("frame", seg(seq=0x900, sport=0x4321)), ("rq_error", 0),
          ("check",)], posts=[2],
         readings=[("the PRM orders no flush: the other order", {"flush_reversed"}), RQ_LEAVE])
    test(vf, g, "MODIFY_RQ to ERR completes the open session first (rq_state), then the next "
         "segment is dropped (the RQ is not ready)", C_END + ", D-LRO-10, PRM §7.12.7",
         [*frames(stream(2)), ("rq_error", 0), ("check",), ("frame", seg(seq=SEQ0 + 200))],
         posts=[1], readings=[RQ_LEAVE])
    big = bytes(Ether(dst=OWN_MAC, src=PEER_MAC) / IP(src="10.0.0.1", dst="10.0.0.9") /
                UDP(sport=9, dport=9) / Raw(payload(600, 1)))
    g = group(vf, "the second WQE holds 400 bytes", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                          cap_bytes={(0, 1): 400}))
    test(vf, g, "a UDP datagram longer than its WQE (a receive error: local length, the RQ to "
         "ERR): the RQ's open session completes (rq_state) before the RQ leaves RDY, after the "
         "error completion (D-LRO-10)",
         C_END + ", D-LRO-10, PRM §7.12.7 T74 0x1",
         [*frames(stream(2)), ("frame", big)], posts=[2],
         readings=[("the session's completion first, then the error's",
                    {"rx_error_sessions_first"}), RQ_LEAVE])
    test(vf, g, "DESTROY_TIR completes the open session first (tir_change)",
         "PRM §3.3.6.1 'When a TIR that is enabled for LRO is destroyed ... the device first "
         "completes all outstanding LRO sessions ... Only then does the DESTROY_TIR command "
         "complete'", [*frames(stream(2, v6=True)), ("destroy", 0), ("check",)])
    test(vf, g, "MODIFY_RQ to RST completes the open session first (rq_state)",
         C_END + ", D-LRO-10, T57",
         [*frames(stream(2)), ("rq_error", 0, "RST"), ("check",)], posts=[1],
         readings=[RQ_LEAVE])
    st = Setup(tirs=[{"rq": 0, "lro": {}}], steer=False)
    g = group(vf, "a Direct TIR with LRO, steered by the test's own flow", st)
    flow = {"steer": {"tables": [{"name": "t0", "level": 0}],
                      "groups": [{"name": "g0", "table": "t0"}],
                      "entries": [{"table": "t0", "group": "g0", "index": 0, "action": 4,
                                   "dest": [{"tir": 0}]}]}}
    delete = {"steer": {"delete": [{"table": "t0", "index": 0}]}}
    test(vf, g, "DESTROY_TIR (its flow deleted first) completes the open session before the "
         "command completes", "PRM §3.3.6.1 'When a TIR that is enabled for LRO is destroyed "
         "... the device first completes all outstanding LRO sessions'",
         [("step", flow), *frames(stream(3)), ("step", delete), ("destroy", 0)])
    # the WQE's room (D-LRO-3)
    small = Setup(tirs=[{"rq": 0, "lro": {}}], cap_bytes={(0, 0): 400})
    g = group(vf, "the first WQE holds 400 bytes", small)
    test(vf, g, "154 + 100 + 100 = 354 bytes fit; the third payload (454) does not: a "
         "completion with error (local length), the RQ to ERR, the segment not delivered",
         C_MERGE + " 'the RQ WQE should be large enough ... otherwise the LRO session is "
         "flushed and completion with error is generated', T74 0x1, D-LRO-3",
         [*frames(stream(4)), END], posts=[2],
         readings=[("the session completes normally, the segment alone",
                    {"wqe_space_normal"})])
    return vf


# ---------------------------------------------------------------------------------------------
# limits.json: the session limit, lro_min_mss_size, the size mode, several TIRs

def gen_limits():
    vf = VFile("limits.json", "lro", [
        "Device limits (PRM §3.3.6.2 'The HW has available resources for a new LRO session', "
        "T147 lro_min_mss_size, lro_max_msg_sz_mode): the profile's lro_max_sessions "
        "(D-LRO-1), lro_min_mss_size above 1, the size limit counted from the L2 header "
        "(mode 1), sessions per TIR and RQ (D-LRO-1). Expectations from "
        "vectors/lro/gen/lro_model.py."])
    g = group(vf, "lro_max_sessions 2", Setup(tirs=[{"rq": 0, "lro": {}}],
                                              profile={"lro_max_sessions": 2}))
    flows = [seg(seq=0x100 * (k + 1), sport=0x1000 + k) for k in range(3)]
    test(vf, g, "three flows, two sessions: the third flow's segment completes alone "
         "(no_resources)", C_OPEN + " 'The HW has available resources', D-LRO-1",
         [*frames(flows), END])
    test(vf, g, "once the timer ended the two sessions, the third flow opens one",
         C_OPEN + ", D-LRO-1", [*frames(flows[:2]), ("advance", 70 * US),
                                ("frame", flows[2]), END])
    test(vf, g, "a segment of an open session still merges when no session is free",
         C_MERGE + ", D-LRO-1", [*frames(flows[:2]), ("frame", seg(seq=0x200, sport=0x1000)),
                                 END])
    g = group(vf, "one RQ, a Direct TIR with LRO (defaults)", Setup(tirs=[{"rq": 0, "lro": {}}]))
    test(vf, g, "255 segments of 6 bytes merge into one session (lro_num_seg 255, T68's 8 "
         "bits); the 256th cannot join it: the session ends and the segment opens the next one "
         "(D-LRO-6 names it max_size)", C_MERGE + ", T68 lro_num_seg",
         [("frame", s) for s in stream(256, n=6)] + [END],
         readings=[("the 256th segment completes alone", {"seg_limit_alone"})])
    g = group(vf, "lro_min_mss_size 100", Setup(tirs=[{"rq": 0, "lro": {}}],
                                                profile={"lro_min_mss_size": 100}))
    test(vf, g, "99 bytes of payload: no session (small)",
         C_OPEN + " 'Segment TCP payload size is >= HCA_CAP.lro_min_mss_size'",
         [("frame", seg(n=99)), END])
    test(vf, g, "100 bytes open a session; a 99-byte segment ends it and completes alone",
         C_OPEN + ", " + C_END + " 'Segment TCP payload size is < HCA_CAP.lro_min_mss_size'",
         [("frame", seg(n=100)), ("frame", seg(seq=SEQ0 + 100, n=99)), END])
    g = group(vf, "lro_max_msg_sz_mode 1 (from the L2 header), lro_max_msg_sz 2 (512 bytes)",
              Setup(tirs=[{"rq": 0, "lro": {"max_msg_sz": 2}}],
                    profile={"lro_max_msg_sz_mode": 1}))
    test(vf, g, "54 + 4 x 100 = 454 bytes merge; the fifth (554) does not: max_size",
         C_SIZE + " (start_from_L2_header)", [*frames(stream(5)), END])
    test(vf, g, "54 + 4 x 100 + 58 = 512 bytes exactly merge", C_SIZE,
         [*frames(stream(4) + [seg(seq=SEQ0 + 400, n=58)]), END],
         readings=[("'not exhaust': the limit itself is refused",
                    {"limit_exclusive"})])
    g = group(vf, "two RQs, two Direct TIRs with LRO, each frame to both (multi-path)",
              Setup(rqs=[{}, {}], tirs=[{"rq": 0, "lro": {}}, {"rq": 1, "lro": {}}]))
    test(vf, g, "each TIR runs its own session over the same segments (D-LRO-1)",
         C_FLOW + ", D-LRO-1, §7.11.3.6", [*frames(stream(3)), END],
         readings=[("the copies reach the TIRs in the other order (§7.11.3.6)",
                    {"tir_copies_reversed"})])
    g = group(vf, "one RQ, two Direct TIRs with LRO on it, each frame to both (multi-path)",
              Setup(tirs=[{"rq": 0, "lro": {}}, {"rq": 0, "lro": {}}]))
    test(vf, g, "sessions are per TIR (§3.3.6.1 'the TIR extracts LRO Flow IDs', D-LRO-1): "
         "the two copies of each segment go to two sessions on the one RQ, each in its own WQE",
         C_FLOW + ", D-LRO-1, §7.11.3.6", [*frames(stream(3)), END],
         readings=[("the copies reach the TIRs in the other order (§7.11.3.6)",
                    {"tir_copies_reversed"})])
    g = group(vf, "two RQs; a Direct TIR with LRO and one without, each frame to both",
              Setup(rqs=[{}, {}], tirs=[{"rq": 0, "lro": {}}, {"rq": 1}]))
    test(vf, g, "the TIR without LRO receives every segment alone while the other merges them",
         C_TIR + ", D-LRO-1, §7.11.3.6", [*frames(stream(3)), END],
         readings=[("the copies reach the TIRs in the other order (§7.11.3.6)",
                    {"tir_copies_reversed"})])
    g = group(vf, "lro_max_sessions 1; two RQs, two Direct TIRs with LRO, each frame to both",
              Setup(rqs=[{}, {}], tirs=[{"rq": 0, "lro": {}}, {"rq": 1, "lro": {}}],
                    profile={"lro_max_sessions": 1}))
    test(vf, g, "the limit is the device's (D-LRO-1): the copy that comes first opens the one "
         "session, the other TIR's copy completes alone (no_resources)",
         C_OPEN + " 'The HW has available resources', D-LRO-1, §7.11.3.6",
         [*frames(stream(2)), END],
         readings=[("the copies reach the TIRs in the other order (§7.11.3.6)",
                    {"tir_copies_reversed"})])
    return vf

"""send.json: the ctrl, Eth, data and inline segments of SEND and NOP WQEs.

Part of the independent send-path generator (gen_tx.py): nothing here comes from nicref's
output."""
from pkt import build, eth, payload
import wqe as W
from vecfmt import RawWqe, Sq, VFile, Wqe, cqe_err, cqe_ok, tx_setup
from txcommon import (CL_DATA, C_CTRL, C_DATA, C_ETH, C_INL, C_PAD, C_T41, C_VLAN, NOTES,
                      SETUP, SYN_LEN, SYN_PROT, SYN_QP_OP, S_SEND, VPORT_INLINE, l2, post, send)


INLINE_DATA_SIZES = [0, 1, 2, 3, 4, 11, 12, 13, 27, 28, 29, 60, 100, 255, 256, 511, 956]


def send_file():
    f = VFile("send.json", "tx_wqe", [
        "Send WQE formats (ConnectX-4 PRM Rev 0.40 §7.4.4.1, T25-T41): the eth segment with inline "
        "headers of every size, memory-pointer (T38) and inline (T39) data segments in any mix "
        "and size, VLAN insertion through the inline headers (§3.3.7), padding, the bytes of "
        "the frame byte for byte (no FCS), the minimum frame (§3.3.8).",
        "Written by vectors/tx/gen/gen_tx.py (vectors/tx/gen/README.md). The largest WQE is 63 "
        "octowords (DS is 6 bits, T26): 1008 bytes, so with a 14-byte inline header (eth "
        "segment 32 bytes) one inline segment holds at most 956 bytes.",
    ], NOTES)
    g = f.group("one SQ (64 WQEBBs)", SETUP + [tx_setup()])

    base = build(eth(etype=0x88B5)) + payload(50, 99)  # 64-byte inline header: frames >= 64 bytes
    for n in INLINE_DATA_SIZES:
        ihs = 64 if n < 900 else 14
        fr = base[:ihs] + payload(n, n)
        t = g.test(f"SEND with one inline data segment of {n} bytes (T39 byte_count {n}; the segment "
                   f"takes {W.inline_seg_size(n)} bytes) after {ihs} bytes of inline headers: the "
                   f"frame is the headers then the {n} bytes" + (" (byte_count 0: 'no data will be "
                                                                 "added')" if n == 0 else ""),
                   C_DATA + " T39", "valid")
        sq = Sq()
        w = Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=fr[:ihs], data=[("inline", fr[ihs:])])
        if n == 956:
            assert w.size() == 1008, w.size()
        i = post(t, sq, w)
        t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    # Fewer than the 14 bytes of the L2 header inline: the device's default inline mode (L2)
    # drops such a WQE (§7.9.3; inline_mode.json), so these run on an SQ of mode 0 ('None - no
    # inline headers are required', §7.9.3.1), which the vport allows only when its own minimum
    # is 0: a device-profile setting (T483 has no field_select bit for it).
    g0 = f.group("vport minimum 0 (profile) and SQ min_wqe_inline_mode 0: no inline header required",
                 SETUP + [tx_setup(min_wqe_inline_mode=0)], profile=VPORT_INLINE(0))
    for ihs in (0, 1, 2, 3, 14, 18, 30, 31, 32, 33, 64, 128, 256, 962):
        fr = l2(max(ihs, 100) + 20, ihs) if ihs != 18 else build(eth(vlan=(3, 100), etype=0x88B5)) + payload(102, 18)
        t = (g0 if ihs < 14 else g).test(f"SEND with inline_header_size {ihs} (eth segment of {W.eth_seg_size(ihs)} bytes), the "
                   f"rest of the {len(fr)}-byte frame by a memory pointer: headers first, then the "
                   "gathered bytes" + (" (the 18 bytes hold an 802.1Q tag: VLAN insertion, §3.3.7)"
                                       if ihs == 18 else "") +
                   (" (the largest: the eth segment fills the 63-octoword WQE less ctrl and pointer)"
                    if ihs == 962 else ""),
                   C_ETH + " inline_header_size" + ("; " + C_VLAN if ihs == 18 else "") +
                   ("; " + C_INL + " (mode 0)" if ihs < 14 else ""), "valid",
                   ["VportInline"] if ihs < 14 else [])
        sq = Sq()
        i = post(t, sq, send(fr, ihs=ihs))
        t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    fr = l2(400, 200)
    t = g.test("SEND gathering five segments: pointer (100), inline (37), pointer (1), inline (0), "
               "pointer (rest): the frame is their bytes in order", C_DATA + "; " + C_T41, "valid")
    sq = Sq()
    i = post(t, sq, send(fr, kinds=("ptr", "inline", "ptr", "inline", "ptr"), sizes=[100, 37, 1, 0]))
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    fr = l2(200, 201)
    t = g.test("SEND whose whole frame is inline headers (200 bytes) and no data segment", C_ETH + "; " + C_T41, "valid")
    sq = Sq()
    i = post(t, sq, Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=fr))
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    fr = l2(300, 202)
    t = g.test("SEND with zero-length inline segments before and after the data (§7.4.4.1.4 'SW ... "
               "can set inline segments with zero byte count to extend send WQE'): the frame is "
               "unchanged", C_DATA + " T39", "valid")
    sq = Sq()
    w = Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=fr[:14],
            data=[("inline", b""), ("ptr", fr[14:], {}), ("inline", b""), ("inline", b"")])
    i = post(t, sq, w)
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    fr = l2(300, 203)
    t = g.test("SEND with a pointer whose byte_count (100) is shorter than the bytes placed: only "
               "byte_count bytes are gathered (T38 Byte Count)", C_DATA + " T38", "valid")
    sq = Sq()
    w = Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=fr[:14],
            data=[("ptr", fr[14:] + payload(64, 9), {"byte_count": 286})])
    i = post(t, sq, w)
    t.frames([w.gathered()]).cqes([cqe_ok(i, S_SEND)])

    fr = build(eth(qinq=(5, 0x123), vlan=(2, 0x456), etype=0x88B5)) + payload(80, 204)
    t = g.test("SEND with 22 bytes of inline headers holding an 802.1ad and an 802.1Q tag (§3.3.7: "
               "'both the outer and the inner VLANs ... through VLAN insertion offload, by inlining "
               "both'): sent as posted", C_VLAN + "; " + C_ETH, "valid")
    sq = Sq()
    i = post(t, sq, send(fr, ihs=22))
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    # ----- minimum frame (§3.3.8)
    for n in (14, 15, 42, 59, 60, 61, 63, 64):
        fr = l2(n, 210 + n)
        t = g.test(f"SEND of a {n}-byte frame: " + (
            "shorter than 64 bytes, padded with trailing zeros (§3.3.8)" if n < 60 else
            "60-63 bytes: padded only if the 64 bytes are counted before the FCS" if n < 64 else
            "64 bytes: not padded under either reading"),
                   C_PAD + "; T145 pad_tx_eth_packet", "valid" if n >= 64 else "acceptable",
                   [] if n >= 64 else ["Padding"])
        sq = Sq()
        i = post(t, sq, send(fr, ihs=14, kinds=("inline",)))
        t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    # ----- raw WQEs (Handles): bytes past DS, the padding segment
    fr = l2(100, 220)
    t = g.test("SEND of DS 5 posted with garbage (0xFF) in the rest of its last WQEBB: bytes past "
               "DS are not part of the WQE (T26 DS 'WQE size in octowords'); the frame is as posted",
               C_CTRL + " DS", "valid", ["Handles"])
    sq = Sq()
    body = W.eth_seg(fr[:14]) + W.inline_seg(fr[14:])
    ds = (16 + len(body)) // 16
    raw = W.ctrl_seg(0, W.OP_SEND, 1, ds) + body
    raw = raw + b"\xff" * (W.round_up(len(raw), 64) - len(raw))
    i = post(t, sq, RawWqe(raw, "SEND"))
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    t = g.test("SEND with a padding segment (T29, 16 reserved zero bytes) after its inline data: "
               "skipped, or read as a T38 pointer of byte_count 0 (2 GB) with L_Key 0 and failed",
               C_ETH + " T29/T30; " + C_DATA + " T38", "acceptable", ["Handles", "PaddingSegment"])
    sq = Sq()
    body = W.eth_seg(fr[:14]) + W.inline_seg(fr[14:]) + bytes(16)
    raw = W.ctrl_seg(0, W.OP_SEND, 1, (16 + len(body)) // 16) + body
    i = post(t, sq, RawWqe(raw, "SEND"))
    t.frames([], readings=[("T29: the padding segment is skipped", [fr]),
                            ("T38: a 2 GB pointer, the WQE fails", [])])
    t.cqes_any([("T29: skipped", [cqe_ok(i, S_SEND)]),
                ("T38: fails", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT]})])])
    t.maybe_violation("a reserved-looking segment", CL_DATA)
    return f

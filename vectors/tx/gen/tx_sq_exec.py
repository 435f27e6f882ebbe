"""sq_exec.json: doorbells and the record, Blue Flame, the WQEBB ring, CE modes.

Part of the independent send-path generator (gen_tx.py): nothing here comes from nicref's
output."""
import wqe as W
from vecfmt import RawWqe, Sq, VFile, cqe_err, cqe_ok, sq_ring, tx_setup
from txcommon import (CL_BF, CL_OWN, CL_POST, CL_RING, CL_SIG, C_BF, C_CQE, C_CTRL, C_DATA,
                      C_ETH, C_POST, C_SIG, C_SQ, C_T41, MALFORMED, NOTES, SETUP, SYN_LEN,
                      SYN_PROT, SYN_QP_OP, S_NOP, S_SEND, bf_doorbell, l2, nop, post, send)


def sq_exec():
    f = VFile("sq_exec.json", "tx_sq", [
        "Send-queue execution (ConnectX-4 PRM Rev 0.40 §7.4.1.1, §7.4.3, §7.2.2.1, §9.2.3, T26 CE/SE/"
        "FM): doorbells and the doorbell record, Blue Flame, the WQEBB ring and its wrap, CE modes "
        "and the requester CQE (T67/T68).",
        "Written by vectors/tx/gen/gen_tx.py from the PRM and Scapy, never from nicref's output "
        "(vectors/tx/gen/README.md). tx_setup is the send-path contract's reference driver: an SQ "
        "in RDY on a CQ of 64 CQEs, flush_in_error_en 1, the data region's MKey as lkey 'data'.",
    ], NOTES)
    g = f.group("one SQ (64 WQEBBs), CQ of 64 CQEs", SETUP + [tx_setup()])

    t = g.test("NOP, CE 10: T26 'WQE with this opcode creates a completion, but does nothing "
               "else': no frame, one CQE (opcode 0 requester, s_wqe_opcode 0x00, wqe_counter 0)",
               C_CTRL + " (opcode 0x00, CE 10); " + C_CQE + "; " + C_T41, "valid")
    sq = Sq()
    i = post(t, sq, nop())
    t.no_frames().cqes([cqe_ok(i, S_NOP)])

    fr = l2(100)
    t = g.test("SEND of a 100-byte frame (14 bytes inline in the eth segment, 86 by a memory "
               "pointer), doorbell: the frame is the inline headers then the gathered bytes; one "
               "CQE (s_wqe_opcode 0x0A)", C_ETH + "; " + C_DATA + "; " + C_POST + "; " + C_CQE, "valid")
    sq = Sq()
    i = post(t, sq, send(fr))
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    t = g.test("three WQEs of 1, 6 and 1 WQEBBs posted, then one record update and one doorbell "
               "naming the last (§7.4.3.1 'post a list of WQEs together'): three frames in order, "
               "CQEs with wqe_counter 0, 1, 7", C_POST + "; " + C_SQ + "; " + C_CQE, "valid")
    sq = Sq()
    frs = [l2(64, 1), l2(300, 2), l2(65, 3)]
    ws = [send(frs[0], ring="none"), send(frs[1], kinds=("inline",), ring="none"),
          send(frs[2], ring="none")]
    idx = [post(t, sq, w) for w in ws]
    assert idx == [0, 1, 7], idx  # the 300-byte frame inline: 352 bytes, 6 WQEBBs
    t.add(sq_ring("db")).frames(frs).cqes([cqe_ok(j, S_SEND) for j in idx])

    t = g.test("the doorbell record updated without a doorbell, then the doorbell: the WQE is "
               "executed exactly once whether HW took it at the record (§7.4.3.1 'HW *may* execute "
               "WQE after the second step') or at the doorbell ('guarantees')", C_POST, "valid")
    sq = Sq()
    fr = l2(128, 4)
    i = post(t, sq, send(fr, ring="record"))
    t.add(sq_ring("db")).frames([fr]).cqes([cqe_ok(i, S_SEND)])

    t = g.test("the doorbell record updated and no doorbell: HW may execute the WQE (§7.4.3.1) "
               "or wait for the doorbell", C_POST, "acceptable", ["Record"])
    sq = Sq()
    fr = l2(128, 5)
    i = post(t, sq, send(fr, ring="record"))
    t.frames([], readings=[("§7.4.3.1: executed at the record update", [fr]),
                            ("§7.4.3.1: waits for the doorbell", [])])
    t.cqes_any([("executed at the record update", [cqe_ok(i, S_SEND)]),
                ("waits for the doorbell", [])])

    t = g.test("a WQE posted with neither record nor doorbell: HW does not own it (§7.4.3 'The "
               "WQE can be executed by the HCA only if its ownership has been passed'): no frame, "
               "no CQE", C_POST, "valid")
    sq = Sq()
    post(t, sq, send(l2(100, 6), ring="none"))
    t.no_frames().cqes([])

    t = g.test("a doorbell rung again for a WQE already executed (an old index): §7.4.3.1 'Ringing "
               "DoorBell for WQE that has already been executed makes no harm - such a DoorBell is "
               "ignored': one frame and one CQE in all", C_POST, "valid")
    sq = Sq()
    fr = l2(100, 7)
    i = post(t, sq, send(fr))
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])
    t.add(sq_ring("db")).no_frames().cqes([])

    t = g.test("a doorbell for WQE 0 written before the record passes it (record 0): the WQE is "
               "still SW's (§7.4.3), nothing is executed and the driver broke the posting order "
               "(§7.4.3.1 steps 2 then 3); the record update and a doorbell then send it once",
               C_POST + "; §7.2.2", "invalid", ["Handles", "Violation"])
    sq = Sq()
    fr = l2(100, 8)
    w = send(fr, ring="none")
    i = post(t, sq, w)
    t.add(*bf_doorbell(i, W.OP_SEND, w.size() // 16))
    t.no_frames().cqes([]).violation(CL_POST)
    t.add(sq_ring("db")).frames([fr]).cqes([cqe_ok(i, S_SEND)])

    t = g.test("Blue Flame: a SEND of 2 WQEBBs written whole to the Blue Flame buffer (and to the "
               "WQ): one frame, one CQE", C_BF + "; " + C_POST, "valid")
    sq = Sq()
    fr = l2(14 + 60, 9)
    w = send(fr, kinds=("inline",), ring="bf")
    assert w.wqebbs() == 2
    i = post(t, sq, w)
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    t = g.test("Blue Flame, doorbell, Blue Flame: three WQEs (the two Blue Flame postings use the "
               "even then the odd buffer, §7.2.2.1): three frames in order", C_BF, "valid")
    sq = Sq()
    frs = [l2(90, 10), l2(91, 11), l2(92, 12)]
    ws = [send(frs[0], ring="bf"), send(frs[1], ring="db"), send(frs[2], ring="bf")]
    idx = [post(t, sq, w) for w in ws]
    t.frames(frs).cqes([cqe_ok(j, S_SEND) for j in idx])

    t = g.test("Blue Flame with a WQE of 256 bytes, the size of a Blue Flame buffer "
               "(log_bf_reg_size 9: two 256-byte buffers per register; a WQE bigger than the "
               "buffer 'cannot be posted using BlueFlame', this one can)", C_BF, "valid")
    sq = Sq()
    # ctrl 16 + eth 32 (ihs 14) + inline segment 4 + 204 = 256
    fr = l2(14 + 204, 13)
    w = send(fr, kinds=("inline",), ring="bf")
    assert w.size() == 256, w.size()
    i = post(t, sq, w)
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    t = g.test("Blue Flame with a NOP of DS 1: §7.2.2.1 'For WQEs with DS=1, blue flame is not "
               "supported'; the NOP is also in the WQ and passed by the record, so it completes, or "
               "the device ignores the Blue Flame write", C_BF, "acceptable", ["BlueFlame"])
    sq = Sq()
    i = post(t, sq, nop(ring="bf"))
    t.no_frames().cqes_any([("executed from the WQ (the record passed it)", [cqe_ok(i, S_NOP)]),
                            ("the Blue Flame write ignored", [])])
    t.maybe_violation("Blue Flame with DS 1", CL_BF)

    for ce, what in ((0, "00: CQE only on completion with error"),
                     (1, "01: CQE only on the first completion with error")):
        t = g.test(f"SEND with CE {what}: the frame goes out, no CQE", C_CTRL + " CE", "valid")
        sq = Sq()
        fr = l2(100, 20 + ce)
        post(t, sq, send(fr, ctrl={"ce": ce}))
        t.frames([fr]).cqes([])

    t = g.test("SEND with CE 11 'Generate CQE and EQE (local Solicited event)': the frame and the "
               "CQE; the completion event may or may not follow (the CQ is not armed)",
               C_CTRL + " CE; §7.12.4", "acceptable", ["Ce3Event"])
    sq = Sq()
    fr = l2(100, 23)
    i = post(t, sq, send(fr, ctrl={"ce": 3}))
    # se is left open (the WQE's se is 0; CE 11 asks a local solicited event): it is not
    # compared. An {"in": [0, 1]} on a 1-bit field would hold for every value, and the runner
    # refuses a matcher that compares nothing.
    cqe = cqe_ok(i, S_SEND)
    del cqe["se"]
    t.frames([fr]).cqes([cqe])
    t.steps.append({"events": {"any_of": [
        {"reading": "CE 11: an EQE for the completion", "expect": [{"event": "eqe", "type": 0}], "exact": False},
        {"reading": "CE 11: the event needs the CQ armed (§7.12.4)", "expect": [], "exact": False}]}})
    t.open = True  # the completion event: either reading

    t = g.test("three SENDs with CE 00 then a NOP with CE 10: frames for the three, one CQE, for "
               "the NOP (wqe_counter 3): a driver learns the earlier ones completed",
               C_CTRL + " CE; " + C_CQE, "valid")
    sq = Sq()
    frs = [l2(70, 30), l2(71, 31), l2(72, 32)]
    for fr in frs:
        post(t, sq, send(fr, ctrl={"ce": 0}))
    i = post(t, sq, nop())
    t.frames(frs).cqes([cqe_ok(i, S_NOP)])

    t = g.test("SEND with SE 1 and CE 10: the CQE's SE bit is set (T68 'SE Solicited event')",
               C_CTRL + " SE; " + C_CQE + " se", "valid")
    sq = Sq()
    fr = l2(100, 33)
    i = post(t, sq, send(fr, ctrl={"se": 1}))
    t.frames([fr]).cqes([cqe_ok(i, S_SEND, se=1)])

    t = g.test("SEND with FM 001 (initiator small fence) after a SEND: an in-order device waits "
               "for nothing more; both frames in order, two CQEs", C_CTRL + " FM", "valid")
    sq = Sq()
    frs = [l2(100, 34), l2(100, 35)]
    i0 = post(t, sq, send(frs[0]))
    i1 = post(t, sq, send(frs[1], ctrl={"fm": 1}))
    t.frames(frs).cqes([cqe_ok(i0, S_SEND), cqe_ok(i1, S_SEND)])

    t = g.test("twenty 1-WQEBB SENDs on a 64-WQEBB ring: wqe_counter counts on (it wraps at "
               "0xFFFF, not at the ring size); twenty frames, CQEs 0-19", C_SQ + "; " + C_CQE, "valid")
    sq = Sq()
    frs = [l2(64 + k, 40 + k) for k in range(20)]
    idx = [post(t, sq, send(fr)) for fr in frs]
    assert idx == list(range(20))
    t.frames(frs).cqes([cqe_ok(j, S_SEND) for j in idx])

    # ----- a small ring: wrap
    g2 = f.group("SQ of 8 WQEBBs (log_sq_size 3): the ring wraps", SETUP + [tx_setup(log_sq_size=3)])
    t = g2.test("seven NOPs (WQEBBs 0-6), then a SEND of 2 WQEBBs at index 7: it spans the end of "
                "the buffer (WQEBB 7, then 0) (§7.4.1.1 'WQE can wrap around the Send WQ'): the "
                "frame is whole", C_SQ + " Figure 14", "valid")
    sq = Sq()
    for _ in range(7):
        post(t, sq, nop(ce=0))
    fr = l2(14 + 60, 50)
    w = send(fr, kinds=("inline",))
    assert w.wqebbs() == 2
    i = post(t, sq, w)
    assert i == 7
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    t = g2.test("six NOPs, then a SEND of 4 WQEBBs through Blue Flame at index 6 (WQEBBs 6, 7, 0, "
                "1 in the WQ): the frame is whole", C_SQ + "; " + C_BF, "valid")
    sq = Sq()
    for _ in range(6):
        post(t, sq, nop(ce=0))
    fr = l2(14 + 180, 51)
    w = send(fr, kinds=("inline",), ring="bf")
    assert w.wqebbs() == 4
    i = post(t, sq, w)
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    t = g2.test("twenty SENDs of 1 WQEBB around a ring of 8 (two and a half laps), each rung at "
                "once: twenty frames, CQEs with wqe_counter 0-19", C_SQ + "; " + C_CQE, "valid")
    sq = Sq()
    frs = [l2(80, 60 + k) for k in range(20)]
    idx = [post(t, sq, send(fr)) for fr in frs]
    t.frames(frs).cqes([cqe_ok(j, S_SEND) for j in idx])

    t = g2.test("nine NOPs of 1 WQEBB posted on a ring of 8 before one record update and doorbell: "
                "the ninth overwrote the first (§7.4.1.1: the SQ holds 2^log_sq_size WQEBBs), and "
                "the record is 9 WQEBBs ahead of the device; what the device then executes is not "
                "said", C_SQ + "; " + C_POST, "acceptable", ["Overfill", "Violation"])
    sq = Sq()
    for _ in range(9):
        post(t, sq, nop(ring="none"))
    t.add(sq_ring("db")).no_frames()
    t.steps.append({"cqes": {"any_of": [
        {"reading": "nothing executed", "expect": [], "exact": True},
        {"reading": "some of the ring executed", "expect": [], "exact": False}]}})
    t.open = True
    t.violation(CL_RING)

    t = g.test("a NOP whose DS (5) spans 2 WQEBBs, posted as its first WQEBB only (the record "
               "counts 1): the WQE's second WQEBB was never passed to HW (§7.4.3 'The WQE can be "
               "executed by the HCA only if its ownership has been passed'): it is not executed, "
               "or it is refused", C_POST + "; " + C_CTRL + " DS", "acceptable",
               ["Handles", "Ownership", "Violation"])
    sq = Sq()
    pad = W.inline_seg(b"") * 3  # zero-length inline segments pad a NOP (§7.2.2.1)
    i = post(t, sq, RawWqe(W.ctrl_seg(0, W.OP_NOP, 1, 5) + pad, "NOP"))
    t.no_frames().cqes_any([("not executed: the WQE is not wholly HW's", []),
                            ("refused", [cqe_err(i, MALFORMED)])])
    t.violation(CL_OWN)

    # ----- signatures
    g3 = f.group("SQ with wq_signature 1 (§9.2.3)", SETUP + [tx_setup(wq_signature=1)])
    t = g3.test("SEND with the signature the runner computes: the check passes, the frame goes out",
                C_SIG, "valid")
    sq = Sq()
    fr = l2(100, 70)
    i = post(t, sq, send(fr))
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    # raw WQEs signed by hand: NOP at index 0, then the SEND at index 1 on SQ 1 (see wqe.signature)
    fr = l2(100, 71)
    for good in (True, False):
        t = g3.test(("SEND at index 1 signed by hand: the XOR of the WQE, the SQ number (1) and the "
                     "index (1) is 0xFF" if good else
                     "SEND at index 1 whose signature is off by 0x5A: the check fails; no frame"),
                    C_SIG, "valid" if good else "acceptable",
                    ["Handles"] if good else ["Handles", "Signature", "Violation"])
        sq = Sq()
        post(t, sq, nop())  # signed by the runner
        body = W.eth_seg(fr[:14]) + W.inline_seg(fr[14:])
        ds = (16 + len(body)) // 16
        raw = W.ctrl_seg(1, W.OP_SEND, 1, ds) + body
        s = W.signature(raw, 1, 1)
        raw = raw[:8] + bytes([s if good else s ^ 0x5A]) + raw[9:]
        i = post(t, sq, RawWqe(raw, "SEND"))
        if good:
            t.frames([fr]).cqes([cqe_ok(0, S_NOP), cqe_ok(i, S_SEND)])
        else:
            t.no_frames().cqes_any([
                ("§9.2.3: a failed check completes the WQE in error",
                 [cqe_ok(0, S_NOP), cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT]})]),
                ("§9.2.3: a failed check drops the WQE", [cqe_ok(0, S_NOP)])])
            t.violation(CL_SIG)
    return f

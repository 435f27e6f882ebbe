"""errors.json: send WQEs that complete in error, and the port MTU at its boundary.

Part of the independent send-path generator (gen_tx.py): nothing here comes from nicref's
output."""
import pkt
from pkt import build, payload
import wqe as W
from vecfmt import RawWqe, Sq, VFile, Wqe, cqe_err, cqe_ok, sq_ring, tx_setup
from txcommon import (CL_CTRL, CL_DATA, CL_ETH, CL_MTU, CL_OWN, CL_T41, C_CTRL, C_DATA, C_ERR,
                      C_ETH, C_LKEY, C_PAD, C_POST, C_SQERR, C_T41, C_VLAN, MALFORMED, NOTES, SETUP,
                      SYN_FLUSH, SYN_LEN, SYN_PROT, SYN_QP_OP, S_SEND, VPORT_INLINE,
                      bf_doorbell, l2, nop, post, query_sq, send)
from tx_csum import tcp4


def errors_file():
    f = VFile("errors.json", "tx_errors", [
        "Send WQEs completing in error (ConnectX-4 PRM Rev 0.40 §7.12.7 T73/T74, T26 CE, §7.9.2, "
        "T41): local protection (an L_Key that does not exist, an address outside the MKey), "
        "local length, malformed WQEs, the SQ moving to ERR and the WQEs after the error flushed "
        "(Work_Request_Flushed_Error 0x5), with and without flush_in_error_en, every CE mode.",
        "The port MTU at its boundary (§11.1.1 T106, set through PMTU): untagged, with one and two "
        "tags and with three, at the MTU and one byte over (decision D-TX-6, docs/tx.md).",
        "Written by vectors/tx/gen/gen_tx.py (vectors/tx/gen/README.md).",
    ], NOTES)
    g = f.group("one SQ, flush_in_error_en 1", SETUP + [tx_setup()])
    bad_lkey = 0x00ABCD42

    def bad_ptr(fr):
        return Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=fr[:14],
                   data=[("ptr", fr[14:], {"lkey": bad_lkey})])

    fr = l2(100, 300)
    t = g.test("SEND whose pointer names an L_Key no MKey has (0xABCD42): Local_Protection_Error "
               "(0x4), no frame; the SQ moves to ERR (QUERY_SQ state 3)",
               C_ERR + " 0x4; " + C_SQERR + "; " + C_LKEY, "invalid", ["Violation", "Handles"])
    sq = Sq()
    i = post(t, sq, bad_ptr(fr))
    t.no_frames().cqes([cqe_err(i, SYN_PROT, S_SEND)]).violation(CL_DATA)
    t.add(query_sq(3))

    t = g.test("SEND whose pointer lies past the end of the data MKey (0x40100000): "
               "Local_Protection_Error, no frame", C_ERR + " 0x4; PRM §6.4; " + C_LKEY, "invalid", ["Violation"])
    sq = Sq()
    i = post(t, sq, Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=fr[:14],
                        data=[("ptr", fr[14:], {"addr": 0x40100000 - 16})]))
    t.no_frames().cqes([cqe_err(i, SYN_PROT, S_SEND)]).violation(CL_DATA)

    for ce in range(4):
        what = ["CQE only on error", "CQE only on the first error", "CQE always", "CQE and event"][ce]
        t = g.test(f"SEND with a bad L_Key and CE {ce:02b} ({what}): the error CQE is written "
                   "whatever the CE mode (it is the first error)", C_CTRL + " CE; " + C_ERR + "; " + C_LKEY,
                   "invalid" if ce != 3 else "acceptable",
                   ["Violation"] + (["Ce3Event"] if ce == 3 else []))
        sq = Sq()
        w = bad_ptr(fr)
        w.ctrl["ce"] = ce
        i = post(t, sq, w)
        t.no_frames().cqes([cqe_err(i, SYN_PROT, S_SEND)])
        if ce == 3:
            t.open = True
            t.steps.append({"events": {"any_of": [
                {"reading": "CE 11: an EQE for the completion", "expect": [{"event": "violation", "clause": CL_DATA}, {"event": "eqe", "type": 0}], "exact": False},
                {"reading": "CE 11: the event needs the CQ armed (§7.12.4)", "expect": [{"event": "violation", "clause": CL_DATA}], "exact": False}]}})
        else:
            t.violation(CL_DATA)

    t = g.test("a bad WQE then two good WQEs, all rung together (CE 10): the error CQE, then a "
               "flush CQE (0x5) for each later WQE (flush_in_error_en: 'flush in error WQEs that "
               "were posted'); no frame at all", C_SQERR + " 0x5; " + C_LKEY, "invalid", ["Violation"])
    sq = Sq()
    w0 = bad_ptr(fr)
    w0.ring = "none"
    i0 = post(t, sq, w0)
    i1 = post(t, sq, send(l2(100, 301), ring="none"))
    i2 = post(t, sq, nop(ring="none"))
    t.add(sq_ring("db")).no_frames().cqes([cqe_err(i0, SYN_PROT, S_SEND), cqe_err(i1, SYN_FLUSH), cqe_err(i2, SYN_FLUSH)]).violation(CL_DATA)

    t = g.test("a WQE posted after the SQ went to ERR: flushed (§7.12.7 'subsequent WQEs posted to "
               "the RQ/SQ will result in reporting a completion with error (flushed)'), no frame",
               C_SQERR + "; " + C_LKEY, "invalid", ["Violation"])
    sq = Sq()
    i0 = post(t, sq, bad_ptr(fr))
    t.no_frames().cqes([cqe_err(i0, SYN_PROT, S_SEND)]).violation(CL_DATA)
    i1 = post(t, sq, send(l2(100, 302)))
    t.no_frames().cqes([cqe_err(i1, SYN_FLUSH)])

    t = g.test("good SEND (CE 00, no CQE), bad SEND (CE 00), SEND (CE 00) rung together: a frame for "
               "the first, the error CQE for the second (CE 00 writes CQEs on error), a flush CQE for "
               "the third", C_CTRL + " CE 00; " + C_SQERR + "; " + C_LKEY, "invalid", ["Violation"])
    sq = Sq()
    fa = l2(100, 303)
    wa = send(fa, ctrl={"ce": 0}, ring="none")
    wb = bad_ptr(fr)
    wb.ctrl["ce"], wb.ring = 0, "none"
    wc = send(l2(100, 304), ctrl={"ce": 0}, ring="none")
    ia, ib, ic = post(t, sq, wa), post(t, sq, wb), post(t, sq, wc)
    t.add(sq_ring("db")).frames([fa]).cqes([cqe_err(ib, SYN_PROT, S_SEND), cqe_err(ic, SYN_FLUSH)]).violation(CL_DATA)

    t = g.test("bad SEND (CE 01) then a SEND (CE 01) rung together: the first error's CQE; the "
               "flushed WQE's CQE is suppressed by CE 01, or written (§7.12.7 'every WQE that "
               "completes in error')", C_CTRL + " CE 01; " + C_ERR + "; " + C_LKEY, "acceptable", ["Violation", "CeError"])
    sq = Sq()
    wb = bad_ptr(fr)
    wb.ctrl["ce"], wb.ring = 1, "none"
    ib = post(t, sq, wb)
    ic = post(t, sq, send(l2(100, 305), ctrl={"ce": 1}, ring="none"))
    t.add(sq_ring("db")).no_frames()
    t.cqes_any([("T26 CE 01: no CQE after an error CQE", [cqe_err(ib, SYN_PROT, S_SEND)]),
                ("§7.12.7: every WQE completing in error", [cqe_err(ib, SYN_PROT, S_SEND), cqe_err(ic, SYN_FLUSH)])])
    t.violation(CL_DATA)

    # malformed WQEs
    def malformed(comment, w, cite, clause, flags=("SyndromeOpen", "Violation"), doorbell=False):
        """doorbell: the WQE names another index or SQ in its first 8 bytes, which are the
        doorbell (§7.2.2 'the first 8 bytes of the WQE (that contains post counter, DS and SQ
        number)'): it is posted with the record only and the doorbell for SQ 1 at its index is
        written by hand, so that the SQ it sits on sees it."""
        t = g.test(comment, cite, "acceptable", list(flags) + (["Handles"] if doorbell else []))
        sq = Sq()
        if doorbell:
            w.ring = "record"
        i = post(t, sq, w)
        if doorbell:
            t.add(*bf_doorbell(i, W.OPCODE_NAMES.get(w.opcode, w.opcode), w.size() // 16))
        t.no_frames().cqes([cqe_err(i, MALFORMED)]).violation(clause)
        return t

    def past_ds(body, ds):
        """A SEND whose DS is `ds`, posted as the ds octowords the DS covers (T26 'WQE size in
        octowords'): what the segments hold past them is not part of the WQE and is not posted,
        so the device meets one WQE whose segment claims more than its DS."""
        return RawWqe((W.ctrl_seg(0, W.OP_SEND, 1, ds) + body)[:ds * 16], "SEND")

    malformed("WQE with opcode 0x0B, which T26 does not define: completes in error, no frame",
              Wqe(11, ctrl={"ce": 2}, eth={}, inline_header=fr[:14], data=[("ptr", fr[14:], {})]),
              C_CTRL + " OPCODE; " + C_ERR, CL_CTRL)
    malformed("SEND with DS 0 (T26 DS 'accounts for all the segments'; a WQE has at least its ctrl "
              "segment): completes in error", send(fr, ctrl={"ds": 0}), C_CTRL + " DS; " + C_ERR, CL_CTRL)
    malformed("SEND with DS 1: the ctrl segment alone, without the eth segment T41 marks mandatory "
              "for Send", send(fr, ctrl={"ds": 1}), C_T41 + "; " + C_ERR, CL_T41)
    fr314 = l2(314, 306)
    malformed("SEND whose inline data segment (300 bytes) runs past its DS (5): T39 'byte_count "
              "should not exceed the WQE length beyond that specified in the DS'; the 5 octowords "
              "are posted (ctrl, eth, the first 32 bytes of the inline segment)",
              past_ds(W.eth_seg(fr314[:14]) + W.inline_seg(fr314[14:]), 5), C_DATA + " T39; " + C_ERR,
              CL_DATA, flags=("SyndromeOpen", "Violation", "Handles"))
    malformed("SEND whose inline_header_size (200) runs past its DS (4): the 4 octowords are posted "
              "(ctrl and the first 48 bytes of the eth segment)",
              past_ds(W.eth_seg(l2(200, 307)), 4), C_ETH + "; " + C_ERR, CL_ETH,
              flags=("SyndromeOpen", "Violation", "Handles"))
    malformed("SEND with mss 100 (T28 mss 'Must be 0 on non LSO WQEs')",
              send(tcp4(n=300, seed=30), ihs=54, eth_f={"mss": 100}), C_ETH + " mss; " + C_ERR, CL_ETH)
    malformed("SEND whose ctrl names another SQ (sq_number 0x7777; T26 'SQ number this WQE is "
              "posted to'), rung by a doorbell for SQ 1 at its index",
              send(fr, ctrl={"sq_number": 0x7777}), C_CTRL + " SQ number; " + C_ERR, CL_CTRL, doorbell=True)
    malformed("NOP with an eth segment and a data segment (T41: a NOP is the ctrl segment alone)",
              Wqe("NOP", ctrl={"ce": 2}, eth={}, inline_header=fr[:14], data=[("ptr", fr[14:], {})]),
              C_T41 + "; " + C_ERR, CL_T41)
    malformed("SEND at WQEBB 0 whose ctrl says wqe_index 5 (T26 WQE Index 'WQEBB number of the first "
              "block of this WQE'), rung by a doorbell for index 0 of SQ 1",
              send(fr, ctrl={"wqe_index": 5}), C_CTRL + " WQE Index; " + C_ERR, CL_CTRL, doorbell=True)

    t = g.test("SEND with FM 010, which T26 does not define (000 no fence, 001 initiator small "
               "fence): run as a fence (an in-order device waits for nothing) or refused",
               C_CTRL + " FM", "acceptable", ["FenceOpen", "Violation"])
    sq = Sq()
    fr2 = l2(100, 310)
    i = post(t, sq, send(fr2, ctrl={"fm": 2}))
    t.frames([], readings=[("run as a fence", [fr2]), ("refused", [])])
    t.cqes_any([("run as a fence", [cqe_ok(i, S_SEND)]), ("refused", [cqe_err(i, MALFORMED)])])
    t.violation(CL_CTRL)

    for comment, w, cl, cite in (
            ("SEND of 10000 bytes, more than any port MTU", send(l2(10000, 308)), CL_MTU,
             "; PRM §11.1.1 T106 oper_mtu ('Packets exceeding this size will be dropped')"),
            ("SEND whose pointer has byte_count 0: 2 GB (T38 'A byte count value of zero means "
             "2Gbyte'), above log_max_msg (1 GB) and the MKey", Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=fr[:14],
                                                                     data=[("ptr", fr[14:], {"byte_count": 0})]),
             CL_DATA, "")):
        t = g.test(comment + ": the frame is not sent as such; refused in error or dropped",
                   C_ERR + " 0x1; " + C_DATA + cite, "acceptable", ["LengthOpen"])
        sq = Sq()
        i = post(t, sq, w)
        t.no_frames()
        t.cqes_any([("refused: completion with error", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT]})]),
                    ("dropped, the WQE completes", [cqe_ok(i, S_SEND)])])
        t.maybe_violation("a message the port cannot carry", cl)

    g2 = f.group("one SQ, flush_in_error_en 0", SETUP + [tx_setup(flush_in_error_en=0)])
    t = g2.test("without flush_in_error_en: a bad WQE then a good one rung together: the error CQE; "
                "the second is flushed or left ('not forced to flush'); no frame either way",
                C_SQERR + "; " + C_LKEY, "acceptable", ["Violation", "NoFlush"])
    sq = Sq()
    w0 = bad_ptr(fr)
    w0.ring = "none"
    i0 = post(t, sq, w0)
    i1 = post(t, sq, send(l2(100, 309), ring="none"))
    t.add(sq_ring("db")).no_frames()
    t.cqes_any([("not flushed", [cqe_err(i0, SYN_PROT, S_SEND)]),
                ("flushed all the same", [cqe_err(i0, SYN_PROT, S_SEND), cqe_err(i1, SYN_FLUSH)])])
    t.violation(CL_DATA)

    g3 = f.group("vport minimum 0 (profile) and SQ min_wqe_inline_mode 0: no inline header required",
                 SETUP + [tx_setup(min_wqe_inline_mode=0)], profile=VPORT_INLINE(0))
    t = g3.test("SEND of nothing: no inline header (inline_header_size 0) and no data segment (DS 2: "
                "ctrl and eth). §7.4.4.1.4 lets a request have 'zero data', but an Ethernet frame of "
                "no bytes has no header to send and §3.3.8 pads a frame, it does not make one: "
                "refused with Local_Length_Error, completed with no frame, or a frame of padding only",
                C_DATA + " ('To send a request with zero data'); " + C_PAD + "; " + C_ERR,
                "acceptable", ["VportInline", "EmptySend"])
    sq = Sq()
    i = post(t, sq, Wqe("SEND", ctrl={"ce": 2}, eth={}))
    t.frames([], readings=[("refused or completed without a frame", []),
                            ("a frame of padding only", [bytes(60)])])
    t.cqes_any([("refused: Local_Length_Error", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP]}, S_SEND)]),
                ("completed", [cqe_ok(i, S_SEND)])])
    t.maybe_violation("nothing to send", CL_DATA)

    mtu_group(f)
    flush_past_record_group(f, bad_ptr, fr)
    return f


def flush_past_record_group(f, bad_ptr, fr):
    """A flush that meets a WQE the record covers only in part (its own group, at the end of
    the file, so that the earlier tests keep their numbers)."""
    g = f.group("one SQ, flush_in_error_en 1: a flush meets a WQE the record covers in part",
                SETUP + [tx_setup()])
    t = g.test("a bad SEND (ERR) then a NOP whose DS (5) spans 2 WQEBBs, posted as its first "
               "WQEBB only (record 2), rung together; then its second WQEBB and a NOP at 3 "
               "(record 4) rung: the NOP of DS 5 is flushed once, as one WQE at WQEBB 1 (T26 DS: "
               "'WQE size in octowords', §7.4.1.1: a WQE takes ceil(DS/4) WQEBBs), whether the "
               "first flush waits for the record to cover it (§7.4.3, decision D-SQ-5) or takes "
               "it whole at once; the NOP at 3 is flushed; nothing starts at WQEBB 2, the middle "
               "of the first NOP. No frame",
               C_SQERR + " 0x5; " + C_POST + "; " + C_CTRL + " DS; " + C_LKEY, "acceptable",
               ["Violation", "Handles", "FlushOwnership"])
    sq = Sq()
    w0 = bad_ptr(fr)
    w0.ring = "none"
    i0 = post(t, sq, w0)
    pad = W.inline_seg(b"") * 3  # zero-length inline segments pad a NOP (§7.2.2.1)
    i1 = post(t, sq, RawWqe(W.ctrl_seg(1, W.OP_NOP, 1, 5) + pad, "NOP"))
    assert (i0, i1, sq.pc) == (0, 1, 2)
    t.no_frames()
    t.open = True
    t.steps.append({"events": {"any_of": [
        {"reading": "the bad L_Key, then the record inside the NOP of DS 5 (D-SQ-5, D-TX-3)",
         "expect": [{"event": "violation", "clause": CL_DATA}, {"event": "violation", "clause": CL_OWN}],
         "exact": False},
        {"reading": "the bad L_Key only", "expect": [{"event": "violation", "clause": CL_DATA}],
         "exact": False}]}})
    # the NOP's fifth octoword (one more zero-length inline segment) and the rest of WQEBB 2
    post(t, sq, RawWqe(W.inline_seg(b"") + bytes(48), "NOP", ring="none"))
    i3 = post(t, sq, nop())
    assert (sq.pc, i3) == (4, 3)
    t.no_frames().cqes([cqe_err(i0, SYN_PROT, S_SEND), cqe_err(i1, SYN_FLUSH), cqe_err(i3, SYN_FLUSH)])


# ----- the port MTU at its boundary (PRM §11.1.1 T106)
# The MTU is set through PMTU (§11.1.1 T106), not the NIC vport context's mtu (§7.3 T16):
# T106 is the clause that says what a larger packet gets ('Packets exceeding this size will be
# dropped'); T16's mtu is only 'MTU size required for Vport' ('In query, 0 means MTU of Vport
# equal to external physical port') and its value before a MODIFY is the device's. It is left
# alone: a device's vport whose mtu is 0 (the port's) or the usual 1500 leaves the port's
# MTU_SET (below 1500) the one that binds, and D-TX-6 takes the smaller of the two.
# admin_mtu is written while the link is down and the link then brought up (PAOS T110,
# admin_status with ase): oper_mtu, 'the actual MTU configured', follows admin_mtu at once
# (D-REG-5) or at the next link-up (vectors/reg/pmtu.json lists both), so after the link-up it
# is MTU_SET under either reading, and the setup reads it back to make sure.
# What the MTU counts: T106 does not say. An MTU is the largest datagram the link carries
# (RFC 791; RFC 894: an IP datagram on Ethernet is the 'data field' after the 14-byte header,
# at most 1500 octets), not the frame: an untagged frame whose data field is MTU_SET bytes is
# sent, one byte more is dropped (D-REG-5, D-TX-6). Whether 802.1Q/802.1ad tags count as data
# is not said: D-TX-6 counts up to two tags as L2 (the tags the device parses, D-TXO-6) and a
# third as L3 payload; other readings: every tag is L2, or the tags count. Frames the readings
# decide are `acceptable` with each reading listed.
MTU_SET = 1000
PMTU_ID, PAOS_ID = "0x5003", "0x5006"


def access_reg(reg, layout, op_mod, fields=None, out=None):
    """ACCESS_REGISTER (PRM §12.4.1 T221-T224) of a port register on local_port 1 (D-REG-4)."""
    exp = {"status": "OK", "syndrome": 0}
    if out is not None:
        exp["output"] = {"layout": f"access_reg_{layout}_out", "fields": out}
    f = {"opcode": "ACCESS_REG", "op_mod": op_mod, "register_id": reg, "local_port": 1}
    f.update(fields or {})
    return {"command": {"layout": f"access_reg_{layout}_in", "fields": f, "output_length": "0x20",
                        "expect": exp}}


def port_mtu(mtu):
    """The group setup's steps that leave the port's oper_mtu at `mtu` under both readings of
    when it follows admin_mtu (D-REG-5): the link down (PAOS admin_status 2, 'Down by
    configuration', with ase), admin_mtu written (T106), the link up (admin_status 1), then
    PMTU read back. The link partner is present in vectors, so admin up is link up (T110)."""
    return [access_reg(PAOS_ID, "paos", 0, {"admin_status": 2, "ase": 1}),
            access_reg(PMTU_ID, "pmtu", 0, {"admin_mtu": mtu}),
            access_reg(PAOS_ID, "paos", 0, {"admin_status": 1, "ase": 1}),
            access_reg(PMTU_ID, "pmtu", 1, out={"admin_mtu": mtu, "oper_mtu": mtu}),
            access_reg(PAOS_ID, "paos", 1, out={"oper_status": 1})]


def mtu_frame(tags, data, seed):
    """A frame with `tags` (pkt.eth_tags) and `data` bytes after the last tag's EtherType
    (88B5h, local experimental: no protocol of its own the device could parse further)."""
    return build(pkt.eth_tags(tags, 0x88B5)) + payload(data, seed)


def mtu_group(f):
    g = f.group(f"one SQ, the port MTU {MTU_SET} (PMTU admin_mtu with the link brought down and up, "
                "read back: oper_mtu " + str(MTU_SET) + ")",
                SETUP + port_mtu(MTU_SET) + [tx_setup()])
    C_MTU = "PRM §11.1.1 T106 oper_mtu ('Packets exceeding this size will be dropped'), §11.1.3 T110"
    QTAG, STAG = ("q", 0, 5), ("ad", 0, 100)

    def drop_events(t, i):
        """D-TX-6: the frame over the MTU is dropped with the driver violation TX_FRAME_OVER_MTU
        (matched by its clause, §11.1.1) and a tx_discard (reason 2, over the MTU: docs/tx.md
        "Events", in the order that table gives: violations, then the drop); another device
        may report no violation."""
        t.open = True
        t.steps.append({"events": {"any_of": [
            {"reading": "D-TX-6: over the MTU, a driver violation, then the drop",
             "expect": [{"event": "violation", "clause": CL_MTU},
                        {"event": "tx_discard", "wqe_counter": i, "reason": 2}], "exact": False},
            {"reading": "not a driver violation", "expect": [], "exact": False}]}})

    def completes(t, i):
        """§11.1.1 says the packet is dropped, not how the WQE ends: it completes (D-TX-6) or
        completes in error (T74 0x1 Local_Length_Error, or 0x2 / 0x4 as errors.json's
        10000-byte SEND lists)."""
        t.cqes_any([("D-TX-6: dropped, the WQE completes", [cqe_ok(i, S_SEND)]),
                    ("dropped and completed in error", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT]})])])

    def l3(tags, data):
        """D-TX-6's L3 payload: what follows the Ethernet header and the first two tags."""
        return data + 4 * max(0, len(tags) - 2)

    # untagged: pinned at the boundary, one byte over dropped
    fr = mtu_frame((), MTU_SET, 320)
    t = g.test(f"untagged SEND whose data field (after the 14-byte Ethernet header) is exactly the "
               f"MTU ({MTU_SET} bytes, a {len(fr)}-byte frame): not over the MTU, sent as posted "
               "(an MTU counts the datagram, RFC 894, not the Ethernet header: D-REG-5, D-TX-6)",
               C_MTU + "; decisions D-REG-5, D-TX-6", "valid")
    sq = Sq()
    i = post(t, sq, send(fr))
    t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    fr = mtu_frame((), MTU_SET + 1, 321)
    t = g.test(f"untagged SEND whose data field is the MTU + 1 ({MTU_SET + 1} bytes): exceeds "
               "oper_mtu, dropped (no frame); the WQE completes (D-TX-6) or completes in error",
               C_MTU + "; " + C_ERR + "; decision D-TX-6", "acceptable", ["MtuDrop"])
    sq = Sq()
    i = post(t, sq, send(fr))
    t.no_frames()
    completes(t, i)
    drop_events(t, i)

    # tagged at the boundary: the readings differ; one byte over: dropped by every reading
    for tags, what, seed in (((QTAG,), "one 802.1Q tag", 322),
                             ((STAG, QTAG), "two tags (802.1ad outer, 802.1Q inner)", 324)):
        ihs = 14 + 4 * len(tags)  # the whole L2 header inline (§7.9.3.1 L2: to the last EtherType)
        fr = mtu_frame(tags, MTU_SET, seed)
        t = g.test(f"SEND of a frame with {what} whose L3 payload (after the {ihs}-byte L2 header) "
                   f"is exactly the MTU ({MTU_SET}; a {len(fr)}-byte frame): D-TX-6 leaves up to two "
                   "tags out of the MTU, so it is sent as posted; a device that counts the tags "
                   "(T106 does not say) drops it",
                   C_MTU + "; " + C_VLAN + "; decision D-TX-6", "acceptable", ["MtuTags"])
        sq = Sq()
        i = post(t, sq, send(fr, ihs=ihs))
        t.frames([fr], readings=[("D-TX-6: up to two tags are L2: sent", [fr]),
                                 ("the tags count: over the MTU, dropped", [])])
        t.cqes_any([("sent, or dropped and the WQE completes (D-TX-6)", [cqe_ok(i, S_SEND)]),
                    ("the tags count: dropped and completed in error",
                     [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT]})])])
        drop_events(t, i)

        fr = mtu_frame(tags, MTU_SET + 1, seed + 1)
        t = g.test(f"SEND of a frame with {what} whose L3 payload is the MTU + 1 ({MTU_SET + 1}): "
                   "over the MTU whether the tags count or not: dropped (no frame); the WQE "
                   "completes (D-TX-6) or completes in error",
                   C_MTU + "; " + C_VLAN + "; " + C_ERR + "; decision D-TX-6", "acceptable", ["MtuDrop"])
        sq = Sq()
        i = post(t, sq, send(fr, ihs=ihs))
        t.no_frames()
        completes(t, i)
        drop_events(t, i)

    # three tags: D-TX-6 counts the third as L3 payload (MTU + 4, dropped); if every tag is L2,
    # the payload after the third is exactly the MTU (sent)
    tags = (STAG, QTAG, ("q", 0, 7))
    fr = mtu_frame(tags, MTU_SET, 326)
    assert l3(tags, MTU_SET) == MTU_SET + 4
    t = g.test(f"SEND of a frame with three tags (802.1ad, 802.1Q, 802.1Q; all 26 bytes of L2 "
               f"inline) and {MTU_SET} bytes after the third ({len(fr)} bytes): D-TX-6 parses two "
               f"tags, so the third is L3 payload ({MTU_SET + 4} bytes, over the MTU): dropped; if "
               f"every tag is L2 the L3 payload is exactly the MTU: sent",
               C_MTU + "; " + C_VLAN + "; decision D-TX-6", "acceptable", ["MtuTags"])
    sq = Sq()
    i = post(t, sq, send(fr, ihs=26))
    t.frames([], readings=[("D-TX-6: the third tag is L3 payload: over the MTU, dropped", []),
                           ("every tag is L2: L3 payload = MTU, sent", [fr])])
    t.cqes_any([("dropped and the WQE completes (D-TX-6), or sent", [cqe_ok(i, S_SEND)]),
                ("dropped and completed in error", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT]})])])
    drop_events(t, i)

#!/usr/bin/python3
"""Independent generator of the send-path golden vectors (vectors/tx/*.json).

    /usr/bin/python3 vectors/tx/gen/gen_tx.py [--check]

Writes sq_exec.json, send.json, csum.json, lso.json, umr.json, errors.json, inline_mode.json
and counters.json beside this folder; --check compares instead of writing (exit 1 on a
difference). Every expected frame is built with Scapy (pkt.py), every raw WQE and CQE field
from ConnectX-4 PRM Rev 0.40 tables (wqe.py, vecfmt.py); nothing comes from nicref's output.
Each test's comment says what is sent and why the expectation is the answer; `cite` names
the clause. Where the PRM allows more than one response the test lists every reading
(`any_of`, `in`) and is `acceptable`.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pkt  # noqa: E402
from pkt import (ARP, ICMP, IP, TCP, UDP, DST4, DST6, HOP4A, HOP4B, HOP6, SRC4, SRC6,  # noqa: E402
                 IPOption_LSRR, IPOption_NOP, IPOption_RR, IPOption_SSRR, IPv6,
                 IPv6ExtHdrDestOpt, IPv6ExtHdrHopByHop, IPv6ExtHdrRouting, Raw, build, eth,
                 payload)
import wqe as W  # noqa: E402
from vecfmt import (RawWqe, Sq, VFile, Wqe, cqe_err, cqe_ok, sq_ring, tx_setup)  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# What each offload expectation was derived from, for the self-check (test_gen_tx.py) to
# derive again by hand: ("offload", posted, l3cs, l4cs, reading, frame) and
# ("lso", posted, hdr_len, mss, cwr_reading, frames).
DERIVED = []
OUT = os.path.dirname(HERE)

# ---------------------------------------------------------------------------------------------
# Citations (ConnectX-4 PRM Rev 0.40)
C_CTRL = "PRM §7.4.4.1.1 T25/T26"
C_ETH = "PRM §7.4.4.1.2 T27/T28"
C_DATA = "PRM §7.4.4.1.4 T38/T39"
C_T41 = "PRM §7.4.4.2 T41"
C_SQ = "PRM §7.4.1.1"
C_POST = "PRM §7.4.3, §7.4.3.1"
C_BF = "PRM §7.2.2, §7.2.2.1"
C_CQE = "PRM §7.12.1.1 T67/T68"
C_ERR = "PRM §7.12.7 T73/T74"
C_SQERR = "PRM §7.9.2, T61 flush_in_error_en, T63, §7.12.7"
C_CSUM = "PRM §3.3.1, T28 l3cs/l4cs"
C_LSO = "PRM §3.3.2, T28 mss"
C_PAD = "PRM §3.3.8"
C_VLAN = "PRM §3.3.7"
C_INL = "PRM §7.9.3, §7.9.3.1, T61 min_wqe_inline_mode, T16 min_wqe_inline_mode"
C_SIG = "PRM §9.2.3, T26 08h[31:24] signature"
C_LKEY = "PRM §7.4.4.1.4 T38 L_Key"  # the pointer the device cannot translate (§6.1)
C_UMR = "PRM §7.4.4.1.3 T31-T37, §10.1.1, §10.1.1.1"

# CQE s_wqe_opcode values: T26 gives NOP 0x00, SEND 0x0A, UMR 0x25; LSO by name (wqe.py).
S_NOP, S_SEND, S_UMR, S_LSO = W.OP_NOP, W.OP_SEND, W.OP_UMR, "LSO"

# T74 syndromes. 0x2 (Local QP Operation Error) is not in T74; it is the public mlx5/IB value
# the issue names for a malformed WQE, so where the PRM gives no syndrome it is one reading.
SYN_LEN, SYN_QP_OP, SYN_PROT, SYN_FLUSH, SYN_ACCESS = 0x1, 0x2, 0x4, 0x5, 0x11
MALFORMED = {"in": [SYN_LEN, SYN_QP_OP]}

SETUP = [{"bring_up": {"to": "initialized"}}]


def VPORT_INLINE(mode):
    """A group's device profile with the NIC vport's min_wqe_inline_mode (T16) at `mode`."""
    return {"vport_min_wqe_inline_mode": mode}


# Clauses a violation is matched by (docs/vectors.md "Clauses"): the section of the PRM that
# states the rule the driver breaks.
CL_INL = "PRM §7.9.3.1"
CL_CTRL = "PRM §7.4.4.1.1"   # T26 ctrl segment: opcode, DS, WQE index, SQ number, FM
CL_ETH = "PRM §7.4.4.1.2"    # T28 eth segment: inline headers, mss
CL_UMR_SEG = "PRM §7.4.4.1.3"  # T31-T37 the UMR WQE's own segments
CL_DATA = "PRM §7.4.4.1.4"   # T38/T39 data segments
CL_T41 = "PRM §7.4.4.2"      # T41 which segments each opcode has
CL_SIG = "PRM §9.2.3"
CL_UMR = "PRM §10.1.1.1"     # the UMR's steps
CL_BF = "PRM §7.2.2.1"
CL_POST = "PRM §7.4.3.1"
CL_OWN = "PRM §7.4.3"        # ownership passes by the record
CL_RING = "PRM §7.4.1.1"     # the SQ holds 2^log_sq_size WQEBBs
CL_LSO = "PRM §3.3.2"
CL_MTU = "PRM §11.1.1"       # PMTU oper_mtu: 'Packets exceeding this size will be dropped'

NOTES = {
    "Handles": {"bugType": "PROFILE", "description": (
        "The test names objects by number: the SQ of tx_setup is SQ 1 and its UAR page 5 (Blue "
        "Flame register 0 at BAR0 5800h), its PD 1, the first MKey created after tx_setup has "
        "index 2 (handle numbering is the device's choice, decision D-OBJ-2, D-UAR-1). A raw "
        "`hex` WQE carries sq_number 1 itself.")},
    "VportInline": {"bugType": "PROFILE", "description": (
        "The NIC vport's min_wqe_inline_mode (T16) is the device's: T483 gives "
        "MODIFY_NIC_VPORT_CONTEXT no field_select bit for it, so the group sets it through the "
        "device profile (vport_min_wqe_inline_mode; decision D-VP-3, docs/vport.md: L2 by "
        "default).")},
    "Padding": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§3.3.8 pads frames shorter than 64 bytes 'to 64 bytes by appending trailing zeros "
        "(before the FCS)'; the model's frames carry no FCS, so a short frame is 60 bytes (64 "
        "with the FCS) or 64 bytes (64 before the FCS): both are listed (any_of).")},
    "Violation": {"bugType": "DRIVER_VIOLATION", "description": (
        "The driver breaks a rule of the PRM: the device reports it (a `violation` event; the "
        "rule's name is the model's, so the event is matched by the PRM clause that states the "
        "rule, which the test's cite names) and the response the test expects.")},
    "SyndromeOpen": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "T74 lists syndromes without saying which case gets which: a malformed WQE (DS, "
        "opcode, segments) is Local_Length_Error 0x1 or Local QP Operation 0x2 (IB/mlx5, "
        "missing from T74); the test accepts each (`in`).")},
    "CeError": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "T26 CE 01 ('CQE only on first WQE completion with error: if CQE on previous WQE "
        "completed in error, no CQE') against §7.12.7 ('For every WQE that completes in error, "
        "a completion with error is generated'): both readings listed.")},
    "Excluded": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§3.3.1: 'UDP/TCP transmit checksum calculation is not supported' for IPv6 with a "
        "routing header and IPv4 with LSRR/SSRR, without saying what the device sends: the L4 "
        "checksum left as posted, computed with the final destination (RFC 791 / RFC 8200 "
        "§8.1), or computed with the IP header's destination; the IPv4 header checksum is "
        "still computed (only L4 is excluded).")},
    "LsoFlags": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§3.3.2 refers to NDIS LSOv2 for the per-segment header updates; CWR on the first "
        "segment only (as TCP segmentation offloads do) or copied to every segment: both "
        "listed.")},
    "LsoLimit": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "An LSO WQE the PRM does not define (mss 0, a non-TCP packet, a message above "
        "max_lso_cap): the PRM gives no response; refusal (error CQE, no frame) and sending "
        "are both listed.")},
    "InlineMode": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§7.9.3 / T61: WQEs with fewer inline headers than the mode requires 'are dropped' "
        "('silently dropped'): no frame (pinned). Whether the WQE then completes as a success "
        "or in error is not said: both listed.")},
    "Record": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§7.4.3.1: after the doorbell record update 'HW *may* execute WQE'; only the doorbell "
        "guarantees it: both readings listed.")},
    "BlueFlame": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§7.2.2.1 says what the driver must not do with Blue Flame (a WQE of DS 1) but not "
        "what the device does then; the WQE is also in memory and the record passes it to HW, "
        "so executing it and ignoring the Blue Flame write are both listed.")},
    "Signature": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§9.2.3 has the device check the WQE signature but does not say what a failed check "
        "does to the WQE: an error completion or a silent drop; no frame either way.")},
    "Ce3Event": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "T26 CE 11 'Generate CQE and EQE (local Solicited event)': unconditionally, or as a "
        "solicited completion event that needs the CQ armed (§7.12.4); the test expects the CQE "
        "and lets the event occur or not.")},
    "PaddingSegment": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "T29's padding segment is 16 reserved (zero) bytes; in the data part of a SEND it is "
        "indistinguishable from a T38 memory pointer with byte_count 0 (2 GB), L_Key 0: a "
        "device may skip it or fail the WQE. Both listed.")},
    "Counters": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "Octet counters over frames whose FCS the model does not carry: counted without the "
        "FCS, with it (4 more per frame), or (IEEE aOctetsTransmittedOK 'data and padding "
        "octets') without the 14-byte MAC header: each listed (`in`).")},
    "NoFlush": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "T61: without flush_in_error_en 'HW is not forced to flush in error all the WQEs': "
        "flushed or not, both listed.")},
    "LengthOpen": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "A WQE whose message the device cannot send (longer than the port allows, 2 GB): the "
        "PRM names Local_Length_Error (T74) but no rule ties it to the case; refusal with 0x1, "
        "0x2 or 0x4 and silent drop are listed; never a frame of that length.")},
    "MtuDrop": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "T106 oper_mtu: 'Packets exceeding this size will be dropped': no frame (pinned). How the "
        "WQE then ends is not said: it completes (D-TX-6) or completes in error (T74 0x1, or "
        "0x2 / 0x4); a device may report the oversized packet as a driver violation or not: "
        "each listed.")},
    "MtuTags": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "T106 does not say which bytes of a tagged frame the MTU counts. D-TX-6 (docs/tx.md) "
        "leaves the Ethernet header and up to two 802.1Q/802.1ad tags out and counts a third tag "
        "as L3 payload; other readings: every tag is L2, or the tags count toward the MTU. The "
        "frame is sent or dropped as each reading says: both listed.")},
    "UmrReserved": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "T33 marks a value reserved or says a field 'should' be so, without saying what the "
        "device does otherwise: the UMR done as if the rule held, or refused (§10.1.1.1 step 7 "
        "'completion with error'): both listed.")},
    "UmrFence": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§10.1.1: the WQE after a UMR 'should be marked with small-fence' so that it sees the new "
        "mapping; without the fence the PRM does not say which mapping it sees: both listed.")},
    "FenceOpen": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "T26 FM defines 000 and 001 only; a WQE with another value may run (as a fence, which "
        "an in-order device keeps anyway) or be refused: both listed.")},
    "EmptySend": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "A SEND with no inline header and no data: §7.4.4.1.4 allows a request with 'zero data' "
        "(DS without data segments) but gives no Ethernet frame for it; refused, completed "
        "without a frame, or a frame of padding only (§3.3.8): each listed.")},
    "Overfill": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§7.4.1.1: the SQ holds 2^log_sq_size WQEBBs; a driver that posts more before the device "
        "consumed them overwrote WQEs, and the PRM does not say what the device executes then: "
        "nothing, or some of the ring.")},
    "Ownership": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§7.4.3: a WQE is executed only once its ownership passed (the record); one whose DS runs "
        "past the record is partly the driver's. Not executed (waiting for the record), or "
        "refused as malformed: both listed.")},
    "UmrOpen": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§10.1.1.1 step 7: a failed UMR check reports 'completion with error' without a "
        "syndrome: Local_Protection 0x4, Local QP Operation 0x2, Local_Access 0x11 and "
        "Local_Length 0x1 are accepted.")},
}


def l2(n, seed=0, dst=pkt.DST_MAC, vlan=None):
    """A plain Ethernet II frame of n bytes in all (local experimental EtherType 88B5h)."""
    h = build(eth(dst=dst, vlan=vlan, etype=0x88B5))
    return h + payload(n - len(h), seed)


def split(frame, ihs, kinds=("ptr",), sizes=None):
    """The WQE data segments carrying frame[ihs:]: one segment per kind, the bytes divided as
    `sizes` says (the last takes the rest)."""
    body = frame[ihs:]
    segs, pos = [], 0
    for i, k in enumerate(kinds):
        n = len(body) - pos if (sizes is None or i == len(kinds) - 1) else sizes[i]
        segs.append((k, body[pos:pos + n], {}) if k == "ptr" else (k, body[pos:pos + n]))
        pos += n
    return [s for s in segs if not (s[0] == "ptr" and len(s[1]) == 0)]


def send(frame, ihs=14, kinds=("ptr",), sizes=None, ctrl=None, eth_f=None, ring=None,
         opcode="SEND"):
    c = {"ce": 2}
    c.update(ctrl or {})
    return Wqe(opcode, ctrl=c, eth=dict(eth_f or {}), inline_header=frame[:ihs],
               data=split(frame, ihs, kinds, sizes), ring=ring)


def nop(ce=2, ring=None, **ctrl):
    c = {"ce": ce}
    c.update(ctrl)
    return Wqe("NOP", ctrl=c, ring=ring)


def post(t, sq, w):
    idx = sq.post(w)
    t.add(w.step())
    return idx


def query_sq(state=None, **fields):
    f = dict(fields)
    if state is not None:
        f["state"] = state
    return {"command": {"layout": "query_sq_in", "fields": {"opcode": "QUERY_SQ", "sqn": 1},
                        "output_length": "0x118",
                        "expect": {"status": "OK", "output": {"layout": "query_sq_out", "fields": f}}}}


def bf_doorbell(wqe_index, opcode, ds):
    """A send doorbell written by hand to Blue Flame register 0 of UAR 5 (§7.2.2: the first 8
    bytes of the WQE, lower dword first, §7.2.2.2)."""
    return [{"bar_write": {"offset": "0x5800", "value": "0x%x" % (((wqe_index & 0xFFFF) << 8) | opcode)}},
            {"bar_write": {"offset": "0x5804", "value": "0x%x" % ((1 << 8) | ds)}}]


# =============================================================================================
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
    t.frames([fr]).cqes([dict(cqe_ok(i, S_SEND), se={"in": [0, 1]})])
    t.steps.append({"events": {"any_of": [
        {"reading": "CE 11: an EQE for the completion", "expect": [{"event": "eqe", "type": 0}], "exact": False},
        {"reading": "CE 11: the event needs the CQ armed (§7.12.4)", "expect": [], "exact": False}]}})

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


# =============================================================================================
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


# =============================================================================================
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
    return f


# =============================================================================================
def lso_file():
    f = VFile("lso.json", "tx_lso", [
        "Large Send Offload (ConnectX-4 PRM Rev 0.40 §3.3.2, T28 mss; NDIS LSOv2): the header "
        "template in the inline headers, the TCP payload cut into segments of mss bytes (the last "
        "shorter), per segment the IPv4 total length and identification (template id + segment "
        "number, mod 2^16) or IPv6 payload length, the TCP sequence number, PSH/FIN on the last "
        "segment only, the IPv4 and TCP checksums; the last segment padded to the minimum frame "
        "(§3.3.8); one CQE for the WQE.",
        "Every posted template carries 0xBEEF checksums and the total/payload length of the whole "
        "message; expected segments are computed by Scapy and checked by hand "
        "(vectors/tx/gen/test_gen_tx.py). max_lso_cap is 16 (64 KB) on this device.",
    ], NOTES)
    g = f.group("one SQ", SETUP + [tx_setup()])

    def case(comment, frame, hdr, mss, kinds=("ptr",), sizes=None, result="valid", flags=(),
             cwr=False, cite=C_LSO):
        posted = pkt.corrupt_csums(frame)
        t = g.test(comment, cite, result, list(flags))
        sq = Sq()
        w = send(posted, ihs=hdr, kinds=kinds, sizes=sizes, opcode="LSO",
                 eth_f={"l3cs": 1, "l4cs": 1, "mss": mss})
        i = post(t, sq, w)
        for r in (("first", "all") if cwr else ("first",)):
            DERIVED.append(("lso", posted, hdr, mss, r, pkt.lso(posted, hdr, mss, r)))
        if cwr:
            t.frames([], readings=[("CWR on the first segment only", pkt.lso(posted, hdr, mss, "first")),
                                    ("CWR on every segment", pkt.lso(posted, hdr, mss, "all"))])
        else:
            t.frames(pkt.lso(posted, hdr, mss))
        t.cqes([cqe_ok(i, S_LSO)])
        return t

    case("IPv4/TCP LSO, 500 bytes with mss 1000: one segment (the message fits)", tcp4(n=500, flags="PA"), 54, 1000)
    case("IPv4/TCP LSO, exactly mss (1000) bytes: one segment", tcp4(n=1000, seed=1, flags="PA"), 54, 1000)
    case("IPv4/TCP LSO, 2000 bytes with mss 1000: two full segments", tcp4(n=2000, seed=2, flags="PA"), 54, 1000)
    case("IPv4/TCP LSO, 2500 bytes with mss 1000: three segments, the last of 500 (payload not a "
         "multiple of mss)", tcp4(n=2500, seed=3, flags="PA"), 54, 1000)
    case("IPv4/TCP LSO of 64 KB (max_lso_cap 16) with mss 1460: 45 segments, the last of 1296",
         tcp4(n=65536, seed=4, flags="PA"), 54, 1460)
    case("IPv4/TCP LSO whose last segment carries 1 byte: 55 bytes, padded to the minimum frame",
         tcp4(n=1001, seed=5, flags="PA"), 54, 1000, result="acceptable", flags=["Padding"], cite=C_LSO + "; " + C_PAD)
    case("IPv4/TCP LSO with the template's IPv4 id 0xFFFE: the ids of three segments are 0xFFFE, "
         "0xFFFF, 0x0000 (wrap)", tcp4(n=2100, seed=6, ipid=0xFFFE), 54, 700)
    case("IPv4/TCP LSO with FIN and PSH in the template: only the last segment carries them (NDIS "
         "LSOv2)", tcp4(n=2100, seed=7, flags="FPA"), 54, 700)
    case("IPv4/TCP LSO with CWR and ECE in the template: ECE on every segment; CWR on the first "
         "only or on every one", tcp4(n=2100, seed=8, flags="CEA"), 54, 700, result="acceptable",
         flags=["LsoFlags"], cwr=True)
    case("802.1Q-tagged IPv4/TCP LSO (18-byte L2 template, §3.3.7): every segment tagged",
         tcp4(n=3000, seed=9, vlan=(5, 300)), 58, 1200, cite=C_LSO + "; " + C_VLAN)
    case("IPv4 with options (NOP, RR)/TCP with timestamps LSO: options copied to every segment",
         tcp4(n=3000, seed=10, ipopts=[IPOption_NOP(), IPOption_RR(routers=[HOP4A])],
              tcpopts=[("NOP", None), ("NOP", None), ("Timestamp", (7, 8))]), 14 + 28 + 32, 1000)
    case("IPv6/TCP LSO, 3000 bytes with mss 1200: payload length per segment, no identification",
         tcp6(n=3000, seed=11, flags="PA"), 74, 1200)
    case("IPv6 with hop-by-hop and destination options/TCP LSO: the extension headers copied to "
         "every segment", tcp6(n=2000, seed=12, ext=[IPv6ExtHdrHopByHop(), IPv6ExtHdrDestOpt()]), 14 + 40 + 16 + 20, 900)
    case("IPv6/TCP LSO of 20 segments (mss 500, 10000 bytes)", tcp6(n=10000, seed=13), 74, 500)
    case("IPv4/TCP LSO with the payload in three data segments whose boundaries fall inside "
         "segments (pointer 700, inline 300, pointer 1500; mss 1000)", tcp4(n=2500, seed=14),
         54, 1000, kinds=("ptr", "inline", "ptr"), sizes=[700, 300])

    # open cases (LsoLimit)
    for comment, frame, hdr, mss in (
            ("LSO with mss 0 (T28: mss is 'the number of bytes in the TCP payload to be "
             "transmitted in each packet')", tcp4(n=300, seed=15), 54, 0),
            ("LSO of a UDP packet (§3.3.2 'Large Send Offload on transmitted TCP packets')", udp4(n=3000, seed=16), 42, 1000),
            ("LSO of 65537 bytes, one more than max_lso_cap 16 allows", tcp4(n=65537, seed=17), 54, 1460)):
        posted = pkt.corrupt_csums(frame)
        t = g.test(comment + ": refused (error CQE, no frame) or sent", C_LSO + "; T147 max_lso_cap",
                   "acceptable", ["LsoLimit"])
        sq = Sq()
        i = post(t, sq, send(posted, ihs=hdr, opcode="LSO", eth_f={"l3cs": 1, "l4cs": 1, "mss": mss}))
        if mss == 0:
            sent = [pkt.offload(posted, 1, 1)]
        elif frame[23] == 17:
            sent = [pkt.offload(posted, 1, 1)]
        else:
            sent = pkt.lso(posted, hdr, mss)
        t.frames([], readings=[("refused", []), ("sent", sent)])
        t.cqes_any([("refused", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP]}, S_LSO)]),
                    ("sent", [cqe_ok(i, S_LSO)])])
        t.maybe_violation("an LSO WQE outside §3.3.2", CL_LSO)
    return f


# =============================================================================================
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
    return f


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


# =============================================================================================
def inline_file():
    f = VFile("inline_mode.json", "tx_inline", [
        "The inline-header rule (ConnectX-4 PRM Rev 0.40 §7.9.3, §7.9.3.1, T61 min_wqe_inline_mode, "
        "T16 NIC vport min_wqe_inline_mode, T147 wqe_inline_mode = 1 on this device): a WQE whose "
        "eth segment inlines fewer headers than the SQ's mode requires is dropped; one that "
        "inlines enough is sent.",
        "The vport's minimum (T16) is the device's: no command writes it (T483 has no "
        "field_select bit for it), so a group sets it through the device profile "
        "(vport_min_wqe_inline_mode, VportInline note) where the test needs a vport below L2 or "
        "above it; tx_setup creates the SQ with the mode it is given, or with the vport's when "
        "none is (§7.9.3 'SW must query the required minimal inline header'; T61: "
        "'SQ.min_wqe_inline_mode must be >= Nic_vport.min_sq_wqe_inline_mode').",
    ], NOTES)

    def ok(g, comment, fr, ihs, mode):
        t = g.test(comment, C_INL + f" (mode {mode})", "valid", ["VportInline"] if g.profile else [])
        sq = Sq()
        i = post(t, sq, send(fr, ihs=ihs))
        t.frames([fr]).cqes([cqe_ok(i, S_SEND)])

    def dropped(g, comment, fr, ihs, mode):
        t = g.test(comment + ": dropped (§7.9.3 'Send WQEs with inline headers less than the "
                   "required are dropped'), no frame", C_INL + f" (mode {mode})", "acceptable",
                   ["InlineMode", "Violation"] + (["VportInline"] if g.profile else []))
        sq = Sq()
        i = post(t, sq, send(fr, ihs=ihs))
        t.no_frames()
        t.cqes_any([("silently dropped: the WQE completes", [cqe_ok(i, S_SEND)]),
                    ("dropped and completed in error", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT]})])])
        t.violation(CL_INL)

    g0 = f.group("vport minimum 0 (profile), SQ min_wqe_inline_mode 0 (none)",
                 SETUP + [tx_setup(min_wqe_inline_mode=0)], profile=VPORT_INLINE(0))
    ok(g0, "mode 0 (none): a SEND with no inline header at all (inline_header_size 0) is sent",
       tcp4(seed=40), 0, 0)

    g1 = f.group("min_wqe_inline_mode 1 (L2)", SETUP + [tx_setup(min_wqe_inline_mode=1)])
    ok(g1, "mode 1 (L2): 14 bytes inlined for an untagged frame (L2 'till the last EtherType')",
       tcp4(seed=41), 14, 1)
    dropped(g1, "mode 1 (L2): 12 bytes inlined (the EtherType missing)", tcp4(seed=42), 12, 1)
    dropped(g1, "mode 1 (L2): nothing inlined", tcp4(seed=43), 0, 1)
    t = g1.test("mode 1 (L2): 12 bytes inlined, dropped: nothing counted as transmitted (vport "
                "unicast packets 0, PPCNT aFramesTransmittedOK 0); the RFC 2863 discard and "
                "ifOutUcastPkts ('including those that were discarded or not sent') counters may "
                "count it", C_INL + "; PRM §12.17.1 T489; PRM §11.1.5 T116, T118",
                "acceptable", ["InlineMode", "Violation", "Counters"])
    sq = Sq()
    i = post(t, sq, send(tcp4(seed=57), ihs=12))
    t.no_frames()
    t.cqes_any([("silently dropped: the WQE completes", [cqe_ok(i, S_SEND)]),
                ("dropped and completed in error", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT]})])])
    t.violation(CL_INL)
    t.add({"command": {"layout": "query_vport_counter_in", "fields": {"opcode": "QUERY_VPORT_COUNTER", "clear": 0},
                       "output_length": "0x210", "expect": {"status": "OK", "output": {
                           "layout": "query_vport_counter_out", "fields": {"transmitted_eth_unicast_packets": 0}}}}})
    for grp, layout, fields in ((0, "access_reg_ppcnt_ieee_802_3_out", {"a_frames_transmitted_ok_low": 0}),
                                (1, "access_reg_ppcnt_rfc_2863_out", {"if_out_discards_low": {"in": [0, 1]},
                                                                      "if_out_ucast_pkts_low": {"in": [0, 1]}})):
        t.add({"command": {"layout": "access_reg_ppcnt_in",
                           "fields": {"opcode": "ACCESS_REG", "op_mod": 1, "register_id": "0x5008",
                                      "local_port": 1, "grp": grp, "prio_tc": 0, "clr": 0},
                           "output_length": "0x110",
                           "expect": {"status": "OK", "output": {"layout": layout, "fields": fields}}}})
    ok(g1, "mode 1 (L2): 18 bytes inlined for an 802.1Q-tagged frame", tcp4(seed=44, vlan=(0, 5)), 18, 1)
    dropped(g1, "mode 1 (L2): 14 bytes inlined for an 802.1Q-tagged frame (the last EtherType is "
            "at 16)", tcp4(seed=45, vlan=(0, 5)), 14, 1)
    llc = build(eth(etype=0) ) [:12] + (100).to_bytes(2, "big") + bytes([0xAA, 0xAA, 0x03, 0, 0, 0, 0x88, 0xB5]) + payload(92, 46)
    ok(g1, "mode 1 (L2): an LLC/SNAP frame with 22 bytes inlined (Max(17, L2 till the last "
       "EtherType) = 22)", llc, 22, 1)
    dropped(g1, "mode 1 (L2): an LLC/SNAP frame with 16 bytes inlined (less than 17)", llc, 16, 1)

    g2 = f.group("vport minimum 2 (IP, profile); the SQ takes the vport's mode (tx_setup gives none)",
                 SETUP + [tx_setup()], profile=VPORT_INLINE(2))
    ok(g2, "mode 2 (IP): IPv4/TCP with 34 bytes inlined (to the end of the IPv4 header)", tcp4(seed=47), 34, 2)
    dropped(g2, "mode 2 (IP): IPv4/TCP with 33 bytes inlined", tcp4(seed=48), 33, 2)
    ok(g2, "mode 2 (IP): IPv6/UDP with 54 bytes inlined", udp6(seed=49), 54, 2)
    dropped(g2, "mode 2 (IP): IPv6/UDP with 40 bytes inlined", udp6(seed=50), 40, 2)
    ok(g2, "mode 2 (IP): IPv4 with options (IHL 7), 14 + 28 bytes inlined",
       tcp4(seed=51, ipopts=[IPOption_RR(routers=[HOP4A])]), 14 + 28, 2)
    ok(g2, "mode 2 (IP): a non-IP frame (ARP): the L2 rule applies, 14 bytes suffice",
       build(eth(dst=pkt.BCAST_MAC) / ARP(psrc=SRC4, pdst=DST4)) + bytes(22), 14, 2)

    g3 = f.group("vport minimum 1 (L2, the default), SQ min_wqe_inline_mode 3 (TCP/UDP)",
                 SETUP + [tx_setup(min_wqe_inline_mode=3)])
    ok(g3, "mode 3 (TCP/UDP): IPv4/TCP with 54 bytes inlined", tcp4(seed=52), 54, 3)
    dropped(g3, "mode 3 (TCP/UDP): IPv4/TCP with 53 bytes inlined", tcp4(seed=53), 53, 3)
    ok(g3, "mode 3 (TCP/UDP): IPv6/UDP with 62 bytes inlined", udp6(seed=54), 62, 3)
    dropped(g3, "mode 3 (TCP/UDP): IPv6/UDP with 54 bytes inlined (the UDP header missing)", udp6(seed=55), 54, 3)
    ok(g3, "mode 3 (TCP/UDP): ICMP over IPv4 carries no TCP/UDP header: the IP rule, 34 bytes",
       build(eth() / IP(src=SRC4, dst=DST4) / ICMP() / Raw(payload(60, 56))), 34, 3)
    return f


# =============================================================================================
def counters_file():
    f = VFile("counters.json", "tx_counters", [
        "TX counters (ConnectX-4 PRM Rev 0.40 §12.17.1 QUERY_VPORT_COUNTER T489/T490; §11.1.5 PPCNT "
        "T115/T116 IEEE 802.3 and RFC 2863 groups): frames counted per destination class "
        "(unicast, broadcast, multicast by the destination MAC), LSO segments counted as frames.",
        "Frame counts are pinned; octet counts list the readings (Counters note).",
    ], NOTES)
    g = f.group("one SQ", SETUP + [tx_setup()])
    frs = [l2(100, 400), l2(80, 401, dst=pkt.BCAST_MAC), l2(70, 402, dst=pkt.MCAST_MAC)]

    def sends(t):
        sq = Sq()
        for fr in frs:
            post(t, sq, send(fr))
        t.frames(frs)

    def vport(fields):
        return {"command": {"layout": "query_vport_counter_in", "fields": {"opcode": "QUERY_VPORT_COUNTER", "clear": 0},
                            "output_length": "0x210",
                            "expect": {"status": "OK", "output": {"layout": "query_vport_counter_out", "fields": fields}}}}

    def ppcnt(grp, layout, fields):
        return {"command": {"layout": "access_reg_ppcnt_in",
                            "fields": {"opcode": "ACCESS_REG", "op_mod": 1, "register_id": "0x5008",
                                       "local_port": 1, "grp": grp, "prio_tc": 0, "clr": 0},
                            "output_length": "0x110",
                            "expect": {"status": "OK", "output": {"layout": layout, "fields": fields}}}}

    def octets(lens):
        s = sum(lens)
        return {"in": sorted({s, s + 4 * len(lens), s - 14 * len(lens)})}

    t = g.test("unicast 100 B, broadcast 80 B, multicast 70 B sent: QUERY_VPORT_COUNTER counts one "
               "packet in each class, no error", "PRM §12.17.1 T489-T492", "valid")
    sends(t)
    t.add(vport({"transmitted_eth_unicast_packets": 1, "transmitted_eth_broadcast_packets": 1,
                 "transmitted_eth_multicast_packets": 1, "transmit_errors_packets": 0}))
    t = g.test("the same three frames: the vport octet counters", "PRM §12.17.1 T489-T492",
               "acceptable", ["Counters"])
    sends(t)
    t.add(vport({"transmitted_eth_unicast_octets": {"in": [100, 104]},
                 "transmitted_eth_broadcast_octets": {"in": [80, 84]},
                 "transmitted_eth_multicast_octets": {"in": [70, 74]}}))
    t.open = True  # the `in` matchers above
    t = g.test("the same three frames: PPCNT IEEE 802.3 counts three frames transmitted, one "
               "multicast and one broadcast (aMulticastFramesXmittedOK excludes broadcast)",
               "PRM §11.1.5 T115/T116", "valid")
    sends(t)
    t.add(ppcnt(0, "access_reg_ppcnt_ieee_802_3_out", {
        "a_frames_transmitted_ok_high": 0, "a_frames_transmitted_ok_low": 3,
        "a_multicast_frames_xmitted_ok_low": 1, "a_broadcast_frames_xmitted_ok_low": 1}))
    t = g.test("the same three frames: PPCNT IEEE 802.3 a_octets_transmitted_ok", "PRM §11.1.5 T116",
               "acceptable", ["Counters"])
    sends(t)
    t.add(ppcnt(0, "access_reg_ppcnt_ieee_802_3_out", {"a_octets_transmitted_ok_low": octets([100, 80, 70])}))
    t.open = True
    t = g.test("the same three frames: PPCNT RFC 2863 counts one unicast packet out, no discard",
               "PRM §11.1.5 T117/T118 (RFC 2863 group)", "valid")
    sends(t)
    t.add(ppcnt(1, "access_reg_ppcnt_rfc_2863_out", {"if_out_ucast_pkts_low": 1, "if_out_discards_low": 0}))

    t = g.test("an LSO WQE sending three segments: three unicast packets (every frame on the wire)",
               C_LSO + "; PRM §12.17.1 T489", "valid")
    sq = Sq()
    posted = pkt.corrupt_csums(tcp4(n=2500, seed=60))
    post(t, sq, send(posted, ihs=54, opcode="LSO", eth_f={"l3cs": 1, "l4cs": 1, "mss": 1000}))
    t.frames(pkt.lso(posted, 54, 1000))
    t.add(vport({"transmitted_eth_unicast_packets": 3}))
    t.add(ppcnt(0, "access_reg_ppcnt_ieee_802_3_out", {"a_frames_transmitted_ok_low": 3}))

    t = g.test("a SEND refused (bad L_Key): nothing counted as transmitted", C_ERR + "; PRM §12.17.1; " + C_LKEY,
               "invalid", ["Violation"])
    sq = Sq()
    fr = l2(100, 403)
    i = post(t, sq, Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=fr[:14],
                        data=[("ptr", fr[14:], {"lkey": 0x00ABCD42})]))
    t.no_frames().cqes([cqe_err(i, SYN_PROT, S_SEND)]).violation(CL_DATA)
    t.add(vport({"transmitted_eth_unicast_packets": 0}))
    t.add(ppcnt(0, "access_reg_ppcnt_ieee_802_3_out", {"a_frames_transmitted_ok_low": 0}))
    return f


# =============================================================================================
UMR_VA = 0x7000000000
UMR_PAGES = (0x48003000, 0x48001000)  # page 0 of the region maps to 0x48003000, page 1 to 0x48001000
UMR_TAG = 0x42
UMR_INDEX = 2
UMR_MKEY = (UMR_INDEX << 8) | UMR_TAG


def create_mkey(free=1, umr_en=1, pd=1, index=UMR_INDEX, access_mode=1):
    """CREATE_MKEY (T9/T10): free, umr_en, local read, 4 octowords of translations (T10 34h
    'Must be a multiple of 4'); MTT (access_mode 1, 4 KB pages) or KLM (2, log_entity_size
    'otherwise: reserved')."""
    return {"command": {"layout": "create_mkey_in", "fields": {
        "opcode": "CREATE_MKEY", "free": free, "umr_en": umr_en, "lr": 1, "access_mode": access_mode,
        "qpn": "0xffffff", "mkey_7_0": "0x%x" % UMR_TAG, "pd": pd, "start_addr": 0, "len": 0,
        "translations_octword_size": 4, "log_entity_size": 12 if access_mode == 1 else 0,
        "translations_octword_actual_size": 0},
        "length": "0x110", "expect": {"status": "OK", "output": {"layout": "create_mkey_out", "fields": {"mkey_index": index}}}}}


UMR_MASK = W.MASK_LEN | W.MASK_START_ADDR | W.MASK_LR | W.MASK_FREE


def umr_wqe(idx, mkey=UMR_MKEY, check_free=0, pages=UMR_PAGES, actual=None, pd=1, ce=2, fm=0,
            ring=None, mask=UMR_MASK, offset=None, entries=None, pointer=None, access_mode=1,
            ds=None):
    """A UMR WQE by T31-T37: the region [UMR_VA, +8 KB) mapped on two 4 KB pages, local read,
    made not free (mask: len, start_addr, lr, free). The translations are inline MTTs (T11/T12),
    or `entries` (other inline bytes, KLMs), or through a UMR pointer (T34/T35: (mkey, address),
    inline 0). T33: the list's place, translation_octword_actual_size, is in 16-byte units and
    'KLM list should be aligned to 64B. SW can add PAD to the list of KLMs for this',
    'translation_offset and size should be aligned to 64B': inline entries are padded with
    zeros to 64 bytes (4 octowords); `actual` and `offset` (translation_offset_en) override.
    `ds` posts only that many octowords."""
    if pointer is None:
        lst = entries if entries is not None else b"".join(W.mtt(p) for p in pages)
        lst = lst.ljust(W.round_up(len(lst), 64), b"\0")
        octs = len(lst) // 16 if actual is None else actual
    else:
        lst = W.umr_pointer(*pointer)
        octs = 4 if actual is None else actual
    body = (W.umr_ctrl_seg(inline=int(pointer is None), check_free=check_free,
                           translation_offset_en=int(offset is not None), octword_actual_size=octs,
                           translation_offset=offset or 0, mkey_mask=mask)
            + W.mkey_ctx(free=0, umr_en=1, lr=1, access_mode=access_mode, mkey_7_0=UMR_TAG, pd=pd,
                         start_addr=UMR_VA, length=len(pages) * 4096, octword_size=4,
                         log_entity_size=12 if access_mode == 1 else 0)
            + lst)
    raw = W.ctrl_seg(idx, W.OP_UMR, 1, ds or (16 + len(body)) // 16, ce=ce, fm=fm, umr_mkey=mkey) + body
    return RawWqe(raw[:ds * 16] if ds else raw, "UMR", ring=ring)


def umr_file():
    f = VFile("umr.json", "tx_umr", [
        "UMR WQEs (ConnectX-4 PRM Rev 0.40 §7.4.4.1.3 T31-T37, §10.1.1, §10.1.1.1; MKey context T9/T10, "
        "MTT T11/T12): an MTT MKey created free with umr_en is given two pages and made usable "
        "by a UMR on the SQ; a SEND through it then gathers across the two pages; each check of "
        "§10.1.1.1 fails a UMR.",
        "UMR WQEs are raw bytes built from T31-T37 (vectors/tx/gen/wqe.py), so they carry SQ 1 and "
        "MKey index 2 (Handles). The region: VA 0x7000000000, 8 KB, page 0 at 0x48003000, page 1 "
        "at 0x48001000 (not contiguous, so a frame that crosses the page boundary proves the "
        "translation).",
    ], NOTES)
    g = f.group("one SQ; MKey index 2 created free=1, umr_en=1, MTT, PD 1, 4 octowords of translations",
                SETUP + [tx_setup(), create_mkey()])
    data = payload(8192, 77)
    page_writes = [{"mem_write": {"addr": "0x%x" % UMR_PAGES[0], "hex": data[:4096].hex()}},
                   {"mem_write": {"addr": "0x%x" % UMR_PAGES[1], "hex": data[4096:].hex()}}]

    t = g.test("UMR of the free MKey (inline MTTs, mask len/start_addr/lr/free): one CQE, "
               "s_wqe_opcode 0x25, no frame", C_UMR + "; " + C_CQE, "valid", ["Handles"])
    sq = Sq()
    i = post(t, sq, umr_wqe(0))
    t.no_frames().cqes([cqe_ok(i, S_UMR)])

    hdr = build(eth(etype=0x88B5))
    t = g.test("UMR, then a SEND with small fence (§10.1.1 'this WQE should be marked with small-"
               "fence') gathering 200 bytes from VA 0x7000000F80 with the new MKey: 128 bytes from "
               "page 0 (0x48003F80) then 72 from page 1 (0x48001000)", C_UMR + "; " + C_CTRL + " FM",
               "valid", ["Handles"])
    t.add(*page_writes)
    sq = Sq()
    i0 = post(t, sq, umr_wqe(0))
    fr = hdr + data[0xF80:0xF80 + 200]
    w = Wqe("SEND", ctrl={"ce": 2, "fm": 1}, eth={}, inline_header=hdr,
            data=[("ptr", fr[14:], {"lkey": UMR_MKEY, "addr": UMR_VA + 0xF80})])
    i1 = post(t, sq, w)
    t.frames([fr]).cqes([cqe_ok(i0, S_UMR), cqe_ok(i1, S_SEND)])

    t = g.test("UMR with check_free 01 ('If the status of the MKey is not free, the UMR operation "
               "will fail') on the free MKey: succeeds", C_UMR + " T33 Check_free", "valid", ["Handles"])
    sq = Sq()
    i = post(t, sq, umr_wqe(0, check_free=1))
    t.no_frames().cqes([cqe_ok(i, S_UMR)])

    def fails(comment, make, cite, clause, pre=()):
        t = g.test(comment + ": completion with error (§10.1.1.1 step 7), no frame", cite,
                   "acceptable", ["Handles", "UmrOpen", "Violation"])
        t.add(*pre)
        sq = Sq()
        i = post(t, sq, make(0))
        t.no_frames().cqes([cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT, SYN_ACCESS]}, S_UMR)]).violation(clause)
        return t

    fails("UMR with check_free 10 ('If the status of the MKey is free, the UMR operation will "
          "fail') on the free MKey", lambda i: umr_wqe(i, check_free=2),
          C_UMR + " T33 Check_free; §10.1.1.1 step 2", CL_UMR)
    fails("UMR of MKey index 0x777, which does not exist (§10.1.1.1 step 1)",
          lambda i: umr_wqe(i, mkey=(0x777 << 8) | UMR_TAG), C_UMR + "; §10.1.1.1 step 1", CL_UMR)
    fails("UMR of an MKey created with umr_en 0 (index 3; §10.1.1.1 step 4)",
          lambda i: umr_wqe(i, mkey=(3 << 8) | UMR_TAG), C_UMR + "; §10.1.1.1 step 4", CL_UMR,
          pre=[create_mkey(umr_en=0, index=3)])
    fails("UMR of an MKey of another PD (PD 2; §10.1.1.1 step 3 'the PD of the SQ matches the PD "
          "of the MKey')", lambda i: umr_wqe(i, mkey=(3 << 8) | UMR_TAG, pd=2), C_UMR + "; §10.1.1.1 step 3",
          CL_UMR,
          pre=[{"command": {"layout": "alloc_pd_in", "fields": {"opcode": "ALLOC_PD"},
                            "expect": {"status": "OK", "output": {"layout": "alloc_pd_out", "fields": {"pd": 2}}}}},
               create_mkey(pd=2, index=3)])
    fails("UMR with 8 octowords of translations for an MKey created with 4 (§10.1.1.1 step 5 'does "
          "not exceed the memory allocated for that MKey')",
          lambda i: umr_wqe(i, pages=[0x48000000 + 0x1000 * k for k in range(16)]),
          C_UMR + "; §10.1.1.1 step 5", CL_UMR)

    t = g.test("SEND through the MKey while it is still free (no UMR yet): T10 free 'Cannot be "
               "used for address translation': Local_Protection_Error", C_ERR + " 0x4; PRM §6.4.1 T10 free; " + C_DATA,
               "invalid", ["Handles", "Violation"])
    t.add(*page_writes)
    sq = Sq()
    w = Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=hdr,
            data=[("ptr", data[:100], {"lkey": UMR_MKEY, "addr": UMR_VA})])
    i = post(t, sq, w)
    t.no_frames().cqes([cqe_err(i, SYN_PROT, S_SEND)]).violation(CL_DATA)

    # ----- the UMR WQE's own form (§7.4.4.1.3 T31-T37)
    fails("UMR whose DS (4) ends after the UMR control segment: no MKeyCtx segment (T31: ctrl, "
          "UMR control 10h-3Ch, MKeyCtx 40h-7Ch, then the translations)",
          lambda i: umr_wqe(i, ds=4), C_UMR + " T31; " + C_CTRL + " DS", CL_UMR_SEG)
    fails("UMR whose inline MTT list (translation_octword_actual_size 4, within the MKey's 4) runs "
          "past its DS (10: the list's first 2 octowords posted)",
          lambda i: umr_wqe(i, ds=10), C_UMR + " T31/T33; " + C_CTRL + " DS", CL_UMR_SEG)
    # the UMR pointer (T34/T35): the list in the data region, read through the data MKey
    # (tx_setup's, index 1: lkey 1 << 8 | 5Ah, Handles)
    data_lkey = (1 << 8) | 0x5A
    lst = b"".join(W.mtt(p) for p in UMR_PAGES).ljust(64, b"\0")
    lst_write = {"mem_write": {"addr": "0x40000800", "hex": lst.hex()}}
    fails("UMR through a UMR pointer at 0x40000840, not 2 KB aligned (§7.4.4.1.3 'the address of "
          "the UMR pointer must be aligned to 2KB')",
          lambda i: umr_wqe(i, pointer=(data_lkey, 0x40000840)), C_UMR + " T34/T35", CL_UMR_SEG,
          pre=[{"mem_write": {"addr": "0x40000840", "hex": lst.hex()}}])
    fails("UMR through a UMR pointer whose mkey (0xABCD42) no MKey has (T35 mkey; the list is read "
          "like a gather, §6.1)",
          lambda i: umr_wqe(i, pointer=(0x00ABCD42, 0x40000800)), C_UMR + " T34/T35; PRM §6.1", CL_UMR_SEG,
          pre=[lst_write])
    fails("UMR of a KLM MKey (index 3, access_mode KLM) whose KLM has byte_count 0x80000001, above "
          "T37's 'Must be up to 2GB'",
          lambda i: umr_wqe(i, mkey=(3 << 8) | UMR_TAG, access_mode=2,
                            entries=W.klm(0x80000001, data_lkey, 0x40000000)),
          C_UMR + " T36/T37", CL_UMR_SEG, pre=[create_mkey(index=3, access_mode=2)])

    t = g.test("UMR through a UMR pointer (inline 0; T34/T35) to the two MTTs at 0x40000800 (2 KB "
               "aligned) in the data region, then a SEND with small fence gathering across the two "
               "pages: as with inline MTTs", C_UMR + " T33 inline, T34/T35; " + C_CTRL + " FM",
               "valid", ["Handles"])
    t.add(*page_writes, lst_write)
    sq = Sq()
    i0 = post(t, sq, umr_wqe(0, pointer=(data_lkey, 0x40000800)))
    fr = hdr + data[0xF80:0xF80 + 200]
    i1 = post(t, sq, Wqe("SEND", ctrl={"ce": 2, "fm": 1}, eth={}, inline_header=hdr,
                         data=[("ptr", fr[14:], {"lkey": UMR_MKEY, "addr": UMR_VA + 0xF80})]))
    t.frames([fr]).cqes([cqe_ok(i0, S_UMR), cqe_ok(i1, S_SEND)])

    def open_umr(comment, make, cite, clause, flag, readings):
        """A UMR breaking a 'should' or a reserved value the PRM gives no response for: done as
        if the rule held, or refused (§10.1.1.1 step 7); the driver broke the rule either way."""
        t = g.test(comment, cite, "acceptable", ["Handles", flag, "Violation"])
        sq = Sq()
        i = post(t, sq, make(0))
        t.no_frames().cqes_any([(readings[0], [cqe_ok(i, S_UMR)]),
                                (readings[1], [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT, SYN_ACCESS]}, S_UMR)])])
        t.violation(clause)

    open_umr("UMR with check_free 11 (T33 '11 - reserved')", lambda i: umr_wqe(i, check_free=3),
             C_UMR + " T33 Check_free", CL_UMR_SEG, "UmrReserved",
             ("the reserved value read as 00 (do not check)", "refused"))
    open_umr("UMR whose translation_octword_actual_size is 2 (32 bytes; T33 'translation_offset and "
             "size should be aligned to 64B')", lambda i: umr_wqe(i, actual=2),
             C_UMR + " T33 translation_octword_actual_size", CL_UMR_SEG, "UmrReserved",
             ("the 2 octowords written", "refused"))
    open_umr("UMR whose MkeyCtx bit mask also sets bit 2 (T33 'other bits are reserved')",
             lambda i: umr_wqe(i, mask=UMR_MASK | (1 << 2)), C_UMR + " T33 MkeyCtx bit mask",
             CL_UMR_SEG, "UmrReserved", ("the reserved bit ignored (§10.1.1 'HW will block')", "refused"))

    t = g.test("UMR, then a SEND with no fence (FM 000) through the new MKey: §10.1.1 'this WQE "
               "should be marked with small-fence'; without it the SEND may see the mapping or not",
               C_UMR + "; PRM §10.1.1; " + C_CTRL + " FM", "acceptable", ["Handles", "UmrFence", "Violation"])
    t.add(*page_writes)
    sq = Sq()
    i0 = post(t, sq, umr_wqe(0))
    fr = hdr + data[0xF80:0xF80 + 200]
    i1 = post(t, sq, Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=hdr,
                         data=[("ptr", fr[14:], {"lkey": UMR_MKEY, "addr": UMR_VA + 0xF80})]))
    t.frames([], readings=[("the SEND sees the new mapping", [fr]),
                            ("the SEND sees the MKey still free", [])])
    t.cqes_any([("the SEND sees the new mapping", [cqe_ok(i0, S_UMR), cqe_ok(i1, S_SEND)]),
                ("the SEND sees the MKey still free",
                 [cqe_ok(i0, S_UMR), cqe_err(i1, SYN_PROT, S_SEND)])])
    t.violation("PRM §10.1.1")
    return f


FILES = [sq_exec, send_file, csum_file, lso_file, errors_file, inline_file, counters_file, umr_file]


def main(argv):
    check = "--check" in argv
    bad = 0
    for make in FILES:
        vf = make()
        text = vf.dumps()
        path = os.path.join(OUT, vf.name)
        if check:
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
            if old != text:
                print(f"{path}: differs from the generator's output")
                bad = 1
        else:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            print(f"{path}: {vf.build()['numberOfTests']} tests")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

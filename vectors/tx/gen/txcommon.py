"""What every send-path vector file shares: the citations, the notes, and the WQE and step helpers.

Part of the independent send-path generator (gen_tx.py): nothing here comes from nicref's
output."""
import os
import os
import pkt
from pkt import build, eth, payload
import wqe as W
from vecfmt import Wqe


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
CL_CSUM_CAP = "PRM §3.3.1"  # checksum offload 'is reported through the csum_cap bit'
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
    "CsumCap": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§3.3.1: checksum offload support 'is reported through the csum_cap bit' (T147); the PRM "
        "does not say what a device without it does with l3cs/l4cs. Decision D-TXO-16: a SEND "
        "is sent as posted and completes, the set bit reported as the driver's mistake; LSO "
        "computes its segments' checksums (D-TXO-10). Computing them anyway, or refusing the "
        "WQE, are listed too.")},
    "FlushOwnership": {"bugType": "AMBIGUOUS_SPEC", "description": (
        "§7.4.3: a WQE is the device's once the record passes it; a flush (§7.9.2) that meets a "
        "WQE the record covers in part may wait for the record to cover it (decision D-SQ-5) or "
        "flush it whole at once, and may or may not report the driver's record as a violation. "
        "Either way it is one WQE, flushed once from its first WQEBB: the CQEs are pinned over "
        "the whole test.")},
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

#!/usr/bin/python3
"""Independent generator of the PCIe data link layer golden vectors (vectors/pcie/*.json).

    /usr/bin/python3 vectors/pcie/gen/gen_pcie.py [--check]

Writes lcrc.json, dllp.json, tx_seq.json, replay_timer.json, replay.json, acknak.json,
rx.json, ack_sched.json and link_down.json beside this folder; --check compares instead of
writing (exit 1 on a difference). Every expectation comes from this folder's own model of PCI
Express Base Specification §3.6 (dll_model.py, written from seed 003 and the decisions
D-DLL-1..9 of docs/pcie.md), never from nicref's output; the LCRC is computed twice (a
bit-serial register from the text and zlib.crc32) and the DLLP CRC twice (bit-serial and
reflected), and nothing is written unless they agree. Each test cites the seed by section and
line. Where the seed leaves a choice, the test is `acceptable` and lists each reading
(`any_of`); every expectation holds wherever the device's REPLAY_TIMER limit lies in the
seed's window (vecfmt.py).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import dll_model as M  # noqa: E402
from vecfmt import E, VecFile, dump  # noqa: E402

S21 = "PCIe Base §3.6.2.1"
S22 = "PCIe Base §3.6.2.2"
S31 = "PCIe Base §3.6.3.1"


def cite(sec, *lines):
    return f"{sec} (seed 003 " + ", ".join(f"L{n}" for n in lines) + ")"


def tlp(i):
    """A 3-DW Memory Read request (TLP header: Fmt/Type 00h, Length 1, requester 0000h, tag
    i & FFh, byte enables 0Fh, address 1000_0000h + 4i): a TLP the DLL treats as a black box
    (L44)."""
    return f"00000001 0000{i & 0xFF:02x}0f {0x10000000 + 4 * (i & 0xFFFFF):08x}".replace(" ", "")


def send(i, nullify=False):
    a = {"tlp": tlp(i)}
    if nullify:
        a["nullify"] = True
    return {"tl_send": a}


def rx(seq, i, lcrc="good", **kw):
    a = {"seq": seq, "tlp": tlp(i), "lcrc": lcrc}
    a.update(kw)
    return {"rx_tlp": a}


def ack(seq, **kw):
    a = {"type": "ack", "seq": seq}
    a.update(kw)
    return {"rx_dllp": a}


def nak(seq, **kw):
    a = {"type": "nak", "seq": seq}
    a.update(kw)
    return {"rx_dllp": a}


def adv(n):
    return {"advance": {"symbols": n}}


RD = {"retrain_done": {}}
LD = {"link_down": {}}
TX_STATE = ("next_transmit_seq", "ackd_seq", "replay_num", "replay_timer_running",
            "retry_buffer")
ALL_STATE = ("next_transmit_seq", "ackd_seq", "replay_num", "replay_timer_running",
             "replay_timer", "next_rcv_seq", "nak_scheduled", "acknak_latency_timer",
             "retry_buffer", "retraining")
RX_STATE = ("next_rcv_seq", "nak_scheduled")

# The rules of the items 1-2 (id: what, seed lines). Every id here has at least one
# test naming it (test_gen_pcie.py checks); NOT_COVERED lists what the one-end vector language
# cannot express, with the reason.
RULES = {
    "TX-RESET": ("transmitter DL_Inactive values", "L23, L25, L29"),
    "TX-SEQHDR": ("4 reserved bits 0000b and the 12-bit sequence number before the TLP", "L46-L47"),
    "TX-SEQINC": ("NEXT_TRANSMIT_SEQ assigned then incremented", "L22, L49"),
    "TX-WRAP": ("sequence numbers wrap 4095 -> 0 (mod 4096)", "L22, L49"),
    "TX-LCRC": ("LCRC: 04C11DB7h, seed FFFFFFFFh, bit order, complement, mapping (D-DLL-2)", "L53-L69"),
    "TX-NULLIFY": ("nullified TLP: inverted LCRC, sequence not advanced, not stored, not replayed", "L70-L83"),
    "TX-RETRY": ("a copy of each TLP in the retry buffer", "L83"),
    "TX-WINDOW": ("TL stalled while (NEXT_TRANSMIT_SEQ - ACKD_SEQ) mod 4096 >= 2048, no error (D-DLL-1)", "L48"),
    "TIMER-START": ("REPLAY_TIMER starts at a TLP's last symbol if not running", "L33"),
    "TIMER-REPLAY-RESTART": ("reset and restarted at the first TLP of a replay", "L34, L102"),
    "TIMER-ACK-RESTART": ("reset and restarted by an Ack with progress while TLPs remain", "L35-L36"),
    "TIMER-NO-RESTART": ("not restarted by an Ack without progress", "L35-L36"),
    "TIMER-NAK-HOLD": ("reset and held on a Nak or an expiry until the replay", "L37"),
    "TIMER-RETRAIN-HOLD": ("held while the link retrains", "L38"),
    "TIMER-EMPTY-HOLD": ("reset and held when every TLP is acknowledged", "L40"),
    "TIMER-LIMIT-ES0": ("limit 24,000-31,000 symbol times, Extended Synch 0 (D-DLL-3)", "L123-L125"),
    "TIMER-LIMIT-ES1": ("limit 80,000-100,000 symbol times, Extended Synch 1 (D-DLL-3)", "L126"),
    "TIMER-TIMEOUT-ERROR": ("an expiry replays and reports REPLAY_TIMER Timeout", "L123, L131"),
    "REPLAY-EMPTY-ABORT": ("a replay with an empty retry buffer ends at once", "L86"),
    "REPLAY-NUM-INC": ("REPLAY_NUM +1 per replay", "L28, L88"),
    "REPLAY-NUM-RESET": ("REPLAY_NUM reset on forward progress (D-DLL-4; L28's 'any Ack' as the other reading)", "L28, L168"),
    "REPLAY-NAK-PROGRESS": ("after a Nak with progress the increment is allowed, not required (D-DLL-5)", "L88"),
    "ROLLOVER": ("REPLAY_NUM 11b -> 00b: retrain asked and waited for, REPLAY_NUM Rollover reported", "L28, L90"),
    "ROLLOVER-KEEP": ("the DLL state and retry buffer kept through the retrain", "L91"),
    "RETRAIN-REPLAY": ("after the retrain the replay goes on", "L90, L93"),
    "RETRAIN-LINKDOWN": ("LinkUp 0 during the retrain: DL_Inactive resets", "L91"),
    "REPLAY-ORDER": ("every unacknowledged TLP replayed from the oldest, original order, numbers and LCRCs", "L100, L104"),
    "REPLAY-ACKS-DURING": ("Acks during a replay processed; acknowledged TLPs skipped or the replay finished (D-DLL-6)", "L106-L113"),
    "COLLAPSE": ("several Acks collapse into the latest; a later Ack supersedes a Nak", "L109-L113"),
    "REPLAY-TL-BLOCK": ("TL acceptance blocked during a replay (and its retrain)", "L96, L118"),
    "TIMER-ES-CHANGE": ("Extended Synch changed with TLPs outstanding: now or at the next reset (D-DLL-14)", "L127"),
    "PRIORITY": ("recommended transmission priority (Ack before replay), a guideline", "L137-L140"),
    "ACK-INVALID": ("AckNak_Seq_Num neither ACKD_SEQ nor unacknowledged: discarded, Data Link Protocol Error", "L158-L159, L172"),
    "ACK-ACKD-NOT-ERROR": ("an Ack equal to ACKD_SEQ with all acknowledged is not an error", "L160"),
    "ACK-PURGE": ("TLPs purged from the oldest through AckNak_Seq_Num", "L164"),
    "ACKD-LOAD": ("ACKD_SEQ loaded from AckNak_Seq_Num", "L166"),
    "NAK-REPLAY": ("a Nak starts a replay", "L170"),
    "NAK-NO-ERROR": ("a Nak is not an error", "L173"),
    "DLLP-PHYERR": ("a DLLP with a PHY Receiver Error is discarded, the DLL reports nothing", "L142"),
    "DLLP-CRC": ("DLLP 16-bit CRC checked; known answers", "L143-L146"),
    "DLLP-UNSUPPORTED": ("a well-formed DLLP of an unsupported type dropped silently", "L148"),
    "DLLP-RESERVED": ("non-zero reserved fields ignored", "L149"),
    "RX-RESET": ("receiver DL_Inactive values", "L184, L189, L194"),
    "RX-PHYERR": ("a TLP with a Receiver Error: discarded, Nak if NAK_SCHEDULED 0, no DLL error", "L200-L203"),
    "RX-NULL-OK": ("a nullified TLP with the inverted LCRC dropped silently", "L206"),
    "RX-NULL-BAD": ("a nullified TLP with another LCRC: Bad TLP (L208 mistranslated)", "L208-L216"),
    "RX-LCRC": ("a bad LCRC: discarded, Nak if NAK_SCHEDULED 0, Bad TLP", "L219-L235"),
    "RX-ORDER": ("the LCRC checked before the sequence number", "L198, L219, L238"),
    "RX-DUP": ("(NEXT_RCV_SEQ - seq) mod 4096 <= 2048: duplicate, an Ack, no error", "L238-L244"),
    "RX-OOS": ("otherwise out of sequence: Nak if NAK_SCHEDULED 0, Bad TLP", "L246-L255"),
    "RX-OOS-SCHEDULED": ("Bad TLP for out of sequence while NAK_SCHEDULED 1: recommended not (D-DLL-7)", "L257"),
    "RX-INSEQ": ("in sequence: delivered, NEXT_RCV_SEQ +1, NAK_SCHEDULED cleared", "L258-L268"),
    "RX-WRAP": ("NEXT_RCV_SEQ wraps 4095 -> 0", "L183, L266"),
    "RX-RESERVED": ("reserved bits above the sequence number (no PMUX)", "L13-L14"),
    "RX-ACKSEQ": ("Ack and Nak carry NEXT_RCV_SEQ - 1", "L293"),
    "RX-ACKLAT": ("Ack when AckNak_LATENCY_TIMER reaches the Ack latency limit (D-DLL-8); timer rules", "L193-L197, L272-L291"),
    "RX-ACK-NAKSCHED": ("no latency Ack while NAK_SCHEDULED is 1", "L286"),
    "LINK-DOWN": ("DL_Inactive resets every counter, flag, timer and the retry buffer", "L17, L23-L29, L91, L184-L194"),
    "ERR-BAD-TLP": ("Bad TLP reported", "L216, L235, L255"),
    "ERR-BAD-DLLP": ("Bad DLLP reported", "L147"),
    "ERR-DLPE": ("Data Link Protocol Error reported", "L159"),
}
# TIMER-TIMEOUT-ERROR and ROLLOVER carry the other two errors (REPLAY_TIMER Timeout, REPLAY_NUM
# Rollover).
NOT_COVERED = {
    "L74": "a nullified TLP sends all its DWs under 128b/130b: a physical-layer matter",
    "L98": "a TLP in flight completed before the replay: transmissions take no time in the "
           "one-end model, so none is in flight when a replay starts",
    "L150, L153-L155": "DLLPs processed at the received rate; FC and PM DLLPs handed to the TL "
                       "and power management: outside the data link layer model",
    "L39": "PMUX packets and the REPLAY_TIMER: protocol multiplexing is not modelled",
}

HEADER_COMMON = [
    "One data link layer end in DL_Active (docs/pcie.md, the vector language): the test plays "
    "the transaction layer above it (tl_send) and the other end of the link (rx_tlp, rx_dllp); "
    "the end transmits at the step's instant. Time in symbol times (D-DLL-9).",
    "Expectations come from vectors/pcie/gen (an independent model of PCI Express Base "
    "Specification §3.6, seed 003), never from nicref; each test cites the seed by line. Every "
    "expectation holds for any REPLAY_TIMER limit within the seed's window (24,000-31,000 "
    "symbol times with Extended Synch 0, 80,000-100,000 with 1; D-DLL-3).",
    "TLPs are 3-DW Memory Read requests `00000001 0000tt0f aaaaaaaa` (tag tt, address "
    "aaaaaaaa): tlp(i) has tag i mod 256 and address 1000_0000h + 4i.",
]

SETUP = {"ack_latency_limit": 1000, "extended_synch": 0}
SETUP_ES1 = {"ack_latency_limit": 1000, "extended_synch": 1}


def readings(**pairs):
    """{reading text: Options(**kw)} for the any_of of an open point."""
    return {text: M.Options(**kw) for text, kw in pairs.values()}


# ---------------------------------------------------------------------------------------------

def gen_lcrc():
    vf = VecFile("lcrc.json", HEADER_COMMON + [
        "LCRC known answers (L53-L69): polynomial 04C11DB7h, seed FFFFFFFFh (L59 prints "
        "FFFFFFFh, a typo), computed over the 2 sequence-number bytes (4 reserved bits 0000b, "
        "the 12-bit sequence number; L46-L47) and every TLP byte, from byte 0 bit 0; the "
        "complemented remainder mapped to the field as D-DLL-2 says (Table 3-6 is absent): the "
        "value whose little-endian bytes follow the TLP, zlib.crc32's value. A nullified TLP "
        "carries the uncomplemented remainder, the bitwise inverse (L76)."])
    g = vf.group("transmitter: the LCRC of each TLP sent", SETUP)
    vf.test(g, "the first TLP: sequence number 0 and its LCRC over 00h 00h || TLP",
            cite(S21, 46, 47, 57, 59, 61, 63, 66), ["TX-SEQHDR", "TX-LCRC"],
            [send(0), E(state=("next_transmit_seq",))])
    vf.test(g, "three TLPs: sequence numbers 0, 1, 2, each LCRC over its own sequence number "
            "(the same TLP bytes give different LCRCs under different numbers)",
            cite(S21, 46, 49, 61, 63), ["TX-SEQHDR", "TX-LCRC", "TX-SEQINC"],
            [send(7), send(7), send(7), E(state=("next_transmit_seq",))])
    long_tlp = "40000004 0000010f 20000000 00112233 44556677 8899aabb ccddeeff".replace(" ", "")
    vf.test(g, "a Memory Write with 4 DW of data: every byte of the TLP is covered (L64)",
            cite(S21, 61, 63, 64), ["TX-LCRC"],
            [{"tl_send": {"tlp": long_tlp}}, E()])
    big = "40000100 0000020f 30000000" + "".join(f"{(7 * k + 1) & 0xFF:02x}" for k in range(1024))
    vf.test(g, "a Memory Write with 256 DW (1,024 bytes) of data", cite(S21, 61, 63, 64),
            ["TX-LCRC"], [{"tl_send": {"tlp": big.replace(" ", "")}}, E()])
    rsv = "00000001 ff00000f 10000000".replace(" ", "")
    vf.test(g, "a TLP with reserved fields set: its reserved bits are covered like any other "
            "(L64), the DLL does not change the TLP (L44)", cite(S21, 44, 64), ["TX-LCRC"],
            [{"tl_send": {"tlp": rsv}}, E()])
    g = vf.group("transmitter: nullified TLPs", SETUP)
    vf.test(g, "a nullified TLP carries the inverse of its LCRC, does not advance "
            "NEXT_TRANSMIT_SEQ and is not kept in the retry buffer; the next TLP reuses its "
            "number", cite(S21, 70, 76, 81, 83), ["TX-NULLIFY", "TX-RETRY"],
            [send(1, nullify=True), E(state=("next_transmit_seq", "retry_buffer")),
             send(2), E(state=("next_transmit_seq", "retry_buffer"))])
    vf.test(g, "a nullified TLP is never replayed: a Nak replays only the TLPs in the retry "
            "buffer", cite(S21, 83, 100), ["TX-NULLIFY", "REPLAY-ORDER"],
            [send(1), send(2, nullify=True), send(3), E(state=("retry_buffer",)),
             nak(0xFFF), E(state=("retry_buffer", "replay_num"))])
    g = vf.group("receiver: the LCRC checked (L219-L225), given as a number", SETUP)
    for seq, i in ((0, 0), (1, 1)):
        good = M.lcrc(seq, bytes.fromhex(tlp(i)))
        pre = [] if seq == 0 else [rx(0, 0)]
        vf.test(g, f"a TLP with sequence number {seq} and LCRC 0x{good:08x} (the known answer) "
                "is good: delivered", cite(S31, 219, 221, 223, 258), ["RX-LCRC", "TX-LCRC"],
                pre + [rx(seq, i, f"0x{good:08x}"), E(state=RX_STATE)])
        vf.test(g, f"the same TLP with LCRC 0x{good ^ 0x80000000:08x} (one bit off): Bad TLP, "
                "a Nak, not delivered", cite(S31, 225, 229, 231, 235), ["RX-LCRC"],
                pre + [E(), rx(seq, i, f"0x{good ^ 0x80000000:08x}"), E(state=RX_STATE)])
        vf.test(g, f"the same TLP with the LCRC's byte order reversed "
                f"(0x{int.from_bytes(good.to_bytes(4, 'little'), 'big'):08x}): Bad TLP "
                "(the mapping of D-DLL-2 is part of the answer)", cite(S31, 66, 225, 235),
                ["RX-LCRC", "TX-LCRC"],
                pre + [E(), rx(seq, i, f"0x{int.from_bytes(good.to_bytes(4, 'little'), 'big'):08x}"),
                       E(state=RX_STATE)])
    good = M.lcrc(0, bytes.fromhex(tlp(0)), reserved=0)
    g = vf.group("receiver: nullified TLPs (L206-L216)", SETUP)
    vf.test(g, f"a nullified TLP (EDB) with LCRC 0x{good ^ 0xFFFFFFFF:08x}, the inverse of the "
            "calculated value: discarded silently, no Nak, no error, NEXT_RCV_SEQ unchanged",
            cite(S31, 206), ["RX-NULL-OK"],
            [rx(0, 0, f"0x{good ^ 0xFFFFFFFF:08x}", edb=True), E(state=RX_STATE)])
    return vf


def gen_dllp():
    vf = VecFile("dllp.json", notes=NOTE_D18, header=HEADER_COMMON + [
        "Received DLLPs (L141-L156): the 16-bit CRC (polynomial 100Bh, seed FFFFh, the "
        "transmitter's algorithm, L144; the parameters and Ack/Nak format are public facts of "
        "the base specification: byte 0 the type, 00h Ack, 10h Nak; 12 reserved bits; the "
        "12-bit AckNak_Seq_Num) computed as the LCRC is (bits from bit 0, the remainder "
        "complemented): the value whose little-endian bytes follow the 4 body bytes."])
    g = vf.group("the DLLP CRC as a number", SETUP)
    for dtype, name in ((M.DLLP_ACK, "ack"), (M.DLLP_NAK, "nak")):
        body = M.dllp_body(dtype, 0)
        c = M.dllp_crc(body)
        steps = [send(0), E()]
        steps.append({"rx_dllp": {"type": name, "seq": 0, "crc": f"0x{c:04x}"}})
        steps.append(E(state=("ackd_seq", "retry_buffer")))
        vf.test(g, f"a {name.capitalize()} with AckNak_Seq_Num 0 and CRC 0x{c:04x} (body "
                f"{body.hex()}, the known answer) is good and acknowledges TLP 0",
                cite(S22, 143, 144, 145, 164, 166), ["DLLP-CRC", "ACK-PURGE"], steps)
        bad = c ^ 0x0100
        vf.test(g, f"the same {name.capitalize()} with CRC 0x{bad:04x} (one bit off): "
                "discarded, Bad DLLP, nothing acknowledged", cite(S22, 146, 147),
                ["DLLP-CRC", "ERR-BAD-DLLP"],
                [send(0), E(), {"rx_dllp": {"type": name, "seq": 0, "crc": f"0x{bad:04x}"}},
                 E(state=("ackd_seq", "retry_buffer", "replay_num"))])
    body = M.dllp_body(M.DLLP_ACK, 0xFFF)
    c = M.dllp_crc(body)
    vf.test(g, f"an Ack with AckNak_Seq_Num 4095 and CRC 0x{c:04x} (body {body.hex()}), nothing "
            "outstanding: good, not an error (L160)", cite(S22, 143, 160),
            ["DLLP-CRC", "ACK-ACKD-NOT-ERROR"],
            [{"rx_dllp": {"type": "ack", "seq": 4095, "crc": f"0x{c:04x}"}},
             E(state=("ackd_seq", "retry_buffer"))])
    swapped = int.from_bytes(c.to_bytes(2, "little"), "big")
    vf.test(g, f"that Ack with its CRC bytes swapped (0x{swapped:04x}): Bad DLLP",
            cite(S22, 145, 146, 147), ["DLLP-CRC", "ERR-BAD-DLLP"],
            [{"rx_dllp": {"type": "ack", "seq": 4095, "crc": f"0x{swapped:04x}"}}, E()])
    g = vf.group("DLLP checks", SETUP)
    vf.test(g, "a corrupt Nak is discarded with Bad DLLP: no replay, REPLAY_NUM unchanged",
            cite(S22, 143, 146, 147), ["DLLP-CRC", "ERR-BAD-DLLP"],
            [send(0), E(), nak(0xFFF, crc="bad"), E(state=TX_STATE)])
    vf.test(g, "a DLLP during which the physical layer reports a Receiver Error is discarded; "
            "the DLL reports nothing (the PHY does)", cite(S22, 142), ["DLLP-PHYERR"],
            [send(0), E(), ack(0, phy_error=True), E(state=TX_STATE),
             nak(0xFFF, phy_error=True), E(state=TX_STATE)])
    for t in ("0x0f", "0x1f", "0x2f", "0x3f"):
        body = M.dllp_body(int(t, 0), 0)
        vf.test(g, f"a well-formed DLLP of an unsupported type {t} (reserved encoding): "
                "discarded, not an error, no effect", cite(S22, 148), ["DLLP-UNSUPPORTED"],
                [send(0), E(), {"rx_dllp": {"type": t, "seq": 0}}, E(state=TX_STATE)])
    vf.test(g, "a good PM_Enter_L1 DLLP (type 20h): for power management (L155), no effect on "
            "the data link layer's state, no error", cite(S22, 148, 155), ["DLLP-UNSUPPORTED"],
            [send(0), E(), {"rx_dllp": {"type": "0x20", "seq": 0}}, E(state=TX_STATE)],
            pin="D_DLL_18")
    vf.test(g, "a Nak with both a Receiver Error and a bad CRC: the Receiver Error discards it "
            "first (L142), no Bad DLLP", cite(S22, 142, 143), ["DLLP-PHYERR"],
            [send(0), E(), nak(0xFFF, crc="bad", phy_error=True), E(state=TX_STATE)])
    vf.test(g, "an Ack whose 12 reserved bits are not 0: the reserved field is ignored, the Ack "
            "acknowledges TLP 0", cite(S22, 149, 164), ["DLLP-RESERVED", "ACK-PURGE"],
            [send(0), send(1), E(), ack(0, reserved=0xABC), E(state=TX_STATE)])
    vf.test(g, "a Nak whose reserved bits are not 0: ignored, the Nak replays",
            cite(S22, 149, 170), ["DLLP-RESERVED", "NAK-REPLAY"],
            [send(0), E(), nak(0xFFF, reserved=0xFFF), E(state=TX_STATE)])
    return vf


def gen_tx_seq():
    vf = VecFile("tx_seq.json", HEADER_COMMON + [
        "Transmitter sequence numbers (L21-L26, L44-L49): 12 bits, from 0 after DL_Inactive, +1 "
        "per TLP modulo 4096; the TL is stalled while (NEXT_TRANSMIT_SEQ - ACKD_SEQ) mod 4096 >= "
        "2048 (L48: at most 2047 TLPs outstanding). D-DLL-1: the stall reports no error (the "
        "seed's 'fatal data link protocol error' at L48 is not in the base specification)."])
    g = vf.group("sequence numbers", SETUP)
    vf.test(g, "the DL_Inactive values: NEXT_TRANSMIT_SEQ 0, ACKD_SEQ FFFh, REPLAY_NUM 0, "
            "REPLAY_TIMER stopped, NEXT_RCV_SEQ 0, NAK_SCHEDULED 0, AckNak_LATENCY_TIMER 0",
            cite(S21, 23, 25, 29) + "; " + cite(S31, 184, 189, 194), ["TX-RESET", "RX-RESET"],
            [E(state=ALL_STATE)])
    vf.test(g, "each TLP gets NEXT_TRANSMIT_SEQ, then it is incremented; a copy of each stays "
            "in the retry buffer", cite(S21, 22, 44, 46, 49, 83), ["TX-SEQINC", "TX-RETRY"],
            [send(0), send(1), send(2), send(3), E(state=TX_STATE)])
    steps = []
    for k in range(4095):
        steps.append(send(k))
        if k % 1000 == 999:
            steps.append(ack(k))
    steps.append(ack(4094))
    steps.append(E(state=TX_STATE, sent=False))
    steps += [send(4095), send(4096), send(4097), E(state=TX_STATE),
              nak(4095), E(state=TX_STATE), ack(1), E(state=TX_STATE)]
    vf.test(g, "4098 TLPs, acknowledged as they go: sequence numbers 4094, 4095, then 0 and 1 "
            "(mod 4096); a Nak of 4095 acknowledges 4095 and replays 0 and 1 across the wrap; "
            "an Ack of 1 acknowledges them",
            cite(S21, 22, 49) + "; " + cite(S22, 158, 164, 166),
            ["TX-WRAP", "ACK-PURGE", "ACKD-LOAD"], steps)
    g = vf.group("the 2048 window (L48, D-DLL-1)", SETUP)
    steps = [send(k) for k in range(2047)]
    steps.append(E(state=("next_transmit_seq", "ackd_seq"), sent=False, tl_stalled=False))
    steps += [send(2047), E(state=("next_transmit_seq",), tl_stalled=True),
              ack(0), send(2047), E(state=("next_transmit_seq", "ackd_seq"), tl_stalled=False),
              send(2048), E(state=("next_transmit_seq",), tl_stalled=True)]
    vf.test(g, "2047 TLPs outstanding: (2047 - 4095) mod 4096 = 2048, the 2048th TLP is refused "
            "(the TL stalls), no error; an Ack of TLP 0 lets one more through; then the window "
            "is full again", cite(S21, 48, 49), ["TX-WINDOW"], steps)
    steps = [send(k) for k in range(2047)]
    steps += [E(sent=False), ack(2046), send(2047),
              E(state=("next_transmit_seq", "ackd_seq", "retry_buffer"), tl_stalled=False)]
    vf.test(g, "a full window released by an Ack of everything: the retry buffer empties, the "
            "next TLP is 2047", cite(S21, 48) + "; " + cite(S22, 164),
            ["TX-WINDOW", "ACK-PURGE"], steps)
    return vf


NOTE_PRIORITY = {"Priority": {"bugType": "PROFILE", "description": "Pins the transmission "
                 "order within one instant, a device setting (the dll step's `priority`, "
                 "docs/pcie.md T11 and D-DLL-12: transmissions at the instant they are "
                 "scheduled): the seed's order (L140) is a recommendation (L139). Each test names "
                 "the sibling that pins the other setting."}}
NOTE_D6 = {"D_DLL_6": {"bugType": "PROFILE", "description": "Pins D-DLL-6 (docs/pcie.md) for a "
           "replay that waits for a retrain: the retransmission, when it begins after the "
           "retrain, sends the TLPs unacknowledged at that moment (L100); L106 also lets a "
           "transmitter finish the replay as planned without regard to Acks received "
           "meanwhile (it would send the acknowledged TLPs too)."}}
NOTE_D7 = {"D_DLL_7": {"bugType": "PROFILE", "description": "Pins D-DLL-7 (docs/pcie.md): a TLP "
           "out of sequence is reported as Bad TLP only when NAK_SCHEDULED was 0, the seed's "
           "recommendation (L257); reporting it whatever NAK_SCHEDULED is also allowed (L257)."}}
NOTE_D19 = {"D_DLL_19": {"bugType": "PROFILE", "description": "Pins D-DLL-19 (docs/pcie.md): "
            "the 4 bits above the sequence number are reserved on a port without protocol "
            "multiplexing (L14), covered by the LCRC and otherwise ignored; a port with "
            "protocol multiplexing reads a non-zero value as a PMUX packet (L13)."}}
NOTE_D14 = {"D_DLL_14": {"bugType": "PROFILE", "description": "Pins D-DLL-14 (docs/pcie.md): "
            "a change of Extended Synch with TLPs outstanding takes effect at the next reset or "
            "start of REPLAY_TIMER; L127 allows it at once too (then no replay by 31,001)."}}
NOTE_D15 = {"D_DLL_15": {"bugType": "PROFILE", "description": "Pins D-DLL-15 (docs/pcie.md): "
            "while the end retrains for a REPLAY_NUM rollover (L90) the link is out of L0: "
            "nothing is transmitted and a TLP the TL offers is refused (TL acceptance is blocked "
            "for the replay, L96). A device may instead hold the TLP and send it after the replay."}}
NOTE_D16 = {"D_DLL_16": {"bugType": "PROFILE", "description": "Pins D-DLL-16 (docs/pcie.md): a "
            "Nak received while a replay waits for the retrain is collapsed into it (L109-L113: "
            "Naks received during a replay are processed and may be collapsed); a device may "
            "count it as the trigger of another replay after this one."}}
NOTE_D17 = {"D_DLL_17": {"bugType": "PROFILE", "description": "Pins D-DLL-17 (docs/pcie.md): "
            "after DL_Inactive (link_down) the end is DL_Active again at once, with the reset "
            "values (L23, L25, L184): the seed does not describe the way back (§3.2's state "
            "machine)."}}
NOTE_D18 = {"D_DLL_18": {"bugType": "PROFILE", "description": "Pins D-DLL-18 (docs/pcie.md): "
            "FC and PM DLLPs are not modelled; a good DLLP of such a type goes to the TL or to "
            "power management (L153-L155) and changes nothing the vectors see."}}
NOTE_D20 = {"D_DLL_20": {"bugType": "PROFILE", "description": "Pins D-DLL-20 (docs/pcie.md): "
            "a nullified TLP does not start REPLAY_TIMER, since it is not kept for replay (L81, "
            "L83) and nothing awaits its acknowledgement; L33 read literally ('any TLP "
            "transmission') starts the timer at it."}}
NOTE_D8 = {"D_DLL_8": {"bugType": "PROFILE", "description": "Pins D-DLL-8 (docs/pcie.md): the "
           "Ack is scheduled when AckNak_LATENCY_TIMER reaches the profile's ack_latency_limit "
           "(L278; Tables 3-7..3-9 absent); a device may schedule Acks more often (L291)."}}


def gen_replay_timer():
    vf = VecFile("replay_timer.json", notes={**NOTE_PRIORITY, **NOTE_D14, **NOTE_D20}, header=HEADER_COMMON + [
        "REPLAY_TIMER (L31-L40, L119-L131): started at a TLP's last symbol if not running, reset "
        "at the first TLP of each replay, reset on an Ack that acknowledges TLPs while others "
        "remain, reset and held when none remain, reset and held on a Nak or an expiry until the "
        "replay, held during a retrain; a replay when it exceeds the limit (24,000-31,000 symbol "
        "times, Extended Synch 0; 80,000-100,000, 1) with a REPLAY_TIMER Timeout reported. The "
        "vectors test below 24,000 (no replay) and past 31,000 (replay), D-DLL-3."])
    g = vf.group("Extended Synch 0", SETUP)
    vf.test(g, "23,999 symbol times after a TLP: no replay", cite(S21, 33, 123, 125),
            ["TIMER-START", "TIMER-LIMIT-ES0"],
            [send(0), E(state=("replay_timer_running", "replay_timer")), adv(23999),
             E(state=("replay_timer", "replay_num"))])
    vf.test(g, "31,001 symbol times after a TLP with no Ack: the TLP is replayed, REPLAY_TIMER "
            "Timeout reported, REPLAY_NUM 1", cite(S21, 86, 88, 100, 123, 125, 131),
            ["TIMER-LIMIT-ES0", "TIMER-TIMEOUT-ERROR", "REPLAY-NUM-INC", "REPLAY-ORDER"],
            [send(0), send(1), E(), adv(31001), E(state=TX_STATE)])
    vf.test(g, "REPLAY_TIMER counts symbol times from the TLP: 1,000 later it reads 1,000; an "
            "Ack of the first of two TLPs resets it to 0 and it runs on (L35)",
            cite(S21, 33, 35), ["TIMER-START", "TIMER-ACK-RESTART"],
            [send(0), send(1), adv(1000), E(state=("replay_timer", "replay_timer_running")),
             ack(0), E(state=("replay_timer", "replay_timer_running")), adv(700),
             E(state=("replay_timer",))])
    vf.test(g, "the timer is not restarted by a second TLP while running: a TLP at 0 and one at "
            "20,000, then 11,001 more: both replayed", cite(S21, 33, 123),
            ["TIMER-START", "REPLAY-ORDER"],
            [send(0), adv(20000), send(1), E(), adv(11001), E(state=TX_STATE)])
    vf.test(g, "an Ack that acknowledges some TLPs while others remain resets and restarts the "
            "timer: TLPs at 0, Ack of the first at 20,000, then 20,000 more: no replay; 11,001 "
            "more: replay of the rest", cite(S21, 35, 36) + "; " + cite(S22, 168),
            ["TIMER-ACK-RESTART", "REPLAY-NUM-RESET"],
            [send(0), send(1), send(2), E(), adv(20000), ack(0),
             E(state=("replay_timer", "replay_timer_running")), adv(20000),
             E(state=("replay_timer", "retry_buffer")), adv(11001),
             E(state=("retry_buffer", "replay_num"))])
    vf.test(g, "an Ack that acknowledges nothing (AckNak_Seq_Num = ACKD_SEQ) does not restart "
            "the timer: TLP at 0, that Ack at 20,000, 11,001 more: replay",
            cite(S21, 35, 36), ["TIMER-NO-RESTART"],
            [send(0), E(), adv(20000), ack(0xFFF), E(state=("replay_timer",)), adv(11001),
             E(state=("replay_num",))])
    vf.test(g, "the timer is reset and held when the retry buffer empties: no replay, ever",
            cite(S21, 40) + "; " + cite(S22, 168), ["TIMER-EMPTY-HOLD"],
            [send(0), send(1), adv(5000), ack(1), E(state=TX_STATE + ("replay_timer",)),
             adv(200000), E(state=TX_STATE + ("replay_timer",))])
    vf.test(g, "a Nak resets the timer; the replay restarts it at 0 (the first replayed TLP): "
            "23,999 later no replay, 31,001 after the Nak a second replay",
            cite(S21, 34, 37, 102), ["TIMER-NAK-HOLD", "TIMER-REPLAY-RESTART"],
            [send(0), adv(20000), nak(0xFFF), E(state=("replay_timer", "replay_timer_running")),
             adv(23999), E(), adv(7002), E(state=("replay_num",))])
    vf.test(g, "after an expiry the replay restarts the timer at the first replayed TLP: one "
            "replay in the first 31,001-47,999, a second by 62,000 (limit at most 31,000 twice)",
            cite(S21, 34, 37, 102, 123), ["TIMER-REPLAY-RESTART", "TIMER-TIMEOUT-ERROR"],
            [send(0), adv(40000), E(state=("replay_num",)), adv(22000),
             E(state=("replay_num",))])
    vf.test(g, "the timer holds its value while the LTSSM retrains: after a REPLAY_NUM "
            "rollover no timeout however long the retrain takes",
            cite(S21, 38, 90), ["TIMER-RETRAIN-HOLD", "ROLLOVER"],
            [send(0), nak(0xFFF), nak(0xFFF), nak(0xFFF), E(), nak(0xFFF),
             E(state=("retraining", "replay_num", "replay_timer_running")), adv(500000),
             E(state=("retraining",)), RD, E(state=("retraining", "replay_timer",
                                                    "replay_timer_running"))])
    vf.test(g, "Extended Synch set to 1 at 1,000 with a TLP outstanding: the new limit applies "
            "at the timer's next reset (L127 allows that or at once; D-DLL-14): the replay by "
            "31,001 as with Extended Synch 0, then 80,000-100,000 symbol times to the next",
            cite(S21, 121, 125, 126, 127), ["TIMER-LIMIT-ES1", "TIMER-ES-CHANGE"],
            [send(0), adv(1000), {"dll": {"extended_synch": 1}}, adv(30001),
             E(state=("replay_num",)), adv(72000), E(), adv(28000), E(state=("replay_num",))],
            readings=readings(a=("D-DLL-14: at the next reset", {}),
                              b=("L127: at once", {"es_at_once": True})), pin="D_DLL_14")
    vf.test(g, "a TLP outstanding and no Ack for 10,000,000 symbol times: three replays on "
            "expiry, the fourth expiry rolls REPLAY_NUM over and the end waits for the retrain; "
            "the held timer expires no more", cite(S21, 38, 88, 90, 123, 131),
            ["TIMER-TIMEOUT-ERROR", "ROLLOVER", "TIMER-RETRAIN-HOLD"],
            [send(0), E(), adv(10000000), E(state=("replay_num", "retraining",
                                                   "replay_timer_running"))])
    vf.test(g, "a nullified TLP does not start REPLAY_TIMER (D-DLL-20: nothing awaits its "
            "acknowledgement): nullified at 0, a TLP at 20,000: no replay by 43,999, a replay "
            "by 51,001 (L33 read literally, 'any TLP', starts it at 0: a replay by 31,000)",
            cite(S21, 33, 70, 81, 83, 123), ["TIMER-START", "TX-NULLIFY"],
            [send(0, nullify=True), adv(20000), send(1), E(), adv(23999), E(), adv(7002),
             E(state=("replay_num",))], pin="D_DLL_20")
    g = vf.group("Extended Synch 1", SETUP_ES1)
    vf.test(g, "79,999 symbol times after a TLP with Extended Synch 1: no replay",
            cite(S21, 121, 126), ["TIMER-LIMIT-ES1"],
            [send(0), E(), adv(79999), E(state=("replay_num",))])
    vf.test(g, "100,001 symbol times after a TLP with Extended Synch 1: replay and REPLAY_TIMER "
            "Timeout", cite(S21, 123, 126, 131), ["TIMER-LIMIT-ES1", "TIMER-TIMEOUT-ERROR"],
            [send(0), E(), adv(100001), E(state=("replay_num",))])
    first = vf.next_id
    for prio, order, other in (("recommended", "the Ack, then the replay (L140: priority 3 "
                                "before 5)", first + 1),
                               ("replay_first", "the replay, then the Ack", first)):
        g = vf.group(f"REPLAY_TIMER limit 24,000 (inside the window), Ack latency limit 24,000, "
                     f"priority {prio}",
                     {"ack_latency_limit": 24000, "replay_limit": 24000, "extended_synch": 0,
                      "priority": prio})
        vf.test(g, f"an Ack due (latency timer at its limit) and a replay due (REPLAY_TIMER at "
                f"its limit) at the same instant, priority '{prio}': {order}; the seed's order "
                f"is a guideline (L139), tcId {other} pins the other",
                cite(S21, 137, 139, 140), ["PRIORITY"],
                [send(0), rx(0, 9), E(), adv(24000), E()], pin="Priority")
    return vf


def gen_replay():
    vf = VecFile("replay.json", notes={**NOTE_D6, **NOTE_D15, **NOTE_D16}, header=HEADER_COMMON + [
        "Replay (L84-L118): on a Nak or an expiry, unless the retry buffer is empty, REPLAY_NUM "
        "+1; on its rollover 11b -> 00b a retrain is asked for and waited for, with REPLAY_NUM "
        "Rollover reported, the DLL state kept; then every unacknowledged TLP is retransmitted "
        "from the oldest in the original order with its sequence number and LCRC."])
    g = vf.group("the replay procedure", SETUP)
    vf.test(g, "a Nak with nothing outstanding: the replay ends at once (L86), REPLAY_NUM "
            "unchanged, no error (L173)", cite(S21, 86) + "; " + cite(S22, 160, 173),
            ["REPLAY-EMPTY-ABORT", "NAK-NO-ERROR"],
            [nak(0xFFF), E(state=TX_STATE)])
    vf.test(g, "a Nak of AckNak_Seq_Num 4095 with TLPs 0-3 outstanding: all four retransmitted "
            "from the oldest, in order, with their sequence numbers and LCRCs; REPLAY_NUM 1; no "
            "error", cite(S21, 88, 100, 104) + "; " + cite(S22, 170, 173),
            ["NAK-REPLAY", "REPLAY-ORDER", "REPLAY-NUM-INC", "NAK-NO-ERROR"],
            [send(0), send(1), send(2), send(3), E(), nak(0xFFF), E(state=TX_STATE)])
    vf.test(g, "a Nak that also acknowledges TLPs 0 and 1: they are purged, then 2 and 3 "
            "replayed; REPLAY_NUM was reset by the progress and the increment is then allowed, "
            "not required (L88, D-DLL-5)", cite(S21, 88, 100) + "; " + cite(S22, 164, 168, 170),
            ["NAK-REPLAY", "REPLAY-NAK-PROGRESS", "ACK-PURGE"],
            [send(0), send(1), send(2), send(3), E(), nak(1), E(state=TX_STATE)],
            readings=readings(a=("D-DLL-5: the replay increments REPLAY_NUM", {}),
                              b=("L88: no increment after the reset",
                                 {"nak_progress_increment": False})))
    vf.test(g, "REPLAY_NUM counts replays without progress: three Naks leave it at 3, an Ack "
            "with progress resets it to 0, three more Naks leave it at 3 (no rollover)",
            cite(S21, 28, 88, 93) + "; " + cite(S22, 168),
            ["REPLAY-NUM-INC", "REPLAY-NUM-RESET"],
            [send(0), send(1), nak(0xFFF), nak(0xFFF), nak(0xFFF), E(state=("replay_num",)),
             ack(0), E(state=("replay_num",)), nak(0), nak(0), nak(0),
             E(state=("replay_num", "retraining"))])
    vf.test(g, "an Ack that acknowledges nothing: REPLAY_NUM reset only on progress (L164-L168, "
            "D-DLL-4) or on every Ack (L28's literal text)", cite(S21, 28) + "; " +
            cite(S22, 162, 168), ["REPLAY-NUM-RESET"],
            [send(0), nak(0xFFF), nak(0xFFF), E(), ack(0xFFF), E(state=("replay_num",))],
            readings=readings(a=("D-DLL-4: reset only when TLPs are acknowledged", {}),
                              b=("L28: reset whenever an Ack is received",
                                 {"replay_num_reset_any_ack": True})))
    g = vf.group("REPLAY_NUM rollover and retrain", SETUP)
    vf.test(g, "the fourth replay without progress rolls REPLAY_NUM 11b -> 00b: REPLAY_NUM "
            "Rollover, a retrain asked for and waited for (nothing sent), the retry buffer "
            "kept; when the retrain is done the replay goes on",
            cite(S21, 28, 90, 91, 93, 100), ["ROLLOVER", "ROLLOVER-KEEP", "RETRAIN-REPLAY"],
            [send(0), send(1), nak(0xFFF), nak(0xFFF), nak(0xFFF),
             E(state=("replay_num", "retraining")), nak(0xFFF), E(state=ALL_STATE), RD,
             E(state=TX_STATE + ("retraining", "replay_timer"))])
    vf.test(g, "a rollover by the timer: three Naks, then an expiry: REPLAY_TIMER Timeout then "
            "REPLAY_NUM Rollover", cite(S21, 90, 123, 131), ["ROLLOVER", "TIMER-TIMEOUT-ERROR"],
            [send(0), nak(0xFFF), nak(0xFFF), nak(0xFFF), E(), adv(31001),
             E(state=("replay_num", "retraining")), RD, E(state=("replay_num",))])
    vf.test(g, "an Ack received while the replay waits for the retrain is processed (TLPs 0 "
            "and 1 purged); after the retrain the retransmission sends the TLPs still "
            "unacknowledged, TLP 2 (L100); the other reading of L106 finishes the replay as "
            "planned at the Nak (0, 1, 2)", cite(S21, 106, 107, 109, 111), ["REPLAY-ACKS-DURING", "ACK-PURGE"],
            [send(0), send(1), send(2), nak(0xFFF), nak(0xFFF), nak(0xFFF), nak(0xFFF), E(),
             ack(1), E(state=("next_transmit_seq", "ackd_seq", "replay_num", "retry_buffer",
                              "retraining")), RD,
             E(state=("retry_buffer", "retraining"))],
            readings=readings(a=("only TLPs unacknowledged when the retransmission begins", {}),
                              b=("the replay as planned at the Nak (L106)",
                                 {"replay_skips_acked": False})), pin="D_DLL_6")
    vf.test(g, "a Nak received while the replay waits for the retrain adds nothing: no second "
            "replay, REPLAY_NUM stays 0, no error; one replay after the retrain",
            cite(S21, 90, 109, 111, 113) + "; " + cite(S22, 173), ["REPLAY-ACKS-DURING", "COLLAPSE"],
            [send(0), nak(0xFFF), nak(0xFFF), nak(0xFFF), nak(0xFFF), E(), nak(0xFFF),
             E(state=("replay_num", "retraining")), RD, E(state=("replay_num", "retraining"))],
            pin="D_DLL_16")
    vf.test(g, "the TL offers a TLP while the replay waits for the retrain: refused (the link "
            "is not up; TL acceptance is blocked for the replay, L96), nothing sent",
            cite(S21, 90, 96, 118), ["ROLLOVER", "REPLAY-TL-BLOCK"],
            [send(0), nak(0xFFF), nak(0xFFF), nak(0xFFF), nak(0xFFF), E(), send(1),
             E(state=("next_transmit_seq", "retry_buffer"), tl_stalled=True), RD, send(1),
             E(state=("next_transmit_seq", "retry_buffer"), tl_stalled=False)],
            pin="D_DLL_15")
    vf.test(g, "a bad TLP and a duplicate received while the end waits for its retrain: the Nak "
            "and the Ack are scheduled (L202, L244) but the link is out of L0 (L280-L282): "
            "they are sent when the retrain is done, the Nak first, then the replay (L140)",
            cite(S21, 90, 140) + "; " + cite(S31, 202, 244, 280, 282),
            ["ROLLOVER", "PRIORITY", "RX-LCRC", "RX-DUP"],
            [send(0), rx(0, 0), nak(0xFFF), nak(0xFFF), nak(0xFFF), nak(0xFFF), E(),
             rx(1, 1, "bad"), rx(0, 0), E(state=("nak_scheduled", "retraining")), RD, E()],
            pin="D_DLL_15")
    vf.test(g, "the link goes down during the retrain (Physical LinkUp 0): DL_Inactive resets "
            "everything, the retry buffer included (L91)", cite(S21, 23, 25, 29, 91),
            ["RETRAIN-LINKDOWN", "LINK-DOWN"],
            [send(0), nak(0xFFF), nak(0xFFF), nak(0xFFF), nak(0xFFF), E(), LD,
             E(state=ALL_STATE)])
    return vf


def gen_acknak():
    vf = VecFile("acknak.json", HEADER_COMMON + [
        "Received Ack and Nak DLLPs (L157-L173): an AckNak_Seq_Num that is neither ACKD_SEQ nor "
        "the number of an unacknowledged TLP is discarded with a Data Link Protocol Error; "
        "otherwise, when it acknowledges TLPs, they are purged from the oldest through it, "
        "ACKD_SEQ loaded, REPLAY_NUM and REPLAY_TIMER reset; a Nak then replays."])
    g = vf.group("Ack and Nak reception", SETUP)
    vf.test(g, "an Ack of TLP 1 with TLPs 0-3 outstanding: 0 and 1 purged, ACKD_SEQ 1",
            cite(S22, 162, 164, 166, 168), ["ACK-PURGE", "ACKD-LOAD"],
            [send(0), send(1), send(2), send(3), E(), ack(1), E(state=TX_STATE)])
    vf.test(g, "Acks collapse: Acks of 0, 2 then 3 leave the state an Ack of 3 alone leaves",
            cite(S21, 109, 111) + "; " + cite(S22, 164, 166), ["COLLAPSE", "ACK-PURGE"],
            [send(0), send(1), send(2), send(3), E(), ack(0), ack(2), ack(3),
             E(state=TX_STATE + ("replay_timer",))])
    vf.test(g, "an Ack equal to ACKD_SEQ when everything is acknowledged (after reset, before "
            "any TLP) is not an error", cite(S22, 160), ["ACK-ACKD-NOT-ERROR"],
            [ack(0xFFF), E(state=TX_STATE)])
    vf.test(g, "a duplicate Ack (again ACKD_SEQ) after TLPs were acknowledged: not an error, "
            "no effect", cite(S22, 158, 160), ["ACK-ACKD-NOT-ERROR"],
            [send(0), send(1), ack(0), E(), ack(0), E(state=TX_STATE)])
    vf.test(g, "an Ack of a sequence number never sent (5, with 0-1 outstanding): discarded, "
            "Data Link Protocol Error", cite(S22, 158, 159), ["ACK-INVALID", "ERR-DLPE"],
            [send(0), send(1), E(), ack(5), E(state=TX_STATE)])
    vf.test(g, "an Ack of a sequence number already acknowledged (0, after an Ack of 1): it is "
            "neither ACKD_SEQ nor unacknowledged: Data Link Protocol Error",
            cite(S22, 158, 159), ["ACK-INVALID", "ERR-DLPE"],
            [send(0), send(1), send(2), ack(1), E(), ack(0), E(state=TX_STATE)])
    vf.test(g, "everything acknowledged (ACKD_SEQ 0, nothing outstanding), then an Ack of 1: "
            "never sent, Data Link Protocol Error", cite(S22, 158, 159, 160),
            ["ACK-INVALID", "ERR-DLPE"],
            [send(0), ack(0), E(), ack(1), E(state=TX_STATE)])
    vf.test(g, "an Ack before any TLP other than 4095: Data Link Protocol Error",
            cite(S22, 158, 159, 160), ["ACK-INVALID", "ERR-DLPE"],
            [ack(0), E(state=TX_STATE)])
    vf.test(g, "a Nak of a sequence number never sent: discarded (no replay), Data Link "
            "Protocol Error", cite(S22, 158, 159, 172), ["ACK-INVALID", "ERR-DLPE"],
            [send(0), E(), nak(7), E(state=TX_STATE)])
    vf.test(g, "an Ack across the wrap of ACKD_SEQ: after reset ACKD_SEQ is 4095 and an Ack "
            "of 0 acknowledges TLP 0 ((0 - 4095) mod 4096 = 1 outstanding)",
            cite(S21, 25) + "; " + cite(S22, 158, 164), ["ACK-PURGE", "TX-WRAP"],
            [send(0), send(1), E(), ack(0), E(state=TX_STATE)])
    vf.test(g, "a Nak then an Ack of later TLPs: each processed in turn, the Ack's progress "
            "stands", cite(S21, 109, 113) + "; " + cite(S22, 164, 170), ["COLLAPSE"],
            [send(0), send(1), send(2), E(), nak(0xFFF), ack(2), E(state=TX_STATE)])
    return vf


def gen_rx():
    vf = VecFile("rx.json", notes={**NOTE_D7, **NOTE_D19}, header=HEADER_COMMON + [
        "The receiver (L198-L268) applies in order: a PHY Receiver Error discards the TLP and "
        "schedules a Nak if none is; a nullified TLP is dropped silently when its LCRC is the "
        "inverse of the calculated one, else Bad TLP (L208's 'matches' is a mistranslation of "
        "'does not match'); a wrong LCRC is Bad TLP; a sequence number other than NEXT_RCV_SEQ "
        "is a duplicate when (NEXT_RCV_SEQ - seq) mod 4096 <= 2048 (an Ack), else lost TLPs (a "
        "Nak and Bad TLP, D-DLL-7: reported only when NAK_SCHEDULED was 0); an in-sequence TLP "
        "is delivered, NEXT_RCV_SEQ +1, NAK_SCHEDULED cleared. Ack and Nak carry NEXT_RCV_SEQ - "
        "1 (L293). The Ack latency limit is 1,000 symbol times here (D-DLL-8) and no time "
        "passes unless a step says so. Acks are expected when the latency timer reaches the "
        "limit (D-DLL-8); a device that acknowledges sooner (allowed, L291) differs where a "
        "vector expects nothing sent: ack_sched.json tcId 2 shows both readings."])
    g = vf.group("receiver", SETUP)
    vf.test(g, "in-sequence TLPs 0, 1, 2: delivered in order, NEXT_RCV_SEQ 3",
            cite(S31, 258, 260, 266), ["RX-INSEQ"],
            [rx(0, 0), rx(1, 1), rx(2, 2), E(state=RX_STATE)])
    vf.test(g, "a Receiver Error during a TLP: discarded, a Nak (AckNak_Seq_Num NEXT_RCV_SEQ - "
            "1 = 4095), NAK_SCHEDULED 1, no DLL error; a second one: no second Nak",
            cite(S31, 200, 201, 202, 203, 293), ["RX-PHYERR", "RX-ACKSEQ"],
            [rx(0, 0, phy_error=True), E(state=RX_STATE), rx(0, 0, phy_error=True),
             E(state=RX_STATE)])
    good = M.lcrc(0, bytes.fromhex(tlp(0)))
    vf.test(g, "a nullified TLP whose LCRC is the calculated value itself (not its inverse): "
            "Bad TLP, a Nak (L208 reads 'matches'; the base specification's 'does not match' "
            "is meant)", cite(S31, 206, 208, 210, 212, 214, 216), ["RX-NULL-BAD", "ERR-BAD-TLP"],
            [rx(0, 0, f"0x{good:08x}", edb=True), E(state=RX_STATE)])
    vf.test(g, "a nullified TLP with the inverted LCRC: dropped silently; the next TLP with "
            "the same sequence number is delivered", cite(S31, 206, 258),
            ["RX-NULL-OK", "RX-INSEQ"],
            [rx(0, 0, "inverted", edb=True), E(state=RX_STATE), rx(0, 1), E(state=RX_STATE)])
    vf.test(g, "a TLP with a bad LCRC: discarded, a Nak of 4095, NAK_SCHEDULED 1, Bad TLP; a "
            "second bad one: Bad TLP again, no second Nak", cite(S31, 225, 227, 229, 231, 235),
            ["RX-LCRC", "ERR-BAD-TLP"],
            [rx(0, 0, "bad"), E(state=RX_STATE), rx(0, 0, "bad"), E(state=RX_STATE)])
    vf.test(g, "a TLP not nullified (no EDB) carrying the inverted LCRC of a nullified one: a "
            "bad LCRC, Bad TLP and a Nak", cite(S31, 206, 219, 225, 235), ["RX-LCRC", "RX-NULL-OK"],
            [rx(0, 0, "inverted"), E(state=RX_STATE)])
    vf.test(g, "a bad LCRC is checked before the sequence number: a duplicate with a bad LCRC "
            "is a Bad TLP and a Nak, not an Ack", cite(S31, 198, 219, 225, 238),
            ["RX-LCRC", "RX-ORDER"],
            [rx(0, 0), rx(1, 1), E(), rx(0, 0, "bad"), E(state=RX_STATE)])
    vf.test(g, "the Nak stays scheduled until an in-sequence TLP clears NAK_SCHEDULED; then a "
            "new error gets a new Nak", cite(S31, 229, 231, 266, 268), ["RX-INSEQ", "RX-LCRC"],
            [rx(0, 0, "bad"), E(), rx(0, 0), E(state=RX_STATE), rx(1, 1, "bad"),
             E(state=RX_STATE)])
    vf.test(g, "a duplicate (TLP 0 again after 0 and 1): discarded, an Ack of 1 at once, no "
            "error", cite(S31, 240, 243, 244, 293), ["RX-DUP", "RX-ACKSEQ"],
            [rx(0, 0), rx(1, 1), E(), rx(0, 0), E(state=RX_STATE)])
    vf.test(g, "the duplicate window's edge with NEXT_RCV_SEQ 0: seq 2048 ((0 - 2048) mod 4096 "
            "= 2048) is a duplicate (an Ack of 4095), seq 2047 (2049) is out of sequence (a "
            "Nak, Bad TLP)", cite(S31, 243, 244, 246, 250, 255), ["RX-DUP", "RX-OOS"],
            [rx(2048, 5), E(state=RX_STATE), rx(2047, 5), E(state=RX_STATE)])
    vf.test(g, "seq 4095 with NEXT_RCV_SEQ 0 is a duplicate ((0 - 4095) mod 4096 = 1): an Ack "
            "of 4095", cite(S31, 243, 244), ["RX-DUP", "RX-ACKSEQ"],
            [rx(4095, 5), E(state=RX_STATE)])
    vf.test(g, "out of sequence (TLP 2 when 1 is expected: TLP 1 was lost): discarded, a Nak of "
            "0, NAK_SCHEDULED 1, Bad TLP", cite(S31, 246, 248, 250, 252, 255, 293),
            ["RX-OOS", "ERR-BAD-TLP", "RX-ACKSEQ"],
            [rx(0, 0), E(), rx(2, 2), E(state=RX_STATE)])
    vf.test(g, "out of sequence again while NAK_SCHEDULED is 1: no second Nak, no Bad TLP "
            "(reported only when the flag was 0: recommended, L257, D-DLL-7; the other reading "
            "reports Bad TLP again, allowed)",
            cite(S31, 248, 255, 257), ["RX-OOS", "RX-OOS-SCHEDULED"],
            [rx(0, 0), rx(2, 2), E(), rx(3, 3), E(state=RX_STATE)],
            readings=readings(a=("D-DLL-7: reported only when NAK_SCHEDULED was 0 (L257)", {}),
                              b=("L257: may be reported whatever NAK_SCHEDULED",
                                 {"bad_tlp_when_scheduled": True})), pin="D_DLL_7")
    vf.test(g, "after the Nak the replayed TLP 1 is in sequence: delivered, NAK_SCHEDULED "
            "cleared; the replayed 2 follows", cite(S31, 258, 266, 268),
            ["RX-INSEQ", "RX-OOS"],
            [rx(0, 0), rx(2, 2), E(), rx(1, 1), rx(2, 2), E(state=RX_STATE)])
    vf.test(g, "a duplicate while a Nak is scheduled: discarded and acknowledged (L244 does not "
            "depend on NAK_SCHEDULED), no error", cite(S31, 243, 244), ["RX-DUP"],
            [rx(0, 0), rx(2, 2), E(), rx(0, 0), E(state=RX_STATE)])
    rsv_good = M.lcrc(0, bytes.fromhex(tlp(0)), reserved=0x5)
    vf.test(g, f"a TLP whose 4 reserved bits above the sequence number are 0101b (LCRC "
            f"0x{rsv_good:08x} over them): on a port without protocol multiplexing they are "
            "reserved (L14) and ignored: delivered (D-DLL-19; a port with protocol "
            "multiplexing reads a PMUX packet, L13, and delivers nothing)",
            cite("PCIe Base §3.6.1", 13, 14) + "; " + cite(S31, 258), ["RX-RESERVED"],
            [rx(0, 0, f"0x{rsv_good:08x}", reserved=5), E(state=RX_STATE)],
            readings=readings(a=("L14: reserved bits ignored, the TLP delivered", {}),
                              b=("L13: not a TLP (a PMUX packet), not delivered",
                                 {"pmux_reserved": True})), pin="D_DLL_19")
    steps = [rx(k, k) for k in range(2048)]
    steps += [E(sent=False, delivered=False, state=RX_STATE), rx(0, 0), E(state=RX_STATE),
              rx(4095, 5), E(state=RX_STATE), rx(2048, 2048), E(state=RX_STATE)]
    steps += [rx(k, k) for k in range(2049, 4095)]
    steps += [E(sent=False, delivered=False, state=RX_STATE), rx(4095, 4095), rx(0, 4096),
              E(state=RX_STATE), rx(4095, 4095), E(state=RX_STATE)]
    vf.test(g, "4097 TLPs in sequence. At NEXT_RCV_SEQ 2048: seq 0 ((2048 - 0) mod 4096 = 2048) "
            "is a duplicate (an Ack of 2047), seq 4095 (2049) out of sequence (a Nak, Bad TLP), "
            "then 2048 in sequence clears NAK_SCHEDULED. NEXT_RCV_SEQ wraps 4095 -> 0; the "
            "duplicate 4095 afterwards is acknowledged with 0",
            cite(S31, 183, 243, 244, 246, 255, 266, 268, 293),
            ["RX-WRAP", "RX-DUP", "RX-OOS"], steps)
    vf.test(g, "a Receiver Error during a TLP whose LCRC is also bad: the PHY's error is "
            "handled first (L200, the rules apply in order, L198): a Nak, no Bad TLP",
            cite(S31, 198, 200, 201, 202), ["RX-PHYERR", "RX-ORDER"],
            [rx(0, 0, "bad", phy_error=True), E(state=RX_STATE)])
    vf.test(g, "a Receiver Error during a nullified TLP: handled as a Receiver Error (a Nak), "
            "not as a nullified TLP", cite(S31, 198, 200, 201, 206), ["RX-PHYERR", "RX-ORDER"],
            [rx(0, 0, "inverted", edb=True, phy_error=True), E(state=RX_STATE)])
    vf.test(g, "a nullified TLP with a wrong LCRC while NAK_SCHEDULED is 1: Bad TLP, no second "
            "Nak", cite(S31, 208, 210, 216), ["RX-NULL-BAD", "ERR-BAD-TLP"],
            [rx(0, 0, "bad"), E(), rx(0, 0, "good", edb=True), E(state=RX_STATE)])
    for seq in (0xABC, 0x7FF):
        data = bytes.fromhex(tlp(3))
        good = M.lcrc(seq, data)
        wrong = M.lcrc(seq & 0xFF, data)
        dist = M.d(0, seq)
        if dist <= M.WINDOW:
            # L243-244: a duplicate, acknowledged
            what = (f"a duplicate ((0 - {seq}) mod 4096 = {dist} <= 2048): an Ack of 4095; with "
                    f"the LCRC of header {M.seq_header(seq & 0xFF).hex()} (0x{wrong:08x}): Bad "
                    "TLP and a Nak")
            lines, rule = cite(S31, 219, 225, 227, 235, 243, 244), "RX-DUP"
        else:
            # L246-255: lost TLPs; then a bad LCRC with NAK_SCHEDULED already 1 (L227)
            what = (f"out of sequence ((0 - {seq}) mod 4096 = {dist} > 2048: TLPs lost): a Nak of "
                    f"4095 and Bad TLP; with the LCRC of header {M.seq_header(seq & 0xFF).hex()} "
                    f"(0x{wrong:08x}): Bad TLP, no second Nak (NAK_SCHEDULED is 1)")
            lines, rule = cite(S31, 219, 225, 227, 235, 243, 246, 248, 255), "RX-OOS"
        vf.test(g, f"a TLP with sequence number {seq} ({seq:#05x}: header bytes "
                f"{M.seq_header(seq).hex()}) and LCRC 0x{good:08x}: the LCRC is good, the TLP "
                + what, cite(S21, 46, 47, 63) + "; " + lines,
                ["TX-LCRC", "TX-SEQHDR", "RX-LCRC", rule],
                [rx(seq, 3, f"0x{good:08x}"), E(state=RX_STATE), rx(seq, 3, f"0x{wrong:08x}"),
                 E(state=RX_STATE)])
    return vf


def gen_ack_sched():
    vf = VecFile("ack_sched.json", notes={**NOTE_D8, **NOTE_PRIORITY}, header=HEADER_COMMON + [
        "Ack scheduling (L193-L197, L272-L297): AckNak_LATENCY_TIMER starts when a TLP is "
        "forwarded to the TL with nothing unacknowledged, restarts at each Ack or Nak, is 0 "
        "when all is acknowledged; an Ack is sent when it reaches the Ack Latency Limit (Tables "
        "3-7..3-9, absent: the profile's ack_latency_limit, D-DLL-8, set here to 1,000) with "
        "NAK_SCHEDULED 0. Acks may be sent more often (L291)."])
    g = vf.group("Ack latency limit 1,000", SETUP)
    vf.test(g, "a TLP delivered, 1,000 symbol times pass: one Ack of its sequence number; the "
            "timer is 0 again", cite(S31, 195, 196, 272, 276, 278, 293),
            ["RX-ACKLAT", "RX-ACKSEQ"],
            [rx(0, 0), adv(1000), E(state=("acknak_latency_timer", "next_rcv_seq"))])
    vf.test(g, "no Ack before the limit: the Ack is scheduled when the latency timer reaches "
            "ack_latency_limit (D-DLL-8); a device may acknowledge sooner (L291)", cite(S31, 278, 291), ["RX-ACKLAT"],
            [rx(0, 0), E(), adv(999), E()],
            readings=readings(a=("the Ack at the latency limit", {}),
                              b=("an Ack sooner (L291)", {"eager_ack": True})), pin="D_DLL_8")
    vf.test(g, "three TLPs at 0, 400, 800: the timer started at the first (L196) is not "
            "restarted by the others: one Ack of 2 at 1,000", cite(S31, 195, 196, 278),
            ["RX-ACKLAT"],
            [rx(0, 0), adv(400), rx(1, 1), adv(400), rx(2, 2), E(sent=False), adv(200), E()])
    vf.test(g, "no Ack while NAK_SCHEDULED is 1, however long (L286)", cite(S31, 286, 278),
            ["RX-ACKLAT", "RX-ACK-NAKSCHED"],
            [rx(0, 0), rx(2, 2), E(), adv(5000), E(state=RX_STATE)])
    vf.test(g, "AckNak_LATENCY_TIMER counts from the delivery: 500 after it reads 500; an Ack "
            "at 1,000 sets it to 0; a TLP delivered 300 later starts it again and its Ack "
            "follows 1,000 after that", cite(S31, 194, 195, 196, 278), ["RX-ACKLAT"],
            [rx(0, 0), adv(500), E(state=("acknak_latency_timer",)), adv(500),
             E(state=("acknak_latency_timer",)), adv(300), rx(1, 1), adv(999),
             E(state=("acknak_latency_timer",)), adv(1), E()])
    vf.test(g, "a Nak restarts AckNak_LATENCY_TIMER but acknowledges nothing with an Ack "
            "(L195, L276: acknowledged by an Ack DLLP): TLP 0 delivered, TLP 2 out of sequence "
            "(a Nak), 5,000 later TLP 1 arrives in sequence: NAK_SCHEDULED cleared and the "
            "timer long past the limit: an Ack of 1 at once", cite(S31, 195, 276, 278, 286, 288),
            ["RX-ACKLAT", "RX-ACK-NAKSCHED"],
            [rx(0, 0), rx(2, 2), E(), adv(5000), E(state=("acknak_latency_timer",)), rx(1, 1),
             E(state=RX_STATE + ("acknak_latency_timer",))])
    vf.test(g, "nothing received: no Ack, ever", cite(S31, 276), ["RX-ACKLAT"],
            [adv(100000), E(state=("acknak_latency_timer",))])
    vf.test(g, "a duplicate's Ack restarts the timer and acknowledges everything: no second Ack "
            "at the limit", cite(S31, 195, 244, 288), ["RX-ACKLAT", "RX-DUP"],
            [rx(0, 0), adv(500), rx(0, 0), E(state=("acknak_latency_timer",)), adv(2000), E()])
    g = vf.group("Ack latency limit 1,000, priority recommended", dict(SETUP, priority="recommended"))
    vf.test(g, "no Ack while the link retrains (not in L0, L280): a TLP delivered during the "
            "retrain is acknowledged when the retrain is done, before the replay (priority 3 "
            "before 5, L140)", cite(S31, 272, 280, 282) + "; " + cite(S21, 90, 140),
            ["RX-ACKLAT", "ROLLOVER", "PRIORITY"],
            [send(0), nak(0xFFF), nak(0xFFF), nak(0xFFF), nak(0xFFF), E(), rx(0, 0), adv(5000),
             E(state=("retraining",)), RD, E()], pin="Priority")
    return vf


def gen_link_down():
    vf = VecFile("link_down.json", notes=NOTE_D17, header=HEADER_COMMON + [
        "DL_Inactive (link down) resets every counter, flag and timer to its DL_Inactive value "
        "and empties the retry buffer (L17, L23, L25, L29, L91, L184, L189, L194)."])
    g = vf.group("link down", SETUP)
    vf.test(g, "after TLPs sent and received, a Nak and a bad TLP, the link goes down: every "
            "value back to its DL_Inactive value, the retry buffer empty",
            cite(S21, 23, 25, 29, 91) + "; " + cite(S31, 184, 189, 194), ["LINK-DOWN"],
            [send(0), send(1), send(2), ack(0), nak(0), rx(0, 0), rx(1, 1), rx(3, 3), adv(100),
             E(sent=False), LD, E(state=ALL_STATE)])
    vf.test(g, "after the link goes down nothing owed survives: no Ack for TLPs delivered "
            "before, no replay of TLPs sent before, however long", cite(S21, 91) + "; " +
            cite(S31, 194), ["LINK-DOWN"],
            [send(0), rx(0, 0), E(), LD, adv(200000), E(state=ALL_STATE)])
    vf.test(g, "a bad TLP after the link went down gets a Nak of 4095 (NEXT_RCV_SEQ 0 again, "
            "NAK_SCHEDULED cleared by the reset)", cite(S31, 184, 189, 229, 293),
            ["LINK-DOWN", "RX-LCRC"],
            [rx(0, 0), rx(2, 2), E(), LD, rx(5, 5, "bad"), E(state=RX_STATE)])
    vf.test(g, "the end, DL_Active again after the link comes back, numbers its first TLP 0 and "
            "the receiver expects 0", cite(S21, 23, 25) + "; " + cite(S31, 184),
            ["LINK-DOWN", "TX-RESET"],
            [send(0), send(1), rx(0, 0), E(), LD, send(7), rx(0, 8), E(state=ALL_STATE)],
            pin="D_DLL_17")
    return vf


FILES = [gen_lcrc, gen_dllp, gen_tx_seq, gen_replay_timer, gen_replay, gen_acknak, gen_rx,
         gen_ack_sched, gen_link_down]


def build():
    return [make() for make in FILES]


def main(argv):
    check = "--check" in argv
    bad = 0
    for vf in build():
        text = dump(vf.doc())
        path = os.path.join(OUT, vf.name)
        if check:
            try:
                with open(path, encoding="utf-8") as fh:
                    same = fh.read() == text
            except OSError:
                same = False
            if not same:
                print(f"gen_pcie: {path} differs from the generator's output", file=sys.stderr)
                bad = 1
        else:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

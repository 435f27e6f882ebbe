#!/usr/bin/python3
"""An independent model of the PCIe data link layer's data integrity rules, from PCI Express
Base Specification §3.6 (seed 003, cited by line as "L<n>") and the project's decisions
D-DLL-1..9 (docs/pcie.md). It never reads nicref's model or harness.

Three parts:

1. CRCs. The LCRC (L53-L69) twice: `lcrc_bitwise`, a bit-serial register written from the text
   (polynomial 04C11DB7h, seed FFFFFFFFh, bits fed from byte 0 bit 0 to bit 7 of each byte,
   remainder complemented, then mapped to the field by D-DLL-2 since Table 3-6 is absent), and
   `lcrc_zlib`, Python's zlib.crc32 (the Ethernet FCS convention D-DLL-2 names). They must
   agree. The DLLP CRC (16 bits, polynomial 100Bh, seed FFFFh, L143-L146 "the same algorithm
   as the transmitter", public facts for its parameters) is bit-serial too, in the same
   conventions; `dllp_crc_reflected` is a second, table-free reflected form (polynomial
   reversed, D008h) that must agree with it.

2. `DllEnd`: one end (transmitter §3.6.2, receiver §3.6.3) in virtual time (symbol times,
   D-DLL-9), driven by the steps of the vector language (docs/pcie.md): tl_send, rx_tlp,
   rx_dllp, advance, retrain_done, link_down. Transmissions take no time (the end transmits at
   the step's instant). It logs what it sent, delivered and reported.

3. `Checker` (in trace_checker.py, which uses this module): judges a two-end link trace (nicref_dll_trace_v1 JSONL) against both ends'
   rules and names the first violation per direction (rule names of docs/pcie.md).

Values: an LCRC is written as the 32-bit number whose little-endian bytes follow the TLP on the
wire (zlib.crc32's value, D-DLL-2); a DLLP CRC as the 16-bit number whose little-endian bytes
follow the DLLP body.
"""
import zlib

SEQ_MOD = 4096
WINDOW = 2048

LCRC_POLY = 0x04C11DB7     # L57
LCRC_SEED = 0xFFFFFFFF     # L59 (printed "FFFFFFFh", seven digits: a typo for the 32-bit seed)
LCRC_RESIDUE = 0xDEBB20E3  # reflected register after seqhdr || TLP || LCRC (uncomplemented)
DLLP_POLY = 0x100B
DLLP_SEED = 0xFFFF

DLLP_ACK = 0x00
DLLP_NAK = 0x10
# DLLP type encodings of the base specification (a public fact; the seed has no table). Any
# other byte-0 value is reserved: a DLLP with it is "unsupported" (L148).
DLLP_TYPES_DEFINED = ({0x00, 0x01, 0x02, 0x10, 0x20, 0x21, 0x23, 0x24, 0x30, 0x31}
                      | {base | vc for base in (0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0,
                                                0xC0, 0xD0, 0xE0, 0xF0) for vc in range(8)})


def d(a, b):
    """(a - b) mod 4096: the distance of sequence numbers (L48, L243)."""
    return (a - b) % SEQ_MOD


def bitrev(v, n):
    r = 0
    for i in range(n):
        if v >> i & 1:
            r |= 1 << (n - 1 - i)
    return r


# ---------------------------------------------------------------------------------------------
# LCRC

def seq_header(seq, reserved=0):
    """Figure 3-15 (L46-L47): 4 reserved bits, then the 12-bit sequence number, most
    significant first: byte 0 = reserved[3:0] << 4 | seq[11:8], byte 1 = seq[7:0]."""
    return bytes([(reserved & 0xF) << 4 | (seq >> 8) & 0xF, seq & 0xFF])


def lcrc_register_bitwise(data, reg=LCRC_SEED):
    """The CRC register as the text describes it: a 32-bit shift register with polynomial
    04C11DB7h (L57) and seed FFFFFFFFh (L59), fed one bit at a time starting at byte 0 bit 0 and
    going bit 0 to bit 7 of each byte (L63), every bit of the TLP including reserved ones (L64).
    The register's bit 31 is the highest-order coefficient."""
    for byte in data:
        for i in range(8):
            bit = byte >> i & 1
            top = reg >> 31 & 1
            reg = (reg << 1) & 0xFFFFFFFF
            if top ^ bit:
                reg ^= LCRC_POLY
    return reg


def lcrc_bitwise(data):
    """L66: the remainder is complemented and mapped into the 32-bit LCRC field (Table 3-6,
    absent from the seed). D-DLL-2 maps it as the Ethernet FCS: remainder bit 31 is the first
    bit on the wire, i.e. LCRC byte k bit j = complemented remainder bit 31 - (8k + j). The
    result is the value whose little-endian bytes are those LCRC bytes."""
    rem = lcrc_register_bitwise(data) ^ 0xFFFFFFFF
    out = bytearray(4)
    for k in range(4):
        for j in range(8):
            if rem >> (31 - (8 * k + j)) & 1:
                out[k] |= 1 << j
    return int.from_bytes(out, "little")


def lcrc_zlib(data):
    """D-DLL-2 through an independent implementation: zlib.crc32 (reflected CRC-32, the
    Ethernet FCS), whose little-endian bytes are the LCRC field."""
    return zlib.crc32(bytes(data)) & 0xFFFFFFFF


def lcrc(seq, tlp, reserved=0):
    """The LCRC of a TLP sent with this sequence number: both implementations must agree."""
    data = seq_header(seq, reserved) + bytes(tlp)
    a, b = lcrc_bitwise(data), lcrc_zlib(data)
    if a != b:
        raise AssertionError(f"LCRC implementations disagree on {data.hex()}: {a:#x} {b:#x}")
    return a


def lcrc_residue(data_with_lcrc):
    """The reflected CRC register (uncomplemented) after the data and its LCRC bytes."""
    return (zlib.crc32(bytes(data_with_lcrc)) ^ 0xFFFFFFFF) & 0xFFFFFFFF


# ---------------------------------------------------------------------------------------------
# DLLP CRC

def dllp_body(dtype, seq=0, reserved=0):
    """An Ack or Nak DLLP's 4 bytes (base specification DLLP format, a public fact): byte 0 the
    type, then 12 reserved bits and the 12-bit AckNak_Seq_Num (byte 2 bits 3:0 = seq[11:8],
    byte 3 = seq[7:0]). `reserved` is the value of the 12 reserved bits."""
    word = (dtype & 0xFF) << 24 | (reserved & 0xFFF) << 12 | seq & 0xFFF
    return word.to_bytes(4, "big")


def dllp_crc_bitwise(body):
    """16-bit CRC over the 4 DLLP body bytes: polynomial 100Bh, seed FFFFh, the same bit order
    and mapping conventions as the LCRC (bits fed LSB first, remainder complemented, remainder
    bit 15 the first bit of the field): the value whose little-endian bytes follow the body."""
    reg = DLLP_SEED
    for byte in body:
        for i in range(8):
            bit = byte >> i & 1
            top = reg >> 15 & 1
            reg = (reg << 1) & 0xFFFF
            if top ^ bit:
                reg ^= DLLP_POLY
    rem = reg ^ 0xFFFF
    out = bytearray(2)
    for k in range(2):
        for j in range(8):
            if rem >> (15 - (8 * k + j)) & 1:
                out[k] |= 1 << j
    return int.from_bytes(out, "little")


def dllp_crc_reflected(body):
    """The same CRC in reflected form (polynomial bit-reversed: D008h), complemented; the
    value's little-endian bytes are the field. Must agree with dllp_crc_bitwise."""
    reg = DLLP_SEED
    for byte in body:
        reg ^= byte
        for _ in range(8):
            reg = (reg >> 1) ^ 0xD008 if reg & 1 else reg >> 1
    return reg ^ 0xFFFF


def dllp_crc(body):
    a, b = dllp_crc_bitwise(body), dllp_crc_reflected(body)
    if a != b:
        raise AssertionError(f"DLLP CRC implementations disagree on {bytes(body).hex()}")
    return a


def dllp_residue(body_and_crc):
    """The reflected register (uncomplemented) after the body and its 2 CRC bytes."""
    reg = DLLP_SEED
    for byte in body_and_crc:
        reg ^= byte
        for _ in range(8):
            reg = (reg >> 1) ^ 0xD008 if reg & 1 else reg >> 1
    return reg


# ---------------------------------------------------------------------------------------------
# One end

SEQHDR_BYTES, LCRC_BYTES, DLLP_BYTES = 2, 4, 6     # Fig. 3-14; a DLLP's 4 bytes and CRC


def span(nbytes, symbol_cost, link_width=1):
    """Symbol times from a packet's first symbol to the end of its last (D-DLL-22): one byte per
    lane per symbol time (8b/10b and 128b/130b alike), symbol_cost symbol times per byte; the
    PHY's framing symbols are not counted (Chapter 4, not in the seed)."""
    return -(-nbytes * symbol_cost // link_width)


class Params:
    def __init__(self, ack_latency_limit=1000, replay_limit=24000, extended_synch=0,
                 replay_limit_es1=80000, symbol_cost=0, link_width=1):
        self.ack_latency_limit = ack_latency_limit
        self.replay_limit = replay_limit            # Extended Synch 0 (L125, D-DLL-3)
        self.replay_limit_es1 = replay_limit_es1    # Extended Synch 1 (L126, D-DLL-3)
        self.extended_synch = extended_synch
        # How long a packet lasts on the wire: 0 at one end, where a transmission takes no time
        # (D-DLL-12, the vectors); a link's cost in a two-end run (gen_traces.py), where the
        # timers start at a packet's last symbol (L33-35, L102, L134, L196, L295; D-DLL-22).
        self.symbol_cost = symbol_cost
        self.link_width = link_width

    def limit(self):
        return self.replay_limit_es1 if self.extended_synch else self.replay_limit

    def span(self, nbytes):
        return span(nbytes, self.symbol_cost, self.link_width)


class Options:
    """Readings where the seed leaves a choice: the defaults are docs/pcie.md's decisions; a
    test that rests on one runs the others too (vecfmt.py: a matcher or a PROFILE flag)."""
    def __init__(self, replay_num_reset_any_ack=False, nak_progress_increment=True,
                 replay_skips_acked=True, bad_tlp_when_scheduled=False, ack_before_replay=True,
                 pmux_reserved=False, eager_ack=False, es_at_once=False):
        self.replay_num_reset_any_ack = replay_num_reset_any_ack   # L28 vs L164-L168 (D-DLL-4)
        self.nak_progress_increment = nak_progress_increment       # L88 (D-DLL-5)
        self.replay_skips_acked = replay_skips_acked               # L106 (D-DLL-6), not begun
        self.bad_tlp_when_scheduled = bad_tlp_when_scheduled       # L257 (D-DLL-7)
        self.ack_before_replay = ack_before_replay                 # L140 priority 3 before 5
        self.pmux_reserved = pmux_reserved    # L13: non-zero bits 7:4 of symbol 0: a PMUX packet
        self.eager_ack = eager_ack            # L291: an Ack as soon as a TLP is delivered
        self.es_at_once = es_at_once          # L127: a new Extended Synch limit at once, not at
                                              # the timer's next reset or start (D-DLL-14)


class DllEnd:
    """One data link layer end in DL_Active (after link_down: DL_Inactive values)."""

    def __init__(self, params=None, options=None):
        self.p = params or Params()
        self.o = options or Options()
        self.now = 0
        self.sent = []        # {"tlp": {...}} / {"dllp": {...}}
        self.delivered = []   # hex strings
        self.errors = []      # names
        self.tl_stalled = False
        self.reset()

    # DL_Inactive values (L23, L25, L29, L184, L189, L194)
    def reset(self):
        self.next_transmit_seq = 0
        self.ackd_seq = 0xFFF
        self.replay_num = 0
        self.replay_timer = 0
        self.replay_timer_running = False
        self.replay_timer_wait = 0      # until the last symbol of the packet that started it
        self.retry = []                 # [(seq, tlp bytes, lcrc)] oldest first
        self.next_rcv_seq = 0
        self.nak_scheduled = 0
        self.acknak_latency_timer = 0
        self.acknak_wait = 0            # until the last symbol of the TLP that started it
        self.unacked_rx = False         # a TLP forwarded to TL and not yet acknowledged (L276)
        self.limit_latched = None       # the REPLAY_TIMER limit taken at its last start/reset
        self.dllp_pending = []          # Acks/Naks scheduled while the link retrains
        self.retraining = False         # waiting for the retrain REPLAY_NUM asked (L90)
        self.in_recovery = False        # the link retrains for the other end (two-end link)
        self.replay_planned = []        # the replay that waits for it

    def held(self):
        """The link is out of L0 (a retrain): timers hold (L38), nothing is transmitted."""
        return self.retraining or self.in_recovery

    def state(self):
        return {"next_transmit_seq": self.next_transmit_seq, "ackd_seq": self.ackd_seq,
                "replay_num": self.replay_num, "replay_timer_running": self.replay_timer_running,
                "replay_timer": self.replay_timer, "next_rcv_seq": self.next_rcv_seq,
                "nak_scheduled": self.nak_scheduled,
                "acknak_latency_timer": self.acknak_latency_timer,
                "retry_buffer": [s for s, _, _ in self.retry], "retraining": self.retraining}

    def take(self):
        """What happened since the previous take (an expect step)."""
        out = (self.sent, self.delivered, self.errors)
        self.sent, self.delivered, self.errors = [], [], []
        return out

    # -- transmitter ---------------------------------------------------------------------------

    def outstanding(self):
        return d(self.next_transmit_seq - 1, self.ackd_seq)

    def _send_tlp(self, seq, crc, nullified=False, replay=False, data=b""):
        self.sent.append({"tlp": {"seq": seq, "lcrc": crc, "nullified": nullified,
                                  "replay": replay}, "data": bytes(data)})

    def _timer_restart(self, running, nbytes=0):
        """REPLAY_TIMER reset to 0, running or held; the limit is taken now (L127, D-DLL-14).
        Restarted by a packet of nbytes transmitted or received, it counts from that packet's
        last symbol (L33-35, L102, L134): at one end at once (no time on the wire)."""
        self.replay_timer = 0
        self.replay_timer_running = running
        self.replay_timer_wait = self.p.span(nbytes) if running else 0
        self.limit_latched = self.p.limit()

    def limit(self):
        if self.o.es_at_once or self.limit_latched is None:
            return self.p.limit()
        return self.limit_latched

    def _start_timer_if_stopped(self, tlp):
        # L33: the timer starts at the last symbol of any TLP transmission if not running
        if not self.replay_timer_running:
            self._timer_restart(True, SEQHDR_BYTES + len(tlp) + LCRC_BYTES)

    def tl_send(self, tlp, nullify=False):
        tlp = bytes(tlp)
        # L48 and D-DLL-1: stall the TL while (NEXT_TRANSMIT_SEQ - ACKD_SEQ) mod 4096 >= 2048
        if d(self.next_transmit_seq, self.ackd_seq) >= WINDOW or self.retraining:
            self.tl_stalled = True
            return
        self.tl_stalled = False
        seq = self.next_transmit_seq
        good = lcrc(seq, tlp)
        if nullify:
            # L70-L81: the remainder not complemented (the inverse of the LCRC), the sequence
            # number not advanced, no copy in the retry buffer (L83)
            self._send_tlp(seq, good ^ 0xFFFFFFFF, nullified=True, data=tlp)
            return
        self.retry.append((seq, tlp, good))                        # L83
        self.next_transmit_seq = (seq + 1) % SEQ_MOD               # L49
        self._send_tlp(seq, good, data=tlp)
        self._start_timer_if_stopped(tlp)                          # L33

    def _replay(self, cause_timer, increment=True):
        """L84-L118. Called on a Nak (after its acknowledgement part) or a timer expiry."""
        if cause_timer:
            self.errors.append("replay_timer_timeout")             # L131
        if not self.retry:                                         # L86
            return
        if increment:
            self.replay_num = (self.replay_num + 1) % 4            # L88 (D-DLL-5)
        # L37: reset and hold until the replay restarts it
        self._timer_restart(False)
        if increment and self.replay_num == 0:                     # L90
            self.errors.append("replay_num_rollover")
            self.retraining = True
            self.replay_planned = list(self.retry)
            return
        self._retransmit(self.retry)

    def _retransmit(self, entries):
        """L96-L118: all unacknowledged TLPs from the oldest, in order, with their sequence
        numbers and LCRCs; the timer reset and started at the first one's last symbol (L102)."""
        for k, (seq, tlp, crc) in enumerate(entries):
            self._send_tlp(seq, crc, replay=True, data=tlp)
            if k == 0:
                self._timer_restart(True, SEQHDR_BYTES + len(tlp) + LCRC_BYTES)
        if not self.retry:
            # every TLP was acknowledged meanwhile: the timer is reset and held (L40)
            self._timer_restart(False)

    def retrain_done(self):
        """L90: the retrain finished; the replay that waited for it goes on. L106: a TLP
        acknowledged meanwhile may be skipped (replay_skips_acked) or the replay finished as
        planned."""
        if self.in_recovery and not self.retraining:
            # the retrain was the other end's: the link is back in L0 (L38: the timers held)
            self.in_recovery = False
            self._flush_dllps()
            self._ack_if_due()
            return
        if not self.retraining:
            return
        self.retraining = False
        self.in_recovery = False
        planned, self.replay_planned = self.replay_planned, []
        if self.o.replay_skips_acked:
            planned = list(self.retry)
        # L280: DLLPs scheduled while the link was out of L0 and an Ack that fell due are sent
        # now (Nak 2, Ack 3 before the replay's 5, L140)
        if self.o.ack_before_replay:
            self._flush_dllps()
            self._ack_if_due()
        self._retransmit(planned)
        if not self.o.ack_before_replay:
            self._flush_dllps()
            self._ack_if_due()

    # -- received DLLPs (L141-L174) ------------------------------------------------------------

    def rx_dllp(self, dtype, seq, crc_ok=True, reserved=0, phy_error=False):
        if phy_error:                                              # L142
            return
        if not crc_ok:                                             # L143-L147
            self.errors.append("bad_dllp")
            return
        if dtype not in (DLLP_ACK, DLLP_NAK):
            # L148: unsupported types dropped silently; FC and PM DLLPs go elsewhere (L153-L155)
            return
        # L149: reserved fields ignored
        n = self.outstanding()
        if d(seq, self.ackd_seq) > n:                              # L158-L159
            self.errors.append("dl_protocol_error")
            return
        progress = seq != self.ackd_seq
        if progress:                                               # L162-L168
            while self.retry and d(self.retry[0][0], self.ackd_seq) <= d(seq, self.ackd_seq):
                self.retry.pop(0)
            self.ackd_seq = seq
            self.replay_num = 0
            # L35 restart while TLPs remain; L40 reset and hold when none remain; while a
            # replay waits for the retrain it stays held until the replay (L37)
            self._timer_restart(bool(self.retry) and not self.retraining, DLLP_BYTES)
        elif self.o.replay_num_reset_any_ack and dtype == DLLP_ACK:
            self.replay_num = 0                                    # L28's literal reading
        if dtype == DLLP_NAK:                                      # L170
            if self.retraining:
                return    # a replay is already waiting for the retrain
            # L88: after a Nak that acknowledged TLPs the increment is allowed, not required
            self._replay(False, increment=not progress or self.o.nak_progress_increment)

    # -- received TLPs (L198-L268) -------------------------------------------------------------

    def _schedule_nak(self):
        if self.nak_scheduled == 0:
            self.nak_scheduled = 1
            self._send_dllp(DLLP_NAK)

    def _send_dllp(self, dtype):
        """Schedule an Ack or Nak: sent at once, or when the link is back in L0 if it is
        retraining (L280-L282); one of each type waits, the latest (L138)."""
        # L195, L288: restarts from 0 at each scheduled Ack or Nak; 0 (and held) once an Ack
        # DLLP has acknowledged every TLP received: when the Ack is transmitted
        self.acknak_latency_timer = 0
        self.acknak_wait = 0
        if self.held():
            if dtype not in self.dllp_pending:
                self.dllp_pending.append(dtype)
            return
        self._transmit_dllp(dtype)

    def _transmit_dllp(self, dtype):
        if dtype == DLLP_ACK:
            self.unacked_rx = False
            self.acknak_latency_timer = 0
            self.acknak_wait = 0
        seq = (self.next_rcv_seq - 1) % SEQ_MOD                    # L293
        self.sent.append({"dllp": {"type": "ack" if dtype == DLLP_ACK else "nak", "seq": seq,
                                   "crc": dllp_crc(dllp_body(dtype, seq))}})

    def _flush_dllps(self):
        # L140: a Nak before an Ack
        for dtype in sorted(self.dllp_pending, key=lambda t: t != DLLP_NAK):
            self._transmit_dllp(dtype)
        self.dllp_pending = []

    def rx_tlp(self, seq, tlp, crc, edb=False, phy_error=False, reserved=0):
        tlp = bytes(tlp)
        if phy_error:                                              # L200-L203
            self._schedule_nak()
            return
        good = lcrc(seq, tlp, reserved)
        if reserved and self.o.pmux_reserved:
            return
        if edb:                                                    # L206-L216
            if crc == good ^ 0xFFFFFFFF:
                return
            self._bad_tlp()
            return
        if crc != good:                                            # L219-L235
            self._bad_tlp()
            return
        if seq != self.next_rcv_seq:                               # L238-L257
            if d(self.next_rcv_seq, seq) <= WINDOW:
                self._send_dllp(DLLP_ACK)                          # L243-L244 duplicate
                return
            was = self.nak_scheduled
            self._schedule_nak()
            if was == 0 or self.o.bad_tlp_when_scheduled:
                self.errors.append("bad_tlp")
            return
        self.delivered.append(tlp.hex())                           # L258-L268
        self.next_rcv_seq = (self.next_rcv_seq + 1) % SEQ_MOD
        self.nak_scheduled = 0
        if not self.unacked_rx:
            # L196: from the TLP's forwarding, once its last symbol is in (L295)
            self.unacked_rx = True
            self.acknak_latency_timer = 0
            self.acknak_wait = self.p.span(SEQHDR_BYTES + len(tlp) + LCRC_BYTES)
        self._ack_if_due()

    def _bad_tlp(self):
        self._schedule_nak()
        self.errors.append("bad_tlp")

    def _ack_if_due(self):
        # L272-L288: DL_Active, an unacknowledged TLP, the timer at or past the limit, the link
        # in L0 and free, NAK_SCHEDULED 0
        if (self.unacked_rx and self.nak_scheduled == 0 and not self.held()
                and (self.acknak_latency_timer >= self.p.ack_latency_limit
                     or self.o.eager_ack)):
            self._send_dllp(DLLP_ACK)

    # -- time -------------------------------------------------------------------------------

    def advance(self, symbols):
        """Time passes; each instant at which a timer reaches its limit is handled in order."""
        left = symbols
        while left > 0:
            dist = [left]
            if self.replay_timer_running and not self.held():
                dist.append(self.replay_timer_wait + self.limit() - self.replay_timer)
            if self.unacked_rx and self.nak_scheduled == 0 and not self.held():
                dist.append(self.acknak_wait + self.p.ack_latency_limit
                            - self.acknak_latency_timer)
            step = max(min(dist), 1)
            self._tick(step)
            left -= step
            self._fire()

    def _tick(self, n):
        self.now += n
        # a packet's last symbol comes whether or not the link then retrains (D-DLL-22)
        w = min(n, self.replay_timer_wait)
        self.replay_timer_wait -= w
        if self.replay_timer_running and not self.held():          # L38 held during retrain
            self.replay_timer += n - w
        w = min(n, self.acknak_wait)
        self.acknak_wait -= w
        if self.unacked_rx:
            self.acknak_latency_timer += n - w

    def _fire(self):
        ack_due = (self.unacked_rx and self.nak_scheduled == 0 and not self.held()
                   and self.acknak_latency_timer >= self.p.ack_latency_limit)
        replay_due = (self.replay_timer_running and not self.held()
                      and self.replay_timer >= self.limit() and bool(self.retry))
        # L140: Ack (priority 3) before a replay (priority 5), a recommendation
        if ack_due and self.o.ack_before_replay:
            self._ack_if_due()
        if replay_due:
            self._replay(True)                                     # L123
        if ack_due and not self.o.ack_before_replay:
            self._ack_if_due()

    def link_down(self):
        self.reset()


# ---------------------------------------------------------------------------------------------
# The step language of vectors/pcie (docs/pcie.md), run on a DllEnd

# The step language's "good" values are the harness's, not the end's: a self-check may replace
# the end's CRC functions (a mutant) without changing what the vectors mean.
HARNESS_LCRC = lcrc
HARNESS_DLLP_CRC = dllp_crc


def tlp_bytes(spec):
    return bytes.fromhex(spec)


def run_steps(end, steps):
    """Run steps (without expect) and return nothing; expect steps are handled by the caller."""
    for st in steps:
        (kind, a), = st.items()
        if kind == "tl_send":
            end.tl_send(tlp_bytes(a["tlp"]), a.get("nullify", False))
        elif kind == "rx_tlp":
            tlp = tlp_bytes(a["tlp"])
            res = a.get("reserved", 0)
            good = HARNESS_LCRC(a["seq"], tlp, res)
            spec = a.get("lcrc", "good")
            crc = {"good": good, "bad": good ^ 0x00000001, "inverted": good ^ 0xFFFFFFFF}.get(
                spec) if spec in ("good", "bad", "inverted") else int(spec, 0)
            end.rx_tlp(a["seq"], tlp, crc, a.get("edb", False), a.get("phy_error", False), res)
        elif kind == "rx_dllp":
            t = a["type"]
            dtype = {"ack": DLLP_ACK, "nak": DLLP_NAK}.get(t) if t in ("ack", "nak") else int(t, 0)
            body = dllp_body(dtype, a.get("seq", 0), a.get("reserved", 0))
            good = HARNESS_DLLP_CRC(body)
            spec = a.get("crc", "good")
            crc = {"good": good, "bad": good ^ 0x0001}.get(spec) if spec in ("good", "bad") \
                else int(spec, 0)
            end.rx_dllp(dtype, a.get("seq", 0), crc == good, a.get("reserved", 0),
                        a.get("phy_error", False))
        elif kind == "dll":
            # parameters changed during a test (Extended Synch, the Ack latency limit)
            if "extended_synch" in a:
                end.p.extended_synch = a["extended_synch"]
            if "ack_latency_limit" in a:
                end.p.ack_latency_limit = a["ack_latency_limit"]
                end._ack_if_due()       # an Ack now due is scheduled at this instant
            if "priority" in a:
                end.o.ack_before_replay = a["priority"] == "recommended"
        elif kind == "advance":
            end.advance(a["symbols"])
        elif kind == "retrain_done":
            end.retrain_done()
        elif kind == "link_down":
            end.link_down()
        else:
            raise ValueError(kind)

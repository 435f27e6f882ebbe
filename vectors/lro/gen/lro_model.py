"""An independent model of Large Receive Offload as ConnectX-4 PRM Rev 0.40 describes it
(§3.3.6.1-§3.3.6.6, T5, T45 lro_*, T68 lro_* CQE fields, T147 lro_* capabilities), written
for the LRO vector generator (gen_lro.py) from the PRM and the decisions D-LRO-1..10 of issue 15
(recorded in docs/lro.md). It parses frames byte by byte (no Scapy: test_gen_lro.py checks the
parse against Scapy's dissection) and never uses nicref's model or output.

The model is a small device: TIRs with their LRO settings over RQs with posted WQEs, a session
table shared by the device (D-LRO-1), virtual time in nanoseconds. Feed it with `frame(bytes)`,
`advance(ns)`, `modify_tir(i, lro)`, `destroy_tir(i)`, `rq_error(rq)`; each call returns the
list of what happened, in order, as dicts:

    {"ev": "open",  "tir", "rq", "wqe", "len"}
    {"ev": "merge", "tir", "rq", "wqe", "num_seg", "bytes"}
    {"ev": "end",   "tir", "rq", "wqe", "cause", "num_seg", "byte_cnt"}   then a "cqe"
    {"ev": "pass",  "tir", "rq", "cause"}                                 then a "cqe"
    {"ev": "cqe",   "rq", "wqe", "fields": {cqe64 or err_cqe fields}, "mem": bytes, "err": bool}
    {"ev": "drop",  "rq", "reason"}                                       (8 RQ not RDY)

A TCP frame on a TIR with no LRO configured produces only its "cqe" (nothing LRO), and so
does a frame that is not TCP (D-LRO-9).
"""
import struct

# ---------------------------------------------------------------------------------------------
# Causes (the names of issue 15's contract), their lro_abrt (T68 00 max size, 01 timeout,
# 10/11 exception or other: D-LRO-4 takes 10) and whether the arriving segment may open the
# next session (§3.3.6.3: the four cases marked (*)).

ELIGIBILITY = ["not_enabled", "inactive", "llc_snap", "invalid", "tcp_flags", "psh",
               "tcp_options", "timestamp_off", "ip_options", "fragment", "small"]
MERGE_ONLY = ["out_of_order", "ip_mismatch", "max_size", "ts_prev_absent", "ts_older",
              "ts_absent", "ecn"]
RESTART = {"max_size", "ts_prev_absent", "ts_older", "ts_absent", "ecn"}
ABRT = {"max_size": 0, "timer": 1}  # every other cause: 2 (D-LRO-4; 3 is the other reading)


# The other readings a Device can take (Device(readings=...)); the decisions of issue 15 are the
# default. gen_lro.py lists an acceptable test's expectations under each reading that differs.
READINGS = {
    "inactive_is_not_enabled": "lro_max_msg_sz 0 / no supported period: reported as not enabled",
    "frag_invalid": "a fragment's TCP checksum cannot be verified: the packet is not 'validated'",
    "fragment_first": "an IPv6 Fragment header is reported as a fragment, not an extension header",
    "eol_is_option": "End of option list (kind 0) counts as an option other than the timestamp",
    "ip_ecn_is_ip_field": "the IP ECN bits are IP fields that must match (ip_mismatch, no restart)",
    "limit_exclusive": "'will not exhaust' (§3.3.6.4): reaching lro_max_msg_sz exactly is refused",
    "wqe_space_normal": "no room in the WQE: the session completes normally, the segment alone",
    "timer_from_last": "the timer restarts at every merged segment",
    "checksum_with_header": "T5: the checksum covers the first TCP header and the merged "
                            "payload",
    "checksum_per_segment": "each merged payload summed on its own (odd lengths do not shift)",
    "llc_snap_parsed": "TCP behind LLC/SNAP is seen and refused (§3.3.6.2 'No LLC/SNAP')",
    "timer_ties_reversed": "sessions opened at one moment: their timers fire in the other order "
                           "(each fires anywhere in N..2N, T147)",
    "seg_limit_alone": "the 256th segment (lro_num_seg has 8 bits) ends the session and "
                       "completes alone",
    "flush_reversed": "a flush completes the sessions in the reverse of their open order",
    "rq_leave_discards": "an RQ leaving RDY abandons its sessions: their WQEs are flushed in "
                         "ERR (T74 0x5) or dropped in RST, no LRO completion",
    "max_size_alone": "§3.3.6.3 names only 'timestamp mismatch or ECN mismatch' as restarting: "
                      "the segment over the size limit completes alone",
    "tir_copies_reversed": "a frame's copies reach the TIRs of a multi-path flow in reverse order",
    "rx_error_sessions_first": "the RQ's sessions complete before the receive error's completion",
    "tsecr_last": "T5: TSecr of the last coalesced segment, whether or not it carries ACK",
    "cv_unstripped": "T68 cv 'present in the incoming frame': a C-VLAN tag kept in the data "
                     "(vlan_strip_disable) is reported in cv/up/cfi/vid too",
}


def abrt(cause):
    return ABRT.get(cause, 2)


# ---------------------------------------------------------------------------------------------
# One's complement arithmetic (RFC 1071)

def ones_sum(b, start=0):
    """The folded 16-bit one's complement sum of b (big-endian words, an odd last byte padded
    with zero), added to `start`; not complemented."""
    if len(b) % 2:
        b = b + b"\0"
    s = start + sum(struct.unpack(f">{len(b) // 2}H", b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


# ---------------------------------------------------------------------------------------------
# Parsing a frame (Ethernet II or 802.3 LLC/SNAP, one optional C-VLAN tag, IPv4/IPv6, TCP)

# T68 ip_ext_opts: hop-by-hop, routing, fragment, destination, authentication, mobility
IPV6_EXT = (0, 43, 44, 60, 51, 135)


class Seg:
    """What LRO needs to know of one received frame."""

    def __init__(self):
        self.tcp = False
        self.llc_snap = False
        self.vlan = None      # VLAN ID of a C-VLAN tag, or None
        self.tag = None       # (pcp, cfi, vid)
        self.stripped = False  # the RQ removed the tag (§3.3.7: vsd 0)
        self.ipver = 0
        self.l3_ok = self.l4_ok = False
        self.ip_opts = False
        self.frag = False
        self.malformed = False


def parse(frame, vsd=0):
    s = Seg()
    s.frame = frame
    t = struct.unpack(">H", frame[12:14])[0]
    off = 14
    strip = 0
    if t == 0x8100 and len(frame) >= 18:
        tci, t = struct.unpack(">HH", frame[14:18])
        s.vlan = tci & 0xFFF
        s.tag = (tci >> 13, tci >> 12 & 1, tci & 0xFFF)
        off = 18
        strip = 0 if vsd else 4
        s.stripped = not vsd
    if t < 0x600:  # 802.3 length: LLC/SNAP (AA AA 03, OUI 000000)
        if frame[off:off + 6] == b"\xaa\xaa\x03\x00\x00\x00":
            s.llc_snap = True
            t = struct.unpack(">H", frame[off + 6:off + 8])[0]
            off += 8
        else:
            return finish(s, frame, strip)
    s.l3_off = off
    if t == 0x0800:
        return parse_v4(s, frame, off, strip)
    if t == 0x86DD:
        return parse_v6(s, frame, off, strip)
    return finish(s, frame, strip)


def finish(s, frame, strip):
    s.scattered = frame[:12] + frame[16:] if strip else frame
    return s


def parse_v4(s, frame, off, strip):
    s.ipver = 4
    h = frame[off:]
    ihl = (h[0] & 0xF) * 4
    tot = struct.unpack(">H", h[2:4])[0]
    if h[0] >> 4 != 4 or ihl < 20 or tot < ihl or tot > len(h):
        s.malformed = True
        return finish(s, frame, strip)
    s.ip_hdr = h[:ihl]
    s.l3_ok = ones_sum(h[:ihl]) == 0xFFFF
    s.ip_opts = ihl > 20
    fl = struct.unpack(">H", h[6:8])[0]
    s.frag = bool(fl & 0x2000 or fl & 0x1FFF)
    s.first_frag = not fl & 0x1FFF
    s.ttl = h[8]
    s.ecn = h[1] & 3
    # the IP fields that must match (§3.3.6.4): all but TTL, checksum, total length and
    # identification; ECN has a rule of its own (*), so it is left out here
    s.ip_key = (h[0], h[1] >> 2, fl, h[9], h[12:20], h[20:ihl])
    s.src, s.dst = h[12:16], h[16:20]
    proto = h[9]
    end = off + tot
    s.pseudo = h[12:20] + struct.pack(">BBH", 0, proto, tot - ihl)
    if proto == 6 and s.first_frag:
        parse_tcp(s, frame, off + ihl, end, check=not s.frag)
    s.datagram_end = end
    return finish(s, frame, strip)


def parse_v6(s, frame, off, strip):
    s.ipver = 6
    h = frame[off:]
    plen = struct.unpack(">H", h[4:6])[0]
    if h[0] >> 4 != 6 or 40 + plen > len(h):
        s.malformed = True
        return finish(s, frame, strip)
    s.l3_ok = True  # IPv6 has no header checksum
    s.ttl = h[7]
    tc = (struct.unpack(">I", h[0:4])[0] >> 20) & 0xFF
    s.ecn = tc & 3
    s.ip_key = (h[0] >> 4, tc >> 2, struct.unpack(">I", h[0:4])[0] & 0xFFFFF, h[8:40])
    s.src, s.dst = h[8:24], h[24:40]
    nh = h[6]
    p = 40
    s.ip_opts = nh in IPV6_EXT
    s.first_frag = True
    while nh in IPV6_EXT and p + 8 <= 40 + plen:
        if nh == 44:
            fo = struct.unpack(">H", h[p + 2:p + 4])[0]
            s.frag = bool(fo & 1 or fo >> 3)
            s.first_frag = not fo >> 3
            nh, p = h[p], p + 8
            if not s.first_frag:
                break
        elif nh == 51:
            nh, p = h[p], p + (h[p + 1] + 2) * 4
        else:
            nh, p = h[p], p + (h[p + 1] + 1) * 8
    s.ip_key = s.ip_key + (h[40:p], nh)
    end = off + 40 + plen
    s.pseudo = h[8:40] + struct.pack(">IxxxB", end - off - p, 6)
    if nh == 6 and s.first_frag:
        parse_tcp(s, frame, off + p, end, check=not s.frag)
    s.datagram_end = end
    return finish(s, frame, strip)


def parse_tcp(s, frame, off, end, check):
    t = frame[off:end]
    if len(t) < 20 or (t[12] >> 4) * 4 < 20 or (t[12] >> 4) * 4 > len(t):
        s.malformed = True
        return
    s.tcp = True
    s.sport, s.dport, s.seq, s.ack = struct.unpack(">HHII", t[:12])
    doff = (t[12] >> 4) * 4
    s.reserved = (t[12] >> 1) & 7
    s.ns = t[12] & 1
    f = t[13]
    bits = [(f >> i) & 1 for i in range(7, -1, -1)]
    s.cwr, s.ece, s.urg, s.ackf, s.psh, s.rst, s.syn, s.fin = bits
    s.win = struct.unpack(">H", t[14:16])[0]
    s.tcp_hdr = t[:doff]
    s.payload = t[doff:]
    s.l4_ok = check and ones_sum(s.pseudo + t) == 0xFFFF
    parse_options(s, t[20:doff])


def parse_options(s, o):
    """D-LRO-2: NOP (1) may stand beside the timestamp (8, length 10); End of option list (0)
    ends the list; any other kind, a second timestamp or a malformed list is a TCP option other
    than the timestamp."""
    s.ts = None
    s.other_opts = False
    s.eol = False
    i = 0
    while i < len(o):
        k = o[i]
        if k == 0:
            s.eol = True
            break
        if k == 1:
            i += 1
            continue
        if i + 1 >= len(o) or o[i + 1] < 2 or i + o[i + 1] > len(o):
            s.other_opts = True
            return
        if k == 8 and o[i + 1] == 10 and s.ts is None:
            s.ts = struct.unpack(">II", o[i + 2:i + 10])
        else:
            s.other_opts = True
        i += o[i + 1]


def flow_id(s):
    """§3.3.6.1: VLAN ID, source IP, destination IP, source port, destination port, TCP."""
    return (s.vlan, s.src, s.dst, s.sport, s.dport)


def l4_hdr_type(s):
    """T68: 1 TCP, 3 TCP ACK without data, 4 TCP ACK with data (0 when not TCP)."""
    if not s.tcp:
        return 0
    if not s.ackf:
        return 1
    return 4 if s.payload else 3


# ---------------------------------------------------------------------------------------------
# Settings

class Caps:
    """T147 per_protocol_networking_offload_caps, the device defaults (docs/caps.md)."""

    def __init__(self, psh_flag=1, time_stamp=1, min_mss=1, periods=(8, 16, 32, 1024),
                 msg_sz_mode=0):
        self.psh_flag, self.time_stamp, self.min_mss = psh_flag, time_stamp, min_mss
        self.periods, self.msg_sz_mode = periods, msg_sz_mode


class Tir:
    def __init__(self, rq=0, lro=None):
        self.rq = rq
        self.set_lro(lro)

    def set_lro(self, lro):
        """T45 10h: lro_enable_mask (bit 0 IPv4, bit 1 IPv6), lro_timeout_period_usecs,
        lro_max_msg_sz (256-byte units); the contract's defaults 3, 32, 64."""
        if lro is None:
            self.mask, self.timeout, self.max_msg = 0, 0, 0
        else:
            self.mask = lro.get("enable_mask", 3)
            self.timeout = lro.get("timeout_usecs", 32)
            self.max_msg = lro.get("max_msg_sz", 64)

    def period(self, caps):
        """T45: the request is adjusted to the nearest supported period below it; below the
        smallest LRO does not work (D-TIR-4)."""
        ok = [p for p in caps.periods if p <= self.timeout]
        return max(ok) if ok else 0


class Rq:
    def __init__(self, capacity=0x8000, vsd=0, posted=None):
        self.capacity = capacity   # bytes one WQE holds (a function of the index, or a number)
        self.vsd = vsd
        self.posted = posted       # WQEs posted (None: as many as needed)
        self.next_wqe = 0
        self.ready = True

    def cap(self, wqe):
        return self.capacity(wqe) if callable(self.capacity) else self.capacity


class Session:
    def __init__(self, tir, rq, wqe, seg, t0):
        self.tir, self.rq, self.wqe, self.t0 = tir, rq, wqe, t0
        self.first = seg
        if seg.datagram_end != len(seg.frame):
            # the PRM does not say where a merged payload goes after a padded first frame
            raise ValueError("lro_model: a session's first frame must not be padded")
        self.payloads = [seg.payload]
        self.num_seg = 1
        self.psh = seg.psh
        self.any_ack = seg.ackf
        self.ecr = seg       # D-LRO-13: the latest segment with a valid TSecr (ACK set)
        self.min_ttl = seg.ttl
        self.last = seg
        self.next_seq = (seg.seq + len(seg.payload)) & 0xFFFFFFFF
        self.tcp_len = len(seg.tcp_hdr) + len(seg.payload)
        self.bytes = len(seg.scattered)

    def merge(self, seg):
        self.payloads.append(seg.payload)
        self.num_seg += 1
        self.psh |= seg.psh
        if seg.ackf or not self.any_ack:  # RFC 7323 §3.2: TSecr is valid only with ACK
            self.ecr = seg
        self.any_ack |= seg.ackf
        self.min_ttl = min(self.min_ttl, seg.ttl)
        self.last = seg
        self.next_seq = (seg.seq + len(seg.payload)) & 0xFFFFFFFF
        self.tcp_len += len(seg.payload)
        self.bytes += len(seg.payload)


def session_cqe(ss, cause, ui, readings=()):
    """D-LRO-7 / T5 / T68: the CQE that reports a session."""
    f = ss.first
    last = ss.last
    c = {"opcode": 2, "byte_cnt": ss.bytes, "wqe_counter": ss.wqe & 0xFFFF,
         "srqn_user_index": ui, "lro_num_seg": ss.num_seg, "lro_abrt": abrt(cause),
         "lro_tcp_psh": ss.psh, "lro_dup_ack_cnt": 0, "lro_min_ttl": ss.min_ttl,
         "lro_tcp_win": last.win, "lro_ack_seq_num": last.ack,
         "l4_hdr_type": 4 if ss.any_ack else 1,
         "l3_hdr_type": 2 if f.ipver == 4 else 1, "l3_ok": 1, "l4_ok": 1,
         "lro_timestamp_is_valid": 1 if last.ts is not None else 0,
         "checksum": 0}
    # D-LRO-7: T4 "Checksum of the merged TCP segment payload": the payloads as one stream;
    # T5 "covers TCP header + TCP payload of all merged packets": the first header too
    hdr = f.tcp_hdr if "checksum_with_header" in readings else b""
    if "checksum_per_segment" in readings:        # each payload summed on its own, then added
        acc = ones_sum(hdr)
        for p in ss.payloads:
            acc = ones_sum(p, acc)
        c["checksum"] = acc
    else:
        c["checksum"] = ones_sum(hdr + b"".join(ss.payloads))
    if last.ts is not None:
        # T5: TSval and TSecr "of the last coalesced segment"; T68: TSecr "of the latest
        # coalesced segment with valid TSecr field" (D-LRO-13)
        c["timestamp_h"], c["timestamp_l"] = last.ts
        if "tsecr_last" not in readings and ss.ecr.ts is not None:
            c["timestamp_l"] = ss.ecr.ts[1]
    # §3.3.7 (D-RX-3): the tag the RQ removes is reported; one left in the data is not, unless
    # T68's "present in the incoming frame" is read as any tag (the other reading)
    if f.tag is not None and (f.stripped or "cv_unstripped" in readings):
        c.update(cv=1, up=f.tag[0], cfi=f.tag[1], vid=f.tag[2])
    elif f.tag is not None:
        c.update(cv=0, up=0, cfi=0, vid=0)
    return c


def plain_cqe(seg, wqe, ui):
    c = {"opcode": 2, "byte_cnt": len(seg.scattered), "wqe_counter": wqe & 0xFFFF,
         "srqn_user_index": ui, "lro_num_seg": 0}
    if seg.tcp and not seg.llc_snap:   # behind SNAP, T68 does not say what is parsed
        c["l4_hdr_type"] = l4_hdr_type(seg)
    if seg.ipver:
        # T4 "Calculated IP header and IP Payload Checksum" (the project's D-RX-10: the sum of
        # the IP header and payload to the datagram's end, not complemented)
        c["checksum"] = ones_sum(seg.frame[seg.l3_off:seg.datagram_end])
    return c


# ---------------------------------------------------------------------------------------------
# The device

class Device:
    def __init__(self, tirs, rqs=None, caps=None, max_sessions=256, user_index=None,
                 readings=()):
        self.r = set(readings)   # the other readings of the PRM's ambiguities (READINGS)
        self.caps = caps or Caps()
        self.tirs = tirs
        self.rqs = rqs or [Rq()]
        self.max_sessions = max_sessions
        self.sessions = []   # open sessions, in open order
        self.held = {}       # rq -> WQEs of abandoned sessions (rq_leave_discards)
        self.now = 0
        self.ui = user_index or [0x100 + i for i in range(len(self.rqs))]

    # -- eligibility (§3.3.6.2), in D-LRO-8's order ----------------------------------------
    def eligibility(self, tir, s):
        c = self.caps
        if not tir.mask & (1 if s.ipver == 4 else 2):
            return "not_enabled"
        if tir.period(c) == 0 or tir.max_msg == 0:
            return "not_enabled" if "inactive_is_not_enabled" in self.r else "inactive"
        if s.llc_snap:
            return "llc_snap"
        unchecked = s.frag and "frag_invalid" not in self.r
        if s.malformed or not s.l3_ok or (not unchecked and not s.l4_ok):
            return "invalid"
        if s.syn or s.urg or s.rst or s.fin or s.ns or s.reserved:
            return "tcp_flags"
        if s.psh and not c.psh_flag:
            return "psh"
        if s.other_opts or (s.eol and "eol_is_option" in self.r):
            return "tcp_options"
        if s.ts is not None and not c.time_stamp:
            return "timestamp_off"
        if s.frag and "fragment_first" in self.r:
            return "fragment"
        if s.ip_opts:
            return "ip_options"
        if s.frag:
            return "fragment"
        if len(s.payload) < c.min_mss:
            return "small"
        return None

    # -- merge conditions (§3.3.6.4 and the termination list of §3.3.6.3) -------------------
    def merge_cause(self, tir, ss, s):
        e = self.eligibility(tir, s)
        if e:
            return e
        if s.seq != ss.next_seq:
            return "out_of_order"
        ecn_ip = "ip_ecn_is_ip_field" in self.r
        if s.ip_key != ss.last.ip_key or (ecn_ip and s.ecn != ss.last.ecn):
            return "ip_mismatch"
        if ss.num_seg == 255:   # lro_num_seg has 8 bits (T68): the 256th segment cannot join
            return "max_size" if "seg_limit_alone" not in self.r else "seg_limit"
        limit = tir.max_msg * 256
        if self.caps.msg_sz_mode == 0:
            size = ss.tcp_len + len(s.payload)           # TCP header + all payload
        else:
            size = ss.bytes + len(s.payload)             # from the L2 header, as scattered
        if size > limit or (size == limit and "limit_exclusive" in self.r):
            return "max_size"
        prev = ss.last
        if s.ts is not None and self.caps.time_stamp:
            if prev.ts is None:
                return "ts_prev_absent"
            if s.ts[0] < prev.ts[0]:
                return "ts_older"
        if s.ts is None and prev.ts is not None:
            return "ts_absent"
        if (s.ece, s.cwr) != (prev.ece, prev.cwr) or s.ecn != prev.ecn:
            return "ecn"
        if ss.bytes + len(s.payload) > self.rqs[ss.rq].cap(ss.wqe):
            return "wqe_space"
        return None

    # -- events ------------------------------------------------------------------------------
    def frame(self, frame):
        out = []
        order = list(enumerate(self.tirs))
        if "tir_copies_reversed" in self.r:
            order.reverse()
        for ti, tir in order:
            if tir is not None:
                out += self.frame_tir(ti, tir, frame)
        return out

    def take_wqe(self, rq):
        r = self.rqs[rq]
        if r.posted is not None and r.next_wqe >= r.posted:
            return None
        r.next_wqe += 1
        return r.next_wqe - 1

    def frame_tir(self, ti, tir, frame):
        rq = self.rqs[tir.rq]
        s = parse(frame, rq.vsd)
        if not rq.ready:
            return [{"ev": "drop", "rq": tir.rq, "reason": 8}]
        if s.llc_snap and "llc_snap_parsed" not in self.r:
            # docs/lro.md: the receive parser does not look behind SNAP: not TCP for LRO
            return self.deliver(ti, tir, s)
        if tir.mask == 0 or not s.tcp:   # LRO not configured, or not TCP: no LRO at all
            return self.deliver(ti, tir, s)
        out = []
        ss = self.find(ti, tir.rq, s)
        if ss is not None:
            cause = self.merge_cause(tir, ss, s)
            if cause is None:
                ss.merge(s)
                if "timer_from_last" in self.r:
                    ss.t0 = self.now
                return [{"ev": "merge", "tir": ti, "rq": tir.rq, "wqe": ss.wqe,
                         "num_seg": ss.num_seg, "bytes": ss.bytes}]
            if cause == "wqe_space" and "wqe_space_normal" not in self.r:
                return self.wqe_space(ss, s)
            if cause == "seg_limit":    # the other reading: ended, the segment alone
                out += self.end(ss, "max_size")
                return out + self.pass_(ti, tir, s, "max_size")
            out += self.end(ss, cause)
            if cause not in RESTART or (cause == "max_size" and "max_size_alone" in self.r):
                return out + self.pass_(ti, tir, s, cause)
        cause = self.eligibility(tir, s)
        if cause is None and len(self.sessions) >= self.max_sessions:
            cause = "no_resources"
        if cause:
            return out + self.pass_(ti, tir, s, cause)
        w = self.take_wqe(tir.rq)
        if w is None:   # no WQE: the frame is dropped (docs/rx.md reason 9)
            return out + [{"ev": "drop", "rq": tir.rq, "reason": 9}]
        if len(s.scattered) > self.rqs[tir.rq].cap(w):
            raise ValueError("lro_model: the first segment does not fit its WQE")
        ss = Session(ti, tir.rq, w, s, self.now)
        self.sessions.append(ss)
        return out + [{"ev": "open", "tir": ti, "rq": tir.rq, "wqe": w,
                       "len": len(s.scattered)}]

    def find(self, ti, rq, s):
        for ss in self.sessions:
            if ss.tir == ti and ss.rq == rq and flow_id(ss.first) == flow_id(s):
                return ss
        return None

    def deliver(self, ti, tir, s):
        w = self.take_wqe(tir.rq)
        if w is None:
            return [{"ev": "drop", "rq": tir.rq, "reason": 9}]
        if len(s.scattered) > self.rqs[tir.rq].cap(w):
            return self.rx_error(tir.rq, w)
        return [{"ev": "cqe", "rq": tir.rq, "wqe": w, "fields": plain_cqe(s, w, self.ui[tir.rq]),
                 "mem": s.scattered, "err": False}]

    def pass_(self, ti, tir, s, cause):
        return [{"ev": "pass", "tir": ti, "rq": tir.rq, "cause": cause}] + self.deliver(ti, tir, s)

    def end(self, ss, cause):
        self.sessions.remove(ss)
        mem = ss.first.scattered + b"".join(ss.payloads[1:])
        return [{"ev": "end", "tir": ss.tir, "rq": ss.rq, "wqe": ss.wqe, "cause": cause,
                 "num_seg": ss.num_seg, "byte_cnt": ss.bytes, "t": self.now},
                {"ev": "cqe", "rq": ss.rq, "wqe": ss.wqe,
                 "fields": session_cqe(ss, cause, self.ui[ss.rq], self.r), "mem": mem,
                 "err": False}]

    def wqe_space(self, ss, s):
        """D-LRO-3: the session's WQE cannot hold the segment: a completion with error (T74
        0x1 local length) with the driver violation of a WQE too short (§3.3.6.5 "that WQE has
        to be large enough"), the RQ to ERR (its other sessions flushed first, D-LRO-10, and
        the WQEs left flushed), then the segment, passed on alone, is dropped (RQ not RDY)."""
        self.sessions.remove(ss)
        mem = ss.first.scattered + b"".join(ss.payloads[1:])
        # the violation is found when the payload does not fit, before the session ends
        out = [{"ev": "violation", "rule": "RX_WQE_TOO_SHORT"},
               {"ev": "end", "tir": ss.tir, "rq": ss.rq, "wqe": ss.wqe, "cause": "wqe_space",
                "num_seg": ss.num_seg, "byte_cnt": ss.bytes, "t": self.now},
               {"ev": "cqe", "rq": ss.rq, "wqe": ss.wqe, "err": True, "mem": mem,
                "fields": {"opcode": 14, "syndrome": 1, "wqe_counter": ss.wqe & 0xFFFF,
                           "srqn_user_index": self.ui[ss.rq]}}]
        out += self.flush_rq(ss.rq, "rq_state")
        out += self.to_err(ss.rq)
        return out + [{"ev": "pass", "tir": ss.tir, "rq": ss.rq, "cause": "wqe_space"},
                      {"ev": "drop", "rq": ss.rq, "reason": 8}]

    def rx_error(self, rq, w):
        """A frame longer than its WQE: a completion with error (T74 0x1, D-RX-2), the RQ to
        ERR; the RQ's open sessions complete while it is still RDY, after the error completion
        of the frame that put it in error (D-LRO-10), or, the other reading, before it."""
        err = [{"ev": "cqe", "rq": rq, "wqe": w, "err": True, "mem": None,
                "fields": {"opcode": 14, "syndrome": 1, "wqe_counter": w & 0xFFFF,
                           "srqn_user_index": self.ui[rq]}}]
        flush = self.flush_rq(rq, "rq_state")
        out = flush + err if "rx_error_sessions_first" in self.r else err + flush
        # the driver posted a WQE too short for the frame (§7.4.1.2): a driver violation
        return [{"ev": "violation", "rule": "RX_WQE_TOO_SHORT"}] + out + self.to_err(rq)

    def to_err(self, rq):
        """The RQ enters ERR: the WQEs posted and not taken complete with error (T74 0x5, WR
        flush error; the rx_setup RQs have flush_in_error_en 1)."""
        r = self.rqs[rq]
        r.ready = False
        held = sorted(self.held.pop(rq, []))
        while r.posted is not None and r.next_wqe < r.posted:
            held.append(self.take_wqe(rq))
        return [{"ev": "cqe", "rq": rq, "wqe": w, "err": True, "mem": None,
                 "fields": {"opcode": 14, "syndrome": 5, "wqe_counter": w & 0xFFFF,
                            "srqn_user_index": self.ui[rq]}} for w in held]

    def flush_rq(self, rq, cause):
        """D-LRO-10: the RQ leaves RDY: its sessions complete first. The other reading: they
        are abandoned, their WQEs flushed with the others in ERR (or dropped in RST)."""
        mine = self.flush_order([x for x in self.sessions if x.rq == rq])
        if "rq_leave_discards" in self.r:
            for ss in mine:
                self.sessions.remove(ss)
            self.held[rq] = [ss.wqe for ss in mine]
            return []
        out = []
        for ss in mine:
            out += self.end(ss, cause)
        return out

    def advance(self, ns):
        """D-LRO-5: a session opened at t0 ends when time reaches t0 + N µs, N the period in
        force; sessions that expire together end in open order."""
        out = []
        end = self.now + ns
        while True:
            due = [(ss.t0 + self.tirs[ss.tir].period(self.caps) * 1000, k, ss)
                   for k, ss in enumerate(self.sessions)]
            due = [d for d in due if d[0] <= end]
            if not due:
                break
            rev = -1 if "timer_ties_reversed" in self.r else 1
            t, _, ss = min(due, key=lambda d: (d[0], rev * d[1]))
            self.now = max(self.now, t)
            out += self.end(ss, "timer")
        self.now = end
        return out

    def flush_order(self, sessions):
        """D-LRO-10: a flush completes sessions in the order they opened (the PRM gives none)."""
        return sessions[::-1] if "flush_reversed" in self.r else sessions

    def modify_tir(self, ti, lro):
        """§3.3.6.1, §3.3.6.3 "TIR destruction or update": the TIR's sessions complete first."""
        out = []
        for ss in self.flush_order([x for x in self.sessions if x.tir == ti]):
            out += self.end(ss, "tir_change")
        self.tirs[ti].set_lro(lro)
        return out

    def destroy_tir(self, ti):
        out = []
        for ss in self.flush_order([x for x in self.sessions if x.tir == ti]):
            out += self.end(ss, "tir_change")
        self.tirs[ti] = None
        return out

    def rq_error(self, rq, to="ERR"):
        """D-LRO-10: an RQ leaving RDY flushes its sessions first (cause rq_state); in ERR
        the WQEs left are flushed, in RST they are dropped without completions (T57)."""
        out = self.flush_rq(rq, "rq_state")
        if to == "ERR":
            return out + self.to_err(rq)
        self.rqs[rq].ready = False
        self.held.pop(rq, None)
        return out

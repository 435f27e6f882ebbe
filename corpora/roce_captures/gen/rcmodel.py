"""An independent model of the rules `nicref roce check` applies (docs/roce_check.md), written
from the public packet formats (IBTA Vol. 1 §9.2 BTH, §9.3 extension headers, §9.7 RC
transport, Table 45 RNR timer; Annex A17 RoCEv2: ICRC, CNP) and seed 004 (the 16/8 window).
It reads the capture's frames as bytes, never nicref's code or output, and says per flow the
first non-conforming frame and its rule, plus the counts the summary gives.

The capture is taken at the requester's port: what the requester sends and receives."""
import struct
import zlib

PSN_MOD = 1 << 24

# IBTA §9.2.1 / §9.3: opcode -> (name, kind, position, extension bytes, payload: 0 none,
# 1 allowed, 2 exactly 16 (CNP)).
OPS = {
    0x00: ("SEND_FIRST", "send", "first", 0, 1),
    0x01: ("SEND_MIDDLE", "send", "middle", 0, 1),
    0x02: ("SEND_LAST", "send", "last", 0, 1),
    0x03: ("SEND_LAST_IMM", "send", "last", 4, 1),
    0x04: ("SEND_ONLY", "send", "only", 0, 1),
    0x05: ("SEND_ONLY_IMM", "send", "only", 4, 1),
    0x06: ("WRITE_FIRST", "write", "first", 16, 1),
    0x07: ("WRITE_MIDDLE", "write", "middle", 0, 1),
    0x08: ("WRITE_LAST", "write", "last", 0, 1),
    0x09: ("WRITE_LAST_IMM", "write", "last", 4, 1),
    0x0A: ("WRITE_ONLY", "write", "only", 16, 1),
    0x0B: ("WRITE_ONLY_IMM", "write", "only", 20, 1),
    0x0C: ("READ_REQUEST", "read", "only", 16, 0),
    0x0D: ("READ_RESPONSE_FIRST", "read_resp", "first", 4, 1),
    0x0E: ("READ_RESPONSE_MIDDLE", "read_resp", "middle", 0, 1),
    0x0F: ("READ_RESPONSE_LAST", "read_resp", "last", 4, 1),
    0x10: ("READ_RESPONSE_ONLY", "read_resp", "only", 4, 1),
    0x11: ("ACKNOWLEDGE", "ack", None, 4, 0),
    0x12: ("ATOMIC_ACKNOWLEDGE", "atomic_ack", None, 12, 0),
    0x13: ("CMP_SWAP", "atomic", "only", 28, 0),
    0x14: ("FETCH_ADD", "atomic", "only", 28, 0),
    0x16: ("SEND_LAST_INV", "send", "last", 4, 1),
    0x17: ("SEND_ONLY_INV", "send", "only", 4, 1),
    0x64: ("UD_SEND_ONLY", "ud", "only", 8, 1),
    0x65: ("UD_SEND_ONLY_IMM", "ud", "only", 12, 1),
    0x81: ("CNP", "cnp", None, 0, 2),
}
REQUEST_KINDS = ("send", "write", "read", "atomic")
HAS_RETH = (0x06, 0x0A, 0x0B, 0x0C)
HAS_AETH = (0x0D, 0x0F, 0x10, 0x11, 0x12)
LEGAL_MTU = (256, 512, 1024, 2048, 4096)

# IBTA Table 45: the RNR NAK timer field -> milliseconds.
RNR_MS = [655.36, 0.01, 0.02, 0.03, 0.04, 0.06, 0.08, 0.12, 0.16, 0.24, 0.32, 0.48, 0.64,
          0.96, 1.28, 1.92, 2.56, 3.84, 5.12, 7.68, 10.24, 15.36, 20.48, 30.72, 40.96, 61.44,
          81.92, 122.88, 163.84, 245.76, 327.68, 491.52]


def rnr_ns(field):
    return round(RNR_MS[field & 31] * 1_000_000)


def icrc(ip):
    """Annex A17 §A17.3.3: CRC-32 over 8 bytes of 1s (the LRH's place), the IP header with
    its variant fields as 1s (IPv4 TOS, TTL, checksum; IPv6 traffic class, flow label, hop
    limit), UDP with its checksum as 1s, the BTH with byte 4 as 1s, the rest without the ICRC;
    stored least significant byte first."""
    b = bytearray(ip)
    if b[0] >> 4 == 4:
        ihl = (b[0] & 15) * 4
        b[1] = 0xFF
        b[8] = 0xFF
        b[10:12] = b"\xff\xff"
    else:
        ihl = 40
        b[0] |= 0x0F
        b[1:4] = b"\xff\xff\xff"
        b[7] = 0xFF
    b[ihl + 6:ihl + 8] = b"\xff\xff"
    b[ihl + 8 + 4] = 0xFF
    return zlib.crc32(b"\xff" * 8 + bytes(b[:-4])) & 0xFFFFFFFF


def parse(link, data, wire):
    """One frame -> a dict with 'cls' (the classes of docs/captures.md the scenarios use) and
    the RoCE fields, following the formats (Ethernet II + 802.1Q, Linux SLL, IPv4, IPv6,
    UDP 4791, RoCEv1 GRH 0x8915)."""
    r = {"cls": "not_roce", "truncated": len(data) < wire}
    if link == 113:
        off, et = 16, struct.unpack(">H", data[14:16])[0]
    else:
        off, et = 14, struct.unpack(">H", data[12:14])[0]
    while et == 0x8100:
        et = struct.unpack(">H", data[off + 2:off + 4])[0]
        off += 4
    if et == 0x8915:
        r["ver"] = 1
        if len(data) < off + 52:
            r["cls"] = "cut"
            return r
        paylen = struct.unpack(">H", data[off + 4:off + 6])[0]
        r["src"], r["dst"] = data[off + 8:off + 24], data[off + 24:off + 40]
        r["ipver"] = 6
        bth = off + 40
        end = bth + paylen
        r["ecn"] = 0
        ip = None
    elif et in (0x0800, 0x86DD):
        ip = off
        if et == 0x0800:
            ihl = (data[ip] & 15) * 4
            if data[ip + 9] != 17:
                return r
            udp = ip + ihl
            r["src"], r["dst"] = data[ip + 12:ip + 16], data[ip + 16:ip + 20]
            r["ecn"] = data[ip + 1] & 3
            r["ipver"] = 4
        else:
            if data[ip + 6] != 17:
                return r
            udp = ip + 40
            r["src"], r["dst"] = data[ip + 8:ip + 24], data[ip + 24:ip + 40]
            r["ecn"] = (data[ip + 1] >> 4) & 3
            r["ipver"] = 6
        if struct.unpack(">H", data[udp + 2:udp + 4])[0] != 4791:
            return r
        r["ver"] = 2
        if len(data) < udp + 20:
            r["cls"] = "cut"
            return r
        bth = udp + 8
        end = udp + struct.unpack(">H", data[udp + 4:udp + 6])[0]
    else:
        return r
    op = data[bth]
    r["opcode"] = op
    r["tver"] = data[bth + 1] & 15
    r["pad"] = (data[bth + 1] >> 4) & 3
    r["dqp"] = int.from_bytes(data[bth + 5:bth + 8], "big")
    r["psn"] = int.from_bytes(data[bth + 9:bth + 12], "big")
    r["whole"] = end <= len(data)
    if r["dqp"] == 1:
        r["cls"] = "cm_mad"
    elif op == 0x81:
        r["cls"] = "cnp"
    else:
        r["cls"] = ["rc", "uc", "rd", "ud", "reserved", "xrc", "vendor", "vendor"][op >> 5]
    r["rule"] = None
    r["icrc"] = "v1" if r["ver"] == 1 else ("truncated" if not r["whole"] else None)
    if r["whole"] and r["ver"] == 2:
        # the ICRC first, whatever the opcode: a corrupt packet is judged on that alone
        want = icrc(data[ip:end])
        got = int.from_bytes(data[end - 4:end], "little")
        r["icrc"] = "good" if got == want else "bad"
        if got != want:
            r["rule"] = "pkt.icrc"
            return r
    info = OPS.get(op)
    if r["tver"] != 0:
        r["rule"] = "pkt.tver"
        return r
    if info is None:
        if r["cls"] in ("rc", "ud", "cnp"):
            r["rule"] = "pkt.opcode"
        return r
    tlen = end - bth
    hdr = 12 + info[3]
    if tlen < hdr + 4 or tlen % 4:
        r["rule"] = "pkt.length"
        return r
    body = tlen - hdr - 4
    if info[4] == 0 and (body or r["pad"]):
        r["rule"] = "pkt.length"
        return r
    if info[4] == 2 and (body != 16 or r["pad"]):
        r["rule"] = "pkt.cnp"
        return r
    if r["pad"] > body:
        r["rule"] = "pkt.length"
        return r
    r["payload"] = body - r["pad"]
    x = data[bth + 12:]
    if op in HAS_RETH:
        r["va"], r["rkey"], r["dlen"] = struct.unpack(">QII", x[:16])
    if op in HAS_AETH:
        r["syndrome"] = x[0]
    return r


def _key(p):
    return (p["ipver"], bytes(p["src"]), bytes(p["dst"]), p["dqp"])


class Flow:
    """One RC request flow (src -> dst, to QP dqp) and what its requester was sent back."""

    def __init__(self, key, opts):
        self.key, self.opts = key, opts
        self.ack_qp = None
        self.frames = []  # (frame number, packet), capture order
        self.cnps = []    # (frame, t)


def first_violation(flow):
    """The flow's first non-conforming frame: (rule, frame) or None. PSNs are kept as counts
    from the first request (PSN arithmetic modulo 2^24, IBTA §9.7.2)."""
    o = flow.opts
    base = None
    nxt = una = 0
    ack_hi = None
    pmtu = o.get("pmtu")
    open_kind = None
    orig = {}          # offset -> (opcode, payload, reth, read_first, read_span, frame)
    msgs = []          # [last offset or None]
    burst_next = None
    rnr_until = -1
    rnr_psn = -1
    naked = set()      # PSNs a NAK sequence error named
    seq = lambda psn: (psn - base) % PSN_MOD  # offsets stay far below 2^23 here

    for n, p in flow.frames:
        if p["rule"]:
            return (p["rule"], n)
        info = OPS.get(p["opcode"])
        if info is None:
            continue
        name, kind, pos, _, _ = info
        req = kind in REQUEST_KINDS
        if base is None:
            if not req:
                continue
            base = p["psn"]
        u = seq(p["psn"])
        if not req:
            top = nxt - 1
            if kind == "read_resp" and pmtu is None and pos in ("first", "middle") \
                    and p["payload"] in LEGAL_MTU:
                raise ValueError("scenario outside the model: READ span learnt late")
            if p["opcode"] == 0x0E:
                if u > top:
                    return ("ack.unsent", n)
                una = max(una, u + 1)
                continue
            syn = p["syndrome"]
            if syn >> 5 == 0:
                if u > top:
                    return ("ack.unsent", n)
                if kind == "ack":
                    if ack_hi is not None and u < ack_hi:
                        return ("ack.regress", n)
                    ack_hi = u if ack_hi is None else max(ack_hi, u)
                una = max(una, u + 1)
                # D-ROCE-RC-25, C9-130: the RNR timer holds back the refused request ("its
                # request"); acknowledged, nothing is left for the wait to bind
                if rnr_until >= 0 and u >= rnr_psn:
                    rnr_until = -1
            elif syn >> 5 == 1:
                if u > top:
                    return ("ack.unsent", n)
                una = max(una, u)
                rnr_until = p["t"] + rnr_ns(syn)
                rnr_psn = u
                burst_next = None
            elif syn >> 5 == 3:
                if syn & 31 == 0:
                    if u < una or u >= top:
                        return ("nak.seq", n)
                    if u in naked:
                        return ("nak.latch", n)
                    naked.add(u)
                    burst_next = None
                elif u > top:
                    return ("ack.unsent", n)
                una = max(una, u)
            continue
        # A request.
        if p.get("ecn") == 3 and flow.ack_qp is not None:
            if not any(t + o["cnp_interval_ns"] >= p["t"] for _, t in flow.cnps):
                return ("cnp.missing", n)
        if u == nxt:
            burst_next = None
            if pos in ("middle", "last"):
                if open_kind != kind:
                    return ("req.opcode_seq", n)
            elif open_kind is not None:
                return ("req.opcode_seq", n)
            if pos in ("first", "middle"):
                if pmtu is None:
                    if p["payload"] not in LEGAL_MTU:
                        return ("req.length", n)
                    pmtu = p["payload"]
                elif p["payload"] != pmtu:
                    return ("req.length", n)
            elif info[4] == 1:
                lim = pmtu or 4096
                if p["payload"] > lim or (pos == "last" and p["payload"] == 0):
                    return ("req.length", n)
            if pos in ("first", "only") and o.get("seed004"):
                recent = [t for fr, t in flow.cnps if fr < n and p["t"] < t + o["cnp_timer_ns"]
                          and not o.get("at_senders")]
                lim = 8 if recent else 16
                live = [m for m in msgs if m is None or m >= una]
                if len(live) + 1 > lim:
                    return ("cnp.window" if recent else "req.window", n)
            span = 1
            if kind == "read":
                if pmtu is None:
                    raise ValueError("scenario outside the model: READ before the MTU is known")
                span = max(1, -(-max(p["dlen"], 1) // pmtu))
            for k in range(span):
                orig[u + k] = (p["opcode"], p["payload"], (p.get("va"), p.get("rkey"),
                               p.get("dlen")), u, span, n)
            if pos in ("first", "only"):
                msgs.append(None if pos == "first" or kind == "read" else u)
            if kind == "read":
                msgs[-1] = u + span - 1
            if pos == "first":
                open_kind = kind
            if pos == "last":
                open_kind = None
                msgs[-1] = u
            nxt = u + span
            continue
        if u > nxt:
            return ("req.psn_seq", n)
        # A retransmission.
        if u not in orig:
            continue
        if burst_next is None or u != burst_next:
            # at the senders an ACK in the capture may never have arrived: a burst may start
            # below the capture's oldest unacknowledged PSN, never above it
            if (u > una) if o.get("at_senders") else (u != una):
                return ("retx.start", n)
        if p["t"] < rnr_until and not o.get("at_senders"):
            return ("retx.rnr_early", n)
        op0, pay0, reth0, rfirst, rspan, _ = orig[u]
        if op0 == 0x0C:
            if p["opcode"] != 0x0C:
                return ("retx.opcode", n)
            k = u - rfirst
            va0, rk0, len0 = reth0
            if (p["va"], p["rkey"], p["dlen"]) != (va0 + k * pmtu, rk0, len0 - k * pmtu):
                return ("retx.reth", n)
            burst_next = rfirst + rspan
            continue
        if p["opcode"] != op0 or p["payload"] != pay0:
            return ("retx.opcode", n)
        if p["opcode"] in HAS_RETH and (p["va"], p["rkey"], p["dlen"]) != reth0:
            return ("retx.reth", n)
        burst_next = u + 1
    return None


def classic_timing(flow, timeout, tol=1000):
    """The classic IB timer (IBTA §9.7.6.1.3: 4.096 us x 2^timeout), one per QP: started by a
    request sent while nothing is outstanding, restarted by an ACK (or NAK sequence error) that
    acknowledges some but not all outstanding requests and by the first retransmission of a
    burst, stopped when nothing is outstanding. The first retransmission of a burst not
    answering a NAK comes that long after the timer's start. (rule, frame) of the first gap that
    differs, or None. Used on scenarios without ACK coalescing subtleties: every burst here is
    a timeout."""
    period = 4096 << timeout

    def before(a, b):
        d = (b - a) % PSN_MOD
        return 0 < d < (1 << 23)

    hi = None        # the highest PSN sent
    una = None       # the oldest unacknowledged PSN; None: nothing outstanding (timer stopped)
    start = None     # when the timer was last (re)started
    prev_retx = None
    nak_pending = False
    for n, p in flow.frames:
        info = OPS.get(p["opcode"])
        if info is None:
            continue
        if info[1] not in REQUEST_KINDS:
            syn = p.get("syndrome")
            if syn is None:
                continue
            if syn == 0x60:
                nak_pending = True
            # ACK: up to its PSN; NAK sequence error: before it (IBTA §9.7.5.1).
            upto = p["psn"] if syn >> 5 == 0 else (p["psn"] - 1) % PSN_MOD if syn == 0x60 \
                else None
            if upto is not None and una is not None and not before(upto, una):
                una = (upto + 1) % PSN_MOD if before(upto, hi) else None
                start = p["t"] if una is not None else None
            continue
        psn = p["psn"]
        if hi is None or before(hi, psn):
            if una is None:
                una, start = psn, p["t"]
            hi = psn
            prev_retx = None
            continue
        follower = prev_retx is not None and psn == (prev_retx + 1) % PSN_MOD
        prev_retx = psn
        if not follower:
            if not nak_pending and start is not None:
                gap = p["t"] - start
                if abs(gap - period) > tol:
                    return ("retx.timing", n)
            start = p["t"]
            nak_pending = False
    return None


def check(frames, opts):
    """frames: (t_ns, link, bytes, wirelen). Returns the model's verdict: per flow (key ->
    first violation or None), the other QPs' first frame violations, counts."""
    pk = []
    for i, (t, link, data, wire) in enumerate(frames, 1):
        p = parse(link, data, wire)
        p["t"] = t
        p["n"] = i
        pk.append(p)
    flows = {}
    for p in pk:
        if p["cls"] == "rc" and OPS.get(p["opcode"], (0, ""))[1] in REQUEST_KINDS:
            flows.setdefault(_key(p), Flow(_key(p), opts))
    used = set()
    for p in pk:
        if p["cls"] != "rc":
            continue
        k = _key(p)
        info = OPS.get(p["opcode"])
        if info is None:
            continue
        if info[1] in REQUEST_KINDS:
            flows[k].frames.append((p["n"], p))
            used.add(p["n"])
            continue
        # A response: to the flow running the other way between the two addresses (the
        # scenarios hold one flow per address pair).
        cands = [f for f in flows.values() if f.key[1] == k[2] and f.key[2] == k[1]]
        if len(cands) == 1:
            f = cands[0]
            if f.ack_qp is None:
                f.ack_qp = k[3]
            if k[3] == f.ack_qp:
                f.frames.append((p["n"], p))
                used.add(p["n"])
    for f in flows.values():
        for p in pk:
            if p["cls"] == "cnp" and f.ack_qp is not None and p["dqp"] == f.ack_qp and \
                    bytes(p["src"]) == f.key[2] and bytes(p["dst"]) == f.key[1]:
                f.cnps.append((p["n"], p["t"]))
    verdict = {}
    for k, f in flows.items():
        v = first_violation(f)
        if opts.get("classic_timeout") is not None:
            tv = classic_timing(f, opts["classic_timeout"])
            if tv and (v is None or tv[1] < v[1]):
                v = tv
        verdict[k] = v
    others = {}
    for p in pk:
        if p["n"] in used or not p.get("rule"):
            continue
        others.setdefault(_key(p), (p["rule"], p["n"], p["cls"]))
    counts = {"frames": len(pk), "roce": sum(1 for p in pk if "ver" in p and "opcode" in p),
              "icrc_good": sum(1 for p in pk if p.get("icrc") == "good"),
              "icrc_bad": sum(1 for p in pk if p.get("icrc") == "bad"),
              "icrc_truncated": sum(1 for p in pk if p.get("icrc") == "truncated"
                                    and not p.get("rule")),
              "icrc_v1": sum(1 for p in pk if p.get("icrc") == "v1" and not p.get("rule")),
              "classes": {}}
    for p in pk:
        counts["classes"][p["cls"]] = counts["classes"].get(p["cls"], 0) + 1
    return verdict, others, counts, flows

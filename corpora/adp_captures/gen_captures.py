#!/usr/bin/python3
"""Writes the RoCEv2 captures of `nicref adp check` (corpora/adp_captures/*.pcap) and their expected
verdicts (corpora/adp_captures/captures.json).

Run from the repository root:  /usr/bin/python3 corpora/adp_captures/gen_captures.py
(Debian python3-scapy; ci/deps.sh installs it). The output is byte-for-byte reproducible.

The timings are computed here from the seed text (seeds 000 and 001, docs/references.md), with
the default readings of docs/decisions.md (D-ADP-*), independently of the C engine: the
expected verdicts in captures.json come from this file's own replay, not from nicref's output.
Each capture is one RC flow per QP (one SEND Only per message, one message outstanding, but
for the pipelined captures: two), captured at the requester's port: requests out, ACKs in. The
QP has one retransmission timer (IBTA Vol. 1 9.7.6.1.3), restarted by partial forward progress.
"""

import json
import os
from decimal import Decimal

from scapy.contrib.roce import AETH, BTH
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from scapy.utils import PcapWriter

HERE = os.path.dirname(os.path.abspath(__file__))
T0_NS = 1_700_000_000 * 10**9      # capture start (fixed, so the files are reproducible)
RTT_NS = 3_000                     # request to ACK at the requester's port
POST_NS = 1_000                    # ACK to the next request (the host posts the next one)
TOL_NS = 1_000                     # nicref adp check's default tolerance
BASE_MIN_NS = 4_000                # adp_retx_base_timeout_min: seed 001 L58 "(4 us)", seed 000 L85 ns
DEC_TO_DIV_4, DEC_TO_DIV_2, DEC_TO_LOW_BOUND = 0, 1, 2   # seed 000 L215-221


def ib_timeout_ns(t):
    """IBA local ACK timeout: 4.096 us * 2^t, t = 0 infinite (None)."""
    return None if t == 0 else 4096 << t


class Engine:
    """One QP's retransmission timer, from the seed text (default readings)."""

    def __init__(self, profile, timeout, retry_cnt, now, e0, adp=True):
        self.p, self.timeout, self.retry_cnt, self.adp = profile, timeout, retry_cnt, adp
        self.base_ns = profile["time_base"] * 1000 if profile else 0  # time_unit 1 = us
        self.e = e0              # seed 001 L7-11: the initial value is an exponent of time_base
        self.r = None            # no range before the first timeout
        self.uses = 0
        self.initial = True
        self.failed = False
        self.retries = 0
        self.t_progress = now

    def lo(self, r):
        return self.p["range"][r]["range_low_bound"]

    def hi(self, r):  # seed 000 range_size: upper bound base << (low + size), inclusive
        return self.lo(r) + self.p["range"][r]["range_size"]

    def armed(self):
        cap = ib_timeout_ns(self.timeout)
        if not self.adp:
            return cap or 0
        v = self.base_ns << self.e
        if cap is not None and v > cap:   # seed 001 L43: capped by QP.ack_timeout
            v = cap
        return max(v, BASE_MIN_NS)        # seed 001 L60: minimum enforced timeout

    def total(self):
        if self.p["qp_total_timeout"]:    # seed 001 L45-47
            t = ib_timeout_ns(self.timeout)
            return None if t is None else self.retry_cnt * t
        return self.base_ns << self.p["retx_total_timeout"]   # seed 000: base << retx_total_timeout

    def on_timeout(self, now):
        """True: retransmit; False: IBV_WC_RETRY_EXC_ERR."""
        if not self.adp:
            self.retries += 1            # IBA: each timeout uses one of retry_cnt retries
            self.failed = self.retries > self.retry_cnt
            return not self.failed
        total = self.total()
        if total is not None and now - self.t_progress >= total:   # seed 001 L47-49
            self.failed = True
            return False
        if self.initial:                 # seed 001 L13-17: the first timeout event
            self.initial = False
            for r in range(self.p["range_num"]):
                if self.lo(r) <= self.e <= self.hi(r):
                    self.r = r           # continue within that range; L25 retried only once
                    self.uses = self.p["range"][r]["timeout_retry_num"] - 1
                    return True
            self.r = self.p["start_range_index"]
            self.e = self.lo(self.r)
            self.uses = 0
            return True
        self.uses += 1                   # seed 001 L27: used timeout_retry_num times
        if self.uses >= self.p["range"][self.r]["timeout_retry_num"]:
            self.uses = 0
            if self.e < self.hi(self.r):             # L29-31: doubled up to the range top
                self.e += 1
            elif self.r + 1 < self.p["range_num"]:   # L33: then the next range
                self.r += 1
                self.e = min(max(self.lo(self.r), self.e + 1), self.hi(self.r))
        return True

    def on_progress(self, now):
        self.t_progress = now
        self.retries = 0
        if not self.adp:
            return
        self.uses = 0
        if self.initial:
            return
        rg = self.p["range"][self.r]
        lo = rg["range_low_bound"]
        if self.e > lo:                  # seed 001 L51-55, seed 000 dec_mode names
            step = {DEC_TO_DIV_4: 2, DEC_TO_DIV_2: 1}.get(rg["dec_mode"])
            self.e = lo if step is None else max(lo, self.e - step)
        elif self.r > 0:                 # L56: at the lowest value, to prev_range_index
            p = rg["prev_range_index"]
            self.e = min(max(lo - 1, self.lo(p)), self.hi(p))
            self.r = p


def copy_engine(en):
    c = Engine.__new__(Engine)
    c.__dict__.update(en.__dict__)
    return c


def run_flow(cfg, e0, start, first_psn, messages, faults=None):
    """A flow's events [(t_ns, 'data'|'ack', psn)]. messages[i] = losses before message i is
    acknowledged; faults maps (psn, retransmission number) to a function of the correct gap
    giving the gap the faulty device used. 'after_fail' keeps retransmitting once after the
    QP should have failed; 'late_ack' (psn) has no retransmission and a late ACK;
    'no_final_ack' leaves the last message unacknowledged (the capture ends)."""
    faults = faults or {}
    en = Engine(cfg.get("profile"), cfg["timeout"], cfg["retry_cnt"], start, e0, cfg["adp"])
    ev, t, psn = [], start, first_psn
    for losses in messages:
        armed = en.armed()
        ev.append((t, "data", psn))
        if faults.get("late_ack") == psn:
            t += armed + 20_000          # the timer ran out and nothing was resent
            ev.append((t, "ack", psn))
            en.on_progress(t)
            t += POST_NS
            psn += 1
            continue
        for k in range(1, losses + 1):
            gap = armed
            if (psn, k) in faults:
                gap = faults[(psn, k)](armed)
            again = en.on_timeout(t + armed)
            t += gap
            ev.append((t, "data", psn))
            if not again:
                assert faults.get("after_fail"), "the scenario ran past the total timeout"
                return ev
            armed = en.armed()
        if faults.get("no_final_ack") and psn == first_psn + len(messages) - 1:
            return ev
        t += RTT_NS
        ev.append((t, "ack", psn))
        en.on_progress(t)
        t += POST_NS
        psn += 1
    return ev


def run_pipelined(cfg, e0, start, first_psn, first_losses, second_losses, per_psn=False):
    """Message first_psn alone (first_losses losses, as run_flow), then two pipelined messages
    (POST_NS apart) whose first is acknowledged at once and whose second is lost second_losses
    times. IBTA Vol. 1 9.7.6.1.3: the ACK of the first restarts the QP's one timer (with the
    value the progress left) for the second, so its first retransmission is due one armed value
    after that ACK. per_psn: the faulty device that times the second from its own send."""
    en = Engine(cfg.get("profile"), cfg["timeout"], cfg["retry_cnt"], start, e0, cfg["adp"])
    ev, t, psn = [], start, first_psn
    armed = en.armed()
    ev.append((t, "data", psn))
    for _ in range(first_losses):
        assert en.on_timeout(t + armed)
        t += armed
        ev.append((t, "data", psn))
        armed = en.armed()
    t += RTT_NS
    ev.append((t, "ack", psn))
    en.on_progress(t)
    t += POST_NS
    a, b = psn + 1, psn + 2
    en.t_progress = max(en.t_progress, t)     # sent with nothing outstanding
    ev.append((t, "data", a))
    ev.append((t + POST_NS, "data", b))
    sent_b, armed_b = t + POST_NS, en.armed()
    t += RTT_NS
    ev.append((t, "ack", a))
    en.on_progress(t)                         # the timer restarts here for b
    armed = en.armed()
    for k in range(second_losses):
        assert en.on_timeout(t + armed)
        t = sent_b + armed_b if per_psn and k == 0 else t + armed
        ev.append((t, "data", b))
        armed = en.armed()
    t += RTT_NS
    ev.append((t, "ack", b))
    return ev


# ---- The independent replay behind the expected verdicts (rules of harness/adp_check.h) ----

def candidates(cfg):
    if not cfg["adp"]:
        return [0]
    p = cfg["profile"]
    low, size = p["timeout_init_low_bound"], p["timeout_init_range_size"]
    return list(range(low, low + size)) if size else [low]   # seed 001 L7, D-ADP-9


def replay(cfg, events, e0):
    """None if every gap is explained from initial exponent e0, else the failure.

    The QP has one transport timer (IBTA Vol. 1 9.7.6.1.3): it starts when a request is sent
    while it is stopped (nothing outstanding), restarts when an ACK acknowledges some but not all
    outstanding requests and when a retransmission is sent, and stops when nothing is
    outstanding. The value armed at each (re)start is the engine's value at that moment (after
    the progress that restarted it). Gaps and expiries are measured from the timer's start."""
    en = Engine(cfg.get("profile"), cfg["timeout"], cfg["retry_cnt"], events[0][0], e0,
                cfg["adp"])
    out = {}            # outstanding psn -> retransmissions so far
    timer = None        # (start, armed) while something is outstanding
    max_psn = None
    dead = None
    for i, (t, kind, psn) in enumerate(events):
        if out and dead is None:
            old = min(out)
            start, armed = timer
            if armed and t > start + armed + TOL_NS and not (kind == "data" and psn == old):
                probe = copy_engine(en)
                if probe.on_timeout(start + armed):
                    return dict(index=i, kind="missing_retransmission", psn=old,
                                retransmission=out[old] + 1, gap_ns=t - start, expected=armed)
                dead = True
        if kind == "ack":
            acked = [q for q in out if q <= psn]
            for q in acked:
                del out[q]
            if acked and dead is None:
                en.on_progress(t)
                timer = (t, en.armed()) if out else None
            continue
        if max_psn is None or psn > max_psn:
            if dead:
                return dict(index=i, kind="after_total_timeout", psn=psn, retransmission=0,
                            gap_ns=0, expected=None)
            if not out:
                # nothing outstanding: the timer starts, and no forward progress was owed while
                # idle (seed 001 "If no forward progress is made within the total timeout")
                en.t_progress = max(en.t_progress, t)
                timer = (t, en.armed())
            max_psn = psn
            out[psn] = 0
            continue
        if psn not in out:
            return dict(index=i, kind="already_acknowledged", psn=psn, retransmission=0,
                        gap_ns=0, expected=None)
        start, armed = timer
        n = out[psn]
        fail = dict(index=i, psn=psn, retransmission=n + 1, gap_ns=t - start, expected=armed)
        if dead:
            return dict(fail, kind="after_total_timeout")
        if armed == 0:
            return dict(fail, kind="infinite_timer")
        if abs((t - start) - armed) > TOL_NS:
            return dict(fail, kind="gap")
        if not en.on_timeout(start + armed):
            return dict(fail, kind="after_total_timeout")
        out[psn] = n + 1
        timer = (t, en.armed())
    return None


def verdict(cfg, events):
    cands = candidates(cfg)
    fails = {e: replay(cfg, events, e) for e in cands}
    ok = [e for e in cands if fails[e] is None]
    if ok:
        return dict(conforming=True, initial_exponents=ok if cfg["adp"] else [])
    last = max(f["index"] for f in fails.values())
    reach = [e for e in cands if fails[e]["index"] == last]
    first = fails[reach[0]]
    allowed = sorted({fails[e]["expected"] for e in reach
                      if fails[e]["kind"] in ("gap", "missing_retransmission")})
    return dict(conforming=False, psn=first["psn"], retransmission=first["retransmission"],
                kind=first["kind"], gap_ns=first["gap_ns"], allowed_ns=allowed,
                initial_exponents=reach if cfg["adp"] else [])


# ---- Packets ----

MAC_REQ, MAC_RESP = "02:00:00:00:00:01", "02:00:00:00:00:02"


def l3(v6, src, dst):
    return IPv6(src=src, dst=dst, hlim=64) if v6 else IP(src=src, dst=dst, ttl=64, id=0, flags="DF")


def icrc(flow):
    """Scapy computes the ICRC over IPv4 only; over IPv6 it is left 0 (nicref does not check
    ICRCs: they protect the wire, not the timing)."""
    return dict(icrc=0) if flow["v6"] else {}


def packets(flow, events):
    """Requests requester -> responder (SEND Only 0x04, AckReq), ACKs back (0x11, AETH ACK)."""
    out = []
    msn = 0
    for t, kind, psn in events:
        if kind == "data":
            p = (Ether(src=MAC_REQ, dst=MAC_RESP) / l3(flow["v6"], flow["req"], flow["resp"]) /
                 UDP(sport=flow["sport"], dport=4791) /
                 BTH(opcode=0x04, ackreq=1, dqpn=flow["resp_qp"], psn=psn, **icrc(flow)) /
                 Raw(bytes(range(16))))
        else:
            msn += 1
            # AETH syndrome 0x1f: ACK (bits 6:5 = 00) with "credits invalid" (IBTA 9.3.5)
            p = (Ether(src=MAC_RESP, dst=MAC_REQ) / l3(flow["v6"], flow["resp"], flow["req"]) /
                 UDP(sport=flow["sport"], dport=4791) /
                 BTH(opcode=0x11, dqpn=flow["req_qp"], psn=psn, **icrc(flow)) /
                 AETH(syndrome=0x1f, msn=msn))
        p.time = Decimal(T0_NS + t) / Decimal(10**9)
        out.append((T0_NS + t, p))
    return out


FLOW_A = dict(v6=False, req="10.0.0.1", resp="10.0.0.2", req_qp=0x11, resp_qp=0x12, sport=49153)
FLOW_B = dict(v6=True, req="fd00::1", resp="fd00::2", req_qp=0x21, resp_qp=0x22, sport=49154)


def write_pcap(name, flows):
    pk = []
    for flow, events in flows:
        pk += packets(flow, events)
    pk.sort(key=lambda x: x[0])       # stable: per-flow order kept at equal times
    w = PcapWriter(os.path.join(HERE, name), linktype=1, nano=True, sync=True)
    for _, p in pk:
        w.write(p)
    w.close()


def main():
    with open(os.path.join(HERE, "example_profile.json")) as f:
        prof = json.load(f)
    adp = dict(adp=True, profile=prof, timeout=10, retry_cnt=7)
    classic = dict(adp=False, profile=None, timeout=3, retry_cnt=3)
    adp_args = ["--profile", "corpora/adp_captures/example_profile.json", "--timeout", "10",
                "--retry-cnt", "7"]
    classic_args = ["--classic", "--timeout", "3", "--retry-cnt", "3"]
    # A long flow: message 0 climbs through range 0 into range 1 (8 losses), then clean
    # messages step the value back down (TO_DIV_4 in range 1, then prev_range_index 0, then
    # TO_DIV_2 in range 0), then losses again.
    long_msgs = [8, 0, 0, 0, 0, 2, 0, 3]
    cases = []

    def case(name, what, cfg, args, flows, expect_bad=None):
        write_pcap(name, [(fl, ev) for fl, ev in flows])
        res = []
        for fl, ev in flows:
            v = verdict(cfg, ev)
            v["qp"] = fl["resp_qp"]
            res.append(v)
        bad = [v for v in res if not v["conforming"]]
        if expect_bad is None:
            assert not bad, (name, bad)
        else:
            # The fault this capture was built with must be the first unexplained gap.
            assert len(bad) == 1 and all(bad[0][k] == x for k, x in expect_bad.items()), \
                (name, bad)
        cases.append(dict(file="corpora/adp_captures/" + name, what=what, args=args,
                          exit=1 if bad else 0, flows=res))

    start_b = 5_000
    case("conforming_adp.pcap",
         "two QPs (IPv4 from initial exponent 2, IPv6 from 1 = below every range) whose "
         "timings follow the profile: escalation through ranges 0 and 1, decreases, the move "
         "to the previous range",
         adp, adp_args,
         [(FLOW_A, run_flow(adp, 2, 0, 100, long_msgs)),
          (FLOW_B, run_flow(adp, 1, start_b, 500, [3, 0, 5, 0]))])
    case("conforming_classic.pcap",
         "ADP off: the IB timer 4.096 us << 3 = 32.768 us for every retry, retry_cnt 3",
         classic, classic_args,
         [(FLOW_A, run_flow(classic, 0, 0, 7, [3, 0, 2, 1]))])
    case("conforming_total_timeout.pcap",
         "every transmission lost: the retransmissions stop at the total timeout "
         "(4 us << 12 = 16.384 ms), the last armed values capped by QP timeout 10",
         adp, adp_args,
         [(FLOW_A, run_flow(adp, 2, 0, 100, [16], {"no_final_ack": True}))])
    case("nonconf_gap_short.pcap",
         "retransmission 3 of PSN 100 comes after half the armed timeout",
         adp, adp_args,
         [(FLOW_A, run_flow(adp, 2, 0, 100, long_msgs, {(100, 3): lambda g: g // 2}))],
         dict(psn=100, retransmission=3, kind="gap"))
    case("nonconf_gap_long.pcap",
         "retransmission 4 of PSN 100 comes 5 us late",
         adp, adp_args,
         [(FLOW_A, run_flow(adp, 2, 0, 100, long_msgs, {(100, 4): lambda g: g + 5_000}))],
         dict(psn=100, retransmission=4, kind="gap"))
    case("nonconf_skip_escalation.pcap",
         "the device doubles twice at once: 128 us where range 0's top, 64 us, is due",
         adp, adp_args,
         [(FLOW_A, run_flow(adp, 2, 0, 100, long_msgs, {(100, 5): lambda g: g * 2}))],
         dict(psn=100, retransmission=5, kind="gap"))
    case("nonconf_no_decrease.pcap",
         "after forward progress the device keeps its value instead of the TO_DIV_4 decrease",
         adp, adp_args,
         [(FLOW_A, run_flow(adp, 2, 0, 100, [8, 1], {(101, 1): lambda g: g * 2}))],
         dict(psn=101, retransmission=1, kind="gap"))
    case("nonconf_after_total_timeout.pcap",
         "the device keeps retransmitting after the total timeout",
         adp, adp_args,
         [(FLOW_A, run_flow(adp, 2, 0, 100, [17], {"after_fail": True}))],
         dict(psn=100, retransmission=17, kind="after_total_timeout"))
    case("nonconf_missing_retransmission.pcap",
         "the timer of PSN 102 expires and nothing is resent before the (late) ACK",
         adp, adp_args,
         [(FLOW_A, run_flow(adp, 2, 0, 100, [2, 0, 0], {"late_ack": 102}))],
         dict(psn=102, retransmission=1, kind="missing_retransmission"))
    case("nonconf_classic_retry_cnt.pcap",
         "ADP off: a 4th retransmission with retry_cnt 3",
         classic, classic_args,
         [(FLOW_A, run_flow(classic, 0, 0, 7, [4], {"after_fail": True}))],
         dict(psn=7, retransmission=4, kind="after_total_timeout"))
    case("conforming_pipelined_classic.pcap",
         "ADP off, two requests pipelined: the ACK of the first restarts the QP's one timer "
         "(IBTA 9.7.6.1.3), the second is resent 32.768 us after that ACK, not after its own send",
         classic, classic_args,
         [(FLOW_A, run_pipelined(classic, 0, 0, 7, 0, 1))])
    case("conforming_pipelined_adp.pcap",
         "two requests pipelined after an escalation: the ACK of the first decreases the value "
         "(TO_DIV_2) and restarts the timer with it; the second is resent that long after the ACK",
         adp, adp_args,
         [(FLOW_A, run_pipelined(adp, 2, 0, 100, 4, 2))])
    case("nonconf_pipelined_per_psn.pcap",
         "the device times the second pipelined request from its own send, ignoring the restart "
         "at the ACK of the first",
         adp, adp_args,
         [(FLOW_A, run_pipelined(adp, 2, 0, 100, 4, 1, per_psn=True))],
         dict(psn=102, retransmission=1, kind="gap"))
    with open(os.path.join(HERE, "captures.json"), "w") as f:
        json.dump(dict(generator="corpora/adp_captures/gen_captures.py", tolerance_ns=TOL_NS,
                       captures=cases), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()

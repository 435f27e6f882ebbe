#!/usr/bin/env python3
"""The captures of `nicref roce check` (docs/roce_check.md, "The shipped captures"): RoCEv2
conversations built with Scapy from the public formats, conforming ones and ones with one
injected violation each, plus captures with the traits of messy real ones. Every capture's
expectation in ../expected.json is computed by the independent model (rcmodel.py, which reads
the frames as bytes), and the model must agree with what the scenario injected (its "intent"):
two derivations of each expectation, neither from nicref.

  gen_roce_captures.py           write the captures and expected.json
  gen_roce_captures.py --check   fail if a file differs from what would be written
"""
import json
import os
import struct
import sys

from scapy.all import ARP, IP, IPv6, TCP, UDP, Ether, Raw, conf  # noqa: E402
from scapy.contrib.roce import AETH, BTH  # noqa: E402

import pcapio
import rcmodel

conf.verb = 0
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

MAC_A, MAC_B = "02:00:00:00:00:0a", "02:00:00:00:00:0b"
IP_A, IP_B = "10.1.0.1", "10.1.0.2"
IP6_A, IP6_B = "fd00::a", "fd00::b"
QP_A, QP_B = 0x11A, 0x22B  # requester QP on A, responder QP on B
US = 1000


class Conv:
    """A conversation A (requester) <-> B (responder), frames in capture order."""

    def __init__(self, v6=False, sport=49152):
        self.frames = []  # (t_ns, link, bytes, wirelen)
        self.t = 1_000_000_000
        self.v6 = v6
        self.sport = sport

    def _ip(self, fwd, ecn=0):
        if self.v6:
            s, d = (IP6_A, IP6_B) if fwd else (IP6_B, IP6_A)
            return IPv6(src=s, dst=d, tc=ecn, hlim=64)
        s, d = (IP_A, IP_B) if fwd else (IP_B, IP_A)
        return IP(src=s, dst=d, tos=ecn, ttl=64, flags="DF")

    def add(self, pkt, dt, fix_icrc=True, icrc=None, wire=None):
        self.t += dt
        data = bytes(pkt)
        if self.v6 and fix_icrc and icrc is None:
            ip = 14
            data = data[:-4] + rcmodel.icrc(data[ip:]).to_bytes(4, "little")
        if icrc is not None:
            data = data[:-4] + icrc.to_bytes(4, "little")
        self.frames.append((self.t, 1, data, wire if wire else len(data)))
        return len(self.frames)

    def roce(self, fwd, opcode, psn, dqp, body=b"", ecn=0, ackreq=0, tver=0, pad=0, dt=US,
             icrc=None):
        eth = Ether(src=MAC_A if fwd else MAC_B, dst=MAC_B if fwd else MAC_A)
        bth = BTH(opcode=opcode, dqpn=dqp, psn=psn % (1 << 24), ackreq=ackreq, version=tver,
                  padcount=pad, pkey=0xFFFF, icrc=None if not self.v6 else 0)
        pkt = eth / self._ip(fwd, ecn) / UDP(sport=self.sport, dport=4791, chksum=0) / bth
        if body:
            pkt = pkt / Raw(body)
        return self.add(pkt, dt, icrc=icrc)

    # requests A -> B
    def send(self, opcode, psn, n, imm=False, **kw):
        body = (struct.pack(">I", 0xC0FFEE) if imm else b"") + bytes(range(256)) * (n // 256) \
            + bytes(n % 256)
        return self.roce(True, opcode, psn, QP_B, body, **kw)

    def write(self, opcode, psn, n, va=None, rkey=0x1234, length=None, **kw):
        reth = struct.pack(">QII", va, rkey, length) if va is not None else b""
        return self.roce(True, opcode, psn, QP_B, reth + bytes(n), **kw)

    def read(self, psn, va, length, rkey=0x5678, **kw):
        return self.roce(True, 0x0C, psn, QP_B, struct.pack(">QII", va, rkey, length), **kw)

    # responses B -> A
    def ack(self, psn, syndrome=0x1F, msn=0, dt=2 * US, opcode=0x11, n=0, **kw):
        body = bytes(AETH(syndrome=syndrome, msn=msn)) if opcode != 0x0E else b""
        return self.roce(False, opcode, psn, QP_A, body + bytes(n), dt=dt, **kw)

    def cnp(self, dt=US, body=16):
        return self.roce(False, 0x81, 0, QP_A, bytes(body), dt=dt)

    def other(self, pkt, dt=US):
        return self.add(pkt, dt, fix_icrc=False)


SCEN = []


def scenario(name, args=(), intent=None, **opts):
    """intent: None (conforming), or (rule, frame) of the violation the scenario injects; a
    dict for captures whose other QPs carry it: {"others": [(rule, frame)]}."""
    def deco(fn):
        SCEN.append((name, list(args), intent, opts, fn))
        return fn
    return deco


# ---- conforming ---------------------------------------------------------------------------

@scenario("ok_send_write_read", args=["--pmtu", "1024"])
def _(c):
    c.send(0x04, 100, 64)                                 # SEND ONLY
    c.send(0x05, 101, 128, imm=True, ackreq=1)            # SEND ONLY with immediate
    c.ack(101)                                            # coalesced ACK of 100-101
    c.write(0x06, 102, 1024, va=0x10000, length=2500)     # WRITE FIRST (RETH)
    c.write(0x07, 103, 1024)                              # MIDDLE
    c.write(0x08, 104, 452, ackreq=1)                     # LAST
    c.ack(104)
    c.read(105, 0x20000, 3000, ackreq=1)                  # READ: 3 responses at 1024
    c.ack(105, opcode=0x0D, n=1024)
    c.ack(106, opcode=0x0E, n=1024)
    c.ack(107, opcode=0x0F, n=952)
    c.send(0x00, 108, 1024)                               # SEND FIRST / LAST
    c.send(0x02, 109, 4, ackreq=1)
    c.ack(109, msn=5)


@scenario("ok_psn_wrap")
def _(c):
    for k in range(6):
        c.send(0x04, (1 << 24) - 3 + k, 256, ackreq=int(k == 5))
    c.ack(2)


@scenario("ok_nak_go_back_n")
def _(c):
    for k in range(6):
        c.send(0x04, 200 + k, 256)
    c.ack(203, syndrome=0x60)                             # NAK sequence error: expects 203
    for k in range(3, 6):
        c.send(0x04, 200 + k, 256, dt=200)                # Go-Back-N from 203
    c.ack(205)


@scenario("ok_write_resume_middle")
def _(c):
    c.write(0x06, 300, 512, va=0x40000, length=2048)
    c.write(0x07, 301, 512)
    c.write(0x07, 302, 512)
    c.write(0x08, 303, 512, ackreq=1)
    c.ack(302, syndrome=0x60)                             # the second MIDDLE was lost
    c.write(0x07, 302, 512)                               # resumed as it was: MIDDLE, no RETH
    c.write(0x08, 303, 512, ackreq=1)
    c.ack(303)


@scenario("ok_read_resume", args=["--pmtu", "1024"])
def _(c):
    c.read(400, 0x80000, 4096)                            # responses at 400-403
    c.ack(400, opcode=0x0D, n=1024)
    c.ack(401, opcode=0x0E, n=1024)
    c.t += 500 * US                                       # 402, 403 lost: a timeout
    c.read(402, 0x80000 + 2048, 2048)                     # resumed with the advanced RETH
    c.ack(402, opcode=0x0D, n=1024)
    c.ack(403, opcode=0x0F, n=1024)


@scenario("ok_rnr_wait")
def _(c):
    c.send(0x04, 500, 100 * 4, ackreq=1)
    c.ack(500, syndrome=0x20 | 0x02)                      # RNR NAK, timer 2: 0.02 ms
    c.send(0x04, 500, 100 * 4, ackreq=1, dt=25 * US)      # resent after 25 us
    c.ack(500)


@scenario("ok_rnr_acked_early")
def _(c):
    # D-ROCE-RC-25 reading (1): the refused request acknowledged during the RNR wait (a later
    # copy executed), what is left resent before the timer's end: C9-130 binds "its request"
    c.send(0x04, 510, 100, ackreq=1)
    c.send(0x04, 511, 100, ackreq=1)
    c.ack(510, syndrome=0x20 | 0x0E)                      # RNR NAK, timer 14: 1.28 ms
    c.ack(510, dt=50 * US)                                # 510 executed after all
    c.send(0x04, 511, 100, ackreq=1, dt=50 * US)          # resent 0.1 ms after the RNR NAK
    c.ack(511)


@scenario("ok_classic_timer", args=["--classic", "--timeout", "4"], classic_timeout=4)
def _(c):
    c.send(0x04, 600, 256)
    c.send(0x04, 601, 256, ackreq=1)
    c.ack(600)                                            # 601's ACK lost
    # The ACK of 600 restarted the QP's one timer for 601 (IBTA §9.7.6.1.3): 65.536 us after it
    c.send(0x04, 601, 256, ackreq=1, dt=4096 << 4)
    c.ack(601)


@scenario("ok_seed004_cnp", args=["--seed004-window", "--cnp-timer-ns", "50000"])
def _(c):
    for k in range(16):                                   # 16 outstanding: the window
        c.send(0x04, 700 + k, 64, ecn=2)
    c.ack(707)                                            # 8 left
    c.send(0x04, 716, 64, ecn=3)                          # CE-marked on the way
    c.cnp()                                               # -> the CNP
    c.ack(716)                                            # all acknowledged
    for k in range(8):                                    # 8 within CNP_TIMER_THRD
        c.send(0x04, 717 + k, 64)
    c.ack(724)
    c.t += 60 * US                                        # the timer ran out: 16 again
    for k in range(16):
        c.send(0x04, 725 + k, 64)
    c.ack(740)


@scenario("ok_ipv6")
def _(c):
    c.send(0x04, 800, 200, ackreq=1)
    c.ack(800)
    c.write(0x0A, 801, 64, va=0x1000, length=64, ackreq=1)
    c.ack(801)


# ---- one violation each ---------------------------------------------------------------------

@scenario("v_icrc", intent=("pkt.icrc", 3))
def _(c):
    c.send(0x04, 10, 64)
    c.send(0x04, 11, 64)
    c.send(0x04, 12, 64, icrc=0xDEADBEEF)
    c.ack(12)


@scenario("v_tver", intent=("pkt.tver", 2))
def _(c):
    c.send(0x04, 10, 64)
    c.send(0x04, 11, 64, tver=1)


@scenario("v_opcode", intent={"others": [("pkt.opcode", 2)]})
def _(c):
    c.send(0x04, 10, 64, ackreq=1)
    c.roce(True, 0x15, 11, QP_B, bytes(16))               # reserved RC opcode
    c.ack(10)


@scenario("v_length", intent=("pkt.length", 2))
def _(c):
    c.send(0x04, 10, 64)
    c.roce(True, 0x0C, 11, QP_B, struct.pack(">QII", 0x1000, 1, 64) + bytes(4))  # READ + payload


@scenario("v_cnp_format", intent={"others": [("pkt.cnp", 3)]})
def _(c):
    c.send(0x04, 10, 64, ackreq=1)
    c.ack(10)
    c.cnp(body=8)


@scenario("v_psn_gap", intent=("req.psn_seq", 3))
def _(c):
    c.send(0x04, 10, 64)
    c.send(0x04, 11, 64)
    c.send(0x04, 13, 64)


@scenario("v_opcode_seq", intent=("req.opcode_seq", 2))
def _(c):
    c.write(0x06, 10, 1024, va=0x1000, length=2048)
    c.send(0x04, 11, 64)                                  # a new message inside the WRITE


@scenario("v_middle_short", intent=("req.length", 2))
def _(c):
    c.write(0x06, 10, 1024, va=0x1000, length=3000)
    c.write(0x07, 11, 512)                                # MIDDLE below the path MTU


@scenario("v_ack_unsent", intent=("ack.unsent", 3))
def _(c):
    c.send(0x04, 10, 64)
    c.send(0x04, 11, 64, ackreq=1)
    c.ack(12)                                             # 12 was never sent


@scenario("v_ack_regress", intent=("ack.regress", 5))
def _(c):
    for k in range(3):
        c.send(0x04, 10 + k, 64, ackreq=1)
    c.ack(12)
    c.ack(11)


@scenario("v_nak_unjustified", intent=("nak.seq", 3))
def _(c):
    c.send(0x04, 10, 64)
    c.send(0x04, 11, 64)
    c.ack(11, syndrome=0x60)                              # nothing after 11 was sent


@scenario("v_nak_latch", intent=("nak.latch", 6))
def _(c):
    for k in range(4):
        c.send(0x04, 10 + k, 64)
    c.ack(11, syndrome=0x60)                              # expects 11
    c.ack(11, syndrome=0x60)                              # again, before 11 was resent


@scenario("v_retx_skip", intent=("retx.start", 6))
def _(c):
    for k in range(4):
        c.send(0x04, 10 + k, 64)
    c.ack(11, syndrome=0x60)                              # expects 11
    c.send(0x04, 12, 64)                                  # resends from 12: 11 skipped


@scenario("v_retx_opcode", intent=("retx.opcode", 6))
def _(c):
    c.send(0x00, 10, 1024)
    c.send(0x01, 11, 1024)
    c.send(0x02, 12, 100)
    c.ack(11, syndrome=0x60)
    c.send(0x01, 11, 1024)
    c.send(0x04, 12, 100)                                 # was SEND LAST


@scenario("v_retx_reth", intent=("retx.reth", 4))
def _(c):
    c.write(0x0A, 10, 256, va=0x3000, length=256)
    c.write(0x0A, 11, 256, va=0x4000, length=256)
    c.ack(10, syndrome=0x60)
    c.write(0x0A, 10, 256, va=0x3100, length=256)         # another VA


@scenario("v_read_resume_reth", args=["--pmtu", "1024"], intent=("retx.reth", 4))
def _(c):
    c.read(20, 0x9000, 4096)
    c.ack(20, opcode=0x0D, n=1024)
    c.ack(21, opcode=0x0E, n=1024)
    c.read(22, 0x9000, 4096, dt=300 * US)                 # the RETH not advanced


@scenario("v_rnr_early", intent=("retx.rnr_early", 3))
def _(c):
    c.send(0x04, 30, 64, ackreq=1)
    c.ack(30, syndrome=0x20 | 0x0E)                       # RNR timer 14: 1.28 ms
    c.send(0x04, 30, 64, ackreq=1, dt=100 * US)


@scenario("v_window", args=["--seed004-window"], intent=("req.window", 17))
def _(c):
    for k in range(17):
        c.send(0x04, 40 + k, 64)


@scenario("v_cnp_window", args=["--seed004-window", "--cnp-timer-ns", "200000"],
          intent=("cnp.window", 13))
def _(c):
    for k in range(8):
        c.send(0x04, 60 + k, 64)
    c.ack(61)
    c.cnp()
    c.send(0x04, 68, 64)                                  # 7 outstanding: fine
    c.send(0x04, 69, 64)                                  # 8: fine
    c.send(0x04, 70, 64)                                  # 9 within CNP_TIMER_THRD


@scenario("v_cnp_missing", intent=("cnp.missing", 3))
def _(c):
    c.send(0x04, 80, 64, ackreq=1)
    c.ack(80)
    c.send(0x04, 81, 64, ecn=3, ackreq=1)                 # CE, never answered
    c.ack(81)


@scenario("v_classic_gap", args=["--classic", "--timeout", "4"], classic_timeout=4,
          intent=("retx.timing", 4))
def _(c):
    c.send(0x04, 90, 256)
    c.send(0x04, 91, 256, ackreq=1)
    c.ack(90)
    c.send(0x04, 91, 256, ackreq=1, dt=30 * US)           # 30 us: not the 65.536 us timer
    c.ack(91)


def ack_lost(c):
    """Captured at the senders (before the link): B's ACK of PSN 51 is in the capture but the
    link lost it, so A times out and resends 51 (its own oldest unacknowledged PSN), and B
    acknowledges the duplicate again."""
    c.send(0x04, 50, 64)
    c.send(0x04, 51, 64, ackreq=1)
    c.ack(51)
    c.send(0x04, 51, 64, ackreq=1, dt=500 * US)
    c.ack(51)


@scenario("ok_senders_ack_lost", args=["--at-senders"])
def _(c):
    ack_lost(c)


@scenario("v_requester_ack_lost", intent=("retx.start", 4))
def _(c):
    ack_lost(c)                                           # the same frames at the requester


# ---- messy captures: counted outcomes ---------------------------------------------------------

def messy_frames(c):
    """A conforming RC flow among frames nicref counts and does not check."""
    c.other(Ether(src=MAC_A, dst="ff:ff:ff:ff:ff:ff") / ARP(psrc=IP_A, pdst=IP_B))
    c.send(0x04, 1000, 64)
    c.other(Ether(src=MAC_A, dst=MAC_B) / IP(src=IP_A, dst=IP_B) / TCP(sport=1, dport=22))
    c.other(Ether(src=MAC_A, dst=MAC_B) / IP(src=IP_A, dst=IP_B) / UDP(sport=5, dport=53)
            / Raw(b"x" * 12))
    # RoCEv1: the GRH (IBTA §8.3) then a UD SEND ONLY: counted, its ICRC not checked.
    grh = struct.pack(">IHBB", 6 << 28, 12 + 8 + 32 + 4, 0x1B, 64) + bytes(15) + b"\x01" \
        + bytes(15) + b"\x02"
    v1 = BTH(opcode=0x64, dqpn=0x33, psn=5, icrc=0)
    c.other(Ether(src=MAC_A, dst=MAC_B, type=0x8915) / Raw(grh + bytes(v1)[:12]
                                                            + bytes(8) + bytes(32) + bytes(4)))
    c.send(0x04, 1001, 64, ackreq=1)
    c.ack(1001)


@scenario("messy_mixed")
def _(c):
    messy_frames(c)
    # a UD datagram to QP 0x44 (counted as ud, its headers checked)
    c.roce(True, 0x64, 7, 0x44, struct.pack(">II", 0x80010000, 0x55) + bytes(40))


@scenario("messy_truncated", snaplen=80)
def _(c):
    messy_frames(c)
    c.send(0x04, 1002, 512, ackreq=1)                     # cut at 80 bytes: ICRC unchecked
    c.ack(1002)


@scenario("messy_sll", link=pcapio.LINK_LINUX_SLL)
def _(c):
    c.send(0x04, 1100, 64)
    c.send(0x04, 1101, 64, ackreq=1)
    c.ack(1101)


@scenario("messy_pcapng_2if", pcapng=True)
def _(c):
    c.send(0x04, 1200, 64)
    c.send(0x04, 1201, 64, ackreq=1)
    c.ack(1201)
    c.send(0x04, 1202, 64, ackreq=1)
    c.ack(1202)


@scenario("bad_no_roce", bad="no RoCE frame")
def _(c):
    c.other(Ether(src=MAC_A, dst="ff:ff:ff:ff:ff:ff") / ARP(psrc=IP_A, pdst=IP_B))
    c.other(Ether(src=MAC_A, dst=MAC_B) / IP(src=IP_A, dst=IP_B) / TCP(sport=1, dport=22))
    c.other(Ether(src=MAC_A, dst=MAC_B) / IP(src=IP_A, dst=IP_B) / UDP(sport=5, dport=4792)
            / Raw(bytes(40)))


def sll(data):
    """Ethernet -> Linux cooked v1 (tcpdump.org LINKTYPE_LINUX_SLL): packet type 0 or 4, the
    ARPHRD_ETHER 1, address length 6, the address, the protocol."""
    return struct.pack(">HHH", 0, 1, 6) + data[6:12] + b"\0\0" + data[12:14] + data[14:]


def build(name, opts, fn):
    c = Conv(v6=name == "ok_ipv6")
    fn(c)
    link = opts.get("link", pcapio.LINK_ETHERNET)
    frames = c.frames
    if link == pcapio.LINK_LINUX_SLL:
        frames = [(t, link, sll(d), w + 2) for t, _, d, w in frames]
    snap = opts.get("snaplen")
    if snap:
        frames = [(t, l, d[:snap], len(d)) for t, l, d, w in frames]
    return frames


def write(name, opts, frames, path):
    if opts.get("pcapng"):
        # requests on interface 0, responses on interface 1 (both Ethernet)
        pcapio.write_pcapng(path, [(t, d, 0 if d[6:12] == bytes.fromhex("02000000000a") else 1)
                                   for t, _, d, _ in frames], [1, 1])
    else:
        pcapio.write_pcap(path, [(t, d, w) for t, _, d, w in frames],
                          link=opts.get("link", pcapio.LINK_ETHERNET))


def addr(ipver, b):
    import ipaddress
    return str(ipaddress.ip_address(bytes(b)))


def expect(name, args, intent, opts, frames):
    if opts.get("bad"):
        # Nothing to check is bad input: exit 2 and a message naming the file.
        return {"file": name + ".pcap", "args": args, "exit": 2,
                "stderr_contains": [name + ".pcap", opts["bad"]]}
    mopts = {"pmtu": int(args[args.index("--pmtu") + 1]) if "--pmtu" in args else None,
             "seed004": "--seed004-window" in args,
             "at_senders": "--at-senders" in args,
             "cnp_timer_ns": int(args[args.index("--cnp-timer-ns") + 1])
             if "--cnp-timer-ns" in args else 100000,
             "cnp_interval_ns": 50000,
             "classic_timeout": opts.get("classic_timeout")}
    verdict, others, counts, flows = rcmodel.check(frames, mopts)
    # The model must find what the scenario injected, and nothing else.
    got_flows = [v for v in verdict.values() if v]
    got_others = sorted((r, n) for r, n, _ in others.values())
    if intent is None:
        ok = not got_flows and not got_others
    elif isinstance(intent, dict):
        ok = not got_flows and got_others == sorted(intent["others"])
    else:
        ok = got_flows == [intent] and not got_others
    if not ok:
        raise SystemExit(f"{name}: the model says flows {got_flows} others {got_others}, "
                         f"the scenario injected {intent}")
    exp = {"file": name + (".pcapng" if opts.get("pcapng") else ".pcap"), "args": args,
           "exit": 0 if intent is None else 1,
           "icrc": {"good": counts["icrc_good"], "bad": counts["icrc_bad"]},
           "frames": counts["frames"], "classes": counts["classes"],
           "flows": [], "others": []}
    if counts["icrc_truncated"]:
        exp["icrc"]["truncated"] = counts["icrc_truncated"]
    if counts["icrc_v1"]:
        exp["icrc"]["roce_v1"] = counts["icrc_v1"]
    for k, v in sorted(verdict.items()):
        f = {"qp": k[3], "src": addr(k[0], k[1]), "dst": addr(k[0], k[2]),
             "conforming": v is None}
        if v:
            f["rule"], f["frame"] = v
        exp["flows"].append(f)
    for k, (r, n, cls) in sorted(others.items()):
        exp["others"].append({"qp": k[3], "src": addr(k[0], k[1]), "dst": addr(k[0], k[2]),
                              "class": cls, "rule": r, "frame": n})
    return exp


def self_check(frames):
    """Scapy's ICRC (scapy.contrib.roce, IPv4 only) against the model's own, written from the
    annex: the same on every IPv4 RoCEv2 frame Scapy sealed."""
    n = 0
    for _, link, d, w in frames:
        if link != 1 or len(d) != w or d[12:14] != b"\x08\x00" or d[23] != 17:
            continue
        if struct.unpack(">H", d[36:38])[0] != 4791:
            continue
        end = 14 + struct.unpack(">H", d[16:18])[0]
        if rcmodel.icrc(d[14:end]) == int.from_bytes(d[end - 4:end], "little"):
            n += 1
    return n


def main():
    check = "--check" in sys.argv
    expected = {}
    stale = []
    sealed = 0
    for name, args, intent, opts, fn in SCEN:
        frames = build(name, opts, fn)
        if name.startswith("ok_") and not name.endswith("ipv6"):
            sealed += self_check(frames)
        exp = expect(name, args, intent, opts, frames)
        expected[name] = exp
        path = os.path.join(OUT, exp["file"])
        tmp = path + ".tmp"
        write(name, opts, frames, tmp)
        if check:
            same = os.path.exists(path) and open(path, "rb").read() == open(tmp, "rb").read()
            os.remove(tmp)
            if not same:
                stale.append(exp["file"])
        else:
            os.replace(tmp, path)
    text = json.dumps(expected, indent=1, sort_keys=True) + "\n"
    ep = os.path.join(OUT, "expected.json")
    if check:
        if not os.path.exists(ep) or open(ep).read() != text:
            stale.append("expected.json")
        if stale:
            print("roce captures: stale (run gen_roce_captures.py): " + ", ".join(stale))
            return 1
        print(f"roce captures: {len(SCEN)} captures and expected.json as generated; Scapy's "
              f"ICRC equals the model's on {sealed} IPv4 frames")
        return 0
    with open(ep, "w") as f:
        f.write(text)
    print(f"roce captures: wrote {len(SCEN)} captures and expected.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Writes the hand-made seeds of the adp fuzz target (fuzzers/adp_fuzz.c, whose header gives the
input format) into corpora/adp/ as hand-*, and its dictionary fuzzers/adp.dict:

    /usr/bin/python3 fuzzers/adp_seeds.py            (from the repository root)

Rerunnable: it rewrites only corpora/adp/hand-* and fuzzers/adp.dict. The seeds reach every
part of the target: the reference profile of vectors/adp/ under each reading, the total timeout
in both modes, the classic timer, NAKs, re-initialisation with a given exponent, timelines,
the register path (a valid and a refused profile), an invalid profile, overlapping ranges, the
overflow boundary and the floor. `make -f fuzzers/fuzz.mk replay-corpus` runs them through
the target's properties."""
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def profile(qp_total=0, range_num=3, start=1, time_unit=1, time_base=4, retx_total=16,
            init_low=4, init_size=1, ranges=None):
    """seed 000's adp_retx_profile, 24 defined bytes, big-endian dwords."""
    if ranges is None:  # vectors/adp/ reference profile: [3,5] DIV_2, [7,10] DIV_4, [12,13] LOW_BOUND
        ranges = [(0, 1, 2, 3, 2), (0, 0, 2, 7, 3), (1, 2, 1, 12, 1)]
    d0 = qp_total << 31 | range_num << 28 | start << 24 | time_unit << 22 | time_base
    d1 = retx_total << 24 | init_low << 8 | init_size
    rs = [prev << 28 | dec << 26 | retry << 16 | lo << 8 | size for prev, dec, retry, lo, size in ranges]
    rs += [0] * (4 - len(rs))
    return struct.pack(">6I", d0, d1, *rs)


def head(prof, mode=0, timeout=20, retry_cnt=7, caps=0, draw=0):
    return prof + bytes([mode, retry_cnt << 5 | timeout]) + caps.to_bytes(3, "big") + draw.to_bytes(8, "big")


# Event ops (adp_fuzz.c): 0 transmit, 1 ACK, 2 NAK, 3 time step, 4 expire, 5 re-init, 6 timeline.
def ev(*ops):
    out = b""
    for o in ops:
        out += bytes(o) if isinstance(o, tuple) else bytes([o, 0])
    return out


TX, EXP = (0, 0), (4, 0)
def ACK(k=0): return (1, k)
def NAK(k=0): return (2, k)
def STEP(log2): return (3, log2)
def REINIT_E(e): return (5, 2 * e + 1)
REINIT = (5, 0)
def TIMELINE(msgs_rtt, loss8):  # op 6, then 8 loss bytes (not events)
    return (6, msgs_rtt) + tuple(loss8)


PT = profile()
seeds = {
    # escalation through r0, r1, r2 to the ceiling, then progress decreasing back
    "hand-escalate": head(PT) + ev(TX, *[EXP] * 14, ACK(), TX, ACK(), TX, ACK(), TX, ACK(), TX, ACK()),
    "hand-options": head(PT, mode=0x0F) + ev(TX, *[EXP] * 8, ACK(), TX, ACK(), TX, ACK(), TX, EXP, ACK()),
    "hand-by-factor": head(PT, mode=0x22 | 0x01, caps=4 << 21 | 4000) + ev(TX, *[EXP] * 8, ACK(), TX, ACK(), TX, ACK()),
    # total timeout, retx mode: 4000 << 12 = 16,384,000 ns
    "hand-total-retx": head(profile(retx_total=12)) + ev(TX, *[EXP] * 20, REINIT, TX, STEP(20), STEP(24), ACK()),
    # total timeout, qp mode with the cap: QP.timeout 10, retry_cnt 7
    "hand-total-qp": head(profile(qp_total=1), timeout=10, retry_cnt=7) + ev(TX, *[EXP] * 20, REINIT, TX, EXP, ACK()),
    "hand-total-qp-zero": head(profile(qp_total=1), timeout=20, retry_cnt=0) + ev(TX, EXP, TX, ACK(), REINIT, TX, EXP),
    # classic timer (ADP off): retries, reset by progress, NAK retries
    "hand-classic": head(PT, mode=0x10, timeout=10, retry_cnt=3) + ev(TX, EXP, EXP, ACK(), TX, EXP, EXP, EXP, EXP, REINIT, TX, TX, NAK(1), NAK(), NAK(), NAK()),
    "hand-classic-en": head(PT, mode=0x90, timeout=10, retry_cnt=2) + ev(TX, TIMELINE(0x21, [0xFF] * 8)),
    "hand-classic-infinite": head(PT, mode=0x10, timeout=0, retry_cnt=7) + ev(TX, STEP(39), TIMELINE(0x03, [0x01, 0, 0, 0, 0, 0, 0, 0])),
    # NAKs under ADP count against retry_cnt only
    "hand-nak": head(PT, timeout=20, retry_cnt=2) + ev(TX, TX, TX, NAK(1), EXP, EXP, NAK(0), NAK(0), NAK(0), REINIT, TX, NAK(2)),
    # re-initialisation with given exponents (capture checking), in and out of every range
    "hand-init-e": head(PT) + ev(REINIT_E(6), TX, EXP, EXP, ACK(), REINIT_E(13), TX, EXP, EXP, REINIT_E(40), TX, EXP, ACK()),
    # timelines: all lost, alternate, acknowledged
    "hand-timeline": head(PT, draw=0x0123456789ABCDEF) + ev(TIMELINE(0x07, [0xFF] * 8), TIMELINE(0x3F, [0x55] * 8), TIMELINE(0x80, [0] * 8)),
    # the register: a valid profile selected and enabled (id 1), and id 0 (refused)
    "hand-register": head(PT, mode=0xC0, caps=1 << 21) + ev(TX, *[EXP] * 6, ACK(), TX, ACK()),
    "hand-register-id0": head(PT, mode=0xC0, caps=0) + ev(TX, EXP, EXP, ACK()),
    "hand-register-invalid": head(profile(time_base=3), mode=0xC0, caps=2 << 21) + ev(TX, EXP),
    # an invalid profile (time_base 3) runs the classic timer
    "hand-invalid": head(profile(time_base=3), timeout=10, retry_cnt=1) + ev(TX, EXP, EXP, EXP),
    # overlapping ranges [3,5], [4,7], [5,6]: the hand-off to a range that tops out lower
    "hand-overlap": head(profile(init_low=3, ranges=[(0, 1, 2, 3, 2), (0, 0, 2, 4, 3), (1, 2, 2, 5, 1)])) + ev(TX, *[EXP] * 12, ACK(), TX, ACK(), TX, ACK()),
    # the overflow boundary: range 2 tops at 51 (4000 << 51 < 2^63), no cap (QP.timeout 0)
    "hand-overflow-edge": head(profile(init_low=50, init_size=1, ranges=[(0, 1, 2, 3, 2), (0, 0, 2, 7, 3), (1, 2, 1, 12, 39)], retx_total=51), timeout=0) + ev(TX, *[EXP] * 30, TIMELINE(0x07, [0xFF] * 8)),
    "hand-overflow-refused": head(profile(ranges=[(0, 1, 2, 3, 2), (0, 0, 2, 7, 3), (1, 2, 1, 12, 40)])) + ev(TX, EXP),
    # the floor above the cap: min 16,000 ns (capabilities), time_base 16, QP.timeout 1
    "hand-floor": head(profile(range_num=1, start=0, time_base=16, retx_total=10, init_low=0, ranges=[(0, 1, 1, 0, 2)]), mode=0x20, timeout=1, caps=4 << 21 | 16000) + ev(TX, EXP, EXP, EXP, ACK()),
    # four ranges, the maximum
    "hand-four-ranges": head(profile(range_num=4, start=3, init_low=0, ranges=[(0, 1, 2, 3, 2), (0, 0, 2, 7, 3), (1, 2, 1, 12, 1), (2, 1, 3, 20, 4)])) + ev(TX, *[EXP] * 16, ACK(), TX, ACK(), TX, ACK(), TX, ACK()),
}

DICT = [
    ("profile_dword0", PT[0:4]), ("profile_dword1", PT[4:8]), ("range_div2", PT[8:12]), ("range_div4", PT[12:16]),
    ("range_low_bound", PT[16:20]), ("mode_register_en", b"\xc0"), ("mode_classic", b"\x10"), ("mode_caps", b"\x20"),
    ("qp_t20_r7", b"\xf4"), ("caps_4_4000", (4 << 21 | 4000).to_bytes(3, "big")),
    ("ev_transmit", b"\x00\x00"), ("ev_ack", b"\x01\x00"), ("ev_nak", b"\x02\x01"), ("ev_step", b"\x03\x14"),
    ("ev_expire", b"\x04\x00"), ("ev_reinit", b"\x05\x00"), ("ev_reinit_e", b"\x05\x0d"), ("ev_timeline", b"\x06\x07"),
]


def main():
    cdir = os.path.join(ROOT, "corpora", "adp")
    os.makedirs(cdir, exist_ok=True)
    for name in os.listdir(cdir):
        if name.startswith("hand-"):
            os.remove(os.path.join(cdir, name))
    for name, data in seeds.items():
        with open(os.path.join(cdir, name), "wb") as f:
            f.write(data)
    with open(os.path.join(ROOT, "fuzzers", "adp.dict"), "w") as f:
        f.write("# adp fuzz target (fuzzers/adp_fuzz.c): profile dwords, mode bytes, events.\n")
        f.write("# Written by fuzzers/adp_seeds.py.\n")
        for name, tok in DICT:
            f.write(f'{name}="' + "".join(f"\\x{b:02x}" for b in tok) + '"\n')
    print(f"adp_seeds: {len(seeds)} seeds in corpora/adp/, {len(DICT)} tokens in fuzzers/adp.dict")


if __name__ == "__main__":
    main()

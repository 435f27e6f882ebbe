#!/usr/bin/python3
"""An independent model of the adaptive retransmission (ADP) timer, written from the seed text
only (never from reference/ or harness/), with the default readings of docs/decisions.md
D-ADP-*. It runs every default-reading adp_timeline vector of vectors/adp/ and compares each
expected attempt, the end and the counters with its own timeline: `make adp-gen-check`.

Sources: "Adaptive Retransmission: Parameters Control", section "Algorithm & Profile
Description and Formulas" (seed 001: initial value, first timeout, timeout_retry_num uses,
doubling, next range, QP.ack_timeout cap, total timeout, decrease by dec_mode, prev_range_index,
adp_retx_base_timeout_min) and the ROCE_ACCL register document's "Adaptive Retransmission
Profile Layout" (seed 000: field meanings, dec_mode names, base_time << x bounds); IBTA Vol. 1
§9.7.6.1.3 for the classic local ACK timer 4.096 us x 2^timeout. Adopted from the ADP review of
session 29 (helper revadp).

Vectors with engine options (other readings), a device, a capability override or no attempts
list are skipped. An expectation given as a matcher ({"ge": a, "le": b}, {"in": [...]}) is
met when the model's value satisfies it. Usage: adp_indep.py [VECTOR_GLOB]; exit 0 when every
compared timeline agrees (and at least one was compared), 1 otherwise.
"""
import glob
import json
import sys

M64 = (1 << 64) - 1
DEC = {"TO_DIV_4": 0, "TO_DIV_2": 1, "TO_LOW_BOUND": 2}   # seed 000 dec_mode names


def splitmix(s):
    """splitmix64, the draw of the initial value (docs/adp.md)."""
    s = (s + 0x9E3779B97F4A7C15) & M64
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return s, z ^ (z >> 31)


def run(v):
    """The timeline of one adp_timeline step: (end, attempts, [retrans, retrans_to])."""
    p = v.get("profile", {})
    adp = v.get("adp", True)
    rngs = p.get("timeout_range", p.get("range", []))
    base = p.get("time_base", 0) * 1000                    # time_unit 1: microseconds
    qp = v["qp"]
    T, rc = qp.get("timeout", 0), qp.get("retry_cnt", 0)
    cap = 0 if T == 0 else 4096 << T                       # IBTA: 4.096 us x 2^timeout
    mn = v.get("base_timeout_min_ns", 4000)                # adp_retx_base_timeout_min (4 us)
    lo = lambda r: rngs[r]["range_low_bound"]
    hi = lambda r: rngs[r]["range_low_bound"] + rngs[r]["range_size"]
    _, draw = splitmix(v.get("seed", 0))
    size = p.get("timeout_init_range_size", 0)
    # "Initial timeout value = rand(low, low + size - 1)" (D-ADP-9: size 0 gives low)
    e = p.get("timeout_init_low_bound", 0) + draw % (size if size else 1)
    r, uses, retries = -1, 0, 0
    loss = v.get("loss", [])
    loss = set(range(4096)) if loss == "all" else set(loss)
    rn = p.get("range_num", 0)
    # "profile.qp_total_timeout ? (QP.ack_timeout * QP.retry_num) : profile.retx_total_timeout"
    if p.get("qp_total_timeout"):
        total = None if cap == 0 else rc * cap
    else:
        total = base << p.get("retx_total_timeout", 0)

    def armed():
        if not adp:
            return cap
        x = base << e
        if cap and x > cap:          # "capped by QP.ack_timeout, regardless of configured ranges"
            x = cap
        return max(x, mn)            # "The minimum enforced timeout is adp_retx_base_timeout_min"

    t, tprog, out = 0, 0, []
    why = "init" if adp else "classic"
    msgs, msg, k, cnt, end = v["messages"], 0, 0, [0, 0], "done"
    while msg < msgs and k < v.get("max_attempts", 64):
        a = armed()
        lost = 1 if k in loss else (2 if a and v["rtt_ns"] >= a else 0)
        out.append(dict(attempt=k, message=msg, sent_ns=t, armed_ns=a, range=r,
                        e=e if adp else T, reason=why, lost=lost))
        k += 1
        if not lost:                 # forward progress: the next message goes at once
            t += v["rtt_ns"]
            tprog, retries, uses = t, 0, 0
            why = "keep" if adp else "classic"
            if adp and r >= 0:
                if e > lo(r):        # "current_timeout is decremented based on dec_mode"
                    dm = rngs[r]["dec_mode"]
                    dm = DEC[dm] if isinstance(dm, str) else dm
                    e = lo(r) if dm == 2 else max(lo(r), e - (2 if dm == 0 else 1))
                    why = "decrease"
                elif r > 0:          # "move to the previous range defined by prev_range_index"
                    pr = rngs[r]["prev_range_index"]
                    e = min(max(lo(r) - 1, lo(pr)), hi(pr))
                    r = pr
                    why = "prev_range"
            msg += 1
            continue
        if a == 0:
            end = "stall"
            break
        t += a
        if not adp:                  # classic: retry_cnt retries
            retries += 1
            if retries > rc:
                end = "retry_exc"
                cnt[1] += v.get("retrans_en", False)
                break
            cnt[0] += v.get("retrans_en", False)
            why = "classic"
            continue
        # "If no forward progress is made within the total timeout, the QP fails"
        if total is not None and t - tprog >= total:
            end = "retry_exc"
            cnt[1] += 1
            break
        cnt[0] += 1
        if r < 0:                    # "On the first timeout event"
            for i in range(rn):
                if lo(i) <= e <= hi(i):
                    # "continues within that range"; "The initial timeout value is retried
                    # only once" (D-ADP-12)
                    r, uses, why = i, rngs[i]["timeout_retry_num"] - 1, "enter_range"
                    break
            else:                    # "Otherwise, it starts from start_range_index's low bound"
                r = p["start_range_index"]
                e, uses, why = lo(r), 0, "start_range"
            continue
        uses += 1                    # "current_timeout is used timeout_retry_num times"
        if uses >= rngs[r]["timeout_retry_num"]:
            uses = 0
            if e < hi(r):            # "doubled until it reaches" the range's top
                e += 1
                why = "double"
            elif r + 1 < rn:         # "continues with the next defined range"
                r += 1
                e = min(max(e + 1, lo(r)), hi(r))
                why = "next_range"
            else:
                why = "ceiling"
        else:
            why = "retry_same"
    return end, out, cnt


def meets(want, got):
    """An expected value, or a matcher of docs/vectors.md ({"ge", "le"}, {"in"})."""
    if isinstance(want, dict):
        return (("ge" not in want or got >= want["ge"]) and
                ("le" not in want or got <= want["le"]) and
                ("in" not in want or got in want["in"]))
    return want == got


def main():
    pattern = sys.argv[1] if len(sys.argv) > 1 else "vectors/adp/timeline_*.json"
    bad = n = 0
    for f in sorted(glob.glob(pattern)):
        with open(f, encoding="utf-8") as fh:
            doc = json.load(fh)
        for g in doc["testGroups"]:
            for tc in g["tests"]:
                for s in tc["steps"]:
                    v = s.get("adp_timeline")
                    if not v or v.get("options") or v.get("device") or \
                            "attempts" not in v.get("expect", {}) or v.get("max_range_num"):
                        continue
                    n += 1
                    end, out, cnt = run(v)
                    ex = v["expect"]
                    diffs = []
                    if ex.get("end", "done") != end:
                        diffs.append(("end", ex.get("end"), end))
                    for i, a in enumerate(ex["attempts"]):
                        if i >= len(out):
                            diffs.append(("missing attempt", i))
                            break
                        for key, want in a.items():
                            if not meets(want, out[i].get(key)):
                                diffs.append((i, key, want, out[i].get(key)))
                    if len(out) != len(ex["attempts"]):
                        diffs.append(("attempts", len(ex["attempts"]), len(out)))
                    c = ex.get("counters")
                    if c and [c["roce_adp_retrans"], c["roce_adp_retrans_to"]] != cnt:
                        diffs.append(("counters", c, cnt))
                    if diffs:
                        bad += 1
                        print(f"adp-gen-check: {f} tcId {tc['tcId']}: (attempt, field, "
                              f"expected, independent model) {diffs[:4]}")
    print(f"adp-gen-check: {n} default-reading timelines compared with the independent model, "
          f"{bad} differ")
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

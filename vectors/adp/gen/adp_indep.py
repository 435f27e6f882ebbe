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

Readings. The model runs the default reading of every decision, and also the other readings
the engine has as options (an adp_timeline's "options": first_timeout escalate, dec_reading
by_amount / by_factor, init_range inclusive, dec_trigger clean_progress, retry_uses
retransmissions), each from the seed text as decisions.md words it. D-ADP-14's
timeout_retry_num after forward progress has two readings, and the check runs both over every
timeline it compares:
  - "arms" (the reading taken, seed 001 L29 "current_timeout is used timeout_retry_num
    times"): the first transmission after progress is one use, so the value is armed
    timeout_retry_num times in all and the timeout_retry_num-th expiry escalates;
  - "retransmissions" (seed 000 L227 "Number of consecutive retransmissions attempts with the
    same timeout value, before timeout is increased"): the first transmission after progress
    is not a retransmission, so timeout_retry_num retransmissions at the value (one more arm)
    come before it increases.
Where the two timelines of a vector are the same, its expectation (a plain one) must match
them; where they differ, the expectation must be an any_of with the reading taken and the
other one, each alternative's reading naming D-ADP-14, in an acceptable test: so
`make adp-gen-check` finds every vector the choice decides. A vector whose options pin
retry_uses is compared with that reading only.

Vectors taking the mode from a device, with a capability override or with no attempts list
are skipped. An expectation given as a matcher ({"ge": a, "le": b}, {"in": [...]}) is met when
the model's value satisfies it. Usage: adp_indep.py [--reading arms|retransmissions]
[VECTOR_GLOB]: with --reading, only that reading is run and a vector must match it (any_of:
one of its alternatives); exit 0 when every compared timeline agrees (and at least one was
compared), 1 otherwise.
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


# The option names of an adp_timeline step (docs/vectors.md), value 0 first.
OPTIONS = {"first_timeout": ["retry_once", "escalate"],
           "dec_reading": ["by_name", "by_amount", "by_factor"],
           "init_range": ["exclusive", "inclusive"],
           "dec_trigger": ["every_progress", "clean_progress"],
           "retry_uses": ["arms", "retransmissions"]}
READINGS = OPTIONS["retry_uses"]


def option(v, name):
    """The reading an adp_timeline step's options name (a name or a number), 0 if none."""
    x = v.get("options", {}).get(name, 0)
    return OPTIONS[name].index(x) if isinstance(x, str) else x


def run(v, reading=None):
    """The timeline of one adp_timeline step: (end, attempts, [retrans, retrans_to]). reading:
    D-ADP-14's timeout_retry_num after progress, "arms" or "retransmissions" (None: the
    step's options.retry_uses)."""
    escalate_first = option(v, "first_timeout") == 1
    dec_reading = option(v, "dec_reading")
    clean_only = option(v, "dec_trigger") == 1
    if reading is None:
        reading = READINGS[option(v, "retry_uses")]
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
    if option(v, "init_range") == 1:
        # seed 000 L175: "Upper bound ... base_time << (timeout_init_low_bound +
        # timeout_init_range_size)", the upper bound included (D-ADP-9, other reading)
        size += 1
    # "Initial timeout value = rand(low, low + size - 1)" (D-ADP-9: size 0 gives low)
    e = p.get("timeout_init_low_bound", 0) + draw % (size if size else 1)
    r, uses, retries, retransmitted = -1, 0, 0, False
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
            tprog, retries = t, 0
            # seed 000 L227 "consecutive": progress starts the count again. "arms": the next
            # message's first transmission, armed at the value, is its first use;
            # "retransmissions": it is no retransmission, so the count starts one lower.
            uses = 0 if reading == "arms" else -1
            why = "keep" if adp else "classic"
            clean, retransmitted = not retransmitted, False
            # D-ADP-14 dec_trigger clean_progress: only progress with no retransmission
            # since the previous progress decreases
            if adp and r >= 0 and (clean or not clean_only):
                if e > lo(r):        # "current_timeout is decremented based on dec_mode"
                    dm = rngs[r].get("dec_mode", 0)       # absent fields are 0 (docs/vectors.md)
                    dm = DEC[dm] if isinstance(dm, str) else dm
                    # D-ADP-16: seed 000's names (TO_DIV_4 -2, TO_DIV_2 -1); by_amount:
                    # seed 001's "Decrement by 2 / by 4" in code order; by_factor: the same
                    # list as divisions (code 0 halves, code 1 quarters)
                    step = [(2, 1), (2, 4), (1, 2)][dec_reading][dm] if dm < 2 else 0
                    e = lo(r) if dm == 2 else max(lo(r), e - step)
                    why = "decrease"
                elif r > 0:          # "move to the previous range defined by prev_range_index"
                    pr = rngs[r].get("prev_range_index", 0)
                    e = min(max(lo(r) - 1, lo(pr)), hi(pr))
                    r = pr
                    why = "prev_range"
            msg += 1
            continue
        if a == 0:
            end = "stall"
            break
        t += a
        retransmitted = True
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
                    if escalate_first:   # D-ADP-12 other reading: it was its one use
                        uses = rngs[i]["timeout_retry_num"]
                        why = None
                    break
            else:                    # "Otherwise, it starts from start_range_index's low bound"
                r = p.get("start_range_index", 0)
                e, uses, why = lo(r), 0, "start_range"
            if why:
                continue
        else:
            uses += 1                # "current_timeout is used timeout_retry_num times"
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


def differences(ex, timeline):
    """How an expectation (end, attempts, counters) differs from a timeline of the model."""
    end, out, cnt = timeline
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
    return diffs


def alternatives(ex):
    """The expectations of a step: its own, or each any_of alternative with the keys the
    expectation gives outside any_of (docs/vectors.md "any_of")."""
    if "any_of" not in ex:
        return [ex]
    own = {k: x for k, x in ex.items() if k != "any_of"}
    return [dict(own, **alt) for alt in ex["any_of"]]


def judge(tc, v, only):
    """The problems of one step: its expectation against both readings of D-ADP-14's
    timeout_retry_num after progress (only: one reading)."""
    ex = v["expect"]
    alts = alternatives(ex)
    if "retry_uses" in v.get("options", {}):
        readings = [READINGS[option(v, "retry_uses")]]   # the vector pins one reading
    else:
        readings = [only] if only else READINGS
    runs = {rd: run(v, rd) for rd in readings}
    if "attempts" not in alts[0]:
        return ["no attempts list"]
    problems = []
    if only or len(readings) == 1:
        # One reading: the expectation (or one of its alternatives) is its timeline.
        rd = readings[0]
        if not any(not differences(a, runs[rd]) for a in alts):
            problems.append(f"reading {rd}: {differences(alts[0], runs[rd])[:4]}")
        return problems
    same = runs["arms"] == runs["retransmissions"]
    if same:
        if "any_of" in ex:
            problems.append("any_of, yet both readings of D-ADP-14 give the same timeline")
        d = differences(ex, runs["arms"])
        if d:
            problems.append(f"(attempt, field, expected, independent model) {d[:4]}")
        return problems
    # The readings differ: the vector must accept both, and nothing else.
    if "any_of" not in ex:
        d = differences(ex, runs["retransmissions"])
        problems.append("the readings of D-ADP-14 (timeout_retry_num after progress) give "
                        "different timelines, so the expectation must be an any_of of both; "
                        f"the other reading differs by {d[:4]}")
        return problems
    if tc.get("result") != "acceptable":
        problems.append(f"result {tc.get('result')}: an any_of of two readings is acceptable")
    for k, a in enumerate(alts):
        held = [rd for rd in READINGS if not differences(a, runs[rd])]
        if not held:
            problems.append(f"any_of[{k}] is neither reading's timeline: "
                            f"{differences(a, runs['arms'])[:3]}")
        if "D-ADP-14" not in a.get("reading", ""):
            problems.append(f"any_of[{k}]: its reading does not name D-ADP-14")
    for rd in READINGS:
        if not any(not differences(a, runs[rd]) for a in alts):
            problems.append(f"no alternative is the {rd} reading's timeline: "
                            f"{differences(alts[0], runs[rd])[:4]}")
    return problems


def main():
    args = sys.argv[1:]
    only = None
    if args[:1] == ["--reading"]:
        only = args[1]
        if only not in READINGS:
            print(f"adp-gen-check: --reading takes {' or '.join(READINGS)}")
            return 2
        args = args[2:]
    pattern = args[0] if args else "vectors/adp/timeline_*.json"
    bad = n = both = 0
    for f in sorted(glob.glob(pattern)):
        with open(f, encoding="utf-8") as fh:
            doc = json.load(fh)
        for g in doc["testGroups"]:
            for tc in g["tests"]:
                for s in tc["steps"]:
                    v = s.get("adp_timeline")
                    if not v or v.get("device") or v.get("max_range_num") or \
                            not any("attempts" in a for a in alternatives(v.get("expect", {}))):
                        continue
                    n += 1
                    both += "any_of" in v["expect"]
                    problems = judge(tc, v, only)
                    if problems:
                        bad += 1
                        for pr in problems:
                            print(f"adp-gen-check: {f} tcId {tc['tcId']}: {pr}")
    which = f"the {only} reading of D-ADP-14" if only else "both readings of D-ADP-14"
    print(f"adp-gen-check: {n} timelines compared with the independent model under {which} "
          f"({both} accept two readings), {bad} differ")
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

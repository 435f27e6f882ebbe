"""The vector file format (docs/vectors.md) for vectors/pcie, and the test builder that runs
the independent model (dll_model.py) to fill in every expect step.

A test is written as stimulus steps and `E(...)` markers (what to compare at that point). The
builder runs the model once per reading (`readings`: name -> dll_model.Options) and once per
REPLAY_TIMER limit inside the seed's window (L125: 24000 and 31000 symbol times with Extended
Synch 0; L126: 80000 and 100000 with 1): every expectation must come out the same under every
limit (a vector may not depend on where in the window the device's limit lies), and where the
readings differ the expectation becomes an `any_of` with one alternative per reading (the test
is then `acceptable`). The vector language of docs/pcie.md has no `any_of` for its steps, so an
open point is written one of two ways (docs/vectors.md, `result`):
- the readings differ only in numbers of `state`: a matcher (`{"in": [...]}`) admits each
  reading's value, and every later expectation must hold under every reading;
- otherwise the test pins the first reading (the decision of docs/pcie.md) with a `PROFILE`
  flag naming that decision, and its comment gives the other reading.
"""
import copy
import json

import dll_model as M

STATE_KEYS = ("next_transmit_seq", "ackd_seq", "replay_num", "replay_timer_running",
              "replay_timer", "next_rcv_seq", "nak_scheduled", "acknak_latency_timer",
              "retry_buffer", "retraining")


class E:
    """An expect step: which things to compare. sent/delivered/errors default to compared."""
    def __init__(self, state=(), sent=True, delivered=True, errors=True, tl_stalled=None):
        for k in state:
            assert k in STATE_KEYS, k
        self.state = tuple(state)
        self.sent = sent
        self.delivered = delivered
        self.errors = errors
        self.tl_stalled = tl_stalled


def _hex32(v):
    return f"0x{v:08x}"


def _render_sent(sent):
    out = []
    for s in sent:
        if "tlp" in s:
            t = s["tlp"]
            out.append({"tlp": {"seq": t["seq"], "lcrc": _hex32(t["lcrc"]),
                                "nullified": t["nullified"], "replay": t["replay"]}})
        else:
            dl = dict(s["dllp"])
            dl["crc"] = f"0x{dl['crc']:04x}"
            out.append({"dllp": dl})
    return out


def _observe(end, e):
    sent, delivered, errors = end.take()
    obs = {}
    if e.state:
        st = end.state()
        obs["state"] = {k: st[k] for k in e.state}
    if e.sent:
        obs["sent"] = _render_sent(sent)
    if e.delivered:
        obs["delivered"] = delivered
    if e.errors:
        obs["errors"] = errors
    if e.tl_stalled is not None:
        obs["tl_stalled"] = end.tl_stalled
    return obs


def limits_for(setup):
    """The (Extended Synch 0, Extended Synch 1) REPLAY_TIMER limits to run under: the ends of
    each window (L125, L126) unless the setup fixes one."""
    es0 = [setup["replay_limit"]] if "replay_limit" in setup else [24000, 31000]
    es1 = [setup["replay_limit_es1"]] if "replay_limit_es1" in setup else [80000, 100000]
    return [(a, b) for a in es0 for b in es1]


def run(setup, steps, options, limits):
    options = copy.copy(options)
    if "priority" in setup:
        options.ack_before_replay = setup["priority"] == "recommended"
    p = M.Params(ack_latency_limit=setup.get("ack_latency_limit", 1000),
                 replay_limit=limits[0], replay_limit_es1=limits[1],
                 extended_synch=setup.get("extended_synch", 0))
    end = M.DllEnd(p, options)
    out = []
    for st in steps:
        if isinstance(st, E):
            out.append(_observe(end, st))
        else:
            M.run_steps(end, [st])
    return out


class VecFile:
    def __init__(self, name, header, notes=None):
        self.name = name
        self.header = header
        self.notes = notes or {}
        self.groups = []
        self.next_id = 1
        self.rules = {}   # rule id -> [tcId]

    def group(self, comment, setup=None):
        g = {"comment": comment, "setup": [{"dll": setup or {}}], "tests": [], "_setup": setup or {}}
        self.groups.append(g)
        return g

    def test(self, g, comment, cite, rules, steps, readings=None, pin=None):
        """readings: {"reading text": Options} (two or more, the first the decision's) where
        the seed is open; pin: the PROFILE flag (a key of notes) to use when a matcher cannot
        say it."""
        assert "seed 003 L" in cite, cite
        setup = g["_setup"]
        readings = readings or {"": M.Options()}
        results = {}
        for name, opt in readings.items():
            per_limit = [run(setup, steps, opt, lim) for lim in limits_for(setup)]
            for other in per_limit[1:]:
                if other != per_limit[0]:
                    raise AssertionError(f"{self.name}: '{comment}': the expectation depends on "
                                         f"where the REPLAY_TIMER limit lies in its window")
            results[name] = per_limit[0]
        names = list(readings)
        out_steps = []
        k = 0
        how = None
        for st in steps:
            if not isinstance(st, E):
                out_steps.append(copy.deepcopy(st))
                continue
            alts = [results[n][k] for n in names]
            k += 1
            if all(a == alts[0] for a in alts) or how == "pin":
                out_steps.append({"expect": alts[0]})
                continue
            if how is not None:
                raise AssertionError(f"{self.name}: '{comment}': a second expectation differs "
                                     "between readings")
            exp = self._matcher(alts)
            if exp is not None:
                how = "matcher"
            else:
                assert pin in self.notes, f"{self.name}: '{comment}': readings differ: pin?"
                assert self.notes[pin]["bugType"] == "PROFILE"
                how = "pin"
                exp = alts[0]
            out_steps.append({"expect": exp})
        if len(names) == 1 and pin:
            how = "pin"     # the reading is a device setting of the group's setup
        if len(names) > 1 and how is None:
            raise AssertionError(f"{self.name}: '{comment}': readings given but no difference")
        tc = {"tcId": self.next_id, "comment": comment, "cite": cite,
              "flags": [pin] if how == "pin" else [],
              "result": "acceptable" if how else "valid", "steps": out_steps}
        self.next_id += 1
        g["tests"].append(tc)
        for r in rules:
            self.rules.setdefault(r, []).append(tc["tcId"])
        return tc

    @staticmethod
    def _matcher(alts):
        """One expectation admitting every alternative, when they differ only in numbers of
        state; else None."""
        keys = set(alts[0])
        if any(set(a) != keys for a in alts):
            return None
        for key in keys - {"state"}:
            if any(a[key] != alts[0][key] for a in alts):
                return None
        out = copy.deepcopy(alts[0])
        for f in alts[0].get("state", {}):
            vals = [a["state"][f] for a in alts]
            if all(v == vals[0] for v in vals):
                continue
            if any(isinstance(v, bool) or not isinstance(v, int) for v in vals):
                return None
            out["state"][f] = {"in": sorted(set(vals))}
        return out

    def doc(self):
        groups = []
        for g in self.groups:
            groups.append({k: v for k, v in g.items() if not k.startswith("_")})
        n = sum(len(g["tests"]) for g in groups)
        return {"schema": "nicref_vectors_v1", "feature": "pcie_dll", "header": self.header,
                "notes": self.notes, "numberOfTests": n, "testGroups": groups}


def dump(doc):
    """JSON with one step per line (the long TLP streams stay readable in a diff)."""
    def enc(o):
        return json.dumps(o, ensure_ascii=False, separators=(", ", ": "))

    lines = ["{"]
    top = list(doc.items())
    for i, (k, v) in enumerate(top):
        comma = "," if i < len(top) - 1 else ""
        if k != "testGroups":
            if k == "header":
                lines.append(f' "{k}": [')
                for j, h in enumerate(v):
                    lines.append("  " + enc(h) + ("," if j < len(v) - 1 else ""))
                lines.append(" ]" + comma)
            else:
                lines.append(f' "{k}": {json.dumps(v, ensure_ascii=False)}{comma}')
            continue
        lines.append(' "testGroups": [')
        for gi, g in enumerate(v):
            lines.append("  {")
            lines.append(f'   "comment": {enc(g["comment"])},')
            lines.append(f'   "setup": {enc(g["setup"])},')
            lines.append('   "tests": [')
            for ti, t in enumerate(g["tests"]):
                lines.append("    {")
                for key in ("tcId", "comment", "cite", "flags", "result"):
                    lines.append(f'     "{key}": {enc(t[key])},')
                lines.append('     "steps": [')
                for si, s in enumerate(t["steps"]):
                    lines.append("      " + enc(s) + ("," if si < len(t["steps"]) - 1 else ""))
                lines.append("     ]")
                lines.append("    }" + ("," if ti < len(g["tests"]) - 1 else ""))
            lines.append("   ]")
            lines.append("  }" + ("," if gi < len(v) - 1 else ""))
        lines.append(" ]" + comma)
    lines.append("}")
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == doc
    return text

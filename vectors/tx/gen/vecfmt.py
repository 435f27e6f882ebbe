"""The vector file format (docs/vectors.md) and the send-path steps (tx_setup, wqe, sq_ring,
frames, cqes) as the send-path contract names them. Builders only; no expectation is decided
here."""
import json

import wqe as W

PORT = 1
DATA_BASE = 0x40000000  # tx_setup's default data region (its MKey's lkey is "data")
DATA_SIZE = 0x100000


class GenError(Exception):
    pass


def hx(b):
    return b.hex()


def num(v):
    return "0x%x" % v if v > 9 else v


class Wqe:
    """One send WQE described by segments; knows its size (to follow the producer counter)
    and the frame its bytes make before offloads."""

    def __init__(self, opcode="SEND", ctrl=None, eth=None, inline_header=b"", data=(),
                 ring=None):
        self.opcode = opcode
        self.ctrl = dict(ctrl or {})
        self.eth = None if eth is None and opcode == "NOP" else dict(eth or {})
        self.inline_header = inline_header
        self.data = list(data)  # ("ptr", bytes, overrides) | ("inline", bytes)
        self.ring = ring

    @property
    def has_eth(self):
        return self.eth is not None

    def size(self):
        segs = [(d[0], len(d[1])) for d in self.data]
        return W.wqe_size(self.has_eth, len(self.inline_header), segs)

    def wqebbs(self):
        return W.wqebbs(self.size())

    def gathered(self):
        """The packet the WQE describes: inline headers, then each data segment's bytes
        (a pointer's byte_count override takes that many)."""
        out = self.inline_header
        for d in self.data:
            b = d[1]
            if d[0] == "ptr" and len(d) > 2 and "byte_count" in d[2]:
                b = b[:d[2]["byte_count"]]
            out += b
        return out

    def step(self):
        w = {"opcode": self.opcode}
        if self.ctrl:
            w["ctrl"] = self.ctrl
        if self.eth is not None:
            e = dict(self.eth)
            if self.inline_header:
                e["inline_header"] = hx(self.inline_header)
            w["eth"] = e
        if self.data:
            segs = []
            for d in self.data:
                if d[0] == "ptr":
                    s = {"bytes": hx(d[1])}
                    for k, v in (d[2] if len(d) > 2 else {}).items():
                        s[k] = num(v) if isinstance(v, int) else v
                    segs.append(s)
                else:
                    segs.append({"inline": hx(d[1])})
            w["data"] = segs
        if self.ring:
            w["ring"] = self.ring
        return {"wqe": w}


class RawWqe:
    """A WQE given as raw bytes (`hex`): used where the vector itself must own every byte
    (signatures made by hand, UMR segments, a padding segment, bytes past DS)."""

    def __init__(self, data, opcode, ring=None):
        self.data, self.opcode, self.ring = data, opcode, ring

    def wqebbs(self):
        return W.wqebbs(len(self.data))

    def step(self):
        w = {"hex": hx(self.data)}
        if self.ring:
            w["ring"] = self.ring
        return {"wqe": w}


class Sq:
    """The producer counter of the SQ (§7.4.1.1: in WQEBBs, wrapping at 0x10000)."""

    def __init__(self):
        self.pc = 0

    def post(self, w):
        idx = self.pc
        self.pc = (self.pc + w.wqebbs()) & 0xFFFF
        return idx


def tx_setup(**kw):
    return {"tx_setup": {k: num(v) if isinstance(v, int) and k == "addr" else v for k, v in kw.items()}}


def sq_ring(ring="db"):
    return {"sq_ring": {"ring": ring}}


READING_MAX = 80  # docs/vectors.md "any_of": a reading is at most 80 characters


def check_readings(alts):
    """An any_of's alternatives: each reading at most READING_MAX characters, and no one text
    for two different expectations (the report names the reading that held; a text cut to fit
    once made two readings one). A generator error, not something to cut silently."""
    for i, a in enumerate(alts):
        if len(a["reading"]) > READING_MAX:
            raise GenError(f"reading over {READING_MAX} characters: {a['reading']!r}")
        for b in alts[:i]:
            if b["reading"] == a["reading"] and b != a:
                raise GenError(f"one reading, two expectations: {a['reading']!r}")


def frame_list(frames):
    return [{"port": PORT, "hex": hx(f)} for f in frames]


def cqe_ok(idx, s_wqe_opcode, se=0):
    """T67/T68, requester columns: opcode 0 (requester), wqe_counter the completed WQE's
    counter, s_wqe_opcode the WQE's opcode, cqe_format 0 (no inline data), se, owner 0 on the
    CQ's first pass (§7.12.3.1: the buffer starts in HW ownership, owner 1 for HW on pass 0)."""
    return {"opcode": 0, "wqe_counter": idx, "s_wqe_opcode": s_wqe_opcode, "cqe_format": 0,
            "se": se, "owner": 0}


def cqe_err(idx, syndrome, s_wqe_opcode=None):
    """T73/T74: opcode 13 (requester error), the syndrome, wqe_counter, owner 0."""
    c = {"layout": "err_cqe", "opcode": 13, "wqe_counter": idx, "syndrome": syndrome, "owner": 0}
    if s_wqe_opcode is not None:
        c["s_wqe_opcode"] = s_wqe_opcode
    return c


class Test:
    def __init__(self, comment, cite, result, flags=()):
        self.comment, self.cite, self.result = comment, cite, result
        self.flags = list(flags)
        self.steps = []
        self.open = False  # the test holds an expectation that admits more than one outcome

    def add(self, *steps):
        self.steps.extend(steps)
        return self

    # --- expectations -------------------------------------------------------------------
    def frames(self, frames, readings=None):
        """Frames since the previous frames step, exactly. Padding readings (§3.3.8) are added
        automatically when a frame is shorter than 64 bytes; `readings` = [(reading, frames)]
        lists alternatives the PRM allows (each then padded the same way)."""
        import pkt
        alts = []
        for reading, fl in (readings or [(None, frames)]):
            for pr, padded in pkt.pad_readings(fl):
                label = "; ".join(x for x in (reading, pr) if x)
                alts.append((label, padded))
        if len(alts) == 1:
            self.steps.append({"frames": {"expect": frame_list(alts[0][1]), "exact": True}})
        else:
            self.open = True
            seen, uniq = set(), []
            for label, fl in alts:
                key = tuple(fl)
                if key in seen:
                    continue
                seen.add(key)
                uniq.append({"reading": label, "expect": frame_list(fl), "exact": True})
            check_readings(uniq)
            if len(uniq) == 1:
                self.steps.append({"frames": {"expect": uniq[0]["expect"], "exact": True}})
            else:
                self.steps.append({"frames": {"any_of": uniq}})
        return self

    def no_frames(self):
        self.steps.append({"frames": {"expect": [], "exact": True}})
        return self

    def cqes(self, cqes):
        for c in cqes:
            for v in c.values():
                if isinstance(v, dict) and ("in" in v or "ge" in v or "ne" in v):
                    self.open = True
        self.steps.append({"cqes": {"expect": list(cqes), "exact": True}})
        return self

    def cqes_any(self, alts):
        """alts: [(reading, [cqe, ...])]: the PRM allows each list (the send-path contract's
        cqes step takes any_of as frames does)."""
        self.open = True
        alts = [{"reading": r, "expect": list(c), "exact": True} for r, c in alts]
        check_readings(alts)
        self.steps.append({"cqes": {"any_of": alts}})
        return self

    def violation(self, *clauses):
        """The issue's contract: every rule the driver broke is reported (a `violation`
        event). The rule's name is the model's, so the event is matched by the PRM clause the
        broken rule stands in (docs/vectors.md "Clauses": "PRM §" and a section number); one
        event per clause, in order."""
        ev = [{"event": "violation", "clause": c} for c in clauses] or [{"event": "violation"}]
        self.steps.append({"events": {"expect": ev, "exact": False}})
        return self

    def maybe_violation(self, why, clause=None):
        self.open = True
        ev = {"event": "violation", "clause": clause} if clause else {"event": "violation"}
        alts = [{"reading": "reported as a driver violation: " + why, "expect": [ev], "exact": False},
                {"reading": "not a driver violation", "expect": [], "exact": False}]
        check_readings(alts)
        self.steps.append({"events": {"any_of": alts}})
        return self

    def build(self, tc):
        if self.result == "acceptable" and not self.open:
            raise GenError(f"tc {tc} ({self.comment}): acceptable but nothing open")
        if self.result != "acceptable" and self.open:
            raise GenError(f"tc {tc} ({self.comment}): {self.result} yet an expectation is open")
        return {"tcId": tc, "comment": self.comment, "cite": self.cite, "flags": self.flags,
                "result": self.result, "steps": self.steps}


class Group:
    def __init__(self, comment, setup, caps=None, profile=None):
        self.comment, self.setup, self.caps, self.profile = comment, setup, caps, profile
        self.tests = []

    def test(self, *a, **kw):
        t = Test(*a, **kw)
        self.tests.append(t)
        return t


class VFile:
    def __init__(self, name, feature, header, notes):
        self.name, self.feature, self.header, self.notes = name, feature, header, notes
        self.groups = []

    def group(self, comment, setup, caps=None, profile=None):
        """profile: device-profile settings of the group (docs/vectors.md "File"), for what no
        command can set (the vport's min_wqe_inline_mode, T483 has no field_select bit)."""
        g = Group(comment, setup, caps, profile)
        self.groups.append(g)
        return g

    def build(self):
        tc = 0
        groups = []
        used = set()
        for g in self.groups:
            tests = []
            for t in g.tests:
                tc += 1
                tests.append(t.build(tc))
                used.update(t.flags)
            gd = {"comment": g.comment}
            if g.profile:
                gd["profile"] = g.profile
            if g.caps:
                gd["caps"] = g.caps
            gd["setup"] = g.setup
            gd["tests"] = tests
            groups.append(gd)
        missing = used - set(self.notes)
        if missing:
            raise GenError(f"{self.name}: flags without a note: {sorted(missing)}")
        notes = {k: v for k, v in self.notes.items() if k in used}
        return {"schema": "nicref_vectors_v1", "feature": self.feature, "header": self.header,
                "notes": notes, "numberOfTests": tc, "testGroups": groups}

    def dumps(self):
        return json.dumps(self.build(), indent=1, ensure_ascii=False) + "\n"

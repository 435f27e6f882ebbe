#!/usr/bin/env python3
"""make roce-check: `nicref roce check --json` on every capture of
corpora/roce_captures/expected.json (written with the captures by an independent Python model,
corpora/roce_captures/gen/, never from nicref's output), compared with what the file expects:

- the exit status (0 conforming, 1 not);
- the flows as a set keyed by (qp, src, dst): each conforming or not, and for a
  non-conforming one the rule and the frame of its first violation;
- the other QPs' first frame violations (rule and frame), keyed the same way;
- the frame count, the classes and the ICRC counts the file gives;
- for bad input (exit 2): nothing on stdout, and the stderr substrings the file gives.

Then every shipped capture mutated (seeded, 12 mutants each: bytes of its frames flipped,
frames cut short, lengths in the record headers left as they were): exit 0, 1 or 2, never a
crash.

Then memory (docs/roce_check.md "Memory"): captures written here in a temporary directory, one RC
flow whose every ICRC is wrong and UD datagrams whose every ICRC is wrong (each frame a
violation), of 100,000 and 200,000 frames: the peak resident size grows by at most 300 and 150
bytes per frame (the records the page lists: about 234 and 70; 434 and 340 before the frame
details were made from the record and the other QPs kept one violation each).

Bad input the tree holds already: a missing file, a link type nicref does not read, a pcapng
whose interfaces differ in link type: exit 2 and a message naming the file.

Then the timing check `nicref roce check` takes over from `nicref adp check`: on every capture of
corpora/adp_captures/captures.json (the ADP captures, with their own independent generator),
with the same PROFILE arguments, each flow that file expects conforming is conforming and each
it expects non-conforming has its first violation `retx.timing` at the PSN the file names. (That
generator writes no ICRC on IPv6 frames: a `pkt.icrc` on an IPv6 flow is taken as conforming.)

A mismatch names the capture and the field. Usage: ci/check_roce_captures.py TOOL [EXPECTED]
"""
import json
import os
import subprocess
import sys


def key(x):
    return (x.get("qp"), x.get("src"), x.get("dst"))


def check_one(tool, base, name, want):
    path = os.path.join(base, want["file"])
    cmd = [tool, "roce", "check", path, "--json"] + want.get("args", [])
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    errs = []
    if r.returncode != want["exit"]:
        errs.append(f"{name}: exit {r.returncode}, expected {want['exit']} "
                    f"(stderr: {r.stderr.strip()[:200]})")
    if want["exit"] == 2:
        for sub in want.get("stderr_contains", []):
            if sub not in r.stderr:
                errs.append(f"{name}: stderr lacks {sub!r}: {r.stderr.strip()[:300]!r}")
        if r.stdout:
            errs.append(f"{name}: bad input, yet stdout has {r.stdout[:100]!r}")
        return errs
    try:
        got = json.loads(r.stdout)
    except ValueError:
        return errs + [f"{name}: stdout is not JSON: {r.stdout[:200]!r}"]
    s = got.get("summary", {})
    if s.get("frames") != want["frames"]:
        errs.append(f"{name}: frames {s.get('frames')}, expected {want['frames']}")
    for c, n in want["classes"].items():
        if s.get("classes", {}).get(c) != n:
            errs.append(f"{name}: classes.{c} {s.get('classes', {}).get(c)}, expected {n}")
    ic = got.get("frames", {}).get("icrc", {})
    for k, n in want["icrc"].items():
        v = ic.get(k) if k in ("good", "bad") else ic.get("not_checked", {}).get(k)
        if v != n:
            errs.append(f"{name}: icrc.{k} {v}, expected {n}")
    for part in ("flows", "others"):
        w = {key(x): x for x in want[part]}
        g = {key(x): x for x in got.get(part, [])}
        for k in sorted(set(w) | set(g), key=str):
            if k not in g:
                errs.append(f"{name}: {part}: QP {k[0]:#x} {k[1]} -> {k[2]} missing in nicref")
                continue
            if k not in w:
                errs.append(f"{name}: {part}: QP {k[0]:#x} {k[1]} -> {k[2]} not expected "
                            f"({json.dumps(g[k].get('first_violation'))})")
                continue
            fv = g[k].get("first_violation")
            if part == "flows" and w[k]["conforming"] != g[k].get("conforming"):
                errs.append(f"{name}: QP {k[0]:#x}: conforming {g[k].get('conforming')}, "
                            f"expected {w[k]['conforming']} ({json.dumps(fv)})")
                continue
            if "rule" in w[k]:
                if not fv or fv.get("rule") != w[k]["rule"] or fv.get("frame") != w[k]["frame"]:
                    errs.append(f"{name}: QP {k[0]:#x}: first violation "
                                f"{fv and fv.get('rule')} at frame {fv and fv.get('frame')}, "
                                f"expected {w[k]['rule']} at frame {w[k]['frame']} "
                                f"({fv and fv.get('message')})")
    return errs


def check_timing(tool, path):
    with open(path, encoding="utf-8") as f:
        caps = json.load(f)["captures"]
    errs = []
    for c in caps:
        r = subprocess.run([tool, "roce", "check", c["file"], "--json"] + c["args"],
                           capture_output=True, text=True, timeout=120)
        try:
            got = {f["qp"]: f for f in json.loads(r.stdout)["flows"]}
        except (ValueError, KeyError):
            errs.append(f"{c['file']}: no JSON verdict (exit {r.returncode}: {r.stderr[:200]})")
            continue
        for w in c["flows"]:
            g = got.get(w["qp"])
            if g is None:
                errs.append(f"{c['file']}: QP {w['qp']:#x} missing")
                continue
            fv = g["first_violation"]
            if w["conforming"]:
                if fv and not (fv["rule"] == "pkt.icrc" and ":" in g["src"]):
                    errs.append(f"{c['file']}: QP {w['qp']:#x}: expected conforming, nicref "
                                f"{fv['rule']} at frame {fv['frame']}: {fv['message']}")
            elif not fv or fv["rule"] != "retx.timing" or fv["psn"] != w["psn"]:
                errs.append(f"{c['file']}: QP {w['qp']:#x}: expected retx.timing at PSN "
                            f"{w['psn']}, nicref {fv and fv['rule']} at PSN {fv and fv['psn']}")
    return len(caps), errs


BAD_INPUT = [
    ("corpora/roce_captures/no_such.pcap", ["no_such.pcap"]),
    ("corpora/captures/erf_infiniband.pcap", ["erf_infiniband.pcap", "link type ERF"]),
    ("corpora/captures/merged_linktype_differ.pcapng", ["merged_linktype_differ.pcapng",
                                                        "tshark"]),
]


def check_bad(tool):
    errs = []
    for path, subs in BAD_INPUT:
        r = subprocess.run([tool, "roce", "check", path], capture_output=True, text=True)
        if r.returncode != 2 or r.stdout:
            errs.append(f"{path}: exit {r.returncode} (stdout {r.stdout[:80]!r}), expected 2")
        for sub in subs:
            if sub not in r.stderr:
                errs.append(f"{path}: stderr lacks {sub!r}: {r.stderr.strip()[:200]!r}")
    return errs


def mutants(tool, base, caps, per=12):
    import random
    import struct
    import tempfile
    errs, runs = [], 0
    rnd = random.Random(17)
    with tempfile.TemporaryDirectory() as tmp:
        for name, want in sorted(caps.items()):
            path = os.path.join(base, want["file"])
            if not path.endswith(".pcap") or not os.path.exists(path):
                continue
            data = open(path, "rb").read()
            recs, off = [], 24
            while off + 16 <= len(data):
                cap = struct.unpack("<I", data[off + 8:off + 12])[0]
                recs.append((off + 16, cap))
                off += 16 + cap
            for k in range(per):
                b = bytearray(data)
                for _ in range(1 + k % 4):
                    o, cap = rnd.choice(recs)
                    if cap:
                        b[o + rnd.randrange(cap)] ^= 1 << rnd.randrange(8)
                if k % 3 == 2:
                    # one frame cut short: its captured length lowered, the bytes dropped
                    i = rnd.randrange(len(recs))
                    o, cap = recs[i]
                    keep = rnd.randrange(cap + 1)
                    b[o - 8:o - 4] = struct.pack("<I", keep)
                    b = b[:o + keep] + b[o + cap:]
                m = os.path.join(tmp, f"{name}.{k}.pcap")
                with open(m, "wb") as f:
                    f.write(bytes(b))
                r = subprocess.run([tool, "roce", "check", m, "--json"] + want.get("args", []),
                                   capture_output=True, text=True, timeout=60)
                runs += 1
                if r.returncode not in (0, 1, 2) or "Sanitizer" in r.stderr or \
                        "runtime error" in r.stderr:
                    errs.append(f"{name} mutant {k}: exit {r.returncode}: {r.stderr[-300:]}")
    return runs, errs


def memory(tool, nframes=100000):
    """Peak resident bytes per frame on captures where every frame breaks a frame rule: the
    slope between nframes and twice as many (a spawned child's peak counts this interpreter's
    pages until it execs, so a small run's peak is no baseline)."""
    import struct
    import tempfile
    if not hasattr(os, "wait4"):
        return ["memory: os.wait4 is missing, the peak cannot be measured"]

    def frame(opcode, psn, ext):
        # Ether / IPv4 10.1.0.1 -> 10.1.0.2 / UDP -> 4791 / BTH / ext / 16 bytes / ICRC 0
        l4 = struct.pack("!BBHII", opcode, 0, 0xffff, 0x22b, psn & 0xffffff) + ext + bytes(16)
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + 8 + len(l4) + 4, 1, 0, 64, 17, 0,
                         bytes([10, 1, 0, 1]), bytes([10, 1, 0, 2]))
        udp = struct.pack("!HHHH", 49152, 4791, 8 + len(l4) + 4, 0)
        return bytes(6) + bytes(6) + b"\x08\x00" + ip + udp + l4 + bytes(4)

    def peak(path):
        p = subprocess.Popen([tool, "roce", "check", path], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        return os.waitstatus_to_exitcode(status), ru.ru_maxrss * 1024

    errs = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, op, ext, bound in (("rc_bad_icrc", 0x04, b"", 300),
                                     ("ud_bad_icrc", 0x64, bytes(8), 150)):
            got = []
            for n in (nframes, 2 * nframes):
                path = os.path.join(tmp, f"{name}.{n}.pcap")
                with open(path, "wb") as f:
                    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
                    for i in range(n):
                        b = frame(op, 100 + i, ext)
                        f.write(struct.pack("<IIII", 1 + i // 1000000, i % 1000000, len(b),
                                            len(b)) + b)
                rc, rss = peak(path)
                os.unlink(path)
                if rc != 1:
                    errs.append(f"memory: {name}: {n} frames: exit {rc}, expected 1")
                got.append(rss)
            per = (got[1] - got[0]) / nframes
            if per > bound:
                errs.append(f"memory: {name}: {per:.0f} bytes per frame at the peak "
                            f"({got[0] // 1024} kB for {nframes} frames, {got[1] // 1024} kB "
                            f"for {2 * nframes}), more than {bound}")
            print(f"roce-check: memory: {name}: {per:.0f} bytes per frame at the peak")
    return errs


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else "build/gcc/nicref"
    expected = sys.argv[2] if len(sys.argv) > 2 else "corpora/roce_captures/expected.json"
    with open(expected, encoding="utf-8") as f:
        caps = json.load(f)
    base = os.path.dirname(expected)
    problems = []
    for name, want in sorted(caps.items()):
        problems += check_one(tool, base, name, want)
    adp = "corpora/adp_captures/captures.json"
    ntiming = 0
    if os.path.exists(adp):
        ntiming, errs = check_timing(tool, adp)
        problems += errs
    problems += check_bad(tool)
    problems += memory(tool)
    nmut, errs = mutants(tool, base, caps)
    problems += errs
    for p in problems:
        print("roce-check: " + p)
    bad = sum(1 for w in caps.values() if w["exit"] == 1)
    refused = sum(1 for w in caps.values() if w["exit"] == 2)
    print(f"roce-check: {len(caps)} captures ({len(caps) - bad - refused} conforming, {bad} with "
          f"a violation, {refused} bad input), {len(BAD_INPUT)} other bad inputs, {ntiming} "
          f"ADP captures for the timing, {nmut} mutants, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The mutation benchmark of nicref (docs/fuzzing.md, "Mutation benchmark"): how much of a bug
in the model the golden vectors and a differential fuzz run catch.

The generator finds every mutation site in the C sources of reference/ (the tests excluded):

  operator   a binary operator replaced by its neighbour: == !=, < <=, > >=, && ||, + -,
             << >>, & | (binary only), and back;
  constant   an integer literal v made v + 1 (1 made 0), in its own base and suffix;
  condition  the condition of an if or a while negated: if (c) -> if (!(c)).

Sites lie outside comments, strings, character literals and preprocessor lines. A benchmark
takes a seeded sample per module (a folder of reference/), the three kinds in turn, and builds
each mutant as a device under test exactly as make dut-check builds its mutants
(harness/tests/mutants/): the mutated file compiled alone, linked with the other objects of the
library and dut/nicref_dut.o into libnicref_dut.so (-Wl,--version-script=dut/libnicref_dut.map);
the model's sources are never touched. A mutant that does not compile is stillborn and counts
for nothing. Each mutant is then run

  - by every golden vector, `nicref vectors --dut MUTANT vectors/`: killed when it exits 1 (a
    difference) or ends by a signal or a timeout;
  - by a fixed-time differential fuzz run of the libFuzzer build of the module's target
    (NICREF_DUT=MUTANT, -seed=1, the committed corpus, -max_total_time): killed on any finding.

Before the mutants, the unmodified libnicref_dut.so must survive both (otherwise a kill would
mean nothing). The report (Markdown and JSON) gives, per module, the mutants sampled, compiled,
killed by the vectors, by the fuzz run, by either, and lists every survivor.

Usage (from the repository root; make mutation-bench sets the paths):
  ci/mutants.py list [--module M]                     every site, one per line
  ci/mutants.py show ID                               a mutant as a diff
  ci/mutants.py bench [--per-module N] [--seed S] [--fuzz-seconds T] [--modules a,b]
                      [--build build/gcc] [--fuzz-dir build/fuzz] [--out build/mutbench]
"""
import argparse
import difflib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The module's fuzz targets for the differential run: those whose stimuli reach the module's
# code most directly (steer: rx, whose frames go through the flow tables; the steer target
# builds tables but sends no frame). Each runs --fuzz-seconds. pcie is not reachable through the DUT interface (nicref/dut.h
# has no PCIe link entry points: its vectors run the model's link directly), so a DUT built
# from a pcie mutant behaves as the model does: the module is left out of the benchmark.
TARGET = {
    "adp": ["cmd"],
    "cmd": ["cmd"],
    "core": ["cmdq", "cmd"],
    "device": ["cmdq"],
    "eth": ["rx", "tx"],
    "obj": ["ctrl", "tx"],
    "prm": ["cmd"],
    "reg": ["cmd"],
    "steer": ["rx"],
}
SKIPPED = {"pcie": "not reachable through the DUT interface (nicref/dut.h has no PCIe entry points)"}
# Files whose code a DUT never runs: the snapshots of the fuzz targets (nicref/snapshot.h) are
# the model's alone (the DUT ABI has none, and a target with a DUT never takes one), so their
# mutants would survive by construction.
# So is the ADP engine's own code (adp/engine.c, timeline.c, and prng.c's generator): the
# device runs its profile checks and codec (reg/roce_accl.c), while the engine and its timeline
# are a library the vectors call directly (adp_timeline steps), never through a DUT.
EXCLUDED_FILES = {"reference/core/snapshot.c", "reference/core/hostmem_snap.c",
                  "reference/cmd/ctl_snap.c", "reference/cmd/ctl_snap_obj.c",
                  "reference/eth/eth_snap.c", "reference/adp/engine.c",
                  "reference/adp/timeline.c", "reference/adp/prng.c"}

CFLAGS = ["-O1", "-g0", "-std=c11", "-fPIC", "-D_POSIX_C_SOURCE=200809L", "-fvisibility=hidden",
          "-w"]

KEYWORDS = {"return", "case", "sizeof", "else", "do", "goto", "default", "typedef", "static",
            "const", "struct", "enum", "union"}
SWAP = {"==": "!=", "!=": "==", "<": "<=", "<=": "<", ">": ">=", ">=": ">", "&&": "||",
        "||": "&&", "+": "-", "-": "+", "<<": ">>", ">>": "<<", "&": "|", "|": "&"}
TOKEN = re.compile(r"0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|[A-Za-z_]\w*|->|\+\+|--|<<=|>>=|<<|>>|"
                   r"<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\S")


def strip_code(src):
    """The source with comments, strings, character literals and preprocessor lines blanked
    (same length, newlines kept), so positions in it are positions in the source."""
    out = list(src)
    i, n = 0, len(src)
    at_line_start = True
    while i < n:
        c = src[i]
        if at_line_start and c == "#":
            # a preprocessor line, with its continuations
            while i < n and src[i] != "\n":
                if src[i] == "\\" and i + 1 < n and src[i + 1] == "\n":
                    out[i] = " "
                    i += 2
                    continue
                out[i] = " "
                i += 1
            continue
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if c in " \t":
            i += 1
            continue
        at_line_start = False
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif src.startswith("//", i):
            while i < n and src[i] != "\n":
                out[i] = " "
                i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            for k in range(i, min(j + 1, n)):
                if out[k] != "\n":
                    out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def const_plus_one(tok):
    m = re.match(r"(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)$", tok)
    if not m:
        return None
    body, suffix = m.groups()
    v = int(body, 0) if body.lower().startswith("0x") else int(body, 10)
    if body != "0" and body.startswith("0") and not body.lower().startswith("0x"):
        return None  # octal: leave it
    w = 0 if v == 1 else v + 1
    text = hex(w) if body.lower().startswith("0x") else str(w)
    return text + suffix


def sites_of(path):
    """Every mutation site of one file: (offset, length, original, replacement, kind, line)."""
    src = open(path, encoding="utf-8").read()
    code = strip_code(src)
    toks = [(m.start(), m.group()) for m in TOKEN.finditer(code)]
    line_of = lambda off: src.count("\n", 0, off) + 1
    sites = []
    depth = 0  # brace depth: operators and conditions inside functions and initializers
    for k, (off, t) in enumerate(toks):
        prev = toks[k - 1][1] if k else ""
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        if t in SWAP and depth > 0:
            binary = bool(re.match(r"[A-Za-z_0-9]", prev) and prev not in KEYWORDS) or prev in (
                ")", "]")
            if t in ("+", "-", "&") and not binary:
                continue
            if t == "&" and k + 1 < len(toks) and toks[k + 1][1] == "&":
                continue
            sites.append((off, len(t), t, SWAP[t], "operator", line_of(off)))
        elif re.match(r"\d", t):
            r = const_plus_one(t)
            if r is not None and prev != "[" and not (prev == "#"):
                sites.append((off, len(t), t, r, "constant", line_of(off)))
        elif t in ("if", "while") and depth > 0 and k + 1 < len(toks) and toks[k + 1][1] == "(":
            # the matching parenthesis
            d = 0
            for j in range(k + 1, len(toks)):
                if toks[j][1] == "(":
                    d += 1
                elif toks[j][1] == ")":
                    d -= 1
                    if d == 0:
                        break
            else:
                continue
            a = toks[k + 1][0] + 1
            b = toks[j][0]
            cond = src[a:b]
            sites.append((a, b - a, cond, "!(" + cond + ")", "condition", line_of(a)))
    return src, sites


def modules():
    ref = os.path.join(ROOT, "reference")
    return sorted(d for d in os.listdir(ref)
                  if os.path.isdir(os.path.join(ref, d)) and d not in ("include", "tests"))


def all_sites(module):
    out = []
    d = os.path.join(ROOT, "reference", module)
    for f in sorted(os.listdir(d)):
        if f.endswith(".c"):
            rel = "reference/%s/%s" % (module, f)
            if rel in EXCLUDED_FILES:
                continue
            _, sites = sites_of(os.path.join(ROOT, rel))
            for s in sites:
                out.append({"module": module, "file": rel, "offset": s[0], "length": s[1],
                            "original": s[2], "replacement": s[3], "kind": s[4], "line": s[5]})
    for i, s in enumerate(out):
        s["id"] = "%s-%d" % (module, i)
    return out


def sample(module, n, seed):
    """n sites of the module, the three kinds in turn, each drawn by a generator seeded with
    the seed and the module's name (the same sample every time)."""
    rng = random.Random("%s:%s" % (seed, module))
    by_kind = {}
    for s in all_sites(module):
        by_kind.setdefault(s["kind"], []).append(s)
    for v in by_kind.values():
        rng.shuffle(v)
    kinds = [k for k in ("operator", "constant", "condition") if by_kind.get(k)]
    picked = []
    while len(picked) < n and any(by_kind[k] for k in kinds):
        for k in kinds:
            if len(picked) < n and by_kind[k]:
                picked.append(by_kind[k].pop())
    return picked


def mutated_source(site):
    src = open(os.path.join(ROOT, site["file"]), encoding="utf-8").read()
    o, l = site["offset"], site["length"]
    assert src[o:o + l] == site["original"], site
    return src[:o] + site["replacement"] + src[o + l:]


def diff_of(site):
    a = open(os.path.join(ROOT, site["file"]), encoding="utf-8").read().splitlines(True)
    b = mutated_source(site).splitlines(True)
    return "".join(difflib.unified_diff(a, b, "a/" + site["file"], "b/" + site["file"], n=1))


def build_mutant(site, build, work, cc):
    """libnicref_dut.so with the mutated file: the path, or None when it does not compile."""
    d = os.path.join(work, site["id"])
    os.makedirs(d, exist_ok=True)
    base = os.path.basename(site["file"])
    src = os.path.join(d, base)
    with open(src, "w", encoding="utf-8") as f:
        f.write(mutated_source(site))
    obj = src[:-2] + ".o"
    inc = ["-I" + os.path.join(ROOT, "reference/include"), "-I" + os.path.join(ROOT, "reference"),
           "-I" + os.path.join(ROOT, "reference", site["module"])]
    r = subprocess.run([cc] + CFLAGS + inc + ["-c", src, "-o", obj], capture_output=True,
                       text=True)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[:1]
    own = os.path.join(build, site["file"][:-2] + ".o")
    objs = []
    for m in modules():
        md = os.path.join(build, "reference", m)
        if os.path.isdir(md):
            objs += sorted(os.path.join(md, f) for f in os.listdir(md) if f.endswith(".o"))
    objs = [o for o in objs if os.path.abspath(o) != os.path.abspath(own)]
    so = os.path.join(d, "libnicref_dut_mutant.so")
    r = subprocess.run([cc, "-shared", "-Wl,--version-script=" +
                        os.path.join(ROOT, "dut/libnicref_dut.map"), "-o", so,
                        os.path.join(build, "dut/nicref_dut.o")] + objs + [obj],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[:1]
    return so, None


def run_vectors(tool, so, timeout):
    """(killed, how): the vectors against the DUT."""
    try:
        r = subprocess.run([tool, "vectors", "--dut", so, "vectors/"], capture_output=True,
                           text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return True, "timeout after %d s" % timeout
    if r.returncode == 0:
        return False, "0 differences"
    if r.returncode == 1:
        line = next((l for l in r.stdout.splitlines() if l.startswith("DUT ")), "")
        m = re.search(r"(\d+) with differences", line)
        return True, "%s vectors differ" % (m.group(1) if m else "some")
    if r.returncode < 0:
        return True, "the runner died by signal %d (%s)" % (
            -r.returncode, "a model assertion in the DUT traps" if r.returncode == -4 else
            "a crash in the DUT")
    return True, "exit %d: %s" % (r.returncode, (r.stdout + r.stderr).strip().splitlines()[-1:])


def run_fuzz(fuzz_dir, target, so, seconds, work):
    """(killed, how): a fixed-time differential fuzz run."""
    new = os.path.join(work, "fuzz-new")
    shutil.rmtree(new, ignore_errors=True)
    os.makedirs(new)
    env = dict(os.environ, NICREF_DUT=so)
    cmd = [os.path.join(fuzz_dir, target + "_fuzz"), "-seed=1", "-max_total_time=%d" % seconds,
           "-timeout=10", "-rss_limit_mb=2048", "-artifact_prefix=" + new + "/", new,
           os.path.join(ROOT, "corpora", target)]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=seconds + 60,
                           cwd=ROOT)
    except subprocess.TimeoutExpired:
        return True, "hang"
    if r.returncode == 0:
        return False, "no finding"
    err = r.stderr
    m = re.search(r"^(property \w+ broken|fuzz check failed|invariant \w+ broken|model assertion"
                  r" failed|==\d+==ERROR: \w+: [\w-]+|.*runtime error)", err, re.M)
    return True, (m.group(1) if m else "exit %d" % r.returncode)


def bench(args):
    build, fuzz_dir, out = args.build, args.fuzz_dir, args.out
    tool = os.path.join(build, "nicref")
    dut = os.path.join(build, "libnicref_dut.so")
    work = os.path.join(out, "work")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(work)
    mods = [m for m in (args.modules.split(",") if args.modules else modules()) if m in TARGET]
    t0 = time.time()
    log = lambda *a: print("mutation-bench:", *a, flush=True)
    # The unmodified DUT must survive everything, or a kill means nothing.
    killed, how = run_vectors(tool, dut, args.vector_timeout)
    if killed:
        sys.exit("mutation-bench: the unmodified DUT fails the vectors (%s): nothing to measure"
                 % how)
    for t in sorted({t for m in mods for t in TARGET[m]}):
        killed, how = run_fuzz(fuzz_dir, t, dut, args.fuzz_seconds, work)
        if killed:
            sys.exit("mutation-bench: the unmodified DUT is a finding of %s_fuzz (%s): nothing "
                     "to measure" % (t, how))
    log("the unmodified DUT survives the vectors and %ds of each target" % args.fuzz_seconds)
    results = []
    for m in mods:
        for s in sample(m, args.per_module, args.seed):
            so, why = build_mutant(s, build, work, args.cc)
            r = dict(s)
            r["diff_line"] = "%s:%d %s: %s -> %s" % (s["file"], s["line"], s["kind"],
                                                    " ".join(s["original"].split())[:60],
                                                    " ".join(s["replacement"].split())[:64])
            if not so:
                r["compiled"] = False
                r["why"] = why
                log("%s stillborn (%s)" % (r["diff_line"], why))
                results.append(r)
                continue
            r["compiled"] = True
            t1 = time.time()
            r["vectors_killed"], r["vectors_how"] = run_vectors(tool, so, args.vector_timeout)
            t2 = time.time()
            r["fuzz_target"] = "+".join(TARGET[m])
            r["fuzz_killed"], r["fuzz_how"] = False, "no finding"
            for t in TARGET[m]:
                k, how = run_fuzz(fuzz_dir, t, so, args.fuzz_seconds, work)
                if k:
                    r["fuzz_killed"], r["fuzz_how"] = True, "%s_fuzz: %s" % (t, how)
                    break
            r["seconds"] = round(time.time() - t1, 1)
            r["vector_seconds"] = round(t2 - t1, 1)
            log("%s: vectors %s (%s), fuzz %s (%s)" % (
                r["diff_line"], "KILL" if r["vectors_killed"] else "live", r["vectors_how"],
                "KILL" if r["fuzz_killed"] else "live", r["fuzz_how"]))
            results.append(r)
            shutil.rmtree(os.path.join(work, s["id"]), ignore_errors=True)
    total = time.time() - t0
    summary = {"seed": args.seed, "per_module": args.per_module,
               "fuzz_seconds": args.fuzz_seconds, "seconds": round(total), "modules": {},
               "skipped_modules": SKIPPED, "excluded_files": sorted(EXCLUDED_FILES),
               "mutants": results}
    for m in mods:
        rs = [r for r in results if r["module"] == m]
        live = [r for r in rs if r["compiled"]]
        summary["modules"][m] = {
            "sites": len(all_sites(m)), "sampled": len(rs), "compiled": len(live),
            "vectors": sum(r["vectors_killed"] for r in live),
            "fuzz": sum(r["fuzz_killed"] for r in live),
            "either": sum(r["vectors_killed"] or r["fuzz_killed"] for r in live),
            "target": "+".join(TARGET[m])}
    with open(os.path.join(out, "report.json"), "w") as f:
        json.dump(summary, f, indent=1)
    md = report_md(summary)
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(md)
    print(md)
    shutil.rmtree(work, ignore_errors=True)


def pct(a, b):
    return "%d/%d (%d%%)" % (a, b, round(100.0 * a / b)) if b else "-"


def report_md(s):
    lines = ["| module | sites | sampled | compiled | fuzz target | killed by the vectors | "
             "by the fuzz run | by either |", "|---|---|---|---|---|---|---|---|"]
    tot = {"sites": 0, "sampled": 0, "compiled": 0, "vectors": 0, "fuzz": 0, "either": 0}
    for m, r in s["modules"].items():
        lines.append("| %s | %d | %d | %d | %s | %s | %s | %s |" % (
            m, r["sites"], r["sampled"], r["compiled"], r["target"],
            pct(r["vectors"], r["compiled"]), pct(r["fuzz"], r["compiled"]),
            pct(r["either"], r["compiled"])))
        for k in tot:
            tot[k] += r[k]
    lines.append("| all | %d | %d | %d | | %s | %s | %s |" % (
        tot["sites"], tot["sampled"], tot["compiled"], pct(tot["vectors"], tot["compiled"]),
        pct(tot["fuzz"], tot["compiled"]), pct(tot["either"], tot["compiled"])))
    lines.append("")
    lines.append("Seed %s, %d mutants per module (operator, constant and condition in turn), "
                 "differential fuzz runs of %d s; %d s in all." % (
                     s["seed"], s["per_module"], s["fuzz_seconds"], s["seconds"]))
    lines.append("")
    lines.append("Survivors (neither the vectors nor the fuzz run tell them from the model):")
    lines.append("")
    surv = [r for r in s["mutants"] if r["compiled"] and not r["vectors_killed"]
            and not r["fuzz_killed"]]
    for r in surv:
        lines.append("- `%s`" % r["diff_line"])
    if not surv:
        lines.append("- none")
    only = [r for r in s["mutants"] if r["compiled"] and r["vectors_killed"] != r["fuzz_killed"]]
    if only:
        lines.append("")
        lines.append("Killed by one of the two only:")
        lines.append("")
        for r in only:
            lines.append("- `%s`: %s only (%s)" % (
                r["diff_line"], "the vectors" if r["vectors_killed"] else "the fuzz run",
                r["vectors_how"] if r["vectors_killed"] else r["fuzz_how"]))
    still = [r for r in s["mutants"] if not r["compiled"]]
    if still:
        lines.append("")
        lines.append("Stillborn (do not compile, not counted): %d" % len(still))
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pl = sub.add_parser("list")
    pl.add_argument("--module")
    ps = sub.add_parser("show")
    ps.add_argument("id")
    pb = sub.add_parser("bench")
    pb.add_argument("--per-module", type=int, default=6)
    pb.add_argument("--seed", default="1")
    pb.add_argument("--fuzz-seconds", type=int, default=8)
    pb.add_argument("--vector-timeout", type=int, default=300)
    pb.add_argument("--modules")
    pb.add_argument("--build", default="build/gcc")
    pb.add_argument("--fuzz-dir", default="build/fuzz")
    pb.add_argument("--out", default="build/mutbench")
    pb.add_argument("--cc", default="gcc")
    a = p.parse_args()
    os.chdir(ROOT)
    if a.cmd == "list":
        for m in ([a.module] if a.module else modules()):
            for s in all_sites(m):
                print("%s\t%s:%d\t%s\t%s -> %s" % (s["id"], s["file"], s["line"], s["kind"],
                                                   " ".join(s["original"].split())[:50],
                                                   " ".join(s["replacement"].split())[:54]))
    elif a.cmd == "show":
        m = a.id.rsplit("-", 1)[0]
        s = next((s for s in all_sites(m) if s["id"] == a.id), None)
        if not s:
            sys.exit("mutants.py: no mutant %s" % a.id)
        sys.stdout.write(diff_of(s))
    else:
        a.build, a.fuzz_dir, a.out = (os.path.abspath(x) for x in (a.build, a.fuzz_dir, a.out))
        bench(a)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""make captures-check: `nicref adp check` on every capture of corpora/captures/expected.json
(written by corpora/captures/gen_captures.py from what it put in each capture, never from
nicref's output), compared with what the file expects:

- the exit status;
- every key "summary" gives (nested objects key by key) equal to nicref's "summary";
- "flows" as a set keyed by (qp, src, dst) (qp alone when the expected flow names no
  addresses): the same flows, and every key an expected flow gives equal to nicref's;
- every substring of "stderr_contains" in nicref's standard error.

A mismatch names the capture and the field. Skipped, with a message, while the expected file is
not in the tree. Usage: ci/check_captures.py TOOL [EXPECTED]   (from the repository root)
"""
import json
import os
import subprocess
import sys


def compare(want, got, path, out):
    """Every key of `want` equals `got`'s, recursively for objects."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            out.append(f"{path}: expected an object, nicref gave {json.dumps(got)}")
            return
        for k, v in want.items():
            if k not in got:
                out.append(f"{path}.{k}: missing in nicref's output")
            else:
                compare(v, got[k], f"{path}.{k}", out)
    elif want != got or type(want) is not type(got):
        out.append(f"{path}: expected {json.dumps(want)}, nicref gave {json.dumps(got)}")


def flow_key(f, with_addr):
    return (f.get("qp"), f.get("src"), f.get("dst")) if with_addr else (f.get("qp"),)


def key_text(k):
    return "QP %s" % k[0] + (" %s -> %s" % (k[1], k[2]) if len(k) > 1 else "")


def check_one(tool, cap):
    name = cap.get("file", "?")
    args = list(cap.get("args", []))
    if "--json" not in args:
        args.append("--json")
    cmd = [tool, "adp", "check", name] + args
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return [f"{name}: nicref adp check ran over 300 s"]
    errs = []
    if r.returncode != cap.get("exit"):
        errs.append(f"{name}: exit: expected {cap.get('exit')}, nicref gave {r.returncode} "
                    f"(stderr: {r.stderr.strip()[:300]})")
    for s in cap.get("stderr_contains", []):
        if s not in r.stderr:
            errs.append(f"{name}: stderr_contains: {s!r} not in {r.stderr.strip()[:300]!r}")
    if "summary" not in cap and "flows" not in cap:
        return errs
    try:
        got = json.loads(r.stdout)
    except ValueError:
        return errs + [f"{name}: summary/flows expected, but stdout is not JSON: "
                       f"{r.stdout[:200]!r}"]
    if "summary" in cap:
        compare(cap["summary"], got.get("summary"), f"{name}: summary", errs)
    if "flows" in cap:
        want = cap["flows"]
        have = got.get("flows", [])
        with_addr = all("src" in f and "dst" in f for f in want)
        wmap, hmap = {}, {}
        for f in want:
            wmap.setdefault(flow_key(f, with_addr), []).append(f)
        for f in have:
            hmap.setdefault(flow_key(f, with_addr), []).append(f)
        for k in sorted(set(wmap) | set(hmap), key=str):
            if k not in hmap:
                errs.append(f"{name}: flows: {key_text(k)} expected, nicref has no such flow")
            elif k not in wmap:
                errs.append(f"{name}: flows: nicref judged {key_text(k)}, not expected")
            elif len(wmap[k]) != 1 or len(hmap[k]) != 1:
                errs.append(f"{name}: flows: {key_text(k)} is not one flow "
                            f"(expected {len(wmap[k])}, nicref {len(hmap[k])})")
            else:
                compare(wmap[k][0], hmap[k][0], f"{name}: flows[{key_text(k)}]", errs)
    return errs


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else "build/gcc/nicref"
    path = sys.argv[2] if len(sys.argv) > 2 else "corpora/captures/expected.json"
    if not os.path.exists(path):
        print(f"captures-check: {path} is not in the tree yet (the generated captures): "
              "skipped")
        return 0
    with open(path) as f:
        doc = json.load(f)
    caps = doc.get("captures", [])
    if not caps:
        print(f"captures-check: FAIL: {path} lists no capture")
        return 1
    errs = []
    for cap in caps:
        errs += check_one(tool, cap)
    if errs:
        print(f"captures-check: FAIL: {len(errs)} mismatch(es) over {len(caps)} captures:")
        for e in errs:
            print("  " + e)
        return 1
    print(f"captures-check: {len(caps)} captures of {path}: exit status, summary, flows and "
          "messages as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())

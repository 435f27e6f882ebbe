#!/usr/bin/env python3
"""make pcie-trace-check: `nicref pcie check --json` on every trace of examples/pcie/expected.json
(written with the traces by an independent Python model of PCI Express Base Specification §3.6,
seed 003, never from nicref's output), compared with what the file expects per direction:
"ok", or the first violation's rule, and its "t" and "line" when the file gives them; the exit
status follows (0 when both directions are ok, else 1).

A mismatch names the trace, the direction and the field. Skipped, with a message, while the
expected file is not in the tree. Usage: ci/check_pcie_traces.py TOOL [EXPECTED]
"""
import json
import os
import subprocess
import sys


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else "build/gcc/nicref"
    expected = sys.argv[2] if len(sys.argv) > 2 else "examples/pcie/expected.json"
    if not os.path.exists(expected):
        print(f"pcie-trace-check: {expected} not in the tree: skipped")
        return 0
    base = os.path.dirname(expected)
    with open(expected, encoding="utf-8") as f:
        traces = json.load(f)
    problems = []
    for name, want in sorted(traces.items()):
        path = os.path.join(base, name)
        p = subprocess.run([tool, "pcie", "check", "--json", path], capture_output=True, text=True)
        try:
            got = json.loads(p.stdout)
        except ValueError:
            problems.append(f"{name}: exit {p.returncode}, no JSON verdict: {p.stderr.strip()}")
            continue
        bad = False
        for d in ("down", "up"):
            w, g = want[d], got[d]
            if w == "ok":
                if g["verdict"] != "ok":
                    problems.append(f"{name} {d}: expected ok, nicref: {g['rule']} at t={g['t']} "
                                    f"(line {g['line']}): {g['message']}")
                continue
            bad = True
            if g["verdict"] != "violation":
                problems.append(f"{name} {d}: expected {w['rule']}, nicref: ok")
                continue
            for k in ("rule", "t", "line"):
                if k in w and w[k] != g[k]:
                    problems.append(f"{name} {d}.{k}: expected {w[k]}, nicref {g[k]} ({g['message']})")
        if p.returncode != (1 if bad else 0):
            problems.append(f"{name}: exit status {p.returncode}, expected {1 if bad else 0}")
    for line in problems:
        print("pcie-trace-check: " + line)
    print(f"pcie-trace-check: {len(traces)} traces, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

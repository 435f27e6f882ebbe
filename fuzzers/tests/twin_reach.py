#!/usr/bin/env python3
"""What a fixed-up target reaches that its twin does not (docs/fuzzing.md "Fix-ups and twins").

    fuzzers/tests/twin_reach.py [--per N] [--seed S]

Run from the repository root after `make -f fuzzers/fuzz.mk replay` (the gcc replay builds). For
each pair it writes seeded one-byte mutants of the pair's seeds (the seed-* and vec-* files of its
corpus) into a temporary directory, of the bytes a check value guards (a MEM_WRITE's data for
cmdq; a TLP's header, data and LCRC or a DLLP's body and CRC for dll_rx), replays them through
both targets with NICREF_FUZZ_TRACE=1 and counts what the traces show:

  cmdq / cmdq_strict (the same inputs): commands completed, delivered (delivery status 0), the
      distinct opcodes and (opcode, status, syndrome) outcomes delivered, and the signature
      refusals (ENTRY_SIGNATURE, MAILBOX_CTRL_SIGNATURE, MAILBOX_SIGNATURE violations);
  dll_rx / dll_rx_crc (their own inputs: the twin's carry the check values): TLPs delivered,
      Acks/Naks that acknowledged TLPs, and the errors by rule (R2, R3, R4, D2, T8).

Not a test: a measurement, printed as a table. Exit 2 when a build or corpus is missing."""
import argparse
import collections
import os
import random
import re
import subprocess
import sys
import tempfile

OPSTREAM_OPERANDS = {0: 6, 1: 2, 2: 6, 3: 4, 4: 4, 5: 7, 6: 8, 7: 10, 8: 17}  # harness/opstream.h
PCIE_RULES = ["R1", "R2", "R3", "R4", "D2", "T7g", "T10", "T8"]  # enum nicref_pcie_rule


def cmdq_spans(d):
    """The data of each MEM_WRITE / MEM_WRITE64 op of an op stream."""
    spans, at = [], 0
    while at < len(d):
        op = d[at]
        if op not in OPSTREAM_OPERANDS:
            at += 1
            continue
        if len(d) - at - 1 < OPSTREAM_OPERANDS[op]:
            break
        a, at = at + 1, at + 1 + OPSTREAM_OPERANDS[op]
        if op in (2, 7):
            w = 4 if op == 2 else 8
            n = min(int.from_bytes(d[a + w:a + w + 2], "big"), len(d) - at)
            if n:
                spans.append((at, n))
            at += n
    return spans


def dll_spans(d, crc):
    """The packet bytes of each TLP and DLLP op of a dll_rx (crc: dll_rx_crc) input."""
    spans, at = [], 3
    while at < len(d):
        op = d[at]
        at += 1
        if op == 0:
            n = d[at + 3] % 64 if at + 3 < len(d) else 0
            spans += [(at + 1, 2), (at + 4, n + (4 if crc else 0))]
            at += 4 + n + (4 if crc else 0)
        elif op == 1:
            spans.append((at + 1, 4 + (2 if crc else 0)))
            at += 5 + (2 if crc else 0)
        elif op in (2, 4):
            at += 1
        elif op == 3:
            at += 2
    return [(s, n) for s, n in spans if n > 0 and s + n <= len(d)]


def mutants(corpus, out, per, rng, spans_of):
    count = 0
    # The hand-made and exported seeds only: what a campaign adds to the corpus would change
    # the figures.
    for name in sorted(n for n in os.listdir(corpus) if n.startswith(("seed-", "vec-"))):
        with open(os.path.join(corpus, name), "rb") as f:
            d = f.read()
        spans = spans_of(d)
        if not spans:
            continue
        for k in range(per):
            s, n = rng.choice(spans)
            b = bytearray(d)
            i = s + rng.randrange(n)
            b[i] = (b[i] + 1 + rng.randrange(255)) & 0xFF
            with open(os.path.join(out, "%s-m%d" % (name, k)), "wb") as f:
                f.write(b)
            count += 1
    return count


def trace(target, directory):
    binary = "build/replay/%s_fuzz" % target
    env = dict(os.environ, NICREF_FUZZ_TRACE="1")
    p = subprocess.run([binary, directory], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, errors="replace", check=False)
    if p.returncode != 0:
        sys.exit("twin_reach: %s failed on %s (a finding?):\n%s" %
                 (binary, directory, p.stderr[-2000:]))
    return p.stderr.splitlines()


def cmdq_counts(lines):
    c = collections.Counter()
    ops, outcomes = set(), set()
    for line in lines:
        if " cmd_done " in line:
            kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
            c["completed"] += 1
            if kv.get("delivery") == "0x0":
                c["delivered"] += 1
                ops.add(kv["opcode"])
                outcomes.add((kv["opcode"], kv["status"], kv["syndrome"]))
        m = re.search(r" violation rule=(\w*SIGNATURE)", line)
        if m:
            c[m.group(1)] += 1
    c["opcodes"], c["outcomes"] = len(ops), len(outcomes)
    return c


def dll_counts(lines):
    c = collections.Counter()
    for line in lines:
        m = re.match(r"event kind (\d+) .* rule (\d+)$", line)
        if not m:
            continue
        kind, rule = int(m.group(1)), int(m.group(2))
        if kind == 1:
            c["delivered"] += 1
        elif kind == 4:
            c["acknowledgements"] += 1
        elif kind == 2 and rule < len(PCIE_RULES):
            c[PCIE_RULES[rule]] += 1
    return c


def table(title, rows, pair):
    print("\n%s" % title)
    print("| %-28s | %12s | %12s |" % ("", pair[0], pair[1]))
    for key, a, b in rows:
        print("| %-28s | %12d | %12d |" % (key, a, b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per", type=int, default=30, help="mutants per seed input (default 30)")
    ap.add_argument("--seed", type=int, default=19)
    a = ap.parse_args()
    for t in ("cmdq", "cmdq_strict", "dll_rx", "dll_rx_crc"):
        if not os.access("build/replay/%s_fuzz" % t, os.X_OK) or not os.path.isdir("corpora/" + t):
            print("twin_reach: build/replay/%s_fuzz or corpora/%s missing "
                  "(make -f fuzzers/fuzz.mk replay)" % (t, t), file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="nicref-twin-") as tmp:
        m = os.path.join(tmp, "cmdq")
        os.mkdir(m)
        n = mutants("corpora/cmdq", m, a.per, random.Random(a.seed), cmdq_spans)
        x, y = cmdq_counts(trace("cmdq", m)), cmdq_counts(trace("cmdq_strict", m))
        keys = ["completed", "delivered", "opcodes", "outcomes", "ENTRY_SIGNATURE",
                "MAILBOX_CTRL_SIGNATURE", "MAILBOX_SIGNATURE"]
        table("command signatures: %d mutants of corpora/cmdq (a MEM_WRITE data byte)" % n,
              [(k, x[k], y[k]) for k in keys], ("cmdq", "cmdq_strict"))
        counts = []
        for t, crc in (("dll_rx", False), ("dll_rx_crc", True)):
            m = os.path.join(tmp, t)
            os.mkdir(m)
            n = mutants("corpora/" + t, m, a.per * 16, random.Random(a.seed),
                        lambda d, crc=crc: dll_spans(d, crc))
            counts.append(dll_counts(trace(t, m)))
        keys = ["delivered", "acknowledgements", "R2", "R3", "R4", "D2", "T8"]
        table("LCRC and DLLP CRC: %d mutants of each corpus (a packet byte)" % n,
              [(k, counts[0][k], counts[1][k]) for k in keys], ("dll_rx", "dll_rx_crc"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""reference/ is a pure model: no wall clock, no unseeded randomness, no I/O or printing, no exit,
no environment, no mutable globals (docs/architecture.md). Unit tests are exempt. Comments and
string literals are blanked first, so prose cannot trip the checks; line numbers are kept."""
import pathlib
import re
import sys

CALLS = re.compile(r"\b(time|clock|clock_gettime|gettimeofday|rand|srand|random|srandom|drand48|"
                   r"printf|fprintf|puts|fputs|putchar|perror|fopen|fwrite|fread|open|read|write|"
                   r"exit|_exit|abort|getenv|system|sleep|usleep)\s*\(")
MUTABLE_STATIC = re.compile(r"^\s*static\s+(?!const\b|inline\b)[^()]*[;=]")
GLOBAL = re.compile(r"^(?!(static|extern|typedef|struct|enum|union|const|#|return)\b)"
                    r"[A-Za-z_][\w \*]*\b\w+(\[[^]]*\])?\s*(=[^=].*)?;\s*$")


def blank(src):
    """Replace comments and string/char literals by spaces, keeping newlines."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src[i] in "\"'":
            q, j = src[i], i + 1
            while j < n and src[j] != q:
                j += 2 if src[j] == "\\" else 1
            out.append(q + " " * (j - i - 1) + q)
            i = j + 1
        else:
            out.append(src[i])
            i += 1
    return "".join(out)


root = pathlib.Path(__file__).resolve().parent.parent
bad = 0
for path in sorted((root / "reference").rglob("*.[ch]")):
    if "tests" in path.relative_to(root).parts:
        continue
    depth = 0
    for no, line in enumerate(blank(path.read_text()).splitlines(), 1):
        rel = path.relative_to(root)
        if CALLS.search(line):
            print(f"purity: {rel}:{no}: calls what the model must not: {line.strip()}")
            bad += 1
        if MUTABLE_STATIC.search(line):
            print(f"purity: {rel}:{no}: mutable static state: {line.strip()}")
            bad += 1
        if depth == 0 and not line.rstrip().endswith("\\") and GLOBAL.search(line):
            print(f"purity: {rel}:{no}: global variable: {line.strip()}")
            bad += 1
        depth += line.count("{") - line.count("}")
if bad == 0:
    print("purity: reference/ has no wall clock, randomness, I/O, exit or mutable globals")
sys.exit(1 if bad else 0)

#!/usr/bin/python3
"""The runner refuses what it cannot check: every file of harness/tests/bad_vectors/ (and every
path of its MANIFEST) must make `nicref vectors PATH` exit 2 with the message the MANIFEST gives,
and the files the schema refuses must be refused by ci/validate_vectors.py too. A file of the
folder with no MANIFEST line fails the check, and so does a file the runner accepts.

    ci/check_bad_vectors.py [TOOL]     (default build/gcc/nicref; run from the repository root)"""
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
folder = pathlib.Path("harness/tests/bad_vectors")


def manifest():
    rows = {}
    for n, line in enumerate((root / folder / "MANIFEST").read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or parts[1] not in ("yes", "no") or parts[0] in rows:
            sys.exit(f"bad-vectors: MANIFEST line {n} is not FILE<TAB>yes|no<TAB>MESSAGE (once)")
        rows[parts[0]] = (parts[1] == "yes", parts[2])
    return rows


def main(tool):
    rows = manifest()
    problems = []
    present = sorted(p.name for p in (root / folder).iterdir()
                     if p.name not in ("MANIFEST", "README.md"))
    for name in present:
        if name not in rows:
            problems.append(f"{folder / name}: no MANIFEST line (what must it be refused with?)")
    for name, (schema_refuses, message) in rows.items():
        path = folder / name
        run = subprocess.run([tool, "vectors", str(path)], cwd=root, capture_output=True,
                             text=True, timeout=120)
        want = f"BAD {path}: {message}"
        if run.returncode != 2:
            problems.append(f"{path}: nicref vectors exited {run.returncode}, not 2 (bad input)")
        if want not in run.stdout.splitlines():
            got = [l for l in run.stdout.splitlines() if l.startswith("BAD ")]
            problems.append(f"{path}: expected the line\n    {want}\n  got\n    "
                            + ("\n    ".join(got) if got else "(no BAD line)"))
        if "runtime error" in run.stderr or "Sanitizer" in run.stderr:
            problems.append(f"{path}: the tool crashed or misbehaved:\n{run.stderr}")
        if schema_refuses:
            py = subprocess.run([sys.executable, "ci/validate_vectors.py", str(path)], cwd=root,
                                capture_output=True, text=True, timeout=120)
            if py.returncode != 1:
                problems.append(f"{path}: ci/validate_vectors.py accepts it (exit "
                                f"{py.returncode}), yet the schema refuses it")
    for p in problems:
        print("bad-vectors: " + p)
    print(f"bad-vectors: {len(rows)} bad inputs, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "build/gcc/nicref"))

#!/usr/bin/python3
"""Validate vector files against vectors/schemas/vector_file.schema.json, and the rules a schema
cannot say: no duplicate keys, tcIds unique per file, every flag explained in notes,
numberOfTests right, every decision a note names (D-XXX-N) defined in docs/ (a row of a decision
table, "| D-XXX-N |", or a definition "**D-XXX-N**"), and JSON integers at most 2^63-1 (what
jansson, and so the runner, reads; a larger number is a string).

    ci/validate_vectors.py [PATH...]     files, or folders searched for *.json (default vectors/)

The nicref tool applies the same schema file itself (compiled in) and checks more (names,
widths, address ranges); this script is the second, independent reading of the schema.
Exit 0 when every file is valid, 1 otherwise."""
import json
import pathlib
import re
import sys

import jsonschema

root = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((root / "vectors/schemas/vector_file.schema.json").read_text())
validator = jsonschema.Draft7Validator(schema)

DECISION = re.compile(r"D-[A-Z]+-[0-9]+")
INT_MAX = 2**63 - 1


def defined_decisions():
    """The decision ids docs/ defines: a table row starting with one, or a bold definition."""
    ids = set()
    row = re.compile(r"^\|\s*\**(D-[A-Z]+-[0-9]+)")
    for md in (root / "docs").rglob("*.md"):
        for line in md.read_text().splitlines():
            m = row.match(line)
            if m:
                ids.add(m.group(1))
            ids.update(re.findall(r"\*\*(D-[A-Z]+-[0-9]+)\*\*", line))
    return ids


DECISIONS = defined_decisions()


def too_big_integer(text):
    """jansson refuses integers past 2^63-1 ("too big integer"): so does this script."""
    if int(text) > INT_MAX:
        raise ValueError(f"integer {text} is above 2^63-1 (give a larger number as a string)")
    return int(text)


class DuplicateKey(ValueError):
    pass


def no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKey(f"duplicate key {json.dumps(key)}")
        seen[key] = value
    return seen


def show(path):
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)


def gather(args):
    """The files to check, and the problems of the paths themselves."""
    files, problems = [], []
    for arg in args:
        p = pathlib.Path(arg)
        if p.is_dir():
            found = sorted(f for f in p.rglob("*.json") if "schemas" not in f.relative_to(p).parts)
            if not found:
                problems.append(f"{arg}: no vector files (*.json) in this folder")
            files += found
        elif p.is_file():
            files.append(p)
        else:
            problems.append(f"{arg}: cannot read: no such file or folder")
    return files, problems


def check(path):
    rel = show(path)
    try:
        doc = json.loads(path.read_text(), object_pairs_hook=no_duplicates,
                         parse_int=too_big_integer)
    except (ValueError, UnicodeDecodeError) as e:
        return [f"{rel}: not a JSON file: {e}"]
    out = []
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.path))):
        where = "/".join(str(p) for p in err.path) or "top level"
        out.append(f"{rel}: {where}: {err.message}")
    if out or not isinstance(doc, dict):
        return out
    tests = [t for g in doc.get("testGroups", []) for t in g.get("tests", [])]
    ids = [t.get("tcId") for t in tests]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        out.append(f"{rel}: tcId {dup} used more than once")
    for t in tests:
        for flag in t.get("flags", []):
            if flag not in doc.get("notes", {}):
                out.append(f"{rel}: tcId {t.get('tcId')}: flag {flag} not explained in notes")
    for flag, note in sorted(doc.get("notes", {}).items()):
        for d in sorted(set(DECISION.findall(note.get("description", "")))):
            if d not in DECISIONS:
                out.append(f"{rel}: notes/{flag}: names {d}, which no decision table of docs/ "
                           "defines")
    if doc.get("numberOfTests") != len(tests):
        out.append(f"{rel}: numberOfTests {doc.get('numberOfTests')} but {len(tests)} tests")
    return out


def main(args):
    files, problems = gather(args or [str(root / "vectors")])
    for path in files:
        problems += check(path)
    for line in problems:
        print(line)
    print(f"schema-check: {len(files)} vector files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""Validate vector files against vectors/schemas/vector_file.schema.json, and the rules a schema
cannot say: no duplicate keys, tcIds unique per file, every flag explained in notes,
numberOfTests right.

    ci/validate_vectors.py [PATH...]     files, or folders searched for *.json (default vectors/)

The nicref tool applies the same schema file itself (compiled in) and checks more (names,
widths, address ranges); this script is the second, independent reading of the schema.
Exit 0 when every file is valid, 1 otherwise."""
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((root / "vectors/schemas/vector_file.schema.json").read_text())
validator = jsonschema.Draft7Validator(schema)


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
        doc = json.loads(path.read_text(), object_pairs_hook=no_duplicates)
    except (json.JSONDecodeError, DuplicateKey, UnicodeDecodeError) as e:
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

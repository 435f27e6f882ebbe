#!/usr/bin/python3
"""Validate every vector file against vectors/schemas/vector_file.schema.json, and the rules a
schema cannot say: tcIds unique per file, every flag explained in notes, numberOfTests right."""
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((root / "vectors/schemas/vector_file.schema.json").read_text())
validator = jsonschema.Draft7Validator(schema)
files = sorted(p for p in (root / "vectors").rglob("*.json") if "schemas" not in p.parts)
errors = 0
for path in files:
    rel = path.relative_to(root)
    try:
        doc = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        print(f"{rel}: not JSON: {e}")
        errors += 1
        continue
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in err.path)
        print(f"{rel}: {where}: {err.message}")
        errors += 1
    tests = [t for g in doc.get("testGroups", []) for t in g.get("tests", [])]
    ids = [t.get("tcId") for t in tests]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        print(f"{rel}: tcId {dup} used more than once")
        errors += 1
    for t in tests:
        for flag in t.get("flags", []):
            if flag not in doc.get("notes", {}):
                print(f"{rel}: tcId {t.get('tcId')}: flag {flag} not explained in notes")
                errors += 1
    if doc.get("numberOfTests") != len(tests):
        print(f"{rel}: numberOfTests {doc.get('numberOfTests')} but {len(tests)} tests")
        errors += 1
print(f"schema-check: {len(files)} vector files, {errors} problems")
sys.exit(1 if errors else 0)

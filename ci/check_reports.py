#!/usr/bin/python3
"""Reports CI systems accept: run the nicref tool over harness/tests/report_vectors/ (tests that
pass, fail on purpose and are skipped), then check its JUnit XML against docs/schemas/junit.xsd
with xmllint and its JSON against docs/schemas/report.schema.json, and that both reports say the
same thing about every test (what a schema cannot say: sums, counts, which message goes where).
Usage: ci/check_reports.py [TOOL]   (run from the repository root; TOOL is build/gcc/nicref)"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import jsonschema

FIXTURE = "harness/tests/report_vectors/"
XSD = "docs/schemas/junit.xsd"
SCHEMA = "docs/schemas/report.schema.json"
problems = []


def check(ok, what):
    if not ok:
        problems.append(what)
    return ok


def xml_visible(s):
    """What the JUnit writer makes of a string: characters XML 1.0 cannot hold become \\xNN."""
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", lambda m: "\\x%02x" % ord(m[0]), s)


def check_junit(path, tests):
    rc = subprocess.run(["xmllint", "--noout", "--schema", XSD, path], capture_output=True,
                        text=True)
    if not check(rc.returncode == 0, f"{path} does not validate against {XSD}:\n{rc.stderr}"):
        return
    root = ET.parse(path).getroot()
    cases = [c for s in root for c in s]
    if not check(len(cases) == len(tests), f"{len(cases)} testcases, {len(tests)} JSON tests"):
        return
    for suite in root:
        kids = list(suite)
        for attr, tag in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
            n = sum(c.find(tag) is not None for c in kids)
            check(int(suite.get(attr)) == n, f"suite {suite.get('name')}: {attr} is not {n}")
        check(int(suite.get("tests")) == len(kids), f"suite {suite.get('name')}: tests")
        total = sum(float(c.get("time")) for c in kids)
        check(abs(float(suite.get("time")) - total) < 1e-9, f"suite {suite.get('name')}: time")
    for attr in ("tests", "failures", "errors", "time"):
        total = sum(float(s.get(attr)) for s in root)
        check(abs(float(root.get(attr)) - total) < 1e-9, f"testsuites {attr} is not the sum")
    tags = {"fail": "failure", "error": "error", "skip": "skipped"}
    for case, t in zip(cases, tests):
        where = f"{t['file']}#{t['tcId']}"
        name = f"tc{t['tcId']} {t['comment']}".rstrip()
        check(case.get("name") == xml_visible(name), f"{where}: testcase name {case.get('name')!r}")
        check(case.get("classname") == t["feature"], f"{where}: classname")
        check(case.get("file") == t["file"], f"{where}: file")
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        check(props.get("cite") == t["cite"], f"{where}: cite property {props.get('cite')!r}")
        outcome = [e for e in case if e.tag in tags.values()]
        if t["outcome"] == "pass":
            check(not outcome, f"{where}: passed but has {outcome}")
            continue
        if not check(len(outcome) == 1 and outcome[0].tag == tags[t["outcome"]],
                     f"{where}: {t['outcome']} is not one <{tags[t['outcome']]}>"):
            continue
        lines = t["failures"] or [t.get("skip")]
        check(outcome[0].get("message") == lines[0], f"{where}: message is not the first line")
        check((outcome[0].text or "").splitlines() == lines, f"{where}: body is not every line")


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else "build/gcc/nicref"
    with tempfile.TemporaryDirectory() as tmp:
        xml, js = f"{tmp}/report.xml", f"{tmp}/report.json"
        run = subprocess.run([tool, "vectors", "--junit", xml, "--json", js, FIXTURE],
                             capture_output=True, text=True)
        check(run.returncode == 1, f"{tool} vectors {FIXTURE} exited {run.returncode}, not 1 "
              f"(one test fails on purpose):\n{run.stdout}{run.stderr}")
        report = json.loads(pathlib.Path(js).read_text())
        schema = json.loads(pathlib.Path(SCHEMA).read_text())
        for err in jsonschema.Draft7Validator(schema).iter_errors(report):
            where = "/".join(str(p) for p in err.path)
            problems.append(f"{js} against {SCHEMA}: {where}: {err.message}")
        tests = report.get("tests", [])
        outcomes = [t.get("outcome") for t in tests]
        for o, key in (("pass", "passed"), ("fail", "failed"), ("skip", "skipped"),
                       ("error", "errors")):
            check(report.get(key) == outcomes.count(o), f"JSON {key} is not the number of {o}")
        check({"pass", "fail", "skip"} <= set(outcomes), f"the fixture gave only {outcomes}")
        check_junit(xml, tests)
    for p in problems:
        print("report-check:", p)
    if problems:
        return 1
    print(f"report-check: JUnit XML valid against {XSD}, JSON valid against {SCHEMA}, "
          f"{len(tests)} tests agree ({', '.join(sorted(set(outcomes)))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

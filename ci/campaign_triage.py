"""Crash triage for ci/campaign.py: run a finding again, name it, deduplicate by stack.

A finding is rerun once through the libFuzzer build of its target (ASan + UBSan, symbolised)
and its output reduced to a signature:

    KIND | frame1 | frame2 | frame3

KIND says what broke, from the first line of the report that names it (fuzzers/fuzz_report.c
and the sanitizers): `invariant REFCOUNT_MATCHES`, `property FRAME_MTU`, `check
fuzzers/ctrl_fuzz.c:271`, `assert reference/obj/obj.c:212`, `asan heap-buffer-overflow`,
`ubsan reference/x.c:10`, `leak`, `timeout`, `oom`, `signal`. The frames are the three top
symbolised frames in the repository's own code (reference/, harness/, fuzzers/, dut/), by
function name, without the frames that only report (fuzz_report.c, core/assert.c): two inputs
that break the same thing on the same path are one finding, whatever their bytes. Line numbers
stay out of the frames, so a finding keeps its signature across unrelated edits; the check and
assertion kinds carry theirs, because there the line is what names the check.
"""
import hashlib
import os
import re
import subprocess

# Frames that only carry a report to the engine: never what a finding is about. The
# differential engine's (fuzz_dut.c, harness/dut_*.c) are the same for every divergence: there
# the kind names what differs, and the frames are the target's.
REPORT_FILES = ("fuzzers/fuzz_report.c", "reference/core/assert.c", "fuzzers/fuzz_dut.c")
REPORT_PREFIXES = ("harness/dut_",)
# A divergence names the field that differs in parentheses before "model": "byte 29 (IPv4
# header checksum) model 0x66, DUT 0x67"; without one, its words without the numbers.
DUT_FIELD_RE = re.compile(r"\(([^()]+)\) model ")
PROJECT_DIRS = ("reference/", "harness/", "fuzzers/", "dut/")
FRAME_RE = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in (\S+)(?: \(.*?\))? (/\S+?):(\d+)(?::\d+)?\s*$")

# (pattern, kind builder): the first pattern that matches a line of the report names the kind.
KIND_RULES = (
    (re.compile(r"^invariant (\S+) broken at"), lambda m: "invariant " + m.group(1)),
    (re.compile(r"^property (\S+) broken at"), lambda m: "property " + m.group(1)),
    (re.compile(r"^fuzz check failed at (\S+?):"), None),  # kind below: file:line of the check
    (re.compile(r"^model assertion failed at (\S+?):"), None),
    (re.compile(r"ERROR: AddressSanitizer: ([\w-]+)"), lambda m: "asan " + m.group(1)),
    (re.compile(r"ERROR: LeakSanitizer"), lambda m: "leak"),
    (re.compile(r"^(\S+?):\d+: runtime error: "), lambda m: "ubsan " + m.group(1)),
    (re.compile(r"ERROR: libFuzzer: timeout"), lambda m: "timeout"),
    (re.compile(r"ERROR: libFuzzer: out-of-memory"), lambda m: "oom"),
    (re.compile(r"ERROR: libFuzzer: deadly signal"), lambda m: "signal"),
    (re.compile(r"standalone_main: timeout on input"), lambda m: "timeout"),
)
CHECK_RE = re.compile(r"^fuzz check failed at (\S+): (.*)$")
ASSERT_RE = re.compile(r"^model assertion failed at (\S+): (.*)$")


def _relative(path, root):
    root = root.rstrip("/") + "/"
    return path[len(root):] if path.startswith(root) else path


def parse_report(text, root):
    """(kind, headline, frames) of one rerun's output; frames are (function, file:line)."""
    kind, headline = None, None
    for line in text.splitlines():
        m = CHECK_RE.match(line)
        if m:
            kind, headline = "check " + m.group(1), line
            break
        m = ASSERT_RE.match(line)
        if m:
            kind, headline = "assert " + m.group(1), line
            break
        for rx, build in KIND_RULES:
            m = rx.search(line)
            if m and build:
                kind, headline = build(m), line.strip()
                break
        if kind:
            break
    frames = []
    for line in text.splitlines():
        m = FRAME_RE.match(line)
        if not m:
            continue
        fn, path, lineno = m.group(1), _relative(m.group(2), root), m.group(3)
        if not path.startswith(PROJECT_DIRS) or path in REPORT_FILES or \
                path.startswith(REPORT_PREFIXES):
            continue
        if frames and frames[-1][0] == fn:  # an inlined frame printed twice
            continue
        frames.append((fn, "%s:%s" % (path, lineno)))
    if kind == "property DUT_DIVERGENCE":
        kind += ": " + dut_difference(headline)
    return kind or "unknown", headline or "", frames


def dut_difference(headline):
    """What differs in a DUT_DIVERGENCE line, without the values and positions."""
    m = DUT_FIELD_RE.search(headline)
    if m:
        return m.group(1)
    tail = headline.rsplit("): ", 1)[-1]
    return re.sub(r"\s+", " ", re.sub(r"(0x)?[0-9a-fA-F]*[0-9][0-9a-fA-F]*", "N", tail))[:80]


def signature(kind, frames, depth=3):
    return " | ".join([kind] + [fn for fn, _ in frames[:depth]])


def rerun(binary, path, timeout=25, env_extra=None):
    """Run one input once through a libFuzzer binary; its combined output."""
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "symbolize=1:detect_leaks=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    if env_extra:
        env.update(env_extra)
    try:
        p = subprocess.run([binary, "-timeout=%d" % timeout, "-rss_limit_mb=2560", path],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                           timeout=timeout * 3 + 30)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return None, out + "\nERROR: libFuzzer: timeout (the rerun did not end)\n"


def triage(target, binary, files, root, limit=None):
    """Group the findings of one target by signature (the `limit` smallest inputs rerun; the
    others are counted in the group "not triaged").

    Returns a list of dicts, one per signature, the smallest input first in `inputs`:
    {target, signature, id, kind, headline, frames, inputs, reproduced, log}."""
    groups = {}
    ordered = sorted(files, key=lambda p: (os.path.getsize(p), p))
    for i, path in enumerate(ordered):
        if limit is not None and i >= limit:
            sig = "not triaged (over the limit of %d reruns)" % limit
            g = groups.setdefault(sig, dict(target=target, signature=sig, id="untriaged",
                                            kind=sig, headline="", frames=[], inputs=[],
                                            reproduced=False, log=""))
            g["inputs"].append(path)
            continue
        rc, out = rerun(binary, path)
        kind, headline, frames = parse_report(out, root)
        reproduced = rc != 0
        if not reproduced:
            # Flaky, or a timeout/oom only under fork mode's load: kept, as such.
            name = os.path.basename(path)
            kind = "not reproduced (%s)" % name.split("-")[0]
        sig = signature(kind, frames)
        g = groups.get(sig)
        if g is None:
            sid = hashlib.sha1(("%s|%s" % (target, sig)).encode()).hexdigest()[:10]
            groups[sig] = dict(target=target, signature=sig, id=sid, kind=kind,
                               headline=headline, frames=frames[:6], inputs=[path],
                               reproduced=reproduced, log=out)
        else:
            g["inputs"].append(path)
    return list(groups.values())

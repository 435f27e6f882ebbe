#!/usr/bin/python3
"""A fuzz campaign over every target of fuzzers/, unattended: `make campaign HOURS=8 JOBS=4`.

    ci/campaign.py --hours H [--jobs N] [--engine libfuzzer|afl] [--targets a,b]
                   [--out DIR] [--store DIR] [--promote] [--no-build]
    ci/campaign.py --selftest      the triage on fuzzers/tests/broken_target (make campaign-check)

For each target fuzzers/<t>_fuzz.c, one after the other, each for H hours / targets of wall time
on N cores:
  1. fuzz: libFuzzer's fork mode (-fork=N, crashes, timeouts and OOMs ignored so the run goes
     on), or AFL++ with one main and N-1 secondary instances; the dictionary fuzzers/<t>.dict;
     the corpus: the campaign store (DIR/corpus/<t>, kept from one campaign to the next; a
     nightly job caches it) and the committed corpora/<t>/;
  2. merge and minimise: libFuzzer's -merge=1 of the store, what this run found and corpora/<t>/
     into a new store holding only inputs that add coverage;
  3. triage: every crash, timeout, OOM and leak rerun through the libFuzzer build (ASan + UBSan,
     symbolised), grouped by stack (ci/campaign_triage.py), one reproducer per group minimised
     (-minimize_crash) and copied to OUT/findings/<id>/ with its log and its commands.
Then the report (ci/campaign_report.py): OUT/report.html (opens in a browser, the plot inline),
OUT/report.md, OUT/coverage.svg (coverage over time, one panel per target), OUT/summary.json.
The fuzzing takes H hours; building, merging, triage and the report come on top (minutes).

--promote merges the store into corpora/<t>/ (only inputs adding coverage, named by their SHA-1)
for review and commit. Exit status: 0 no finding, 1 findings (the report says which), 2 the
campaign could not run (build, engine, arguments).
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no ci/__pycache__/ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import campaign_report  # noqa: E402
import campaign_triage  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORK_RE = re.compile(r"^#(\d+): cov: (\d+) ft: (\d+) corp: (\d+) exec/s:? (\d+) "
                     r"oom/timeout/crash: (\d+)/(\d+)/(\d+) time: (\d+)s")
# Reruns per target at most (the smallest inputs first): a bug hit on every input must not turn
# the triage into a second campaign.
TRIAGE_LIMIT = 40


def log(msg):
    print("campaign: " + msg, flush=True)


def die(msg):
    """The campaign cannot run: exit status 2 (1 is kept for findings)."""
    print("campaign: " + msg, file=sys.stderr, flush=True)
    sys.exit(2)


def all_targets():
    return sorted(os.path.basename(p)[:-len("_fuzz.c")]
                  for p in glob.glob(os.path.join(ROOT, "fuzzers", "*_fuzz.c")))


def files_in(d):
    if not os.path.isdir(d):
        return []
    out = []
    for dp, ds, fs in os.walk(d):
        ds[:] = [x for x in ds if not x.startswith(".")]  # AFL++'s queue/.state/
        out += [os.path.join(dp, f) for f in fs if not f.startswith(".")]
    return sorted(out)


def corpus_size(d):
    fs = files_in(d)
    return len(fs), sum(os.path.getsize(f) for f in fs)


def sha1_of(path):
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


def dict_args(t, flag):
    d = os.path.join(ROOT, "fuzzers", t + ".dict")
    return [flag + d] if os.path.isfile(d) and os.path.getsize(d) > 0 else []


def build(targets, jobs, engine):
    goals = ["build/fuzz/%s_fuzz" % t for t in targets]
    if engine == "afl":
        goals += ["build/afl/%s_fuzz" % t for t in targets]
    log("building %d targets (%s)" % (len(targets), engine))
    p = subprocess.run(["make", "--no-print-directory", "-s", "-j%d" % jobs,
                        "-f", "fuzzers/fuzz.mk"] + goals, cwd=ROOT)
    if p.returncode != 0:
        die("the build failed (above)")


# --- one target's fuzzing --------------------------------------------------------------------

def run_libfuzzer(t, secs, jobs, work, store):
    """Fork mode on the store (written) and corpora/<t> (read); returns the run's record."""
    binary = os.path.join(ROOT, "build/fuzz/%s_fuzz" % t)
    arts = os.path.join(work, "artifacts")
    os.makedirs(arts, exist_ok=True)
    logf = os.path.join(work, "fuzz.log")
    dirs = [store]
    committed = os.path.join(ROOT, "corpora", t)
    if files_in(committed):
        dirs.append(committed)
    cmd = [binary, "-fork=%d" % jobs, "-max_total_time=%d" % secs, "-ignore_crashes=1",
           "-ignore_timeouts=1", "-ignore_ooms=1", "-timeout=25", "-rss_limit_mb=2560",
           "-print_final_stats=1", "-artifact_prefix=" + arts + "/"] + dict_args(t, "-dict=")
    start = time.time()
    with open(logf, "w") as out:
        # fork mode keeps its jobs' files under TMPDIR: give it the target's work directory.
        env = dict(os.environ, TMPDIR=work)
        p = subprocess.Popen(cmd + dirs, stdout=out, stderr=subprocess.STDOUT, cwd=work, env=env)
        try:
            p.wait(timeout=secs + 600)
        except subprocess.TimeoutExpired:  # fork mode did not wrap up: its report is the log
            p.kill()
            p.wait()
    wall = time.time() - start
    timeline = []
    with open(logf, errors="replace") as f:
        for line in f:
            m = FORK_RE.match(line)
            if m:
                execs, cov, ft, corp, eps, oom, tmo, crash, secs_ = map(int, m.groups())
                timeline.append(dict(t=secs_, execs=execs, cov=cov, ft=ft, corp=corp,
                                     eps=eps, oom=oom, timeout=tmo, crash=crash))
    last = timeline[-1] if timeline else {}
    return dict(engine="libfuzzer", rc=p.returncode, wall=wall, timeline=timeline,
                execs=last.get("execs", 0), cov=last.get("cov", 0), ft=last.get("ft", 0),
                artifacts=files_in(arts), found_dirs=[], log=logf, command=" ".join(cmd))


def run_afl(t, secs, jobs, work, store):
    """AFL++: a main instance and jobs-1 secondaries on one output directory."""
    binary = os.path.join(ROOT, "build/afl/%s_fuzz" % t)
    seeds = os.path.join(work, "seeds")
    os.makedirs(seeds, exist_ok=True)
    for f in files_in(store) + files_in(os.path.join(ROOT, "corpora", t)):
        shutil.copyfile(f, os.path.join(seeds, sha1_of(f)))
    if not os.listdir(seeds):
        with open(os.path.join(seeds, "empty"), "wb") as f:
            f.write(b"\0")
    out = os.path.join(work, "afl")
    env = dict(os.environ, AFL_NO_UI="1", AFL_SKIP_CPUFREQ="1", AFL_TRY_AFFINITY="1",
               AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1", AFL_NO_WARN_INSTABILITY="1")
    procs = []
    start = time.time()
    for i in range(jobs):
        role = ["-M", "main"] if i == 0 else ["-S", "s%d" % i]
        cmd = ["afl-fuzz", "-i", seeds, "-o", out, "-V", str(secs), "-t", "25000"] + role + \
            dict_args(t, "-x") + ["--", binary]
        lf = open(os.path.join(work, "afl-%d.log" % i), "w")
        procs.append((subprocess.Popen(cmd, stdout=lf, stderr=subprocess.STDOUT, env=env), lf))
        if i == 0:
            command = " ".join(cmd)
    rc = 0
    for p, lf in procs:
        try:
            rc |= p.wait(timeout=secs + 600)
        except subprocess.TimeoutExpired:
            p.kill()
            rc |= 1
        lf.close()
    wall = time.time() - start
    timeline = []
    plot = os.path.join(out, "main", "plot_data")
    if os.path.isfile(plot):
        with open(plot) as f:
            head = None
            for line in f:
                if line.startswith("#"):
                    head = [h.strip() for h in line[1:].split(",")]
                    continue
                v = dict(zip(head or [], [x.strip() for x in line.split(",")]))
                try:
                    t0 = int(float(v.get("relative_time", v.get("unix_time", 0))))
                    timeline.append(dict(t=t0, execs=int(v.get("total_execs", 0)),
                                         cov=int(v.get("edges_found", 0)),
                                         corp=int(v.get("corpus_count", 0)),
                                         eps=int(float(v.get("execs_per_sec", 0))),
                                         crash=int(v.get("saved_crashes", 0))))
                except ValueError:
                    pass
    execs = 0
    for st in glob.glob(os.path.join(out, "*", "fuzzer_stats")):
        with open(st) as f:
            m = re.search(r"^execs_done\s*:\s*(\d+)", f.read(), re.M)
            execs += int(m.group(1)) if m else 0
    arts = [f for f in glob.glob(os.path.join(out, "*", "crashes", "id:*")) +
            glob.glob(os.path.join(out, "*", "hangs", "id:*"))]
    last = timeline[-1] if timeline else {}
    return dict(engine="afl", rc=rc, wall=wall, timeline=timeline, execs=execs,
                cov=last.get("cov", 0), ft=None, artifacts=sorted(arts),
                found_dirs=glob.glob(os.path.join(out, "*", "queue")),
                log=os.path.join(work, "afl-0.log"), command=command)


def merge(t, work, store, extra_dirs):
    """libFuzzer's -merge=1 of the store, the run's finds and corpora/<t> into a new store."""
    binary = os.path.join(ROOT, "build/fuzz/%s_fuzz" % t)
    committed = os.path.join(ROOT, "corpora", t)
    before = corpus_size(store)
    new = store + ".new"
    shutil.rmtree(new, ignore_errors=True)
    os.makedirs(new)
    srcs = [d for d in [store] + extra_dirs + [committed] if files_in(d)]
    if not srcs:  # nothing to merge: no corpus, and the run found nothing
        os.rmdir(new)
        return dict(before=before, after=before, ok=True, beyond_committed=0, log=None)
    logf = os.path.join(work, "merge.log")
    with open(logf, "w") as out:
        p = subprocess.run([binary, "-merge=1", "-timeout=25", "-rss_limit_mb=2560",
                            "-merge_control_file=" + os.path.join(work, "merge.ctl"), new] + srcs,
                           stdout=out, stderr=subprocess.STDOUT, cwd=work,
                           env=dict(os.environ, TMPDIR=work))
    if p.returncode != 0 or not files_in(new):
        log("%s: merge failed (exit %s), store kept as it was: %s" % (t, p.returncode, logf))
        shutil.rmtree(new, ignore_errors=True)
        return dict(before=before, after=before, ok=False, log=logf)
    shutil.rmtree(store)
    os.rename(new, store)
    committed_sums = {sha1_of(f) for f in files_in(committed)}
    beyond = sum(1 for f in files_in(store) if sha1_of(f) not in committed_sums)
    return dict(before=before, after=corpus_size(store), ok=True, beyond_committed=beyond,
                log=logf)


def promote(t, store):
    """Inputs of the store that add coverage to corpora/<t>/, copied there for review."""
    binary = os.path.join(ROOT, "build/fuzz/%s_fuzz" % t)
    committed = os.path.join(ROOT, "corpora", t)
    os.makedirs(committed, exist_ok=True)
    p = subprocess.run([binary, "-merge=1", "-timeout=25", committed, store],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    m = re.search(rb"MERGE-OUTER: (\d+) new files", p.stdout)
    return int(m.group(1)) if m else 0


def minimise(binary, src, dst, secs):
    """The smallest input libFuzzer finds in secs that still crashes; src when none."""
    if secs <= 0:
        return None
    p = subprocess.run([binary, "-minimize_crash=1", "-max_total_time=%d" % secs,
                        "-timeout=25", "-exact_artifact_path=" + dst, src],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       cwd=os.path.dirname(dst), timeout=secs + 120)
    del p
    return dst if os.path.isfile(dst) and os.path.getsize(dst) <= os.path.getsize(src) else None


def repro_commands(t, path):
    rel = os.path.relpath(path, ROOT)
    cmds = ["build/fuzz/%s_fuzz %s" % (t, rel),
            "NICREF_FUZZ_TRACE=1 build/fuzz/%s_fuzz %s" % (t, rel),
            "make -f fuzzers/fuzz.mk build/replay/%s_fuzz && build/replay/%s_fuzz %s" % (t, t, rel)]
    # nicref repro (issue 19 item 6), once the tree has it: the trace, a draft vector, a pcap.
    if glob.glob(os.path.join(ROOT, "harness", "repro*.c")):
        cmds.append("build/gcc/nicref repro %s --target %s" % (rel, t))
    return cmds


def triage_target(t, run, out_dir, min_secs):
    binary = os.path.join(ROOT, "build/fuzz/%s_fuzz" % t)
    groups = campaign_triage.triage(t, binary, run["artifacts"], ROOT, limit=TRIAGE_LIMIT)
    for g in groups:
        d = os.path.join(out_dir, "findings", "%s-%s" % (t, g["id"]))
        os.makedirs(d, exist_ok=True)
        first = g["inputs"][0]
        repro = os.path.join(d, "reproducer")
        shutil.copyfile(first, repro)
        with open(os.path.join(d, "report.txt"), "w") as f:
            f.write(g.pop("log"))
        small = minimise(binary, repro, os.path.join(d, "minimized"), min_secs) \
            if g["reproduced"] else None
        g["reproducer"] = os.path.relpath(small or repro, ROOT)
        g["reproducer_size"] = os.path.getsize(small or repro)
        g["original_size"] = os.path.getsize(first)
        g["count"] = len(g["inputs"])
        g["inputs"] = [os.path.relpath(p, ROOT) for p in g["inputs"]]
        g["commands"] = repro_commands(t, small or repro)
        g["dir"] = os.path.relpath(d, ROOT)
    return groups


# --- the campaign ----------------------------------------------------------------------------

def campaign(a):
    targets = a.targets.split(",") if a.targets else all_targets()
    unknown = [t for t in targets if t not in all_targets()]
    if unknown:
        die("no such target: %s (have: %s)" % (", ".join(unknown),
                                                               " ".join(all_targets())))
    if a.engine == "afl" and not shutil.which("afl-fuzz"):
        die("afl-fuzz not found (ci/deps.sh installs afl++)")
    total = a.hours * 3600.0
    slice_secs = max(10, int(total / len(targets)))
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    out_dir = os.path.abspath(a.out or os.path.join(ROOT, "build", "campaign", stamp))
    store_root = os.path.abspath(a.store or os.path.join(ROOT, "build", "campaign", "corpus"))
    os.makedirs(out_dir, exist_ok=True)
    t0 = time.time()
    if not a.no_build:
        build(targets, a.jobs, a.engine)
    build_secs = time.time() - t0
    min_secs = a.minimize_seconds if a.minimize_seconds is not None else \
        min(60, max(5, slice_secs // 6))
    log("%d targets x %d s on %d cores (%s), %s; report in %s" %
        (len(targets), slice_secs, a.jobs, a.engine,
         "%.2f h of fuzzing" % (slice_secs * len(targets) / 3600.0), out_dir))
    results = []
    for t in targets:
        work = os.path.join(out_dir, "work", t)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        store = os.path.join(store_root, t)
        os.makedirs(store, exist_ok=True)
        started = time.time() - t0
        # What the run starts from: the store and the committed corpus.
        corpus_in = [a + b for a, b in zip(corpus_size(store),
                                           corpus_size(os.path.join(ROOT, "corpora", t)))]
        runner = run_afl if a.engine == "afl" else run_libfuzzer
        run = runner(t, slice_secs, a.jobs, work, store)
        mg = merge(t, work, store, run["found_dirs"])
        groups = triage_target(t, run, out_dir, min_secs)
        r = dict(target=t, started=started, slice=slice_secs, **run)
        mg["before"] = corpus_in
        r.update(merge=mg, findings=groups)
        if a.promote and mg["ok"]:
            r["promoted"] = promote(t, store)
        results.append(r)
        log("%-8s %6.0f s  %11d execs  cov %5d  corpus %d -> %d  findings %d (%d inputs)%s" %
            (t, run["wall"], run["execs"], run["cov"], mg["before"][0], mg["after"][0],
             len(groups), len(run["artifacts"]),
             "" if run["timeline"] else "  NO STATUS LINE: see " + run["log"]))
    summary = dict(stamp=stamp, hours=a.hours, jobs=a.jobs, engine=a.engine,
                   slice=slice_secs, build_secs=round(build_secs, 1),
                   wall_secs=round(time.time() - t0, 1), store=store_root, out=out_dir,
                   host=os.uname().nodename, nproc=os.cpu_count(),
                   commit=git_head(), targets=results)
    for r in results:
        r.pop("artifacts", None)
        r.pop("found_dirs", None)
        r["log"] = os.path.relpath(r["log"], ROOT)
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    campaign_report.write(summary, out_dir)
    latest = os.path.join(ROOT, "build", "campaign", "latest")
    if os.path.dirname(out_dir) == os.path.dirname(latest):
        if os.path.islink(latest):
            os.unlink(latest)
        if not os.path.exists(latest):
            os.symlink(os.path.basename(out_dir), latest)
    nfind = sum(len(r["findings"]) for r in results)
    bad_runs = [r["target"] for r in results if not r["timeline"]]
    log("done in %.0f s: %d findings; report %s" % (time.time() - t0, nfind,
                                                    os.path.join(out_dir, "report.html")))
    if bad_runs:
        log("no progress line from: %s (the engine did not run; see their logs)" %
            " ".join(bad_runs))
        return 2
    return 1 if nfind else 0


def git_head():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              check=True).stdout.decode().strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# --- make campaign-check ---------------------------------------------------------------------

def selftest():
    """The triage on fuzzers/tests/broken_target: five inputs, three findings."""
    binary = os.path.join(ROOT, "build/fuzz/tests/broken_target")
    if not os.path.isfile(binary):
        die("selftest: %s missing (make -f fuzzers/fuzz.mk %s)" %
                 (binary, os.path.relpath(binary, ROOT)))
    tmp = tempfile.mkdtemp(prefix="nicref-campaign-selftest.")
    inputs = {"crash-i": b"i", "crash-i2": b"iXY", "crash-a": b"a", "crash-c": b"c",
              "crash-c2": b"cc", "crash-ok": b"z"}
    for name, data in inputs.items():
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(data)
    groups = campaign_triage.triage("broken", binary,
                                    [os.path.join(tmp, n) for n in inputs], ROOT)
    got = {g["signature"]: sorted(os.path.basename(p) for p in g["inputs"]) for g in groups}
    want = {
        "invariant REFCOUNT_MATCHES | fuzz_oracle_check_dev_at | broken_one_input | "
        "LLVMFuzzerTestOneInput": ["crash-i", "crash-i2"],
        "assert reference/obj/obj.c:212 | obj_uncharge | broken_one_input | "
        "LLVMFuzzerTestOneInput": ["crash-a"],
        "check fuzzers/tests/broken_target.c:48 | broken_one_input | LLVMFuzzerTestOneInput":
            ["crash-c", "crash-c2"],
        "not reproduced (crash)": ["crash-ok"],
    }
    # The assertion's and the check's lines are read from the sources, not written here.
    want = fix_lines(want)
    shutil.rmtree(tmp)
    if got != want:
        print("campaign selftest: FAILED\n  got:  %s\n  want: %s" %
              (json.dumps(got, indent=1, sort_keys=True), json.dumps(want, indent=1,
                                                                     sort_keys=True)))
        return 1
    print("campaign selftest: 6 inputs -> %d findings, grouped by stack as expected" % len(got))
    return 0


def fix_lines(want):
    """Replace the expected line numbers by where the check and the assertion are now."""
    def line_of(path, needle):
        with open(os.path.join(ROOT, path)) as f:
            for i, line in enumerate(f, 1):
                if needle in line:
                    return i
        die("selftest: %r not found in %s" % (needle, path))
    check = line_of("fuzzers/tests/broken_target.c", "NICREF_FUZZ_CHECK(len == 0);")
    assertion = line_of("reference/obj/obj.c", "NICREF_ASSERT(dev->obj_charged[type] > 0)")
    out = {}
    for k, v in want.items():
        k = k.replace("broken_target.c:48", "broken_target.c:%d" % check)
        k = k.replace("obj.c:212", "obj.c:%d" % assertion)
        out[k] = v
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hours", type=float, default=8.0, help="fuzzing time, all targets")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cores")
    ap.add_argument("--engine", choices=("libfuzzer", "afl"), default="libfuzzer")
    ap.add_argument("--targets", help="comma-separated (default: every fuzzers/*_fuzz.c)")
    ap.add_argument("--out", help="report directory (default build/campaign/<UTC stamp>)")
    ap.add_argument("--store", help="corpus store kept between campaigns "
                    "(default build/campaign/corpus)")
    ap.add_argument("--minimize-seconds", type=int, help="per finding (default: slice / 6, "
                    "5..60)")
    ap.add_argument("--promote", action="store_true",
                    help="merge the store into corpora/<t>/ (inputs adding coverage)")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--selftest", action="store_true")
    a = ap.parse_args()
    if a.selftest:
        return selftest()
    if a.hours <= 0 or a.jobs < 1:
        die("--hours must be > 0 and --jobs >= 1")
    os.chdir(ROOT)
    return campaign(a)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""make replay-check (issue 16, the replay half of the done-when):

1. `nicref replay` on each shipped example (examples/replay/*.json with its capture) exits 0
   and prints its summary; its --jsonl validates against docs/schemas/replay.schema.json and
   equals, frame by frame and field by field, the predictions examples/replay/predict.py
   derives independently (Scapy frames, CQE fields from the PRM); the CQE timestamp, which it
   does not predict, is the one field left out, by name;
2. the captures are what examples/replay/gen_examples.py writes;
3. --expect: a log equal to the prediction agrees (exit 0); a log with disagreements injected
   into it has every one reported (`frame N: FIELD expected X, got Y`) and exits 1, with a JSON
   report valid against docs/schemas/report.schema.json that names each frame, and a JUnit
   report valid against docs/schemas/junit.xsd; --ignore leaves out exactly the fields it
   names; a field --ignore does not know is refused (exit 2);
4. messy captures, each with its counted outcome: Linux cooked (SLL) and raw-IP records are
   given an Ethernet header and delivered; a pcapng of two interfaces replays whole; a file cut
   inside a record prints the summary of the records before it and exits 2 naming the frame;
   --no-repost runs a ring dry and says at which frame;
5. bad input: a SETUP that is not JSON, a step the runner refuses, a capture libpcap cannot
   read: exit 2, the message names the file.
The log of every run goes to build/replay/check_replay.log.

usage: check_replay.py NICREF"""
import copy
import json
import os
import subprocess
import sys

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EX = os.path.join(ROOT, "examples", "replay")
OUT = os.path.join(ROOT, "build", "replay")
sys.path.insert(0, EX)
import predict  # noqa: E402

EXAMPLES = ["one_rq", "rss8", "vlan_port"]
errors = []
log = None


def run(args, **kw):
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    log.write("$ %s\n%s%s[exit %d]\n\n" % (" ".join(args), p.stdout, p.stderr, p.returncode))
    return p


def fail(msg):
    errors.append(msg)
    print("FAIL " + msg)


def read_jsonl(path):
    with open(path) as fh:
        lines = [json.loads(x) for x in fh if x.strip()]
    return lines[0], lines[1:]


def compare(name, got, want, path=""):
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(set(want) | set(got)):
            if k == "timestamp":
                continue
            compare(name, got.get(k), want.get(k), f"{path}.{k}" if path else k)
    elif isinstance(want, list) and isinstance(got, list) and path.split(".")[-1] != "counters":
        for i in range(max(len(want), len(got))):
            compare(name, got[i] if i < len(got) else None, want[i] if i < len(want) else None,
                    f"{path}[{i}]")
    elif got != want:
        fail(f"{name}: {path}: predicted {json.dumps(want)}, nicref wrote {json.dumps(got)}")


def examples(tool, schema):
    p = subprocess.run([sys.executable, os.path.join(EX, "gen_examples.py"), "--check"],
                       capture_output=True, text=True)
    if p.returncode:
        fail("examples/replay: the captures differ from gen_examples.py's: " + p.stderr.strip())
    for name in EXAMPLES:
        out = os.path.join(OUT, name + ".jsonl")
        p = run([tool, "replay", "--jsonl", out, os.path.join(EX, name + ".json"),
                 os.path.join(EX, name + ".pcap")])
        if p.returncode != 0 or not p.stdout.startswith("replay "):
            fail(f"{name}: exit {p.returncode}, stdout {p.stdout[:200]!r} {p.stderr[:300]!r}")
            continue
        header, frames = read_jsonl(out)
        for i, obj in enumerate([header] + frames):
            try:
                jsonschema.validate(obj, schema)
            except jsonschema.ValidationError as e:
                fail(f"{name}.jsonl line {i + 1}: not valid against replay.schema.json: {e.message}")
        want = predict.predict(name + ".pcap")
        if len(frames) != len(want):
            fail(f"{name}: {len(frames)} frames written, {len(want)} predicted")
        for g, w in zip(frames, want):
            compare(f"{name} frame {w['frame']}", g, w)
        print(f"ok   {name}: {len(frames)} frames agree with the independent prediction")


# (frame, path into the line, new value, the field as the message names it)
INJECT = [
    (1, ("copies", 0, "cqe", "l4_ok"), 0, "cqe.l4_ok"),
    (5, ("copies", 0, "rq"), 7, "rq"),
    (9, ("copies", 0, "cqe", "rx_hash_result"), 1, "cqe.rx_hash_result"),
    (12, ("outcome",), "dropped", "outcome"),
    (20, ("copies", 0, "cqe", "timestamp"), 12345, "cqe.timestamp"),
    (33, ("len",), 61, "len"),
]


def put(obj, path, v):
    for k in path[:-1]:
        obj = obj[k]
    old = obj[path[-1]]
    obj[path[-1]] = v
    return old


def expect(tool, report_schema):
    setup, cap = os.path.join(EX, "rss8.json"), os.path.join(EX, "rss8.pcap")
    header, frames = read_jsonl(os.path.join(OUT, "rss8.jsonl"))
    same = os.path.join(OUT, "expect_same.jsonl")
    with open(same, "w") as fh:
        for o in [header] + frames:
            fh.write(json.dumps(o) + "\n")
    p = run([tool, "replay", "--expect", same, setup, cap])
    if p.returncode != 0 or "disagree (0 differences)" not in p.stdout:
        fail(f"--expect with the same log: exit {p.returncode}, {p.stdout[-300:]!r}")
    bad = copy.deepcopy(frames)
    injected = []
    for frame, path, v, field in INJECT:
        old = put(bad[frame - 1], path, v)
        injected.append((frame, field, v, old))
    inj = os.path.join(OUT, "expect_injected.jsonl")
    with open(inj, "w") as fh:
        for o in [header] + bad:
            fh.write(json.dumps(o) + "\n")
    rj, rx = os.path.join(OUT, "expect.json"), os.path.join(OUT, "expect.xml")
    p = run([tool, "replay", "--expect", inj, "--json", rj, "--junit", rx, setup, cap])
    if p.returncode != 1:
        fail(f"--expect with {len(injected)} injected disagreements: exit {p.returncode}, not 1")
    for frame, field, v, old in injected:
        line = f"frame {frame}: {field} expected {json.dumps(v)}, got {json.dumps(old)}"
        if line not in p.stdout:
            fail(f"--expect did not report the injected disagreement: {line}")
    n = sum(1 for x in p.stdout.splitlines() if x.startswith("frame "))
    if n != len(injected):
        fail(f"--expect reported {n} differences, {len(injected)} were injected")
    with open(rj) as fh:
        rep = json.load(fh)
    jsonschema.validate(rep, report_schema)
    failed = sorted(t["tcId"] for t in rep["tests"] if t["outcome"] == "fail")
    if failed != sorted(f for f, *_ in injected):
        fail(f"--json: failing tests {failed}, expected the frames {[f for f, *_ in injected]}")
    x = subprocess.run(["xmllint", "--noout", "--schema", os.path.join(ROOT, "docs", "schemas",
                                                                        "junit.xsd"), rx],
                       capture_output=True, text=True)
    if x.returncode:
        fail("--junit: not valid against junit.xsd: " + x.stderr.strip())
    print(f"ok   --expect: {len(injected)} injected disagreements reported, exit 1, reports valid")
    p = run([tool, "replay", "--expect", inj, "--ignore", "timestamp,l4_ok,rq,rx_hash_result,outcome,len",
             setup, cap])
    if p.returncode != 0:
        fail(f"--ignore of every injected field: exit {p.returncode}: {p.stdout[-300:]!r}")
    p = run([tool, "replay", "--expect", inj, "--ignore", "timestamp", setup, cap])
    if p.returncode != 1 or "timestamp" in "".join(x for x in p.stdout.splitlines() if x.startswith("frame ")):
        fail(f"--ignore timestamp: exit {p.returncode} or the timestamp still reported")
    p = run([tool, "replay", "--expect", inj, "--ignore", "timestmp", setup, cap])
    if p.returncode != 2 or "timestmp" not in p.stderr:
        fail(f"--ignore of an unknown field: exit {p.returncode}, {p.stderr!r}")
    print("ok   --ignore: leaves out what it names, refuses what it does not know")
    short = os.path.join(OUT, "expect_short.jsonl")
    with open(short, "w") as fh:
        for o in [header] + frames[:20]:
            fh.write(json.dumps(o) + "\n")
    p = run([tool, "replay", "--expect", short, setup, cap])
    if p.returncode != 1 or "frame 21: " + short + " ends before this frame" not in p.stdout:
        fail(f"--expect with a log 29 frames short: exit {p.returncode}: {p.stdout[-400:]!r}")
    longer = os.path.join(OUT, "expect_long.jsonl")
    with open(longer, "w") as fh:
        for o in [header] + frames + [dict(frames[-1], frame=len(frames) + 1)]:
            fh.write(json.dumps(o) + "\n")
    p = run([tool, "replay", "--expect", longer, setup, cap])
    if p.returncode != 1 or "frames the capture does not hold" not in p.stdout:
        fail(f"--expect with a log one frame longer: exit {p.returncode}: {p.stdout[-400:]!r}")
    print("ok   --expect: a log that ends early or runs longer is a difference, said once")


def bad_input(tool):
    setup, cap = os.path.join(EX, "one_rq.json"), os.path.join(EX, "one_rq.pcap")
    notjson = os.path.join(OUT, "bad_setup.json")
    with open(notjson, "w") as fh:
        fh.write("{\"setup\": [")
    badstep = os.path.join(OUT, "bad_step.json")
    with open(badstep, "w") as fh:
        json.dump({"setup": [{"bring_up": {"to": "initialized"}},
                             {"rx_setup": {"rqs": [{"log_wq_sz": 17}]}}]}, fh)
    notpcap = os.path.join(OUT, "not_a_capture.pcap")
    with open(notpcap, "w") as fh:
        fh.write("hello\n")
    cases = [([notjson, cap], "bad_setup.json"), ([badstep, cap], "log_wq_sz"),
             ([setup, notpcap], "not_a_capture.pcap"), ([setup, "/nonexistent.pcap"], "nonexistent")]
    for args, word in cases:
        p = run([tool, "replay"] + args)
        if p.returncode != 2 or word not in p.stderr + p.stdout:
            fail(f"bad input {args}: exit {p.returncode} (want 2), message {p.stderr[:300]!r}")
    print(f"ok   bad input: {len(cases)} refusals, exit 2, each naming what is wrong")


def pcap(path, linktype, recs):
    """A classic pcap (microsecond stamps) of (bytes, wire length) records, 1 us apart."""
    import struct
    with open(path, "wb") as fh:
        fh.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype))
        for i, (data, wire) in enumerate(recs):
            fh.write(struct.pack("<IIII", 1700000000, i, len(data), wire) + data)


def summary_has(p, *words):
    return all(w in p.stdout for w in words)


def messy(tool):
    from scapy.all import IP, UDP, CookedLinux, Ether, IPv6, Raw
    from scapy.utils import PcapNgWriter
    setup = os.path.join(EX, "one_rq.json")
    ip4 = bytes(IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1, dport=2) / Raw(b"x" * 40))
    ip6 = bytes(IPv6(src="2001:db8::1", dst="2001:db8::2") / UDP(sport=1, dport=2) / Raw(b"y" * 40))
    raw = os.path.join(OUT, "messy_raw.pcap")
    pcap(raw, 101, [(ip4, len(ip4)), (ip6, len(ip6)), (b"\x50" + ip4[1:], len(ip4))])
    p = run([tool, "replay", "--jsonl", os.path.join(OUT, "messy_raw.jsonl"), setup, raw])
    if p.returncode or not summary_has(p, "raw_ip 3", "injected 2", "not_ethernet 1", "converted 2",
                                       "delivered: 2 frames"):
        fail(f"raw-IP capture: exit {p.returncode}: {p.stdout!r}")
    sll = os.path.join(OUT, "messy_sll.pcap")
    c = bytes(CookedLinux(pkttype=0, lladdrtype=1, lladdrlen=6, src=bytes.fromhex("020000000099") + b"\0\0",
                          proto=0x0800) / IP(src="10.0.0.1", dst="10.0.0.2") / UDP() / Raw(b"z" * 30))
    pcap(sll, 113, [(c, len(c))])
    p = run([tool, "replay", "--pcap-dir", os.path.join(OUT, "messy_sll.rqs"), setup, sll])
    if p.returncode or not summary_has(p, "linux_sll 1", "converted 1", "delivered: 1 frames"):
        fail(f"Linux cooked capture: exit {p.returncode}: {p.stdout!r}")
    with open(os.path.join(OUT, "messy_sll.rqs", "rq0.pcap"), "rb") as fh:
        got = fh.read()
    if bytes.fromhex("024e49435246020000000099") not in got:
        fail("Linux cooked capture: rq0.pcap does not hold the frame with the function's address")
    ng = os.path.join(OUT, "messy_two_ifaces.pcapng")
    w = PcapNgWriter(ng)
    for i in range(4):
        f = Ether(dst="02:4e:49:43:52:46", src="02:00:00:00:00:99") / IP() / UDP(dport=i) / Raw(b"q" * 20)
        f.time = 1700000000 + i / 1e6
        f.sniffed_on = "eth%d" % (i % 2)
        w.write(f)
    w.close()
    p = run([tool, "replay", setup, ng])
    if p.returncode or not summary_has(p, "ethernet 4", "delivered: 4 frames"):
        fail(f"pcapng of two interfaces: exit {p.returncode}: {p.stdout!r} {p.stderr!r}")
    with open(os.path.join(EX, "one_rq.pcap"), "rb") as fh:
        whole = fh.read()
    cut = os.path.join(OUT, "messy_cut.pcap")
    with open(cut, "wb") as fh:
        fh.write(whole[:300])
    p = run([tool, "replay", setup, cut])
    if p.returncode != 2 or "messy_cut.pcap" not in p.stderr or "frame" not in p.stderr or \
            not p.stdout.startswith("replay "):
        fail(f"a file cut inside a record: exit {p.returncode}, {p.stderr!r}")
    p = run([tool, "replay", "--no-repost", os.path.join(EX, "vlan_port.json"), big_capture(tool)])
    if p.returncode or "the ring first ran dry at frame" not in p.stdout or "no_wqe" not in p.stdout:
        fail(f"--no-repost: exit {p.returncode}: {p.stdout!r}")
    rmp = os.path.join(OUT, "rmp_setup.json")
    with open(rmp, "w") as fh:
        json.dump({"setup": [{"bring_up": {"to": "initialized"}},
                             {"rx_setup": {"rmp": {"log_wq_sz": 2, "log_wq_stride": 5, "wq_signature": 1},
                                           "rqs": [{"on_rmp": 1}], "tirs": [{"rq": 0}], "steer_all": [0]}},
                             {"rq_fill": {"byte_count": 16384}}]}, fh)
    p = run([tool, "replay", rmp, big_capture(tool)])
    if p.returncode or not summary_has(p, "delivered: 40 frames", "WQEs re-posted 40", "(0 error CQEs)"):
        fail(f"an RMP of 4 signed WQEs, 40 frames: exit {p.returncode}: {p.stdout!r}")
    print("ok   messy captures: raw IP, Linux cooked, two interfaces, a cut file, a starved ring; "
          "40 frames through an RMP of 4 signed WQEs")


def pcap_recs(path, linktype, recs, snap=65535, magic=0xA1B2C3D4):
    """A classic pcap of (seconds, sub-second, bytes, caplen field, len field) records."""
    import struct
    with open(path, "wb") as fh:
        fh.write(struct.pack("<IHHiIII", magic, 2, 4, 0, 0, snap, linktype))
        for sec, sub, data, caplen, wire in recs:
            fh.write(struct.pack("<IIII", sec, sub, caplen, wire) + data)


def ng_block(btype, body, endian="<"):
    import struct
    body += b"\0" * ((4 - len(body) % 4) % 4)
    n = 12 + len(body)
    return struct.pack(endian + "II", btype, n) + body + struct.pack(endian + "I", n)


def pcapng(path, blocks, snap=65535):
    """A pcapng (one section, one Ethernet interface) of ("epb", t_us, bytes) and ("spb", bytes)."""
    import struct
    out = ng_block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += ng_block(1, struct.pack("<HHI", 1, 0, snap))
    for b in blocks:
        if b[0] == "spb":
            out += ng_block(3, struct.pack("<I", len(b[1])) + b[1])
        else:
            out += ng_block(6, struct.pack("<IIIII", 0, b[1] >> 32, b[1] & 0xFFFFFFFF, len(b[2]),
                                           len(b[2])) + b[2])
    with open(path, "wb") as fh:
        fh.write(out)


def review29(tool):
    """The findings of the session 29 review of the replay (docs/replay.md "Messy captures")."""
    from scapy.all import IP, UDP, Ether, Raw
    setup = os.path.join(EX, "one_rq.json")
    frame = bytes(Ether(dst="ff:ff:ff:ff:ff:ff", src="02:00:00:00:00:02") / IP(src="10.0.0.2", dst="10.0.0.1")
                  / UDP(sport=5555, dport=1234) / Raw(b"x" * 58))
    t = 1700000000
    # 1 and 10: a 64-byte buffer: the first frame's local length error flushes the ring (one
    # error CQE and 255 flushes, 256 CQEs): 16 copies held, 240 lost, counted once, printed,
    # written, and a difference under --expect; the frame counted as an error frame.
    small = os.path.join(OUT, "small_buf.json")
    with open(setup) as fh:
        st = json.load(fh)
    for step in st["setup"]:
        if "rq_fill" in step:
            step["rq_fill"]["byte_count"] = 64
    with open(small, "w") as fh:
        json.dump(st, fh)
    one = os.path.join(OUT, "r29_one.pcap")
    pcap_recs(one, 1, [(t, 1, frame, len(frame), len(frame)), (t, 2, frame, len(frame), len(frame))])
    jl = os.path.join(OUT, "r29_lost.jsonl")
    p = run([tool, "replay", "--jsonl", jl, small, one])
    if p.returncode or not summary_has(p, "copies lost 240", "error: 1 frames", "(16 error CQEs)"):
        fail(f"copies past 16: exit {p.returncode}: {p.stdout!r}")
    header, frames = read_jsonl(jl)
    if frames[0].get("copies_lost") != 240 or len(frames[0]["copies"]) != 16:
        fail(f"copies past 16: --jsonl frame 1 {str(frames[0])[-80:]!r}")
    p = run([tool, "replay", "--expect", jl, small, one])
    if p.returncode != 1 or "frame 1: 240 copies past the 16" not in p.stdout:
        fail(f"copies past 16 under --expect (the same log): exit {p.returncode}: {p.stdout[-300:]!r}")
    # 9: a NUL in a line; a header of another version, named.
    nul = os.path.join(OUT, "r29_nul.jsonl")
    with open(nul, "wb") as fh:
        fh.write(json.dumps(header).encode() + b"\n" + b'{"frame":1}\0 tail\n')
    p = run([tool, "replay", "--expect", nul, small, one])
    if p.returncode != 2 or "line 2: holds a NUL byte (byte 12" not in p.stderr:
        fail(f"--expect line with a NUL: exit {p.returncode}: {p.stderr!r}")
    v2 = os.path.join(OUT, "r29_v2.jsonl")
    with open(v2, "w") as fh:
        fh.write(json.dumps(dict(header, nicref_replay=2)) + "\n")
    p = run([tool, "replay", "--expect", v2, small, one])
    if p.returncode != 2 or "format version 2, this nicref reads version 1" not in p.stderr:
        fail(f"--expect of format version 2: exit {p.returncode}: {p.stderr!r}")
    # 2: --jsonl - : stdout is JSON Lines only.
    p = run([tool, "replay", "--jsonl", "-", setup, one])
    try:
        n = len([json.loads(x) for x in p.stdout.splitlines()])
    except ValueError as e:
        n = -1
        fail(f"--jsonl -: stdout is not JSON Lines ({e}): {p.stdout[-200:]!r}")
    if p.returncode or n != 3 or "records: 2" not in p.stderr:
        fail(f"--jsonl -: exit {p.returncode}, {n} lines, summary on stderr {p.stderr[:100]!r}")
    # 4, 5, 7, 14: an empty Ethernet record, caplen over len, 2038, a sub-second of 2 s.
    messy29 = os.path.join(OUT, "r29_messy.pcap")
    pcap_recs(messy29, 1, [(t, 1, frame, len(frame), len(frame)), (t, 2, b"", 0, 0),
                           (t, 3, frame, len(frame), 60), (0x80000001, 4, frame, len(frame), len(frame)),
                           (0x80000001, 2000000, frame, len(frame), len(frame)),
                           (0x80000001, 5, frame, len(frame), len(frame))])
    jl = os.path.join(OUT, "r29_messy.jsonl")
    p = run([tool, "replay", "--jsonl", jl, setup, messy29])
    if p.returncode or not summary_has(p, "injected 5", "not_ethernet 1", "padded 0", "untimed 1",
                                       "caplen over wire length 1") or \
            "frame 2 (0 of 0 bytes captured) holds no EtherType" not in p.stderr or \
            "frame 3 says 100 bytes captured of a 60-byte frame" not in p.stderr or \
            "frame 5 has a sub-second field of a second or more" not in p.stderr:
        fail(f"messy records: exit {p.returncode}: {p.stdout!r} {p.stderr!r}")
    else:
        _, fr = read_jsonl(jl)
        got = [x["t_ns"] for x in fr[3:]]
        want = [0x80000001 * 10**9 + 4000] * 2 + [0x80000001 * 10**9 + 5000]
        if got != want:
            fail(f"2038 and the sub-second of 2 s: times {got}, want {want}")
    # 6: a pcap record longer than the header's snapshot length: not "cut by the capture".
    snap = os.path.join(OUT, "r29_snap.pcap")
    pcap_recs(snap, 1, [(t, 1, frame, len(frame), len(frame))], snap=64)
    p = run([tool, "replay", setup, snap])
    if p.returncode or "frame 1 holds 100 bytes in the file, more than the file header's snapshot " \
            "length (64)" not in p.stderr or "mergecap" not in p.stderr:
        fail(f"record over the snapshot length: exit {p.returncode}: {p.stderr!r}")
    ng = os.path.join(OUT, "r29_snap.pcapng")
    pcapng(ng, [("epb", t * 10**6, frame)], snap=64)
    p = run([tool, "replay", setup, ng])
    if p.returncode != 2 or "mergecap -F pcap -s 262144" not in p.stderr:
        fail(f"pcapng record over the snapshot length: exit {p.returncode}: {p.stderr!r}")
    # 3: Simple Packet Blocks first and in the middle: no 53-year clock, no inversion.
    spb = os.path.join(OUT, "r29_spb.pcapng")
    pcapng(spb, [("spb", frame), ("epb", t * 10**6, frame), ("spb", frame), ("epb", t * 10**6 + 10, frame)])
    p = run([tool, "replay", setup, spb])
    if p.returncode or not summary_has(p, "untimed 2", "time inversions 0", "capture time 0.000010 s") or \
            "frame 1 has no timestamp (a pcapng Simple Packet Block)" not in p.stderr:
        fail(f"Simple Packet Blocks: exit {p.returncode}: {p.stdout!r} {p.stderr!r}")
    # 12: BSD loopback (NULL, LOOP) read as raw IP; another link type refused without RoCE words.
    import struct
    ip = frame[14:]
    lo = os.path.join(OUT, "r29_null.pcap")
    pcap_recs(lo, 0, [(t, 1, struct.pack("<I", 2) + ip, len(ip) + 4, len(ip) + 4)])
    p = run([tool, "replay", setup, lo])
    if p.returncode or not summary_has(p, "loopback 1", "converted 1", "delivered: 1 frames"):
        fail(f"LINKTYPE_NULL: exit {p.returncode}: {p.stdout!r} {p.stderr!r}")
    wl = os.path.join(OUT, "r29_wlan.pcap")
    pcap_recs(wl, 105, [(t, 1, ip, len(ip), len(ip))])
    p = run([tool, "replay", setup, wl])
    if p.returncode != 2 or "802.11" not in p.stderr or "BSD loopback" not in p.stderr:
        fail(f"802.11: exit {p.returncode}: {p.stderr!r}")
    print("ok   session 29 review: copies past 16 counted and compared, --jsonl -, NUL and version "
          "in --expect, empty/over-long/2038/untimed records, SPBs, snaplen, loopback")


def big_capture(tool):
    """40 copies of vlan_port.pcap's VLAN 10 frame: more than RQ 0's 16 WQEs."""
    import gen_examples
    recs = gen_examples.frames("vlan_port.pcap")
    path = os.path.join(OUT, "starve.pcap")
    pcap(path, 1, [(recs[2][1], recs[2][2])] * 40)
    return path


def main(argv):
    global log
    if len(argv) != 1:
        sys.exit(__doc__)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(ROOT, "docs", "schemas", "replay.schema.json")) as fh:
        schema = json.load(fh)
    with open(os.path.join(ROOT, "docs", "schemas", "report.schema.json")) as fh:
        report_schema = json.load(fh)
    with open(os.path.join(OUT, "check_replay.log"), "w") as log:
        examples(argv[0], schema)
        expect(argv[0], report_schema)
        messy(argv[0])
        review29(argv[0])
        bad_input(argv[0])
    if errors:
        print(f"replay-check: {len(errors)} problem(s); the runs are in build/replay/check_replay.log")
        return 1
    print("replay-check: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

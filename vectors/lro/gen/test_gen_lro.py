#!/usr/bin/python3
"""Self-check of the LRO generator (make lro-gen-check):

- the model's own parse of every frame the vectors send agrees with Scapy's dissection
  (sequence and acknowledgment numbers, flags, window, payload, TTL, the timestamp option), and
  its checksum verdicts (IPv4 header, TCP with pseudo-header) agree with the checksums Scapy
  computes for the same bytes;
- the merged checksum (T4 and D-LRO-7: all the TCP payload, no header, no pseudo-header, not
  complemented) is what software needs: added to the merged packet's pseudo-header and its
  fixed TCP header (with the checksum Scapy computes for the merged packet) it gives 0xFFFF,
  which is what Linux mlx5e's mlx5e_lro_update_hdr does with it;
- hand-computed sessions: byte counts, segment counts, the period in force, the size limit, the
  four (*) causes restarting and the others not;
- the written files: numberOfTests, unique tcIds, a cite on every test, every `acceptable` test
  says what it accepts (an any_of or an `in` matcher) and every other test does not, each
  session's lro_end byte_cnt equals its CQE's and its mem_expect length; every cause of the
  contract and every item of the issue's rule list has a vector;
- the files are what gen_lro.py writes (--check).
"""
import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
OUT = os.path.dirname(HERE)

from scapy.all import IP, TCP, Ether, IPv6  # noqa: E402

import gen_lro as G  # noqa: E402
import lro_model as M  # noqa: E402

FAIL = []


def check(cond, what):
    if not cond:
        FAIL.append(what)


def vector_files():
    return sorted(f for f in os.listdir(OUT) if f.endswith(".json"))


def all_frames():
    for f in vector_files():
        d = json.load(open(os.path.join(OUT, f)))
        for g in d["testGroups"]:
            for t in g["tests"]:
                for s in t["steps"]:
                    if "rx_frame" in s:
                        yield f, t["tcId"], bytes.fromhex(s["rx_frame"]["hex"])


def scapy_l4_ok(e):
    """Scapy recomputes the TCP checksum of the same bytes: equal means valid."""
    ip = e[IPv6] if IPv6 in e else e[IP]
    if IP in e and (e[IP].flags.MF or e[IP].frag):
        return None
    tcp = e[TCP].copy()
    want = tcp.chksum
    tcp.chksum = None
    if IPv6 in e:
        re_ = IPv6(bytes(ip.copy().__class__(src=ip.src, dst=ip.dst, nh=6, hlim=ip.hlim)
                         / tcp))
    else:
        re_ = IP(bytes(IP(src=ip.src, dst=ip.dst, proto=6) / tcp))
    return re_[TCP].chksum == want


def check_parse():
    n = 0
    for f, tc, b in all_frames():
        s = M.parse(b)
        e = Ether(b)
        if TCP not in e or not s.tcp:
            check(TCP not in e or (IP in e and e[IP].frag) or s.llc_snap or s.malformed,
                  f"{f}#{tc}: Scapy sees TCP, the model does not")
            continue
        n += 1
        t = e[TCP]
        check((s.seq, s.ack, s.win) == (t.seq, t.ack, t.window), f"{f}#{tc}: seq/ack/win")
        flags = int(t.flags)
        mine = (s.ns << 8 | s.cwr << 7 | s.ece << 6 | s.urg << 5 | s.ackf << 4 | s.psh << 3 |
                s.rst << 2 | s.syn << 1 | s.fin)
        check(flags == mine, f"{f}#{tc}: flags {flags:#x} vs {mine:#x}")
        ip = e[IPv6] if IPv6 in e else e[IP]
        ttl = ip.hlim if IPv6 in e else ip.ttl
        check(s.ttl == ttl, f"{f}#{tc}: TTL")
        if IP in e:
            plen = ip.len - ip.ihl * 4 - t.dataofs * 4
            hdr = IP(bytes(ip)[:ip.ihl * 4])
            c = hdr.chksum
            hdr.chksum = None
            check(s.l3_ok == (IP(bytes(hdr)).chksum == c), f"{f}#{tc}: IPv4 checksum verdict")
        else:
            plen = len(bytes(t)) - t.dataofs * 4
        check(s.payload == bytes(t.payload)[:plen], f"{f}#{tc}: payload")
        ts = [o[1] for o in t.options if o[0] == "Timestamp"]
        if not s.other_opts:
            check(s.ts == (ts[0] if ts else None), f"{f}#{tc}: timestamp option")
        ok = scapy_l4_ok(e)
        if ok is not None and len(ip.payload.layers()) and not s.ip_opts:
            check(s.l4_ok == ok, f"{f}#{tc}: TCP checksum verdict (model {s.l4_ok}, Scapy {ok})")
    check(n > 200, f"only {n} TCP frames parsed")


def fold_add(a, b):
    s = a + b
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def check_merged_checksum():
    """T5: 'If SW wants/needs to calculate and fix checksum of merged TCP header and payload it
    can use this field ... by only calculating incrementally'."""
    cases = [G.stream(3), G.stream(3, v6=True),
             [G.seg(seq=G.SEQ0, n=101), G.seg(seq=G.SEQ0 + 101, n=99),
              G.seg(seq=G.SEQ0 + 200, n=51)],
             [G.seg(seq=G.SEQ0 + i * 1448, n=1448, ts=(9, 9)) for i in range(5)]]
    for k, segs in enumerate(cases):
        d = M.Device([M.Tir(0, {})])
        for s in segs:
            d.frame(s)
        outs = d.advance(10**6)
        c = [o for o in outs if o["ev"] == "cqe"][0]["fields"]
        check(c["lro_num_seg"] == len(segs), f"checksum case {k}: all segments merged")
        first = Ether(segs[0])
        payload = b"".join(M.parse(s).payload for s in segs)
        v6 = IPv6 in first
        ip = first[IPv6] if v6 else first[IP]
        tcp = first[TCP].copy()
        tcp.remove_payload()
        tcp.chksum = None
        if v6:
            merged = IPv6(bytes(IPv6(src=ip.src, dst=ip.dst, hlim=ip.hlim) / tcp / payload))
            pseudo = M.ones_sum(bytes(merged)[8:40] + struct.pack(">IxxxB",
                                                                   len(bytes(merged)) - 40, 6))
        else:
            merged = IP(bytes(IP(src=ip.src, dst=ip.dst, ttl=ip.ttl) / tcp / payload))
            pseudo = M.ones_sum(bytes(merged)[12:20] + struct.pack(">BBH", 0, 6,
                                                                   merged.len - 20))
        hdr_new = bytes(merged[TCP])[:merged[TCP].dataofs * 4]
        # the CQE's sum plus the merged packet's fixed TCP header (Scapy's checksum in it) and
        # pseudo-header: a valid TCP checksum sums to 0xFFFF
        x = fold_add(c["checksum"], M.ones_sum(hdr_new))
        x = fold_add(x, pseudo)
        check(x == 0xFFFF, f"checksum case {k}: the fix-up gives {x:#x}")
        # and the sum itself is over the merged payload alone
        check(c["checksum"] == M.ones_sum(payload), f"checksum case {k}: the sum")


def check_hand():
    d = M.Device([M.Tir(0, {})])
    out = []
    for s in G.stream(3):
        out += d.frame(s)
    out += d.advance(64 * 1000)
    c = [o for o in out if o["ev"] == "cqe"]
    check(len(c) == 1, "3 segments: one CQE")
    f = c[0]["fields"]
    check(f["byte_cnt"] == 14 + 20 + 20 + 300, "byte_cnt 354")
    check((f["lro_num_seg"], f["lro_abrt"], f["l4_hdr_type"], f["lro_min_ttl"]) == (3, 1, 4, 64),
          "num_seg 3, abrt 01 (timer), l4_hdr_type 4, min TTL 64")
    check(c[0]["mem"] == G.stream(3)[0] + b"".join(M.parse(s).payload for s in G.stream(3)[1:]),
          "the buffer: the first frame, then the payloads")
    caps = M.Caps()
    for req, n in ((20, 16), (1000, 32), (7, 0), (1024, 1024), (8, 8), (31, 16)):
        check(M.Tir(0, {"timeout_usecs": req}).period(caps) == n, f"period of {req} is {n}")
    # the timer: open at 0, still open at N - 1 ns, ended at N (D-LRO-5)
    d = M.Device([M.Tir(0, {})])
    d.frame(G.seg())
    check(d.advance(32 * 1000 - 1) == [], "still open just before N")
    check([o["cause"] for o in d.advance(1) if o["ev"] == "end"] == ["timer"], "ended at N")
    # size: 512 bytes, mode 0: 20 + 4 x 100 merge, the fifth restarts
    d = M.Device([M.Tir(0, {"max_msg_sz": 2})])
    ev = []
    for s in G.stream(6):
        ev += [o["ev"] for o in d.frame(s)]
    check(ev == ["open", "merge", "merge", "merge", "end", "cqe", "open", "merge"],
          f"max_size: {ev}")
    # options
    for opts, ts, other in (([("NOP", None), ("NOP", None), ("Timestamp", (1, 2))], (1, 2), 0),
                            ([("MSS", 1460)], None, 1),
                            ([("Timestamp", (3, 4)), ("EOL", None), ("EOL", None)], (3, 4), 0),
                            ([("NOP", None), ("WScale", 2), ("Timestamp", (1, 1))], (1, 1), 1)):
        s = M.parse(G.seg(opts=opts))
        check((s.ts, s.other_opts) == (ts, bool(other)), f"options {opts}")
    # the (*) causes restart, the others do not
    scen = {
        "ts_older": [G.seg(seq=G.SEQ0, ts=(5, 1)), G.seg(seq=G.SEQ0 + 100, ts=(4, 1))],
        "ts_prev_absent": [G.seg(seq=G.SEQ0), G.seg(seq=G.SEQ0 + 100, ts=(4, 1))],
        "ts_absent": [G.seg(seq=G.SEQ0, ts=(5, 1)), G.seg(seq=G.SEQ0 + 100)],
        "ecn": [G.seg(seq=G.SEQ0), G.seg(seq=G.SEQ0 + 100, flags="AC")],
        "out_of_order": [G.seg(seq=G.SEQ0), G.seg(seq=G.SEQ0 + 101)],
        "ip_mismatch": [G.seg(seq=G.SEQ0), G.seg(seq=G.SEQ0 + 100, tos=4)],
        "tcp_flags": [G.seg(seq=G.SEQ0), G.seg(seq=G.SEQ0 + 100, flags="FA")],
        "small": [G.seg(seq=G.SEQ0), G.seg(seq=G.SEQ0 + 100, n=0)],
    }
    for cause, segs in scen.items():
        d = M.Device([M.Tir(0, {})])
        d.frame(segs[0])
        out = d.frame(segs[1])
        evs = [o["ev"] for o in out]
        want = ["end", "cqe", "open"] if cause in M.RESTART else ["end", "cqe", "pass", "cqe"]
        check(evs == want and out[0]["cause"] == cause, f"{cause}: {evs} {out[0].get('cause')}")
        check(out[1]["fields"]["lro_abrt"] == 2, f"{cause}: lro_abrt 10")
    check(M.RESTART == {"max_size", "ts_prev_absent", "ts_older", "ts_absent", "ecn"},
          "the (*) causes")


def has_open(x):
    if isinstance(x, dict):
        if "any_of" in x or ("in" in x and len(x["in"]) > 1):
            return True
        return any(has_open(v) for v in x.values())
    if isinstance(x, list):
        return any(has_open(v) for v in x)
    return False


def readings_of(x):
    if isinstance(x, dict):
        out = [x["reading"]] if "reading" in x else []
        return out + [r for v in x.values() for r in readings_of(v)]
    if isinstance(x, list):
        return [r for v in x for r in readings_of(v)]
    return []


CAUSES = set(M.ELIGIBILITY + M.MERGE_ONLY + ["no_resources", "timer", "wqe_space",
                                             "tir_change", "rq_state"])


def check_files():
    causes = set()
    total = 0
    names = set()
    for f in vector_files():
        d = json.load(open(os.path.join(OUT, f)))
        check(d["feature"] == "lro", f"{f}: feature {d['feature']} (the conformance row is lro)")
        tests = [t for g in d["testGroups"] for t in g["tests"]]
        total += len(tests)
        check(d["numberOfTests"] == len(tests), f"{f}: numberOfTests")
        ids = [t["tcId"] for t in tests]
        check(len(set(ids)) == len(ids), f"{f}: tcIds unique")
        for t in tests:
            where = f"{f}#{t['tcId']}"
            # one feature: a JUnit testcase is named "tcN comment" (GitLab keeps one of two)
            check((t["tcId"], t["comment"]) not in names, f"{where}: tcId and comment twice")
            names.add((t["tcId"], t["comment"]))
            for r in readings_of(t):
                check(0 < len(r) <= 80, f"{where}: reading of {len(r)} characters: {r}")
            check(t["cite"].startswith("PRM "), f"{where}: cite")
            check((t["result"] == "acceptable") == has_open(t["steps"]),
                  f"{where}: result {t['result']} against its expectations")
            ends, cq, mems = {}, [], {}
            for s in t["steps"]:
                for alt in ([s["events"]] if "events" in s and "expect" in s["events"] else
                            s.get("events", {}).get("any_of", [])):
                    for e in alt["expect"]:
                        if "cause" in e:
                            causes.add(e["cause"])
                        if e["event"] == "lro_end" and "events" in s and "expect" in s["events"]:
                            ends[e["wqe_counter"]] = e["byte_cnt"]
                if "cqes" in s and "expect" in s["cqes"]:
                    cq += s["cqes"]["expect"]
                if "mem_expect" in s and "addr" in s["mem_expect"]:
                    mems[int(s["mem_expect"]["addr"], 16)] = len(s["mem_expect"]["hex"]) // 2
            for c in cq:
                if c.get("lro_num_seg", 0) and c.get("layout") != "err_cqe":
                    w = c["wqe_counter"]
                    if w in ends:
                        check(ends[w] == c["byte_cnt"], f"{where}: lro_end byte_cnt vs CQE")
    missing = CAUSES - causes
    # llc_snap is listed only as one reading (the parser may not look behind SNAP)
    check(missing == set(), f"causes without a vector: {sorted(missing)}")
    check(total >= 100, f"only {total} vectors")


def check_capture():
    """examples/lro/stream.pcap opens in tshark, every frame TCP, none malformed (skipped
    without tshark)."""
    pcap = os.path.join(G.EXAMPLES, "stream.pcap")
    try:
        r = subprocess.run(["tshark", "-r", pcap, "-T", "fields", "-e", "frame.number",
                            "-e", "tcp.srcport", "-e", "_ws.malformed"],
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        print("test_gen_lro: tshark not run (not installed)")
        return
    rows = [ln.split("\t") for ln in r.stdout.splitlines() if ln.strip()]
    ev, _ = G.example()
    check(r.returncode == 0 and len(rows) == len(ev), f"tshark read {len(rows)} frames")
    for row in rows:
        check(len(row) >= 2 and row[1] != "" and (len(row) < 3 or row[2] == ""),
              f"stream.pcap frame {row[0]}: not a well-formed TCP segment for tshark")


def main():
    check_capture()
    check_parse()
    check_merged_checksum()
    check_hand()
    check_files()
    r = subprocess.run([sys.executable, os.path.join(HERE, "gen_lro.py"), "--check"])
    check(r.returncode == 0, "the files are not what gen_lro.py writes")
    for f in FAIL:
        print("test_gen_lro: FAIL", f, file=sys.stderr)
    if not FAIL:
        print("test_gen_lro: ok")
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())

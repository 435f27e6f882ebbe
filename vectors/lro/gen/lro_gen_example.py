"""The stream vectors and the example capture of `nicref lro explain` (examples/lro/).
Part of gen_lro.py (its docstring says how the expectations are derived)."""
from lro_common import *  # noqa: F401,F403
from lro_gen_session import *  # noqa: F401,F403,E402
from lro_gen_end import *  # noqa: F401,F403,E402
from lro_gen_cqe import *  # noqa: F401,F403,E402


# ---------------------------------------------------------------------------------------------
# The example capture (examples/lro/): a few flows whose sessions end for different reasons

def example():
    """Frames with their times (µs) and the TIR settings `nicref lro explain` is given. The
    flows follow one another 70 µs apart (more than 2N after the last session of the flow
    before opened), so which session ends first never depends on where in N..2N a timer fires
    (T147): everything but the moment a timer fires is the PRM's."""
    lro = {"enable_mask": 3, "timeout_usecs": 32, "max_msg_sz": 8}
    flows = [
        # 40001: three segments, then the timer
        [(0, seg(seq=1000 + i * 500, n=500, sport=40001)) for i in range(3)],
        # 40002: timestamps, then a lower TSval (ts_older, (*)): the next session, the timer
        [(0, seg(seq=7000 + i * 400, n=400, ts=(tv, 9), sport=40002))
         for i, tv in enumerate((50, 51, 49, 52))],
        # 40003: a gap (out_of_order, alone), PSH opens a session, FIN ends it (alone)
        [(0, seg(seq=100, n=300, sport=40003)), (0, seg(seq=400, n=300, sport=40003)),
         (0, seg(seq=2000, n=300, sport=40003)),
         (0, seg(seq=2300, n=300, flags="PA", sport=40003)),
         (0, seg(seq=2600, n=300, flags="FA", sport=40003))],
        # 40004, IPv6: 1000-byte segments; the third passes 2048 bytes (max_size, (*))
        [(0, seg(seq=5000 + i * 1000, n=1000, sport=40004, v6=True)) for i in range(3)],
        # 40005: ECE appears (ecn, (*)): the next session, the timer
        [(0, seg(seq=300 + i * 200, n=200, flags="AE" if i else "A", sport=40005))
         for i in range(3)],
        # 40001 again: a new session
        [(0, seg(seq=2500, n=500, sport=40001))],
    ]
    ev, t = [], 0
    for fl in flows:
        for k, (_, fr) in enumerate(fl):
            ev.append((t, fr))
            t += 2
        t += 70
    return ev, lro


def gen_stream():
    vf = VFile("stream.json", "lro", [
        "The example capture of examples/lro (stream.pcap) replayed at its times into a TIR "
        "with its LRO settings: five flows whose sessions end by the timer, a lower TSval, a "
        "gap, FIN, the size limit and ECN (PRM §3.3.6.2-§3.3.6.6); the same expectations as "
        "examples/lro/expected_explain.json, from vectors/lro/gen/lro_model.py."])
    ev, lro = example()
    g = group(vf, "one RQ, a Direct TIR with the example's LRO settings",
              Setup(tirs=[{"rq": 0, "lro": lro}]))
    ops, now = [], 0
    for t, fr in ev:
        if t > now:
            ops.append(("advance", (t - now) * US))
            now = t
        ops.append(("frame", fr))
    test(vf, g, "the example capture: every session, its end and its CQE",
         C_OPEN + ", " + C_END + ", " + C_MERGE + ", " + C_CQE, ops + [END])
    return vf


def gen_example():
    """The expected explanation, shaped as `nicref lro explain --json` prints it
    (docs/lro_explain.md): frames by their 1-based number in the capture."""
    ev, lro = example()
    setup = Setup(tirs=[{"rq": 0, "lro": lro}])
    d = setup.device()
    t0 = ev[0][0]
    frames_of = {}     # wqe -> [frame numbers]
    open_ns = {}
    sessions, alone = [], []
    ending = None      # (frame number or None, end ns)

    def take(outs, number, now):
        nonlocal ending
        for o in outs:
            if o["ev"] == "open":
                frames_of[o["wqe"]] = [number]
                open_ns[o["wqe"]] = now
            elif o["ev"] == "merge":
                frames_of[o["wqe"]].append(number)
            elif o["ev"] == "end":
                ending = (o, number)
            elif o["ev"] == "pass":
                alone.append({"frame": number, "cause": o["cause"]})
            elif o["ev"] == "cqe":
                f = {k: v for k, v in o["fields"].items() if k in EXPLAIN_CQE}
                if ending and ending[0]["wqe"] == o["wqe"]:
                    e, by = ending
                    sessions.append({"frames": frames_of.pop(o["wqe"]),
                                     "open_ns": open_ns.pop(o["wqe"]),
                                     "end_ns": e["t"],
                                     "end": {"cause": e["cause"], "by_frame": by},
                                     "cqe": f})
                    ending = None
                else:
                    alone[-1]["cqe"] = f
    for k, (t, fr) in enumerate(ev):
        take(d.advance((t - t0) * US - d.now), None, None)
        take(d.frame(fr), k + 1, d.now)
    take(d.advance(1000 * US), None, None)
    sessions.sort(key=lambda x: x["frames"][0])
    cmd = ("nicref lro explain --json --tir-lro enable_mask={enable_mask},timeout_usecs="
           "{timeout_usecs},max_msg_sz={max_msg_sz} stream.pcap").format(**lro)
    exp = {"capture": "stream.pcap", "command": cmd,
           "note": "written by vectors/lro/gen/gen_lro.py from its own model of PRM §3.3.6 "
                   "(lro_model.py), never from nicref: sessions in the order they opened, "
                   "frames by number (1-based), times from the first frame (a session ends N "
                   "µs after it opened, D-LRO-5; the capture has no frame inside N..2N of a "
                   "session), lro_abrt 2 for the 'exception or other' causes (T68 allows 3), "
                   "the checksum of a frame alone as D-RX-10",
           "tir": {"lro_enable_mask": lro["enable_mask"],
                   "lro_timeout_period_usecs": lro["timeout_usecs"],
                   "lro_max_msg_sz": lro["max_msg_sz"], "period_in_force_usecs": 32},
           "sessions": sessions, "alone": alone,
           "summary": {"frames": len(ev), "sessions": len(sessions),
                       "merged_frames": sum(len(x["frames"]) for x in sessions),
                       "alone": len(alone)}}
    pcap = pcap_bytes([(t * US, fr) for t, fr in ev])
    return {"stream.pcap": pcap, "expected_explain.json": dump(exp).encode(),
            "README.md": README.format(cmd=cmd, n=len(ev), **lro).encode()}


EXPLAIN_CQE = ("opcode", "byte_cnt", "checksum", "lro_num_seg", "lro_tcp_psh", "lro_abrt",
               "lro_dup_ack_cnt", "lro_min_ttl", "lro_tcp_win", "lro_ack_seq_num",
               "lro_timestamp_is_valid", "timestamp_h", "timestamp_l", "l4_hdr_type")

README = """# An example capture for `nicref lro explain`

`stream.pcap` holds {n} TCP segments of five flows from 10.0.0.1 / 2001:db8::1 to port 22136
(5678h), one flow after the other (70 µs apart, more than twice the timer period), whose LRO
sessions end for different reasons (ConnectX-4 PRM Rev 0.40 §3.3.6.3):

| flow (source port) | what happens |
|---|---|
| 40001 | three 500-byte segments merge; the timer ends the session; a later segment opens a new one |
| 40002 | timestamps; a lower TSval ends the session (`ts_older`, one of the (*) causes) and opens the next |
| 40003 | a gap in the sequence (`out_of_order`: the segment is delivered alone), then PSH opens a session that FIN ends (`tcp_flags`) |
| 40004 | IPv6, 1000-byte segments: the third would pass lro_max_msg_sz (`max_size`) and opens the next session |
| 40005 | the TCP ECE flag appears (`ecn`, a (*) cause): the segment opens the next session |

The TIR's LRO settings (T45 10h): lro_enable_mask {enable_mask}, lro_timeout_period_usecs
{timeout_usecs} (a supported period: N = 32 µs), lro_max_msg_sz {max_msg_sz} (2048 bytes of TCP
header and payload, mode 0); the device's defaults otherwise. So:

```sh
{cmd}
```

`expected_explain.json` is what an independent model of the PRM's LRO rules
(`vectors/lro/gen/lro_model.py`) says each session is: its frames by number (1-based), why and
by which frame it ended, and its CQE fields (T5, T68). `make lro-gen-check` regenerates the
three files from `vectors/lro/gen/gen_lro.py` and fails when they differ.
"""


def pcap_bytes(recs):
    """Classic pcap, nanosecond timestamps (magic a1b23c4d), link type 1, little-endian."""
    out = struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1)
    for ns, fr in recs:
        out += struct.pack("<IIII", ns // 10**9, ns % 10**9, len(fr), len(fr)) + fr
    return out

#!/usr/bin/env python3
"""A third reading of the shipped captures: Wireshark's InfiniBand dissector (tshark) must read
every RoCE frame's BTH, RETH and AETH as the model (rcmodel.py) does, so the model's parser is
not the only judge of what the generator wrote. Skipped, with a message, when tshark is not
installed. Usage: test_tshark.py (from anywhere)."""
import json
import os
import shutil
import subprocess
import sys

import rcmodel

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
FIELDS = ["frame.number", "infiniband.bth.opcode", "infiniband.bth.psn",
          "infiniband.bth.destqp", "infiniband.bth.padcnt", "infiniband.bth.tver",
          "infiniband.reth.va", "infiniband.reth.r_key", "infiniband.reth.dmalen",
          "infiniband.aeth.syndrome"]


def frames_of(path):
    """(link, bytes, wirelen) per frame, read back from the file the generator wrote."""
    import struct
    d = open(path, "rb").read()
    out = []
    if path.endswith(".pcapng"):
        off = 0
        while off + 12 <= len(d):
            btype, blen = struct.unpack_from("<II", d, off)
            if btype == 6:
                cap, wire = struct.unpack_from("<II", d, off + 20)
                out.append((1, d[off + 28:off + 28 + cap], wire))
            off += blen
        return out
    link = struct.unpack_from("<I", d, 20)[0]
    off = 24
    while off + 16 <= len(d):
        cap, wire = struct.unpack_from("<II", d, off + 8)
        out.append((link, d[off + 16:off + 16 + cap], wire))
        off += 16 + cap
    return out


def num(v):
    v = v.split(",")[0]
    return int(v, 16) if v.startswith("0x") else int(v)


def main():
    if not shutil.which("tshark"):
        print("roce captures: tshark not installed: the Wireshark cross-check is skipped")
        return 0
    with open(os.path.join(OUT, "expected.json"), encoding="utf-8") as f:
        caps = json.load(f)
    bad, seen = [], 0
    for name, want in sorted(caps.items()):
        path = os.path.join(OUT, want["file"])
        r = subprocess.run(["tshark", "-r", path, "-T", "fields", "-E", "separator=\t"] +
                           sum((["-e", x] for x in FIELDS), []),
                           capture_output=True, text=True, timeout=120)
        rows = [ln.split("\t") for ln in r.stdout.splitlines()]
        for (link, data, wire), row in zip(frames_of(path), rows):
            p = rcmodel.parse(link, data, wire)
            if "opcode" not in p or not p.get("whole") or not row[1]:
                continue
            seen += 1
            got = {"opcode": num(row[1]), "psn": num(row[2]), "dqp": num(row[3]),
                   "pad": num(row[4]), "tver": num(row[5])}
            if row[6] and "va" in p:
                got.update(va=num(row[6]), rkey=num(row[7]), dlen=num(row[8]))
            if row[9] and "syndrome" in p:
                got["syndrome"] = num(row[9])
            for k, v in got.items():
                if p.get(k) != v:
                    bad.append(f"{want['file']} frame {row[0]}: {k}: tshark {v}, model "
                               f"{p.get(k)}")
    for b in bad:
        print("roce captures: " + b)
    print(f"roce captures: tshark reads {seen} RoCE frames as the model does"
          + (f", {len(bad)} differences" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

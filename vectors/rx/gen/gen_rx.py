#!/usr/bin/python3
"""Independent generator of the receive-path golden vectors (vectors/rx/*.json).

    /usr/bin/python3 vectors/rx/gen/gen_rx.py [--check]

Writes rss.json, cqe.json, scatter.json, vport.json, steer_frames.json, loopback.json,
counters.json, events.json and the capture frames.pcap beside this folder; --check compares
instead of writing (exit 1 on a difference). Frames are built with Scapy; every expected CQE
field, host memory byte, drop and counter is derived here from ConnectX-4 PRM Rev 0.40
(T45-T47, T67/T68, T74, §3.3, §7.3, §7.10, §7.11, §7.12.1, §7.12.10, §11.1.3, §11.1.5) and the
decisions the project recorded on its ambiguities (docs/rx.md D-RX-*, docs/rss.md D-RSS-*,
docs/steer.md D-FT-*, docs/wq.md D-WQ-2/D-EV-1, docs/registers.md D-REG-9, D-TS-1), never
from nicref's output. The RSS hash is a Toeplitz of this file's own (Microsoft, "RSS Hashing Functions"), and nothing is written unless it reproduces
Microsoft's published verification values ("Verifying the RSS Hash Calculation").

Where a decision picks one reading of an ambiguity, the test is `acceptable` and lists each
reading (`any_of`), or uses a matcher that admits what the PRM leaves open.
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rx_common import *  # noqa: F401,F403,E402
from rx_rss import *  # noqa: F401,F403,E402
from rx_cqe import *  # noqa: F401,F403,E402
from rx_vport import *  # noqa: F401,F403,E402
from rx_events import *  # noqa: F401,F403,E402
from rx_steer import *  # noqa: F401,F403,E402
from rx_loopback import *  # noqa: F401,F403,E402


# ---------------------------------------------------------------------------------------------

def dump(doc):
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def pcap_bytes():
    hdr = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    out = hdr
    for k, fr in enumerate(PCAP_FRAMES):
        out += struct.pack("<IIII", k, 0, len(fr), len(fr)) + fr
    return out


def main(argv):
    check = "--check" in argv
    verify_toeplitz()
    files = {}
    for vf in (gen_rss(), gen_cqe(), gen_scatter(), gen_vport(), gen_steer(), gen_loopback(),
               gen_counters(), gen_events()):
        files[vf.name] = dump(vf.doc()).encode()
    files["frames.pcap"] = pcap_bytes()
    # the pcap's frames, read back by Scapy, are the frames written
    return write_or_check({os.path.join(OUT, n): d for n, d in files.items()}, check, "gen_rx")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""Independent generator of the LRO golden vectors (vectors/lro/*.json) and of the example
capture (examples/lro/).

    /usr/bin/python3 vectors/lro/gen/gen_lro.py [--check]

Writes session.json, merge.json, termination.json, timer.json, cqe.json, flush.json,
limits.json and stream.json beside this folder, and examples/lro/{stream.pcap,README.md,
expected_explain.json};
--check compares instead of writing (exit 1 on a difference). The TCP segments are built with
Scapy; which segments merge, why and when each session ends and every field of its CQE come
from lro_model.py, an independent model of ConnectX-4 PRM Rev 0.40 §3.3.6 (T5, T45, T68, T147)
and the decisions of issue 15 (D-LRO-1..10, docs/lro.md), never from nicref's output.

Where the PRM leaves a point open, the model is run under each reading (lro_model.READINGS)
and the test is `acceptable`, listing every reading's expectation (`any_of`); lro_abrt of the
"exception or other" causes is the matcher {"in": [2, 3]} (T68 "10,11").
"""
import json  # noqa: F401
import os
import struct  # noqa: F401
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lro_common import *  # noqa: F401,F403,E402
from lro_gen_session import *  # noqa: F401,F403,E402
from lro_gen_end import *  # noqa: F401,F403,E402
from lro_gen_cqe import *  # noqa: F401,F403,E402
from lro_gen_example import *  # noqa: F401,F403,E402


# ---------------------------------------------------------------------------------------------

def strip_private(vf):
    d = vf.doc()
    for g in d["testGroups"]:
        g.pop("_setup", None)
    return d


def main(argv):
    check = "--check" in argv
    files = {}
    for vf in (gen_session(), gen_merge(), gen_termination(), gen_timer(), gen_cqe(),
               gen_flush(), gen_limits(), gen_stream()):
        files[os.path.join(OUT, vf.name)] = dump(strip_private(vf)).encode()
    for name, data in gen_example().items():
        files[os.path.join(EXAMPLES, name)] = data
    return write_or_check(files, check, "gen_lro")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

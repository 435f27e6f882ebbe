#!/usr/bin/python3
"""Independent generator of the send-path golden vectors (vectors/tx/*.json).

    /usr/bin/python3 vectors/tx/gen/gen_tx.py [--check]

Writes sq_exec.json, send.json, csum.json, lso.json, umr.json, errors.json, inline_mode.json
and counters.json beside this folder; --check compares instead of writing (exit 1 on a
difference). Every expected frame is built with Scapy (pkt.py), every raw WQE and CQE field
from ConnectX-4 PRM Rev 0.40 tables (wqe.py, vecfmt.py); nothing comes from nicref's output.
Each test's comment says what is sent and why the expectation is the answer; `cite` names
the clause. Where the PRM allows more than one response the test lists every reading
(`any_of`, `in`) and is `acceptable`.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from txcommon import DERIVED, OUT  # noqa: E402,F401 (DERIVED: for test_gen_tx.py)
from tx_sq_exec import sq_exec  # noqa: E402
from tx_send import send_file  # noqa: E402
from tx_csum import csum_file  # noqa: E402
from tx_lso import lso_file  # noqa: E402
from tx_errors import errors_file  # noqa: E402
from tx_inline import inline_file  # noqa: E402
from tx_counters import counters_file  # noqa: E402
from tx_umr import umr_file  # noqa: E402


FILES = [sq_exec, send_file, csum_file, lso_file, errors_file, inline_file, counters_file, umr_file]


def main(argv):
    check = "--check" in argv
    bad = 0
    for make in FILES:
        vf = make()
        text = vf.dumps()
        path = os.path.join(OUT, vf.name)
        if check:
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
            if old != text:
                print(f"{path}: differs from the generator's output")
                bad = 1
        else:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            print(f"{path}: {vf.build()['numberOfTests']} tests")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

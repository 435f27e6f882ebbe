#!/usr/bin/python3
"""Independent generator of the RoCEv2 transport vectors (vectors/roce/*.json).

    /usr/bin/python3 vectors/roce/gen/gen_roce.py [--check]

Every expectation comes from roce_model.py (IBTA Vol. 1, its RoCEv2 Annex A17, the public mlx5
CQE/WQE constants, seed 004 by line), never from nicref's reference/ or harness/ code nor its
output. Frames sent to the device are built by Scapy with the ICRC computed by roce_model.icrc
(checked against a ConnectX-4 Lx capture and Scapy's own in test_gen_roce.py). The step language
is docs/vectors.md "RoCE"; event names and arguments are those of the issue's contract
(roce_tx, roce_nak, roce_retx, roce_cnp, roce_drop, qp_state).

Where the public material leaves a choice to the device (the ACK's credit field, the UDP
checksum and ECN bits of what it sends, when an unrequested ACK goes out, the CNP rate limit,
how a WRITE is resumed mid-message) the test is `acceptable` and says mechanically what it
admits (any_of with each reading, or a matcher).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from roce_common import OUT, write_or_check  # noqa: E402
from roce_responder import gen_responder  # noqa: E402
from roce_requester import gen_requester  # noqa: E402
from roce_ud import gen_ud  # noqa: E402
from roce_ecn import gen_ecn  # noqa: E402
from roce_pair import gen_pair  # noqa: E402
import roce_reasons  # noqa: E402
import roce_f4  # noqa: E402
import roce_f6  # noqa: E402
import roce_r2  # noqa: E402
import roce_r3  # noqa: E402
import roce_r4  # noqa: E402
import roce_g31  # noqa: E402


def main(argv):
    check = "--check" in argv
    files = {}
    for gen in (gen_responder, gen_requester, gen_ud, gen_ecn, gen_pair):
        v = gen()
        roce_reasons.extend(v)
        roce_f4.extend(v)
        roce_f6.extend(v)
        roce_r2.extend(v)
        roce_r3.extend(v)
        roce_r4.extend(v)
        roce_g31.extend(v)
        files[os.path.join(OUT, v.name + ".json")] = \
            (json.dumps(v.doc(), indent=1, ensure_ascii=False) + "\n").encode()
    return write_or_check(files, check, "gen_roce")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""Writes the captures of corpora/captures/ (captures with the traits of real RoCE captures) and
their expected `nicref adp check` outcomes (corpora/captures/expected.json).

Run from anywhere:  /usr/bin/python3 corpora/captures/gen_captures.py [OUTDIR]
(OUTDIR defaults to this file's directory). Debian python3-scapy builds the frames; the pcap and
pcapng containers are written here with struct, so every byte (timestamps, snapshot lengths,
interface blocks) is this file's choice. Fixed seeds: the output is the same byte for byte on
every run.

Every expected value in expected.json is written from what this file put into the capture
(which frame has which class, which request is a retransmission, which QP acknowledges which),
from the public formats only: Ethernet/802.1Q, IPv4/IPv6, UDP 4791, IBTA Vol. 1 BTH (9.2),
AETH (9.3.5), RETH, DETH, GRH (RoCEv1: EtherType 0x8915), CNP (opcode 0x81, RoCEv2 Annex A17),
the IB CM MADs on QP1 (IBTA Vol. 1 chapter 12: REQ 0x0010, REP 0x0013, RTU 0x0014, DREQ 0x0015,
DREP 0x0016), pcap, pcapng, Linux cooked SLL/SLL2 and ERF, and the classic InfiniBand local ACK
timer (a retransmission exactly 4.096 us x 2^timeout after the previous transmission of its
PSN). It never runs nicref. See README.md for what each capture holds and why.
"""
import json
import os
import sys

from cap_frames import HERE, REL
from cap_files import Out
from cap_scen_rc import gen_rc16, gen_rc16_cm
from cap_scen_mixed import gen_mixed_transports, gen_mixed_versions
from cap_scen_time import gen_inversions, gen_snaplens
from cap_scen_links import gen_erf, gen_pcapng, gen_sll
from cap_scen_bad import gen_malformed


def main():
    outdir = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else HERE
    os.makedirs(outdir, exist_ok=True)
    out = Out(outdir)
    gen_rc16(out)
    gen_rc16_cm(out)
    gen_mixed_versions(out)
    gen_mixed_transports(out)
    gen_inversions(out)
    gen_snaplens(out)
    gen_pcapng(out)
    gen_sll(out)
    gen_erf(out)
    gen_malformed(out)
    with open(out.path("expected.json"), "w") as fh:
        json.dump({"generator": REL + "gen_captures.py", "version": 1, "captures": out.cases},
                  fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()

"""lso.json: Large Send Offload.

Part of the independent send-path generator (gen_tx.py): nothing here comes from nicref's
output."""
import pkt
from pkt import HOP4A, IPOption_NOP, IPOption_RR, IPv6ExtHdrDestOpt, IPv6ExtHdrHopByHop
from vecfmt import Sq, VFile, cqe_err, cqe_ok, tx_setup
from txcommon import (CL_LSO, C_LSO, C_PAD, C_VLAN, DERIVED, NOTES, SETUP, SYN_LEN, SYN_QP_OP,
                      S_LSO, post, send)
from tx_csum import tcp4, tcp6, udp4


def lso_file():
    f = VFile("lso.json", "tx_lso", [
        "Large Send Offload (ConnectX-4 PRM Rev 0.40 §3.3.2, T28 mss; NDIS LSOv2): the header "
        "template in the inline headers, the TCP payload cut into segments of mss bytes (the last "
        "shorter), per segment the IPv4 total length and identification (template id + segment "
        "number, mod 2^16) or IPv6 payload length, the TCP sequence number, PSH/FIN on the last "
        "segment only, the IPv4 and TCP checksums; the last segment padded to the minimum frame "
        "(§3.3.8); one CQE for the WQE.",
        "Every posted template carries 0xBEEF checksums and the total/payload length of the whole "
        "message; expected segments are computed by Scapy and checked by hand "
        "(vectors/tx/gen/test_gen_tx.py). max_lso_cap is 16 (64 KB) on this device.",
    ], NOTES)
    g = f.group("one SQ", SETUP + [tx_setup()])

    def case(comment, frame, hdr, mss, kinds=("ptr",), sizes=None, result="valid", flags=(),
             cwr=False, cite=C_LSO):
        posted = pkt.corrupt_csums(frame)
        t = g.test(comment, cite, result, list(flags))
        sq = Sq()
        w = send(posted, ihs=hdr, kinds=kinds, sizes=sizes, opcode="LSO",
                 eth_f={"l3cs": 1, "l4cs": 1, "mss": mss})
        i = post(t, sq, w)
        for r in (("first", "all") if cwr else ("first",)):
            DERIVED.append(("lso", posted, hdr, mss, r, pkt.lso(posted, hdr, mss, r)))
        if cwr:
            t.frames([], readings=[("CWR on the first segment only", pkt.lso(posted, hdr, mss, "first")),
                                    ("CWR on every segment", pkt.lso(posted, hdr, mss, "all"))])
        else:
            t.frames(pkt.lso(posted, hdr, mss))
        t.cqes([cqe_ok(i, S_LSO)])
        return t

    case("IPv4/TCP LSO, 500 bytes with mss 1000: one segment (the message fits)", tcp4(n=500, flags="PA"), 54, 1000)
    case("IPv4/TCP LSO, exactly mss (1000) bytes: one segment", tcp4(n=1000, seed=1, flags="PA"), 54, 1000)
    case("IPv4/TCP LSO, 2000 bytes with mss 1000: two full segments", tcp4(n=2000, seed=2, flags="PA"), 54, 1000)
    case("IPv4/TCP LSO, 2500 bytes with mss 1000: three segments, the last of 500 (payload not a "
         "multiple of mss)", tcp4(n=2500, seed=3, flags="PA"), 54, 1000)
    case("IPv4/TCP LSO of 64 KB (max_lso_cap 16) with mss 1460: 45 segments, the last of 1296",
         tcp4(n=65536, seed=4, flags="PA"), 54, 1460)
    case("IPv4/TCP LSO whose last segment carries 1 byte: 55 bytes, padded to the minimum frame",
         tcp4(n=1001, seed=5, flags="PA"), 54, 1000, result="acceptable", flags=["Padding"], cite=C_LSO + "; " + C_PAD)
    case("IPv4/TCP LSO with the template's IPv4 id 0xFFFE: the ids of three segments are 0xFFFE, "
         "0xFFFF, 0x0000 (wrap)", tcp4(n=2100, seed=6, ipid=0xFFFE), 54, 700)
    case("IPv4/TCP LSO with FIN and PSH in the template: only the last segment carries them (NDIS "
         "LSOv2)", tcp4(n=2100, seed=7, flags="FPA"), 54, 700)
    case("IPv4/TCP LSO with CWR and ECE in the template: ECE on every segment; CWR on the first "
         "only or on every one", tcp4(n=2100, seed=8, flags="CEA"), 54, 700, result="acceptable",
         flags=["LsoFlags"], cwr=True)
    case("802.1Q-tagged IPv4/TCP LSO (18-byte L2 template, §3.3.7): every segment tagged",
         tcp4(n=3000, seed=9, vlan=(5, 300)), 58, 1200, cite=C_LSO + "; " + C_VLAN)
    case("IPv4 with options (NOP, RR)/TCP with timestamps LSO: options copied to every segment",
         tcp4(n=3000, seed=10, ipopts=[IPOption_NOP(), IPOption_RR(routers=[HOP4A])],
              tcpopts=[("NOP", None), ("NOP", None), ("Timestamp", (7, 8))]), 14 + 28 + 32, 1000)
    case("IPv6/TCP LSO, 3000 bytes with mss 1200: payload length per segment, no identification",
         tcp6(n=3000, seed=11, flags="PA"), 74, 1200)
    case("IPv6 with hop-by-hop and destination options/TCP LSO: the extension headers copied to "
         "every segment", tcp6(n=2000, seed=12, ext=[IPv6ExtHdrHopByHop(), IPv6ExtHdrDestOpt()]), 14 + 40 + 16 + 20, 900)
    case("IPv6/TCP LSO of 20 segments (mss 500, 10000 bytes)", tcp6(n=10000, seed=13), 74, 500)
    case("IPv4/TCP LSO with the payload in three data segments whose boundaries fall inside "
         "segments (pointer 700, inline 300, pointer 1500; mss 1000)", tcp4(n=2500, seed=14),
         54, 1000, kinds=("ptr", "inline", "ptr"), sizes=[700, 300])

    # open cases (LsoLimit)
    for comment, frame, hdr, mss in (
            ("LSO with mss 0 (T28: mss is 'the number of bytes in the TCP payload to be "
             "transmitted in each packet')", tcp4(n=300, seed=15), 54, 0),
            ("LSO of a UDP packet (§3.3.2 'Large Send Offload on transmitted TCP packets')", udp4(n=3000, seed=16), 42, 1000),
            ("LSO of 65537 bytes, one more than max_lso_cap 16 allows", tcp4(n=65537, seed=17), 54, 1460)):
        posted = pkt.corrupt_csums(frame)
        t = g.test(comment + ": refused (error CQE, no frame) or sent", C_LSO + "; T147 max_lso_cap",
                   "acceptable", ["LsoLimit"])
        sq = Sq()
        i = post(t, sq, send(posted, ihs=hdr, opcode="LSO", eth_f={"l3cs": 1, "l4cs": 1, "mss": mss}))
        if mss == 0:
            sent = [pkt.offload(posted, 1, 1)]
        elif frame[23] == 17:
            sent = [pkt.offload(posted, 1, 1)]
        else:
            sent = pkt.lso(posted, hdr, mss)
        t.frames([], readings=[("refused", []), ("sent", sent)])
        t.cqes_any([("refused", [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP]}, S_LSO)]),
                    ("sent", [cqe_ok(i, S_LSO)])])
        t.maybe_violation("an LSO WQE outside §3.3.2", CL_LSO)
    return f

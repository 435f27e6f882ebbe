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
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(OUT), "gen"))

import roce_model as M  # noqa: E402
from roce_drops import ev_drop  # noqa: E402
from scapy.contrib.roce import GRH  # noqa: E402
from genfiles import VFileBase, write_or_check  # noqa: E402

# ---- the fixed world of the step language (docs/vectors.md "RoCE") ---------------------------
LMAC, PMAC = "02:4e:49:43:52:46", "02:4e:49:43:52:50"
LIP4, PIP4 = "192.0.2.1", "192.0.2.2"
LIP6, PIP6 = "2001:db8::1", "2001:db8::2"
PEER_QPN = 0x100
QPN0 = 2                 # D-QP-3: QPNs lowest free from 2 (QP0/QP1 reserved, seed 004 L42-44)
RKEY = 0x13C             # the data MKey: mkey_index 1 << 8 | 0x3C (D-OBJ-2)
DATA = 0x70000000        # the data region (1 MiB); VA = PA (physical-address MKey)
RQ_OFF = [0x1000 * (i + 1) for i in range(8)]      # receive buffers of the tests
WR_OFF = 0x20000         # remote WRITE / READ targets
RCQ = 0x62000000 + 0x80000   # QP 0's receive CQ buffer (CQE n at 64 n)
SCQ = 0x62000000             # QP 0's send CQ buffer
MTU = {1: 256, 2: 512, 3: 1024, 4: 2048, 5: 4096}
UDP_SPORT0 = 0xC000      # the runner's primary path udp_sport for QP 0
QKEY = 0x11111111

# ---- citations -------------------------------------------------------------------------------
C = {
    "icrc": "IBTA Vol. 1 Annex A17 RoCEv2 §A17.3.3 (ICRC masking), IBTA Vol. 1 §7.8.1",
    "icrc_bad": "IBTA Vol. 1 §9.6.1 (a packet whose ICRC fails is silently dropped); "
                "Annex A17 §A17.3.3; seed 004 L85 (RX ICRC check)",
    "class": "IBTA Vol. 1 Annex A17 RoCEv2 §A17.2 (UDP destination port 4791, the GRH as IP)",
    "pkey": "IBTA Vol. 1 §9.6.1.1 and §10.9.3 (P_Key match: low 15 bits, one full member); "
            "seed 004 L95",
    "destqp": "IBTA Vol. 1 §9.6.1.2 (an unknown destination QP: silently dropped); seed 004 L96",
    "tver": "IBTA Vol. 1 §9.6.1.1 (BTH TVer other than 0: silently dropped)",
    "send": "IBTA Vol. 1 §9.7.4 (responder: SEND consumes a receive WQE), §9.7.5.1 (ACK); "
            "seed 004 L103-106; mlx5 device.h MLX5_CQE_RESP_SEND",
    "send_imm": "IBTA Vol. 1 §9.3.5 (ImmDt), §9.7.4; mlx5 device.h MLX5_CQE_RESP_SEND_IMM",
    "multi": "IBTA Vol. 1 §9.4.1 (FIRST/MIDDLE/LAST, FIRST and MIDDLE carry the path MTU)",
    "write": "IBTA Vol. 1 §9.4.2 (RDMA WRITE: RETH on FIRST/ONLY), §9.7.4; seed 004 L106",
    "write_imm": "IBTA Vol. 1 §9.4.2 (WRITE with immediate consumes a receive WQE); mlx5 "
                 "device.h MLX5_CQE_RESP_WR_IMM",
    "rkey": "IBTA Vol. 1 §9.7.4.1.5 (R_Key, range and access checks), §9.7.5.2.4 "
            "(NAK Remote Access Error, AETH 0x62); seed 004 L98, L122-124",
    "rwe": "IBTA Vol. 1 §9.7.4.1.3 (an operation the QP does not enable); rdma-core/Linux rxe "
           "check_op_valid",
    "read": "IBTA Vol. 1 §9.4.3 (RDMA READ responses FIRST/MIDDLE/LAST/ONLY, PSNs from the "
            "request's), §9.7.5.1.5",
    "psn_dup": "IBTA Vol. 1 §9.7.4.1.1 and §9.7.5.1.2 (a duplicate request is acknowledged "
               "again and not executed twice)",
    "psn_seq": "IBTA Vol. 1 §9.7.4.1.1 (PSN ahead of ePSN: NAK-PSN Sequence Error carrying "
               "the ePSN, AETH 0x60), §9.7.5.2.1 (one NAK until the ePSN arrives); seed 004 L101",
    "psn_wrap": "IBTA Vol. 1 §9.7.1 (PSNs are 24 bits and wrap)",
    "opseq": "IBTA Vol. 1 §9.7.4.1.2 (opcode sequence: NAK-Invalid Request, AETH 0x61); "
             "seed 004 L93",
    "len": "IBTA Vol. 1 §9.7.4.1.4 (length checks: FIRST/MIDDLE exactly the MTU, LAST/ONLY at "
           "most the MTU; NAK-Invalid Request); seed 004 L94",
    "len_rq": "IBTA Vol. 1 §9.7.4.1.4 (a SEND longer than the receive WQE: NAK-Invalid Request "
              "and the receive WQE completes in error, Local Length Error); mlx5 device.h "
              "MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR 0x1; seed 004 L94",
    "rnr": "IBTA Vol. 1 §9.7.5.2.8 (no receive WQE: RNR NAK carrying the QP's minimum RNR "
           "timer, Table 45); seed 004 L97",
    "ack_req": "IBTA Vol. 1 §9.7.5.1.1 (a packet with AckReq set is acknowledged); seed 004 "
               "L105 (ack_req=1: ACK at once, otherwise implicit ACK)",
    "ack_coal": "IBTA Vol. 1 §9.7.5.1.1 (the responder may coalesce ACKs; an ACK acknowledges "
                "every request up to its PSN); seed 004 L105 (implicit ACK)",
    "msn": "IBTA Vol. 1 §9.7.5.1.4 (the MSN counts completed messages from 0)",
    "s004_order": "seed 004 L89-101 (RC_CHK table order: OPCODE, Length, PKEY, DestQP, RQ, "
                  "WRITE MRT, CQ, Bresp, PSN last)",
    "ibta_order": "IBTA Vol. 1 §9.7.4.1 (the PSN is validated before the opcode sequence and "
                  "the request itself)",
    "s004_ops": "seed 004 L33-37 (RC: Send / Receive / Write), L93 (other opcodes: "
                "Fatal.invalid req)",
    "req_pkt": "IBTA Vol. 1 §9.4.1-§9.4.2 (packetisation by path MTU: FIRST/MIDDLE/LAST/ONLY, "
               "RETH on the first), §9.7.1 (consecutive PSNs from next_send_psn)",
    "req_ack": "IBTA Vol. 1 §9.7.5.1.6 (an ACK completes every request up to its PSN, in "
               "order); mlx5 device.h MLX5_CQE_REQ",
    "req_nak_seq": "IBTA Vol. 1 §9.7.5.2.1, §9.7.6.1.3 (NAK-PSN Sequence Error: resend from "
                   "the NAK's PSN, Go-Back-N)",
    "req_nak_fatal": "IBTA Vol. 1 §9.7.5.2.2-§9.7.5.2.5, §10.8.3 (a NAK Invalid Request / "
                     "Remote Access / Remote Operational error completes the WQE in error and "
                     "the QP goes to Error, later WQEs flushed); mlx5 device.h "
                     "MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR 0x12, REMOTE_ACCESS_ERR 0x13, "
                     "REMOTE_OP_ERR 0x14, WR_FLUSH_ERR 0x5",
    "req_rnr": "IBTA Vol. 1 §9.7.5.2.8 (RNR NAK: wait the NAK's timer, Table 45, then resend; "
               "rnr_retry 7 is infinite), §9.7.6.1.4 (rnr_retry exhausted: RNR retry exceeded); "
               "mlx5 MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR 0x16",
    "req_to": "IBTA Vol. 1 §9.7.6.1.1 (local ACK timeout 4.096 us x 2^timeout; C9-141: the "
              "timer expires no sooner than that and no later than four times that), "
              "§9.7.6.1.3 (resend from the oldest unacknowledged PSN)",
    "req_to_exc": "IBTA Vol. 1 §9.7.6.1.2 (retry_cnt exhausted: Transport Retry Counter "
                  "Exceeded, QP to Error); mlx5 MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR 0x15",
    "req_read": "IBTA Vol. 1 §9.4.3 (RDMA READ request with RETH, the responses placed through "
                "the WQE's scatter list), §9.7.5.1.5",
    "req_ghost": "IBTA Vol. 1 §9.7.5.1.6 (an ACK whose PSN is older than every outstanding "
                 "request is a duplicate/ghost ACK and is ignored)",
    "s004_window": "seed 004 L126-133 (OSQ_PER_QP = 16 outstanding requests per QP), L107 "
                   "(an ACK frees a slot)",
    "s004_cnp": "seed 004 L135-143 (a CNP cuts the outstanding from 16 to 8, interrupt, restore "
                "after CNP_TIMER_THRD)",
    "cnp_np": "IBTA Vol. 1 Annex A17 RoCEv2 §A17.9.2-§A17.9.3 (a CE-marked packet makes the "
              "notification point send a CNP, opcode 0x81, to the source QP); seed 004 L137",
    "ud_recv": "IBTA Vol. 1 §9.8 (UD SEND with DETH), §11.4.1.2 and Annex A17 §A17.4.5.2 (the "
               "40-byte GRH area of a UD receive buffer: an IPv4 header in its last 20 bytes)",
    "ud_qkey": "IBTA Vol. 1 §9.6.1.4 / §10.2.5 (a DETH Q_Key unequal to the QP's: silently "
               "dropped)",
    "ud_qkey31": "IBTA Vol. 1 §10.2.5 (C10-15: a work request Q_Key with its high-order bit set "
                 "is replaced by the QP's Q_Key in the DETH)",
    "ud_send": "IBTA Vol. 1 §9.8, §9.3.4 (UD SEND ONLY with DETH: the Q_Key and the source QP)",
    "pair": "IBTA Vol. 1 §9.7 (RC: reliable, in-order, exactly-once delivery)",
}

# the schema wants a project document named in every cite; RoCE is beyond the PRM
CITE_OK = re.compile(r"(PRM|seed|00[0-4]|ADP|DLL|UV) ")

# ---- event names of the contract (ISSUE 17 stage 2) -----------------------------------------
EV_TX, EV_NAK, EV_RETX, EV_CNP, EV_DROP = "roce_tx", "roce_nak", "roce_retx", "roce_cnp", \
    "roce_drop"


def ev_tx(opcode, psn=None, dest_qp=PEER_QPN, **kw):
    e = {"event": EV_TX, "opcode": M.CODE[opcode] if isinstance(opcode, str) else opcode}
    if psn is not None:
        e["psn"] = psn
    if dest_qp is not None:
        e["dest_qp"] = dest_qp
    e.update(kw)
    return e


def ev_nak(psn, syndrome):
    return {"event": EV_NAK, "psn": psn, "syndrome": syndrome}


def events(expect, exact=False, dev=None):
    s = {"events": {"expect": expect, "exact": exact}}
    if dev:
        s["dev"] = dev
    return s


def only_tx(expect):
    """Exactly these RoCE packets went out since the last events step, none other (other
    kinds of event are let through: every roce_tx is listed in order)."""
    return events(expect, exact=False)


def no_frames(dev=None):
    s = {"frames": {"expect": [], "exact": True}}
    if dev:
        s["dev"] = dev
    return s


def mem(addr, data, dev=None):
    s = {"mem_expect": {"addr": hex(addr), "hex": data.hex()}}
    if dev:
        s["dev"] = dev
    return s


def cqes(cq, expect, qp=0, dev=None, exact=True):
    s = {"cqes": {"qp": qp, "cq": cq, "expect": expect, "exact": exact}}
    if dev:
        s["dev"] = dev
    return s


def rx(fr):
    return {"rx_frame": {"port": 1, "hex": fr.hex()}}


def recv(offsets=(RQ_OFF[0],), byte_count=256, qp=0):
    return [{"qp_recv": {"qp": qp, "entries": [{"offset": hex(o), "byte_count": byte_count}]}}
            for o in offsets]


def pattern(n, seed=0):
    return bytes((seed * 7 + i * 13 + 5) & 0xFF for i in range(n))


# ---- the peer the vector plays ---------------------------------------------------------------
class Peer:
    """The far end of a one-device vector: builds the frames it sends to the device (to QP
    QPN0 at the device's GID) with its own PSNs."""

    def __init__(self, v6=False, ecn=0):
        if v6:
            self.path = M.Path(PMAC, LMAC, PIP6, LIP6, ecn=ecn, ttl=64, sport=0xD000)
        else:
            self.path = M.Path(PMAC, LMAC, PIP4, LIP4, ecn=ecn, ttl=64, sport=0xD000,
                               ip_id=0x1234)

    def pkt(self, op, psn, payload=b"", hdrs=b"", dest_qp=QPN0, ackreq=1, icrc_ok=True, **kw):
        """Over IPv6 the UDP checksum is computed (RFC 8200 §8.1 forbids 0 for plain UDP; the
        ICRC masks it, so the ICRC is the same); over IPv4 it is 0 (Annex A17 allows it)."""
        fr = M.frame(self.path, op, dest_qp, psn, payload, hdrs, ackreq=ackreq, **kw)
        if self.path.v6:
            fr = with_udp_csum(fr)
        if not icrc_ok:
            fr = fr[:-4] + bytes(x ^ 0xFF for x in fr[-4:])
        return fr

    def send(self, psn, payload, op="RC_SEND_ONLY", imm=None, **kw):
        h = M.immdt(imm) if imm is not None else b""
        return self.pkt(op, psn, payload, h, **kw)

    def write(self, psn, payload, va, rkey=RKEY, dma_len=None, op="RC_WRITE_ONLY", imm=None,
              **kw):
        h = M.reth(va, rkey, len(payload) if dma_len is None else dma_len)
        if imm is not None:
            h += M.immdt(imm)
        return self.pkt(op, psn, payload, h, **kw)

    def ack(self, psn, msn, syndrome=M.NO_CREDIT, **kw):
        return self.pkt("RC_ACK", psn, b"", M.aeth(syndrome, msn), ackreq=0, **kw)

    def read_resp(self, op, psn, payload, msn=1, **kw):
        h = M.aeth(M.NO_CREDIT, msn) if "MIDDLE" not in op else b""
        return self.pkt(op, psn, payload, h, ackreq=0, **kw)


def device_frames(path_out, op, dest_qp, psn, payload=b"", hdrs=b"", **bth):
    """Every byte sequence the device may send for one packet: UDP checksum 0 or the real one
    (Annex A17 §A17.4.3 lets the sender give 0), ECN 00 or ECT(0) 10 (a device that runs
    DCQCN marks its packets ECN-capable, Annex A17 §A17.9.1)."""
    out = []
    for ecn in (0, 2):
        p = M.Path(path_out.smac, path_out.dmac, path_out.sip, path_out.dip, dscp=0, ecn=ecn,
                   ttl=64, sport=path_out.sport, flow=0)
        base = M.frame(p, op, dest_qp, psn, payload, hdrs, **bth)
        out.append(("ecn %d, UDP checksum 0" % ecn, base))
        out.append(("ecn %d, UDP checksum computed" % ecn, with_udp_csum(base)))
    return out


def other_port(fr, dport):
    """The same frame with another UDP destination port, its ICRC recomputed."""
    b = bytearray(fr)
    ihl = 40 if b[12:14] == b"\x86\xdd" else (b[14] & 0xF) * 4
    b[14 + ihl + 2:14 + ihl + 4] = dport.to_bytes(2, "big")
    return bytes(b[:-4]) + M.icrc(bytes(b[14:-4]), b[12:14] == b"\x86\xdd")


def with_udp_csum(fr):
    """The same IPv6 frame with its UDP checksum computed (RFC 8200 §8.1 pseudo-header)."""
    from scapy.layers.l2 import Ether
    from scapy.layers.inet import UDP
    p = Ether(fr)
    p[UDP].chksum = None
    b = bytearray(bytes(p))
    return bytes(b[:-4]) + M.icrc(bytes(b[14:-4]), True)


# ---- files -----------------------------------------------------------------------------------
NOTES = {
    "Handles": {"bugType": "PROFILE", "description":
                "Frames the vector sends name the device's own numbers: the first QP is QPN 2 "
                "(QPNs lowest free from 2, QP0/QP1 reserved: seed 004 L42-44, D-QP-3) and the "
                "data MKey's key is 0x13C (mkey_index 1 << 8 | 0x3C, D-OBJ-2 and the RoCE "
                "qp_setup of docs/vectors.md). A device numbering otherwise needs them "
                "substituted."},
    "BadIcrc": {"bugType": "CONFORMANCE", "description":
                "The frame's ICRC is wrong on purpose (every other byte right): the packet is "
                "dropped silently, nothing placed, nothing sent."},
    "Acceptable": {"bugType": "AMBIGUOUS_SPEC", "description":
                   "The public material leaves part of the response to the device (the ACK "
                   "credit field, the UDP checksum or ECN bits of a packet it builds, whether an "
                   "unrequested ACK goes out now, how often a CNP may be sent, the check order "
                   "between two failing checks): the test lists each reading (any_of) or admits "
                   "each value (a matcher)."},
    "Seed004": {"bugType": "PROFILE", "description":
                "The seed-004 engine profile (roce_profile 1, D-ROCE profiles in docs/roce.md, "
                "seed 004 L88-143): its operation set, RC_CHK order, 16 outstanding requests "
                "and its CNP window rule; the ConnectX-like profile's reading is pinned by the "
                "test of the same comment without this flag."},
}


class VFile(VFileBase):
    def test(self, g, comment, cite, steps, result="valid", flags=()):
        self.n += 1
        if not CITE_OK.search(cite):
            cite += "; beyond PRM Rev 0.40"
        fl = list(flags)
        for f in fl:
            self.notes[f] = NOTES[f]
        g["tests"].append({"tcId": self.n, "comment": comment, "cite": cite, "flags": fl,
                           "result": result, "steps": steps})


def header(what):
    return [what,
            "Generated by vectors/roce/gen/gen_roce.py from IBTA Vol. 1, its RoCEv2 Annex A17, "
            "the public mlx5 constants and seed 004 only (frames and ICRCs by Scapy and the "
            "generator's own ICRC, never by nicref); do not edit by hand."]


def setup1(**qp):
    q = {"type": "RC"}
    q.update(qp)
    return [{"bring_up": {"to": "initialized"}}, {"qp_setup": q}]


def setup2(**qp):
    q = {"type": "RC"}
    q.update(qp)
    return [{"bring_up": {"to": "initialized"}, "dev": "a"},
            {"bring_up": {"to": "initialized"}, "dev": "b"}, {"qp_setup": q}]


# ---- what the device sends (whole frames, every reading the public material allows) ---------
CREDIT = [0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024,
          1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768]


def credit_code(n):
    """[IBTA] §9.7.7.2 Table 42: the largest code whose credit count is at most n."""
    return max(i for i, v in enumerate(CREDIT) if v <= n)


def dev_path(v6, qp=0):
    if v6:
        return M.Path(LMAC, PMAC, LIP6, PIP6, sport=UDP_SPORT0 + qp)
    return M.Path(LMAC, PMAC, LIP4, PIP4, sport=UDP_SPORT0 + qp)


class Out:
    """One packet the device sends: opcode, PSN, headers (a function of the credit reading for
    an AETH that is an ACK), payload."""

    def __init__(self, op, psn, payload=b"", dest_qp=PEER_QPN, aeth=None, reth=None, imm=None,
                 deth=None, ackreq=None):
        self.op, self.psn, self.payload, self.dest_qp = op, psn, payload, dest_qp
        self.aeth, self.reth, self.imm, self.deth, self.ackreq = aeth, reth, imm, deth, ackreq

    def hdrs(self, credits):
        h = b""
        if self.deth:
            h += M.deth(*self.deth)
        if self.reth:
            h += M.reth(*self.reth)
        if self.aeth:
            kind, low, msn = self.aeth
            if kind == M.AETH_ACK:
                low = credit_code(low) if credits else M.NO_CREDIT
            h += M.aeth(kind | low, msn)
        if self.imm is not None:
            h += M.immdt(self.imm)
        return h


def ack(psn, msn, wqes_left=0):
    return Out("RC_ACK", psn, aeth=(M.AETH_ACK, wqes_left, msn))


def nak(psn, msn, code, kind=M.AETH_NAK):
    return Out("RC_ACK", psn, aeth=(kind, code, msn))


# the device's choices for every packet it builds: ECN 00 / ECT(0); the BTH MigReq bit 0 / 1
# (IBTA §9.2: 1 while the QP's path migration state is Migrated, which a QP without APM is in;
# devices differ in practice); the UDP checksum 0 / computed
ECN_MIG_CSUM = [(e, m, c) for e in (0, 2) for m in (0, 1) for c in (False, True)]


def sent(outs, v6=True, qp=0, dev=None, nothing_else=True, dscp=0, ttl=64):
    """A frames step: the device sent exactly these packets, under each reading of what the
    public material leaves to it: ECN 00 or ECT(0) (Annex A17 §A17.9.1: a DCQCN device marks
    its packets ECN-capable), the BTH MigReq bit, the UDP checksum 0 or computed (Annex A17
    §A17.4.3 lets a sender give 0), an ACK's credit field the Table 42 code or 0x1F, the AckReq
    bit of a request where the test does not fix it (§9.7.2: the requester decides)."""
    alts = []
    credit_modes = (True, False) if any(o.aeth and o.aeth[0] == M.AETH_ACK for o in outs) \
        else (False,)
    ackreq_modes = ("last", "all") if any(o.ackreq == "open" for o in outs) else (None,)
    for credits in credit_modes:
        for am in ackreq_modes:
            for ecn, mig, csum in ECN_MIG_CSUM:
                if True:
                    frs = []
                    for o in outs:
                        pth = dev_path(v6, qp)
                        pth.ecn, pth.dscp, pth.ttl = ecn, dscp, ttl
                        a = o.ackreq
                        if a == "open":
                            a = 1 if am == "all" else 0
                        elif a == "open_last":
                            a = 1
                        fr = M.frame(pth, o.op, o.dest_qp, o.psn, o.payload, o.hdrs(credits),
                                     ackreq=a or 0, m=mig)
                        if csum and v6:
                            fr = with_udp_csum(fr)
                        frs.append({"port": 1, "hex": fr.hex()})
                    if csum and not v6:
                        continue
                    r = [f"ECN {ecn:02b}", f"M {mig}", "UDP csum" if csum else "UDP csum 0"]
                    if any(o.aeth and o.aeth[0] == M.AETH_ACK for o in outs):
                        r.append("credits" if credits else "credit 1f")
                    if am:
                        r.append("AckReq all" if am == "all" else "AckReq last")
                    alts.append({"reading": ", ".join(r), "expect": frs,
                                 "exact": nothing_else})
    s = {"frames": {"any_of": alts}}
    if dev:
        s["dev"] = dev
    return s


# ---- responder (one device; the vector is the requester) ------------------------------------
def gen_responder():
    f = VFile("rc_responder", "roce_rc_responder", header(
        "RoCEv2 RC responder on one device: the vector sends request frames (built by Scapy) "
        "to QP 2 and expects placement, receive CQEs and the whole ACK/NAK frames the device "
        "sends (IPv6; every reading of the credit field, ECN bits and UDP checksum)."))
    p = Peer(v6=True)
    H = ("Handles", "Acceptable")
    A = "acceptable"
    msg = pattern(100)
    wd = pattern(64, 2)

    g = f.group("RC QP 0 in RTS, IPv6 2001:db8::1 (peer 2001:db8::2, QP 0x100), MTU 1024, "
                "rq_psn 0, min_rnr_nak 1", setup1(mtu=3, local={"l3": "ipv6"}))
    f.test(g, "SEND ONLY (AckReq) into a posted receive WQE: placed, RESP_SEND CQE, the ACK "
              "frame (PSN 0, MSN 1) to QP 0x100 from the QP's path (hop limit 64, UDP source "
              "0xC000)", C["send"] + "; " + C["msn"] + "; " + C["icrc"],
           recv() + [rx(p.send(0, msg)), mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 100,
                                    "wqe_counter": 0}]),
                     sent([ack(0, 1, 0)])], result=A, flags=H)
    f.test(g, "SEND ONLY with a wrong ICRC: dropped silently (nothing placed, no CQE, no frame)",
           C["icrc_bad"], recv() + [rx(p.send(0, msg, icrc_ok=False)),
                                    mem(DATA + RQ_OFF[0], bytes(100)), cqes("recv", []),
                                    no_frames(), events([ev_drop("bad_icrc")])],
           result="invalid", flags=("Handles", "BadIcrc"))
    f.test(g, "A SEND with a wrong ICRC then the same SEND right: the bad one left no trace "
              "(PSN 0 still expected)", C["icrc_bad"],
           recv() + [rx(p.send(0, msg, icrc_ok=False)), rx(p.send(0, msg)),
                     mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 100}]),
                     sent([ack(0, 1, 0)])], result=A, flags=H + ("BadIcrc",))
    f.test(g, "SEND ONLY with ImmDt 0xDEADBEEF: RESP_SEND_IMM CQE carrying the immediate "
              "(mlx5_cqe64 imm_inval_pkey, CQE bytes 36-39, as received)", C["send_imm"],
           recv() + [rx(p.send(0, msg, op="RC_SEND_ONLY_IMM", imm=0xDEADBEEF)),
                     mem(DATA + RQ_OFF[0], msg), mem(RCQ + 36, bytes.fromhex("deadbeef")),
                     cqes("recv", [{"opcode": M.CQE_RESP_SEND_IMM, "byte_cnt": 100}]),
                     sent([ack(0, 1, 0)])], result=A, flags=H)
    big = pattern(2500, 1)
    frs = [p.send(psn, big[off:off + n], op=op, ackreq=1 if op.endswith("LAST") else 0)
           for op, psn, off, n in M.packetise("SEND", 2500, 1024, 0)]
    f.test(g, "SEND of 2500 bytes as FIRST/MIDDLE/LAST (1024, 1024, 452), AckReq on LAST only, "
              "into a 4096-byte WQE: placed in order, one CQE of 2500 bytes, one ACK (PSN 2, "
              "MSN 1) or also coalescible ACKs before it", C["multi"] + "; " + C["ack_coal"],
           recv(byte_count=4096) + [rx(x) for x in frs] + [
               mem(DATA + RQ_OFF[0], big),
               cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 2500, "wqe_counter": 0}]),
               sent([ack(2, 1, 0)], nothing_else=False)], result=A, flags=H)
    f.test(g, "Two SENDs into two WQEs: CQEs with wqe_counter 0 and 1, ACKs PSN 0 (MSN 1, one "
              "WQE left) and PSN 1 (MSN 2)", C["send"] + "; " + C["msn"],
           recv((RQ_OFF[0], RQ_OFF[1])) + [
               rx(p.send(0, msg)), rx(p.send(1, msg[::-1])),
               mem(DATA + RQ_OFF[0], msg), mem(DATA + RQ_OFF[1], msg[::-1]),
               cqes("recv", [{"opcode": 2, "byte_cnt": 100, "wqe_counter": 0},
                             {"opcode": 2, "byte_cnt": 100, "wqe_counter": 1}]),
               sent([ack(0, 1, 1), ack(1, 2, 0)])], result=A, flags=H)
    f.test(g, "RDMA WRITE ONLY of 64 bytes with the data MKey: placed at the RETH VA, no "
              "receive CQE, ACK PSN 0 MSN 1", C["write"],
           [rx(p.write(0, wd, DATA + WR_OFF)), mem(DATA + WR_OFF, wd), cqes("recv", []),
            sent([ack(0, 1, 0)])], result=A, flags=H)
    wbig = pattern(3000, 3)
    frs = []
    for op, psn, off, n in M.packetise("WRITE", 3000, 1024, 0):
        if op.endswith("FIRST"):
            frs.append(p.write(psn, wbig[off:off + n], DATA + WR_OFF, dma_len=3000, op=op,
                               ackreq=0))
        else:
            frs.append(p.pkt(op, psn, wbig[off:off + n], ackreq=1 if op.endswith("LAST") else 0))
    f.test(g, "RDMA WRITE of 3000 bytes as FIRST (RETH)/MIDDLE/LAST: placed whole, ACK PSN 2",
           C["write"] + "; " + C["multi"],
           [rx(x) for x in frs] + [mem(DATA + WR_OFF, wbig), cqes("recv", []),
                                   sent([ack(2, 1, 0)], nothing_else=False)], result=A,
           flags=H)
    f.test(g, "RDMA WRITE ONLY with immediate: placed, consumes a receive WQE, RESP_WR_IMM CQE "
              "with the WRITE's length and the immediate", C["write_imm"],
           recv() + [rx(p.write(0, wd, DATA + WR_OFF, op="RC_WRITE_ONLY_IMM", imm=0x01020304)),
                     mem(DATA + WR_OFF, wd), mem(RCQ + 36, bytes.fromhex("01020304")),
                     cqes("recv", [{"opcode": M.CQE_RESP_WR_IMM, "byte_cnt": 64}]),
                     sent([ack(0, 1, 0)])], result=A, flags=H)
    f.test(g, "RDMA WRITE ONLY with a wrong R_Key (0x23C): NAK Remote Access Error (AETH "
              "0x62, PSN 0, MSN 0), nothing placed; the responder's QP goes to ERR and drops "
              "what follows", C["rkey"] + "; IBTA Vol. 1 §10.7.3.1 (a class C responder error: "
              "NAK, then the QP to the Error state)",
           [rx(p.write(0, wd, DATA + WR_OFF, rkey=RKEY + 0x100)), mem(DATA + WR_OFF, bytes(64)),
            cqes("recv", []), sent([nak(0, 0, M.NAK_REM_ACCESS)]), query_state(6),
            rx(p.write(0, wd, DATA + WR_OFF)), no_frames(), mem(DATA + WR_OFF, bytes(64))],
           result=A, flags=H)
    f.test(g, "RDMA WRITE ONLY past the MKey's end (VA = end - 32, 64 bytes): NAK Remote "
              "Access Error, nothing placed", C["rkey"],
           [rx(p.write(0, wd, DATA + 0x100000 - 32)), mem(DATA + 0x100000 - 32, bytes(32)),
            sent([nak(0, 0, M.NAK_REM_ACCESS)])], result=A, flags=H)
    f.test(g, "RDMA WRITE ONLY below the MKey's start (VA = start - 16): NAK Remote Access "
              "Error", C["rkey"],
           [rx(p.write(0, wd, DATA - 16)), sent([nak(0, 0, M.NAK_REM_ACCESS)])], result=A,
           flags=H)
    f.test(g, "RDMA WRITE ONLY of 0 bytes (RETH DMA length 0) with an R_Key that names nothing: "
              "no R_Key check for a zero-length transfer, ACKed", "IBTA Vol. 1 §9.7.4.1.5 "
              "(C9-88: a zero-length RDMA request is not checked against the R_Key and VA)",
           [rx(p.write(0, b"", 0, rkey=0xABCDEF)), sent([ack(0, 1, 0)])], result=A, flags=H)
    f.test(g, "RDMA READ request of 100 bytes: one READ RESPONSE ONLY, PSN 0, the data",
           C["read"],
           [{"mem_write": {"addr": hex(DATA + WR_OFF), "hex": msg.hex()}},
            rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 100))),
            events([ev_tx("RC_READ_RESPONSE_ONLY", 0)])], flags=("Handles",))
    rbig = pattern(2100, 4)
    f.test(g, "RDMA READ request of 2100 bytes at PSN 0: responses FIRST/MIDDLE/LAST with PSNs "
              "0, 1, 2; the next request's ePSN is 3", C["read"],
           [{"mem_write": {"addr": hex(DATA + WR_OFF), "hex": rbig.hex()}},
            rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 2100))),
            events([ev_tx(op, psn) for op, psn, _, _ in M.read_responses(2100, 1024, 0)]),
            rx(p.write(3, wd, DATA + WR_OFF)), mem(DATA + WR_OFF, wd),
            sent([ack(3, 2, 0)], nothing_else=False)], result=A, flags=H)
    f.test(g, "A duplicate RDMA READ request (PSN 0 again): executed again, one more READ "
              "RESPONSE ONLY with PSN 0 and the memory as it is now", C["psn_dup"] + "; IBTA "
              "Vol. 1 §9.7.5.1.5 (a duplicate READ is answered again)",
           [{"mem_write": {"addr": hex(DATA + WR_OFF), "hex": msg.hex()}},
            rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 100))),
            events([ev_tx("RC_READ_RESPONSE_ONLY", 0)]),
            rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 100))),
            events([ev_tx("RC_READ_RESPONSE_ONLY", 0)])], flags=("Handles",))
    f.test(g, "RDMA READ request with a wrong R_Key: NAK Remote Access Error, no response",
           C["rkey"],
           [rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY ^ 0x100, 64))),
            sent([nak(0, 0, M.NAK_REM_ACCESS)])], result=A, flags=H)

    # PSN checks
    f.test(g, "Duplicate SEND (PSN 0 again after it completed): ACKed again, not placed a "
              "second time, no second CQE", C["psn_dup"],
           recv((RQ_OFF[0], RQ_OFF[1])) + [
               rx(p.send(0, msg)), rx(p.send(0, msg)),
               mem(DATA + RQ_OFF[1], bytes(100)),
               cqes("recv", [{"opcode": 2, "byte_cnt": 100, "wqe_counter": 0}]),
               sent([ack(0, 1, 1), ack(0, 1, 1)])], result=A, flags=H)
    f.test(g, "Duplicate RDMA WRITE carrying other bytes: ACKed, the memory keeps the first "
              "WRITE's bytes", C["psn_dup"],
           [rx(p.write(0, wd, DATA + WR_OFF)), rx(p.write(0, wd[::-1], DATA + WR_OFF)),
            mem(DATA + WR_OFF, wd), sent([ack(0, 1, 0), ack(0, 1, 0)])], result=A, flags=H)
    f.test(g, "SEND with PSN 1 while 0 is expected: NAK PSN Sequence Error (AETH 0x60) with "
              "the ePSN 0, nothing placed", C["psn_seq"],
           recv() + [rx(p.send(1, msg)), mem(DATA + RQ_OFF[0], bytes(100)), cqes("recv", []),
                     sent([nak(0, 0, M.NAK_PSN_SEQ)])], result=A, flags=H)
    f.test(g, "Two packets ahead of ePSN: one NAK only (NAK-sent latch); then PSN 0 is placed "
              "and ACKed; the next packet ahead (PSN 3 for ePSN 1) is NAKed again",
           C["psn_seq"],
           recv((RQ_OFF[0], RQ_OFF[1])) + [
               rx(p.send(1, msg)), rx(p.send(2, msg)), sent([nak(0, 0, M.NAK_PSN_SEQ)]),
               rx(p.send(0, msg)), sent([ack(0, 1, 1)]),
               rx(p.send(3, msg)), sent([nak(1, 1, M.NAK_PSN_SEQ)]),
               cqes("recv", [{"opcode": 2, "byte_cnt": 100, "wqe_counter": 0}])],
           result=A, flags=H)
    f.test(g, "PSN ePSN + 2^23 - 1 is ahead (NAK sequence); ePSN + 2^23 is a duplicate "
              "(not placed)", C["psn_seq"] + "; " + C["psn_wrap"],
           recv() + [rx(p.send(M.HALF - 1, msg)), sent([nak(0, 0, M.NAK_PSN_SEQ)]),
                     rx(p.send(M.HALF, msg)), mem(DATA + RQ_OFF[0], bytes(100)),
                     cqes("recv", [])], result=A, flags=H)

    # opcode sequence and length
    for comment, pkts, npsn in (
            ("SEND MIDDLE with no message open", [p.pkt("RC_SEND_MIDDLE", 0, pattern(1024))], 0),
            ("SEND FIRST then SEND ONLY (the message not ended)",
             [p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0), p.send(1, msg)], 1),
            ("WRITE MIDDLE after a SEND FIRST",
             [p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0),
              p.pkt("RC_WRITE_MIDDLE", 1, pattern(1024))], 1)):
        f.test(g, comment + f": NAK Invalid Request (AETH 0x61) for PSN {npsn}", C["opseq"],
               recv(byte_count=4096) + [rx(x) for x in pkts] +
               [events([ev_nak(npsn, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid",
               flags=("Handles",))
    f.test(g, "SEND FIRST shorter than the path MTU (1000 of 1024): NAK Invalid Request",
           C["len"], recv(byte_count=4096) + [
               rx(p.pkt("RC_SEND_FIRST", 0, pattern(1000))),
               events([ev_nak(0, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid",
           flags=("Handles",))
    f.test(g, "SEND FIRST (1024) then a SEND MIDDLE of 1000 bytes (not the MTU): NAK Invalid "
              "Request for PSN 1", C["len"], recv(byte_count=4096) + [
               rx(p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0)),
               rx(p.pkt("RC_SEND_MIDDLE", 1, pattern(1000))),
               events([ev_nak(1, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid",
           flags=("Handles",))
    f.test(g, "SEND ONLY longer than the path MTU (1028 of 1024): NAK Invalid Request",
           C["len"], recv(byte_count=4096) + [
               rx(p.send(0, pattern(1028))),
               events([ev_nak(0, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid",
           flags=("Handles",))
    f.test(g, "SEND of 200 bytes into a 128-byte receive WQE: NAK Invalid Request; the WQE "
              "completes in error, Local Length Error (RESP_ERR, syndrome 0x1)", C["len_rq"],
           recv(byte_count=128) + [
               rx(p.send(0, pattern(200))),
               events([ev_nak(0, M.AETH_NAK | M.NAK_INV_REQ)]),
               cqes("recv", [{"layout": "err_cqe", "opcode": M.CQE_RESP_ERR,
                              "syndrome": M.SYN["LOCAL_LENGTH"]}])], result="invalid",
           flags=("Handles",))
    # RNR
    f.test(g, "SEND with no receive WQE: RNR NAK (AETH 0x20 | min_rnr_nak 1 = 0x21, PSN 0); "
              "after a WQE is posted the resent SEND is placed and ACKed", C["rnr"],
           [rx(p.send(0, msg)), sent([nak(0, 0, 1, M.AETH_RNR)]), cqes("recv", [])] +
           recv() + [rx(p.send(0, msg)), mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": 2, "byte_cnt": 100}]), sent([ack(0, 1, 0)])],
           result=A, flags=H)
    # destination, P_Key, TVer, classification
    drops = (("SEND to QP 7 (no such QP)", p.send(0, msg, dest_qp=7), C["destqp"],
              ev_drop("destqp_unknown", qpn=7, psn=0)),
             ("SEND to QP 1 (reserved, never an RC QP: seed 004 L42-44; named as a reserved "
              "QP or as no QP)", p.send(0, msg, dest_qp=1), C["destqp"],
              ev_drop(["management_qp", "destqp_unknown"], qpn=1, psn=0)),
             ("SEND with P_Key 0x1234 (the port's only P_Key is 0xFFFF)",
              p.send(0, msg, pkey=0x1234), C["pkey"], ev_drop("pkey_mismatch", QPN0, 0)),
             ("SEND with P_Key 0x0000 (the invalid key)", p.send(0, msg, pkey=0), C["pkey"],
              ev_drop("pkey_mismatch", QPN0, 0)),
             ("SEND with BTH TVer 1", p.send(0, msg, tver=1), C["tver"],
              ev_drop("tver_nonzero")))
    for comment, fr, cite, why in drops:
        two = isinstance(why["reason"], dict)
        f.test(g, comment + ": dropped silently (no frame, no CQE, nothing placed), the "
                  "roce_drop event naming why", cite,
               recv() + [rx(fr), no_frames(), cqes("recv", []),
                         mem(DATA + RQ_OFF[0], bytes(100)), events([why])],
               result="acceptable" if two else "invalid",
               flags=("Handles", "Acceptable") if two else ("Handles",))
    f.test(g, "SEND with P_Key 0x7FFF (a limited member; the port's 0xFFFF is full): accepted",
           C["pkey"], recv() + [rx(p.send(0, msg, pkey=0x7FFF)), mem(DATA + RQ_OFF[0], msg),
                                cqes("recv", [{"opcode": 2, "byte_cnt": 100}]),
                                sent([ack(0, 1, 0)])], result=A, flags=H)
    q = Peer(v6=True)
    q.path.dip = "2001:db8::9"
    f.test(g, "SEND to an IP address that is no GID of the port: not the transport's "
              "(D-ROCE-1): no CQE on the QP, no ACK", C["class"],
           recv() + [rx(q.send(0, msg)), cqes("recv", []), no_frames()], result="invalid",
           flags=("Handles",))
    f.test(g, "A SEND whose UDP destination port is 4792: not RoCEv2 (Annex A17 §A17.2: port "
              "4791), not the transport's: no CQE on the QP, no ACK", C["class"],
           recv() + [rx(other_port(p.send(0, msg), 4792)), cqes("recv", []), no_frames()],
           result="invalid", flags=("Handles",))
    v1 = bytes.fromhex(LMAC.replace(":", "") + PMAC.replace(":", "")) + b"\x89\x15" + \
        bytes(GRH(ipver=6, tclass=0, flowlabel=0, paylen=12 + 100 + 4, nexthdr=0x1B, hoplmt=64,
                  sgid=int.from_bytes(bytes(16), "big"), dgid=0)) + \
        M.bth_bytes(M.CODE["RC_SEND_ONLY"], QPN0, 0, ackreq=1) + msg + bytes(4)
    f.test(g, "A RoCEv1 frame (EtherType 0x8915, GRH, BTH) to QP 2: not the RoCEv2 transport's "
              "(D-ROCE-1): no CQE, no ACK", C["class"] + "; IBTA Vol. 1 Annex A16 (RoCE v1)",
           recv() + [rx(v1), cqes("recv", []), no_frames()], result="invalid",
           flags=("Handles",))
    w3 = pattern(2500, 8)
    f.test(g, "RDMA WRITE FIRST announcing 3000 bytes, then MIDDLE and a LAST that end the "
              "message at 2500: NAK Invalid Request for the LAST (PSN 2)", C["len"],
           [rx(p.write(0, w3[:1024], DATA + WR_OFF, dma_len=3000, op="RC_WRITE_FIRST",
                       ackreq=0)),
            rx(p.pkt("RC_WRITE_MIDDLE", 1, w3[1024:2048], ackreq=0)),
            rx(p.pkt("RC_WRITE_LAST", 2, w3[2048:])),
            events([ev_nak(2, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid",
           flags=("Handles",))
    f.test(g, "2ERR_QP with two receive WQEs posted: both complete with WR_FLUSH_ERR (RESP_ERR, "
              "0x5); a SEND then arrives: dropped, no ACK", "IBTA Vol. 1 §10.3.1 (Error state: "
              "outstanding WRs flushed, incoming packets dropped); mlx5 "
              "MLX5_CQE_SYNDROME_WR_FLUSH_ERR",
           recv((RQ_OFF[0], RQ_OFF[1])) + [
               {"command": {"layout": "qp_2err_in", "fields": {"opcode": "0x507", "qpn": QPN0},
                            "expect": {"status": "OK"}}},
               cqes("recv", [err_cqe(M.SYN["WR_FLUSH"], 0, M.CQE_RESP_ERR),
                             err_cqe(M.SYN["WR_FLUSH"], 1, M.CQE_RESP_ERR)]),
               rx(p.send(0, msg)), no_frames(), cqes("recv", []),
               events([ev_drop("qp_not_receiving", QPN0, 0)])], result="invalid",
           flags=("Handles",))
    alts = sent([ack(0, 1, 0)])["frames"]["any_of"]
    alts.append({"reading": "ACK coalesced: nothing sent yet", "expect": [], "exact": True})
    f.test(g, "SEND ONLY without AckReq: ACK at once or coalesced (seed 004 L105 'implicit "
              "ACK'); placed and completed either way", C["ack_coal"],
           recv() + [rx(p.send(0, msg, ackreq=0)), mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": 2, "byte_cnt": 100}]),
                     {"frames": {"any_of": alts}}], result=A, flags=H)
    f.test(g, "Two WRITEs, the second of two packets: ACKs with MSN 1 then MSN 2", C["msn"],
           [rx(p.write(0, wd, DATA + WR_OFF)), sent([ack(0, 1, 0)]),
            rx(p.write(1, pattern(1024), DATA + WR_OFF, dma_len=1100, op="RC_WRITE_FIRST",
                       ackreq=0)),
            rx(p.pkt("RC_WRITE_LAST", 2, pattern(76))),
            sent([ack(2, 2, 0)], nothing_else=False)], result=A, flags=H)

    gr = f.group("RC QP 0 left in RTR, IPv6", setup1(mtu=3, to="RTR", local={"l3": "ipv6"}))
    f.test(gr, "A QP in RTR receives: SEND placed, CQE, ACK", "IBTA Vol. 1 §10.3.1 (Ready to "
               "Receive: incoming requests are processed and acknowledged); " + C["send"],
           recv() + [rx(p.send(0, msg)), mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": 2, "byte_cnt": 100}]), sent([ack(0, 1, 0)])],
           result=A, flags=H)
    gi = f.group("RC QP 0 left in INIT, IPv6", setup1(mtu=3, to="INIT", local={"l3": "ipv6"}))
    f.test(gi, "A QP in INIT does not receive: the SEND is dropped silently", "IBTA Vol. 1 "
               "§10.3.1 (Initialized: incoming packets silently dropped)",
           recv() + [rx(p.send(0, msg)), no_frames(), cqes("recv", []),
                     mem(DATA + RQ_OFF[0], bytes(100)),
                     events([ev_drop("qp_not_receiving", QPN0, 0)])], result="invalid",
           flags=("Handles",))

    # IPv4
    g4 = f.group("RC QP 0 in RTS, IPv4 192.0.2.1 (peer 192.0.2.2), MTU 1024", setup1(mtu=3))
    p4 = Peer()
    f.test(g4, "IPv4 SEND ONLY: placed, RESP_SEND CQE, an ACK PSN 0 to QP 0x100", C["send"],
           recv() + [rx(p4.send(0, msg)), mem(DATA + RQ_OFF[0], msg),
                     cqes("recv", [{"opcode": 2, "byte_cnt": 100}]),
                     events([ev_tx("RC_ACK", 0)])], flags=("Handles",))
    f.test(g4, "IPv4 SEND ONLY with a wrong ICRC: dropped silently", C["icrc_bad"],
           recv() + [rx(p4.send(0, msg, icrc_ok=False)), no_frames(), cqes("recv", []),
                     mem(DATA + RQ_OFF[0], bytes(100)), events([ev_drop("bad_icrc")])],
           result="invalid",
           flags=("Handles", "BadIcrc"))
    f.test(g4, "IPv4 SEND with ECT(0), a TTL of 3 and DSCP 46 (masked fields): the ICRC holds, "
               "accepted", C["icrc"],
           recv() + [rx(M.frame(M.Path(PMAC, LMAC, PIP4, LIP4, dscp=46, ecn=2, ttl=3,
                                       sport=0xD000), "RC_SEND_ONLY", QPN0, 0, msg, ackreq=1)),
                     mem(DATA + RQ_OFF[0], msg), cqes("recv", [{"opcode": 2}]),
                     events([ev_tx("RC_ACK", 0)])], flags=("Handles",))

    # PSN wrap on the responder
    gw = f.group("RC QP 0, IPv6, rq_psn 0xFFFFFF", setup1(mtu=3, rq_psn="0xffffff",
                                                          local={"l3": "ipv6"}))
    f.test(gw, "SENDs at PSN 0xFFFFFF then 0: both accepted (24-bit wrap)", C["psn_wrap"],
           recv((RQ_OFF[0], RQ_OFF[1])) + [rx(p.send(0xFFFFFF, msg)), rx(p.send(0, msg[::-1])),
                                           mem(DATA + RQ_OFF[1], msg[::-1]),
                                           cqes("recv", [{"opcode": 2}, {"opcode": 2}]),
                                           sent([ack(0xFFFFFF, 1, 1), ack(0, 2, 0)])],
           result=A, flags=H)
    f.test(gw, "PSN 0xFFFFFE while 0xFFFFFF is expected: a duplicate (not placed)",
           C["psn_wrap"] + "; " + C["psn_dup"],
           recv() + [rx(p.send(0xFFFFFE, msg)), mem(DATA + RQ_OFF[0], bytes(100)),
                     cqes("recv", [])], result="invalid", flags=("Handles",))

    # access rights
    ga = f.group("RC QP 0 with rwe 0 and rre 0", setup1(mtu=3, rwe=0, rre=0,
                                                      local={"l3": "ipv6"}))
    f.test(ga, "RDMA WRITE to a QP without remote write enabled: NAK (Remote Access Error or "
               "Invalid Request), nothing placed", C["rwe"] + "; " + C["rkey"],
           [rx(p.write(0, wd, DATA + WR_OFF)), mem(DATA + WR_OFF, bytes(64)),
            events([{"event": EV_NAK, "psn": 0, "syndrome": {"in": [0x61, 0x62]}}])],
           result=A, flags=H)
    f.test(ga, "RDMA READ to a QP without remote read enabled: NAK, no response",
           C["rwe"] + "; " + C["rkey"],
           [rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 64))),
            events([{"event": EV_NAK, "psn": 0, "syndrome": {"in": [0x61, 0x62]}}])],
           result=A, flags=H)
    gm = f.group("RC QP 0, the data MKey without remote write (mkey rw 0)",
                 setup1(mtu=3, local={"l3": "ipv6"},
                        mkey={"lw": 1, "rr": 1, "rw": 0}))
    f.test(gm, "RDMA WRITE through an MKey without remote write: NAK Remote Access Error",
           C["rkey"], [rx(p.write(0, wd, DATA + WR_OFF)), mem(DATA + WR_OFF, bytes(64)),
                       sent([nak(0, 0, M.NAK_REM_ACCESS)])], result=A, flags=H)

    # seed 004 profile against the ConnectX-like one
    gs = f.group("seed004 profile (roce_profile 1): RC QP 0 in RTS, MTU 1024",
                 setup1(mtu=3, local={"l3": "ipv6"}), profile={"roce_profile": 1})
    S = ("Handles", "Seed004")
    f.test(gs, "seed004: an RDMA READ request is not in the operation set: NAK Invalid "
               "Request (Fatal.invalid req)", C["s004_ops"],
           [rx(p.pkt("RC_READ_REQUEST", 0, b"", M.reth(DATA + WR_OFF, RKEY, 64))),
            events([ev_nak(0, M.AETH_NAK | M.NAK_INV_REQ)])], result="invalid", flags=S)
    f.test(gs, "seed004: a READ request with a PSN ahead: the OPCODE check comes first "
               "(RC_CHK order), NAK Invalid Request", C["s004_order"],
           [rx(p.pkt("RC_READ_REQUEST", 5, b"", M.reth(DATA + WR_OFF, RKEY, 64))),
            events([{"event": EV_NAK, "syndrome": M.AETH_NAK | M.NAK_INV_REQ}])],
           result="invalid", flags=S)
    f.test(gs, "seed004: SEND FIRST shorter than the MTU with a PSN ahead: Length before PSN, "
               "NAK Invalid Request", C["s004_order"],
           recv(byte_count=4096) + [rx(p.pkt("RC_SEND_FIRST", 3, pattern(500))),
                                    events([{"event": EV_NAK, "syndrome": 0x61}])],
           result="invalid", flags=S)
    f.test(gs, "seed004: SEND with no receive WQE and a PSN ahead: RQ check before PSN, RNR "
               "NAK", C["s004_order"] + "; " + C["rnr"],
           [rx(p.send(4, msg)), events([{"event": EV_NAK, "syndrome": M.AETH_RNR | 1}])],
           result="invalid", flags=S)
    f.test(gs, "seed004: SEND FIRST (1024) then a SEND LAST of 0 bytes: the note's length rule "
               "(Last: <= MTU) admits it; one message of 1024 bytes, ACK of PSN 1",
           "seed 004 L94 (Length: First/Middle == MTU; Last/Only <= MTU)",
           recv(byte_count=4096) + [rx(p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0)),
                                    rx(p.pkt("RC_SEND_LAST", 1, b"")),
                                    mem(DATA + RQ_OFF[0], pattern(1024)),
                                    cqes("recv", [{"opcode": 2, "byte_cnt": 1024}]),
                                    sent([ack(1, 1, 0)])], result=A, flags=S + ("Acceptable",))
    f.test(gs, "seed004: SEND with P_Key 0x7FFF (bits 14:0 equal, bit 14 set): accepted",
           "seed 004 L95", recv() + [rx(p.send(0, msg, pkey=0x7FFF)),
                                     cqes("recv", [{"opcode": 2, "byte_cnt": 100}])], flags=S)
    f.test(gs, "seed004: SEND ONLY with AckReq: the ACK at once (PSN 0, MSN 1)",
           "seed 004 L105", recv() + [rx(p.send(0, msg)), sent([ack(0, 1, 0)])], result=A,
           flags=S + ("Acceptable",))
    f.test(gs, "seed004: SEND FIRST (no AckReq) then LAST (AckReq): one ACK only, for the LAST "
               "(the FIRST is acknowledged implicitly)", "seed 004 L105 (ack_req=1: ACK at "
               "once; otherwise implicit ACK)",
           recv(byte_count=4096) + [rx(p.pkt("RC_SEND_FIRST", 0, pattern(1024), ackreq=0)),
                                    rx(p.pkt("RC_SEND_LAST", 1, pattern(10))),
                                    sent([ack(1, 1, 0)])], result=A, flags=S + ("Acceptable",))
    gc = f.group("connectx profile (roce_profile 0): the same two-fault packets",
                 setup1(mtu=3, local={"l3": "ipv6"}))
    f.test(gc, "connectx: a READ request with a PSN ahead: the PSN is validated first (NAK PSN "
               "Sequence Error with ePSN 0)", C["ibta_order"] + "; " + C["psn_seq"],
           [rx(p.pkt("RC_READ_REQUEST", 5, b"", M.reth(DATA + WR_OFF, RKEY, 64))),
            events([ev_nak(0, M.AETH_NAK | M.NAK_PSN_SEQ)])], result="invalid",
           flags=("Handles",))
    f.test(gc, "connectx: SEND FIRST shorter than the MTU with a PSN ahead: NAK PSN Sequence "
               "Error", C["ibta_order"],
           recv(byte_count=4096) + [rx(p.pkt("RC_SEND_FIRST", 3, pattern(500))),
                                    events([ev_nak(0, M.AETH_NAK | M.NAK_PSN_SEQ)])],
           result="invalid", flags=("Handles",))
    f.test(gc, "connectx: SEND with no receive WQE and a PSN ahead: PSN first, NAK PSN "
               "Sequence Error (not RNR)", C["ibta_order"],
           [rx(p.send(4, msg)), events([ev_nak(0, M.AETH_NAK | M.NAK_PSN_SEQ)])],
           result="invalid", flags=("Handles",))
    return f


# ---- requester (one device; the vector is the responder) ------------------------------------
RVA, RRKEY = 0x90000000, 0x77          # the remote buffer the vector's responder offers
SRC = DATA + 0x80000                   # qp_post's first {"bytes"} segment (region middle)
C_QPN = "D-QP-3 (QPN 2 the first QP)"


def post(opcode, data=None, qp=0, **kw):
    s = {"qp": qp, "opcode": opcode}
    if data is not None:
        s["data"] = data
    s.update(kw)
    return {"qp_post": s}


def query_state(state, qpn=QPN0):
    return {"command": {"layout": "query_qp_in", "fields": {"opcode": "QUERY_QP", "qpn": qpn},
                        "output_length": "0x110",
                        "expect": {"status": "OK", "output": {"layout": "query_qp_out",
                                                              "fields": {"state": state}}}}}


def req_pkts(kind, payload, mtu, psn0, va=RVA, rkey=RRKEY, imm=None):
    """The Outs of one message as a requester sends it (AckReq: on the last packet; on the
    others the device's choice)."""
    outs = []
    for op, psn, off, n in M.packetise(kind, len(payload), mtu, psn0):
        o = Out(op, psn, payload[off:off + n], ackreq="open_last" if op.endswith(
            ("LAST", "ONLY", "LAST_IMM", "ONLY_IMM")) else "open")
        if op.startswith("RC_WRITE") and op.endswith(("FIRST", "ONLY", "ONLY_IMM")):
            o.reth = (va, rkey, len(payload))
        if op.endswith("_IMM"):
            o.imm = imm
        outs.append(o)
    return outs


def req_cqe(wqe_op, counter, **kw):
    e = {"opcode": M.CQE_REQ, "s_wqe_opcode": M.WQE_OP[wqe_op], "wqe_counter": counter}
    e.update(kw)
    return e


def err_cqe(syndrome, counter, op=M.CQE_REQ_ERR):
    return {"layout": "err_cqe", "opcode": op, "syndrome": syndrome, "wqe_counter": counter}


def gen_requester():
    f = VFile("rc_requester", "roce_rc_requester", header(
        "RoCEv2 RC requester on one device: the vector posts send WQEs on QP 2 and expects the "
        "whole request frames (IPv6; each reading of AckReq on non-last packets, ECN and the "
        "UDP checksum), then sends the ACK/NAK/READ responses a responder would and expects "
        "the requester's CQEs, retransmissions and state."))
    p = Peer(v6=True)
    H = ("Handles", "Acceptable")
    A = "acceptable"
    msg = pattern(100, 5)
    m600 = pattern(600, 6)

    g = f.group("RC QP 0 in RTS, IPv6, MTU 256 (mtu 1), sq_psn 0, retry 7/7, ack_timeout 14",
                setup1(mtu=1, local={"l3": "ipv6"}))
    f.test(g, "SEND of 100 bytes: one SEND ONLY (PSN 0, AckReq) to QP 0x100; no CQE before the "
              "ACK; the ACK completes it (REQ CQE, SEND, wqe_counter 0)",
           C["req_pkt"] + "; " + C["req_ack"],
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            cqes("send", []), rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND", 0)])],
           result=A, flags=H)
    f.test(g, "SEND with immediate 0xCAFEF00D: SEND ONLY with ImmDt", C["req_pkt"] + "; " +
           C["send_imm"],
           [post("SEND_IMM", [{"bytes": msg.hex()}], imm="0xcafef00d"),
            sent(req_pkts("SEND_IMM", msg, 256, 0, imm=0xCAFEF00D)),
            rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND_IMM", 0)])], result=A, flags=H)
    f.test(g, "SEND of 600 bytes: FIRST/MIDDLE/LAST of 256, 256, 88 bytes, PSNs 0-2",
           C["req_pkt"],
           [post("SEND", [{"bytes": m600.hex()}]), sent(req_pkts("SEND", m600, 256, 0)),
            rx(p.ack(2, 1)), cqes("send", [req_cqe("SEND", 0)])], result=A, flags=H)
    f.test(g, "SEND of 256 bytes (exactly the MTU): one SEND ONLY", C["req_pkt"],
           [post("SEND", [{"bytes": pattern(256).hex()}]),
            sent(req_pkts("SEND", pattern(256), 256, 0))], result=A, flags=H)
    f.test(g, "SEND of 0 bytes: one SEND ONLY with no payload", C["req_pkt"],
           [post("SEND", []), sent(req_pkts("SEND", b"", 256, 0)), rx(p.ack(0, 1)),
            cqes("send", [req_cqe("SEND", 0)])], result=A, flags=H)
    f.test(g, "SEND gathered from two data segments (60 + 40 bytes): one SEND ONLY of 100 "
              "bytes in segment order", C["req_pkt"],
           [post("SEND", [{"bytes": msg[:60].hex()}, {"bytes": msg[60:].hex()}]),
            sent(req_pkts("SEND", msg, 256, 0))], result=A, flags=H)
    f.test(g, "SEND of 100 bytes of inline data (an inline segment): one SEND ONLY carrying "
              "them", C["req_pkt"],
           [post("SEND", [{"inline": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0))],
           result=A, flags=H)
    f.test(g, "RDMA WRITE of 600 bytes to VA 0x90000000, R_Key 0x77: WRITE FIRST (RETH: VA, "
              "R_Key, DMA length 600)/MIDDLE/LAST; the ACK completes it", C["req_pkt"] + "; " +
           C["req_ack"],
           [post("RDMA_WRITE", [{"bytes": m600.hex()}], raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(req_pkts("WRITE", m600, 256, 0)), rx(p.ack(2, 1)),
            cqes("send", [req_cqe("RDMA_WRITE", 0)])], result=A, flags=H)
    f.test(g, "RDMA WRITE with immediate, 600 bytes: FIRST/MIDDLE/LAST_IMM (ImmDt on the last)",
           C["req_pkt"] + "; " + C["write_imm"],
           [post("RDMA_WRITE_IMM", [{"bytes": m600.hex()}], imm="0x11223344",
                 raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(req_pkts("WRITE_IMM", m600, 256, 0, imm=0x11223344)), rx(p.ack(2, 1)),
            cqes("send", [req_cqe("RDMA_WRITE_IMM", 0)])], result=A, flags=H)
    f.test(g, "RDMA WRITE ONLY of 100 bytes: RETH and payload in one packet", C["req_pkt"],
           [post("RDMA_WRITE", [{"bytes": msg.hex()}], raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(req_pkts("WRITE", msg, 256, 0))], result=A, flags=H)
    rd = Out("RC_READ_REQUEST", 0, b"", reth=(RVA, RRKEY, 600), ackreq="open")
    f.test(g, "RDMA READ of 600 bytes: a READ REQUEST (RETH VA, R_Key, 600) with PSN 0; the "
              "responses (PSN 0-2) are placed through the WQE's scatter entry; REQ CQE "
              "(RDMA_READ); the next request takes PSN 3", C["req_read"],
           [post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 600}],
                 raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent([rd])] +
           [rx(p.read_resp(op, psn, m600[off:off + n]))
            for op, psn, off, n in M.read_responses(600, 256, 0)] +
           [mem(DATA + 0x3000, m600), cqes("send", [req_cqe("RDMA_READ", 0)]),
            post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 3))],
           result=A, flags=H)
    f.test(g, "Two SENDs, one ACK for PSN 1 (coalesced): both complete, in order",
           C["req_ack"],
           [post("SEND", [{"bytes": msg.hex()}]), post("SEND", [{"bytes": msg[::-1].hex()}]),
            sent(req_pkts("SEND", msg, 256, 0) + req_pkts("SEND", msg[::-1], 256, 1)),
            rx(p.ack(1, 2)), cqes("send", [req_cqe("SEND", 0), req_cqe("SEND", 1)])],
           result=A, flags=H)
    f.test(g, "Two SENDs, an ACK for PSN 0 only: the first completes, the second waits",
           C["req_ack"],
           [post("SEND", [{"bytes": msg.hex()}]), post("SEND", [{"bytes": msg.hex()}]),
            rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND", 0)]),
            rx(p.ack(1, 2)), cqes("send", [req_cqe("SEND", 1)])], flags=("Handles",))
    f.test(g, "An ACK for a PSN before any outstanding request (ghost): ignored, no CQE; the "
              "right ACK then completes the SEND", C["req_ghost"],
           [post("SEND", [{"bytes": msg.hex()}]), rx(p.ack(0xFFFFFF, 0)), cqes("send", []),
            rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND", 0)])], flags=("Handles",))
    rq2 = Out("RC_READ_REQUEST", 1, b"", reth=(RVA + 256, RRKEY, 344), ackreq="open")
    f.test(g, "RDMA READ of 600 bytes whose MIDDLE response is lost: the LAST (PSN 2) shows the "
              "gap, the READ is asked again from PSN 1 (RETH VA + 256, 344 bytes); the resent "
              "responses complete it once", "IBTA Vol. 1 §9.7.5.1.5, §9.7.6.1.3 (a READ response "
              "beyond the expected PSN is an implied NAK: the requester reissues the READ for "
              "the rest, PSN of the first missing response, VA and length advanced)",
           [post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 600}],
                 raddr={"addr": hex(RVA), "rkey": RRKEY}), sent([rd]),
            rx(p.read_resp("RC_READ_RESPONSE_FIRST", 0, m600[:256])),
            rx(p.read_resp("RC_READ_RESPONSE_LAST", 2, m600[512:])), sent([rq2]),
            cqes("send", []),
            rx(p.read_resp("RC_READ_RESPONSE_FIRST", 1, m600[256:512])),
            rx(p.read_resp("RC_READ_RESPONSE_LAST", 2, m600[512:])),
            mem(DATA + 0x3000, m600), cqes("send", [req_cqe("RDMA_READ", 0)])],
           result=A, flags=H)
    f.test(g, "A WQE with an opcode an RC QP does not run (0x0E, LSO): completes in error, "
              "Local QP Operation Error (0x2), nothing sent, the QP to ERR", "IBTA Vol. 1 "
              "§10.8.3 (Local QP Operation Error); mlx5 MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR 0x2",
           [post(0x0E, [{"bytes": msg.hex()}]), no_frames(),
            cqes("send", [err_cqe(M.SYN["LOCAL_QP_OP"], 0)]), query_state(6)],
           result="invalid", flags=("Handles",))
    # NAK sequence: Go-Back-N
    w = req_pkts("WRITE", m600, 256, 0)
    resumed = [Out("RC_WRITE_FIRST", 1, m600[256:512], reth=(RVA + 256, RRKEY, 344),
                   ackreq="open"), w[2]]
    alts = sent(w[1:])["frames"]["any_of"]
    for a in alts:
        a["reading"] = "original opcodes, " + a["reading"]
    for a in sent(resumed)["frames"]["any_of"]:
        a["reading"] = "new FIRST with RETH, " + a["reading"]
        alts.append(a)
    f.test(g, "WRITE of 3 packets, NAK PSN Sequence Error with PSN 1: Go-Back-N from PSN 1 "
              "(PSNs 1, 2 again); the ACK of PSN 2 completes the WRITE once",
           C["req_nak_seq"],
           [post("RDMA_WRITE", [{"bytes": m600.hex()}], raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(w), rx(p.ack(1, 0, syndrome=M.AETH_NAK | M.NAK_PSN_SEQ)),
            {"frames": {"any_of": alts}}, events([{"event": EV_RETX, "from_psn": 1}]),
            cqes("send", []), rx(p.ack(2, 1)), cqes("send", [req_cqe("RDMA_WRITE", 0)])],
           result=A, flags=H)
    alts = sent(w[1:], nothing_else=False)["frames"]["any_of"]
    for a in alts:
        a["reading"] = "original opcodes, " + a["reading"]
    for a in sent(resumed, nothing_else=False)["frames"]["any_of"]:
        a["reading"] = "new FIRST with RETH, " + a["reading"]
        alts.append(a)
    f.test(g, "WRITE of 3 packets, an ACK of PSN 0 only, then silence: after the local ACK "
              "timeout the requester resends from PSN 1 (not from the message's start)",
           C["req_to"],
           [post("RDMA_WRITE", [{"bytes": m600.hex()}], raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(w), rx(p.ack(0, 0)), cqes("send", []), {"advance_ns": 268500000},
            {"frames": {"any_of": alts}},
            events([{"event": EV_RETX, "from_psn": 1, "reason": 0}]),
            rx(p.ack(2, 1)), cqes("send", [req_cqe("RDMA_WRITE", 0)])], result=A, flags=H)
    f.test(g, "Two SENDs, NAK PSN Sequence Error with PSN 0: both resent (PSN 0, 1) in order",
           C["req_nak_seq"],
           [post("SEND", [{"bytes": msg.hex()}]), post("SEND", [{"bytes": msg[::-1].hex()}]),
            sent(req_pkts("SEND", msg, 256, 0) + req_pkts("SEND", msg[::-1], 256, 1)),
            rx(p.ack(0, 0, syndrome=M.AETH_NAK | M.NAK_PSN_SEQ)),
            sent(req_pkts("SEND", msg, 256, 0) + req_pkts("SEND", msg[::-1], 256, 1))],
           result=A, flags=H)
    # fatal NAKs
    for code, syn, name in ((M.NAK_INV_REQ, "REMOTE_INVAL_REQ", "Invalid Request"),
                            (M.NAK_REM_ACCESS, "REMOTE_ACCESS", "Remote Access Error"),
                            (M.NAK_REM_OP, "REMOTE_OP", "Remote Operational Error")):
        f.test(g, f"Two SENDs, NAK {name} (AETH {0x60 | code:#x}) for PSN 0: the first "
                  f"completes in error (REQ_ERR, syndrome {M.SYN[syn]:#x}), the second is "
                  "flushed (0x5), the QP goes to ERR", C["req_nak_fatal"],
               [post("SEND", [{"bytes": msg.hex()}]), post("SEND", [{"bytes": msg.hex()}]),
                rx(p.ack(0, 0, syndrome=M.AETH_NAK | code)),
                cqes("send", [err_cqe(M.SYN[syn], 0), err_cqe(M.SYN["WR_FLUSH"], 1)]),
                query_state(6)], result="invalid", flags=("Handles",))
    f.test(g, "A SEND posted after 2ERR_QP: completes at once with WR_FLUSH_ERR (0x5), nothing "
              "sent", "IBTA Vol. 1 §10.3.1, §11.4.1.1 (WRs posted in Error are flushed); mlx5 "
              "MLX5_CQE_SYNDROME_WR_FLUSH_ERR",
           [{"command": {"layout": "qp_2err_in", "fields": {"opcode": "0x507", "qpn": QPN0},
                         "expect": {"status": "OK"}}},
            post("SEND", [{"bytes": msg.hex()}]), no_frames(),
            cqes("send", [err_cqe(M.SYN["WR_FLUSH"], 0)])], result="invalid",
           flags=("Handles",))
    # RNR
    f.test(g, "SEND, RNR NAK with timer 14 (1.28 ms, Table 45): not resent at 1.2 ms, resent "
              "(PSN 0) by 2.5 ms; then ACKed and completed", C["req_rnr"],
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            rx(p.ack(0, 0, syndrome=M.AETH_RNR | 14)), {"advance_ns": 1200000}, no_frames(),
            {"advance_ns": 1300000}, sent(req_pkts("SEND", msg, 256, 0)),
            events([{"event": EV_RETX, "from_psn": 0, "reason": 2}]),
            rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND", 0)])], result=A, flags=H)
    # timeout
    f.test(g, "SEND, no ACK: ack_timeout 14 (4.096 us x 2^14 = 67.1 ms): nothing resent at "
              "67 ms; resent (PSN 0) by 4 x 67.1 ms", C["req_to"],
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            {"advance_ns": 67000000}, no_frames(), {"advance_ns": 201500000},
            sent(req_pkts("SEND", msg, 256, 0), nothing_else=False),
            events([{"event": EV_RETX, "from_psn": 0, "reason": 0}])], result=A, flags=H)

    f.test(g, "SEND whose ACK never comes: resent after the local ACK timeout (at most 4 times "
              "in 268.5 ms, retry_count 7), then ACKed: one CQE, no error, the QP still in RTS",
           C["req_to"],
           [post("SEND", [{"bytes": msg.hex()}]), {"advance_ns": 268500000},
            rx(p.ack(0, 1)), cqes("send", [req_cqe("SEND", 0)]), query_state(3)],
           flags=("Handles",))

    gr = f.group("RC QP 0, IPv6, MTU 256, retry_count 0, rnr_retry 0, ack_timeout 10 "
                 "(4.19 ms)", setup1(mtu=1, local={"l3": "ipv6"}, retry_count=0, rnr_retry=0,
                                     ack_timeout=10))
    f.test(gr, "rnr_retry 0: the first RNR NAK fails the SEND (REQ_ERR, RNR retry exceeded "
               "0x16), the QP goes to ERR", C["req_rnr"],
           [post("SEND", [{"bytes": msg.hex()}]), rx(p.ack(0, 0, syndrome=M.AETH_RNR | 1)),
            {"advance_ns": 100000},
            cqes("send", [err_cqe(M.SYN["RNR_RETRY_EXC"], 0)]), query_state(6)],
           result="invalid", flags=("Handles",))
    f.test(gr, "retry_count 0: the first local ACK timeout fails the SEND (REQ_ERR, transport "
               "retry exceeded 0x15) with no resend; the QP goes to ERR", C["req_to_exc"],
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            {"advance_ns": 4000000}, cqes("send", []), {"advance_ns": 13000000}, no_frames(),
            cqes("send", [err_cqe(M.SYN["TRANSPORT_RETRY_EXC"], 0)]), query_state(6)],
           result=A, flags=H)
    f.test(gr, "retry_count 0: a NAK PSN Sequence Error needs a retry there is none of: the "
               "SEND completes with transport retry exceeded (0x15), nothing resent, QP to ERR",
           C["req_to_exc"] + "; " + C["req_nak_seq"] + " (a NAK-sequence retry counts against "
           "retry_cnt)",
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            rx(p.ack(0, 0, syndrome=M.AETH_NAK | M.NAK_PSN_SEQ)), no_frames(),
            cqes("send", [err_cqe(M.SYN["TRANSPORT_RETRY_EXC"], 0)]), query_state(6)],
           result=A, flags=H)
    g1 = f.group("RC QP 0, IPv6, MTU 256, rnr_retry 1", setup1(mtu=1, local={"l3": "ipv6"},
                                                             rnr_retry=1))
    f.test(g1, "rnr_retry 1: the first RNR NAK (timer 1, 10 us) is retried once after 10 us; "
               "the second fails the SEND (0x16) and the QP goes to ERR", C["req_rnr"],
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            rx(p.ack(0, 0, syndrome=M.AETH_RNR | 1)), {"advance_ns": 9000}, no_frames(),
            {"advance_ns": 11000}, sent(req_pkts("SEND", msg, 256, 0)),
            rx(p.ack(0, 0, syndrome=M.AETH_RNR | 1)), {"advance_ns": 100000}, no_frames(),
            cqes("send", [err_cqe(M.SYN["RNR_RETRY_EXC"], 0)]), query_state(6)],
           result=A, flags=H)
    gt = f.group("RC QP 0, IPv6, MTU 256, retry_count 2, ack_timeout 10 (4.19 ms)",
                 setup1(mtu=1, local={"l3": "ipv6"}, retry_count=2, ack_timeout=10))
    f.test(gt, "retry_count 2, never an ACK: the SEND goes out 3 times (1 + 2 retries), then "
               "REQ_ERR 0x15 and ERR", C["req_to_exc"] + "; " + C["req_to"],
           [post("SEND", [{"bytes": msg.hex()}])] + [{"advance_ns": 1000000}] * 60 +
           [sent(req_pkts("SEND", msg, 256, 0) * 3),
            cqes("send", [err_cqe(M.SYN["TRANSPORT_RETRY_EXC"], 0)]), query_state(6)],
           result=A, flags=H)
    adp = {"command": {"layout": "access_reg_roce_accl_in", "fields": {
        "opcode": "ACCESS_REG", "op_mod": 0, "register_id": "0x4050",
        "adp_retx_profile_select": 1, "adp_retx_profile_id": 1,
        "roce_adp_retrans_field_select": 1, "roce_adp_retrans_en": 1,
        "qp_total_timeout": 0, "range_num": 1, "start_range_index": 0, "time_unit": 1,
        "time_base": 4, "retx_total_timeout": 16, "timeout_init_low_bound": 3,
        "timeout_init_range_size": 1, "timeout_range_0_prev_range_index": 0,
        "timeout_range_0_dec_mode": 1, "timeout_range_0_timeout_retry_num": 2,
        "timeout_range_0_range_low_bound": 3, "timeout_range_0_range_size": 2},
        "output_length": "0x50", "expect": {"status": "OK"}}}
    st = setup1(mtu=1, local={"l3": "ipv6"})
    ga = f.group("ADP on (ROCE_ACCL: enabled, profile 1: time_base 4 us, initial exponent 3 "
                 "only, one range 3..4), then RC QP 0 in RTS, IPv6, MTU 256, ack_timeout 14",
                 st[:1] + [adp] + st[1:])
    f.test(ga, "ADP: a SEND never ACKed is resent after the profile's first timer, time_base x "
               "2^3 = 32 us (not the classic 67.1 ms): nothing at 31 us, the resend by 33 us",
           "seed 001 L7-11 (initial timeout = rand(low, low + size - 1); HW timer = time_base "
           "x 2^granularity), L25 (the initial value is retried once), L43 (capped by "
           "QP.ack_timeout), L62-72 (a profile selected: profile-based timeouts); seed 000 "
           "(ROCE_ACCL)",
           [post("SEND", [{"bytes": msg.hex()}]), sent(req_pkts("SEND", msg, 256, 0)),
            {"advance_ns": 31000}, no_frames(), {"advance_ns": 2000},
            sent(req_pkts("SEND", msg, 256, 0)),
            events([{"event": EV_RETX, "from_psn": 0, "reason": 0}])], result=A, flags=H)

    gw = f.group("RC QP 0, IPv6, MTU 256, sq_psn 0xFFFFFF", setup1(
        mtu=1, local={"l3": "ipv6"}, sq_psn="0xffffff"))
    f.test(gw, "WRITE of 600 bytes from PSN 0xFFFFFF: PSNs 0xFFFFFF, 0, 1 (wrap)",
           C["req_pkt"] + "; " + C["psn_wrap"],
           [post("RDMA_WRITE", [{"bytes": m600.hex()}], raddr={"addr": hex(RVA), "rkey": RRKEY}),
            sent(req_pkts("WRITE", m600, 256, 0xFFFFFF)), rx(p.ack(1, 1)),
            cqes("send", [req_cqe("RDMA_WRITE", 0)])], result=A, flags=H)

    # the outstanding window
    many = [post("SEND", [{"bytes": pattern(16, i).hex()}]) for i in range(30)]
    outs = [req_pkts("SEND", pattern(16, i), 256, i)[0] for i in range(30)]
    gs = f.group("seed004 profile: RC QP 0, IPv6, MTU 256, log_sq_size 6",
                 setup1(mtu=1, local={"l3": "ipv6"}), profile={"roce_profile": 1})
    S = ("Handles", "Acceptable", "Seed004")
    f.test(gs, "seed004: 30 SENDs posted: 16 go out (OSQ_PER_QP); an ACK of PSN 3 frees 4 "
               "slots: 4 more", C["s004_window"],
           many + [sent(outs[:16]), rx(p.ack(3, 4)), sent(outs[16:20]),
                   cqes("send", [req_cqe("SEND", i) for i in range(4)])], result=A, flags=S)
    f.test(gs, "seed004: an RDMA READ WQE is not in the operation set: the QP faults (an error "
               "CQE, the QP to ERR), nothing is sent", "seed 004 L68 (a WQE other than UD "
               "SEND / RC SEND / WRITE: a fault on that QP only and an interrupt), L33-37",
           [post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 64}],
                 raddr={"addr": hex(RVA), "rkey": RRKEY}), no_frames(),
            cqes("send", [{"layout": "err_cqe", "opcode": M.CQE_REQ_ERR,
                           "syndrome": {"ne": 0}, "wqe_counter": 0}]), query_state(6)],
           result=A, flags=S)
    cnp_in = p.pkt("CNP", 0, b"", b"\x00" * 16, ackreq=0, becn=1)
    f.test(gs, "seed004: 30 SENDs, 16 out; a CNP arrives: the window is 8; an ACK of PSN 11 "
               "(4 outstanding) lets only 4 more go (PSN 16-19)", C["s004_cnp"],
           many + [sent(outs[:16]), rx(cnp_in),
                   events([{"event": EV_CNP, "dir": 1},
                           {"event": "roce_cc", "qpn": QPN0, "limit": 8}]),
                   rx(p.ack(11, 12)), sent(outs[16:20])], result=A, flags=S)
    more = [post("SEND", [{"bytes": pattern(16, i).hex()}]) for i in range(16, 46)]
    outs2 = [req_pkts("SEND", pattern(16, i), 256, i)[0] for i in range(16, 46)]
    f.test(gs, "seed004: 16 SENDs out, a CNP, all 16 ACKed; 10 s later (past CNP_TIMER_THRD) "
               "30 more SENDs: 16 go out (the window restored)", C["s004_cnp"],
           many[:16] + [sent(outs[:16]), rx(cnp_in), rx(p.ack(15, 16)),
                        cqes("send", [req_cqe("SEND", i) for i in range(16)]),
                        {"advance_ns": 10000000000},
                        events([{"event": "roce_cc", "qpn": QPN0, "limit": 16}])] + more +
           [sent(outs2[:16])],
           result=A, flags=S)
    gc = f.group("connectx profile: RC QP 0, IPv6, MTU 256, log_sq_size 6",
                 setup1(mtu=1, local={"l3": "ipv6"}))
    gp = f.group("RC QP 0, IPv6, MTU 256, path traffic class 0xB8 (DSCP 46), hop limit 5",
                 setup1(mtu=1, local={"l3": "ipv6"}, path={"tclass": "0xb8", "hop_limit": 5}))
    f.test(gp, "A SEND leaves with the path's traffic class (DSCP 46) and hop limit 5",
           "IBTA Vol. 1 Annex A17 §A17.4.5 (the GRH fields of the address vector become the "
           "IP header: traffic class, flow label, hop limit)",
           [post("SEND", [{"bytes": msg.hex()}]),
            sent(req_pkts("SEND", msg, 256, 0), dscp=46, ttl=5)], result=A, flags=H)
    f.test(gc, "connectx: 30 SENDs posted: all 30 go out (no fixed outstanding cap; the PSN "
               "window is 2^23)", C["req_pkt"] + "; seed 004 L126-133 (the seed004 profile "
               "only)", many + [sent(outs)], result=A, flags=H)
    return f


# ---- UD ----------------------------------------------------------------------------------------
def gen_ud():
    f = VFile("ud", "roce_ud", header(
        "RoCEv2 UD on one device: SEND ONLY with DETH in (the Q_Key check, the 40-byte GRH "
        "area, the source QP in the CQE) and out (the datagram segment, the Q_Key bit-31 "
        "rule)."))
    H = ("Handles",)
    msg = pattern(120, 9)
    for v6 in (False, True):
        fam = "IPv6" if v6 else "IPv4"
        g = f.group(f"UD QP 0 in RTS, {fam}, q_key 0x11111111, sq_psn 0",
                    setup1(type="UD", local={"l3": "ipv6" if v6 else "ipv4"}))
        p = Peer(v6=v6)
        fr = p.pkt("UD_SEND_ONLY", 7, msg, M.deth(QKEY, PEER_QPN), ackreq=0)
        ip = fr[14:14 + (40 if v6 else 20)]
        grh = [mem(DATA + RQ_OFF[0], ip)] if v6 else [mem(DATA + RQ_OFF[0] + 20, ip)]
        f.test(g, f"{fam} UD SEND ONLY (Q_Key right, source QP 0x100): the receive buffer "
                  "holds the 40-byte GRH area (" + ("the IPv6 header" if v6 else
                                                    "the IPv4 header in its last 20 bytes") +
                  ") then the payload; RESP_SEND CQE of 160 bytes; source QP 0x100 in the "
                  "CQE (flags_rqpn[23:0], bytes 25-27); no ACK",
               C["ud_recv"],
               recv() + [rx(fr)] + grh + [
                   mem(DATA + RQ_OFF[0] + 40, msg),
                   cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 160}]),
                   mem(RCQ + 25, bytes.fromhex("000100")), no_frames()], flags=H)
        f.test(g, f"{fam} UD SEND with Q_Key 0x22222222 (the QP's is 0x11111111): dropped "
                  "silently", C["ud_qkey"],
               recv() + [rx(p.pkt("UD_SEND_ONLY", 7, msg, M.deth(0x22222222, PEER_QPN),
                                  ackreq=0)),
                         cqes("recv", []), mem(DATA + RQ_OFF[0] + 40, bytes(120)), no_frames(),
                         events([ev_drop("qkey_mismatch", QPN0, 7)])],
               result="invalid", flags=H)
        f.test(g, f"{fam} UD SEND with a wrong ICRC: dropped silently", C["icrc_bad"],
               recv() + [rx(p.pkt("UD_SEND_ONLY", 7, msg, M.deth(QKEY, PEER_QPN), ackreq=0,
                                  icrc_ok=False)), cqes("recv", []),
                         events([ev_drop("bad_icrc")])],
               result="invalid", flags=H + ("BadIcrc",))
        f.test(g, f"{fam} UD SEND with P_Key 0x1234: dropped silently", C["pkey"],
               recv() + [rx(p.pkt("UD_SEND_ONLY", 7, msg, M.deth(QKEY, PEER_QPN), ackreq=0,
                                  pkey=0x1234)), cqes("recv", []),
                         events([ev_drop("pkey_mismatch", QPN0, 7)])],
               result="invalid", flags=H)
        f.test(g, f"{fam} UD SEND ONLY with immediate: RESP_SEND_IMM CQE with the immediate",
               C["ud_recv"] + "; " + C["send_imm"],
               recv() + [rx(p.pkt("UD_SEND_ONLY_IMM", 7, msg,
                                  M.deth(QKEY, PEER_QPN) + M.immdt(0x0BADF00D), ackreq=0)),
                         mem(DATA + RQ_OFF[0] + 40, msg),
                         mem(RCQ + 36, bytes.fromhex("0badf00d")),
                         cqes("recv", [{"opcode": M.CQE_RESP_SEND_IMM, "byte_cnt": 160}])],
               flags=H)
        f.test(g, f"{fam} UD SEND with no receive WQE: dropped silently (UD has no RNR)",
               "IBTA Vol. 1 §9.8 (UD: no acknowledgement, a message with no receive WQE is "
               "dropped)", [rx(fr), no_frames(), cqes("recv", []),
                            events([ev_drop("ud_no_receive_wqe", QPN0, 7)])],
               result="invalid", flags=H)
        f.test(g, f"{fam} UD SEND of 300 bytes into a 256-byte buffer (300 + 40 > 256): the "
                  "WQE completes with Local Length Error, or the datagram is dropped",
               "IBTA Vol. 1 §9.8, §11.4.1.2 (UD message too long for the receive WQE); mlx5 "
               "MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR",
               recv() + [rx(p.pkt("UD_SEND_ONLY", 7, pattern(300), M.deth(QKEY, PEER_QPN),
                                  ackreq=0)),
                         {"cqes": {"qp": 0, "cq": "recv", "any_of": [
                             {"reading": "completed in error, Local Length Error",
                              "expect": [{"layout": "err_cqe", "opcode": M.CQE_RESP_ERR,
                                          "syndrome": M.SYN["LOCAL_LENGTH"]}], "exact": True},
                             {"reading": "dropped, the WQE kept", "expect": [],
                              "exact": True}]}}, no_frames()],
               result="acceptable", flags=H + ("Acceptable",))
        # UD send
        out_path = dev_path(v6)
        for wr_qkey, sent_qkey, why in ((0x33333333, 0x33333333, "the WR's Q_Key"),
                                        (0x80000005, QKEY, "bit 31 set: the QP's Q_Key")):
            o = Out("UD_SEND_ONLY", 0, msg, dest_qp=0x155, deth=(sent_qkey, QPN0), ackreq=0)
            st = sent([o], v6=v6) if v6 else events([ev_tx("UD_SEND_ONLY", 0, 0x155)])
            f.test(g, f"{fam} UD SEND of 120 bytes to QP 0x155 with Q_Key {wr_qkey:#x}: UD "
                      f"SEND ONLY, DETH Q_Key {sent_qkey:#x} ({why}), source QP 2, PSN 0; the "
                      "REQ CQE at once (UD is unacknowledged)",
                   C["ud_qkey31"] + "; " + C["ud_send"],
                   [post("SEND", [{"bytes": msg.hex()}], av={"qpn": "0x155",
                                                               "q_key": hex(wr_qkey)}),
                    st, cqes("send", [req_cqe("SEND", 0)])],
                   result="acceptable" if v6 else "valid",
                   flags=H + (("Acceptable",) if v6 else ()))
        del out_path
        if v6:
            f.test(g, "IPv6 UD SEND of 5000 bytes (above every path MTU, 4096 the largest): "
                      "nothing sent, the WQE completes with Local Length Error (0x1)",
                   "IBTA Vol. 1 §9.8 (a UD message is one packet, at most the path MTU), "
                   "§10.8.3 (Local Length Error); mlx5 MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR",
                   [post("SEND", [{"bytes": pattern(5000).hex()}], av={"qpn": "0x155"}),
                    no_frames(), cqes("send", [err_cqe(M.SYN["LOCAL_LENGTH"], 0)])],
                   result="invalid", flags=H)
        if v6:
            o1 = Out("UD_SEND_ONLY", 0, msg, dest_qp=0x155, deth=(QKEY, QPN0), ackreq=0)
            o2 = Out("UD_SEND_ONLY", 1, msg[::-1], dest_qp=0x156, deth=(QKEY, QPN0), ackreq=0)
            f.test(g, "IPv6 two UD SENDs: PSNs 0 and 1 (a UD QP numbers its packets too); "
                      "wqe_counter 0 and 2 (a UD WQE of ctrl, the 48-byte address vector and "
                      "a data segment takes two WQEBBs)",
                   C["ud_send"] + "; IBTA Vol. 1 §9.7.1",
                   [post("SEND", [{"bytes": msg.hex()}], av={"qpn": "0x155"}),
                    post("SEND", [{"bytes": msg[::-1].hex()}], av={"qpn": "0x156"}),
                    sent([o1, o2]), cqes("send", [req_cqe("SEND", 0), req_cqe("SEND", 2)])],
                   result="acceptable", flags=H + ("Acceptable",))
    return f


def cnp_orders(dest_qp=PEER_QPN):
    """The events of a CE-marked request: the CNP noted (roce_cnp dir 0) and sent (roce_tx
    0x81), and the ACK; the public material fixes no order between the CNP and the ACK, nor
    whether the note comes before or after the CNP leaves."""
    note, cnp, a = {"event": EV_CNP, "dir": 0}, ev_tx("CNP", dest_qp=dest_qp), ev_tx("RC_ACK", 0)
    orders = (("CNP noted, sent, then the ACK", [note, cnp, a]),
              ("CNP sent, noted, then the ACK", [cnp, note, a]),
              ("the ACK, then the CNP noted and sent", [a, note, cnp]),
              ("the ACK, then the CNP sent and noted", [a, cnp, note]))
    return [{"reading": r, "expect": e, "exact": False} for r, e in orders]


# ---- ECN / CNP (notification point) -----------------------------------------------------------
def gen_ecn():
    f = VFile("ecn_cnp", "roce_ecn_cnp", header(
        "RoCEv2 congestion notification: a CE-marked packet arriving at QP 2 makes the device "
        "send a CNP (opcode 0x81) to the source QP, besides handling the packet; the reaction "
        "point of the seed-004 profile is in rc_requester.json."))
    H = ("Handles",)
    msg = pattern(100, 11)
    for v6 in (True, False):
        fam = "IPv6" if v6 else "IPv4"
        g = f.group(f"RC QP 0 in RTS, {fam}, MTU 1024", setup1(
            mtu=3, local={"l3": "ipv6" if v6 else "ipv4"}))
        pce = Peer(v6=v6, ecn=3)
        pect = Peer(v6=v6, ecn=2)
        f.test(g, f"{fam} SEND marked CE (ECN 11): placed and ACKed as usual, and a CNP "
                  "(opcode 0x81) goes to QP 0x100", C["cnp_np"],
               recv() + [rx(pce.send(0, msg)), mem(DATA + RQ_OFF[0], msg),
                         cqes("recv", [{"opcode": 2, "byte_cnt": 100}]),
                         {"events": {"any_of": cnp_orders()}}],
               result="acceptable", flags=H + ("Acceptable",))
        f.test(g, f"{fam} SEND marked ECT(0) (ECN 10, not CE): no CNP, only the ACK",
               C["cnp_np"], recv() + [rx(pect.send(0, msg)),
                                      events([ev_tx("RC_ACK", 0)])] +
               ([sent([ack(0, 1, 0)])] if v6 else []),
               result="acceptable" if v6 else "valid",
               flags=H + (("Acceptable",) if v6 else ()))
        f.test(g, f"{fam} CE-marked SEND with a wrong ICRC: dropped before anything, no CNP",
               C["icrc_bad"] + "; " + C["cnp_np"],
               recv() + [rx(pce.send(0, msg, icrc_ok=False)), no_frames(), cqes("recv", []),
                         events([ev_drop("bad_icrc")])],
               result="invalid", flags=H + ("BadIcrc",))
        f.test(g, f"{fam} CE-marked WRITE with a wrong R_Key: the NAK, and the CNP (the mark is "
                  "the network's, not the request's)", C["cnp_np"] + "; " + C["rkey"],
               [rx(pce.write(0, msg, DATA + WR_OFF, rkey=0x999)),
                events([{"event": EV_CNP, "dir": 0}])], result="invalid", flags=H)
    gs = f.group("seed004 profile: RC QP 0 in RTS, IPv6, MTU 1024",
                 setup1(mtu=3, local={"l3": "ipv6"}), profile={"roce_profile": 1})
    pce = Peer(v6=True, ecn=3)
    f.test(gs, "seed004: two CE-marked SENDs back to back: a CNP for each (the note's RX side "
               "sends the CNP for every ECN packet; no rate limit is given)",
           "seed 004 L137 (for RX side, send the CNP to TX); " + C["cnp_np"],
           recv((RQ_OFF[0], RQ_OFF[1])) + [
               rx(pce.send(0, msg)), rx(pce.send(1, msg)),
               events([ev_tx("CNP", dest_qp=PEER_QPN), ev_tx("CNP", dest_qp=PEER_QPN)]),
               cqes("recv", [{"opcode": 2}, {"opcode": 2}])], flags=H + ("Seed004",))
    gu = f.group("UD QP 0 in RTS, IPv6", setup1(type="UD", local={"l3": "ipv6"}))
    pu = Peer(v6=True, ecn=3)
    f.test(gu, "IPv6 UD SEND marked CE from source QP 0x123: delivered, and a CNP to QP 0x123 "
               "(the DETH's source QP)", C["cnp_np"] + "; " + C["ud_recv"],
           recv() + [rx(pu.pkt("UD_SEND_ONLY", 0, msg, M.deth(QKEY, 0x123), ackreq=0)),
                     cqes("recv", [{"opcode": 2, "byte_cnt": 140}]),
                     events([{"event": EV_CNP, "dir": 0}, ev_tx("CNP", dest_qp=0x123)])],
           flags=H)
    return f


def pair_sent(path, outs, dev):
    """sent() for one device of a pair: its own addresses (path), its QP's UDP source port."""
    st = sent(outs, v6=True, dev=dev)
    for a in st["frames"]["any_of"]:
        for e in a["expect"]:
            fr = bytes.fromhex(e["hex"])
            d = M.parse(fr)
            pth = M.Path(path.smac, path.dmac, path.sip, path.dip, sport=path.sport,
                         ecn=d["ecn"], ttl=64)
            hdr_len = len(fr) - 14 - 40 - 8 - 12 - 4 - len(d["payload"]) - d["pad"]
            h = fr[14 + 40 + 8 + 12:14 + 40 + 8 + 12 + hdr_len]
            b = M.frame(pth, d["opcode"], d["dest_qp"], d["psn"], d["payload"], h,
                        ackreq=d["ackreq"], m=(fr[14 + 40 + 8 + 1] >> 6) & 1)
            csum = fr[14 + 40 + 6:14 + 40 + 8] != b"\x00\x00"
            e["hex"] = (with_udp_csum(b) if csum else b).hex()
    return st


# ---- two devices ------------------------------------------------------------------------------
def gen_pair():
    f = VFile("pair", "roce_pair", header(
        "RoCEv2 on two devices joined by a link (docs/vectors.md 'Two devices'): RC SEND, "
        "WRITE, READ end to end; loss, duplication, reordering and CE marking by the link; "
        "every message placed once and in order, every WQE completed once; UD a to b."))
    msg = pattern(600, 21)
    g = f.group("RC pair a-b, MTU 256, IPv4, ack_timeout 10 (4.19 ms)",
                setup2(mtu=1, ack_timeout=10))
    base = [{"qp_recv": {"qp": 0, "entries": [{"offset": hex(RQ_OFF[0]),
                                               "byte_count": 1024}]}, "dev": "b"}]
    done_send = [mem(DATA + RQ_OFF[0], msg, dev="b"),
                 cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 600}], dev="b"),
                 cqes("send", [req_cqe("SEND", 0)], dev="a")]
    f.test(g, "SEND of 600 bytes a -> b: placed in b's WQE, one receive CQE on b, one REQ CQE "
              "on a", C["pair"] + "; " + C["send"], base + [post("SEND", [{"bytes": msg.hex()}])]
           + done_send)
    f.test(g, "RDMA WRITE of 600 bytes a -> b (b's data MKey): placed, no CQE on b, REQ CQE on a",
           C["pair"] + "; " + C["write"],
           [post("RDMA_WRITE", [{"bytes": msg.hex()}], raddr={"offset": hex(WR_OFF)}),
            mem(DATA + WR_OFF, msg, dev="b"), cqes("recv", [], dev="b"),
            cqes("send", [req_cqe("RDMA_WRITE", 0)], dev="a")])
    f.test(g, "RDMA READ of 600 bytes: a reads b's memory into its own", C["pair"] + "; " +
           C["req_read"],
           [{"mem_write": {"addr": hex(DATA + WR_OFF), "hex": msg.hex()}, "dev": "b"},
            post("RDMA_READ", [{"addr": hex(DATA + 0x3000), "byte_count": 600}],
                 raddr={"offset": hex(WR_OFF)}),
            mem(DATA + 0x3000, msg, dev="a"), cqes("send", [req_cqe("RDMA_READ", 0)], dev="a")])
    f.test(g, "WRITE of 3 packets, the FIRST lost (a -> b ordinal 0): b NAKs the sequence, a "
              "goes back to PSN 0; placed once, one CQE", C["pair"] + "; " + C["req_nak_seq"] +
           "; " + C["psn_seq"],
           [{"link": {"dir": "ab", "loss": [0]}},
            post("RDMA_WRITE", [{"bytes": msg.hex()}], raddr={"offset": hex(WR_OFF)}),
            {"advance_ns": 1000000},
            mem(DATA + WR_OFF, msg, dev="b"), cqes("send", [req_cqe("RDMA_WRITE", 0)], dev="a"),
            events([ev_nak(0, M.AETH_NAK | M.NAK_PSN_SEQ)], dev="b"),
            {"link_counters": {"ab": {"lost": 1}}}])
    f.test(g, "WRITE of 3 packets, the LAST lost: nothing tells a but its timer; after the "
              "local ACK timeout a resends; placed once, one CQE", C["pair"] + "; " + C["req_to"],
           [{"link": {"dir": "ab", "loss": [2]}},
            post("RDMA_WRITE", [{"bytes": msg.hex()}], raddr={"offset": hex(WR_OFF)}),
            {"advance_ns": 1000000}, cqes("send", [], dev="a"),
            {"advance_ns": 30000000},
            mem(DATA + WR_OFF, msg, dev="b"), cqes("send", [req_cqe("RDMA_WRITE", 0)], dev="a"),
            events([{"event": EV_RETX, "reason": 0}], dev="a")])
    f.test(g, "SEND a -> b, b's ACK lost: a times out and resends; b sees a duplicate, ACKs "
              "again, places nothing twice: one CQE on each side", C["pair"] + "; " +
           C["psn_dup"],
           base + [{"link": {"dir": "ba", "loss": [0]}}, post("SEND", [{"bytes": msg.hex()}]),
                   {"advance_ns": 30000000}] + done_send)
    f.test(g, "SEND a -> b duplicated by the link: one placement, one CQE on b", C["pair"] +
           "; " + C["psn_dup"],
           base + [{"link": {"dir": "ab", "duplicate": [0, 1, 2]}},
                   post("SEND", [{"bytes": msg.hex()}]), {"advance_ns": 1000000}] + done_send)
    f.test(g, "WRITE of 3 packets, the FIRST held back (reordered behind the others): Go-Back-N "
              "repairs it; placed once, one CQE", C["pair"] + "; " + C["req_nak_seq"],
           [{"link": {"dir": "ab", "delay_ns": 1000, "reorder": [0], "reorder_ns": 5000}},
            post("RDMA_WRITE", [{"bytes": msg.hex()}], raddr={"offset": hex(WR_OFF)}),
            {"advance_ns": 2000000},
            mem(DATA + WR_OFF, msg, dev="b"), cqes("send", [req_cqe("RDMA_WRITE", 0)], dev="a")])
    ten = [post("RDMA_WRITE", [{"bytes": pattern(600, 30 + i).hex()}],
                raddr={"offset": hex(WR_OFF + 0x1000 * i)}) for i in range(10)]
    f.test(g, "10 WRITEs of 600 bytes with 10% random loss both ways (seed 7): every WRITE "
              "placed, every WQE completed once and in order", C["pair"] + "; " +
           C["req_nak_seq"] + "; " + C["req_to"],
           [{"link": {"loss_ppm": 100000, "seed": 7, "tick_ns": 100000}}] + ten + [{"advance_ns": 2000000000}] +
           [mem(DATA + WR_OFF + 0x1000 * i, pattern(600, 30 + i), dev="b") for i in range(10)] +
           [cqes("send", [req_cqe("RDMA_WRITE", i) for i in range(10)], dev="a")])
    g6 = f.group("RC pair a-b over IPv6 (a 2001:db8::1, b 2001:db8::2), MTU 256",
                 setup2(mtu=1, local={"l3": "ipv6"}))
    pa = M.Path("02:4e:49:43:52:0a", "02:4e:49:43:52:0b", LIP6, PIP6, sport=UDP_SPORT0)
    pb = M.Path("02:4e:49:43:52:0b", "02:4e:49:43:52:0a", PIP6, LIP6, sport=UDP_SPORT0)
    small = pattern(100, 40)
    f.test(g6, "IPv6 SEND of 100 bytes a -> b: a's SEND ONLY (to b's QP 2) and b's ACK (to a's "
               "QP 2, PSN 0, MSN 1) whole on the wire, the message placed on b",
           C["pair"] + "; " + C["send"] + "; " + C["icrc"],
           base + [post("SEND", [{"bytes": small.hex()}]),
                   pair_sent(pa, [Out("RC_SEND_ONLY", 0, small, dest_qp=QPN0,
                                      ackreq="open_last")], "a"),
                   pair_sent(pb, [Out("RC_ACK", 0, dest_qp=QPN0, aeth=(M.AETH_ACK, 0, 1))],
                             "b"),
                   mem(DATA + RQ_OFF[0], small, dev="b"),
                   cqes("send", [req_cqe("SEND", 0)], dev="a")],
           result="acceptable", flags=("Acceptable",))
    ge = f.group("RC pair a-b, MTU 256, the packets of both sent ECN-capable (path tclass 2)",
                 setup2(mtu=1, ack_timeout=10, path={"tclass": 2}))
    f.test(ge, "The link marks a's first packet CE: b (notification point) sends a CNP to a's "
               "QP, a receives it; the SEND still completes once", C["cnp_np"] + "; " + C["pair"],
           base + [{"link": {"dir": "ab", "ce": [0]}}, post("SEND", [{"bytes": msg.hex()}]),
                   {"advance_ns": 1000000}] + done_send +
           [events([{"event": EV_CNP, "dir": 0}], dev="b"),
            events([{"event": EV_CNP, "dir": 1}], dev="a"),
            {"link_counters": {"ab": {"ce_marked": 1}}}])
    gu = f.group("UD pair a-b, IPv4", setup2(type="UD"))
    f.test(gu, "UD SEND of 200 bytes a -> b: b's buffer holds the GRH area then the payload; "
               "CQE of 240 bytes on b, REQ CQE on a", C["ud_recv"] + "; " + C["ud_send"],
           [{"qp_recv": {"qp": 0, "entries": [{"offset": hex(RQ_OFF[0]), "byte_count": 512}]},
             "dev": "b"},
            post("SEND", [{"bytes": pattern(200).hex()}]),
            mem(DATA + RQ_OFF[0] + 40, pattern(200), dev="b"),
            cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 240}], dev="b"),
            cqes("send", [req_cqe("SEND", 0)], dev="a")])
    f.test(gu, "UD SEND a -> b lost by the link: completes on a anyway (unreliable), nothing "
               "on b", "IBTA Vol. 1 §9.8 (UD: unacknowledged, unreliable)",
           [{"qp_recv": {"qp": 0, "entries": [{"offset": hex(RQ_OFF[0]), "byte_count": 512}]},
             "dev": "b"}, {"link": {"dir": "ab", "loss": [0]}},
            post("SEND", [{"bytes": pattern(200).hex()}]), {"advance_ns": 1000000},
            cqes("recv", [], dev="b"), cqes("send", [req_cqe("SEND", 0)], dev="a")])
    for g_ in f.groups:
        g_["devices"] = 2
    return f


def main(argv):
    check = "--check" in argv
    files = {}
    import gen_roce_reasons
    for gen in (gen_responder, gen_requester, gen_ud, gen_ecn, gen_pair):
        v = gen()
        gen_roce_reasons.extend(v)
        files[os.path.join(OUT, v.name + ".json")] = \
            (json.dumps(v.doc(), indent=1, ensure_ascii=False) + "\n").encode()
    return write_or_check(files, check, "gen_roce")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

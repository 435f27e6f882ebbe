"""What every RoCE vector file's generator shares (gen_roce.py writes the files): the fixed
world of the step language (docs/vectors.md "RoCE"), the citations, the events, the peer the
vector plays, the packets the device sends under every reading the public material leaves
open, and the requester's helpers (posting a WQE, its packets, its CQEs). Sources as gen_roce.py
says: IBTA Vol. 1, Annex A17, the public mlx5 constants, seed 004; never nicref's code or output.
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
from genfiles import VFileBase, write_or_check  # noqa: E402,F401

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
    "Overrun": {"bugType": "CONFORMANCE", "description":
                "The test overruns a CQ on purpose (its CQEs are not polled): PRM §7.12.1 "
                "puts the CQ and the work queue in error and raises the CQ error event; the "
                "driver violation CQ_OVERRUN is expected."},
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


def extender(table):
    """The extend(f) of a module that adds tests to some of gen_roce.py's vector files: table
    maps a file's name to the function that adds that file's tests."""
    def extend(f):
        gen = table.get(f.name)
        if gen:
            gen(f)
    return extend

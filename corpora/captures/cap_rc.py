"""RC flows and their events, the pairing check, other traffic (LLDP, ARP, TCP) and the CM MADs
on QP1.

Part of the capture generator (gen_captures.py): from public formats only, it never runs nicref."""
import struct

from scapy.layers.inet import IP, TCP
from scapy.layers.l2 import ARP
from scapy.packet import Raw

from cap_frames import (MAC_SW, OP_ACK, OP_READ_REQ, OP_READ_RESP_ONLY, OP_SEND_ONLY,
                        OP_UD_SEND_ONLY, OP_WRITE_FIRST, OP_WRITE_LAST, OP_WRITE_MIDDLE,
                        OP_WRITE_ONLY, PMTU, QKEY_GSI, RETRY_CNT, TIMEOUT, T_ACK_NS, aeth,
                        deth, mac_bytes, payload_bytes, reth, roce_frame, transport)


# ---- RC flows --------------------------------------------------------------------------------

def psn_add(p, n):
    return (p + n) & 0xFFFFFF


def psn_le(a, b):
    """a <= b in 24-bit serial arithmetic (IBTA 9.7.2: the PSN space is a circle)."""
    return ((b - a) & 0xFFFFFF) < 0x800000


class Flow:
    """The requests of one side of an RC QP pair (requester `req` -> responder `resp`) and the
    acknowledgements travelling back. qp = the responder's QPN (DestQP of the requests),
    ack_qp = the requester's QPN (DestQP of the ACKs and read responses)."""

    def __init__(self, l3kind, req, resp, req_qp, resp_qp, psn0, sport_req, sport_ack,
                 paired_by):
        self.l3kind, self.req, self.resp = l3kind, req, resp
        self.req_qp, self.resp_qp, self.psn0 = req_qp, resp_qp, psn0
        self.sport_req, self.sport_ack = sport_req, sport_ack   # ints, or callables(rng)
        self.paired_by = paired_by
        self.requests = self.retransmissions = 0
        self.conforming = True

    def addr(self, node):
        return {"v4": node.v4, "v6": node.v6, "v1": node.gid}[self.l3kind]

    def key(self):
        return (self.addr(self.req), self.addr(self.resp), self.resp_qp)


def sport_of(s, rng):
    return s(rng) if callable(s) else s


def rc_events(rng, fl, t, nbatches, losses, late=None, reads=True):
    """One flow's frames as (t_ns, 'req'|'resp', dict). A batch is 1-4 messages posted back to
    back (AckReq on its last packet); the responder acknowledges the whole batch with one
    coalesced ACK for its last PSN (or, when the batch ends with an RDMA READ, with the read
    response, which acknowledges every earlier PSN implicitly: IBTA 9.7.5.1.3). losses[i] = how
    many times batch i goes unacknowledged: each time the requester resends the whole batch
    (go-back-N from its first PSN) exactly T_ACK_NS after the previous transmission of that
    first PSN. late = (batch, n, delta_ns): the n-th retransmission of that batch comes delta_ns
    late (the non-conforming twin)."""
    ev = []
    psn = fl.psn0
    msn = 0
    va = 0x7F3A_0000_0000 + rng.randrange(1 << 20) * 4096
    rkey = rng.randrange(0x1000, 0x100000)
    for bi in range(nbatches):
        lost = losses.get(bi, 0)
        nmsg = rng.randint(1, 4)
        pkts = []                                     # (opcode, psn, ext, payload)
        read_len = None
        for mi in range(nmsg):
            last_msg = mi == nmsg - 1
            r = rng.random()
            if reads and last_msg and lost == 0 and r < 0.25:
                read_len = rng.randrange(16, 513, 4)
                pkts.append((OP_READ_REQ, psn, reth(va, rkey, read_len), b""))
                psn = psn_add(psn, 1)
                va += 4096
            elif r < 0.45:
                npk = rng.randint(1, 3)
                size = (npk - 1) * PMTU + rng.randrange(4, 257)
                for k in range(npk):
                    n = PMTU if k < npk - 1 else size - (npk - 1) * PMTU
                    if npk == 1:
                        op, ext = OP_WRITE_ONLY, reth(va, rkey, size)
                    elif k == 0:
                        op, ext = OP_WRITE_FIRST, reth(va, rkey, size)
                    elif k < npk - 1:
                        op, ext = OP_WRITE_MIDDLE, b""
                    else:
                        op, ext = OP_WRITE_LAST, b""
                    pkts.append((op, psn, ext, payload_bytes(rng, n)))
                    psn = psn_add(psn, 1)
                va += 4096 * 4
            else:
                n = rng.randrange(32, 257)
                pkts.append((OP_SEND_ONLY, psn, b"", payload_bytes(rng, n)))
                psn = psn_add(psn, 1)
        spacing = [rng.randrange(80, 400) for _ in pkts]
        first_tx = t
        for attempt in range(lost + 1):
            if attempt:
                gap = T_ACK_NS
                if late and late[0] == bi and late[1] == attempt:
                    gap += late[2]
                    fl.conforming = False
                t = first_tx + gap
                first_tx = t
            tt = t
            for k, (op, p, ext, pl) in enumerate(pkts):
                ev.append((tt, "req", dict(op=op, psn=p, ext=ext, payload=pl,
                                           ackreq=int(k == len(pkts) - 1),
                                           retx=attempt > 0)))
                fl.requests += 1
                fl.retransmissions += attempt > 0
                tt += spacing[k]
            t = tt
        msn += nmsg
        t += rng.randrange(1800, 4000)                # the responder's ACK at our port
        last_psn = pkts[-1][1]
        if read_len is not None:
            ev.append((t, "resp", dict(op=OP_READ_RESP_ONLY, psn=last_psn,
                                       ext=aeth(0x1F, msn), payload=payload_bytes(rng, read_len))))
        else:
            ev.append((t, "resp", dict(op=OP_ACK, psn=last_psn, ext=aeth(0x1F, msn),
                                       payload=b"")))
        t += rng.randrange(1000, 20000)               # the application posts the next batch
    return ev, t


def rc_frames(link, rng, fl, ev, ipid):
    out = []
    for t, kind, d in ev:
        if kind == "req":
            tr = transport(d["op"], fl.resp_qp, d["psn"], d["ext"], d["payload"], d["ackreq"])
            out.append(roce_frame(link, t, fl.req, fl.resp, fl.l3kind,
                                  sport_of(fl.sport_req, rng), tr, "rc", ipid,
                                  flow=fl, kind="req", psn=d["psn"]))
        else:
            tr = transport(d["op"], fl.req_qp, d["psn"], d["ext"], d["payload"])
            out.append(roce_frame(link, t, fl.resp, fl.req, fl.l3kind,
                                  sport_of(fl.sport_ack, rng), tr, "rc", ipid,
                                  flow=fl, kind="resp", psn=d["psn"]))
    return out


def check_pairing(frames, flows, cm_pairs=()):
    """Asserts that what each flow's expected paired_by says is what separates it: for every
    ACK/read response, the candidates are the request flows in the reverse direction between
    the same two addresses; 'unique' = one candidate; 'cm' = the ACK's QP was named by a CM
    exchange in the capture; 'udp_sport' = the ACK's UDP source port is a source port of the
    requests of exactly one candidate, the right one; 'psn' = the source port names no
    candidate and the acknowledged PSN is outstanding in exactly one candidate, the right one."""
    sports = {}
    for f in frames:
        if f.info.get("kind") == "req":
            sports.setdefault(id(f.info["flow"]), set()).add(f.info["sport"])
    outstanding = {id(fl): [] for fl in flows}
    for f in frames:
        fl = f.info.get("flow")
        if fl is None:
            continue
        if f.info["kind"] == "req":
            if f.info["psn"] not in outstanding[id(fl)]:
                outstanding[id(fl)].append(f.info["psn"])
            continue
        cands = [c for c in flows if c.l3kind == fl.l3kind and c.req is fl.req and
                 c.resp is fl.resp]
        p = f.info["psn"]
        if fl.paired_by == "unique":
            assert cands == [fl], fl.key()
        elif fl.paired_by == "cm":
            assert cm_pairs.get((fl.req.mac, fl.req_qp)) == fl.resp_qp, fl.key()
            assert cm_pairs.get((fl.resp.mac, fl.resp_qp)) == fl.req_qp, fl.key()
        sport = f.info["sport"]
        by_port = [c for c in cands if sport is not None and sport in sports.get(id(c), ())]
        if fl.paired_by in ("unique", "cm"):
            pass
        elif fl.paired_by == "udp_sport":
            assert (fl.req.mac, fl.req_qp) not in cm_pairs
            assert by_port == [fl], (fl.key(), sport)
        elif fl.paired_by == "psn":
            assert (fl.req.mac, fl.req_qp) not in cm_pairs
            assert not by_port, (fl.key(), sport)
            by_psn = [c for c in cands if p in outstanding[id(c)]]
            assert by_psn == [fl], (fl.key(), p)
        else:
            raise AssertionError(fl.paired_by)
        outstanding[id(fl)] = [q for q in outstanding[id(fl)] if not psn_le(q, p)]
    for fl in flows:
        assert not outstanding[id(fl)], ("capture ends with PSNs outstanding", fl.key())


# ---- Other traffic ---------------------------------------------------------------------------

def lldp_bytes():
    """An LLDP frame from the switch port (IEEE 802.1AB TLVs: chassis ID = MAC, port ID =
    interface name, TTL 120, system name, end)."""
    def tlv(t, v):
        return struct.pack("!H", (t << 9) | len(v)) + v
    return tlv(1, b"\x04" + mac_bytes(MAC_SW)) + tlv(2, b"\x05Ethernet12") + \
        tlv(3, struct.pack("!H", 120)) + tlv(5, b"leaf-07") + \
        tlv(6, b"SONiC Software Version: SONiC.202311 - HwSku: Mellanox-SN4600C") + tlv(0, b"")


def arp_bytes(op, smac, sip, tmac, tip):
    return bytes(ARP(op=op, hwsrc=smac, psrc=sip, hwdst=tmac, pdst=tip))


def tcp_bytes(src, dst, sport, dport, seq, ack, flags, payload=b""):
    return bytes(IP(src=src, dst=dst, ttl=64, id=0x4000 + (seq & 0xFFF), flags="DF") /
                 TCP(sport=sport, dport=dport, seq=seq, ack=ack, flags=flags, window=502) /
                 Raw(payload))


# ---- CM MADs on QP1 (IBTA Vol. 1 chapter 12; MAD header 13.4.2) ------------------------------

CM_REQ, CM_REP, CM_RTU, CM_DREQ, CM_DREP = 0x0010, 0x0013, 0x0014, 0x0015, 0x0016


def mad_header(attr, tid):
    """Common MAD header: BaseVersion 1, MgmtClass 0x07 (CM), ClassVersion 2, Method 0x03
    (Send), Status, ClassSpecific, TransactionID, AttributeID, Reserved, AttributeModifier."""
    return struct.pack("!BBBBHHQHHI", 1, 0x07, 2, 0x03, 0, 0, tid, attr, 0, 0)


def v4_gid(ip):
    return b"\0" * 10 + b"\xff\xff" + bytes(int(x) for x in ip.split("."))


def cm_req(tid, comm_id, qpn, psn, guid, src_ip, dst_ip, src_port, service_port):
    """REQ (ConnectRequest, IBTA 12.6.5 Table 106): local QPN at byte 32 and starting PSN at
    byte 44 of the message (MAD bytes 56 and 68)."""
    d = bytearray(232)
    struct.pack_into("!I", d, 0, comm_id)
    struct.pack_into("!Q", d, 8, 0x0000000001060000 | service_port)   # RDMA CM, PS_TCP, port
    struct.pack_into("!Q", d, 16, guid)                                  # local CA GUID
    struct.pack_into("!I", d, 32, (qpn << 8) | 16)        # local QPN, responder resources 16
    struct.pack_into("!I", d, 36, 16)                     # local EECN 0, initiator depth 16
    d[43] = (20 << 3) | (0 << 1) | 1                      # remote CM timeout 20, RC, E2E fc
    struct.pack_into("!I", d, 44, (psn << 8) | (20 << 3) | RETRY_CNT)  # starting PSN
    struct.pack_into("!H", d, 48, 0xFFFF)                 # P_Key
    d[50] = (3 << 4) | 7                                  # path MTU 1024, RNR retry count 7
    d[51] = 15 << 4                                       # max CM retries 15
    # primary path (RoCE: permissive LIDs, IPv4-mapped GIDs, rate 100 Gb/s, TC, hop limit)
    struct.pack_into("!HH", d, 52, 0xFFFF, 0xFFFF)
    d[56:72] = v4_gid(src_ip)
    d[72:88] = v4_gid(dst_ip)
    d[91] = 16                                            # packet rate: 100 Gb/s
    d[92], d[93], d[94], d[95] = 0x6A, 64, 3 << 4, TIMEOUT << 3
    # bytes 96-139: no alternate path. Private data (140..231): the RDMA CM IP header
    # (version 0, IP version 4, source port, source and destination address, IPv4 in the last
    # 4 bytes of each 16)
    struct.pack_into("!BBH", d, 140, 0, 4 << 4, src_port)
    d[156:160] = bytes(int(x) for x in src_ip.split("."))
    d[172:176] = bytes(int(x) for x in dst_ip.split("."))
    return mad_header(CM_REQ, tid) + bytes(d)


def cm_rep(tid, comm_id, remote_comm_id, qpn, psn, guid):
    """REP (ConnectReply, IBTA 12.6.8 Table 110): local QPN at byte 12 and starting PSN at byte
    20 of the message (MAD bytes 36 and 44)."""
    d = struct.pack("!III", comm_id, remote_comm_id, 0)
    d += struct.pack("!III", qpn << 8, 0, psn << 8)
    d += struct.pack("!BBBB", 16, 16, (15 << 3) | (0 << 1) | 1, (7 << 5))
    d += struct.pack("!Q", guid)
    d += b"\0" * (232 - len(d))
    return mad_header(CM_REP, tid) + d


def cm_short(attr, tid, comm_id, remote_comm_id, qpn=None):
    """RTU (Table 111), DREQ (Table 112: remote QPN at byte 8), DREP (Table 113)."""
    d = struct.pack("!II", comm_id, remote_comm_id)
    if qpn is not None:
        d += struct.pack("!I", qpn << 8)
    d += b"\0" * (232 - len(d))
    return mad_header(attr, tid) + d


def mad_transport(gsi_psn, mad):
    """A MAD travels as a UD SEND Only to QP1 with a DETH (Q_Key 0x80010000, source QP 1)."""
    return transport(OP_UD_SEND_ONLY, 1, gsi_psn, deth(QKEY_GSI, 1), mad)

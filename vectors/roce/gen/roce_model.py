"""An independent Python model of RoCEv2 (RC and UD) for the vectors of vectors/roce/.

Written from public facts and seed 004 only (never from nicref's reference/ or harness/):

- [IBTA]  InfiniBand Architecture Specification Vol. 1 (Release 1.4):
          §9.2 BTH, §9.3.1 (Table 38 opcodes, headers per opcode), §9.3.2 RETH, §9.3.3 AETH
          (Table 41/42 syndrome encodings), §9.3.4 (DETH), ImmDt; §9.4 packet sequencing
          (FIRST/MIDDLE/LAST/ONLY, pad count); §9.6 transport header validation (P_Key §10.9.3,
          destination QP); §9.7.1 PSN arithmetic (24 bits, half window 2^23); §9.7.4.1
          responder checks (valid / duplicate / invalid PSN region); §9.7.5.1 ACK/NAK
          generation, NAK codes, the "one NAK per ePSN" rule (C9-? NAK sent latch);
          §9.7.5.2.8 RNR NAK timer (Table 45); §9.7.6 requester retry (Go-Back-N from the
          NAK's PSN; retry_cnt, rnr_retry with 7 = infinite); §9.7.6.1.1 local ACK timeout
          4.096 us x 2^timeout; §10.2.5 Q_Key (a WR Q_Key with bit 31 set takes the QP's);
          §7.8.1 ICRC (CRC-32, the invariant fields).
- [A17]   IBTA Vol. 1 Annex A17 RoCEv2: §A17.2 (UDP destination port 4791, the GRH replaced by
          IPv4/IPv6), §A17.3.3 (the ICRC over the masked IP/UDP/BTH with 8 bytes of 1s for
          the LRH), §A17.4.5 (the 40-byte GRH area of a UD receive buffer: for IPv4 the IPv4
          header in its last 20 bytes), §A17.9 (ECN marking, the CNP: opcode 0x81, BECN 1,
          16 reserved bytes).
- [MLX5]  Linux include/linux/mlx5/device.h and qp.h / rdma-core mlx5dv.h: CQE opcodes
          (MLX5_CQE_REQ 0, RESP_WR_IMM 1, RESP_SEND 2, RESP_SEND_IMM 3, REQ_ERR 13,
          RESP_ERR 14), error syndromes (MLX5_CQE_SYNDROME_*), WQE opcodes (MLX5_OPCODE_*).
- [S004]  seed 004 (the RDMA engine note) by line: RC_CHK order (L89-101), ACK policy
          (L103-109), 16 outstanding and the CNP window (L126-143).

Frames are built by Scapy (Ether/IP/IPv6/UDP and scapy.contrib.roce's BTH/AETH); the extension
headers are packed here from [IBTA]; the ICRC is computed here (icrc()) and cross-checked
against Scapy's (IPv4; Scapy has none for IPv6) and a ConnectX-4 Lx capture (test_gen_roce.py).
"""
import struct
import zlib

from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.contrib.roce import BTH  # noqa: F401  (the dissector, used by the self-test)

ROCE_PORT = 4791                       # [A17] §A17.2 the IANA UDP port of RoCEv2
PSN_MASK = 0xFFFFFF                    # [IBTA] §9.7.1 PSNs are 24 bits
HALF = 1 << 23                         # [IBTA] §9.7.4.1 the valid/duplicate half windows

# ---- opcodes ([IBTA] §9.3.1 Table 38) ------------------------------------------------------
# name -> (code, extension headers, position, with immediate)
# position: F first, M middle, L last, O only, '-' not a message packet
OPS = {
    "RC_SEND_FIRST": (0x00, (), "F", False),
    "RC_SEND_MIDDLE": (0x01, (), "M", False),
    "RC_SEND_LAST": (0x02, (), "L", False),
    "RC_SEND_LAST_IMM": (0x03, ("IMM",), "L", True),
    "RC_SEND_ONLY": (0x04, (), "O", False),
    "RC_SEND_ONLY_IMM": (0x05, ("IMM",), "O", True),
    "RC_WRITE_FIRST": (0x06, ("RETH",), "F", False),
    "RC_WRITE_MIDDLE": (0x07, (), "M", False),
    "RC_WRITE_LAST": (0x08, (), "L", False),
    "RC_WRITE_LAST_IMM": (0x09, ("IMM",), "L", True),
    "RC_WRITE_ONLY": (0x0A, ("RETH",), "O", False),
    "RC_WRITE_ONLY_IMM": (0x0B, ("RETH", "IMM"), "O", True),
    "RC_READ_REQUEST": (0x0C, ("RETH",), "O", False),
    "RC_READ_RESPONSE_FIRST": (0x0D, ("AETH",), "F", False),
    "RC_READ_RESPONSE_MIDDLE": (0x0E, (), "M", False),
    "RC_READ_RESPONSE_LAST": (0x0F, ("AETH",), "L", False),
    "RC_READ_RESPONSE_ONLY": (0x10, ("AETH",), "O", False),
    "RC_ACK": (0x11, ("AETH",), "-", False),
    "RC_ATOMIC_ACK": (0x12, ("AETH", "ATOMICACK"), "-", False),
    "RC_CMP_SWAP": (0x13, ("ATOMIC",), "O", False),
    "RC_FETCH_ADD": (0x14, ("ATOMIC",), "O", False),
    "UC_SEND_ONLY": (0x24, (), "O", False),
    "UD_SEND_ONLY": (0x64, ("DETH",), "O", False),
    "UD_SEND_ONLY_IMM": (0x65, ("DETH", "IMM"), "O", True),
    "CNP": (0x81, ("CNPPAD",), "-", False),
}
CODE = {n: v[0] for n, v in OPS.items()}
NAME = {v[0]: n for n, v in OPS.items()}
HDR_LEN = {"RETH": 16, "AETH": 4, "DETH": 8, "IMM": 4, "ATOMIC": 28, "ATOMICACK": 8,
           "CNPPAD": 16}

# AETH syndromes ([IBTA] §9.3.3 Table 41/42): bits 7:5 the kind, 4:0 credit / timer / code
AETH_ACK = 0x00                        # 000 ACK, low 5 bits the credit count
AETH_RNR = 0x20                        # 001 RNR NAK, low 5 bits the RNR timer (Table 45)
AETH_NAK = 0x60                        # 011 NAK, low 5 bits the code
NAK_PSN_SEQ, NAK_INV_REQ, NAK_REM_ACCESS, NAK_REM_OP = 0, 1, 2, 3
NO_CREDIT = 0x1F                       # credit field "invalid" (no end-to-end flow control)

# [IBTA] §9.7.5.2.8 Table 45: RNR NAK timer field -> microseconds (0 means 655.36 ms)
RNR_US = [655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920, 2560,
          3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880, 163840,
          245760, 327680, 491520]

# [MLX5] CQE opcodes and error syndromes, WQE opcodes
CQE_REQ, CQE_RESP_WR_IMM, CQE_RESP_SEND, CQE_RESP_SEND_IMM = 0, 1, 2, 3
CQE_REQ_ERR, CQE_RESP_ERR = 13, 14
SYN = {"LOCAL_LENGTH": 0x01, "LOCAL_QP_OP": 0x02, "LOCAL_PROT": 0x04, "WR_FLUSH": 0x05,
       "BAD_RESP": 0x10, "LOCAL_ACCESS": 0x11, "REMOTE_INVAL_REQ": 0x12,
       "REMOTE_ACCESS": 0x13, "REMOTE_OP": 0x14, "TRANSPORT_RETRY_EXC": 0x15,
       "RNR_RETRY_EXC": 0x16}
WQE_OP = {"RDMA_WRITE": 0x08, "RDMA_WRITE_IMM": 0x09, "SEND": 0x0A, "SEND_IMM": 0x0B,
          "RDMA_READ": 0x10}

MTU_BYTES = {1: 256, 2: 512, 3: 1024, 4: 2048, 5: 4096}   # [IBTA] §9.4 / mlx5 qpc mtu


# ---- PSN arithmetic ([IBTA] §9.7.1) --------------------------------------------------------
def psn_add(a, n):
    return (a + n) & PSN_MASK


def psn_diff(a, b):
    """a - b as a signed distance in the 24-bit circle, in [-2^23, 2^23)."""
    d = (a - b) & PSN_MASK
    return d - (1 << 24) if d >= HALF else d


def psn_region(psn, epsn):
    """[IBTA] §9.7.4.1.x: 'valid' (psn == ePSN), 'ahead' (invalid: in the 2^23 after ePSN,
    a packet was lost), 'duplicate' (in the 2^23 before ePSN)."""
    d = psn_diff(psn, epsn)
    if d == 0:
        return "valid"
    return "ahead" if d > 0 else "duplicate"


# ---- extension headers ([IBTA] §9.3) -------------------------------------------------------
def reth(va, rkey, dma_len):
    return struct.pack(">QII", va, rkey, dma_len)


def aeth(syndrome, msn):
    return struct.pack(">I", (syndrome & 0xFF) << 24 | (msn & 0xFFFFFF))


def deth(qkey, src_qp):
    return struct.pack(">II", qkey, src_qp & 0xFFFFFF)


def immdt(imm):
    return struct.pack(">I", imm)


def bth_bytes(opcode, dest_qp, psn, pkey=0xFFFF, se=0, m=0, pad=0, tver=0, fecn=0, becn=0,
              ackreq=0):
    """[IBTA] §9.2 Figure 99: OpCode, SE M PadCnt TVer, P_Key, FECN BECN Resv6, DestQP,
    A Resv7, PSN."""
    b1 = (se & 1) << 7 | (m & 1) << 6 | (pad & 3) << 4 | (tver & 0xF)
    return struct.pack(">BBHBBHBBH", opcode, b1, pkey, (fecn & 1) << 7 | (becn & 1) << 6,
                       (dest_qp >> 16) & 0xFF, dest_qp & 0xFFFF, (ackreq & 1) << 7,
                       (psn >> 16) & 0xFF, psn & 0xFFFF)


# ---- the ICRC ([IBTA] §7.8.1, [A17] §A17.3.3) ----------------------------------------------
def icrc(ip_udp_bth_payload, v6):
    """ICRC over 8 bytes of 1s (the LRH that RoCEv2 has not) then the IP header, UDP header,
    BTH and the rest with the variant fields set to 1s: IPv4 TOS, TTL, header checksum;
    IPv6 traffic class, flow label, hop limit; UDP checksum; BTH byte 4 (FECN, BECN, Resv6:
    'Resv8a'). The CRC is CRC-32 (the Ethernet polynomial, as zlib computes it); the four
    bytes go on the wire least significant byte first (Linux rxe, Wireshark, ConnectX).
    `ip_udp_bth_payload`: the IP datagram without the ICRC."""
    b = bytearray(ip_udp_bth_payload)
    if v6:
        b[0] = (b[0] & 0xF0) | 0x0F         # traffic class high nibble
        b[1] = 0xFF                         # traffic class low nibble, flow label high nibble
        b[2] = 0xFF
        b[3] = 0xFF
        b[7] = 0xFF                         # hop limit
        ihl = 40
    else:
        ihl = (b[0] & 0x0F) * 4
        b[1] = 0xFF                         # TOS (DSCP and ECN)
        b[8] = 0xFF                         # TTL
        b[10:12] = b"\xff\xff"              # header checksum
    b[ihl + 6:ihl + 8] = b"\xff\xff"        # UDP checksum
    b[ihl + 8 + 4] = 0xFF                   # BTH Resv8a (FECN, BECN, Resv6)
    return struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(b)) & 0xFFFFFFFF)


# ---- frames --------------------------------------------------------------------------------
class Path:
    """One direction's address: MACs, IPs (IPv4 dotted or IPv6), DSCP/ECN, TTL, UDP source
    port, IPv4 identification and DF (device choices a vector masks when it compares)."""

    def __init__(self, smac, dmac, sip, dip, dscp=0, ecn=0, ttl=64, sport=0xC000, ip_id=0,
                 df=True, flow=0):
        self.smac, self.dmac, self.sip, self.dip = smac, dmac, sip, dip
        self.dscp, self.ecn, self.ttl, self.sport = dscp, ecn, ttl, sport
        self.ip_id, self.df, self.flow = ip_id, df, flow
        self.v6 = ":" in sip

    def reverse(self, **over):
        p = Path(self.dmac, self.smac, self.dip, self.sip, self.dscp, self.ecn, self.ttl,
                 self.sport, self.ip_id, self.df, self.flow)
        for k, v in over.items():
            setattr(p, k, v)
        return p


def frame(path, opcode, dest_qp, psn, payload=b"", hdrs=b"", icrc_ok=True, udp_csum=0,
          **bth_over):
    """One RoCEv2 frame (no FCS): Ether / IPv4|IPv6 / UDP 4791 / BTH / headers / payload /
    pad / ICRC. The pad count makes the payload a multiple of 4 ([IBTA] §9.2: PadCnt)."""
    pad = (-len(payload)) & 3
    code = CODE[opcode] if isinstance(opcode, str) else opcode
    bth = bth_bytes(code, dest_qp, psn, pad=pad, **bth_over)
    l4 = bth + hdrs + payload + b"\x00" * pad
    udp = UDP(sport=path.sport, dport=ROCE_PORT, len=8 + len(l4) + 4, chksum=udp_csum)
    if path.v6:
        ip = IPv6(src=path.sip, dst=path.dip, tc=path.dscp << 2 | path.ecn, fl=path.flow,
                  hlim=path.ttl, nh=17, plen=8 + len(l4) + 4)
        eth_type = 0x86DD
    else:
        ip = IP(src=path.sip, dst=path.dip, tos=path.dscp << 2 | path.ecn, ttl=path.ttl,
                id=path.ip_id, flags="DF" if path.df else 0, proto=17)
        eth_type = 0x0800
    dgram = bytes(ip / udp / l4)
    # Scapy sized the IPv4 total length over what it was given: rebuild with the ICRC counted
    if not path.v6:
        ip.len = len(dgram) + 4
        dgram = bytes(ip / udp / l4)
    crc = icrc(dgram, path.v6)
    if not icrc_ok:
        crc = bytes(x ^ 0xFF for x in crc)
    return bytes(Ether(src=path.smac, dst=path.dmac, type=eth_type)) + dgram + crc


def parse(fr):
    """Frame -> dict of the fields the model reads (the inverse of frame())."""
    eth_type = struct.unpack(">H", fr[12:14])[0]
    off = 14
    d = {}
    if eth_type == 0x8100:  # IEEE 802.1Q: TCI (PCP 15:13, DEI 12, VID 11:0), then the type
        d["tci"] = struct.unpack(">H", fr[14:16])[0]
        eth_type = struct.unpack(">H", fr[16:18])[0]
        off = 18
    if eth_type == 0x86DD:
        d["v6"] = True
        d["tclass"] = ((fr[off] & 0x0F) << 4) | (fr[off + 1] >> 4)
        ihl = 40
    else:
        d["v6"] = False
        d["tclass"] = fr[off + 1]
        ihl = (fr[off] & 0x0F) * 4
    d["ecn"] = d["tclass"] & 3
    u = off + ihl
    d["sport"], d["dport"] = struct.unpack(">HH", fr[u:u + 4])
    b = u + 8
    d["opcode"] = fr[b]
    d["pad"] = (fr[b + 1] >> 4) & 3
    d["pkey"] = struct.unpack(">H", fr[b + 2:b + 4])[0]
    d["fecn"], d["becn"] = fr[b + 4] >> 7, (fr[b + 4] >> 6) & 1
    d["dest_qp"] = int.from_bytes(fr[b + 5:b + 8], "big")
    d["ackreq"] = fr[b + 8] >> 7
    d["psn"] = int.from_bytes(fr[b + 9:b + 12], "big")
    h = b + 12
    # a reserved opcode (a vector's bad input) has no extension headers the model knows of
    for name in OPS[NAME[d["opcode"]]][1] if d["opcode"] in NAME else ():
        n = HDR_LEN[name]
        d[name] = fr[h:h + n]
        h += n
    d["payload"] = fr[h:len(fr) - 4 - d["pad"]]
    d["icrc"] = fr[-4:]
    d["icrc_ok"] = icrc(fr[off:-4], d["v6"]) == fr[-4:]
    return d


# ---- the requester: packetisation ([IBTA] §9.4, §9.7.2) ------------------------------------
def packetise(kind, length, mtu, first_psn):
    """The request packets of one message: [(opcode, psn, offset, length)].
    kind: SEND, SEND_IMM, WRITE, WRITE_IMM ([IBTA] §9.4.1: FIRST/MIDDLE carry exactly the path
    MTU, LAST/ONLY 1..MTU (ONLY also 0); a zero-length message is one ONLY packet)."""
    base = {"SEND": "RC_SEND", "SEND_IMM": "RC_SEND", "WRITE": "RC_WRITE",
            "WRITE_IMM": "RC_WRITE"}[kind]
    imm = kind.endswith("_IMM")
    n = max(1, (length + mtu - 1) // mtu)
    out = []
    for i in range(n):
        if n == 1:
            op = base + ("_ONLY_IMM" if imm else "_ONLY")
        elif i == 0:
            op = base + "_FIRST"
        elif i == n - 1:
            op = base + ("_LAST_IMM" if imm else "_LAST")
        else:
            op = base + "_MIDDLE"
        off = i * mtu
        out.append((op, psn_add(first_psn, i), off, min(mtu, length - off)))
    return out


def read_responses(length, mtu, req_psn):
    """[IBTA] §9.4.3 / §9.7.5.1.5: an RDMA READ of `length` is answered by ceil(len/MTU)
    response packets (at least one) whose PSNs start at the request's PSN; the requester
    advances its next PSN by that count."""
    n = max(1, (length + mtu - 1) // mtu)
    out = []
    for i in range(n):
        if n == 1:
            op = "RC_READ_RESPONSE_ONLY"
        elif i == 0:
            op = "RC_READ_RESPONSE_FIRST"
        elif i == n - 1:
            op = "RC_READ_RESPONSE_LAST"
        else:
            op = "RC_READ_RESPONSE_MIDDLE"
        out.append((op, psn_add(req_psn, i), i * mtu, min(mtu, length - i * mtu)))
    return out


def go_back_n(packets, from_psn):
    """[IBTA] §9.7.6.1.3: after a NAK-PSN-sequence-error with PSN p (or a local ACK timeout with
    p the oldest unacknowledged PSN) the requester resends, in order, from the packet whose PSN
    is p: the same PSNs and, for SEND and WRITE, the same opcodes (a resent WRITE MIDDLE stays a
    MIDDLE with no RETH: the responder still holds the message's state). Whether a device may
    instead resume a WRITE mid-message as a new FIRST with an adjusted RETH is not settled by
    the public text we hold, so the vectors accept both (gen_roce.py)."""
    i = next(k for k, p in enumerate(packets) if p[1] == from_psn)
    return packets[i:]


# ---- the UD rules ([IBTA] §10.2.5, §9.6.1.4?) ----------------------------------------------
def ud_qkey_sent(wr_qkey, qp_qkey):
    """[IBTA] §10.2.5 (C10-15): a work request's Q_Key with its high-order bit set is not
    used: the QP's own Q_Key goes in the DETH instead."""
    return qp_qkey if wr_qkey & 0x80000000 else wr_qkey


def pkey_match(a, b):
    """[IBTA] §10.9.3: P_Keys match when their low 15 bits are equal, neither is the invalid
    key (low 15 bits 0), and at least one of the two is a full member (bit 15)."""
    return (a & 0x7FFF) == (b & 0x7FFF) and (a & 0x7FFF) != 0 and bool((a | b) & 0x8000)


def pkey_match_s004(pkt, qp):
    """[S004] L95: PKT.PKEY[14:0] == PKEY[dest_qp][14:0] and PKT.PKEY[14] or PKEY[dest_qp][14]
    is 1 (the note's bit 14 where IBTA has bit 15)."""
    return (pkt & 0x7FFF) == (qp & 0x7FFF) and bool((pkt | qp) & 0x4000)

"""What every receive-path vector file of gen_rx.py shares: the frames (Scapy), the
header fields and checksums, the Toeplitz and its check, the vector-file skeleton and the
step builders. Written from ConnectX-4 PRM Rev 0.40 alone (see gen_rx.py)."""
# The parts import everything from here (`from rx_common import *`), these modules included.
import json  # noqa: F401
import os
import struct
import sys

from scapy.all import (ARP, IP, TCP, UDP, Dot1Q, Ether, IPv6, IPv6ExtHdrDestOpt,  # noqa: F401
                       IPv6ExtHdrFragment, IPv6ExtHdrHopByHop, IPv6ExtHdrRouting, IPOption_NOP,
                       Raw, wrpcap)
from scapy.layers.ipsec import AH, ESP  # noqa: F401
from scapy.utils import PcapWriter  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(OUT, "..", "gen"))
from genfiles import VFileBase, write_or_check  # noqa: E402,F401

OWN_MAC = "02:4e:49:43:52:46"  # the vport's permanent address (docs/vport.md D-VP-3)
PEER_MAC = "02:00:00:00:00:99"
DATA = 0x50000000             # the rx_setup data region (docs/vectors.md "Receive path")
UI = 0x100                    # RQ i's user_index: 0x100 + i

C_CQE = "PRM §7.12.1.1 T67/T68"
C_RSS = "PRM §3.3.3, §3.3.3.1, T45-T47, T68 rx_hash_result/rx_hash_type"
C_CSUM = "PRM §3.3.1, T68 checksum/l3_ok/l4_ok"
C_VLAN = "PRM §3.3.7, T52 vlan_strip_disable, T68 cv/up/cfi/vid"
C_RQ = "PRM §7.4.1.2, §7.4.4.1.5 T40"
C_RMP = "PRM §7.10, §7.4.4.4 T42"
C_LL = "PRM T55 wq_type, §7.4.4.4 T42/T43"
C_ERR = "PRM §7.12.7 T73/T74"
C_VPORT = "PRM §7.3 T16, §12.16"
C_STEER = "PRM §7.11.2, §12.14.9 T429-T434"
C_LB = "PRM §3.4, T45 self_lb_en"
C_PAD = "PRM §3.3.9, §3.3.10"
C_CNT = "PRM §12.17.1 T486-T490"

# ---------------------------------------------------------------------------------------------
# Toeplitz (Microsoft "RSS Hashing Functions"): for each set bit of the input, left to right,
# XOR in the 32 key bits starting at that bit.

MS_KEY = bytes.fromhex("6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c"
                       "6a42b73bbeac01fa")


def toeplitz(key, data):
    kbits = int.from_bytes(key, "big")
    klen = len(key) * 8
    h = 0
    for i in range(len(data) * 8):
        if data[i // 8] & (0x80 >> (i % 8)):
            # the 32 key bits from bit i on (bits past the key read 0: D-RSS-9)
            if i + 32 <= klen:
                w = (kbits >> (klen - 32 - i)) & 0xFFFFFFFF
            else:
                w = (kbits << (i + 32 - klen)) & 0xFFFFFFFF if i < klen else 0
            h ^= w
    return h


# Microsoft's published verification suite: (source ip, source port, destination ip,
# destination port, IP-only hash, IP+TCP hash). The input is source IP, destination IP, source
# port, destination port.
MS_V4 = [
    ("66.9.149.187", 2794, "161.142.100.80", 1766, 0x323e8fc2, 0x51ccc178),
    ("199.92.111.2", 14230, "65.69.140.83", 4739, 0xd718262a, 0xc626b0ea),
    ("24.19.198.95", 12898, "12.22.207.184", 38024, 0xd2d0a5de, 0x5c2b394a),
    ("38.27.205.30", 48228, "209.142.163.6", 2217, 0x82989176, 0xafc7327f),
    ("153.39.163.191", 44251, "202.188.127.2", 1303, 0x5d1809c5, 0x10e828a2),
]
MS_V6 = [
    ("3ffe:2501:200:1fff::7", 2794, "3ffe:2501:200:3::1", 1766, 0x2cc18cd5, 0x40207d3d),
    ("3ffe:501:8::260:97ff:fe40:efab", 14230, "ff02::1", 4739, 0x0f0c461c, 0xdde51bbf),
    ("3ffe:1900:4545:3:200:f8ff:fe21:67cf", 44251, "fe80::200:f8ff:fe21:67cf", 38024,
     0x4b61e985, 0x02d1feef),
]


def ip_bytes(a):
    import ipaddress
    return ipaddress.ip_address(a).packed


def verify_toeplitz():
    for src, sp, dst, dp, h_ip, h_tcp in MS_V4 + MS_V6:
        ips = ip_bytes(src) + ip_bytes(dst)
        ports = struct.pack(">HH", sp, dp)
        if toeplitz(MS_KEY, ips) != h_ip or toeplitz(MS_KEY, ips + ports) != h_tcp:
            sys.exit(f"gen_rx: the Toeplitz does not reproduce Microsoft's value for {src}")


# ---------------------------------------------------------------------------------------------
# Frames and what T68 says of them


def raw(p):
    b = bytes(p)
    return b + bytes(max(0, 60 - len(b)))  # §3.3.8: 64 bytes with the FCS


def payload(n):
    return Raw(bytes((i * 7 + 3) & 0xFF for i in range(n)))


def ones_sum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack(f">{len(b) // 2}H", b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def hdr_fields(frame):
    """T68 header fields of a frame, by the PRM and D-RX-3/9/10 (docs/rx.md), from Scapy's
    dissection."""
    e = Ether(frame)
    f = {"l2_ok": 1, "cv": 0, "up": 0, "cfi": 0, "vid": 0, "l3_hdr_type": 0, "l4_hdr_type": 0,
         "ip_frag": 0, "l3_ok": 0, "l4_ok": 0}
    p = e.payload
    if isinstance(p, Dot1Q) and e.type == 0x8100:
        f.update(cv=1, up=p.prio, cfi=p.id, vid=p.vlan)
        p = p.payload
    if isinstance(p, IP):
        f["l3_hdr_type"] = 2
        f["ip_ext_opts"] = int(p.ihl > 5)
        frag = p.frag != 0 or (p.flags & 1)
        f["ip_frag"] = int(bool(frag))
        hdr = bytes(p)[:p.ihl * 4]
        f["l3_ok"] = int(ones_sum(hdr) == 0xFFFF)
        l4 = p.payload
        if p.frag == 0:
            f["l4_hdr_type"] = l4_type(l4, p.len - p.ihl * 4)
        if f["l3_ok"] and not frag and isinstance(l4, (TCP, UDP)):
            seg = bytes(p)[p.ihl * 4:p.len]
            ph = bytes(p)[12:20] + struct.pack(">BBH", 0, p.proto, len(seg))
            ok = ones_sum(ph + seg) == 0xFFFF or (isinstance(l4, UDP) and l4.chksum == 0)
            f["l4_ok"] = int(ok)
    elif isinstance(p, IPv6):
        f["l3_hdr_type"] = 1
        f["l3_ok"] = 1
        f["ip_ext_opts"] = int(p.nh in (0, 43, 44, 60, 51, 135))
        l4 = p.payload
        frag = later = False
        while isinstance(l4, (IPv6ExtHdrHopByHop, IPv6ExtHdrDestOpt, IPv6ExtHdrRouting,
                              IPv6ExtHdrFragment)):
            if isinstance(l4, IPv6ExtHdrFragment):
                # T68 ip_frag: a Fragment header with an offset or M (RFC 8200 §4.5); behind
                # that of a later fragment (offset != 0) is fragment data, no L4 header
                frag = frag or l4.offset != 0 or l4.m != 0
                later = later or l4.offset != 0
                if later:
                    break
            l4 = l4.payload
        f["ip_frag"] = int(frag)
        if not later:
            f["l4_hdr_type"] = l4_type(l4, 40 + p.plen - (len(bytes(p)) - len(bytes(l4))))
        if isinstance(l4, (TCP, UDP)) and not frag:
            seg = bytes(l4)[:40 + p.plen - (len(bytes(p)) - len(bytes(l4)))]
            ph = bytes(p)[8:40] + struct.pack(">IxxxB", len(seg), 6 if isinstance(l4, TCP) else 17)
            f["l4_ok"] = int(ones_sum(ph + seg) == 0xFFFF)
    return f


def l4_type(l4, seg_len):
    """T68 l4_hdr_type; the payload is the datagram's bytes beyond the TCP header (Ethernet
    padding is not the datagram's, D-RX-10)."""
    if isinstance(l4, UDP):
        return 2
    if isinstance(l4, TCP):
        if not l4.flags & 0x10:
            return 1
        return 4 if seg_len > l4.dataofs * 4 else 3
    return 0


def ip_csum(frame):
    """D-RX-10: the folded one's complement sum (not complemented) of the IP header and payload
    to the datagram's end; the other reading: of the L4 bytes only (after the IP header)."""
    e = Ether(frame)
    p = e.payload
    if isinstance(p, Dot1Q):
        p = p.payload
    if isinstance(p, IP):
        b = bytes(p)[:p.len]
        return ones_sum(b), ones_sum(b[p.ihl * 4:])
    if isinstance(p, IPv6):
        b = bytes(p)[:40 + p.plen]
        return ones_sum(b), ones_sum(b[40:])
    return 0, 0


def v4(proto=TCP, n=32, src="10.0.0.1", dst="10.0.0.2", sport=0x1234, dport=0x5678, **kw):
    l4 = proto(sport=sport, dport=dport, **kw)
    return Ether(dst=OWN_MAC, src=PEER_MAC) / IP(src=src, dst=dst) / l4 / payload(n)


def v6(proto=TCP, n=32, src="2001:db8::1", dst="2001:db8::2", sport=0x1234, dport=0x5678):
    return (Ether(dst=OWN_MAC, src=PEER_MAC) / IPv6(src=src, dst=dst) /
            proto(sport=sport, dport=dport) / payload(n))


# ---------------------------------------------------------------------------------------------
# Vector files


class VFile(VFileBase):
    def test(self, g, comment, cite, steps, result="valid", skip=None, flags=None):
        self.n += 1
        t = {"tcId": self.n, "comment": comment, "cite": cite, "flags": flags or [],
             "result": result, "steps": steps}
        for f in flags or []:
            self.notes[f] = NOTES[f]
        if skip:
            t["skip"] = skip
        g["tests"].append(t)



BRING_UP = {"bring_up": {"to": "initialized"}}

# Flags of tests whose expected values are a recorded decision's reading where the PRM gives
# none (result "acceptable": another device runs them with its own values).
NOTES = {
    "TimerProfile": {"bugType": "PROFILE", "description":
                     "The CQE timestamp is the internal timer (§7.12.10, T8) when the CQE is "
                     "written; the timer's frequency and its value at reset are the device's: "
                     "D-TS-1 counts ticks = virtual ns x timer_khz / 10^6 from 0 at reset, with "
                     "timer_khz the group's profile."},
    "LimitEventCode": {"bugType": "PROFILE", "description":
                       "T79 gives the RMP limit event no type: D-EV-1 takes 14h (the public "
                       "mlx5 SRQ limit event); the EQ of rx_setup takes it."},
    "RxPriority": {"bugType": "PROFILE", "description":
                   "The PRM does not say which priority a received frame's per-priority "
                   "counters (T124) use: D-RX-7 takes the outermost tag's PCP (IEEE 802.1Q "
                   "§6.9.1), priority 0 for an untagged frame."},
    "LlBeyondRing": {"bugType": "AMBIGUOUS_SPEC", "description":
                     "T43 Next_WQE_index is an 'Index (pointer) in the WQE buffer', which holds "
                     "2^log_wq_sz strides (T55); the PRM does not say what the device does with "
                     "one at or beyond that. Decision D-RX-16 (D-RMP-1 for an RMP): the device "
                     "takes that index modulo the ring, as every index of the circular buffer "
                     "(§7.4.1), names the stride it took (wqe_counter, the signature's index), "
                     "and reports a driver violation. Listed too: the WQE cannot be read, a "
                     "completion with error and the queue to ERR."},
    "CsumCap": {"bugType": "AMBIGUOUS_SPEC", "description":
                "§3.3.1: checksum offload support 'is reported through the csum_cap bit' "
                "(T147), and receive checksum offload 'is reported through CQE checksum bits' "
                "(l3_ok, l4_ok, checksum); the PRM does not say what a device without it "
                "reports. Decision D-RX-17: nothing validated (T68 l3_ok/l4_ok 'otherwise this "
                "bit is disabled': 0) and the checksum field T4's 'invalid' 0. Listed too: "
                "validated and summed anyway (the bit only advertises), and not validated with "
                "the T4 sum still given (the sum is no validation)."},
}


def rx_setup(**kw):
    return {"rx_setup": kw}


def post(rq=0, entries=None, **kw):
    d = {"rq": rq, "entries": entries if entries is not None else [{"offset": "0x1000",
                                                                    "byte_count": 2048}]}
    d.update(kw)
    return {"rq_post": d}


def frame_step(b, port=1):
    return {"rx_frame": {"port": port, "hex": b.hex()}}


def cqes(expect, **kw):
    d = {"cq": "rx", "expect": expect}
    d.update(kw)
    return {"cqes": d}


def cqe_ok(frame, rq=0, wqe_counter=0, flow_tag=0, strip=False, **more):
    c = {"opcode": 2, "owner": 0, "byte_cnt": len(frame) - (4 if strip else 0),
         "srqn_user_index": UI + rq, "wqe_counter": wqe_counter, "flow_tag": flow_tag}
    c.update(more)
    return c


def events(expect, exact=False):
    return {"events": {"expect": expect, "exact": exact}}


def mem(addr, b):
    return {"mem_expect": {"addr": hex(addr), "hex": b.hex()}}


def drop(reason):
    return {"event": "rx_drop", "reason": reason}



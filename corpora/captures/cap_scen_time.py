"""Scenarios 5 and 6: timestamp inversions; snapshot lengths.

Part of the capture generator (gen_captures.py): from public formats only, it never runs nicref."""
import random

from cap_frames import (A, B, IP_A, IP_B, IpId, LT_ETHERNET, Link, MAC_A, MAC_B, other_frame,
                        payload_bytes)
from cap_rc import Flow, check_pairing, rc_events, rc_frames, tcp_bytes
from cap_files import lldp_frame, mlx_qpns, sort_frames, tag_sports, write_pcap


# ---- 5. Timestamp inversions -----------------------------------------------------------------

def inversion_base(seed):
    rng = random.Random(seed)
    ipid = IpId(rng)
    link = Link("eth")
    frames, flows = [], []
    qa, qb = mlx_qpns(rng, 4), mlx_qpns(rng, 4)
    for i in range(4):
        sport = 0xC000 | rng.randrange(0x4000)
        fl = Flow("v4", A, B, qa[i], qb[i], rng.randrange(1 << 24), sport, sport, "udp_sport")
        flows.append(fl)
        ev, _ = rc_events(rng, fl, rng.randrange(0, 10_000), 6, {2: 1} if i % 2 else {})
        frames += rc_frames(link, rng, fl, ev, ipid)
    frames = sort_frames(frames)
    tag_sports(frames)
    check_pairing(frames, flows)
    return frames, flows


def pick_swap(frames, start):
    """The first index i at or after `start` where frame i+1 is an ACK or read response of
    another flow than frame i: that response is then written before frame i, stamped 1 us
    after it (moving a response does not change any retransmission gap)."""
    for i in range(start, len(frames) - 2):
        a, b = frames[i], frames[i + 1]
        fa, fb = a.info.get("flow"), b.info.get("flow")
        if fa is not None and fb is not None and fa is not fb and b.info["kind"] == "resp" \
                and frames[i + 2].t >= a.t + 1_000 and b.t > a.t:
            return i
    raise AssertionError("no pair to swap")


def gen_inversions(out):
    frames, flows = inversion_base(2105)
    i = pick_swap(frames, 60)
    a, b = frames[i], frames[i + 1]
    # frame b (a different QP, another receive queue) is written first and stamped 1 us after
    # frame a: the capture shows frame i+2 (1-based) stamped 1 us before frame i+1
    b.t = a.t + 1_000
    assert i + 2 >= len(frames) or frames[i + 2].t >= b.t
    frames[i], frames[i + 1] = b, a
    write_pcap(out.path("ts_inversion_1us.pcap"), frames, LT_ETHERNET)
    out.add("ts_inversion_1us.pcap",
            "4 RC QP pairs; frame %d (QP 0x%x) is stamped 1 us before frame %d (QP 0x%x), as "
            "frames from two receive queues are: tolerated and counted" %
            (i + 2, a.info["flow"].resp_qp if a.info["kind"] == "req" else a.info["flow"].req_qp,
             i + 1, b.info["flow"].resp_qp if b.info["kind"] == "req" else b.info["flow"].req_qp),
            0, frames, flows)
    # the twin: the same capture, but frame i+2 is stamped 5 ms before frame i+1
    frames, flows = inversion_base(2105)
    a, b = frames[i], frames[i + 1]
    b.t = a.t + 1_000
    frames[i], frames[i + 1] = b, a
    a.t = b.t - 5_000_000
    write_pcap(out.path("ts_inversion_5ms.pcap"), frames, LT_ETHERNET)
    out.add("ts_inversion_5ms.pcap",
            "ts_inversion_1us.pcap's twin where frame %d is stamped 5 ms before frame %d: "
            "beyond the 100 us tolerance, refused" % (i + 2, i + 1),
            2, stderr=["frame %d" % (i + 1), "frame %d" % (i + 2), "reordercap"])


# ---- 6. Snapshot lengths ---------------------------------------------------------------------

def snap_capture(seed, kinds, vlans_for):
    rng = random.Random(seed)
    ipid = IpId(rng)
    frames, flows = [], []
    qa, qb = mlx_qpns(rng, len(kinds)), mlx_qpns(rng, len(kinds))
    for i, kind in enumerate(kinds):
        link = Link("eth", vlans=vlans_for(i))
        sport = 0xC000 | rng.randrange(0x4000)
        by = "udp_sport"
        fl = Flow(kind, A, B, qa[i], qb[i], rng.randrange(1 << 24), sport, sport, by)
        flows.append(fl)
        ev, _ = rc_events(rng, fl, rng.randrange(0, 20_000), 6, {3: 1} if i % 2 == 0 else {})
        frames += rc_frames(link, rng, fl, ev, ipid)
    link = Link("eth")
    frames.append(lldp_frame(link, 2_500))
    seq = 0x11223344
    for k in range(3):
        frames.append(other_frame(link, 5_000 + k * 3_000, MAC_A, MAC_B,
                                  tcp_bytes(IP_A, IP_B, 22, 60022, seq, 0x55667788, "PA",
                                            payload_bytes(rng, 200)), 0x0800))
        seq += 200
    frames = sort_frames(frames)
    tag_sports(frames)
    return frames, flows


def gen_snaplens(out):
    frames, flows = snap_capture(2106, ["v4", "v4", "v6", "v6"],
                                 lambda i: ((0x8100, 3, 100),) if i in (1, 3) else ())
    check_pairing(frames, flows)
    write_pcap(out.path("snaplen128.pcap"), frames, LT_ETHERNET, snaplen=128, nano=False)
    out.add("snaplen128.pcap",
            "tcpdump -s 128 (microsecond pcap): RC requests over IPv4 and IPv6 (two of them on "
            "VLAN 100) truncated after their headers, still checked; LLDP and SSH frames "
            "truncated too",
            0, frames, flows, snaplens=(128,), nano=False)
    # snaplen 64: IPv4 RoCE keeps its BTH (54 or 58 bytes of headers), IPv6 RoCE is cut
    # inside the BTH (62 bytes of headers) or, on VLAN 100, inside the UDP header
    frames, flows = snap_capture(2107, ["v4", "v4", "v6", "v6"],
                                 lambda i: ((0x8100, 3, 100),) if i == 3 else ())
    v6 = [fl for fl in flows if fl.l3kind == "v6"]
    flows4 = [fl for fl in flows if fl.l3kind == "v4"]
    check_pairing(frames, flows)
    for f in frames:
        if f.info.get("flow") in v6:
            f.info = {}                   # never seen by the checker: cut inside the BTH
    write_pcap(out.path("snaplen64.pcap"), frames, LT_ETHERNET, snaplen=64, nano=False)
    out.add("snaplen64.pcap",
            "tcpdump -s 64 (microsecond pcap): the IPv4 RC flows keep their BTH and AETH "
            "(requests truncated after them, checked); every IPv6 RoCE frame is cut inside the "
            "BTH (or, on VLAN 100, inside the UDP header): class cut, its flows not checked",
            0, frames, flows4, snaplens=(64,), nano=False)

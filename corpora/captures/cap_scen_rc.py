"""Scenarios 1 and 2: sixteen RC QP pairs, without and with the CM exchange on QP1.

Part of the capture generator (gen_captures.py): from public formats only, it never runs nicref."""
import random

from cap_frames import A, B, IP_A, IP_B, IpId, LT_ETHERNET, Link, MAC_A, MAC_B, roce_frame
from cap_rc import (CM_DREP, CM_DREQ, CM_RTU, Flow, check_pairing, cm_rep, cm_req, cm_short,
                    mad_transport, psn_add, rc_events, rc_frames, sport_of)
from cap_files import lldp_frame, loss_plan, mlx_qpns, sort_frames, tag_sports, write_pcap


# ---- 1. Sixteen RC QP pairs, one UDP source port per QP pair ---------------------------------

def rc16(seed, link, late=None, l3kind="v4", bidir=(3, 11), wrap_pair=5, cm=False,
         pre_established=(), random_sports=False):
    """Sixteen RC QP pairs A<->B; pairs in `bidir` also carry requests B->A. Returns (frames,
    flows, cm_pairs)."""
    rng = random.Random(seed)
    ipid = IpId(rng)
    qa, qb = mlx_qpns(rng, 16), mlx_qpns(rng, 16)
    rng.shuffle(qb)
    flows, frames, cm_pairs, comm = [], [], {}, {}
    used_ports = set()
    t_cm = 0
    for i in range(16):
        psn_a = 0xFFFFFA if i == wrap_pair else rng.randrange(1 << 24)
        psn_b = rng.randrange(1 << 24)
        while True:
            sport = 0xC000 | rng.randrange(0x4000)     # ConnectX: one port per QP pair
            if sport not in used_ports:
                used_ports.add(sport)
                break
        if random_sports:
            # a random port on every frame: requests from 0xC000-0xDFFF, responses from
            # 0xE000-0xFFFF, so no response's port is ever a request's port
            s_req = (lambda r: 0xC000 | r.randrange(0x2000))
            s_ack = (lambda r: 0xE000 | r.randrange(0x2000))
        else:
            s_req = s_ack = sport
        by = "udp_sport"
        if cm and i not in pre_established:
            by = "cm"
        elif random_sports:
            by = "psn"
        fab = Flow(l3kind, A, B, qa[i], qb[i], psn_a, s_req, s_ack, by)
        flows.append(fab)
        start = rng.randrange(0, 60_000)
        if cm and i not in pre_established:
            # the connection is set up in the capture: REQ A->B, REP B->A, RTU A->B
            t_req = t_cm
            t_cm += rng.randrange(30_000, 90_000)
            guid_a, guid_b = 0xB8CEF603004A1001, 0xB8CEF603004A1002
            cid_a, cid_b = rng.getrandbits(32), rng.getrandbits(32)
            tid = (0x0000_0F2D << 32) | rng.getrandbits(32)
            gsi_a, gsi_b = rng.randrange(1 << 24), rng.randrange(1 << 24)
            cport = rng.randrange(32768, 61000)
            msgs = [
                (t_req, A, B, cm_req(tid, cid_a, qa[i], psn_a, guid_a, IP_A, IP_B, cport,
                                     18515), gsi_a),
                (t_req + rng.randrange(40_000, 150_000), B, A,
                 cm_rep(tid, cid_b, cid_a, qb[i], psn_b, guid_b), gsi_b),
            ]
            t_rtu = msgs[1][0] + rng.randrange(10_000, 30_000)
            msgs.append((t_rtu, A, B, cm_short(CM_RTU, tid, cid_a, cid_b), psn_add(gsi_a, 1)))
            for tm, s, d, mad, gpsn in msgs:
                frames.append(roce_frame(link, tm, s, d, l3kind,
                                         sport_of(s_req, rng) if random_sports else
                                         0xC000 | rng.randrange(0x4000),
                                         mad_transport(gpsn, mad), "cm_mad", ipid))
            cm_pairs[(MAC_A, qa[i])] = qb[i]
            cm_pairs[(MAC_B, qb[i])] = qa[i]
            comm[i] = (cid_a, cid_b)
            start = t_rtu + rng.randrange(5_000, 40_000)
        nb = rng.randint(5, 8)
        plan = loss_plan(rng, nb)
        if i == 9:                                   # the late-retransmission twin's flow
            plan[2] = 2
        lt = late if (late and i == 9) else None
        ev, end = rc_events(rng, fab, start, nb, plan, lt)
        frames += rc_frames(link, rng, fab, ev, ipid)
        if i in bidir:
            fba = Flow(l3kind, B, A, qb[i], qa[i], psn_b, s_req, s_ack, by)
            flows.append(fba)
            ev, end2 = rc_events(rng, fba, start + rng.randrange(500, 5000),
                                 rng.randint(3, 6), loss_plan(rng, 6))
            frames += rc_frames(link, rng, fba, ev, ipid)
            end = max(end, end2)
        if cm and i not in pre_established and i % 3 == 0:
            # some connections are torn down in the capture: DREQ A->B, DREP B->A
            tid = (0x0000_0F2D << 32) | rng.getrandbits(32)
            t1 = end + rng.randrange(50_000, 200_000)
            cid_a, cid_b = comm[i]
            for tm, s, d, mad in [
                    (t1, A, B, cm_short(CM_DREQ, tid, cid_a, cid_b, qb[i])),
                    (t1 + rng.randrange(20_000, 60_000), B, A,
                     cm_short(CM_DREP, tid, cid_b, cid_a))]:
                frames.append(roce_frame(link, tm, s, d, l3kind, 0xC000 | rng.randrange(0x4000),
                                         mad_transport(rng.randrange(1 << 24), mad), "cm_mad",
                                         ipid))
    frames.append(lldp_frame(link, 1_000))
    frames = sort_frames(frames)
    tag_sports(frames)
    return frames, flows, cm_pairs


def gen_rc16(out):
    link = Link("eth", vlans=((0x8100, 3, 100),))
    frames, flows, _ = rc16(2101, link)
    check_pairing(frames, flows)
    assert sum(fl.retransmissions for fl in flows) > 20
    write_pcap(out.path("rc16_sport.pcap"), frames, LT_ETHERNET)
    out.add("rc16_sport.pcap",
            "16 RC QP pairs between two hosts (VLAN 100, PCP 3, DSCP 26), random initial PSNs "
            "(one wraps past 0xFFFFFF), one UDP source port per QP pair in both directions, two "
            "QP pairs with requests both ways, coalesced ACKs and read responses, go-back-N "
            "retransmissions exactly 67.108864 ms after the previous transmission",
            0, frames, flows)
    # the twin: flow 9's second retransmission of batch 2 comes 150 us late
    frames, flows, _ = rc16(2101, link, late=(2, 2, 150_000))
    check_pairing(frames, flows)
    write_pcap(out.path("rc16_sport_late_retx.pcap"), frames, LT_ETHERNET)
    out.add("rc16_sport_late_retx.pcap",
            "rc16_sport.pcap's twin where one QP's second retransmission of a batch comes "
            "150 us after the classic timer (67.108864 ms + 150 us): that flow non-conforming",
            1, frames, flows)


# ---- 2. The same with the CM exchange on QP1 and randomised UDP source ports ------------------

def gen_rc16_cm(out):
    link = Link("eth")
    frames, flows, cm_pairs = rc16(2102, link, cm=True, pre_established=(2, 7, 12, 15),
                                   random_sports=True)
    check_pairing(frames, flows, cm_pairs)
    write_pcap(out.path("rc16_cm.pcap"), frames, LT_ETHERNET)
    out.add("rc16_cm.pcap",
            "16 RC QP pairs, 12 connected in the capture by the IB CM on QP1 (REQ/REP/RTU, some "
            "torn down by DREQ/DREP) and 4 connected before it started; a random UDP source "
            "port on every frame, so the CM exchange (12 pairs) or the PSN (4 pairs) pairs "
            "each ACK",
            0, frames, flows)

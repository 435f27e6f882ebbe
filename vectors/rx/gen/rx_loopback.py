"""Frames an SQ sends, looped back to the receive side (PRM §3.4, T45 self_lb_en).
Part of gen_rx.py (its docstring says how the expectations are derived)."""
from rx_common import *  # noqa: F401,F403
from rx_rss import *  # noqa: F401,F403,E402
from rx_cqe import *  # noqa: F401,F403,E402
from rx_vport import *  # noqa: F401,F403,E402
from rx_events import *  # noqa: F401,F403,E402
from rx_steer import *  # noqa: F401,F403,E402

# ---------------------------------------------------------------------------------------------
# loopback.json: a frame sent by an SQ loops back through NIC_TX and NIC_RX steering

def tx_wqe(frame):
    return {"wqe": {"opcode": "SEND", "ctrl": {"ce": 2},
                    "eth": {"inline_header": frame[:18].hex()},
                    "data": [{"bytes": frame[18:].hex()}]}}


def gen_loopback():
    vf = VFile("loopback.json", "rx_loopback", [
        "Local loopback (PRM §3.4): a frame an SQ sends to the vport's own address stays local "
        "(D-TX-5), goes through NIC_TX steering, then NIC_RX steering, to the RQ; the "
        "self-loopback filter of the TIR's transport domain (T45 self_lb_en, D-RX-12)."])
    f = raw(v4(UDP, 40))
    ntx = {"steer": {"tables": [{"name": "tx0", "type": "NIC_TX", "level": 0}],
                     "groups": [{"name": "gtx", "table": "tx0",
                                 "criteria": {"outer_ethertype": "0xffff"}}],
                     "entries": [{"table": "tx0", "group": "gtx", "action": 1,
                                  "match": {"outer_ethertype": "0x0800"}}]}}
    nrx = {"steer": {"tables": [{"name": "rx0", "level": 0}],
                     "groups": [{"name": "grx", "table": "rx0",
                                 "criteria": {"outer_udp_dport": "0xffff"}}],
                     "entries": [{"table": "rx0", "group": "grx", "action": 4, "flow_tag": 9,
                                  "match": {"outer_udp_dport": "0x5678"}, "dest": [{"tir": 0}]}]}}
    g = vf.group("an SQ (tx_setup) and an RQ (rx_setup) of another transport domain",
                 [BRING_UP, {"tx_setup": {}}, rx_setup(td="own")])
    vf.test(g, "sent to the vport's own address: not on the wire; NIC_TX ALLOW, NIC_RX "
            "flow to the TIR: the RQ receives it with the flow tag",
            "PRM §3.4, §7.11.2, §7.11.2.5, T45", [
                ntx, nrx, post(), tx_wqe(f),
                {"frames": {"expect": []}},
                events([{"event": "tx_loopback", "decision": 1}]),
                cqes([cqe_ok(f, flow_tag=9)]), mem(DATA + 0x1000, f)])
    drop_tx = {"steer": {"tables": [{"name": "tx0", "type": "NIC_TX", "level": 0}],
                         "groups": [{"name": "gtx", "table": "tx0"}],
                         "entries": [{"table": "tx0", "group": "gtx", "action": 2}]}}
    vf.test(g, "NIC_TX DROP: the frame neither leaves nor loops back", "PRM §7.11.2, T430", [
        drop_tx, nrx, post(), tx_wqe(f), {"frames": {"expect": []}},
        {"cqes": {"cq": "tx", "expect": [{"opcode": 0, "wqe_counter": 0,
                                          "s_wqe_opcode": "SEND"}]}},
        cqes([])])
    # NIC_TX flow counters: §7.11.3.5 "Flow Counters are supported only for NIC Rx, RDMA Rx,
    # Egress ACLs and Sniffer Flow Tables": a COUNT flow on NIC_TX is refused (T151 flow_counter
    # of flow_table_properties_nic_transmit 0, D-FT-4), so no NIC_TX counter can count a sent
    # frame; the table stays empty and the frame takes NIC_TX's default (transmit, §7.11.4.2).
    cnt_tx = {"steer": {"counters": ["ctx"],
                        "tables": [{"name": "tx0", "type": "NIC_TX", "level": 0}],
                        "groups": [{"name": "gtx", "table": "tx0"}],
                        "entries": [{"table": "tx0", "group": "gtx", "action": 1 | 8,
                                     "counters": ["ctx"], "status": "BAD_PARAM"}]}}
    vf.test(g, "a NIC_TX flow with COUNT is refused (NIC_TX has no flow counters): the empty "
            "NIC_TX table sends the frame (its default), it loops back to the RQ, and the "
            "counter counts nothing", "PRM §7.11.3.5, §7.11.4.2, §7.11.2.5, T151 flow_counter",
            [cnt_tx, nrx, post(), tx_wqe(f), {"frames": {"expect": []}},
             events([{"event": "tx_loopback", "decision": 1}]),
             cqes([cqe_ok(f, flow_tag=9)]),
             {"flow_counters": {"expect": [{"counter": "ctx", "packets": 0, "octets": 0}]}}])
    # NIC_TX DROP with a match: only the frames it matches are stopped (D-TX-16)
    drop_dport = {"steer": {"tables": [{"name": "tx0", "type": "NIC_TX", "level": 0}],
                            "groups": [{"name": "gtx", "table": "tx0",
                                        "criteria": {"outer_udp_dport": "0xffff"}}],
                            "entries": [{"table": "tx0", "group": "gtx", "action": 2,
                                         "match": {"outer_udp_dport": "0x5678"}}]}}
    nrx_any = {"steer": {"tables": [{"name": "rx0", "level": 0}],
                         "groups": [{"name": "grx", "table": "rx0"}],
                         "entries": [{"table": "rx0", "group": "grx", "action": 4,
                                      "flow_tag": 9, "dest": [{"tir": 0}]}]}}
    f2 = raw(v4(UDP, 40, dport=0x5679))
    vf.test(g, "a NIC_TX DROP flow for UDP port 5678h: that frame is discarded (tx_discard "
            "reason 4, D-TX-16) and never loops back; a frame to port 5679h misses the flow "
            "and loops back", "PRM §7.11.2.2, §7.11.2.5, §7.11.4.2, T430 action DROP", [
                drop_dport, nrx_any, post(count=2), tx_wqe(f), tx_wqe(f2),
                {"frames": {"expect": []}},
                events([{"event": "tx_discard", "reason": 4},
                        {"event": "tx_loopback", "decision": 1}]),
                {"cqes": {"cq": "tx", "expect": [
                    {"opcode": 0, "wqe_counter": 0, "s_wqe_opcode": "SEND"},
                    {"opcode": 0, "wqe_counter": 1, "s_wqe_opcode": "SEND"}]}},
                cqes([cqe_ok(f2, flow_tag=9)])])
    peer = raw(Ether(dst=PEER_MAC, src=OWN_MAC) / IP(src="10.0.0.2", dst="10.0.0.1") /
               UDP(sport=0x5678, dport=0x1234) / payload(40))
    vf.test(g, "a NIC_TX DROP flow stops a frame for another station too: nothing on the "
            "wire, the WQE completes", "PRM §7.11.2.2, §7.11.4.2, T430 action DROP, D-TX-16", [
                drop_tx, tx_wqe(peer), {"frames": {"expect": []}},
                events([{"event": "tx_discard", "reason": 4}]),
                {"cqes": {"cq": "tx", "expect": [{"opcode": 0, "wqe_counter": 0,
                                                  "s_wqe_opcode": "SEND"}]}}])
    cnt_rx = {"steer": {"counters": ["crx"], "tables": [{"name": "rx0", "level": 0}],
                        "groups": [{"name": "grx", "table": "rx0"}],
                        "entries": [{"table": "rx0", "group": "grx", "action": 4 | 8,
                                     "flow_tag": 9, "dest": [{"tir": 0}],
                                     "counters": ["crx"]}]}}
    vf.test(g, "a sent frame that loops back is counted by the NIC_RX flow it hits, once, its "
            "length (D-FC-2 counts it without the FCS)", "PRM §3.4, §7.11.2.8, §12.14.13", [
                ntx, cnt_rx, post(), tx_wqe(f), cqes([cqe_ok(f, flow_tag=9)]),
                {"flow_counters": {"expect": [{"counter": "crx", "packets": 1,
                                               "octets": fc_octets(len(f))}]}}])
    for lb in (0, 1):
        g = vf.group(f"the TIR in the SQ's transport domain, self_lb_en {lb}",
                     [BRING_UP, {"tx_setup": {}},
                      rx_setup(td="tx", tirs=[{"rq": 0, "self_lb_en": lb}], steer_all=[0])])
        steps = [post(), tx_wqe(f)]
        if lb:
            steps.append(cqes([cqe_ok(f)]))
            vf.test(g, "self-loopback of unicast enabled: received", C_LB, steps)
        else:
            steps += [events([drop(6)]), cqes([])]
            vf.test(g, "self-loopback of unicast not enabled: dropped (reason 6, D-RX-12)",
                    C_LB, steps)
    return vf



"""Session 31 (review revgid): a group appended to ud.json (one device, the vector is the peer).

Written from PRM Rev 0.40's vport tables, the public mlx5 interface and the decisions' text only
(never from nicref's code or output):

- PRM §7.3 T16: the NIC vport takes only "the allowed addresses on a nic_vport" (its permanent
  address, the current_uc_mac_address list, any unicast under promisc_uc); D-VP-2 reads a RoCE
  frame as one of the vport's Ethernet frames; seed 004 L86 decides RDMA or not "by the
  MAC/IP/UDP header". A good RoCEv2 frame to the device's GID but to a MAC that is neither the
  vport's nor its GID entry's is another station's: rx_drop reason 4 (vport_filter, D-RX-6),
  nothing received (D-ROCE-23). T16: promisc and the addresses are allowed "on vlan list"
  (T17 vlan 00h[11:0]): a frame tagged with a VLAN outside a non-empty list is not the vport's.
- PRM §12.16.2 T475 admin_state "0x0: down - set port to down state" (D-VP-2): while the vport
  is down a UD SEND is dropped as on a port that is down (roce_drop tx_link_down with the
  sender's QPN, D-ROCE-11), nothing leaves (to the wire nor looped to a local GID, D-ROCE-12),
  the WQE still completes; a good RoCE frame from the
  wire is not the transport's: rx_drop reason 3 (vport_down), the port counted it (PPCNT
  aFramesReceivedOK, the MAC received it), the vport did not (T486). Up again: taken, and the
  send leaves.
- T486 counts "Ethernet" packets; the public mlx5 interface (mlx5_ifc.h query_vport_counter_out
  received_ib_unicast / transmitted_ib_unicast at 30h-6Ch, the gap T489 leaves; Linux mlx5
  counters.rst: rx_vport_unicast_packets "excluding RDMA traffic") keeps RoCE out of them. The
  PRM does not decide: both readings accepted (D-VP-2).
"""
from roce_common import *  # noqa: F401,F403

C_FILTER = ("PRM §7.3 T16 (the allowed addresses on a nic_vport; promisc_uc); seed 004 L86 "
            "(RDMA or not by the MAC/IP/UDP header); D-RX-6, D-ROCE-23, D-VP-2")
C_DOWN = ("PRM §12.16.2 T475 (admin_state 0x0: down - set port to down state), T486; D-VP-2, "
          "D-ROCE-1, D-ROCE-11")
C_CNT = ("PRM §12.17.1 T486-T489 (Received/Transmitted ETH unicast); public mlx5 interface "
         "mlx5_ifc.h query_vport_counter_out (received_ib_unicast at 30h-6Ch); D-VP-2")
H = ("Handles",)
FOREIGN = bytes.fromhex("0a0b0c0d0e0f")


def admin(state):
    return {"command": {"layout": "modify_vport_state_in",
                        "fields": {"opcode": "MODIFY_VPORT_STATE", "admin_state": state},
                        "expect": {"status": "OK"}}}


def vlan_list(vid):
    return {"command": {"layout": "modify_nic_vport_context_in",
                        "fields": {"opcode": "MODIFY_NIC_VPORT_CONTEXT", "field_select": "0x4",
                                   "allowed_list_type": 2, "allowed_list_size": 1,
                                   "addresses_list[0]": f"0x{vid << 32:016X}"},
                        "length": "0x208", "expect": {"status": "OK"}}}


def ppcnt_rx_ok(n):
    return {"command": {"layout": "access_reg_ppcnt_in",
                        "fields": {"opcode": "ACCESS_REG", "op_mod": 1, "register_id": "0x5008",
                                   "local_port": 1, "grp": 0, "prio_tc": 0, "clr": 0},
                        "output_length": "0x110",
                        "expect": {"status": "OK", "output": {
                            "layout": "access_reg_ppcnt_ieee_802_3_out",
                            "fields": {"a_frames_received_ok_high": 0,
                                       "a_frames_received_ok_low": n}}}}}


def vport_cnt(alternatives):
    q = {"layout": "query_vport_counter_in",
         "fields": {"opcode": "QUERY_VPORT_COUNTER", "clear": 0}, "output_length": "0x210"}
    outs = [{"reading": r, "output": {"layout": "query_vport_counter_out", "fields": fl}}
            for r, fl in alternatives]
    q["expect"] = {"status": "OK", "any_of": outs} if len(outs) > 1 else \
        {"status": "OK", "output": outs[0]["output"]}
    return {"command": q}


def eth_uc(rx, tx):
    return {"received_eth_unicast_packets": rx, "transmitted_eth_unicast_packets": tx}


def extend_ud(f):
    p = Peer()
    g = f.group("D-ROCE-23, D-VP-2: UD QP 0 in RTS, IPv4, q_key 0x11111111: the vport's "
                "address filter and admin state before the transport",
                setup1(type="UD"))
    msg = pattern(120, 31)
    fr = p.pkt("UD_SEND_ONLY", 7, msg, M.deth(QKEY, PEER_QPN), ackreq=0)
    f.test(g, "UD SEND ONLY to the device's GID but to MAC 0a:0b:0c:0d:0e:0f (neither the "
              "vport's address nor its GID entry's; no promisc): another station's frame, "
              "rx_drop reason 4 (vport_filter), nothing received; the vport counts nothing",
           C_FILTER,
           recv() + [rx(FOREIGN + fr[6:]),
                     events([{"event": "rx_drop", "reason": 4}]),
                     cqes("recv", []), no_frames(),
                     vport_cnt([("", eth_uc(0, 0))])],
           result="invalid", flags=H)
    tagged7 = fr[:12] + bytes.fromhex("81000007") + fr[12:]
    tagged5 = fr[:12] + bytes.fromhex("81000005") + fr[12:]
    f.test(g, "The vport's vlan list {5} (MODIFY_NIC_VPORT_CONTEXT allowed_list_type 2); a UD "
              "SEND ONLY to the device's GID and MAC tagged VLAN 7: not on the list, rx_drop "
              "reason 4 (vport_filter), nothing received; the same tagged VLAN 5: received",
           C_FILTER + "; PRM §7.3 T16 (promisc_uc, promisc_mc: any address \"on vlan list\"), "
           "T17 (vlan 00h[11:0])",
           recv() + [vlan_list(5), rx(tagged7),
                     events([{"event": "rx_drop", "reason": 4}]), cqes("recv", []),
                     rx(tagged5),
                     cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 160}])],
           result="invalid", flags=H)
    f.test(g, "admin_state 0, then a UD SEND of 120 bytes to QP 0x155 at the device's own GID "
              "(192.0.2.1, a local GID): dropped as the port down (roce_drop tx_link_down, "
              "QPN 2), not looped (no tx_loopback), nothing received, nothing on the wire; the "
              "WQE still completes", C_DOWN + "; D-ROCE-12",
           recv() + [admin(0),
                     post("SEND", [{"bytes": msg.hex()}],
                          av={"qpn": "0x155", "ip": LIP4, "mac": LMAC}),
                     events([ev_drop("port_down", QPN0)]), no_frames(),
                     cqes("send", [req_cqe("SEND", 0)]), cqes("recv", [])],
           result="invalid", flags=H)
    f.test(g, "admin_state 0, then a UD SEND of 120 bytes to QP 0x155 on the wire: dropped as "
              "the port down (roce_drop tx_link_down, QPN 2), nothing leaves, the WQE still "
              "completes (REQ CQE)", C_DOWN,
           [admin(0),
            post("SEND", [{"bytes": msg.hex()}], av={"qpn": "0x155"}),
            events([ev_drop("port_down", QPN0)]), no_frames(),
            cqes("send", [req_cqe("SEND", 0)])],
           result="invalid", flags=H)
    f.test(g, "admin_state 0, then a good UD SEND ONLY from the wire to the device's GID and "
              "MAC: rx_drop reason 3 (vport_down), nothing received; PPCNT counted the frame "
              "(aFramesReceivedOK 1), the vport did not; admin_state 1, the same frame again: "
              "received (RESP_SEND CQE of 160 bytes), and a UD SEND leaves (roce_tx)",
           C_DOWN + "; PRM §11.1.5 (PPCNT IEEE 802.3 counters)",
           recv(offsets=(RQ_OFF[0], RQ_OFF[1])) + [
               admin(0), rx(fr),
               events([{"event": "rx_drop", "reason": 3}]),
               cqes("recv", []), ppcnt_rx_ok(1),
               vport_cnt([("", eth_uc(0, 0))]),
               admin(1), rx(fr),
               cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 160}]),
               post("SEND", [{"bytes": msg.hex()}], av={"qpn": "0x155"}),
               events([ev_tx("UD_SEND_ONLY", 0, 0x155)]),
               cqes("send", [req_cqe("SEND", 0)])],
           flags=H)
    f.test(g, "One UD SEND to the wire and one UD SEND ONLY received: QUERY_VPORT_COUNTER "
              "counts each once in the ETH unicast counters (T486 counts Ethernet frames, "
              "RoCEv2's among them), or in neither (mlx5: RDMA in its own counters at "
              "30h-6Ch, the ETH ones \"excluding RDMA traffic\")", C_CNT,
           recv() + [post("SEND", [{"bytes": msg.hex()}], av={"qpn": "0x155"}),
                     events([ev_tx("UD_SEND_ONLY", 0, 0x155)]), rx(fr),
                     cqes("recv", [{"opcode": M.CQE_RESP_SEND, "byte_cnt": 160}]),
                     vport_cnt([("D-VP-2: RoCE in the ETH counters", eth_uc(1, 1)),
                                ("mlx5: RoCE in the IB counters only", eth_uc(0, 0))])],
           result="acceptable", flags=H + ("Acceptable",))


extend = extender({"ud": extend_ud})

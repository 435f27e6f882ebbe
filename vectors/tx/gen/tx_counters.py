"""counters.json: the send counters.

Part of the independent send-path generator (gen_tx.py): nothing here comes from nicref's
output."""
import pkt
from vecfmt import Sq, VFile, Wqe, cqe_err, tx_setup
from txcommon import CL_DATA, C_ERR, C_LKEY, C_LSO, NOTES, SETUP, SYN_PROT, S_SEND, l2, post, send
from tx_csum import tcp4


def counters_file():
    f = VFile("counters.json", "tx_counters", [
        "TX counters (ConnectX-4 PRM Rev 0.40 §12.17.1 QUERY_VPORT_COUNTER T489/T490; §11.1.5 PPCNT "
        "T115/T116 IEEE 802.3 and RFC 2863 groups): frames counted per destination class "
        "(unicast, broadcast, multicast by the destination MAC), LSO segments counted as frames.",
        "Frame counts are pinned; octet counts list the readings (Counters note).",
    ], NOTES)
    g = f.group("one SQ", SETUP + [tx_setup()])
    frs = [l2(100, 400), l2(80, 401, dst=pkt.BCAST_MAC), l2(70, 402, dst=pkt.MCAST_MAC)]

    def sends(t):
        sq = Sq()
        for fr in frs:
            post(t, sq, send(fr))
        t.frames(frs)

    def vport(fields):
        return {"command": {"layout": "query_vport_counter_in", "fields": {"opcode": "QUERY_VPORT_COUNTER", "clear": 0},
                            "output_length": "0x210",
                            "expect": {"status": "OK", "output": {"layout": "query_vport_counter_out", "fields": fields}}}}

    def ppcnt(grp, layout, fields):
        return {"command": {"layout": "access_reg_ppcnt_in",
                            "fields": {"opcode": "ACCESS_REG", "op_mod": 1, "register_id": "0x5008",
                                       "local_port": 1, "grp": grp, "prio_tc": 0, "clr": 0},
                            "output_length": "0x110",
                            "expect": {"status": "OK", "output": {"layout": layout, "fields": fields}}}}

    def octets(lens):
        s = sum(lens)
        return {"in": sorted({s, s + 4 * len(lens), s - 14 * len(lens)})}

    t = g.test("unicast 100 B, broadcast 80 B, multicast 70 B sent: QUERY_VPORT_COUNTER counts one "
               "packet in each class, no error", "PRM §12.17.1 T489-T492", "valid")
    sends(t)
    t.add(vport({"transmitted_eth_unicast_packets": 1, "transmitted_eth_broadcast_packets": 1,
                 "transmitted_eth_multicast_packets": 1, "transmit_errors_packets": 0}))
    t = g.test("the same three frames: the vport octet counters", "PRM §12.17.1 T489-T492",
               "acceptable", ["Counters"])
    sends(t)
    t.add(vport({"transmitted_eth_unicast_octets": {"in": [100, 104]},
                 "transmitted_eth_broadcast_octets": {"in": [80, 84]},
                 "transmitted_eth_multicast_octets": {"in": [70, 74]}}))
    t.open = True  # the `in` matchers above
    t = g.test("the same three frames: PPCNT IEEE 802.3 counts three frames transmitted, one "
               "multicast and one broadcast (aMulticastFramesXmittedOK excludes broadcast)",
               "PRM §11.1.5 T115/T116", "valid")
    sends(t)
    t.add(ppcnt(0, "access_reg_ppcnt_ieee_802_3_out", {
        "a_frames_transmitted_ok_high": 0, "a_frames_transmitted_ok_low": 3,
        "a_multicast_frames_xmitted_ok_low": 1, "a_broadcast_frames_xmitted_ok_low": 1}))
    t = g.test("the same three frames: PPCNT IEEE 802.3 a_octets_transmitted_ok", "PRM §11.1.5 T116",
               "acceptable", ["Counters"])
    sends(t)
    t.add(ppcnt(0, "access_reg_ppcnt_ieee_802_3_out", {"a_octets_transmitted_ok_low": octets([100, 80, 70])}))
    t.open = True
    t = g.test("the same three frames: PPCNT RFC 2863 counts one unicast packet out, no discard",
               "PRM §11.1.5 T117/T118 (RFC 2863 group)", "valid")
    sends(t)
    t.add(ppcnt(1, "access_reg_ppcnt_rfc_2863_out", {"if_out_ucast_pkts_low": 1, "if_out_discards_low": 0}))

    t = g.test("an LSO WQE sending three segments: three unicast packets (every frame on the wire)",
               C_LSO + "; PRM §12.17.1 T489", "valid")
    sq = Sq()
    posted = pkt.corrupt_csums(tcp4(n=2500, seed=60))
    post(t, sq, send(posted, ihs=54, opcode="LSO", eth_f={"l3cs": 1, "l4cs": 1, "mss": 1000}))
    t.frames(pkt.lso(posted, 54, 1000))
    t.add(vport({"transmitted_eth_unicast_packets": 3}))
    t.add(ppcnt(0, "access_reg_ppcnt_ieee_802_3_out", {"a_frames_transmitted_ok_low": 3}))

    t = g.test("a SEND refused (bad L_Key): nothing counted as transmitted", C_ERR + "; PRM §12.17.1; " + C_LKEY,
               "invalid", ["Violation"])
    sq = Sq()
    fr = l2(100, 403)
    i = post(t, sq, Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=fr[:14],
                        data=[("ptr", fr[14:], {"lkey": 0x00ABCD42})]))
    t.no_frames().cqes([cqe_err(i, SYN_PROT, S_SEND)]).violation(CL_DATA)
    t.add(vport({"transmitted_eth_unicast_packets": 0}))
    t.add(ppcnt(0, "access_reg_ppcnt_ieee_802_3_out", {"a_frames_transmitted_ok_low": 0}))
    return f

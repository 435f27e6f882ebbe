#!/usr/bin/env python3
# Writes runner.json (the RoCE steps of the vector runner, run by harness/tests/vectors_roce_test.c):
# python3 harness/tests/roce_vectors/gen_runner.py, from the repository root. Expectations come
# from docs/vectors.md "RoCE" (placement, defaults) and the public mlx5 WQE layouts.
import json
B=[{"bring_up":{"to":"initialized"}}]
B2=[{"bring_up":{"to":"initialized"},"dev":"a"},{"bring_up":{"to":"initialized"},"dev":"b"}]
def q(qpn, fields, dev=None):
    s={"command":{"layout":"query_qp_in","fields":{"opcode":"QUERY_QP","qpn":qpn},"output_length":512,
       "expect":{"status":"OK","output":{"layout":"query_qp_out","fields":fields}}}}
    if dev: s["dev"]=dev
    return s
def t(i, comment, steps, cite="IBTA Vol. 1 §10.3; docs/vectors.md RoCE"):
    return {"tcId":i,"comment":comment,"cite":cite,"flags":[],"result":"valid","steps":steps}
# an Ethernet frame a's SQ sends: broadcast, 60 bytes
frame="ffffffffffff024e49435246" + "88b5" + "00"*46
wqe={"wqe":{"opcode":"SEND","ctrl":{"ce":2},"eth":{"inline_header":frame[:28]},"data":[{"bytes":frame[28:]}]}}
groups=[
 {"comment":"one device: the QPs, their WQEs and doorbell record where docs/vectors.md puts them",
  "setup":B+[{"qp_setup":{"type":"RC","qps":2,"sq_psn":"0x123456","peer":{"qpn":"0x345"}}}],
  "tests":[
   t(1,"QP 0 and QP 1 in RTS, connected to the peer's QPN + i, the default path",
     [q(2,{"state":3,"st":0,"remote_qpn":"0x345","next_send_psn":"0x123456","mtu":3,
           "primary_address_path_udp_sport":"0xc000","primary_address_path_hop_limit":64,
           "primary_address_path_rmac_47_32":"0x024e","primary_address_path_rmac_31_0":"0x49435250",
           "primary_address_path_rgid_rip":"00000000000000000000ffffc0000202",
           "log_rq_size":6,"log_sq_size":6,"log_rq_stride":2,"rre":1,"rwe":1,"rae":0}),
      q(3,{"state":3,"remote_qpn":"0x346","primary_address_path_udp_sport":"0xc001"})]),
   t(2,"a receive WQE: one entry and the Null entry at RQ stride 0, the record's receive counter",
     [{"qp_recv":{"qp":1,"entries":[{"offset":"0x1000","byte_count":64}]}},
      {"mem_expect":{"addr":"0x61100000","hex":"00000040 0000013c 00000000 70001000 00000000 00000100 00000000 00000000"}},
      {"mem_expect":{"addr":"0x60FF0040","hex":"00000001 00000000"}}]),
   t(3,"a SEND WQE: ctrl (opcode 0Ah, the QP number, ds 2, ce 2), the data pointer in the data region's upper half; the SQ after the RQ (4 KB)",
     [{"qp_post":{"qp":0,"opcode":"SEND","data":[{"bytes":"00112233"}],"ring":"record"}},
      {"mem_expect":{"addr":"0x61001000","hex":"0000000a 00000202 00000008 00000000 00000004 0000013c 00000000 70080000"}},
      {"mem_expect":{"addr":"0x70080000","hex":"00112233"}},
      {"mem_expect":{"addr":"0x60FF0000","hex":"00000000 00000001"}}]),
   t(4,"SEND_IMM with its immediate in the ctrl segment's 0Ch dword, rung: the doorbell names the QP (no violation)",
     [{"qp_post":{"qp":1,"opcode":"SEND_IMM","imm":"0xdeadbeef","data":[{"inline":"aabb"}]}},
      {"mem_expect":{"addr":"0x61101000","hex":"0000000b 00000302 00000008 deadbeef 80000002 aabb0000"}}]),
   t(5,"RDMA WRITE: the raddr segment (raddr, rkey) after ctrl",
     [{"qp_post":{"opcode":"RDMA_WRITE","raddr":{"addr":"0x123456789a","rkey":"0x5500"},"data":[{"bytes":"01"}],"ring":"none"}},
      {"mem_expect":{"addr":"0x61001000","hex":"00000008 00000203 00000008 00000000 00000012 3456789a 00005500 00000000"}}]),
  ]},
 {"comment":"one device, UD: the datagram segment from the peer",
  "setup":B+[{"qp_setup":{"type":"UD","q_key":"0x22222222","peer":{"qpn":"0x77"}}}],
  "tests":[
   t(6,"UD QP in RTS with its Q_Key; a SEND carries the mlx5_av of the peer",
     [q(2,{"state":3,"st":2,"q_key":"0x22222222"}),
      {"qp_post":{"opcode":"SEND","data":[{"inline":"01"}],"ring":"none"}},
      {"mem_expect":{"addr":"0x61001000","hex":"0000000a 00000205 00000008 00000000 22222222 00000000 00000077 0000c000 00000000 024e4943 52500040 40000000 00000000 00000000 0000ffff c0000202"}}]),
  ]},
 {"comment":"two devices: the connected pair","devices":2,
  "setup":B2+[{"qp_setup":{"type":"RC","mtu":1,"b":{"sq_psn":"0xfffffe"}}}],
  "tests":[
   t(7,"each end's QP names the other's; a's rq_psn is b's sq_psn; the paths name the other's GID and MAC",
     [q(2,{"state":3,"remote_qpn":2,"next_rcv_psn":"0xfffffe","mtu":1,"primary_address_path_rmac_31_0":"0x4943520b","primary_address_path_rgid_rip":"00000000000000000000ffffc0000202"},"a"),
      q(2,{"state":3,"remote_qpn":2,"next_send_psn":"0xfffffe","next_rcv_psn":0,"primary_address_path_rmac_31_0":"0x4943520a","primary_address_path_rgid_rip":"00000000000000000000ffffc0000201"},"b"),
      {"dev":"b","command":{"layout":"query_roce_address_in","fields":{"opcode":"QUERY_ROCE_ADDRESS","roce_address_index":0,"vhca_port_num":1},"output_length":64,
        "expect":{"status":"OK","output":{"layout":"query_roce_address_out","fields":{"roce_version":2,"source_mac_31_0":"0x4943520b","source_l3_address":"00000000000000000000ffffc0000202"}}}}}]),
   t(8,"RDMA WRITE on a: raddr is b's data region + offset, rkey b's data MKey",
     [{"qp_post":{"opcode":"RDMA_WRITE","raddr":{"offset":"0x40"},"data":[{"bytes":"01"}],"ring":"none"}},
      {"dev":"a","mem_expect":{"addr":"0x61001010","hex":"00000000 70000040 0000013c 00000000"}}]),
   t(9,"a step on b sees b's memory, not a's",
     [{"dev":"b","mem_write":{"addr":"0x70000000","hex":"5a"}},
      {"dev":"b","mem_expect":{"addr":"0x70000000","hex":"5a"}},
      {"mem_expect":{"addr":"0x70000000","hex":"00"}}]),
  ]},
 {"comment":"two devices: Ethernet frames of a's SQ through the link","devices":2,
  "setup":B2+[{"tx_setup":{},"dev":"a"},{"dev":"b","tx_setup":{}},{"dev":"b","rx_setup":{"td":"tx"}}],
  "tests":[
   t(10,"a frame leaves a, waits out the link's delay, then b receives it",
     [{"link":{"dir":"ab","delay_ns":1000}},
      wqe,
      {"dev":"a","frames":{"expect":[{"port":1,"hex":frame}]}},
      {"dev":"b","events":{"expect":[],"exact":True}},
      {"advance_ns":999},
      {"dev":"b","events":{"expect":[],"exact":True}},
      {"advance_ns":1},
      {"dev":"b","events":{"expect":[{"event":"frame_in","port":1,"len":60}],"exact":False}},
      {"link_counters":{"ab":{"entered":1,"delivered":1,"queued":0},"ba":{"entered":0}}},
      {"dev":"b","frames":{"expect":[]}},
      dict(wqe, dev="b")], cite="PRM §7.4.4.1; IBTA Vol. 1 §10.3 (docs/vectors.md link)"),
   t(11,"a new test: device b has sent nothing yet (the last test's frame is gone); the link loses ordinal 0 and duplicates ordinal 1",
     [{"dev":"b","frames":{"expect":[]}},
      {"link":{"dir":"ab","loss":[0],"duplicate":[1]}},
      wqe, wqe,
      {"dev":"b","events":{"expect":[{"event":"frame_in","len":60},{"event":"frame_in","len":60}],"exact":False}},
      {"link_counters":{"ab":{"entered":2,"lost":1,"duplicated":1,"delivered":2}}}], cite="PRM §7.4.4.1; IBTA Vol. 1 §10.3 (docs/vectors.md link)"),
  ]},
]
doc={"schema":"nicref_vectors_v1","feature":"roce_runner","header":["The RoCE steps of the runner (docs/vectors.md \"RoCE\"): harness/tests/vectors_roce_test.c runs this file; every test must pass."],
     "notes":{},"numberOfTests":sum(len(g["tests"]) for g in groups),"testGroups":groups}
open("harness/tests/roce_vectors/runner.json","w").write(json.dumps(doc,indent=1,ensure_ascii=False)+"\n")

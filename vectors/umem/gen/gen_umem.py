#!/usr/bin/python3
"""Writes vectors/umem/umem.json: CREATE_UMEM / DESTROY_UMEM, beyond ConnectX-4 PRM Rev 0.40.

Written from public material only, never from reference/ or nicref's output:
- Linux include/linux/mlx5/mlx5_ifc.h (= rdma-core providers/mlx5/mlx5_ifc.h): opcodes
  MLX5_CMD_OP_CREATE_UMEM 0xa08 and MLX5_CMD_OP_DESTROY_UMEM 0xa0a; struct mlx5_ifc_umem_bits
  (log_page_size, page_offset, num_of_mtt, mtt[]), mlx5_ifc_mtt_bits (ptag_63_32, ptag_31_8,
  wr_en, rd_en), create_umem_in/out (umem_id 24 bits), destroy_umem_in.
- Linux drivers/infiniband/hw/mlx5/devx.c devx_umem_reg_cmd_build: log_page_size is
  order_base_2(page_size) - MLX5_ADAPTER_PAGE_SHIFT (12), page_offset the offset of the buffer
  in its first page (ib_umem_dma_offset, below the page size), one mtt entry per page of that
  size (mlx5_ib_populate_pas), num_of_mtt the number of those pages.
- ConnectX-4 PRM Rev 0.40 §12.2 T128 (statuses), §12.1 (reserved input fields are 0).
The field names are mlx5_ifc.h's; mtt[i] is the whole 64-bit entry (ptag | wr_en << 1 | rd_en).
Run: /usr/bin/python3 vectors/umem/gen/gen_umem.py
"""
import json
import sys
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "umem.json")
HDR_LEN = 0x30  # create_umem_in: 40h bits header + umem_bits 140h bits before mtt[]
MTT_LEN = 8     # mtt_bits: 40h bits
ADAPTER_PAGE_SHIFT = 12
RD_WR = 3       # wr_en | rd_en
BASE = 0x20000000
IFC = "mlx5_ifc.h create_umem_in/create_umem_out, umem_bits, mtt_bits; devx.c devx_umem_reg_cmd_build; beyond PRM Rev 0.40"
IFC_D = "mlx5_ifc.h destroy_umem_in/destroy_umem_out; beyond PRM Rev 0.40"


def create(mtts, log_page_size=0, page_offset=0, num=None, length=None, expect=None, extra=None):
    n = len(mtts) if num is None else num
    fields = {"opcode": "CREATE_UMEM", "log_page_size": log_page_size,
              "page_offset": hex(page_offset), "num_of_mtt": n}
    for i, m in enumerate(mtts):
        fields["mtt[%d]" % i] = hex(m)
    if extra:
        fields.update(extra)
    cmd = {"layout": "create_umem_in", "fields": fields,
           "length": hex(HDR_LEN + MTT_LEN * len(mtts) if length is None else length),
           "expect": expect}
    return {"command": cmd}


def ok_id(umem_id):
    return {"status": "OK", "output": {"layout": "create_umem_out", "fields": {"umem_id": umem_id}}}


def refused(status, rule):
    return {"status": status, "rule": rule}


def destroy(umem_id, expect):
    return {"command": {"layout": "destroy_umem_in",
                        "fields": {"opcode": "DESTROY_UMEM", "umem_id": umem_id},
                        "expect": expect}}


OK = {"status": "OK"}


def page(i, log_page_size=0):
    return BASE + (i << (ADAPTER_PAGE_SHIFT + log_page_size))


def tests_initialized():
    t = []
    t.append(("CREATE_UMEM of one 4 KB page: OK, umem_id 1; DESTROY_UMEM: OK", IFC, ["Handles"],
              "valid", [create([page(0) | RD_WR], expect=ok_id(1)), destroy(1, OK)]))
    t.append(("DESTROY_UMEM of a destroyed UMEM and of one never created: BAD_RESOURCE",
              IFC_D + "; PRM T128 0x05", ["Handles"], "invalid",
              [create([page(0) | RD_WR], expect=ok_id(1)), destroy(1, OK),
               destroy(1, refused("BAD_RESOURCE", "UMEM_NOT_FOUND")),
               destroy(7, refused("BAD_RESOURCE", "UMEM_NOT_FOUND"))]))
    t.append(("Three UMEMs: ids 1, 2, 3; DESTROY 2 then CREATE: the lowest free id, 2, again",
              IFC + "; D-UMEM-1 (D-OBJ-2 numbering)", ["Handles"], "valid",
              [create([page(0) | RD_WR], expect=ok_id(1)),
               create([page(1) | RD_WR, page(2) | RD_WR], expect=ok_id(2)),
               create([page(3) | 1], expect=ok_id(3)),
               destroy(2, OK), create([page(4) | RD_WR], expect=ok_id(2)),
               destroy(1, OK), destroy(2, OK), destroy(3, OK)]))
    t.append(("log_page_size 1 (8 KB pages), page_offset 0x1FFF (the last byte of the first "
              "page): OK", IFC, ["Handles"], "valid",
              [create([page(0, 1) | RD_WR, page(1, 1) | RD_WR], log_page_size=1,
                      page_offset=0x1FFF, expect=ok_id(1))]))
    t.append(("log_page_size 4 (64 KB pages), 16 entries: OK", IFC, ["Handles"], "valid",
              [create([page(i, 4) | RD_WR for i in range(16)], log_page_size=4,
                      page_offset=0x40, expect=ok_id(1))]))
    t.append(("num_of_mtt 0: BAD_PARAM (a UMEM of no page; devx.c gives one entry per page)",
              IFC + "; PRM T128 0x03; D-UMEM-2", ["Rule"], "invalid",
              [create([], num=0, expect=refused("BAD_PARAM", "UMEM_NO_MTT")),
               create([page(0) | RD_WR], expect=ok_id(1))]))
    t.append(("num_of_mtt 2 with one entry in the input: BAD_INPUT_LEN",
              IFC + "; PRM T128 0x50; D-UMEM-2", ["Length"], "invalid",
              [create([page(0) | RD_WR], num=2, expect=refused("BAD_INPUT_LEN", "UMEM_MTT_BEYOND_INPUT")),
               create([page(0) | RD_WR], expect=ok_id(1))]))
    t.append(("num_of_mtt 2^32 + 1 (the upper word of the 64-bit count): BAD_INPUT_LEN",
              IFC + "; PRM T128 0x50; D-UMEM-2", ["Length"], "invalid",
              [create([page(0) | RD_WR], num=(1 << 32) + 1,
                      expect=refused("BAD_INPUT_LEN", "UMEM_MTT_BEYOND_INPUT"))]))
    t.append(("page_offset 0x1000 with 4 KB pages (not inside the first page): BAD_PARAM",
              IFC + "; PRM T128 0x03; D-UMEM-3", ["Rule"], "invalid",
              [create([page(0) | RD_WR], page_offset=0x1000,
                      expect=refused("BAD_PARAM", "UMEM_PAGE_OFFSET_BAD")),
               create([page(0) | RD_WR], page_offset=0xFFF, expect=ok_id(1))]))
    t.append(("an mtt entry at 0x20000800 with 4 KB pages (not page aligned): BAD_PARAM",
              IFC + "; PRM T128 0x03; D-UMEM-3", ["Rule"], "invalid",
              [create([page(0) | RD_WR, (BASE + 0x1800) | RD_WR],
                      expect=refused("BAD_PARAM", "UMEM_MTT_MISALIGNED"))]))
    t.append(("an 8 KB-page UMEM whose second entry is only 4 KB aligned: BAD_PARAM",
              IFC + "; PRM T128 0x03; D-UMEM-3", ["Rule"], "invalid",
              [create([page(0, 1) | RD_WR, (BASE + 0x3000) | RD_WR], log_page_size=1,
                      expect=refused("BAD_PARAM", "UMEM_MTT_MISALIGNED")),
               create([page(0, 1) | RD_WR, (BASE + 0x4000) | RD_WR], log_page_size=1,
                      expect=ok_id(1))]))
    t.append(("CREATE_UMEM with the reserved bit 20h[31] set (ats in later mlx5_ifc.h; the "
              "device has no ATS): BAD_PARAM", IFC + "; PRM §12.1, T128 0x03; D-UMEM-4",
              ["Reserved"], "invalid",
              [{"command": {"hex": "0a080000 00000000 00000000 00000000 00000000 00000000 "
                                   "00000000 00000000 80000000 00000000 00000000 00000001 "
                                   "00000000 20000003",
                            "expect": refused("BAD_PARAM", "RESERVED_NOT_ZERO")}},
               # the violation's argument: byte offset 20h << 32 | the bits set (D-CMD-8)
               {"events": {"exact": True, "expect": [
                   {"event": "violation", "rule": "CMD_RESERVED_NOT_ZERO", "arg": "0x2080000000"},
                   {"event": "cmd_fail", "slot": 0, "opcode": "CREATE_UMEM", "rule": "RESERVED_NOT_ZERO"},
                   {"event": "cmd_done", "slot": 0, "opcode": "CREATE_UMEM", "op_mod": 0,
                    "delivery": "OK", "status": "BAD_PARAM"}]}}]))
    t.append(("an mtt entry with its reserved bits [7:2] set (mlx5_ifc.h mtt_bits "
              "reserved_at_38): BAD_PARAM", IFC + "; PRM §12.1, T128 0x03; D-UMEM-3, D-CMD-8",
              ["Reserved"], "invalid",
              [create([page(0) | 0xFC | RD_WR],
                      expect=refused("BAD_PARAM", "RESERVED_NOT_ZERO")),
               # the violation's argument: byte offset 34h (entry 0's low dword) << 32 | the bits
               {"events": {"exact": True, "expect": [
                   {"event": "violation", "rule": "CMD_RESERVED_NOT_ZERO", "arg": "0x34000000fc"},
                   {"event": "cmd_fail", "slot": 0, "opcode": "CREATE_UMEM", "rule": "RESERVED_NOT_ZERO"},
                   {"event": "cmd_done", "slot": 0, "opcode": "CREATE_UMEM", "op_mod": 0,
                    "delivery": "OK", "status": "BAD_PARAM"}]}},
               create([page(0) | RD_WR], expect=ok_id(1))]))
    t.append(("CREATE_UMEM op_mod 1: BAD_OP (mlx5_ifc.h names no op_mod; PRM T100 'must be 0')",
              IFC + "; PRM §12.1 T100, T128 0x02", ["Rule"], "invalid",
              [create([page(0) | RD_WR], extra={"op_mod": 1},
                      expect={"status": "BAD_OP", "rule": "BAD_OP_MOD"}),
               create([page(0) | RD_WR], expect=ok_id(1))]))
    return t


def tests_enabled():
    return [("CREATE_UMEM before INIT_HCA: BAD_SYS_STATE (an object command, D-INIT-2)",
             IFC + "; PRM §8.2, T128 0x04; D-INIT-2", ["Lifecycle"], "invalid",
             [create([page(0) | RD_WR], expect={"status": "BAD_SYS_STATE"})])]


# ---- A CQ whose buffer and doorbell record live in UMEMs ----
# mlx5_ifc.h create_cq_in: cq_umem_offset (64 bits), cq_umem_id, cq_umem_valid; cqc:
# dbr_umem_valid, dbr_umem_id, and dbr_addr, which with dbr_umem_valid is an offset into that
# UMEM (as rdma-core's DevX users and DPDK's mlx5 fill it: the record's offset in its umem).
# PRM §12.7.1 T261: CREATE_CQ's pas[] follow at 110h; with cq_umem_valid there are none.
CQ_UAR, CQ_EQN = 5, 0
EQ_BUF = 0x31000000


def cq_setup():
    pages = {"opcode": "MANAGE_PAGES", "op_mod": 1, "input_num_entries": 16}
    for i in range(16):  # PRM §12.3.9 T181: 16 ICM pages for the contexts (D-PG-4)
        pages["pas[%d]" % i] = hex(0x11000000 + 0x1000 * i)
    # PRM §7.13.3 T93: an EQE's owner bit (byte 63 bit 0) starts at 1, the device's first lap 0
    eqes = " ".join(["00"] * 63 + ["01"]) * 1
    return [{"bring_up": {"to": "initialized"}},
            {"command": {"layout": "manage_pages_in", "fields": pages, "length": "0x90",
                         "expect": {"status": "OK"}}},
            {"command": {"layout": "alloc_uar_in", "fields": {"opcode": "ALLOC_UAR"},
                         "expect": {"status": "OK", "output": {"layout": "alloc_uar_out",
                                                               "fields": {"uar": CQ_UAR}}}}},
            {"mem_write": {"addr": hex(EQ_BUF), "hex": " ".join([eqes] * 4)}},
            {"command": {"layout": "create_eq_in",
                         "fields": {"opcode": "CREATE_EQ", "log_eq_size": 2, "uar_page": CQ_UAR,
                                    "intr": 0, "pas[0]": hex(EQ_BUF), "event_bitmask": "0x10"},
                         "length": "0x118",
                         "expect": {"status": "OK", "output": {"layout": "create_eq_out",
                                                               "fields": {"eq_number": CQ_EQN}}}}}]


def create_cq_umem(buf_id, buf_off, dbr_id, dbr_off, expect):
    # 2^2 CQEs of 64 B (PRM T76 log_cq_size, cqe_sz 0): 256 bytes
    return {"command": {"layout": "create_cq_in",
                        "fields": {"opcode": "CREATE_CQ", "log_cq_size": 2, "uar_page": CQ_UAR,
                                   "c_eqn": CQ_EQN, "cq_umem_valid": 1, "cq_umem_id": buf_id,
                                   "cq_umem_offset": hex(buf_off), "dbr_umem_valid": 1,
                                   "dbr_umem_id": dbr_id, "dbr_addr": hex(dbr_off)},
                        "length": "0x110", "expect": expect}}


def destroy_cq(cqn, expect):
    return {"command": {"layout": "destroy_cq_in", "fields": {"opcode": "DESTROY_CQ", "cqn": cqn},
                        "expect": expect}}


UMEM_B = 0x40000000  # two 4 KB pages: the CQ buffer's UMEM (id 1)
UMEM_R = 0x40100000  # one 4 KB page: the doorbell record's UMEM (id 2)
IFC_CQ = ("mlx5_ifc.h create_cq_in cq_umem_offset/cq_umem_id/cq_umem_valid, cqc "
          "dbr_umem_valid/dbr_umem_id; PRM §12.7.1 T261; beyond PRM Rev 0.40")


def two_umems():
    return [create([UMEM_B | RD_WR, (UMEM_B + 0x1000) | RD_WR], expect=ok_id(1)),
            create([UMEM_R | RD_WR], expect=ok_id(2))]


def tests_cq():
    t = []
    t.append(("CREATE_CQ with its buffer at 1000h of UMEM 1 and its record at 40h of UMEM 2 "
              "(no pas[]): OK; DESTROY_UMEM of either refused while the CQ lives "
              "(BAD_RES_STATE); after DESTROY_CQ both go", IFC_CQ + "; PRM §3.1, T128 0x09; "
              "D-OBJ-1, D-UMEM-5", ["Handles", "InUse"], "invalid",
              two_umems() + [
                  create_cq_umem(1, 0x1000, 2, 0x40, {"status": "OK", "output": {
                      "layout": "create_cq_out", "fields": {"cqn": 1}}}),
                  destroy(1, refused("BAD_RES_STATE", "UMEM_IN_USE")),
                  destroy(2, refused("BAD_RES_STATE", "UMEM_IN_USE")),
                  destroy_cq(1, OK), destroy(1, OK), destroy(2, OK)]))
    t.append(("CREATE_CQ naming a umem_id that is not live, for the buffer or the record: "
              "BAD_RESOURCE", IFC_CQ + "; PRM T128 0x05; D-UMEM-5", ["Handles", "Rule"],
              "invalid",
              two_umems() + [
                  create_cq_umem(7, 0, 2, 0x40, refused("BAD_RESOURCE", "UMEM_REF_NOT_FOUND")),
                  create_cq_umem(1, 0, 7, 0x40, refused("BAD_RESOURCE", "UMEM_REF_NOT_FOUND")),
                  destroy(1, OK), destroy(2, OK)]))
    t.append(("CREATE_CQ whose buffer starts at 800h of its UMEM (not on a 4 KB page; the "
              "PRM's page_offset 'Must be 0'): BAD_PARAM", IFC_CQ + "; PRM T76 page_offset, "
              "T128 0x03; D-UMEM-5", ["Handles", "Rule"], "invalid",
              two_umems() + [
                  create_cq_umem(1, 0x800, 2, 0x40, refused("BAD_PARAM", "UMEM_REF_MISALIGNED")),
                  destroy(1, OK)]))
    t.append(("CREATE_CQ whose buffer starts at the UMEM's end (2000h of 2000h bytes), or "
              "whose record is past its UMEM's end: BAD_PARAM", IFC_CQ + "; PRM T128 0x03; "
              "D-UMEM-5, D-UMEM-6", ["Handles", "Rule"], "invalid",
              two_umems() + [
                  create_cq_umem(1, 0x2000, 2, 0x40, refused("BAD_PARAM", "UMEM_REF_BEYOND")),
                  create_cq_umem(1, 0x1000, 2, 0x1000, refused("BAD_PARAM", "UMEM_REF_BEYOND")),
                  destroy(1, OK), destroy(2, OK)]))
    # mlx5_ifc.h wq_bits (at 30h of the rmpc, 50h of create_rmp_in): dbr_umem_valid 24h[31],
    # wq_umem_valid 24h[30], dbr_umem_id 28h, wq_umem_id 2Ch, wq_umem_offset 30h; PRM T64/T65
    # rmpc state 1 RDY, T55 wq_type 1 cyclic, log_wq_stride 6 and log_wq_sz 6: 4 KB.
    rmp = {"opcode": "CREATE_RMP", "state": 1, "wq_type": 1, "pd": 1, "log_wq_stride": 6,
           "log_wq_sz": 6, "wq_umem_valid": 1, "wq_umem_id": 1, "wq_umem_offset": "0x1000",
           "dbr_umem_valid": 1, "dbr_umem_id": 2, "dbr_addr_31_0": "0x20"}
    t.append(("CREATE_RMP with its WQ buffer at 1000h of UMEM 1 and its record at 20h of UMEM 2 "
              "(no pas[]): OK; DESTROY_UMEM refused while it lives; after DESTROY_RMP both go",
              "mlx5_ifc.h wq_bits wq_umem_*/dbr_umem_*; PRM §12.13.1 T365, T128 0x09; D-OBJ-1, "
              "D-UMEM-7; beyond PRM Rev 0.40", ["Handles", "InUse"], "invalid",
              [{"command": {"layout": "alloc_pd_in", "fields": {"opcode": "ALLOC_PD"},
                            "expect": {"status": "OK", "output": {"layout": "alloc_pd_out",
                                                                  "fields": {"pd": 1}}}}}]
              + two_umems() + [
                  {"command": {"layout": "create_rmp_in", "fields": rmp, "length": "0x110",
                               "expect": {"status": "OK", "output": {
                                   "layout": "create_rmp_out", "fields": {"rmpn": 1}}}}},
                  destroy(1, refused("BAD_RES_STATE", "UMEM_IN_USE")),
                  destroy(2, refused("BAD_RES_STATE", "UMEM_IN_USE")),
                  {"command": {"layout": "destroy_rmp_in",
                               "fields": {"opcode": "DESTROY_RMP", "rmpn": 1}, "expect": OK}},
                  destroy(1, OK), destroy(2, OK)]))
    return t


# ---- umem_ids outside the ids (D-OBJ-2) ----
# umem_ids are 24 bits (create_umem_out, destroy_umem_in) and, in the model's profile, 1 to
# 2^log_max_objects = 65536 (D-UMEM-1). A number outside them: PRM T128 0x0A BAD_INDEX ("Index
# out of range (might be beyond table size or attempt to access a reserved resource)") or 0x05
# BAD_RESOURCE ("Attempt to access reserved or unallocated resource"): T128 fits both, and §12.2
# lets a device leave BAD_INDEX unchecked, so either conforms. 0 and the 32-bit ids from 2^24
# are outside every device's ids; 0xFFFFFF is beyond the profile's 65536. An id inside them
# that names no UMEM is BAD_RESOURCE only.
def beyond(rule):
    return {"any_of": [
        {"reading": "D-OBJ-2: outside the table (BAD_INDEX)", "status": "BAD_INDEX", "rule": rule},
        {"reading": "unallocated (BAD_RESOURCE)", "status": "BAD_RESOURCE"}]}


def tests_range():
    t = []
    t.append(("DESTROY_UMEM of umem_id 0, 65537 and 0xFFFFFF, outside the ids (from 1, 2^16 of "
              "them): BAD_INDEX (D-OBJ-2) or BAD_RESOURCE, either conforms; of 65536, the last "
              "id, not live: BAD_RESOURCE; UMEM 1 stays and goes after",
              IFC_D + "; PRM T128 0x0A, 0x05, §12.2; D-OBJ-2, D-UMEM-1",
              ["Acceptable", "Handles"], "acceptable",
              [create([page(0) | RD_WR], expect=ok_id(1)),
               destroy(0, beyond("UMEM_INDEX_OUT_OF_RANGE")),
               destroy(65537, beyond("UMEM_INDEX_OUT_OF_RANGE")),
               destroy("0xFFFFFF", beyond("UMEM_INDEX_OUT_OF_RANGE")),
               destroy(65536, refused("BAD_RESOURCE", "UMEM_NOT_FOUND")),
               destroy(1, OK)]))
    t.append(("CREATE_CQ naming buffer UMEM 0xFFFFFF, then record UMEM 0x1000000 (beyond 24 "
              "bits): BAD_INDEX (D-OBJ-2) or BAD_RESOURCE, either conforms; record UMEM 65536, "
              "not live: BAD_RESOURCE; nothing was created (the next CREATE_CQ is CQ 1)",
              IFC_CQ + "; PRM T128 0x0A, 0x05; D-OBJ-2, D-UMEM-5, D-UMEM-6",
              ["Acceptable", "Handles"], "acceptable",
              two_umems() + [
                  create_cq_umem("0xFFFFFF", 0, 2, 0x40, beyond("UMEM_REF_OUT_OF_RANGE")),
                  create_cq_umem(1, 0, "0x1000000", 0x40, beyond("UMEM_REF_OUT_OF_RANGE")),
                  create_cq_umem(1, 0, 65536, 0x40, refused("BAD_RESOURCE", "UMEM_REF_NOT_FOUND")),
                  create_cq_umem(1, 0x1000, 2, 0x40, {"status": "OK", "output": {
                      "layout": "create_cq_out", "fields": {"cqn": 1}}}),
                  destroy_cq(1, OK), destroy(1, OK), destroy(2, OK)]))
    rmp = {"opcode": "CREATE_RMP", "state": 1, "wq_type": 1, "pd": 1, "log_wq_stride": 6,
           "log_wq_sz": 6, "wq_umem_valid": 1, "wq_umem_id": 1, "wq_umem_offset": "0x1000",
           "dbr_umem_valid": 1, "dbr_umem_id": 2, "dbr_addr_31_0": "0x20"}

    def create_rmp(fields, expect):
        f = dict(rmp)
        f.update(fields)
        return {"command": {"layout": "create_rmp_in", "fields": f, "length": "0x110",
                            "expect": expect}}
    t.append(("CREATE_RMP naming WQ UMEM 0, then record UMEM 0xFFFFFFFF: BAD_INDEX (D-OBJ-2) or "
              "BAD_RESOURCE, either conforms; WQ UMEM 65536, not live: BAD_RESOURCE; nothing was "
              "created (the next CREATE_RMP is RMP 1)",
              "mlx5_ifc.h wq_bits wq_umem_id/dbr_umem_id; PRM §12.13.1 T365, T128 0x0A, 0x05; "
              "D-OBJ-2, D-UMEM-7; beyond PRM Rev 0.40", ["Acceptable", "Handles"], "acceptable",
              [{"command": {"layout": "alloc_pd_in", "fields": {"opcode": "ALLOC_PD"},
                            "expect": {"status": "OK", "output": {"layout": "alloc_pd_out",
                                                                  "fields": {"pd": 1}}}}}]
              + two_umems() + [
                  create_rmp({"wq_umem_id": 0}, beyond("UMEM_REF_OUT_OF_RANGE")),
                  create_rmp({"dbr_umem_id": "0xFFFFFFFF"}, beyond("UMEM_REF_OUT_OF_RANGE")),
                  create_rmp({"wq_umem_id": 65536}, refused("BAD_RESOURCE", "UMEM_REF_NOT_FOUND")),
                  create_rmp({}, {"status": "OK", "output": {"layout": "create_rmp_out",
                                                             "fields": {"rmpn": 1}}}),
                  {"command": {"layout": "destroy_rmp_in",
                               "fields": {"opcode": "DESTROY_RMP", "rmpn": 1}, "expect": OK}},
                  destroy(1, OK), destroy(2, OK)]))
    return t


def main():
    groups, tc = [], 0
    for comment, to, tests in (("initialized HCA", "initialized", tests_initialized()),
                               ("enabled HCA, not initialized", "enabled", tests_enabled()),
                               ("a CQ in UMEMs: EQ 0, UAR 5, 16 ICM pages", cq_setup(), tests_cq()),
                               ("umem_ids outside the ids (D-OBJ-2): EQ 0, UAR 5, 16 ICM pages",
                                cq_setup(), tests_range())):
        out = []
        for comment_t, cite, flags, result, steps in tests:
            tc += 1
            out.append({"tcId": tc, "comment": comment_t, "cite": cite, "flags": flags,
                        "result": result, "steps": steps})
        setup = to if isinstance(to, list) else [{"bring_up": {"to": to}}]
        groups.append({"comment": comment, "setup": setup, "tests": out})
    doc = {
        "schema": "nicref_vectors_v1",
        "feature": "umem",
        "header": [
            "User memory objects beyond ConnectX-4 PRM Rev 0.40, from the public mlx5 interface: "
            "Linux include/linux/mlx5/mlx5_ifc.h (opcodes CREATE_UMEM 0xa08, DESTROY_UMEM 0xa0a; "
            "umem_bits, mtt_bits, create_umem_in/out, destroy_umem_in/out) and "
            "drivers/infiniband/hw/mlx5/devx.c (how a driver fills them); docs/umem.md.",
            "Generated by vectors/umem/gen/gen_umem.py from the public material only (never from "
            "nicref); do not edit by hand.",
        ],
        "notes": {
            "Handles": {"bugType": "PROFILE", "description":
                        "umem_ids are the lowest free from 1 (D-UMEM-1, as D-OBJ-2 numbers the "
                        "PRM's objects); a device numbering otherwise needs them substituted."},
            "Rule": {"bugType": "CONFORMANCE", "description":
                     "A UMEM the public interface cannot describe (no page, an offset outside "
                     "the first page, a page not aligned to the page size, an op_mod): refused, "
                     "nothing changes (the next create gets id 1)."},
            "Length": {"bugType": "CONFORMANCE", "description":
                       "num_of_mtt entries that end beyond input_length: BAD_INPUT_LEN (T128 0x50)."},
            "Reserved": {"bugType": "CONFORMANCE", "description":
                         "PRM §12.1 'Reserved fields on input must be set to 0', T128 BAD_PARAM, "
                         "applied to the reserved bits of the public layout (D-CMD-8)."},
            "Lifecycle": {"bugType": "CONFORMANCE", "description":
                          "A UMEM is a resource: before INIT_HCA BAD_SYS_STATE (D-INIT-2)."},
            "Acceptable": {"bugType": "AMBIGUOUS_SPEC", "description":
                           "The PRM allows more than one response: the expectation lists each "
                           "(any_of, the model's reading first). A umem_id outside the ids is "
                           "BAD_INDEX (T128 0x0A 'beyond table size', D-OBJ-2) or, read as an "
                           "unallocated resource, BAD_RESOURCE (0x05); an id inside them that "
                           "names no UMEM is BAD_RESOURCE only."},
            "InUse": {"bugType": "CONFORMANCE", "description":
                      "A UMEM a live object keeps its buffer or record in cannot be destroyed "
                      "first (PRM §3.1; D-OBJ-1, D-UMEM-5): BAD_RES_STATE, nothing changes."},
        },
        "numberOfTests": tc,
        "testGroups": groups,
    }
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    if "--check" in sys.argv[1:]:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                print(f"gen_umem: {OUT} differs from the generator's output", file=sys.stderr)
                return 1
        print(f"gen_umem: {OUT} matches ({tc} tests)")
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

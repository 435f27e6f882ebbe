"""umr.json: UMR WQEs.

Part of the independent send-path generator (gen_tx.py): nothing here comes from nicref's
output."""
from pkt import build, eth, payload
import wqe as W
from vecfmt import RawWqe, Sq, VFile, Wqe, cqe_err, cqe_ok, tx_setup
from txcommon import (CL_DATA, CL_UMR, CL_UMR_SEG, C_CQE, C_CTRL, C_DATA, C_ERR, C_UMR, NOTES,
                      SETUP, SYN_ACCESS, SYN_LEN, SYN_PROT, SYN_QP_OP, S_SEND, S_UMR, post)


UMR_VA = 0x7000000000
UMR_PAGES = (0x48003000, 0x48001000)  # page 0 of the region maps to 0x48003000, page 1 to 0x48001000
UMR_TAG = 0x42
UMR_INDEX = 2
UMR_MKEY = (UMR_INDEX << 8) | UMR_TAG


def create_mkey(free=1, umr_en=1, pd=1, index=UMR_INDEX, access_mode=1, octword_size=4):
    """CREATE_MKEY (T9/T10): free, umr_en, local read, 4 octowords of translations (T10 34h
    'Must be a multiple of 4'); MTT (access_mode 1, 4 KB pages) or KLM (2, log_entity_size
    'otherwise: reserved')."""
    return {"command": {"layout": "create_mkey_in", "fields": {
        "opcode": "CREATE_MKEY", "free": free, "umr_en": umr_en, "lr": 1, "access_mode": access_mode,
        "qpn": "0xffffff", "mkey_7_0": "0x%x" % UMR_TAG, "pd": pd, "start_addr": 0, "len": 0,
        "translations_octword_size": octword_size, "log_entity_size": 12 if access_mode == 1 else 0,
        "translations_octword_actual_size": 0},
        "length": "0x110", "expect": {"status": "OK", "output": {"layout": "create_mkey_out", "fields": {"mkey_index": index}}}}}


UMR_MASK = W.MASK_LEN | W.MASK_START_ADDR | W.MASK_LR | W.MASK_FREE


def umr_wqe(idx, mkey=UMR_MKEY, check_free=0, pages=UMR_PAGES, actual=None, pd=1, ce=2, fm=0,
            ring=None, mask=UMR_MASK, offset=None, entries=None, pointer=None, access_mode=1,
            ds=None, length=None):
    """A UMR WQE by T31-T37: the region [UMR_VA, +8 KB) mapped on two 4 KB pages, local read,
    made not free (mask: len, start_addr, lr, free). The translations are inline MTTs (T11/T12),
    or `entries` (other inline bytes, KLMs), or through a UMR pointer (T34/T35: (mkey, address),
    inline 0). T33: the list's place, translation_octword_actual_size, is in 16-byte units and
    'KLM list should be aligned to 64B. SW can add PAD to the list of KLMs for this',
    'translation_offset and size should be aligned to 64B': inline entries are padded with
    zeros to 64 bytes (4 octowords); `actual` and `offset` (translation_offset_en) override.
    `ds` posts only that many octowords."""
    if pointer is None:
        lst = entries if entries is not None else b"".join(W.mtt(p) for p in pages)
        lst = lst.ljust(W.round_up(len(lst), 64), b"\0")
        octs = len(lst) // 16 if actual is None else actual
    else:
        lst = W.umr_pointer(*pointer)
        octs = 4 if actual is None else actual
    body = (W.umr_ctrl_seg(inline=int(pointer is None), check_free=check_free,
                           translation_offset_en=int(offset is not None), octword_actual_size=octs,
                           translation_offset=offset or 0, mkey_mask=mask)
            + W.mkey_ctx(free=0, umr_en=1, lr=1, access_mode=access_mode, mkey_7_0=UMR_TAG, pd=pd,
                         start_addr=UMR_VA,
                         length=len(pages) * 4096 if length is None else length, octword_size=4,
                         log_entity_size=12 if access_mode == 1 else 0)
            + lst)
    raw = W.ctrl_seg(idx, W.OP_UMR, 1, ds or (16 + len(body)) // 16, ce=ce, fm=fm, umr_mkey=mkey) + body
    return RawWqe(raw[:ds * 16] if ds else raw, "UMR", ring=ring)


def umr_file():
    f = VFile("umr.json", "tx_umr", [
        "UMR WQEs (ConnectX-4 PRM Rev 0.40 §7.4.4.1.3 T31-T37, §10.1.1, §10.1.1.1; MKey context T9/T10, "
        "MTT T11/T12): an MTT MKey created free with umr_en is given two pages and made usable "
        "by a UMR on the SQ; a SEND through it then gathers across the two pages; each check of "
        "§10.1.1.1 fails a UMR.",
        "UMR WQEs are raw bytes built from T31-T37 (vectors/tx/gen/wqe.py), so they carry SQ 1 and "
        "MKey index 2 (Handles). The region: VA 0x7000000000, 8 KB, page 0 at 0x48003000, page 1 "
        "at 0x48001000 (not contiguous, so a frame that crosses the page boundary proves the "
        "translation).",
    ], NOTES)
    g = f.group("one SQ; MKey index 2 created free=1, umr_en=1, MTT, PD 1, 4 octowords of translations",
                SETUP + [tx_setup(), create_mkey()])
    data = payload(8192, 77)
    page_writes = [{"mem_write": {"addr": "0x%x" % UMR_PAGES[0], "hex": data[:4096].hex()}},
                   {"mem_write": {"addr": "0x%x" % UMR_PAGES[1], "hex": data[4096:].hex()}}]

    t = g.test("UMR of the free MKey (inline MTTs, mask len/start_addr/lr/free): one CQE, "
               "s_wqe_opcode 0x25, no frame", C_UMR + "; " + C_CQE, "valid", ["Handles"])
    sq = Sq()
    i = post(t, sq, umr_wqe(0))
    t.no_frames().cqes([cqe_ok(i, S_UMR)])

    hdr = build(eth(etype=0x88B5))
    t = g.test("UMR, then a SEND with small fence (§10.1.1 'this WQE should be marked with small-"
               "fence') gathering 200 bytes from VA 0x7000000F80 with the new MKey: 128 bytes from "
               "page 0 (0x48003F80) then 72 from page 1 (0x48001000)", C_UMR + "; " + C_CTRL + " FM",
               "valid", ["Handles"])
    t.add(*page_writes)
    sq = Sq()
    i0 = post(t, sq, umr_wqe(0))
    fr = hdr + data[0xF80:0xF80 + 200]
    w = Wqe("SEND", ctrl={"ce": 2, "fm": 1}, eth={}, inline_header=hdr,
            data=[("ptr", fr[14:], {"lkey": UMR_MKEY, "addr": UMR_VA + 0xF80})])
    i1 = post(t, sq, w)
    t.frames([fr]).cqes([cqe_ok(i0, S_UMR), cqe_ok(i1, S_SEND)])

    t = g.test("UMR with check_free 01 ('If the status of the MKey is not free, the UMR operation "
               "will fail') on the free MKey: succeeds", C_UMR + " T33 Check_free", "valid", ["Handles"])
    sq = Sq()
    i = post(t, sq, umr_wqe(0, check_free=1))
    t.no_frames().cqes([cqe_ok(i, S_UMR)])

    def fails(comment, make, cite, clause, pre=()):
        t = g.test(comment + ": completion with error (§10.1.1.1 step 7), no frame", cite,
                   "acceptable", ["Handles", "UmrOpen", "Violation"])
        t.add(*pre)
        sq = Sq()
        i = post(t, sq, make(0))
        t.no_frames().cqes([cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT, SYN_ACCESS]}, S_UMR)]).violation(clause)
        return t

    fails("UMR with check_free 10 ('If the status of the MKey is free, the UMR operation will "
          "fail') on the free MKey", lambda i: umr_wqe(i, check_free=2),
          C_UMR + " T33 Check_free; §10.1.1.1 step 2", CL_UMR)
    fails("UMR of MKey index 0x777, which does not exist (§10.1.1.1 step 1)",
          lambda i: umr_wqe(i, mkey=(0x777 << 8) | UMR_TAG), C_UMR + "; §10.1.1.1 step 1", CL_UMR)
    fails("UMR of an MKey created with umr_en 0 (index 3; §10.1.1.1 step 4)",
          lambda i: umr_wqe(i, mkey=(3 << 8) | UMR_TAG), C_UMR + "; §10.1.1.1 step 4", CL_UMR,
          pre=[create_mkey(umr_en=0, index=3)])
    fails("UMR of an MKey of another PD (PD 2; §10.1.1.1 step 3 'the PD of the SQ matches the PD "
          "of the MKey')", lambda i: umr_wqe(i, mkey=(3 << 8) | UMR_TAG, pd=2), C_UMR + "; §10.1.1.1 step 3",
          CL_UMR,
          pre=[{"command": {"layout": "alloc_pd_in", "fields": {"opcode": "ALLOC_PD"},
                            "expect": {"status": "OK", "output": {"layout": "alloc_pd_out", "fields": {"pd": 2}}}}},
               create_mkey(pd=2, index=3)])
    fails("UMR with 8 octowords of translations for an MKey created with 4 (§10.1.1.1 step 5 'does "
          "not exceed the memory allocated for that MKey')",
          lambda i: umr_wqe(i, pages=[0x48000000 + 0x1000 * k for k in range(16)]),
          C_UMR + "; §10.1.1.1 step 5", CL_UMR)

    t = g.test("SEND through the MKey while it is still free (no UMR yet): T10 free 'Cannot be "
               "used for address translation': Local_Protection_Error", C_ERR + " 0x4; PRM §6.4.1 T10 free; " + C_DATA,
               "invalid", ["Handles", "Violation"])
    t.add(*page_writes)
    sq = Sq()
    w = Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=hdr,
            data=[("ptr", data[:100], {"lkey": UMR_MKEY, "addr": UMR_VA})])
    i = post(t, sq, w)
    t.no_frames().cqes([cqe_err(i, SYN_PROT, S_SEND)]).violation(CL_DATA)

    # ----- the UMR WQE's own form (§7.4.4.1.3 T31-T37)
    fails("UMR whose DS (4) ends after the UMR control segment: no MKeyCtx segment (T31: ctrl, "
          "UMR control 10h-3Ch, MKeyCtx 40h-7Ch, then the translations)",
          lambda i: umr_wqe(i, ds=4), C_UMR + " T31; " + C_CTRL + " DS", CL_UMR_SEG)
    fails("UMR whose inline MTT list (translation_octword_actual_size 4, within the MKey's 4) runs "
          "past its DS (10: the list's first 2 octowords posted)",
          lambda i: umr_wqe(i, ds=10), C_UMR + " T31/T33; " + C_CTRL + " DS", CL_UMR_SEG)
    # the UMR pointer (T34/T35): the list in the data region, read through the data MKey
    # (tx_setup's, index 1: lkey 1 << 8 | 5Ah, Handles)
    data_lkey = (1 << 8) | 0x5A
    lst = b"".join(W.mtt(p) for p in UMR_PAGES).ljust(64, b"\0")
    lst_write = {"mem_write": {"addr": "0x40000800", "hex": lst.hex()}}
    fails("UMR through a UMR pointer at 0x40000840, not 2 KB aligned (§7.4.4.1.3 'the address of "
          "the UMR pointer must be aligned to 2KB')",
          lambda i: umr_wqe(i, pointer=(data_lkey, 0x40000840)), C_UMR + " T34/T35", CL_UMR_SEG,
          pre=[{"mem_write": {"addr": "0x40000840", "hex": lst.hex()}}])
    fails("UMR through a UMR pointer whose mkey (0xABCD42) no MKey has (T35 mkey; the list is read "
          "like a gather, §6.1)",
          lambda i: umr_wqe(i, pointer=(0x00ABCD42, 0x40000800)), C_UMR + " T34/T35; PRM §6.1", CL_UMR_SEG,
          pre=[lst_write])
    fails("UMR of a KLM MKey (index 3, access_mode KLM) whose KLM has byte_count 0x80000001, above "
          "T37's 'Must be up to 2GB'",
          lambda i: umr_wqe(i, mkey=(3 << 8) | UMR_TAG, access_mode=2,
                            entries=W.klm(0x80000001, data_lkey, 0x40000000)),
          C_UMR + " T36/T37", CL_UMR_SEG, pre=[create_mkey(index=3, access_mode=2)])

    t = g.test("UMR through a UMR pointer (inline 0; T34/T35) to the two MTTs at 0x40000800 (2 KB "
               "aligned) in the data region, then a SEND with small fence gathering across the two "
               "pages: as with inline MTTs", C_UMR + " T33 inline, T34/T35; " + C_CTRL + " FM",
               "valid", ["Handles"])
    t.add(*page_writes, lst_write)
    sq = Sq()
    i0 = post(t, sq, umr_wqe(0, pointer=(data_lkey, 0x40000800)))
    fr = hdr + data[0xF80:0xF80 + 200]
    i1 = post(t, sq, Wqe("SEND", ctrl={"ce": 2, "fm": 1}, eth={}, inline_header=hdr,
                         data=[("ptr", fr[14:], {"lkey": UMR_MKEY, "addr": UMR_VA + 0xF80})]))
    t.frames([fr]).cqes([cqe_ok(i0, S_UMR), cqe_ok(i1, S_SEND)])

    def open_umr(comment, make, cite, clause, flag, readings, pre=()):
        """A UMR breaking a 'should' or a reserved value the PRM gives no response for: done as
        if the rule held, or refused (§10.1.1.1 step 7); the driver broke the rule either way."""
        t = g.test(comment, cite, "acceptable", ["Handles", flag, "Violation"])
        t.add(*pre)
        sq = Sq()
        i = post(t, sq, make(0))
        t.no_frames().cqes_any([(readings[0], [cqe_ok(i, S_UMR)]),
                                (readings[1], [cqe_err(i, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT, SYN_ACCESS]}, S_UMR)])])
        t.violation(clause)

    open_umr("UMR with check_free 11 (T33 '11 - reserved')", lambda i: umr_wqe(i, check_free=3),
             C_UMR + " T33 Check_free", CL_UMR_SEG, "UmrReserved",
             ("the reserved value read as 00 (do not check)", "refused"))
    open_umr("UMR whose translation_octword_actual_size is 2 (32 bytes; T33 'translation_offset and "
             "size should be aligned to 64B')", lambda i: umr_wqe(i, actual=2),
             C_UMR + " T33 translation_octword_actual_size", CL_UMR_SEG, "UmrReserved",
             ("the 2 octowords written", "refused"))
    open_umr("UMR whose MkeyCtx bit mask also sets bit 2 (T33 'other bits are reserved')",
             lambda i: umr_wqe(i, mask=UMR_MASK | (1 << 2)), C_UMR + " T33 MkeyCtx bit mask",
             CL_UMR_SEG, "UmrReserved", ("the reserved bit ignored (§10.1.1 'HW will block')", "refused"))

    t = g.test("UMR, then a SEND with no fence (FM 000) through the new MKey: §10.1.1 'this WQE "
               "should be marked with small-fence'; without it the SEND may see the mapping or not",
               C_UMR + "; PRM §10.1.1; " + C_CTRL + " FM", "acceptable", ["Handles", "UmrFence", "Violation"])
    t.add(*page_writes)
    sq = Sq()
    i0 = post(t, sq, umr_wqe(0))
    fr = hdr + data[0xF80:0xF80 + 200]
    i1 = post(t, sq, Wqe("SEND", ctrl={"ce": 2}, eth={}, inline_header=hdr,
                         data=[("ptr", fr[14:], {"lkey": UMR_MKEY, "addr": UMR_VA + 0xF80})]))
    t.frames([], readings=[("the SEND sees the new mapping", [fr]),
                            ("the SEND sees the MKey still free", [])])
    t.cqes_any([("the SEND sees the new mapping", [cqe_ok(i0, S_UMR), cqe_ok(i1, S_SEND)]),
                ("the SEND sees the MKey still free",
                 [cqe_ok(i0, S_UMR), cqe_err(i1, SYN_PROT, S_SEND)])])
    t.violation("PRM §10.1.1")

    # ----- the checks D-TX-13 adds where §10.1.1.1 is silent (new tests at the end: tcIds stay)
    open_umr("UMR of an MKey (index 3) created with 8 octowords of translations and none delivered, "
             "writing 4 octowords at translation_offset 4 (within the 8, T33 translation_offset_en): "
             "octowords 0-3 would count as delivered without ever being written (an MTT there "
             "translating to whatever the table held); the PRM gives no response",
             lambda i: umr_wqe(i, mkey=(3 << 8) | UMR_TAG, offset=4),
             C_UMR + " T33 translation_offset; §10.1.1.1 step 5", CL_UMR, "UmrOpen",
             ("the 4 octowords written at offset 4", "refused (step 5)"),
             pre=[create_mkey(index=3, octword_size=8)])
    fails("UMR whose MkeyCtx sets len 0xFFFFFFFFFFFFFFFF without length64 (mask bit 0), above "
          "2^log_max_mrw_sz for any log_max_mrw_sz below 64 (T145 20h[22:16] 'maximum size of a "
          "Memory Region/Window', which CREATE_MKEY refuses)",
          lambda i: umr_wqe(i, length=0xFFFFFFFFFFFFFFFF), C_UMR + " T33; PRM §12.5 T145", CL_UMR)

    # A list read through the MKey the UMR rewrites (§10.1.1.1 step 6 copies it after the checks)
    self_key = (3 << 8) | UMR_TAG
    self_list = (W.klm(0x800, 0x00DEAD42, 0x40000000) + b"\0" * 16 * 19)
    t = g.test("KLM MKey index 3 (32 octowords of translations) mapped by an inline UMR to 4 KB at "
               "0x40000800; then a UMR (small fence) of that MKey whose UMR pointer (T34/T35) is "
               "that MKey itself at 0x7000000000: 20 KLMs (320 bytes), the first naming MKey "
               "0xDEAD42. Copied as read, the list's last 4 KLMs would be read through the first "
               "16 already written; the PRM gives no response",
               C_UMR + " T34/T35; PRM §10.1.1.1 steps 6-7", "acceptable",
               ["Handles", "UmrOpen", "Violation"])
    t.add(create_mkey(index=3, access_mode=2, octword_size=32),
          {"mem_write": {"addr": "0x40000800", "hex": self_list.hex()}})
    sq = Sq()
    i0 = post(t, sq, umr_wqe(0, mkey=self_key, access_mode=2, length=0x1000,
                             entries=W.klm(0x1000, data_lkey, 0x40000800)))
    i1 = post(t, sq, umr_wqe(sq.pc, mkey=self_key, access_mode=2, fm=1, actual=20,
                             pointer=(self_key, UMR_VA)))
    t.no_frames().cqes_any([
        ("refused before anything changes", [cqe_ok(i0, S_UMR),
                                             cqe_err(i1, {"in": [SYN_LEN, SYN_QP_OP, SYN_PROT, SYN_ACCESS]}, S_UMR)]),
        ("the list read whole before the copy", [cqe_ok(i0, S_UMR), cqe_ok(i1, S_UMR)])])
    t.violation(CL_UMR)
    return f

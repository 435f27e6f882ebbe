"""Helpers to write the EQ/CQ golden vectors. Expected values are computed here from the PRM's
rules (owner bit, signature, field positions), never read from the model."""
import json

UAR = 5
UAR_PAGE = UAR * 0x1000
EQ_BUF = 0x31000000
EQ_BUF2 = 0x31100000
CQ_BUF = 0x30000000
CQ_BUF2 = 0x30200000
CQ_DBR = 0x30100000
SQ_BUF = 0x32000000
SQ_DBR = 0x32100000
CMDQ = 0x10000


def h(v):
    return "0x%X" % v


def hexs(b):
    return " ".join("%02x" % x for x in b)


def be32(v):
    return bytes([(v >> 24) & 0xFF, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF])


def cmd(layout, fields, expect=None, length=None, output_length=None, input_length=None):
    c = {"layout": layout, "fields": fields}
    if length is not None:
        c["length"] = h(length)
    if input_length is not None:
        c["input_length"] = h(input_length)
    if output_length is not None:
        c["output_length"] = h(output_length)
    c["expect"] = expect if expect is not None else {"status": "OK"}
    return {"command": c}


def ok(output=None):
    e = {"delivery": "OK", "ownership": 0, "status": "OK", "syndrome": 0}
    if output:
        e["output"] = output
    return e


def refused(status, rule):
    return {"delivery": "OK", "ownership": 0, "status": status, "rule": rule}


def ev(kind, **args):
    d = {"event": kind}
    d.update(args)
    return d


def done(opcode, status="OK"):
    return ev("cmd_done", slot=0, opcode=opcode, delivery="OK", status=status)


def fail(opcode, rule, status):
    return [ev("cmd_fail", slot=0, opcode=opcode, rule=rule), done(opcode, status)]


def events(lst, exact=True):
    return {"events": {"exact": exact, "expect": lst}}


def events_any(*alts):
    """An events step whose alternatives are (reading, [events], exact): either conforms."""
    return {"events": {"any_of": [{"reading": r, "exact": x, "expect": lst} for r, lst, x in alts]}}


def any_of(*alts):
    """An expectation's alternatives: (reading, {keys}) each."""
    out = []
    for r, keys in alts:
        a = {"reading": r}
        a.update(keys)
        out.append(a)
    return out


def beyond(rule):
    """A number outside its table: T128 BAD_INDEX ('Index out of range (might be beyond table
    size or attempt to access a reserved resource)'), the model's reading (D-OBJ-2, D-MKC-13),
    or BAD_RESOURCE ('Attempt to access reserved or unallocated resource'): T128 fits both and
    §12.2 lets a device leave BAD_INDEX unchecked, so either conforms."""
    return {"delivery": "OK", "ownership": 0, "any_of": any_of(
        ("D-OBJ-2: outside the table (BAD_INDEX)", {"status": "BAD_INDEX", "rule": rule}),
        ("unallocated (BAD_RESOURCE)", {"status": "BAD_RESOURCE"}))}


def flush():
    return events([], exact=False)


def mem_write(addr, data):
    return {"mem_write": {"addr": h(addr), "hex": hexs(data)}}


def mem_expect(addr, data):
    return {"mem_expect": {"addr": h(addr), "hex": hexs(data)}}


def bar_write(off, val):
    return {"bar_write": {"offset": h(off), "value": h(val)}}


def advance(ns):
    return {"advance_ns": ns}


def manage_pages(n, base=0x11000000):
    f = {"opcode": "MANAGE_PAGES", "op_mod": 1, "input_num_entries": n}
    for i in range(n):
        f["pas[%d]" % i] = h(base + 0x1000 * i)
    return cmd("manage_pages_in", f, {"status": "OK"}, length=0x10 + 8 * n)


def alloc_uar(n=UAR):
    return cmd("alloc_uar_in", {"opcode": "ALLOC_UAR"},
               {"status": "OK", "output": {"layout": "alloc_uar_out", "fields": {"uar": n}}})


def xor_sig(entry, index):
    """The signature byte making the entry (signature taken as 0) and the 3 index bytes XOR to
    0xFF (T68/T78; D-CQE-1)."""
    x = (index >> 16) ^ (index >> 8) ^ index
    for b in entry:
        x ^= b
    return (~x) & 0xFF


def eqe(type_, sub, data=b"", index=0, log_size=0, pc=None):
    """An EQE as the device writes it at producer counter pc (T77/T78): owner (pc >> log) & 1."""
    pc = index if pc is None else pc
    e = bytearray(64)
    e[1] = type_
    e[3] = sub
    e[0x20:0x20 + len(data)] = data
    e[0x3F] = (pc >> log_size) & 1
    e[0x3E] = 0
    e[0x3E] = xor_sig(e, pc)
    return bytes(e)


def eq_init(addr, n):
    """§12.6.1: every EQE's owner bit 1 before CREATE_EQ."""
    b = bytearray(64 * n)
    for i in range(n):
        b[64 * i + 0x3F] = 1
    return mem_write(addr, b)


def cq_init(addr, n, esz=64):
    """§12.7.1, §7.12.3.1, D-CQ-8: op_own 0xF1 (opcode invalid, owner HW) in every CQE."""
    b = bytearray(esz * n)
    for i in range(n):
        b[esz * i + esz - 1] = 0xF1
    return mem_write(addr, b)


def create_eq(log_size=2, bitmask=0, intr=0, buf=EQ_BUF, eqn=0, extra=None, expect=None):
    f = {"opcode": "CREATE_EQ", "log_eq_size": log_size, "uar_page": UAR, "intr": intr,
         "pas[0]": h(buf)}
    if bitmask:
        f["event_bitmask"] = h(bitmask)
    if extra:
        f.update(extra)
    if expect is None:
        expect = ok({"layout": "create_eq_out", "fields": {"eq_number": eqn}})
    return cmd("create_eq_in", f, expect, length=0x118)


def create_cq(log_size=2, eqn=0, buf=CQ_BUF, dbr=CQ_DBR, cqn=1, extra=None, expect=None,
              npas=1):
    f = {"opcode": "CREATE_CQ", "log_cq_size": log_size, "uar_page": UAR, "c_eqn": eqn,
         "dbr_addr": h(dbr)}
    for k in range(npas):
        f["pas[%d]" % k] = h(buf + 0x1000 * k)
    if extra:
        f.update(extra)
    if expect is None:
        expect = ok({"layout": "create_cq_out", "fields": {"cqn": cqn}})
    return cmd("create_cq_in", f, expect, length=0x110 + 8 * npas)


def err_cqe(wqe_counter, pc, log_size, s_wqe_opcode=0x0A, syndrome=0x05, opcode=13):
    """A flush error CQE (T73/T74) of a requester WQE as the device writes it at pc."""
    c = bytearray(64)
    c[0x37] = syndrome
    c[0x38] = s_wqe_opcode
    c[0x3C] = (wqe_counter >> 8) & 0xFF
    c[0x3D] = wqe_counter & 0xFF
    c[0x3F] = (opcode << 4) | ((pc >> log_size) & 1)
    c[0x3E] = xor_sig(c, pc)
    return bytes(c)


def write_file(path, feature, header, notes, groups):
    n = sum(len(g["tests"]) for g in groups)
    doc = {"schema": "nicref_vectors_v1", "feature": feature, "header": header, "notes": notes,
           "numberOfTests": n, "testGroups": groups}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    return n

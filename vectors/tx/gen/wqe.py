"""Send WQEs: their sizes, and their bytes where a vector gives a WQE as raw `hex`.

Every offset and bit comes from ConnectX-4 PRM Rev 0.40 §7.4.4.1 (T25-T39) and T9/T10
(the MKey context a UMR WQE carries); the runner builds field-named WQEs through nicref's own
layouts, so the raw WQEs here are the independent reading of those tables.
"""
import struct

WQEBB = 64
OCTOWORD = 16

# T26 00h[7:0]. The PRM gives NOP, SEND and UMR; it names an LSO opcode (§3.3.2 "WQE Large
# Send Offload opcode") without giving its value, so vectors name it "LSO" and the runner
# resolves the name (public mlx5 value 0x0E).
OP_NOP, OP_SEND, OP_UMR = 0x00, 0x0A, 0x25
OPCODE_NAMES = {"NOP": OP_NOP, "SEND": OP_SEND, "UMR": OP_UMR}


def round_up(n, k):
    return (n + k - 1) // k * k


def eth_seg_size(ihs):
    """T27/T28: 16 bytes hold l4cs/l3cs/mss and inline_header_size with the first 2 bytes of
    the inline headers at 0Eh; the rest continue from 10h in octowords."""
    return OCTOWORD + (round_up(ihs - 2, OCTOWORD) if ihs > 2 else 0)


def inline_seg_size(n):
    """T39: a 4-byte header (bit 31 set, byte_count[9:0]) then the data, padded to octowords."""
    return round_up(4 + n, OCTOWORD)


def wqe_size(has_eth, ihs, segs):
    """The WQE's bytes (DS x 16): ctrl, eth (if any), then each data segment: ('ptr', n) 16
    bytes (T38), ('inline', n) per T39."""
    size = OCTOWORD + (eth_seg_size(ihs) if has_eth else 0)
    for kind, n in segs:
        size += OCTOWORD if kind == "ptr" else inline_seg_size(n)
    return size


def wqebbs(size):
    return (size + WQEBB - 1) // WQEBB


def ctrl_seg(wqe_index, opcode, sqn, ds, ce=2, se=0, fm=0, signature=0, umr_mkey=0):
    """T25/T26."""
    return struct.pack(">IIII",
                       ((wqe_index & 0xFFFF) << 8) | opcode,
                       (sqn << 8) | ds,
                       (signature << 24) | (fm << 5) | (ce << 2) | (se << 1),
                       umr_mkey)


def eth_seg(inline_header, l3cs=0, l4cs=0, mss=0):
    """T27/T28."""
    ihs = len(inline_header)
    head = struct.pack(">IIIH", 0, (l4cs << 31) | (l3cs << 30) | mss, 0, ihs)
    first, rest = inline_header[:2].ljust(2, b"\0"), inline_header[2:]
    seg = head + first + rest
    return seg.ljust(eth_seg_size(ihs), b"\0")


def ptr_seg(byte_count, lkey, addr):
    """T38."""
    return struct.pack(">IIQ", byte_count & 0x7FFFFFFF, lkey, addr)


def inline_seg(data):
    """T39."""
    return (struct.pack(">I", 0x80000000 | len(data)) + data).ljust(inline_seg_size(len(data)), b"\0")


def xor_bytes(b):
    x = 0
    for c in b:
        x ^= c
    return x


def signature(wqe, sqn, wqe_index):
    """§9.2.3 / T26: the signature byte makes the XOR of the entire WQE, the SQ number and the
    WQE index 0xFF. The SQ number (24 bits) and the index (16 bits) enter as their big-endian
    bytes; a vector that gives a hand-made signature chooses sqn and index so that these bytes
    XOR to 0, where the reading 'the WQE's bytes only' (which already hold both in the ctrl
    segment) gives the same byte. `wqe` has 0 in its signature byte."""
    extra = struct.pack(">I", sqn)[1:] + struct.pack(">H", wqe_index & 0xFFFF)
    return 0xFF ^ xor_bytes(wqe) ^ xor_bytes(extra)


def umr_ctrl_seg(inline=1, check_free=0, translation_offset_en=0, octword_actual_size=0,
                 translation_offset=0, mkey_mask=0):
    """T32/T33: 48 bytes (WQE 10h-3Ch). The MkeyCtx bit mask is the 64-bit big-endian value at
    08h-0Fh, bit 0 its least significant bit."""
    return (struct.pack(">IIQ",
                        (inline << 31) | (check_free << 29) | (translation_offset_en << 28),
                        (octword_actual_size << 16) | translation_offset,
                        mkey_mask)
            + bytes(32))


# T33 MkeyCtx bit mask bits.
MASK_LEN, MASK_PAGE_SIZE, MASK_START_ADDR, MASK_KEY = 1 << 0, 1 << 1, 1 << 6, 1 << 13
MASK_LR, MASK_LW, MASK_RR, MASK_RW, MASK_FREE = 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 29


def mkey_ctx(free=0, umr_en=0, rw=0, rr=0, lw=0, lr=1, access_mode=1, qpn=0xFFFFFF, mkey_7_0=0,
             length64=0, pd=0, start_addr=0, length=0, octword_size=0, log_entity_size=0):
    """T9/T10: the 64-byte MKey context (UMR WQE 40h-7Ch)."""
    b = bytearray(64)
    struct.pack_into(">I", b, 0x00, (free << 30) | (umr_en << 15) | (rw << 13) | (rr << 12)
                     | (lw << 11) | (lr << 10) | (access_mode << 8))
    struct.pack_into(">I", b, 0x04, (qpn << 8) | mkey_7_0)
    struct.pack_into(">I", b, 0x0C, (length64 << 31) | pd)
    struct.pack_into(">Q", b, 0x10, start_addr)
    struct.pack_into(">Q", b, 0x18, length)
    struct.pack_into(">I", b, 0x34, octword_size)
    struct.pack_into(">I", b, 0x38, log_entity_size)
    return bytes(b)


def mtt(addr, rd_en=1, wr_en=0):
    """T11/T12: ptag[63:8] with wr_en (bit 1) and rd_en (bit 0)."""
    return struct.pack(">II", addr >> 32, (addr & 0xFFFFFF00) | (wr_en << 1) | rd_en)


def klm(byte_count, mkey, addr):
    """T36/T37: a KLM, 16 bytes: byte_count ('Must be up to 2GB'), mkey, address."""
    return struct.pack(">IIQ", byte_count, mkey, addr)


def umr_pointer(mkey, addr):
    """T34/T35: the UMR pointer, 16 bytes: 00h reserved, mkey at 04h, address at 08h-0Fh ('the
    address of the UMR pointer must be aligned to 2KB')."""
    return struct.pack(">IIQ", 0, mkey, addr)

"""Capture files written byte by byte from the public formats (tcpdump.org pcap: the 24-byte
global header and 16-byte record headers, nanosecond magic 0xa1b23c4d; pcapng: Section Header,
Interface Description and Enhanced Packet blocks, draft-ietf-opsawg-pcapng), so a frame can be
cut (captured length below its wire length) and several interfaces written, which Scapy's
writers do not do."""
import struct

LINK_ETHERNET = 1
LINK_LINUX_SLL = 113


def write_pcap(path, frames, link=LINK_ETHERNET, snaplen=65535):
    """frames: (t_ns, bytes, wirelen or None). A frame longer than snaplen is cut."""
    out = [struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, snaplen, link)]
    for t, data, wire in frames:
        wire = len(data) if wire is None else wire
        cap = data[:snaplen]
        out.append(struct.pack("<IIII", t // 10**9, t % 10**9, len(cap), wire) + cap)
    with open(path, "wb") as f:
        f.write(b"".join(out))


def _block(btype, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def write_pcapng(path, frames, links):
    """frames: (t_ns, bytes, iface); links: the link type of each interface. Timestamps in
    nanoseconds (if_tsresol option 9)."""
    out = [_block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))]
    for lt in links:
        opt = struct.pack("<HHB3x", 9, 1, 9) + struct.pack("<HH", 0, 0)
        out.append(_block(1, struct.pack("<HHI", lt, 0, 65535) + opt))
    for t, data, iface in frames:
        body = struct.pack("<IIIII", iface, t >> 32, t & 0xFFFFFFFF, len(data), len(data)) + data
        out.append(_block(6, body))
    with open(path, "wb") as f:
        f.write(b"".join(out))

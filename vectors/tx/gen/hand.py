"""The second derivation: headers parsed and checksums summed by hand (struct and a
ones'-complement sum written out, RFC 1071), with no Scapy. The self-check compares every
expected frame of the generator against these."""
import struct

ETH_VLAN_TYPES = (0x8100, 0x88A8)
IPV6_EXT = (0, 43, 60)  # hop-by-hop, routing, destination options (RFC 8200 §4)


def ones_sum(data, start=0):
    if len(data) % 2:
        data = data + b"\0"
    s = start
    for i in range(0, len(data), 2):
        s += (data[i] << 8) | data[i + 1]
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def parse(frame):
    """Offsets: l3 (start of the IP header), kind ('ip4', 'ip6' or None), l4 offset, l4 proto,
    and the facts the checksums need."""
    off = 12
    etype = struct.unpack_from(">H", frame, off)[0]
    while etype in ETH_VLAN_TYPES:
        off += 4
        etype = struct.unpack_from(">H", frame, off)[0]
    l3 = off + 2
    info = {"l3": l3, "kind": None, "l4": None, "proto": None, "routed": False}
    if etype == 0x0800:
        ihl = (frame[l3] & 0x0F) * 4
        info.update(kind="ip4", ihl=ihl, proto=frame[l3 + 9], l4=l3 + ihl,
                    src=frame[l3 + 12:l3 + 16], dst=frame[l3 + 16:l3 + 20],
                    total=struct.unpack_from(">H", frame, l3 + 2)[0])
        final = info["dst"]
        o = l3 + 20
        while o < l3 + ihl:
            t = frame[o]
            if t == 0:
                break
            if t == 1:
                o += 1
                continue
            ln = frame[o + 1]
            if t in (0x83, 0x89):  # LSRR, SSRR: the last address is the final destination
                info["routed"] = True
                final = frame[o + ln - 4:o + ln]
            o += ln
        info["final"] = final
    elif etype == 0x86DD:
        nh = frame[l3 + 6]
        o = l3 + 40
        final = frame[l3 + 24:l3 + 40]
        while nh in IPV6_EXT:
            ln = (frame[o + 1] + 1) * 8
            if nh == 43:
                info["routed"] = True
                segleft = frame[o + 3]
                if segleft:
                    final = frame[o + ln - 16:o + ln]
            nh = frame[o]
            o += ln
        info.update(kind="ip6", proto=nh, l4=o, src=frame[l3 + 8:l3 + 24],
                    dst=frame[l3 + 24:l3 + 40], final=final,
                    plen=struct.unpack_from(">H", frame, l3 + 4)[0])
    return info


def l4_len(frame, info):
    if info["kind"] == "ip4":
        return info["l3"] + info["total"] - info["l4"]
    return info["l3"] + 40 + info["plen"] - info["l4"]


def csum_field(info):
    return info["l4"] + (16 if info["proto"] == 6 else 6)


def l4_sum(frame, final=True):
    """The ones'-complement sum of pseudo-header and L4 segment with the checksum field as 0."""
    info = parse(frame)
    n = l4_len(frame, info)
    seg = bytearray(frame[info["l4"]:info["l4"] + n])
    c = csum_field(info) - info["l4"]
    seg[c:c + 2] = b"\0\0"
    dst = info["final"] if final else info["dst"]
    if info["kind"] == "ip4":
        ph = info["src"] + dst + struct.pack(">BBH", 0, info["proto"], n)
    else:
        ph = info["src"] + dst + struct.pack(">IxxxB", n, info["proto"])
    return ones_sum(bytes(seg), ones_sum(ph))


def l4_checksum(frame, final=True):
    info = parse(frame)
    ck = (~l4_sum(frame, final)) & 0xFFFF
    if info["proto"] == 17 and ck == 0:
        ck = 0xFFFF  # RFC 768
    return ck


def ip4_checksum(frame):
    info = parse(frame)
    h = bytearray(frame[info["l3"]:info["l3"] + info["ihl"]])
    h[10:12] = b"\0\0"
    return (~ones_sum(bytes(h))) & 0xFFFF


def offload(frame, l3cs, l4cs, reading="final"):
    out = bytearray(frame)
    info = parse(frame)
    if l3cs and info["kind"] == "ip4":
        struct.pack_into(">H", out, info["l3"] + 10, ip4_checksum(frame))
    if l4cs and info["proto"] in (6, 17):
        if not info["routed"] or reading == "final":
            struct.pack_into(">H", out, csum_field(info), l4_checksum(frame, True))
        elif reading == "header":
            struct.pack_into(">H", out, csum_field(info), l4_checksum(frame, False))
    return bytes(out)


def lso(frame, hdr_len, mss, cwr="first"):
    """Segments by hand: see pkt.lso for the rules."""
    tpl = bytearray(frame[:hdr_len])
    info = parse(bytes(tpl) + b"\0" * 64)
    body = frame[hdr_len:]
    chunks = [body[i:i + mss] for i in range(0, len(body), mss)] or [b""]
    seq0 = struct.unpack_from(">I", tpl, info["l4"] + 4)[0]
    out = []
    for i, ch in enumerate(chunks):
        s = bytearray(tpl) + ch
        if info["kind"] == "ip4":
            struct.pack_into(">H", s, info["l3"] + 2, len(s) - info["l3"])
            ident = struct.unpack_from(">H", tpl, info["l3"] + 4)[0]
            struct.pack_into(">H", s, info["l3"] + 4, (ident + i) & 0xFFFF)
        else:
            struct.pack_into(">H", s, info["l3"] + 4, len(s) - info["l3"] - 40)
        struct.pack_into(">I", s, info["l4"] + 4, (seq0 + i * mss) & 0xFFFFFFFF)
        fl = s[info["l4"] + 13]
        if i != len(chunks) - 1:
            fl &= ~0x09 & 0xFF
        if i > 0 and cwr == "first":
            fl &= ~0x80 & 0xFF
        s[info["l4"] + 13] = fl
        out.append(offload(bytes(s), 1, 1))
    return out

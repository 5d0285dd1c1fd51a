#!/usr/bin/env python3
"""Exit 0 when a PNG screenshot has real content: many distinct colours and not one dominant one (stdlib only)."""
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width, height, bpp = 8, b"", 0, 0, 4
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        bpp = {2: 3, 6: 4, 0: 1, 4: 2}[colour] * depth // 8
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
stride = width * bpp
rows, prev = [], bytes(stride)
low, high = int.from_bytes(b"\x7f" * stride, "big"), int.from_bytes(b"\x80" * stride, "big")
for y in range(height):  # undo the PNG row filters
    f, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
    if f == 2:  # up: each byte plus the one above, mod 256, added a whole row at a time with no carry between bytes
        a, b = int.from_bytes(line, "big"), int.from_bytes(prev, "big")
        line = (((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(stride, "big")
    elif f != 0:
        line = bytearray(line)
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        line = bytes(line)
    rows.append(line)
    prev = line
counts = {}
for line in rows[::4]:
    for x in range(0, stride, bpp * 4):
        px = line[x:x + bpp]
        counts[px] = counts.get(px, 0) + 1
total = sum(counts.values())
top = max(counts.values())
print("%dx%d, %d colours, dominant %.1f%%" % (width, height, len(counts), 100.0 * top / total))
sys.exit(0 if len(counts) >= 8 and top < 0.995 * total else 1)

"""Draws scan.png: a grey page with rows of dark blocks where a scanned
page has its words, for scanned.tex (a PDF with no text layer). Pure
standard library, deterministic."""
import random
import struct
import zlib

W, H = 850, 1100
random.seed(7)
pixels = [[235] * W for _ in range(H)]
y = 120
while y < H - 120:
    x = 100
    while x < W - 100:
        word = random.randint(20, 90)
        for yy in range(y, y + 14):
            for xx in range(x, min(x + word, W - 100)):
                pixels[yy][xx] = 40
        x += word + random.randint(10, 16)
    y += random.choice([26, 26, 26, 52])


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


raw = b"".join(b"\x00" + bytes(row) for row in pixels)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 0, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
open("scan.png", "wb").write(png)

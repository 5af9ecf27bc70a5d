"""Writes handmade.json: a Raw as the browser edition sends it, laid out
by hand: two columns (x 50-290 and 322-562) on two US-letter pages, a
running header with the journal and page number, a page number in the
footer, a sideways arXiv stamp, runs cut in the middle of words (as pdf.js
cuts them), ligature code points, hyphenated line ends, a paragraph that
goes on across the column break and one across the page break."""
import json

LEFT, RIGHT, WIDTH = 50.0, 322.0, 240.0


def runs(x, y, size, text, cuts=(), bold=False, justify=True, width=WIDTH):
    """The runs of one line, cut at the given character offsets."""
    cw = width / len(text) if justify else size * 0.5
    out, start = [], 0
    for end in list(cuts) + [len(text)]:
        piece = text[start:end]
        out.append({"text": piece, "x0": round(x + start * cw, 2), "y0": y,
                    "x1": round(x + end * cw, 2), "y1": y + size, "size": size,
                    "bold": bold, "font": "Serif-Bold" if bold else "Serif"})
        start = end
    return out


def column(x, y, lines):
    out = []
    for item in lines:
        if item is None:  # a blank line's worth of space
            y += 12
            continue
        kind, text = item[0], item[1]
        if kind == "h":
            num, _, title = text.partition(" ")
            if num[0].isdigit():
                out += runs(x, y, 12, num, bold=True, justify=False)
                out += runs(x + 25, y, 12, title, bold=True, justify=False)
            else:
                out += runs(x, y, 12, text, bold=True, justify=False)
            y += 20
        elif kind == "p":  # a full, justified line
            out += runs(x, y, 10, text, cuts=item[2] if len(item) > 2 else ())
            y += 12
        elif kind == "i":  # a paragraph's indented first line
            out += runs(x + 10, y, 10, text, width=WIDTH - 10)
            y += 12
        elif kind == "e":  # a paragraph's last, short line
            out += runs(x, y, 10, text, justify=False)
            y += 12
        elif kind == "r":  # a reference's continuation, hanging
            out += runs(x + 10, y, 10, text, justify=False)
            y += 12
    return out


def furniture(number):
    return (runs(LEFT, 30, 9, "J. Test. Res. 12 (2024)", justify=False)
            + runs(545, 30, 9, str(100 + number), justify=False)
            + runs(300, 760, 9, str(number), justify=False))


page1 = furniture(1)
page1 += runs(150, 70, 18, "Handmade Layouts for Testing", justify=False)
page1 += runs(200, 100, 12, "Ada Lovelace and Alan Turing", justify=False)
page1.append({"text": "arXiv:2401.00001v1 [cs.IR] 1 Jan 2024", "x0": 15, "y0": 200,
              "x1": 25, "y1": 600, "size": 10, "font": "Times"})
page1 += column(LEFT, 140, [
    ("h", "1 Introduction"),
    ("p", "The \ufb01rst paragraph explains why a layout needs", (5, 18)),
    ("p", "tests that run without a real PDF and its retrie-"),
    ("p", "val of text, so that the logic can be checked"),
    ("e", "on its own."),
    ("i", "A second paragraph starts with an indent and"),
    ("p", "it goes on until the bottom of the left column"),
    ("p", "where it breaks off in the middle of its sen-"),
])
page1 += column(RIGHT, 140, [
    ("p", "tence and continues at the top of the right"),
    ("e", "column without a new indent."),
    None,
    ("h", "2 Method"),
    ("p", "The method section has one paragraph, with a"),
    ("p", "DOI (doi:10.1234/Hand.Made), that runs to the"),
    ("p", "bottom of the page to show that a paragraph"),
    ("p", "goes on across the page break when its sen-"),
])
page2 = furniture(2)
page2 += column(LEFT, 70, [
    ("e", "tence does not end there."),
    None,
    ("h", "2.1 Details"),
    ("p", "Compound words keep their hyphens: state-of-"),
    ("e", "the-art methods are e\ufb00ective and \ufb02exible."),
    ("e", "\u2022 a list item;"),
    ("e", "\u2022 another, long enough to go on"),
    ("r", "over a second line."),
])
page2 += column(RIGHT, 70, [
    ("h", "References"),
    ("e", "[1] A. Lovelace. Notes on the analytical"),
    ("r", "engine. Scientific Memoirs, 1843."),
    ("e", "[2] A. Turing. On computable numbers."),
    ("r", "Proc. London Math. Soc., 1936."),
])
raw = {
    "title": "Microsoft Word - handmade.docx",
    "author": "",
    "pages": [
        {"number": 1, "width": 612, "height": 792, "runs": page1},
        {"number": 2, "width": 612, "height": 792, "runs": page2},
    ],
}
with open("handmade.json", "w") as f:
    json.dump(raw, f, indent=1, ensure_ascii=False)
    f.write("\n")

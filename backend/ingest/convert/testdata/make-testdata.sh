#!/bin/sh
# Regenerates the converted test files from the markdown sources here.
# Needs pandoc (2.17 made the committed files) and python3. The goldens
# depend on these files: after regenerating, run
#   go test ./backend/ingest/convert/ -update
# and read the diff.
set -eu
cd "$(dirname "$0")"
# Fixed timestamps inside the zips (docProps, dcterms:modified), so a rerun
# makes the same files: 2025-11-02T00:00:00Z.
export SOURCE_DATE_EPOCH=1762041600

pandoc -s docs.md --title-prefix="Loom Docs" -o docs-page.html
pandoc report.md -o report.docx
pandoc book.md -o book.epub --epub-chapter-level=1

# report-localized.docx: the same report as a German Word template would
# store it — style ids "Titel", "berschrift1"… whose names are still
# "Title", "heading 1"… — and without docProps/core.xml, so the title can
# only come from the Title paragraph.
python3 - <<'PY'
import zipfile
ids = {"Heading1": "berschrift1", "Heading2": "berschrift2", "Heading3": "berschrift3", "Title": "Titel"}
with zipfile.ZipFile("report.docx") as src, zipfile.ZipFile("report-localized.docx", "w", zipfile.ZIP_DEFLATED) as dst:
    for info in src.infolist():
        if info.filename == "docProps/core.xml":
            continue
        data = src.read(info.filename)
        if info.filename in ("word/document.xml", "word/styles.xml"):
            text = data.decode("utf-8")
            for old, new in ids.items():
                for attr in ("<w:pStyle w:val=", "<w:basedOn w:val=", "<w:next w:val=", "w:styleId="):
                    text = text.replace('%s"%s"' % (attr, old), '%s"%s"' % (attr, new))
            data = text.encode("utf-8")
        out = zipfile.ZipInfo(info.filename, date_time=(2025, 1, 1, 0, 0, 0))
        out.compress_type = zipfile.ZIP_DEFLATED
        dst.writestr(out, data)
PY

# latin1-page.html: a page in ISO-8859-1 that says so in its <meta>.
iconv -f UTF-8 -t ISO-8859-1 latin1-page.utf8.html > latin1-page.html

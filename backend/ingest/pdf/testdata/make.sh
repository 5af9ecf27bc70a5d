#!/bin/sh
# Rebuilds the test PDFs from their sources (see README.md). Needs pdflatex
# (TeX Live base + recommended), python3 and qpdf. SOURCE_DATE_EPOCH makes
# pdfTeX write fixed dates and IDs, so a rebuild gives the same bytes.
set -e
cd "$(dirname "$0")"
export SOURCE_DATE_EPOCH=1700000000 FORCE_SOURCE_DATE=1
python3 scan.py
for doc in twocolumn report scanned; do
	pdflatex -interaction=batchmode "$doc.tex" >/dev/null
	pdflatex -interaction=batchmode "$doc.tex" >/dev/null
done
qpdf --static-id --static-aes-iv --encrypt user-secret owner-secret 256 -- report.pdf encrypted.pdf
qpdf --static-id --static-aes-iv --encrypt "" owner-secret 256 --modify=none --extract=n -- report.pdf restricted.pdf
rm -f ./*.aux ./*.log ./*.out

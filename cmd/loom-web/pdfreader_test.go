//go:build js && wasm

package main

import "github.com/loomwork/loom/internal/pdftest"

// Under node there is no page to read PDFs with pdf.js: the tests get the
// sample paper's recorded extraction instead (package pdftest).
func init() { pdftest.Install() }

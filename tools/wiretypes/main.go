// Command wiretypes writes the page's TypeScript types of everything that
// crosses the bridge — bind.App's calls with their parameters and results,
// the events and their payloads, the error payload with its codes — from
// the Go types, by reflection (json tags, omitempty, pointers, time) and
// from the Go source (doc comments, parameter names, the constants of named
// string types):
//
//	go run ./tools/wiretypes [-root .] [-out frontend/src/bridge/types.ts] [-check]
//
// `make bindings` runs it. With -check it writes nothing and fails when
// the file is not what it would write; its test does the same, so a Go
// change that is not regenerated fails `go test`.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/bind"
)

// TypesFile is where the page's types live, from the repository's root.
const TypesFile = "frontend/src/bridge/types.ts"

// bridge is what crosses between the page and the engine.
func bridge() API {
	codes := make([]string, len(bind.ErrorCodes))
	for i, c := range bind.ErrorCodes {
		codes[i] = string(c)
	}
	return API{
		App:    &bind.App{},
		Events: bind.EventPayloads,
		Error:  bind.ErrorPayload{},
		Enums:  []Enum{{Type: bind.ErrorCode(""), Values: codes}},
		// The page offers the purposes and draws each kind of edge.
		Extra: []any{assemble.Purpose(""), model.EdgeKind("")},
	}
}

// generate writes the types of the bridge from the module in root.
func generate(root string) ([]byte, error) {
	module, err := modulePath(root)
	if err != nil {
		return nil, err
	}
	return Generate(bridge(), Source{Root: root, Module: module})
}

func main() {
	root := flag.String("root", ".", "the repository's root")
	out := flag.String("out", TypesFile, "the file to write, from the root")
	check := flag.Bool("check", false, "write nothing; fail when the file is not what would be written")
	flag.Parse()
	src, err := generate(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wiretypes:", err)
		os.Exit(1)
	}
	path := filepath.Join(*root, *out)
	if *check {
		have, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(have, src) {
			fmt.Fprintf(os.Stderr, "wiretypes: %s is not what the Go types say: run make bindings\n", path)
			os.Exit(1)
		}
		return
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wiretypes:", err)
		os.Exit(1)
	}
}

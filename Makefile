# Loom's commands; README.md explains them. Targets that need tools run
# `setup` first: it is idempotent and takes seconds once everything is there.
SHELL := bash
.SHELLFLAGS := -euo pipefail -c

# Tools that `go install` puts in GOBIN (the Wails CLI) are on PATH for every
# recipe, whether or not the login shell has them.
GOBIN := $(or $(shell go env GOBIN),$(shell go env GOPATH)/bin)
export PATH := $(GOBIN):$(PATH)

GO_TEST_TIMEOUT ?= 30m
# -m -nosyncgomod: wails build would otherwise run `go mod tidy` and rewrite
# go.mod, which belongs to everyone.
WAILS_BUILD := wails build -m -nosyncgomod

.PHONY: setup run build cli bindings wailsjs test

# `make run` opens a window. Without a display it would build for minutes
# and then fail to open it, so it says so before anything else (tools/maketest
# checks this).
ifneq ($(filter run,$(MAKECMDGOALS)),)
ifeq ($(strip $(DISPLAY)$(WAYLAND_DISPLAY)),)
$(info make run: there is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set), so Loom's window could not open.)
$(info make run: run it on a virtual display with `xvfb-run make run`, or use `make test`, which builds the app and checks its window under Xvfb;)
$(info make run: `make web` builds the web edition, which any browser on another machine can open.)
$(error no display)
endif
endif

## setup: install what a fresh Debian 12 machine lacks (apt, wails, Go modules, npm, embedding table)
setup:
	@bash scripts/setup.sh

## run: build the desktop app and open it on the default workspace
run: build
	./build/bin/loom-desktop

## build: the desktop app, build/bin/loom-desktop (wails.json holds the tags)
# Wails' progress and notes go to a log; its end is printed if it fails.
build: setup
	@mkdir -p .cache
	@echo "build: wails build (the first takes minutes; log: .cache/build.log)"
	@$(WAILS_BUILD) >.cache/build.log 2>&1 || { tail -n 40 .cache/build.log >&2; echo "build: wails build failed (whole log: .cache/build.log)" >&2; exit 1; }
	@echo "build: built build/bin/loom-desktop"

## cli: the headless CLI, bin/loom
cli:
	go build -o bin/loom ./cmd/loom

## bindings: regenerate the page's side of the bridge after changing bind/ or the types it sends: frontend/src/bridge/wailsjs (Wails) and frontend/src/bridge/types.ts (tools/wiretypes)
bindings: wailsjs
	@go run ./tools/wiretypes
	@echo "bindings: frontend/src/bridge/types.ts regenerated from the Go types"

# wails generate prints a page of notes (a line per struct it knows, "Not
# found: time.Time" for each time field, a sponsor banner): into a log.
# make test regenerates these (the desktop build does too) but not
# types.ts: tools/wiretypes's test fails when that is stale, and the page's
# type check when its calls are not the ones Wails binds.
wailsjs: setup
	@mkdir -p .cache
	@wails generate module >.cache/bindings.log 2>&1 || { cat .cache/bindings.log >&2; exit 1; }
	@# generate writes the runtime files 755 and build writes them 644; keep one.
	@chmod 644 frontend/src/bridge/wailsjs/runtime/*
	@echo "bindings: frontend/src/bridge/wailsjs regenerated (log: .cache/bindings.log)"

## test: every suite (go vet, Go tests native, with -race and in WebAssembly, frontend check and Vitest, desktop smoke and end-to-end, web end-to-end), all of them even when one fails; prints what failed and a summary table, logs in build/test/
# tools/testrun runs the test-* targets below one by one, asking each for
# machine output (the *_FLAGS variables), and counts passed, failed and
# skipped from it. SUITES=go-test,vitest runs only those.
test: setup wailsjs
	@go build -o bin/testrun ./tools/testrun
	@bin/testrun $(if $(SUITES),-only $(SUITES))

# One suite each; `make test` runs them all. Run one alone when working on it.
GO_TEST_FLAGS ?=
VET_FLAGS ?=
CHECK_FLAGS ?=
VITEST_FLAGS ?=
# The packages with goroutines of their own. -short leaves out the
# quality-target tests (whole corpora ingested), which take minutes and
# exercise no concurrency the others do not.
RACE_PKGS ?= ./backend/ ./backend/workspace/ ./backend/query/ ./backend/conversation/ ./backend/chat/ ./backend/embed/... ./backend/ollama/... ./backend/search/ ./backend/synth/ ./backend/tokens/ ./backend/vectors/ ./bind/ ./graphdb/ ./cmd/loom/
RACE_FLAGS ?= -short

.PHONY: test-vet test-go test-race test-check test-vitest test-desktop-smoke test-desktop-e2e test-web-e2e
test-vet:
	go vet $(VET_FLAGS) ./...
test-go:
	go test $(GO_TEST_FLAGS) -timeout $(GO_TEST_TIMEOUT) ./...
test-race:
	go test $(GO_TEST_FLAGS) -race $(RACE_FLAGS) -timeout $(GO_TEST_TIMEOUT) $(RACE_PKGS)
test-check:
	cd frontend && npm run --silent check -- $(CHECK_FLAGS)
test-vitest:
	cd frontend && npx vitest run $(VITEST_FLAGS)
test-desktop-smoke:
	bash scripts/desktop-smoke.sh
test-desktop-e2e:
	bash scripts/e2e-desktop.sh
test-web-e2e:
	bash scripts/e2e-web.sh

# The engine compiled to WebAssembly (the browser edition), its tests run
# under node, which gives the program a real file system: go test -exec runs
# each test binary with Go's go_js_wasm_exec (needs node on PATH). The
# offline embedding table is read from its file (make setup fetches it).
WASM_EXEC := $(shell go env GOROOT)/lib/wasm/go_js_wasm_exec
WASM_TEST_PKGS ?= ./backend/ ./backend/embed/offline/ ./backend/ingest/pdf/ ./backend/ingest/code/ ./backend/ingest/convert/ ./backend/ingest/bibtex/ ./backend/query/ ./backend/storage/ ./backend/index/ ./backend/workspace/ ./backend/conversation/ ./backend/assemble/ ./backend/vectors/ ./backend/mapfile/ ./graphdb/ ./cmd/loom-web/

.PHONY: test-wasm
## test-wasm: build the engine for GOOS=js GOARCH=wasm and run its tests under node
test-wasm:
	@command -v node >/dev/null || { echo "test-wasm needs node on PATH" >&2; exit 1; }
	GOOS=js GOARCH=wasm go build ./backend/... ./graphdb/... ./bind/ ./cmd/loom-web/
	GOOS=js GOARCH=wasm go test $(GO_TEST_FLAGS) -timeout $(GO_TEST_TIMEOUT) -exec="$(WASM_EXEC)" $(WASM_TEST_PKGS)

# The web edition: the same engine in WebAssembly and the same page, as a
# static site in build/web (index.html at its root, relative URLs: any static
# server, any sub-path). assets.json names each big file's size and hash, so
# the page shows download progress and its cache knows a new build.
WEB_OUT := build/web
WEB_TABLE := backend/embed/offline/table/minilm-l6-m2v-256.bin

.PHONY: web
## web: the web edition, a static site in build/web (serve it: python3 -m http.server -d build/web 8080)
web:
	@test -s $(WEB_TABLE) || { echo "web: $(WEB_TABLE) is missing; run make setup" >&2; exit 1; }
	@test -d frontend/node_modules || { echo "web: frontend/node_modules is missing; run make setup" >&2; exit 1; }
	@test -s .cache/grammars/tree-sitter-python.wasm || { echo "web: .cache/grammars is missing; run make setup" >&2; exit 1; }
	cd frontend && npx vite build --mode web --logLevel warn
	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o $(WEB_OUT)/loom.wasm ./cmd/loom-web
	cp "$$(go env GOROOT)/lib/wasm/wasm_exec.js" $(WEB_OUT)/wasm_exec.js
	cp $(WEB_TABLE) $(WEB_OUT)/offline.bin
	@# pdf.js's character maps, fetched only for a PDF whose CJK font has none of its own (frontend/src/web/pdf.ts).
	mkdir -p $(WEB_OUT)/pdfjs && cp -r frontend/node_modules/pdfjs-dist/cmaps $(WEB_OUT)/pdfjs/cmaps
	@# The grammars (scripts/grammars.sh), fetched by the page the first time it reads a language (frontend/src/web/codetree.js); web-tree-sitter's own runtime is one of Vite's assets.
	mkdir -p $(WEB_OUT)/grammars && cp .cache/grammars/*.wasm .cache/grammars/*.LICENSE $(WEB_OUT)/grammars/
	cd $(WEB_OUT) && { printf '{'; sep=; for f in loom.wasm offline.bin wasm_exec.js; do \
		printf '%s"%s":{"size":%s,"hash":"%s"}' "$$sep" "$$f" "$$(stat -c %s "$$f")" "$$(sha256sum "$$f" | cut -c1-16)"; sep=,; \
		done; printf '}\n'; } > assets.json
	@echo "web: built $(WEB_OUT) ($$(du -sh $(WEB_OUT) | cut -f1)); serve it with: python3 -m http.server -d $(WEB_OUT) 8080"

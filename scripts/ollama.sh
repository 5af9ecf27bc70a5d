#!/usr/bin/env bash
# Builds a real Ollama and a tiny model for Loom's tests against a real
# server (backend/ollama/real): the ollama binary, v0.6.8, built from the Go
# module proxy into .cache/ollama/bin/ollama (cgo: build-essential; about
# two minutes on two cores), and .cache/ollama/tiny.gguf, a half-megabyte
# llama-architecture model with random weights and a byte-level vocabulary
# that tools/tinyollama writes with Ollama's own GGUF writer. The tests
# load it with `ollama create`, so no model is ever downloaded.
#
# v0.6.8 because it is the newest whose module zip still holds the
# llama.cpp headers that its cgo build includes.
#
# Idempotent: the binary is kept when it reports version 0.6.8, the model
# when it was written by the same sources of tools/tinyollama. Network: the
# Go module proxy, and only when a module is not cached yet.
set -euo pipefail
cd "$(dirname "$0")/.."

version=0.6.8
cache=.cache/ollama
bin=$cache/bin/ollama
model=$cache/tiny.gguf
stampfile=$cache/tiny.stamp
logs=.cache/setup
mkdir -p "$cache/bin" "$logs"

# quietly LOG CMD...: runs CMD with its output in $logs/LOG.log.
quietly() {
	local log=$logs/$1.log
	shift
	if ! "$@" >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		echo "ollama: failed: $* (whole log: $log)" >&2
		exit 1
	fi
}

# `ollama --version` without a server prints a warning and then
# "client version is 0.6.8".
if [[ -x $bin ]] && "$bin" --version 2>&1 | grep -q "version is $version\$"; then
	echo "ollama: $bin $version is there"
else
	echo "ollama: building ollama $version into $bin (about two minutes; log: $logs/ollama-build.log)"
	quietly ollama-build env GOBIN="$PWD/$cache/bin" CGO_ENABLED=1 go install \
		-ldflags="-X github.com/ollama/ollama/version.Version=$version" "github.com/ollama/ollama@v$version"
fi

stamp=$(cat tools/tinyollama/main.go tools/tinyollama/go.mod tools/tinyollama/go.sum | sha256sum | cut -d' ' -f1)
if [[ -s $model && -f $stampfile && $(cat "$stampfile") == "$stamp" ]]; then
	echo "ollama: $model is up to date"
	exit 0
fi
echo "ollama: writing the tiny test model $model (log: $logs/tinyollama.log)"
quietly tinyollama bash -c "cd tools/tinyollama && go run . -out ../../$model"
echo "$stamp" >"$stampfile"

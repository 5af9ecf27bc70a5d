#!/usr/bin/env bash
# Fetches the tree-sitter grammars the web edition parses source code with
# (web-tree-sitter in the page; the desktop app and the CLI have the same
# languages compiled in): the prebuilt .wasm file each grammar's npm package
# ships, with its licence (MIT), into .cache/grammars/. `make web` copies them
# into build/web/grammars/; the page loads one the first time a file of its
# language is ingested.
#
# Idempotent: when every .wasm file is there with its pinned sha256, it says
# so and exits at once. The only network it uses is the npm registry,
# through npm.
set -euo pipefail
cd "$(dirname "$0")/.."

out=.cache/grammars
# package@version  wasm file  sha256 of the wasm file
grammars=(
	"tree-sitter-python@0.23.6 tree-sitter-python.wasm 8c93692fb368e288a5824cee55773c9b3602804f513bda48c97661e52e9c2da2"
	"tree-sitter-javascript@0.25.0 tree-sitter-javascript.wasm 5fb488d0cabb4775a594bab85682de5ad6ce83c0d6ac997a9f82dd084d571240"
	"tree-sitter-typescript@0.23.2 tree-sitter-typescript.wasm 778025db5a8be0e70f8ccc3671e486dfeddd048c25d9e8a70c26de2e1bf6f97d"
	"tree-sitter-typescript@0.23.2 tree-sitter-tsx.wasm 79e5da75ea62855a0cd67177685f0164eac87d5f630b3cbe1e0a099751ad30f8"
	"tree-sitter-rust@0.24.0 tree-sitter-rust.wasm f65f354215611fd94ad34134b3427eb3d58cbb745df7b6509ba722184db73d57"
	"tree-sitter-java@0.23.5 tree-sitter-java.wasm 4fdeac4ca6ca089f06c6f7e562abcac1733cd465728cc7031ebb73c2019122c4"
	"tree-sitter-c@0.24.1 tree-sitter-c.wasm c852c2a85ebf2beb636aa3b0ef7f7e70458684d74f6741b20dcb296885bed9f9"
	"tree-sitter-cpp@0.23.4 tree-sitter-cpp.wasm 174eb0deb75b2ec7881bcacda9f995648d8e683956e5c2267e69ab6dc503fcbf"
)

ok() { echo "$2  $out/$1" | sha256sum --check --status 2>/dev/null; }

missing=()
for g in "${grammars[@]}"; do
	read -r pkg wasm sum <<<"$g"
	ok "$wasm" "$sum" || missing+=("$g")
done
if ((${#missing[@]} == 0)); then
	echo "grammars: $out is up to date"
	exit 0
fi

command -v npm >/dev/null || { echo "grammars: npm is needed to fetch the tree-sitter grammars" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "grammars: fetching ${#missing[@]} tree-sitter grammars from the npm registry (about 10 MB)"
for g in "${missing[@]}"; do
	read -r pkg wasm sum <<<"$g"
	name=${pkg%@*}
	if [[ ! -d $tmp/$name ]]; then
		mkdir -p "$tmp/$name"
		npm pack "$pkg" --pack-destination "$tmp/$name" --silent >/dev/null
		tar -xzf "$tmp/$name"/*.tgz -C "$tmp/$name"
	fi
	cp "$tmp/$name/package/$wasm" "$out/$wasm"
	cp "$tmp/$name/package/LICENSE" "$out/$name.LICENSE"
	if ! ok "$wasm" "$sum"; then
		rm -f "$out/$wasm"
		echo "grammars: $pkg's $wasm does not have the sha256 pinned in scripts/grammars.sh" >&2
		exit 1
	fi
done
echo "grammars: fetched into $out"

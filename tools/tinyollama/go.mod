module github.com/loomwork/loom/tools/tinyollama

go 1.24.0

require github.com/ollama/ollama v0.6.8

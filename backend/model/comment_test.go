package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLineComment(t *testing.T) {
	for line, want := range map[string]bool{
		"// Forward copies every frame.": true, "-- a SQL or Lua comment": true, "# Python's": true,
		"#[derive(Debug)]": false, "#!/bin/sh": false, "#include <stdio.h>": false, "#define N 4": false,
		"func Forward() {": false, "x := a / b // trailing": false, "": false,
	} {
		assert.Equal(t, want, LineComment(line), line)
	}
}

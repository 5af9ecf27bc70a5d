package conversation

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/assemble"
)

// TestATurnStoredBeforeTheSplitWasNamedSoReadsIt: conversations/<id>.json
// written before the window's split was called "split" keep it under
// "budget"; it reads back into Split, and is written back as "split".
func TestATurnStoredBeforeTheSplitWasNamedSoReadsIt(t *testing.T) {
	var old ChatTurn
	require.NoError(t, json.Unmarshal([]byte(`{"id":"t1","question":"q","answer":"a","budget":{"window":8192,"context":5000,"free":12},"window":8192}`), &old))
	assert.Equal(t, assemble.Split{Window: 8192, Context: 5000, Free: 12}, old.Split)
	assert.Equal(t, "a", old.Answer)
	assert.Equal(t, 8192, old.Window)

	b, err := json.Marshal(old)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"split":{"window":8192`)
	assert.NotContains(t, string(b), `"budget"`)

	var now ChatTurn
	require.NoError(t, json.Unmarshal(b, &now))
	assert.Equal(t, old, now)
}

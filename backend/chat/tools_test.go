package chat

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefinitions(t *testing.T) {
	defs := Definitions()
	require.Len(t, defs, 4)
	for _, tc := range []struct {
		name     string
		required []string
		params   []string
	}{
		{"search_context", []string{"query"}, []string{"query", "scope", "limit"}},
		{"expand", []string{"node_id"}, []string{"node_id", "level"}},
		{"get_window", []string{"node_id"}, []string{"node_id", "center", "radius"}},
		{"catalog", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idx := -1
			for i, d := range defs {
				if d.Function.Name == tc.name {
					idx = i
				}
			}
			require.GreaterOrEqual(t, idx, 0)
			fn := defs[idx].Function
			assert.Equal(t, "function", defs[idx].Type)
			assert.Equal(t, "object", fn.Parameters.Type)
			assert.Equal(t, tc.required, fn.Parameters.Required)
			var params []string
			for name, p := range fn.Parameters.Properties.All() {
				params = append(params, name)
				assert.NotEmpty(t, p.Description, name)
				assert.NotEmpty(t, p.Type, name)
			}
			assert.Equal(t, tc.params, params, "in order")
			assert.NotEmpty(t, fn.Description)
			if tc.name != "catalog" {
				assert.Contains(t, fn.Description, "ite the node id", "asks the model to cite node ids")
			} else {
				assert.Contains(t, fn.Description, "node ids")
			}
		})
	}

	// The wire form is the JSON schema Ollama expects.
	b, err := json.Marshal(defs[1])
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"function","function":{"name":"expand",
		"description":"`+defs[1].Function.Description+`",
		"parameters":{"type":"object","required":["node_id"],"properties":{
			"node_id":{"type":"string","description":"The node id, exactly as shown; the several ids of one header (a long section's parts) may be given together."},
			"level":{"type":"string","description":`+jsonString(defs[1].Function.Parameters.Properties.ToMap()["level"].Description)+`,"enum":["detailed","summary","essence"]}}}}}`, string(b))
	b, err = json.Marshal(defs[3])
	require.NoError(t, err)
	assert.Contains(t, string(b), `"parameters":{"type":"object","properties":{}}`, "catalog takes no arguments")

	// Each call returns new values.
	defs[0].Function.Name = "changed"
	assert.Equal(t, "search_context", Definitions()[0].Function.Name)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestToolGuide(t *testing.T) {
	g := ToolGuide(3)
	for _, want := range []string{"search_context", "expand", "get_window", "catalog", "at most 3 rounds", "cite the node ids", "file, page, lines"} {
		assert.Contains(t, g, want)
	}
	assert.False(t, strings.Contains(g, "\n"))
}

func TestIntArg(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want int
		err  string
	}{
		{"absent", nil, 5, ""},
		{"number", float64(7), 7, ""},
		{"string", " 8 ", 8, ""},
		{"empty string", "", 5, ""},
		{"json number", json.Number("9"), 9, ""},
		{"clamped", float64(99), 20, ""},
		{"below", float64(0), 0, "at least 1"},
		{"fraction", 1.5, 0, "whole number"},
		{"word", "five", 0, "whole number"},
		{"bool", true, 0, "not a boolean"},
		{"object", map[string]any{}, 0, "not an object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{}
			if tc.v != nil {
				args["limit"] = tc.v
			}
			got, err := intArg(args, "limit", 5, 1, 20)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestCallKeyIgnoresArgumentOrder(t *testing.T) {
	a := callKey("search_context", map[string]any{"query": "x", "limit": float64(3)})
	b := callKey("search_context", map[string]any{"limit": float64(3), "query": "x"})
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, callKey("expand", map[string]any{"query": "x", "limit": float64(3)}))
	assert.NotEqual(t, a, callKey("search_context", map[string]any{"query": "x", "limit": float64(4)}))
}

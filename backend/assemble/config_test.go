package assemble

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
	return path
}

func TestDefaultConfigIsValid(t *testing.T) {
	c := DefaultConfig()
	require.NoError(t, c.Validate())
	assert.Equal(t, Duration(30*24*time.Hour), c.HalfLife)
	assert.Equal(t, 0.30, c.OutputReserve, "seed §6.1 reserves 30% for output")
	assert.Equal(t, DefaultSystemPrompt, c.SystemPrompt)
	t.Run("each call returns its own maps", func(t *testing.T) {
		a := DefaultConfig()
		a.Provenance["input"] = 0
		assert.Equal(t, 0.5, DefaultConfig().Provenance["input"])
	})
}

func TestLoadConfig(t *testing.T) {
	t.Run("a missing file gives the defaults", func(t *testing.T) {
		c, err := LoadConfig(filepath.Join(t.TempDir(), "config.json"))
		require.NoError(t, err)
		assert.Equal(t, DefaultConfig(), c)
	})
	t.Run("a file without a ranking section gives the defaults", func(t *testing.T) {
		c, err := LoadConfig(writeFile(t, "config.json", `{"embedder": {"model": "x"}}`))
		require.NoError(t, err)
		assert.Equal(t, DefaultConfig(), c)
	})
	t.Run("a partial ranking section overrides only what it names", func(t *testing.T) {
		path := writeFile(t, "config.json", `{
			"other": [1, 2, 3],
			"ranking": {
				"max_hops": 5,
				"relevance_cut": 0.5,
				"staleness_half_life": "48h",
				"provenance": {"input": 0.1},
				"trust": {"docs/": 0.7},
				"presets": {"verify": {"semantic": 1, "trust": 1, "novelty": 0.2}}
			}
		}`)
		c, err := LoadConfig(path)
		require.NoError(t, err)

		want := DefaultConfig()
		want.MaxHops = 5
		want.RelevanceCut = 0.5
		want.HalfLife = Duration(48 * time.Hour)
		want.Provenance["input"] = 0.1 // the other kinds keep their defaults
		want.Trust = map[string]float64{"docs/": 0.7}
		want.Presets = map[Purpose]Weights{Verify: {Semantic: 1, Trust: 1, Novelty: 0.2}}
		assert.Equal(t, want, c)
		assert.Equal(t, Weights{Semantic: 1, Trust: 1, Novelty: 0.2}, c.Weights(Verify))
		assert.Equal(t, DefaultPresets()[Answer], c.Weights(Answer), "purposes without an override keep the default preset")
	})
	t.Run("a sentence encoder ranks with the encoder's settings; null turns them off", func(t *testing.T) {
		c, err := LoadConfig(writeFile(t, "config.json", `{"ranking": {"keyword_weight": 0.8, "relevance_cut": 0.6}}`))
		require.NoError(t, err)
		enc := c.ForEncoder(true)
		assert.Equal(t, 0.55, enc.KeywordWeight, "a workspace written before the field has the default")
		assert.Equal(t, 0.72, enc.RelevanceCut)
		assert.Equal(t, 0.66, enc.CodeCut, "code's cut too")
		assert.Equal(t, 0.85, enc.OtherFileCut, "one other-file cut for every embedder")
		table := c.ForEncoder(false)
		assert.Equal(t, 0.8, table.KeywordWeight, "the offline table keeps the top-level values")
		assert.Equal(t, 0.6, table.RelevanceCut)
		assert.Equal(t, 0.62, table.CodeCut)

		c, err = LoadConfig(writeFile(t, "config.json", `{"ranking": {"keyword_weight": 0.8, "encoder": null}}`))
		require.NoError(t, err)
		assert.Equal(t, 0.8, c.ForEncoder(true).KeywordWeight)

		c, err = LoadConfig(writeFile(t, "config.json", `{"ranking": {"encoder": {"keyword_weight": 0.3, "relevance_cut": 0.8}}}`))
		require.NoError(t, err)
		assert.Equal(t, 0.3, c.ForEncoder(true).KeywordWeight)
		assert.Equal(t, 0.8, c.ForEncoder(true).RelevanceCut)
		assert.Equal(t, DefaultConfig().KeywordWeight, c.ForEncoder(false).KeywordWeight)

		_, err = LoadConfig(writeFile(t, "config.json", `{"ranking": {"encoder": {"keyword_weight": 1.5, "relevance_cut": 0.7}}}`))
		require.ErrorContains(t, err, "encoder.keyword_weight must be between 0 and 1")
		_, err = LoadConfig(writeFile(t, "config.json", `{"ranking": {"other_file_cut": -0.1, "encoder": {"keyword_weight": 0.5, "relevance_cut": 0.7, "code_cut": 1.2}}}`))
		require.ErrorContains(t, err, "other_file_cut must be between 0 and 1")
		require.ErrorContains(t, err, "encoder.code_cut must be between 0 and 1")
	})
	t.Run("half-lives may be given in seconds", func(t *testing.T) {
		c, err := LoadConfig(writeFile(t, "config.json", `{"ranking": {"staleness_half_life": 3600}}`))
		require.NoError(t, err)
		assert.Equal(t, Duration(time.Hour), c.HalfLife)
	})
	t.Run("invalid JSON is an error that names the file", func(t *testing.T) {
		path := writeFile(t, "config.json", `{"ranking": {`)
		_, err := LoadConfig(path)
		require.Error(t, err)
		assert.Contains(t, err.Error(), path)
		assert.Contains(t, err.Error(), "is not valid JSON")
	})
	t.Run("a ranking field of the wrong type is an error that names the file and section", func(t *testing.T) {
		path := writeFile(t, "config.json", `{"ranking": {"max_hops": "three"}}`)
		_, err := LoadConfig(path)
		require.Error(t, err)
		assert.Contains(t, err.Error(), path+": ranking:")
	})
	t.Run("a half-life that is not a duration is an error", func(t *testing.T) {
		path := writeFile(t, "config.json", `{"ranking": {"staleness_half_life": "a month"}}`)
		_, err := LoadConfig(path)
		require.Error(t, err)
		assert.Contains(t, err.Error(), path)
		assert.Contains(t, err.Error(), `duration "a month"`)
	})
	t.Run("invalid values are an error that lists every one of them", func(t *testing.T) {
		path := writeFile(t, "config.json", `{"ranking": {
			"keyword_weight": 2,
			"max_hops": 0,
			"output_reserve": 0.95,
			"staleness_half_life": "-1h",
			"presets": {"answer": {"semantic": -1, "novelty": 2}, "bogus": {}}
		}}`)
		_, err := LoadConfig(path)
		require.Error(t, err)
		msg := err.Error()
		assert.True(t, strings.HasPrefix(msg, path+": ranking: "), msg)
		for _, want := range []string{
			"keyword_weight must be between 0 and 1 (is 2)",
			"max_hops must be at least 1",
			"output_reserve must be in [0, 0.9) (is 0.95)",
			"staleness_half_life must be positive",
			"presets.answer: weights must not be negative",
			"presets.answer: novelty must be at most 1",
			`presets: unknown purpose "bogus"`,
		} {
			assert.Contains(t, msg, want)
		}
	})
	t.Run("a path that cannot be read is an error that names it", func(t *testing.T) {
		dir := t.TempDir()
		_, err := LoadConfig(dir)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "read "+dir)
	})
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"keyword weight above one", func(c *Config) { c.KeywordWeight = 1.5 }, "keyword_weight must be between 0 and 1"},
		{"relevance cut below zero", func(c *Config) { c.RelevanceCut = -0.1 }, "relevance_cut must be between 0 and 1"},
		{"min semantic above one", func(c *Config) { c.MinSemantic = 2 }, "min_semantic must be between 0 and 1"},
		{"semantic cut above one", func(c *Config) { c.SemanticCut = 1.1 }, "semantic_cut must be between 0 and 1"},
		{"inherit below zero", func(c *Config) { c.Inherit = -1 }, "inherit must be between 0 and 1"},
		{"bm25 b above one", func(c *Config) { c.BM25B = 1.2 }, "bm25_b must be between 0 and 1"},
		{"phrase weight above four", func(c *Config) { c.PhraseWeight = 4.5 }, "phrase_weight must be between 0 and 4"},
		{"bm25 k1 above ten", func(c *Config) { c.BM25K1 = 11 }, "bm25_k1 must be between 0 and 10"},
		{"default trust above one", func(c *Config) { c.DefaultTrust = 1.1 }, "default_trust must be between 0 and 1"},
		{"oversize above one", func(c *Config) { c.Oversize = 1.5 }, "oversize must be between 0 and 1"},
		{"output reserve of 0.9", func(c *Config) { c.OutputReserve = 0.9 }, "output_reserve must be in [0, 0.9)"},
		{"negative output reserve", func(c *Config) { c.OutputReserve = -0.1 }, "output_reserve must be in [0, 0.9)"},
		{"zero half-life", func(c *Config) { c.HalfLife = 0 }, "staleness_half_life must be positive"},
		{"zero max hops", func(c *Config) { c.MaxHops = 0 }, "max_hops must be at least 1"},
		{"a negative preset weight", func(c *Config) { c.Presets = map[Purpose]Weights{Explore: {Hop: -0.1}} }, "presets.explore: weights must not be negative"},
		{"a novelty above one", func(c *Config) { c.Presets = map[Purpose]Weights{Create: {Novelty: 1.01}} }, "presets.create: novelty must be at most 1"},
		{"an unknown purpose", func(c *Config) { c.Presets = map[Purpose]Weights{"chat": {}} }, `presets: unknown purpose "chat"`},
	}
	for _, tt := range tests {
		t.Run("a config with "+tt.name+" is refused", func(t *testing.T) {
			c := DefaultConfig()
			tt.change(&c)
			err := c.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	t.Run("the bounds themselves are accepted", func(t *testing.T) {
		c := DefaultConfig()
		c.KeywordWeight, c.RelevanceCut, c.MinSemantic, c.SemanticCut, c.Inherit, c.BM25B = 0, 1, 0, 1, 0, 1
		c.PhraseWeight, c.BM25K1, c.DefaultTrust, c.Oversize, c.OutputReserve, c.MaxHops = 4, 10, 0, 1, 0, 1
		c.Presets = map[Purpose]Weights{Answer: {Novelty: 1}}
		assert.NoError(t, c.Validate())
	})
}

func TestWriteDefaultConfig(t *testing.T) {
	t.Run("a new file holds the defaults and every purpose preset", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "config.json")
		require.NoError(t, WriteDefaultConfig(path))

		b, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.True(t, strings.HasSuffix(string(b), "}\n"))
		var raw struct {
			Ranking struct {
				Presets map[string]Weights `json:"presets"`
			} `json:"ranking"`
		}
		require.NoError(t, json.Unmarshal(b, &raw))
		require.Len(t, raw.Ranking.Presets, len(Purposes))
		for _, p := range Purposes {
			assert.Equal(t, DefaultPresets()[p], raw.Ranking.Presets[string(p)], "preset %s", p)
		}

		c, err := LoadConfig(path)
		require.NoError(t, err)
		want := DefaultConfig()
		want.Presets = DefaultPresets()
		assert.Equal(t, want, c, "the written file reads back as the defaults")
		assert.Contains(t, string(b), `"staleness_half_life": "720h0m0s"`)

		_, err = os.Stat(path + ".tmp")
		assert.ErrorIs(t, err, os.ErrNotExist, "no temporary file is left behind")
	})
	t.Run("an existing file is not overwritten", func(t *testing.T) {
		path := writeFile(t, "config.json", `{"ranking": {"max_hops": 7}}`)
		require.NoError(t, WriteDefaultConfig(path))
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, `{"ranking": {"max_hops": 7}}`, string(b))
	})
	t.Run("a folder that does not exist is an error", func(t *testing.T) {
		assert.Error(t, WriteDefaultConfig(filepath.Join(t.TempDir(), "missing", "config.json")))
	})
	t.Run("writing does not change the default presets", func(t *testing.T) {
		before := map[Purpose]Weights{}
		for p, w := range DefaultPresets() {
			before[p] = w
		}
		require.NoError(t, WriteDefaultConfig(filepath.Join(t.TempDir(), "config.json")))
		assert.Equal(t, before, DefaultPresets())
	})
}

func TestDurationJSON(t *testing.T) {
	reads := []struct {
		name string
		in   string
		want time.Duration
	}{
		{"text in hours", `"720h"`, 720 * time.Hour},
		{"text in mixed units", `"1h30m"`, 90 * time.Minute},
		{"a whole number of seconds", `86400`, 24 * time.Hour},
		{"a fraction of seconds", `1.5`, 1500 * time.Millisecond},
	}
	for _, tt := range reads {
		t.Run("reads "+tt.name, func(t *testing.T) {
			var d Duration
			require.NoError(t, json.Unmarshal([]byte(tt.in), &d))
			assert.Equal(t, Duration(tt.want), d)
		})
	}
	for _, in := range []string{`"soon"`, `true`, `{}`, `"12"`} {
		t.Run("refuses "+in, func(t *testing.T) {
			var d Duration
			assert.Error(t, json.Unmarshal([]byte(in), &d))
		})
	}
	t.Run("writes text that reads back", func(t *testing.T) {
		b, err := json.Marshal(Duration(720 * time.Hour))
		require.NoError(t, err)
		assert.Equal(t, `"720h0m0s"`, string(b))
		var d Duration
		require.NoError(t, json.Unmarshal(b, &d))
		assert.Equal(t, Duration(720*time.Hour), d)
	})
}

func TestWeightsOfAPurpose(t *testing.T) {
	c := DefaultConfig()
	c.Presets = map[Purpose]Weights{Decide: {Semantic: 1}}
	t.Run("a configured preset wins", func(t *testing.T) {
		assert.Equal(t, Weights{Semantic: 1}, c.Weights(Decide))
	})
	t.Run("an unconfigured purpose gets its default preset", func(t *testing.T) {
		assert.Equal(t, DefaultPresets()[Explore], c.Weights(Explore))
	})
	t.Run("an unknown purpose gets the answer preset", func(t *testing.T) {
		assert.Equal(t, DefaultPresets()[Answer], c.Weights("chat"))
	})
}

func TestTrustOf(t *testing.T) {
	c := DefaultConfig()
	c.DefaultTrust = 0.6
	c.Trust = map[string]float64{
		"docs/":          0.5,
		"docs/internal/": 0.9,
		"notes":          0.2,
		"web":            1.7,
		"bad/":           -1,
	}
	tests := []struct {
		name       string
		collection string
		path       string
		want       float64
	}{
		{"the longest matching path prefix wins", "", "docs/internal/plan.md", 0.9},
		{"a shorter prefix applies where the longer does not", "", "docs/public/readme.md", 0.5},
		{"a collection matches by its whole name", "notes", "2024/jan.md", 0.2},
		{"a longer path prefix beats a matching collection", "notes", "docs/internal/x.md", 0.9},
		{"a collection name is not matched as a prefix", "notebook", "x.md", 0.6},
		{"nothing matching gives the default trust", "misc", "misc/a.md", 0.6},
		{"a trust above one is clamped", "web", "page.html", 1},
		{"a trust below zero is clamped", "", "bad/file.md", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, c.TrustOf(tt.collection, tt.path))
		})
	}
	t.Run("a default trust out of range is clamped", func(t *testing.T) {
		assert.Equal(t, 1.0, Config{DefaultTrust: 3}.TrustOf("a", "b"))
	})
	t.Run("matches of equal length resolve the same way every time", func(t *testing.T) {
		c := Config{DefaultTrust: 1, Trust: map[string]float64{"web": 0.1, "doc": 0.9}}
		first := c.TrustOf("web", "doc/a.md")
		for range 200 {
			require.Equal(t, first, c.TrustOf("web", "doc/a.md"))
		}
	})
}

// Package assemble turns scored candidates into the context a model sees:
// the ranking signals and their weights (seed §5, context-query.md), the
// budget split (seed §6.1), the loading decision tree with abstraction
// levels (seed §6.2, context-query.md), and the manifest header and prompt
// (seed §6.3). It is pure: the engine (package backend) finds candidates and
// fetches text; this package decides and renders, so every branch is a table
// test away.
package assemble

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// Purpose is what the question is for (context-query.md): it picks the
// weight preset.
type Purpose string

// Purposes.
const (
	Answer  Purpose = "answer"
	Verify  Purpose = "verify"
	Explore Purpose = "explore"
	Decide  Purpose = "decide"
	Create  Purpose = "create"
)

// Purposes lists the purposes in a stable order.
var Purposes = []Purpose{Answer, Verify, Explore, Decide, Create}

// ParsePurpose reads a purpose; "" is Answer.
func ParsePurpose(s string) (Purpose, error) {
	if s == "" {
		return Answer, nil
	}
	for _, p := range Purposes {
		if string(p) == strings.ToLower(s) {
			return p, nil
		}
	}
	return "", errUsage("unknown purpose %q (use answer, verify, explore, decide or create)", s)
}

// DefaultPresets are the weights per purpose, each signal's own default
// (signal_*.go). Semantic relevance leads every preset (seed §5: "High");
// hop distance is the other high signal; verify leans on trust and
// provenance, explore and create on novelty, decide on recency — the shape
// of context-query.md's TASK_WEIGHTS mapped onto Loom's signals. Tuned on
// eval/seeds with `loom eval` (BENCHMARKS.md).
func DefaultPresets() map[Purpose]Weights { return maps.Clone(defaultPresets()) }

// defaultPresets are made once, from the registered signals.
var defaultPresets = sync.OnceValue(func() map[Purpose]Weights {
	out := make(map[Purpose]Weights, len(Purposes))
	for _, p := range Purposes {
		var w Weights
		for _, s := range AllSignals() {
			w[s.ID()] = s.Weight(p)
		}
		out[p] = w
	}
	return out
})

// Config is the ranking and budget configuration of a workspace; it lives
// in <workspace>/config.json under "ranking" and every field has a default.
type Config struct {
	// Presets overrides the weights of some purposes.
	Presets map[Purpose]Weights `json:"presets,omitempty"`
	// HalfLife of the staleness decay: a node not accessed for one
	// half-life scores 0.5, two 0.25 (exponential, seed §5).
	HalfLife Duration `json:"staleness_half_life"`
	// MaxHops bounds the breadth-first search from the query's best
	// concepts; nodes farther away score 0 on hop distance.
	MaxHops int `json:"max_hops"`
	// SeedConcepts is how many of the concepts nearest the query start the
	// hop search.
	SeedConcepts int `json:"seed_concepts"`
	// KeywordWeight mixes keyword (BM25) and vector cosine into semantic
	// relevance: KeywordWeight·bm25 + (1−KeywordWeight)·cosine, each
	// normalised to the query's best.
	KeywordWeight float64 `json:"keyword_weight"`
	// RelevanceCut: a candidate is *relevant* when its composite score is
	// at least RelevanceCut × the best candidate's, and its semantic
	// relevance at least MinSemantic. Only relevant nodes are loaded —
	// minimum relevant context means knowing where to stop.
	RelevanceCut float64 `json:"relevance_cut"`
	// BackgroundCut: a relevant candidate also stands out of the
	// question's background (see Rank): its score is at least background +
	// BackgroundCut × (best − background). 0 turns it off.
	BackgroundCut float64 `json:"background_cut"`
	// GapCut: the relevant set ends at the largest drop in relevance
	// after its first GapFrom candidates when that drop is at least GapCut
	// (gapCut). 0 turns it off. Chosen on the five dev sets, SciFact's
	// training questions and the 24 bug cases (0.08–0.15, BENCHMARKS.md):
	// 0.12 raises precision on every dev set (seeds 0.545 → 0.555, distill
	// 0.483 → 0.497, cargo-book 0.255 → 0.260) and leaves their recall and
	// the bug cases' as they were; SciFact's recall falls 0.834 → 0.827 for
	// precision 0.317 → 0.330. 0.10 cost loom-code one label, 0.08 three
	// more on seeds and cargo-book.
	GapCut      float64 `json:"gap_cut"`
	MinSemantic float64 `json:"min_semantic"`
	// SemanticCut: a relevant candidate's semantic relevance is also at
	// least SemanticCut × the best candidate's.
	SemanticCut float64 `json:"semantic_cut"`
	// BM25K1 and BM25B are the keyword scorer's parameters (Anserini's
	// defaults).
	BM25K1 float64 `json:"bm25_k1"`
	BM25B  float64 `json:"bm25_b"`
	// PhraseWeight weighs matches of adjacent word pairs (a BM25 field of
	// bigrams) against single words.
	PhraseWeight float64 `json:"phrase_weight"`
	// CodeCut is RelevanceCut for source code's definitions
	// (Candidate.Definition), and the floor of the query's widening rules
	// for code (a definition a relevant one calls or is called by); 0
	// keeps RelevanceCut. OtherFileCut is what a definition outside the
	// best definition's file needs (× the best candidate's relevance) when
	// that file holds at least OwnFileFrom of the first OwnFileOf
	// candidates: a question about code is answered mostly where its best
	// hit lives, and what it calls or is called by joins through the
	// widening rules, not on its own score; 0 turns it off. Together they
	// load more of the best hit's file and its neighbours and less of the
	// rest (BENCHMARKS.md, thirteenth session).
	CodeCut      float64 `json:"code_cut"`
	OtherFileCut float64 `json:"other_file_cut"`
	// Encoder, when set, replaces KeywordWeight, RelevanceCut and CodeCut for a
	// workspace whose vectors come from a sentence encoder (the full MiniLM
	// encoder, a model server's embedding model) rather than the offline
	// table (ForEncoder). A sentence encoder's cosine carries meaning the
	// table's does not, so more of it goes into semantic relevance, and
	// its flatter score curve needs a higher cut. "encoder": null keeps
	// the top-level values for every embedder.
	Encoder *EncoderRanking `json:"encoder"`
	// Inherit lets a section share in the relevance of the sections that
	// enclose it, less at each level up: semantic = max(own, Inherit ×
	// parent's, Inherit² × grandparent's, …). A heading that matches the
	// question well ("Abstraction Levels") makes its subsections — its
	// body — relevant too, and a paper or a page whose title is the
	// question's subject the subsections of its chapters, not only the
	// chapters (often a heading and a sentence). Through every level
	// rather than one: on distill @4000 recall 0.980 → 1.000 and precision
	// 0.462 → 0.476, on loom-code 0.633 → 0.653 (+0.020 ± 0.009), the
	// other sets within 0.001 (BENCHMARKS.md).
	Inherit float64 `json:"inherit"`
	// MaxRelevant caps the relevant set (the rest count as not relevant);
	// 0, the default, sets no cap: the budget is the limit.
	MaxRelevant int `json:"max_relevant"`
	// Provenance scores by node kind (input, output, analysis).
	Provenance map[string]float64 `json:"provenance"`
	// Trust scores by collection or document path prefix; DefaultTrust for
	// the rest.
	Trust        map[string]float64 `json:"trust,omitempty"`
	DefaultTrust float64            `json:"default_trust"`
	// OutputReserve is the share of the window kept for the answer (seed
	// §6.1: 30%), scaled by the question's complexity between
	// OutputReserve×0.75 and OutputReserve×1.25.
	OutputReserve float64 `json:"output_reserve"`
	// Oversize: a node larger than this share of the loadable budget is
	// "oversized" and loads as a summary or its best-matching chunks.
	Oversize float64 `json:"oversize"`
	// SystemPrompt opens every assembled prompt.
	SystemPrompt string `json:"system_prompt,omitempty"`
}

// Duration is a time.Duration that reads and writes as "720h".
type Duration time.Duration

// MarshalJSON writes the duration as text.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads "720h" or a number of seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var secs float64
		if err2 := json.Unmarshal(b, &secs); err2 != nil {
			return fmt.Errorf("duration: want \"720h\" or seconds, got %s", b)
		}
		*d = Duration(secs * float64(time.Second))
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("duration %q: %w", s, err)
	}
	*d = Duration(v)
	return nil
}

// DefaultSystemPrompt asks the model to stay inside the context and cite
// its sources by id (block headers map each id to the place a person opens).
const DefaultSystemPrompt = `You are Loom, a research assistant. Answer from the context below; it was selected for this question within a token budget. Cite the sources you rely on by their id in square brackets, e.g. [hpih]; each block's header gives its source (file and section, and its lines or pages when it names them), which the reader can open. If the context is not enough, say what is missing: the manifest names relevant context that exists but was not loaded.`

// EncoderRanking are the settings a sentence encoder's workspace ranks
// with (Config.Encoder).
type EncoderRanking struct {
	KeywordWeight float64 `json:"keyword_weight"`
	RelevanceCut  float64 `json:"relevance_cut"`
	CodeCut       float64 `json:"code_cut"`
}

// ForEncoder is c as a workspace ranks with: Encoder's values when its
// vectors come from a sentence encoder (encoder), the top-level ones when
// from the offline table.
//
// Chosen on the five dev sets, SciFact's training questions and the 24
// bug cases (grid of keyword weight 0.4–0.85 × cut 0.65–0.77,
// BENCHMARKS.md): with the full encoder, 0.55 and 0.72 meet issue 19's
// precision and recall targets against BM25 at 4000 on three of four sets
// (one before) and raise nDCG@10 on SciFact 0.722 → 0.735 and on the bug
// cases 0.379 → 0.461; a cut of 0.74 ranked the same but cost the bug
// cases' recall 0.616 → 0.522. With the offline table the encoder's
// values cost recall (cargo-book 0.778 → 0.709), so the table keeps 0.85
// and 0.65.
func (c Config) ForEncoder(encoder bool) Config {
	if c.Encoder == nil || !encoder {
		return c
	}
	c.KeywordWeight, c.RelevanceCut, c.CodeCut = c.Encoder.KeywordWeight, c.Encoder.RelevanceCut, c.Encoder.CodeCut
	return c
}

// DefinitionCut is the relevance cut source code's definitions are held
// to: CodeCut, or RelevanceCut when it is 0.
func (c Config) DefinitionCut() float64 {
	if c.CodeCut > 0 {
		return c.CodeCut
	}
	return c.RelevanceCut
}

// DefaultConfig is the configuration a new workspace gets.
func DefaultConfig() Config {
	return Config{
		HalfLife:      Duration(30 * 24 * time.Hour),
		MaxHops:       3,
		SeedConcepts:  5,
		KeywordWeight: 0.85,
		BM25K1:        0.9,
		BM25B:         0.75,
		PhraseWeight:  0.4,
		RelevanceCut:  0.65,
		SemanticCut:   0.5,
		CodeCut:       0.62,
		OtherFileCut:  0.85,
		Encoder:       &EncoderRanking{KeywordWeight: 0.55, RelevanceCut: 0.72, CodeCut: 0.66},
		Inherit:       0.8,
		MinSemantic:   0.2,
		MaxRelevant:   0,
		BackgroundCut: 0.35,
		GapCut:        0.12,
		Provenance:    map[string]float64{"input": 0.5, "output": 0.8, "analysis": 1.0},
		DefaultTrust:  1.0,
		OutputReserve: 0.30,
		Oversize:      0.5,
		SystemPrompt:  DefaultSystemPrompt,
	}
}

// Weights returns the weights of a purpose: the configured preset, else the
// default one.
func (c Config) Weights(p Purpose) Weights {
	if w, ok := c.Presets[p]; ok {
		return w
	}
	defaults := defaultPresets()
	if w, ok := defaults[p]; ok {
		return w
	}
	return defaults[Answer]
}

// TrustOf scores a node's source: the longest configured prefix of its
// collection or path, else DefaultTrust.
func (c Config) TrustOf(collection, path string) float64 {
	best, bestLen, bestKey := c.DefaultTrust, -1, ""
	for k, v := range c.Trust {
		// The longest match wins; at equal length a collection name beats
		// a path prefix, then the smaller key: the same answer every time.
		l := -1
		switch {
		case collection == k:
			l = 2 * len(k)
		case strings.HasPrefix(path, k):
			l = 2*len(k) - 1
		}
		if l < 0 {
			continue
		}
		if l > bestLen || (l == bestLen && k < bestKey) {
			best, bestLen, bestKey = v, l, k
		}
	}
	return clamp01(best)
}

// Validate reports the first impossible value.
func (c Config) Validate() error {
	var errs []string
	in01 := func(name string, v float64) {
		if v < 0 || v > 1 {
			errs = append(errs, fmt.Sprintf("%s must be between 0 and 1 (is %g)", name, v))
		}
	}
	in01("keyword_weight", c.KeywordWeight)
	in01("relevance_cut", c.RelevanceCut)
	in01("code_cut", c.CodeCut)
	in01("other_file_cut", c.OtherFileCut)
	if c.Encoder != nil {
		in01("encoder.keyword_weight", c.Encoder.KeywordWeight)
		in01("encoder.relevance_cut", c.Encoder.RelevanceCut)
		in01("encoder.code_cut", c.Encoder.CodeCut)
	}
	in01("background_cut", c.BackgroundCut)
	in01("gap_cut", c.GapCut)
	in01("min_semantic", c.MinSemantic)
	in01("semantic_cut", c.SemanticCut)
	in01("inherit", c.Inherit)
	in01("bm25_b", c.BM25B)
	if c.PhraseWeight < 0 || c.PhraseWeight > 4 {
		errs = append(errs, fmt.Sprintf("phrase_weight must be between 0 and 4 (is %g)", c.PhraseWeight))
	}
	if c.BM25K1 < 0 || c.BM25K1 > 10 {
		errs = append(errs, fmt.Sprintf("bm25_k1 must be between 0 and 10 (is %g)", c.BM25K1))
	}
	in01("default_trust", c.DefaultTrust)
	in01("oversize", c.Oversize)
	if c.OutputReserve < 0 || c.OutputReserve >= 0.9 {
		errs = append(errs, fmt.Sprintf("output_reserve must be in [0, 0.9) (is %g)", c.OutputReserve))
	}
	if c.HalfLife <= 0 {
		errs = append(errs, "staleness_half_life must be positive")
	}
	if c.MaxHops < 1 {
		errs = append(errs, "max_hops must be at least 1")
	}
	names := make([]string, 0, len(c.Presets))
	for p := range c.Presets {
		names = append(names, string(p))
	}
	sort.Strings(names)
	for _, n := range names {
		if _, err := ParsePurpose(n); err != nil {
			errs = append(errs, "presets: "+err.Error())
			continue
		}
		w := c.Presets[Purpose(n)]
		for _, v := range w {
			if v < 0 {
				errs = append(errs, fmt.Sprintf("presets.%s: weights must not be negative", n))
				break
			}
		}
		if w[Novelty] > 1 {
			errs = append(errs, fmt.Sprintf("presets.%s: novelty must be at most 1", n))
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// LoadConfig reads the "ranking" section of a workspace's config.json over
// the defaults; a missing file or section gives the defaults. Errors name
// the file.
func LoadConfig(path string) (Config, error) {
	c := DefaultConfig()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read %s: %w", path, err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return c, fmt.Errorf("%s is not valid JSON: %w", path, err)
	}
	if raw, ok := top["ranking"]; ok {
		if err := json.Unmarshal(raw, &c); err != nil {
			return c, fmt.Errorf("%s: ranking: %w", path, err)
		}
	}
	if err := c.Validate(); err != nil {
		return c, fmt.Errorf("%s: ranking: %w", path, err)
	}
	return c, nil
}

// WriteDefaultConfig writes config.json with the default ranking section
// (and every purpose's preset spelled out, so a person can edit them) when
// the file does not exist yet.
func WriteDefaultConfig(path string) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	c := DefaultConfig()
	c.Presets = map[Purpose]Weights{}
	for p, w := range DefaultPresets() {
		c.Presets[p] = w
	}
	b, err := json.MarshalIndent(map[string]any{"ranking": c}, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

package abstract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCleanReply(t *testing.T) {
	tests := []struct {
		name, in string
		level    Level
		want     string
	}{
		{"plain", "Nodes load by score.", Summary, "Nodes load by score."},
		{"thinking", "<think>\nThe user wants…\n</think>\n\nNodes load by score.", Summary, "Nodes load by score."},
		{"preamble", "Here is a summary of the section in 23 words:\n\nNodes load by score.", Summary, "Nodes load by score."},
		{"label", "Summary: Nodes load by score.", Summary, "Nodes load by score."},
		{"bold label", "**Summary:** Nodes load by score.", Summary, "Nodes load by score."},
		{"quoted", "\"Nodes load by score.\"", Summary, "Nodes load by score."},
		{"curly quotes", "“Nodes load by score.”", Essence, "Nodes load by score."},
		{"inner quotes stay", `"Load" nodes by "score".`, Summary, `"Load" nodes by "score".`},
		{"fenced", "```\nNodes load by score.\n```", Summary, "Nodes load by score."},
		{"summary keeps lines", "- Nodes load by score.\n- The rest is listed.", Summary, "- Nodes load by score.\n- The rest is listed."},
		{"essence is one line", "Nodes load\nby score.", Essence, "Nodes load by score."},
		{"label then quotes", "Essence: 'Nodes load by score.'", Essence, "Nodes load by score."},
		{"nothing left", "Summary:", Summary, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, CleanReply(tt.in, tt.level))
		})
	}
}

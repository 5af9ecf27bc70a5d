package assemble

// Level is how much of a node is loaded (context-query.md): Detailed is the
// full text, Summary a condensed version, Essence one line, Chunks the
// best-matching segments of an oversized node. Adaptive asks the selector
// to choose per node.
type Level string

// Levels.
const (
	Detailed Level = "detailed"
	Summary  Level = "summary"
	Essence  Level = "essence"
	Chunks   Level = "chunks"
	Adaptive Level = "adaptive"
	// Map is a map of the code the question touches instead of its text:
	// files ranked by relevance and by how much other code uses them, each
	// with the signatures of its key definitions, within the budget (like
	// aider's repository map, chosen per question).
	Map Level = "map"
)

// ParseLevel reads a level the person may ask for; "" is Adaptive.
func ParseLevel(s string) (Level, error) {
	switch Level(s) {
	case "":
		return Adaptive, nil
	case Detailed, Summary, Essence, Adaptive, Map:
		return Level(s), nil
	}
	return "", errUsage("unknown level %q (use detailed, summary, essence, adaptive or map)", s)
}

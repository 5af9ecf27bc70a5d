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
)

// ParseLevel reads a level the person may ask for; "" is Adaptive.
func ParseLevel(s string) (Level, error) {
	switch Level(s) {
	case "":
		return Adaptive, nil
	case Detailed, Summary, Essence, Adaptive:
		return Level(s), nil
	}
	return "", errUsage("unknown level %q (use detailed, summary, essence or adaptive)", s)
}

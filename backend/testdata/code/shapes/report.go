package shapes

import "fmt"

// Report writes the largest figure's area with two decimals.
func Report(shapes []Shape) string {
	l := Largest(shapes)
	if l == nil {
		return "no shapes"
	}
	return fmt.Sprintf("largest area %.2f", l.Area())
}

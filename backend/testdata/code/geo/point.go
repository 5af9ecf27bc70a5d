// Package geo has points of the plane.
package geo

import "math"

// Point is a place in the plane.
type Point struct{ X, Y float64 }

// Distance is the straight-line distance between two points (Euclid).
func Distance(a, b Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }

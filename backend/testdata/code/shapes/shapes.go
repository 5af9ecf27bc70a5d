// Package shapes measures plane figures.
package shapes

import (
	"math"

	"example.com/figures/geo"
)

// Shape is a plane figure with an area and a perimeter.
type Shape interface {
	Area() float64
	Perimeter() float64
}

// Circle is a round figure of a given radius.
type Circle struct {
	Center geo.Point
	Radius float64
}

// Area is the disc's surface: pi times the radius squared.
func (c Circle) Area() float64 { return math.Pi * c.Radius * c.Radius }

// Perimeter is the circumference of the circle.
func (c Circle) Perimeter() float64 { return 2 * math.Pi * c.Radius }

// Largest returns the shape of the greatest area, for the report.
func Largest(shapes []Shape) Shape {
	var best Shape
	for _, s := range shapes {
		if best == nil || s.Area() > best.Area() {
			best = s
		}
	}
	return best
}

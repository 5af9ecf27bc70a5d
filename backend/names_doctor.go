package backend

import (
	"context"

	"github.com/loomwork/loom/backend/doctor"
)

// The checkup's and the repair's types (backend/doctor).
type (
	Checkup       = doctor.Checkup
	Finding       = doctor.Finding
	LostText      = doctor.LostText
	RepairOptions = doctor.RepairOptions
	RepairReport  = doctor.RepairReport
)

// A finding's status.
const (
	StatusOK      = doctor.StatusOK
	StatusNote    = doctor.StatusNote
	StatusProblem = doctor.StatusProblem
)

// Doctor checks the workspace in dir and writes nothing (backend/doctor).
func Doctor(ctx context.Context, dir string, opts ...Option) (*Checkup, error) {
	return doctor.Doctor(ctx, dir, opts...)
}

// Repair mends the workspace in dir, or salvages it into a new one
// (backend/doctor).
func Repair(ctx context.Context, dir string, o RepairOptions, opts ...Option) (*RepairReport, error) {
	return doctor.Repair(ctx, dir, o, opts...)
}

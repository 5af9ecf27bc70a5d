package errs_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/loomwork/loom/backend/errs"
)

type ownType struct{}

func (ownType) Error() string        { return "own" }
func (ownType) ErrorCode() errs.Code { return errs.Damaged }

func TestCodeOfFindsTheCodeThroughWrapping(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want errs.Code
	}{
		{"nil", nil, ""},
		{"an Error", errs.E(errs.Invalid, "the question is empty"), errs.Invalid},
		{"wrapped", fmt.Errorf("query: %w", errs.E(errs.ReadOnly, "read-only")), errs.ReadOnly},
		{"an error type of its own", fmt.Errorf("open: %w", ownType{}), errs.Damaged},
		{"the outermost code wins", errs.Wrap(errs.NotFound, errs.E(errs.Invalid, "x"), "node n-1"), errs.NotFound},
		{"a cancelled context", fmt.Errorf("ingest: %w", context.Canceled), errs.Canceled},
		{"anything else", errors.New("boom"), errs.Internal},
	} {
		assert.Equal(t, c.want, errs.CodeOf(c.err), c.name)
	}
}

func TestMessages(t *testing.T) {
	assert.Equal(t, "node n-1 is not in this workspace", errs.E(errs.NotFound, "node %s is not in this workspace", "n-1").Error())
	cause := errors.New("disk full")
	err := errs.Wrap(errs.Internal, cause, "store texts")
	assert.Equal(t, "store texts: disk full", err.Error())
	assert.ErrorIs(t, err, cause)
}

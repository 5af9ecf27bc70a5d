package bind

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/errs"
)

// engineCodes are the codes backend/errs declares, read from its source so
// that a code added there is one this test knows of at once.
func engineCodes(t *testing.T) []errs.Code {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../backend/errs/errs.go", nil, 0)
	require.NoError(t, err)
	var codes []errs.Code
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			if typ, ok := vs.Type.(*ast.Ident); !ok || typ.Name != "Code" {
				continue
			}
			for _, v := range vs.Values {
				lit, ok := v.(*ast.BasicLit)
				require.True(t, ok, "errs: a Code that is not a string literal")
				s, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				codes = append(codes, errs.Code(s))
			}
		}
	}
	require.NotEmpty(t, codes, "no codes found in backend/errs/errs.go")
	return codes
}

// ownType is an engine error type of its own, coded through ErrorCode.
type ownType struct{ code errs.Code }

func (e ownType) Error() string        { return "the part in question " + string(e.code) }
func (e ownType) ErrorCode() errs.Code { return e.code }

// Every code the engine has reaches the page as it is — from an errs.Error
// or an error type of the engine's own, however deeply wrapped — with the
// engine's message, and is in the list the page's type is made from.
func TestEveryEngineCodeReachesThePageUnchanged(t *testing.T) {
	for _, code := range engineCodes(t) {
		t.Run(string(code), func(t *testing.T) {
			assert.Contains(t, ErrorCodes, ErrorCode(code), "ErrorCodes lacks the engine's %q", code)
			for name, err := range map[string]error{
				"errs.Error":         errs.E(code, "the part in question failed"),
				"wrapped":            fmt.Errorf("query: %w", fmt.Errorf("select: %w", errs.Wrap(code, errors.New("cause"), "the part in question failed"))),
				"a type of its own":  fmt.Errorf("open: %w", ownType{code}),
				"joined with others": errors.Join(errors.New("uncoded first"), errs.E(code, "the part in question failed")),
			} {
				p := Payload(err)
				assert.Equal(t, ErrorCode(code), p.Code, name)
				if code == errs.Internal {
					assert.Equal(t, internalMessage, p.Message, name)
					assert.Equal(t, err.Error(), p.Detail, name)
					continue
				}
				assert.Contains(t, p.Message, "he part in question", name)
				assert.Empty(t, p.Detail, name)
			}
		})
	}
}

// The list the page's type is made from holds each code once: the
// engine's and bind's own, and no code that named the method that failed.
func TestErrorCodesAreTheEnginesAndBindsOwn(t *testing.T) {
	own := []ErrorCode{CodeClosed, CodeBusy, CodeWorkspaceUnavailable, CodeShellFailed}
	want := own
	for _, c := range engineCodes(t) {
		want = append(want, ErrorCode(c))
	}
	assert.ElementsMatch(t, want, ErrorCodes)
	for _, c := range own {
		assert.NotContains(t, engineCodes(t), errs.Code(c), "bind's own %q is also the engine's", c)
	}
	sorted := slices.Clone(ErrorCodes)
	slices.Sort(sorted)
	assert.Len(t, slices.Compact(sorted), len(ErrorCodes), "no code twice")
}

// Failures that are bind's own carry bind's codes: the window system's,
// shutting down, and a change refused while a job runs.
func TestBindsOwnFailuresHaveBindsCodes(t *testing.T) {
	app, shell := realApp(t, "")

	shell.failDialogs = errors.New("no file chooser portal")
	_, err := app.PickFiles()
	assert.Equal(t, CodeShellFailed, pageCode(t, err))
	assert.Equal(t, "no file chooser portal", Payload(err).Detail)
	_, err = app.SaveMarkdown("prompt", "text")
	assert.Equal(t, CodeShellFailed, pageCode(t, err))
	assert.Equal(t, CodeShellFailed, pageCode(t, app.CopyText("text")))

	app.jobs.mu.Lock()
	app.jobs.ingest = func() {}
	app.jobs.mu.Unlock()
	_, err = app.IngestSample()
	assert.Equal(t, CodeBusy, pageCode(t, err))
	app.jobs.mu.Lock()
	app.jobs.ingest = nil
	app.jobs.mu.Unlock()

	app.Shutdown(t.Context())
	_, err = app.Stats()
	assert.Equal(t, CodeClosed, pageCode(t, err))
}

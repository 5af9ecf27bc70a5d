package maketest

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dryRun runs `make -n target` at the repository's root with the
// environment given on top of this one's, less any display and anything a
// calling make passed down.
func dryRun(t *testing.T, target string, env ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	cmd := exec.Command("make", "-n", "--no-print-directory", target)
	cmd.Dir = "../.."
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "DISPLAY", "WAYLAND_DISPLAY", "MAKEFLAGS", "MFLAGS", "MAKELEVEL":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestRunWithoutADisplaySaysHowBeforeBuilding(t *testing.T) {
	out, err := dryRun(t, "run")
	require.Error(t, err, "make run must stop without a display:\n%s", out)
	assert.Contains(t, out, "no display")
	assert.Contains(t, out, "xvfb-run make run")
	assert.Contains(t, out, "make test")
	assert.NotContains(t, out, "wails build", "it stops before building")
	assert.NotContains(t, out, "setup.sh", "it stops before setting up")
}

func TestRunWithADisplayBuildsThenOpens(t *testing.T) {
	for _, display := range []string{"DISPLAY=:0", "WAYLAND_DISPLAY=wayland-0"} {
		t.Run(display, func(t *testing.T) {
			out, err := dryRun(t, "run", display)
			require.NoError(t, err, out)
			build := strings.Index(out, "wails build")
			open := strings.Index(out, "./build/bin/loom-desktop")
			assert.True(t, build >= 0 && open > build, "builds, then opens the app:\n%s", out)
		})
	}
}

func TestOtherTargetsNeedNoDisplay(t *testing.T) {
	out, err := dryRun(t, "build")
	require.NoError(t, err, out)
	assert.Contains(t, out, "wails build")
	assert.NotContains(t, out, "no display")
}

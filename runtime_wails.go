package main

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// wailsShell is the only code in Loom that calls the Wails runtime. Its
// functions need the context Wails passes to OnStartup; with any other
// context they end the process, which is why App reaches them through Shell.
type wailsShell struct{}

var _ Shell = wailsShell{}

func (wailsShell) LogInfo(ctx context.Context, message string)  { runtime.LogInfo(ctx, message) }
func (wailsShell) LogError(ctx context.Context, message string) { runtime.LogError(ctx, message) }

package main

import (
	"context"
	"strings"

	"github.com/pkg/browser"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/loomwork/loom/bind"
)

// wailsShell is the only code in Loom that calls the Wails runtime. Its
// functions need the context Wails passes to OnStartup; with any other
// context they end the process, which is why App reaches them through Shell.
type wailsShell struct{}

var _ bind.Shell = wailsShell{}

func (wailsShell) LogInfo(ctx context.Context, message string)  { runtime.LogInfo(ctx, message) }
func (wailsShell) LogError(ctx context.Context, message string) { runtime.LogError(ctx, message) }

func (wailsShell) Emit(ctx context.Context, event string, data any) {
	runtime.EventsEmit(ctx, event, data)
}

func (wailsShell) OpenFiles(ctx context.Context, title string) ([]string, error) {
	return runtime.OpenMultipleFilesDialog(ctx, runtime.OpenDialogOptions{
		Title: title,
		Filters: []runtime.FileFilter{
			{DisplayName: "Everything Loom reads (papers, notes, web pages, Word, EPUB, BibTeX, code)", Pattern: bind.ReadableFiles()},
			{DisplayName: "All files", Pattern: "*"},
		},
	})
}

func (wailsShell) OpenFolder(ctx context.Context, title string) (string, error) {
	return runtime.OpenDirectoryDialog(ctx, runtime.OpenDialogOptions{Title: title})
}

func (wailsShell) SaveFile(ctx context.Context, title, defaultName string) (string, error) {
	return runtime.SaveFileDialog(ctx, runtime.SaveDialogOptions{
		Title:           title,
		DefaultFilename: defaultName,
		Filters:         []runtime.FileFilter{{DisplayName: "Markdown (*.md)", Pattern: "*.md"}},
	})
}

func (wailsShell) SetClipboard(ctx context.Context, text string) error {
	return runtime.ClipboardSetText(ctx, text)
}

// OpenURL opens web URLs through the Wails runtime (BrowserOpenURL) and
// file URLs — a source in the system's viewer — through the opener
// BrowserOpenURL itself calls (xdg-open, open, rundll32; pkg/browser):
// Wails 2.11 refuses the file scheme there, and only logs that it did.
func (wailsShell) OpenURL(ctx context.Context, url string) error {
	if strings.HasPrefix(url, "file:") {
		return browser.OpenURL(url)
	}
	runtime.BrowserOpenURL(ctx, url)
	return nil
}

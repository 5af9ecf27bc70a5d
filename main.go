// Command loom-desktop is Loom's desktop app: a Wails window over the engine
// in package backend. The page lives in frontend/ and is embedded from
// frontend/dist, which `wails build` (or `make build`) fills.
package main

import (
	"embed"
	"log"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/bind"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

func main() {
	// A CLI refused the workspace names who holds it.
	storage.Holder = "the Loom desktop app"
	app := bind.NewApp(wailsShell{})
	err := wails.Run(&options.App{
		Title:            "Loom",
		Width:            1280,
		Height:           800,
		MinWidth:         960,
		MinHeight:        600,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: options.NewRGB(0x1b, 0x1d, 0x22),
		OnStartup:        app.Startup,
		OnShutdown:       app.Shutdown,
		Bind:             []any{app},
		ErrorFormatter:   bind.FormatError,
		// Files dropped on the window reach the page as paths (OnFileDrop in
		// the bridge); the webview itself must not navigate to show them.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true, DisableWebViewDrop: true},
		Linux: &linux.Options{
			Icon:        icon,
			ProgramName: "loom-desktop",
			// Wails' own default when Linux options are nil: GPU acceleration
			// in WebKitGTK leaves the window blank on some drivers and under Xvfb.
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
	})
	if err != nil {
		log.Fatalf("loom-desktop: %v", err)
	}
}

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
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

func main() {
	app := NewApp(wailsShell{})
	err := wails.Run(&options.App{
		Title:            "Loom",
		Width:            1100,
		Height:           720,
		MinWidth:         640,
		MinHeight:        480,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: options.NewRGB(0x1b, 0x1d, 0x22),
		OnStartup:        app.Startup,
		OnShutdown:       app.Shutdown,
		Bind:             []any{app},
		ErrorFormatter:   formatError,
		// Until ingest by drag and drop lands, a dropped file must not make
		// the webview navigate away from the app to show it.
		DragAndDrop: &options.DragAndDrop{DisableWebViewDrop: true},
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

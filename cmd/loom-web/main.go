//go:build js && wasm

// Command loom-web is the web edition's engine: the same engine and binding
// layer as the desktop app (package bind), compiled to WebAssembly and run
// in a Web Worker by frontend/src/web/worker.ts. It exposes three functions
// on the worker's global object:
//
//	loomInit(table Uint8Array, ollamaURL string, pageOrigin string) Promise<void>
//	    opens the workspace (in the page's file system, /loom/workspace)
//	    with the offline embedder's table the page fetched
//	loomCall(method string, argsJSON string) Promise<string>
//	    calls bind.App's method with the JSON array of arguments; resolves
//	    with the JSON result, rejects with a JSON bind.ErrorPayload
//	    (bind.Payload: the engine's code and message, or bind's own)
//	loomSetOllama(url string)
//	    the Ollama URL the person configured
//
// and calls loomEmit(event string, dataJSON string) for the App's events
// (ingest:progress, chat:delta, ollama:wait).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sync"
	"syscall/js"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/bind"
)

// WorkspaceDir is where the workspace lives in the page's file system.
const WorkspaceDir = "/loom/workspace"

var (
	appMu sync.Mutex
	app   *bind.App
)

func main() {
	js.Global().Set("loomInit", js.FuncOf(initWorkspace))
	js.Global().Set("loomCall", js.FuncOf(call))
	js.Global().Set("loomSetOllama", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			os.Setenv(bind.OllamaEnv, args[0].String())
		}
		return nil
	}))
	if ready := js.Global().Get("loomReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // serve calls until the worker ends
}

// promise runs f in a goroutine and settles a JS promise with its result.
func promise(f func() (string, error)) js.Value {
	var handler js.Func
	handler = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer handler.Release()
			out, err := f()
			if err != nil {
				b, _ := json.Marshal(bind.Payload(err))
				reject.Invoke(string(b))
				return
			}
			resolve.Invoke(out)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(handler)
}

func initWorkspace(_ js.Value, args []js.Value) any {
	return promise(func() (string, error) {
		if len(args) < 1 || args[0].Type() != js.TypeObject {
			return "", &bind.Error{Code: bind.CodeWorkspaceUnavailable, Message: "The engine could not start: the offline embedding table (a Uint8Array) is missing."}
		}
		table := make([]byte, args[0].Get("length").Int())
		js.CopyBytesToGo(table, args[0])
		if len(args) > 1 && args[1].String() != "" {
			os.Setenv(bind.OllamaEnv, args[1].String())
		}
		if len(args) > 2 {
			bind.SetPageOrigin(args[2].String())
		}
		emb, err := offline.FromBytes(table)
		if err != nil {
			return "", &bind.Error{Code: bind.CodeWorkspaceUnavailable, Message: "The engine could not start: the offline embedding table is not readable.", Err: err}
		}
		if err := os.MkdirAll(WorkspaceDir, 0o755); err != nil {
			return "", &bind.Error{Code: bind.CodeWorkspaceUnavailable, Message: "The engine could not start: the page's file system refused its folder.", Err: err}
		}
		a := bind.NewWebApp(webShell{}, bind.WebConfig{Dir: WorkspaceDir, Offline: func() (embed.Embedder, error) { return emb, nil }})
		a.Startup(context.Background())
		appMu.Lock()
		app = a
		appMu.Unlock()
		_, err = a.WorkspaceDir()
		return "", err
	})
}

func call(_ js.Value, args []js.Value) any {
	method := ""
	if len(args) > 0 {
		method = args[0].String()
	}
	argsJSON := "[]"
	if len(args) > 1 && args[1].Type() == js.TypeString {
		argsJSON = args[1].String()
	}
	return promise(func() (string, error) {
		appMu.Lock()
		a := app
		appMu.Unlock()
		if a == nil {
			return "", &bind.Error{Code: bind.CodeWorkspaceUnavailable, Message: "The engine is still starting."}
		}
		return dispatch(a, method, argsJSON)
	})
}

var errType = reflect.TypeOf((*error)(nil)).Elem()

// dispatch calls the App's method by name with JSON arguments, as Wails
// does for the desktop page.
func dispatch(a *bind.App, method, argsJSON string) (string, error) {
	m := reflect.ValueOf(a).MethodByName(method)
	if !m.IsValid() { // MethodByName finds exported methods only
		return "", &bind.Error{Code: bind.CodeInvalid, Message: "The engine has no operation " + method + "."}
	}
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(argsJSON), &raw); err != nil {
		return "", &bind.Error{Code: bind.CodeInvalid, Message: "The arguments of " + method + " are not a JSON array.", Err: err}
	}
	t := m.Type()
	if len(raw) != t.NumIn() {
		return "", &bind.Error{Code: bind.CodeInvalid, Message: fmt.Sprintf("%s takes %d arguments, not %d.", method, t.NumIn(), len(raw))}
	}
	in := make([]reflect.Value, t.NumIn())
	for i := range in {
		p := reflect.New(t.In(i))
		if err := json.Unmarshal(raw[i], p.Interface()); err != nil {
			return "", &bind.Error{Code: bind.CodeInvalid, Message: fmt.Sprintf("Argument %d of %s is not what it takes.", i+1, method), Err: err}
		}
		in[i] = p.Elem()
	}
	out := m.Call(in)
	var result any
	for _, v := range out {
		if v.Type() == errType {
			if !v.IsNil() {
				return "", v.Interface().(error)
			}
			continue
		}
		result = v.Interface()
	}
	b, err := json.Marshal(result)
	if err != nil {
		return "", fmt.Errorf("%s: encode the result: %w", method, err)
	}
	return string(b), nil
}

// webShell sends events to the worker's JavaScript; dialogs and the
// clipboard belong to the page there, so the page never asks for them.
type webShell struct{}

func (webShell) LogInfo(_ context.Context, message string) {
	js.Global().Get("console").Call("log", "loom: "+message)
}
func (webShell) LogError(_ context.Context, message string) {
	js.Global().Get("console").Call("error", "loom: "+message)
}

func (webShell) Emit(_ context.Context, event string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		return
	}
	if emit := js.Global().Get("loomEmit"); emit.Type() == js.TypeFunction {
		emit.Invoke(event, string(b))
	}
}

func (webShell) OpenFiles(context.Context, string) ([]string, error) {
	return nil, errors.New("the web edition picks files in the page")
}

func (webShell) OpenFolder(context.Context, string) (string, error) {
	return "", errors.New("the web edition cannot watch folders")
}

func (webShell) SaveFile(context.Context, string, string) (string, error) {
	return "", errors.New("the web edition saves files in the page")
}

func (webShell) SetClipboard(context.Context, string) error {
	return errors.New("the web edition copies in the page")
}

func (webShell) OpenURL(context.Context, string) error {
	return errors.New("the web edition has no system viewer: the page shows sources itself")
}

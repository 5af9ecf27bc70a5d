package openai

import (
	"net"
	"net/url"
	"strings"

	"github.com/loomwork/loom/backend/errs"
)

// DefaultURL is LM Studio's address: the OpenAI-compatible server most
// people run on a desktop. llama.cpp's llama-server listens on
// http://127.0.0.1:8080/v1 and vLLM on http://127.0.0.1:8000/v1 unless told
// otherwise.
const DefaultURL = "http://127.0.0.1:1234/v1"

// ParseURL reads an OpenAI-compatible server's address: "" is DefaultURL;
// "host:port" means http; an address without a path gets "/v1", where
// these servers serve the protocol; a trailing slash is dropped. An
// address with a user name or password is refused: the key goes in its own
// setting, never in the URL, so that no message shows it.
func ParseURL(raw string) (*url.URL, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		s = DefaultURL
	}
	if !strings.Contains(s, "://") {
		hostport, path, _ := strings.Cut(s, "/")
		if _, _, err := net.SplitHostPort(hostport); err != nil {
			return nil, errs.E(errs.Invalid, "OpenAI-compatible server address %q: give its port, as in http://127.0.0.1:1234/v1", raw)
		}
		s = "http://" + hostport + "/" + path
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, errs.Wrap(errs.Invalid, err, "OpenAI-compatible server address %q", raw)
	case u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "":
		return nil, errs.E(errs.Invalid, "OpenAI-compatible server address %q: want http://host:port/v1", raw)
	case u.User != nil:
		return nil, errs.E(errs.Invalid, "OpenAI-compatible server address %s: leave the user and password out of the address, and give the API key as its own setting", u.Redacted())
	case u.RawQuery != "" || u.Fragment != "":
		return nil, errs.E(errs.Invalid, "OpenAI-compatible server address %q: want http://host:port/v1, without a query", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if u.Path == "" {
		u.Path = "/v1"
	}
	u.RawPath = ""
	return u, nil
}

// root is the server's own root: the address without its final "/v1",
// where LM Studio's /api/… and llama.cpp's /props live.
func root(base *url.URL) *url.URL {
	r := *base
	r.Path = strings.TrimSuffix(r.Path, "/v1")
	return &r
}

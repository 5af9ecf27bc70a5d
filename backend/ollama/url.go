package ollama

import (
	"net"
	"net/url"
	"strings"

	"github.com/loomwork/loom/backend/errs"
)

// DefaultURL is where Ollama listens unless told otherwise.
const DefaultURL = "http://127.0.0.1:11434"

// Address picks Ollama's address by precedence: the first of addrs that is
// not blank, else DefaultURL. The package reads no environment; the edges
// pass what they read, in order — the CLI its --ollama-url flag (which
// defaults to $LOOM_OLLAMA_URL) and then $OLLAMA_HOST, the desktop app
// $LOOM_OLLAMA_URL and then $OLLAMA_HOST, the web edition the address set
// in the page.
func Address(addrs ...string) string {
	for _, a := range addrs {
		if strings.TrimSpace(a) != "" {
			return a
		}
	}
	return DefaultURL
}

// ParseURL reads an Ollama address the way the Ollama CLI reads
// OLLAMA_HOST: "" is DefaultURL, a bare "host" or "host:port" means http
// (port 11434 when none is given), and a trailing slash is dropped. It is
// the one place Loom parses an Ollama address.
func ParseURL(raw string) (*url.URL, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		s = DefaultURL
	}
	if !strings.Contains(s, "://") {
		hostport, path, _ := strings.Cut(s, "/")
		if _, _, err := net.SplitHostPort(hostport); err != nil {
			hostport = net.JoinHostPort(strings.Trim(hostport, "[]"), "11434")
		}
		s = "http://" + hostport + "/" + path
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, errs.Wrap(errs.Invalid, err, "Ollama address %q", raw)
	case u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "":
		return nil, errs.E(errs.Invalid, "Ollama address %q: want http://host:port", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	return u, nil
}

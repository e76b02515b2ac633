package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// maxDocumentSize bounds every document the verifiers read from an
// authorization server: discovery documents, JWK sets and introspection
// responses. Real ones are a few kilobytes; 1 MiB is the bound go-sdk's
// oauthex uses for metadata too.
const maxDocumentSize = 1 << 20

// fetchTimeout bounds one exchange with the authorization server when the
// configuration brings no http.Client of its own (FastMCP's verifiers use
// the same 10 s).
const fetchTimeout = 10 * time.Second

// defaultHTTPClient is the client the verifiers use unless configured
// otherwise: a timeout, and no redirects, so that a key set is only ever
// read from the address the configuration or the discovery document named.
func defaultHTTPClient() *http.Client {
	return &http.Client{
		Timeout: fetchTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// A statusError is an answer other than 200 OK from the authorization
// server.
type statusError struct {
	url  string
	code int
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s answered %d %s", e.url, e.code, http.StatusText(e.code))
}

// getJSON reads the JSON document at u into v.
func getJSON(ctx context.Context, c *http.Client, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	return doJSON(c, req, v)
}

// doJSON sends req and decodes a 200 answer of at most maxDocumentSize
// bytes into v. A longer body is an error, not a truncated document.
func doJSON(c *http.Client, req *http.Request, v any) error {
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return &statusError{url: req.URL.String(), code: res.StatusCode}
	}
	data, err := readLimited(res.Body, maxDocumentSize)
	if err != nil {
		return fmt.Errorf("%s: %w", req.URL, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", req.URL, err)
	}
	return nil
}

// errTooLarge is the error for a document over maxDocumentSize.
var errTooLarge = errors.New("document too large")

// readLimited reads r to the end, or fails once it has read more than
// limit bytes: reading one byte past the limit tells a document of exactly
// limit bytes from a longer one.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: over %d bytes", errTooLarge, limit)
	}
	return data, nil
}

// checkURL requires an absolute https URL, or http on a loopback host
// (for tests and for an authorization server on the same machine), as
// OAuth 2.1 requires of authorization server endpoints and go-sdk's
// oauthex checks.
func checkURL(what, u string) error {
	p, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	switch {
	case p.Host == "":
		return fmt.Errorf("%s %q is not an absolute URL", what, u)
	case p.Scheme == "https":
		return nil
	case p.Scheme == "http" && isLoopback(p.Hostname()):
		return nil
	}
	return fmt.Errorf("%s %q must use https (or http on a loopback address)", what, u)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

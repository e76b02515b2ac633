package wire

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// ClientCaps are the capabilities a client declared: in initialize under
// a session revision, in each request's _meta under the per-request one.
type ClientCaps struct {
	ElicitForm, ElicitURL   bool
	Sampling, SamplingTools bool
	Roots                   bool
	// Extensions lists the extensions the client declared, by name.
	Extensions []string
	// Apps says that the client declared ExtUI with AppMIMEType among the
	// types it renders: it shows MCP Apps.
	Apps bool
}

// ParseClientCaps reads a ClientCapabilities object; anything else
// declares nothing.
func ParseClientCaps(caps jsonvalue.Value) ClientCaps {
	var c ClientCaps
	if caps.Kind() != jsonvalue.Object {
		return c
	}
	if e := caps.Get("elicitation"); e.Kind() == jsonvalue.Object {
		// 2025-06-18 declared {} for forms; 2025-11-25 names the modes.
		form, url := e.Get("form").Exists(), e.Get("url").Exists()
		c.ElicitForm = form || !url
		c.ElicitURL = url
	}
	if s := caps.Get("sampling"); s.Kind() == jsonvalue.Object {
		c.Sampling = true
		c.SamplingTools = s.Get("tools").Exists()
	}
	c.Roots = caps.Get("roots").Kind() == jsonvalue.Object
	if ext := caps.Get("extensions"); ext.Kind() == jsonvalue.Object {
		for name := range ext.Members() {
			c.Extensions = append(c.Extensions, strings.Clone(name))
		}
		c.Apps = rendersApps(ext.Get(ExtUI))
	}
	return c
}

// HasExtension reports whether the client declared the extension name.
func (c *ClientCaps) HasExtension(name string) bool { return slices.Contains(c.Extensions, name) }

// LogLevels are MCP's log levels, least severe first.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// LogLevel returns the index of the level name in LogLevels, or -1.
func LogLevel(name string) int { return slices.Index(LogLevels, name) }

// A RequestMeta is what a request of the per-request revision declares
// in its params._meta.
type RequestMeta struct {
	// Version is the protocol version the request names; Supported says
	// whether it is served.
	Version string
	Caps    ClientCaps
	// CapsRaw is the clientCapabilities object, as JSON.
	CapsRaw []byte
	// LogLevel is the index into LogLevels of the least severe log level
	// the request asked for, or len(LogLevels) when it asked for none: a
	// server of this revision sends no logs then.
	LogLevel int
}

// HasRequestMeta reports whether params carry the _meta of the
// per-request revision: a protocol version.
func HasRequestMeta(params jsonvalue.Value) bool {
	return params.Get("_meta").Get(MetaProtocolVersion).Exists()
}

// ReadRequestMeta reads the _meta of a request's params. A _meta that
// lacks a required member, or has one of the wrong type, is an error that
// says which. It does not check that the version is served: see Supported.
func ReadRequestMeta(params jsonvalue.Value) (RequestMeta, error) {
	meta := params.Get("_meta")
	if meta.Kind() != jsonvalue.Object {
		return RequestMeta{}, fmt.Errorf(`a request of revision %s needs params._meta with %q and %q`, RequestRevision, MetaProtocolVersion, MetaClientCapabilities)
	}
	pv := meta.Get(MetaProtocolVersion)
	if pv.Kind() != jsonvalue.String {
		return RequestMeta{}, fmt.Errorf(`_meta[%q] must be a string naming the protocol version`, MetaProtocolVersion)
	}
	caps := meta.Get(MetaClientCapabilities)
	if caps.Kind() != jsonvalue.Object {
		return RequestMeta{}, fmt.Errorf(`_meta[%q] must be an object, {} for none`, MetaClientCapabilities)
	}
	rm := RequestMeta{Version: pv.Str(), Caps: ParseClientCaps(caps), CapsRaw: caps.Raw(), LogLevel: len(LogLevels)}
	if lv := meta.Get(MetaLogLevel); lv.Exists() {
		i := -1
		if lv.Kind() == jsonvalue.String {
			i = LogLevel(lv.Str())
		}
		if i < 0 {
			return RequestMeta{}, fmt.Errorf(`_meta[%q] must be one of %s`, MetaLogLevel, strings.Join(LogLevels, ", "))
		}
		rm.LogLevel = i
	}
	return rm, nil
}

// An UnsupportedVersionError is a request of a version the server does
// not serve per request; Data is the error's data, naming the versions
// that are.
type UnsupportedVersionError struct {
	Requested string
}

func (e *UnsupportedVersionError) Error() string {
	return fmt.Sprintf("unsupported protocol version %q: requests with a per-request _meta speak %s; older clients begin with initialize", e.Requested, RequestRevision)
}

// Data is the error's data: the versions served per request, and the one
// requested.
func (e *UnsupportedVersionError) Data() []byte {
	data := []byte(`{"supported":["` + RequestRevision + `"],"requested":`)
	return append(jsonvalue.AppendString(data, e.Requested), '}')
}

// Supported reports whether m names the version served per request;
// answer a request that does not with an *UnsupportedVersionError.
func (m *RequestMeta) Supported() bool { return m.Version == RequestRevision }

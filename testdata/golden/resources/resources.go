// Package resources shows every shape of //mcp:resource: fixed URIs of
// text, bytes and JSON, templates whose variables fill an input struct,
// and a function that builds its own contents.
package resources

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
)

// Status says whether the service is up.
//
//mcp:resource app://status title="Service status" audience=user,assistant priority=0.5
func Status(ctx context.Context) (string, error) {
	return "up", nil
}

// Logo is the service's logo.
//
//mcp:resource app://logo.png mimeType=image/png size=4
func Logo() ([]byte, error) {
	return []byte{0x89, 'P', 'N', 'G'}, nil
}

// Config is the service's configuration, as JSON.
//
//mcp:resource file:///etc/app.json name=config priority=1
func Config(ctx context.Context) (map[string]int, error) {
	return map[string]int{"workers": 4}, nil
}

// State is the state of an issue.
type State string

const (
	Open   State = "open"
	Closed State = "closed"
)

// IssueRef names an issue.
type IssueRef struct {
	// Owner owns the repository.
	Owner string `json:"owner"`
	// Name is the repository's name.
	Name   string `json:"name"`
	Number int    `json:"number"`
	// State filters by state.
	State State `json:"state"`
	// Verbose is not in the URI: it is optional.
	Verbose bool `json:"verbose,omitempty"`
}

// Issue is one issue of a repository.
type Issue struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
}

// GetIssue reads an issue.
//
//mcp:resource repo://{owner}/{name}/issues/{number}/{state} complete=Owners
func GetIssue(ctx context.Context, ref IssueRef) (*Issue, error) {
	return &Issue{Number: ref.Number, Title: fmt.Sprintf("%s/%s#%d (%s)", ref.Owner, ref.Name, ref.Number, ref.State)}, nil
}

// Owners proposes repository owners.
func Owners(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
	return runtime.CompletePrefix([]string{"golang", "mcpgen"}, req.Value), nil
}

// FilePath names a file below the root.
type FilePath struct {
	Path string `json:"path"`
}

// Files reads files below the root; the reserved expansion {+path} spans
// segments.
type Files struct{ Root string }

// Read reads one file.
//
//mcp:resource file:///srv/{+path}
func (f *Files) Read(ctx context.Context, p *FilePath) (*runtime.ResourceResult, error) {
	return runtime.TextResource("file:///srv/"+p.Path, "text/plain", f.Root+"/"+p.Path), nil
}

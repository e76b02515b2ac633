// Package names_taken declares at package level every name under which
// the generated file would import a package (time, json, slog, runtime,
// mcpimpl, context, errors, strconv) and the names the generated
// functions give their locals, and imports a package named v, like a
// local: the file imports each package under a name nothing hides, and
// compiles and serves (gen/internal/served, TestNamesTaken).
package names_taken

import (
	stdcontext "context"
	stdjson "encoding/json"
	stderrors "errors"
	stdslog "log/slog"
	stdstrconv "strconv"
	stdtime "time"

	"github.com/mcpgen/mcpgen/testdata/golden/names_taken/v"
)

// The package's own names, which the generated file's imports must not
// take.
var (
	time    = stdtime.Second
	json    = "the user's json"
	slog    = stdslog.LevelWarn
	runtime = struct{ Started bool }{}
	mcpimpl = 1
	context = "the user's context"
	errors  = stderrors.New("the user's error")
	strconv = stdstrconv.Itoa(7)
)

// Names the generated functions give their locals, declared here too.
var (
	s, ctx, in, r, ok, f, name = 1, 2, 3, 4, 5, 6, 7
	err                        error
	args, vars, data           []string
)

// Input names a package of each name the package takes.
type Input struct {
	Delay stdtime.Duration   `json:"delay"`         // How long to wait.
	Raw   stdjson.RawMessage `json:"raw,omitempty"` // Passed through.
	Level stdslog.Level      `json:"level,omitempty"`
}

// Output says what was done.
type Output struct {
	Waited stdtime.Duration `json:"waited"`
	Level  string           `json:"level"`
	Raw    string           `json:"raw"`
}

// Wait waits for no time at all and says how long it would have.
//
//mcp:tool timeout=1m
func Wait(c stdcontext.Context, i Input) (Output, error) {
	return Output{Waited: i.Delay, Level: i.Level.String(), Raw: string(i.Raw)}, c.Err()
}

// Shout names a level.
type Shout struct {
	Level v.Level `json:"level"`
	Times int     `json:"times"`
}

// Echo repeats the level.
//
//mcp:resource echo://{level}/{times}
func Echo(sh Shout) (string, error) {
	out := ""
	for range sh.Times {
		out += string(sh.Level)
	}
	if out == "" {
		return "", errors
	}
	return out, nil
}

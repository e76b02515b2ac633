// Package harness is the half of the generator's differential fuzzer
// that runs inside the program the fuzzer builds: package difffuzz writes
// random Go types and tools into a temporary module, runs mcpgen on it,
// copies this package into the module, and builds a main that hands the
// generated server and its tools to Main. Main then calls every tool
// through the server with many JSON values and compares the runtime's
// verdicts and decoded values with encoding/json's and with an
// independent JSON Schema validator's (santhosh-tekuri/jsonschema), and
// reports each disagreement as a line of JSON on standard output.
//
// It is compiled in the repository too, so that vet and the compiler keep
// it true, but nothing in the repository imports it.
package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"reflect"
	"sync"

	"github.com/mcpgen/mcpgen/runtime"
)

// A Tool is one generated tool, as the harness sees it.
type Tool struct {
	// Name is the tool's MCP name.
	Name string
	// In is the tool's input type (In, not *In); nil for a tool that
	// takes none.
	In reflect.Type
	// Out is the type an output tool returns; nil for an input tool,
	// whose result is text.
	Out reflect.Type
}

// Config is what the fuzzer asks of one run, read from standard input as
// JSON.
type Config struct {
	// Seed seeds every random choice of the run.
	Seed uint64
	// Values is how many values each source (Go values, schema instances,
	// mutations) gives each tool.
	Values int
	// Enums holds the intended values of the named types with constants,
	// by reflect.Type.String().
	Enums map[string]Enum
	// Samples are JSON values of the types whose Go state the harness
	// cannot set (their fields are unexported), by reflect.Type.String().
	Samples map[string][]json.RawMessage
	// Replay, when set, replaces the random values: each is evaluated once.
	Replay []Replay
}

// An Enum is what a named type with constants is meant to allow.
type Enum struct {
	// Constants are the exported constants of the type, as JSON, in the
	// source's order: the files by name, the constants of each file as
	// they are declared.
	Constants []json.RawMessage
	// Outside are values of the type's underlying kind that its schema
	// must refuse (an unexported sentinel at the end of an iota block), as
	// JSON.
	Outside []json.RawMessage
	// Names are the Go names of Constants, which the schema of an integer
	// enum must show the model.
	Names []string
}

// A Replay is one JSON value to evaluate for one tool.
type Replay struct {
	Tool string
	JSON string
}

// A Report is one disagreement, or the summary of a run (Event
// "summary").
type Report struct {
	Tool   string `json:"tool"`
	Event  string `json:"event"`
	Source string `json:"source,omitempty"`
	// JSON is the value: the tool's arguments, or for an output tool what
	// json.Marshal wrote.
	JSON string `json:"json,omitempty"`
	// Path is the JSON path where the disagreement is, as tokens.
	Path []string `json:"path,omitempty"`
	// GoType is the Go type at Path, and Field the struct field that holds
	// it (name and tag), Owner that field's struct type.
	GoType string `json:"goType,omitempty"`
	Field  string `json:"field,omitempty"`
	Owner  string `json:"owner,omitempty"`
	// Keyword is the schema keyword that failed, for the reference validator.
	Keyword string `json:"keyword,omitempty"`
	// SchemaAt is the schema that applies at Path, without descriptions.
	SchemaAt string `json:"schemaAt,omitempty"`
	// Runtime, Schema and Unmarshal are the three verdicts' messages.
	Runtime   string `json:"runtime,omitempty"`
	Schema    string `json:"schema,omitempty"`
	Unmarshal string `json:"unmarshal,omitempty"`
	// Detail says more: the two values that differ, the keyword's value.
	Detail string `json:"detail,omitempty"`
	// Flags are facts the classification reads (see flags.go).
	Flags []string `json:"flags,omitempty"`
	// Count is how many values showed the same disagreement.
	Count int `json:"count,omitempty"`

	// For the summary line: values tried, by source; values the handler
	// received; values all three accepted, whose decoded Go values were
	// compared.
	Values   int            `json:"values,omitempty"`
	Sources  map[string]int `json:"sources,omitempty"`
	Ran      int            `json:"ran,omitempty"`
	Compared int            `json:"compared,omitempty"`
}

// received holds what the handler of the tool being called received, and
// result what an output tool returns. Tool functions are plain functions
// of the generated package, which can reach the harness only through
// package state; calls are made one at a time.
var (
	mu       sync.Mutex
	received any
	got      bool
	result   any
)

// Received records the input a tool's handler was called with.
func Received(v any) {
	mu.Lock()
	defer mu.Unlock()
	received, got = v, true
}

// Result returns the value the harness wants an output tool to return.
func Result[T any]() (T, error) {
	mu.Lock()
	defer mu.Unlock()
	v, _ := result.(T)
	return v, nil
}

func setResult(v any) {
	mu.Lock()
	defer mu.Unlock()
	result = v
}

// takeReceived returns and clears what the last handler received.
func takeReceived() (any, bool) {
	mu.Lock()
	defer mu.Unlock()
	v, ok := received, got
	received, got = nil, false
	return v, ok
}

// Main runs the fuzzer's checks on srv's tools, with the Config read from
// standard input, and writes the reports to standard output.
func Main(srv *runtime.Server, tools []Tool) {
	var cfg Config
	if err := json.NewDecoder(os.Stdin).Decode(&cfg); err != nil {
		fmt.Fprintln(os.Stderr, "harness: reading the config:", err)
		os.Exit(2)
	}
	srv.Logger = slog.New(slog.DiscardHandler)
	h, err := newHarness(srv, tools, &cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(2)
	}
	enc := json.NewEncoder(os.Stdout)
	h.run(context.Background(), func(r *Report) {
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, "harness:", err)
			os.Exit(2)
		}
	})
}

// A harness checks the tools of one server.
type harness struct {
	conn  *runtime.Conn
	tools []*tool
	cfg   *Config
	rng   *rand.Rand
	id    int
}

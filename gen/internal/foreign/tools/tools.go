// Package tools serves tools whose inputs and outputs are types of other
// modules. What mcpgen cannot see inside (a type that reads its own JSON)
// is stated here, once per type, and what a foreign struct's tags cannot
// say (which members may be left out) too.
//
//docs:begin schema
//mcp:schema github.SearchOptions optional
//mcp:schema github.ListOptions optional
//mcp:schema github.Timestamp {"type": "string", "format": "date-time"}
//mcp:schema metav1.Time {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]}
//mcp:schema resource.Quantity {"anyOf": [{"type": "string", "pattern": "^[+-]?[0-9.]+([eE][+-]?[0-9]+|[kKMGTPE]i?|[mun])?$"}, {"type": "number"}]}
//mcp:schema intstr.IntOrString {"anyOf": [{"type": "integer"}, {"type": "string"}]}
//mcp:schema uuid.NullUUID {"anyOf": [{"type": "string"}, {"type": "null"}]}
package tools

//docs:end schema

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

import (
	"context"
	"log/slog"
	"math/big"
	"net/netip"

	"github.com/google/go-github/v75/github"
	"github.com/google/uuid"
	"go.uber.org/zap/zapcore"
	"golang.org/x/text/language"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// SearchInput is a search of GitHub issues.
type SearchInput struct {
	// Query is the search, in GitHub's syntax.
	Query string `json:"q"`
	github.SearchOptions
}

// SearchIssues searches issues.
//
//mcp:tool
func SearchIssues(ctx context.Context, in SearchInput) (github.SearchOptions, error) {
	return in.SearchOptions, nil
}

// Deadline is when something is due.
type Deadline struct {
	Due  github.Timestamp `json:"due"`
	When metav1.Time      `json:"when"`
}

// SetDeadline sets a deadline, and returns it as it was read.
//
//mcp:tool
func SetDeadline(ctx context.Context, in Deadline) (Deadline, error) { return in, nil }

// Resources are a container's requests.
type Resources struct {
	CPU  resource.Quantity  `json:"cpu"`
	Port intstr.IntOrString `json:"port"`
}

// Scale scales.
//
//mcp:tool
func Scale(ctx context.Context, in Resources) (Resources, error) { return in, nil }

// Lookup is a lookup by identifier.
type Lookup struct {
	ID     uuid.UUID     `json:"id"`
	Parent uuid.NullUUID `json:"parent"`
	Level  zapcore.Level `json:"level"`
	Slog   slog.Level    `json:"slog"`
	Lang   language.Tag  `json:"lang"`
	Big    *big.Int      `json:"big"`
	Net    netip.Prefix  `json:"net"`
}

// LookupByID looks up, and returns what it was given.
//
//mcp:tool
func LookupByID(ctx context.Context, in Lookup) (Lookup, error) { return in, nil }

// CreateMilestone creates a milestone: its input is a pointer to a struct
// of another module, which encoding/json decodes.
//
//mcp:tool
func CreateMilestone(ctx context.Context, in *github.Milestone) (string, error) {
	return in.GetTitle(), nil
}

// ContainerInput holds a Kubernetes container: a large type, whose doc
// comments are pages long.
type ContainerInput struct {
	Container corev1.Container `json:"container"`
}

// DescribeContainer describes a container.
//
//mcp:tool
func DescribeContainer(ctx context.Context, in ContainerInput) (string, error) {
	return in.Container.Name, nil
}

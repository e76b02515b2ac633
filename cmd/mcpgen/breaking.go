package main

import (
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/surface"
)

// A baseline is the surface a package is compared with, and where it
// came from.
type baseline struct {
	surface *surface.Surface
	// from says where the surface came from, for the summary: "its
	// committed mcp_surface.json", "its source", "no such package".
	from string
	// positions are the positions of the old surface's places, already
	// written as the report shows them (REV:path:line:col), when it was
	// computed from the source.
	positions map[string]string
	// where names the old surface when no position is known: the
	// snapshot file, REV:path/mcp_surface.json.
	where string
}

// A packageReport is what -breaking reports for one package.
type packageReport struct {
	Package    string         `json:"package"`
	Dir        string         `json:"dir"`
	From       string         `json:"from"`
	OldVersion string         `json:"oldVersion,omitempty"`
	NewVersion string         `json:"newVersion,omitempty"`
	NewMajor   bool           `json:"newMajorVersion"`
	Breaking   int            `json:"breaking"`
	Changes    []changeReport `json:"changes"`
}

// A changeReport is one change with its positions.
type changeReport struct {
	surface.Change
	Position    string `json:"position"`
	OldPosition string `json:"oldPosition,omitempty"`
}

// breakingCheck runs -breaking: it compares each package's surface with
// its surface at against, a git revision (its committed snapshot, or else
// its source there) or a snapshot file, prints every change, and returns
// the exit status: 1 when a change breaks clients and the server's
// version is not a new major one, 2 on errors.
func breakingCheck(ctx context.Context, against, format string, results []*gen.Result, cfg gen.Config, wd string, stdout, stderr io.Writer) int {
	var reports []*packageReport
	base := &baselines{ctx: ctx, rev: against, cfg: cfg}
	defer base.close()
	file := ""
	if fi, err := os.Stat(against); err == nil && fi.Mode().IsRegular() {
		file = against
	}
	servable := 0
	for _, r := range results {
		if r.Surface != nil {
			servable++
		}
	}
	if servable == 0 {
		fmt.Fprintln(stderr, "mcpgen: -breaking: no package with tools, resources or prompts")
		return 2
	}
	if file != "" && servable > 1 {
		fmt.Fprintf(stderr, "mcpgen: -breaking %s: a snapshot file is compared with one package, and %d have tools\n", file, servable)
		return 2
	}
	var served []*gen.Result
	var curs []*surface.Surface
	var dirs []string
	for _, r := range results {
		if r.Surface == nil {
			continue
		}
		cur, err := surface.Parse(r.Surface)
		if err != nil {
			fmt.Fprintf(stderr, "mcpgen: %s: %v\n", r.PkgPath, err)
			return 2
		}
		served, curs, dirs = append(served, r), append(curs, cur), append(dirs, filepath.Dir(r.OutputPath))
	}
	var olds []*baseline
	var err error
	if file != "" {
		var old *baseline
		old, err = snapshotFile(file)
		olds = []*baseline{old}
	} else {
		olds, err = base.load(dirs, curs, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen: -breaking: %v\n", err)
		return 2
	}
	status := 0
	for i, r := range served {
		rep := newReport(r, curs[i], olds[i], wd)
		if rep.fails() {
			status = 1
		}
		reports = append(reports, rep)
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		enc.Encode(struct {
			Against  string           `json:"against"`
			Packages []*packageReport `json:"packages"`
			Status   int              `json:"status"`
		}{against, reports, status})
		return status
	}
	for _, rep := range reports {
		writeReport(stdout, rep, against)
	}
	return status
}

// newReport compares a package's surface now, cur, with its baseline,
// and places each change in the source: positions are relative to wd.
func newReport(r *gen.Result, cur *surface.Surface, old *baseline, wd string) *packageReport {
	rep := &packageReport{Package: r.PkgPath, Dir: relative(wd, filepath.Dir(r.OutputPath)), From: old.from,
		OldVersion: old.surface.Server.Version, NewVersion: cur.Server.Version, Changes: []changeReport{}}
	rep.NewMajor = surface.NewMajor(rep.OldVersion, rep.NewVersion)
	for _, ch := range surface.Compare(old.surface, cur) {
		cr := changeReport{Change: ch}
		cr.Position, cr.OldPosition = position(ch, r.SurfacePositions, old, wd)
		if ch.Breaking {
			rep.Breaking++
		}
		rep.Changes = append(rep.Changes, cr)
	}
	return rep
}

// fails reports whether the package's changes fail the check: one breaks
// clients, and the version is not a new major one.
func (rep *packageReport) fails() bool {
	return rep.Breaking > 0 && !rep.NewMajor
}

// writeReport prints a package's changes, two lines each (where and
// what, then why), and a line that sums them up.
//
//	examples/notes/notes.go:61:2: breaking: tool add_note: input.tags: removed
//		a client that still sends it is refused: the input allows no other members (additionalProperties: false)
func writeReport(w io.Writer, rep *packageReport, against string) {
	for _, ch := range rep.Changes {
		verdict := "compatible"
		if ch.Breaking {
			verdict = "breaking"
		}
		what := ch.What
		if ch.Member != "" {
			what = ch.Member + ": " + what
		}
		why := ch.Why
		if (ch.Kind == surface.KindRemoved || ch.Kind == surface.KindRenamed || ch.Kind == surface.KindMemberRemoved || ch.Kind == surface.KindMemberRenamed) && ch.OldPosition != "" && ch.OldPosition != ch.Position {
			why += " (was at " + ch.OldPosition + ")"
		}
		fmt.Fprintf(w, "%s: %s: %s: %s\n\t%s\n", ch.Position, verdict, ch.Subject, what, why)
	}
	compatible := len(rep.Changes) - rep.Breaking
	line := fmt.Sprintf("%s: %s against %s (%s)", rep.Dir, counted(rep.Breaking, compatible), against, rep.From)
	switch {
	case rep.Breaking > 0 && rep.NewMajor:
		line += fmt.Sprintf(": accepted, as version %s is a new major version after %s", rep.NewVersion, rep.OldVersion)
	case rep.Breaking > 0:
		line += ": if they are meant, make the server's version a new major one (//mcp:server version=)"
	}
	fmt.Fprintln(w, line)
}

func counted(breaking, compatible int) string {
	if breaking+compatible == 0 {
		return "no change"
	}
	plural := func(n int, word string) string {
		if n == 1 {
			return fmt.Sprintf("1 %s change", word)
		}
		return fmt.Sprintf("%d %s changes", n, word)
	}
	switch {
	case compatible == 0:
		return plural(breaking, "breaking")
	case breaking == 0:
		return plural(compatible, "compatible")
	}
	return plural(breaking, "breaking") + ", " + plural(compatible, "compatible")
}

// position is where a change is, as the report shows it: the new
// declaration of what changed, or the nearest one that holds it; for what
// is gone, where it was at the revision, or else the old snapshot.
func position(ch surface.Change, positions map[string]token.Position, old *baseline, wd string) (pos, oldPos string) {
	if ch.OldPlace != "" && old.positions != nil {
		oldPos = lookup(old.positions, ch.OldPlace)
	}
	if ch.Place != "" {
		if p, ok := lookupPosition(positions, ch.Place); ok {
			return relativePosition(wd, p), oldPos
		}
	}
	return cmpOr(oldPos, old.where), oldPos
}

// lookup finds the position of a place, or of the nearest place that
// holds it.
func lookup(positions map[string]string, place string) string {
	for ok := true; ok; place, ok = surface.Enclosing(place) {
		if p, found := positions[place]; found {
			return p
		}
	}
	return ""
}

func lookupPosition(positions map[string]token.Position, place string) (token.Position, bool) {
	for ok := true; ok; place, ok = surface.Enclosing(place) {
		if p, found := positions[place]; found {
			return p, true
		}
	}
	return token.Position{}, false
}

// relativePosition writes a position as diagnostics do: file:line:col,
// the file relative to wd when below it.
func relativePosition(wd string, p token.Position) string {
	p.Filename = relative(wd, p.Filename)
	return p.String()
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// snapshotFile reads a snapshot given instead of a revision.
func snapshotFile(path string) (*baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := surface.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &baseline{surface: s, from: "a snapshot file", where: path}, nil
}

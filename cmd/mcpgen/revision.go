package main

import (
	"archive/tar"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/surface"
)

// baselines finds packages' surfaces at a git revision: from the
// snapshot committed there, or else by generating from the package's
// source at that revision, which it extracts once per repository (git
// archive, into a temporary directory removed by close).
type baselines struct {
	ctx context.Context
	rev string
	cfg gen.Config
	// commits and trees are the revision's commit and extracted tree, by
	// repository.
	commits, trees map[string]string
}

func (b *baselines) close() {
	for _, t := range b.trees {
		os.RemoveAll(t)
	}
}

// A pkgAt is a package's directory in its repository.
type pkgAt struct {
	top string // the repository's top directory
	rel string // the package's directory in it, with slashes ("" at the top)
}

// find finds the package in dir in its repository.
func (b *baselines) find(dir string) (pkgAt, error) {
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return pkgAt{}, err
	}
	out, err := git(b.ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return pkgAt{}, fmt.Errorf("-breaking %s compares with a git revision, and %s is not in a git repository (give a snapshot file instead): %w", b.rev, dir, err)
	}
	top, err := filepath.EvalSymlinks(strings.TrimSpace(out))
	if err != nil {
		return pkgAt{}, err
	}
	rel, err := filepath.Rel(top, dir)
	if err != nil {
		return pkgAt{}, err
	}
	rel = filepath.ToSlash(rel)
	if rel == "." {
		rel = ""
	}
	return pkgAt{top, rel}, nil
}

// load finds the baselines of the packages in dirs, whose surfaces now
// are cur: each from its snapshot at the revision, or else (all those of
// a repository in one load) from its source there.
func (b *baselines) load(dirs []string, cur []*surface.Surface, stderr io.Writer) ([]*baseline, error) {
	out := make([]*baseline, len(dirs))
	fromSource := map[string][]int{} // by repository, the packages to generate
	at := make([]pkgAt, len(dirs))
	for i, dir := range dirs {
		p, err := b.find(dir)
		if err != nil {
			return nil, err
		}
		at[i] = p
		commit, err := b.commit(p.top)
		if err != nil {
			return nil, err
		}
		snapshot := path.Join(p.rel, surface.File)
		if data, err := git(b.ctx, p.top, "show", commit+":"+snapshot); err == nil {
			s, err := surface.Parse([]byte(data))
			if err != nil {
				return nil, fmt.Errorf("%s:%s: %w", b.rev, snapshot, err)
			}
			out[i] = &baseline{surface: s, from: "its " + surface.File + " at " + b.rev, where: b.rev + ":" + snapshot}
			continue
		}
		if _, err := git(b.ctx, p.top, "cat-file", "-e", commit+":"+p.rel); err != nil {
			out[i] = &baseline{surface: emptySurface(cur[i]), from: "a new package", where: b.rev}
			continue
		}
		fromSource[p.top] = append(fromSource[p.top], i)
	}
	for top, pkgs := range fromSource {
		tree, err := b.tree(top, b.commits[top])
		if err != nil {
			return nil, err
		}
		var patterns []string
		for _, i := range pkgs {
			patterns = append(patterns, "./"+at[i].rel)
		}
		results, err := gen.Generate(b.ctx, gen.Config{Dir: tree, Patterns: patterns, Output: b.cfg.Output, Tags: b.cfg.Tags, Env: treeEnv(), Surface: true})
		if err != nil {
			return nil, fmt.Errorf("loading the source at %s: %w", b.rev, err)
		}
		byDir := map[string]*gen.Result{}
		for _, r := range results {
			if rel, err := filepath.Rel(tree, filepath.Dir(r.OutputPath)); err == nil {
				byDir[filepath.ToSlash(rel)] = r
			}
		}
		for _, i := range pkgs {
			rel := cmp.Or(at[i].rel, ".")
			if out[i], err = b.fromSource(byDir[rel], tree, rel, cur[i], stderr); err != nil {
				return nil, fmt.Errorf("%s: %w", rel, err)
			}
		}
	}
	return out, nil
}

// fromSource is the baseline generated from a package's source at the
// revision, extracted into tree.
func (b *baselines) fromSource(r *gen.Result, tree, rel string, cur *surface.Surface, stderr io.Writer) (*baseline, error) {
	if r == nil {
		return nil, fmt.Errorf("no package in %s at %s", rel, b.rev)
	}
	if r.HasErrors() {
		for _, d := range r.Diagnostics {
			fmt.Fprintln(stderr, b.rev+":"+d.Format(tree))
		}
		return nil, fmt.Errorf("its source at %s does not generate with this mcpgen: compare with a snapshot file instead", b.rev)
	}
	if r.Surface == nil {
		return &baseline{surface: emptySurface(cur), from: "no tools at " + b.rev, where: b.rev}, nil
	}
	s, err := surface.Parse(r.Surface)
	if err != nil {
		return nil, err
	}
	positions := map[string]string{}
	for place, p := range r.SurfacePositions {
		positions[place] = b.rev + ":" + relativePosition(tree, p)
	}
	return &baseline{surface: s, from: "its source at " + b.rev, positions: positions, where: b.rev + ":" + rel}, nil
}

// emptySurface is the baseline of a package that had nothing to serve:
// the server as it is now, without tools.
func emptySurface(cur *surface.Surface) *surface.Surface {
	return &surface.Surface{Format: surface.Format, Server: cur.Server}
}

// commit resolves the revision in the repository at top.
func (b *baselines) commit(top string) (string, error) {
	if c, ok := b.commits[top]; ok {
		return c, nil
	}
	out, err := git(b.ctx, top, "rev-parse", "--verify", "--quiet", b.rev+"^{commit}")
	if err != nil {
		shallow, _ := git(b.ctx, top, "rev-parse", "--is-shallow-repository")
		if strings.TrimSpace(shallow) == "true" {
			return "", fmt.Errorf("%s is not a commit of this shallow clone: fetch its history (git fetch --deepen=1, or actions/checkout's fetch-depth: 2)", b.rev)
		}
		return "", fmt.Errorf("%s is not a commit of the repository at %s", b.rev, top)
	}
	if b.commits == nil {
		b.commits = map[string]string{}
	}
	b.commits[top] = strings.TrimSpace(out)
	return b.commits[top], nil
}

// tree extracts the repository's tree at commit into a temporary
// directory, once.
func (b *baselines) tree(top, commit string) (string, error) {
	if t, ok := b.trees[top]; ok {
		return t, nil
	}
	dir, err := os.MkdirTemp("", "mcpgen-breaking-")
	if err != nil {
		return "", err
	}
	if b.trees == nil {
		b.trees = map[string]string{}
	}
	b.trees[top] = dir
	cmd := exec.CommandContext(b.ctx, "git", "archive", "--format=tar", commit)
	cmd.Dir = top
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	extractErr := untar(pipe, dir)
	io.Copy(io.Discard, pipe) // let git finish after an error
	if err := cmd.Wait(); err != nil {
		return "", fmt.Errorf("git archive %s: %w: %s", b.rev, err, strings.TrimSpace(errOut.String()))
	}
	if extractErr != nil {
		return "", fmt.Errorf("extracting %s: %w", b.rev, extractErr)
	}
	return dir, nil
}

// untar writes the directories, files and symbolic links of a tar stream
// below dir; a name that would leave dir is an error.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(path.Clean(h.Name))
		if !filepath.IsLocal(name) {
			if h.Typeflag == tar.TypeXGlobalHeader {
				continue
			}
			return fmt.Errorf("%q is outside the tree", h.Name)
		}
		dst := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(dst, 0o777)
		case tar.TypeReg:
			err = writeFile(dst, tr, h.FileInfo().Mode().Perm())
		case tar.TypeSymlink:
			err = os.Symlink(h.Linkname, dst)
		}
		if err != nil {
			return err
		}
	}
}

func writeFile(dst string, r io.Reader, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm|0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	return errors.Join(err, f.Close())
}

// treeEnv is the environment the go command loads an extracted tree in:
// a GOWORK that names a file (this checkout's go.work) would load this
// checkout's packages instead, so the go command looks for the tree's
// own.
func treeEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if v, ok := strings.CutPrefix(kv, "GOWORK="); ok && v != "off" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// git runs a git command in dir and returns its standard output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errOut.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return out.String(), nil
}

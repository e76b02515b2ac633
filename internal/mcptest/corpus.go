package mcptest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// ReadCorpus reads the []byte seeds of the committed corpus in dir (such
// as testdata/fuzz/FuzzServeStdio).
func ReadCorpus(t testing.TB, dir string) [][]byte {
	t.Helper()
	entries, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, name := range entries {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		seed, err := ParseCorpusFile(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, seed)
	}
	return out
}

// ParseCorpusFile reads a "go test fuzz v1" file holding one []byte.
func ParseCorpusFile(data []byte) ([]byte, error) {
	header, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(header) != "go test fuzz v1" {
		return nil, fmt.Errorf("not a go test fuzz v1 file")
	}
	rest = bytes.TrimSpace(rest)
	if !bytes.HasPrefix(rest, []byte("[]byte(")) || !bytes.HasSuffix(rest, []byte(")")) {
		return nil, fmt.Errorf("want one []byte value")
	}
	s, err := strconv.Unquote(string(rest[len("[]byte(") : len(rest)-1]))
	return []byte(s), err
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// build builds every server and host of the benchmark into e.bin.
func (e *env) build() error {
	if err := os.MkdirAll(e.bin, 0o777); err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-o", e.bin+string(filepath.Separator), "./cmd/...")
	cmd.Dir = e.benchDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/...: %v\n%s", err, stderr.String())
	}
	return nil
}

// installTS runs ts/install.sh, which installs the pinned npm packages
// into the cache and copies the scripts beside them.
func (e *env) installTS() error {
	cmd := exec.Command("bash", filepath.Join(e.benchDir, "ts", "install.sh"))
	cmd.Env = append(os.Environ(), "MCPGEN_CACHE="+filepath.Dir(e.cache))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("ts/install.sh: %v\n%s", err, stderr.String())
	}
	e.tsDir = strings.TrimSpace(string(out))
	return nil
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
)

// machine describes where the figures were taken.
type machine struct {
	cpu, cores, memory, kernel, goVersion, nodeVersion string
	libs                                               [][2]string // library, version
	taken, loadStart                                   string
}

func readMachine(e *env) *machine {
	m := &machine{cores: strconv.Itoa(goruntime.NumCPU()), goVersion: goruntime.Version()}
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
				m.memory = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
			}
		}
	}
	if data, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.kernel = "Linux " + strings.TrimSpace(string(data))
	}
	if out, err := exec.Command("node", "--version").Output(); err == nil {
		m.nodeVersion = strings.TrimSpace(string(out))
	}
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Version}}",
		"github.com/modelcontextprotocol/go-sdk", "github.com/google/jsonschema-go",
		"github.com/mark3labs/mcp-go", "github.com/santhosh-tekuri/jsonschema/v6")
	cmd.Dir = e.benchDir
	if out, err := cmd.Output(); err == nil {
		for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
			if p, v, ok := strings.Cut(line, " "); ok {
				m.libs = append(m.libs, [2]string{p, v})
			}
		}
	}
	for _, pkg := range []string{"@modelcontextprotocol/sdk", "@anthropic-ai/claude-agent-sdk", "zod"} {
		data, err := os.ReadFile(filepath.Join(e.cache, "node_modules", pkg, "package.json"))
		var pj struct{ Version string }
		if err == nil && json.Unmarshal(data, &pj) == nil {
			m.libs = append(m.libs, [2]string{pkg + " (npm)", pj.Version})
		}
	}
	return m
}

func (m *machine) print(w io.Writer) {
	fmt.Fprintf(w, "## Machine\n\n")
	fmt.Fprintf(w, "| | |\n|---|---|\n| taken | %s |\n", m.taken)
	fmt.Fprintf(w, "| CPU | %s |\n| cores | %s |\n| memory | %s |\n| OS | %s |\n| Go | %s |\n| Node | %s |\n",
		m.cpu, m.cores, m.memory, m.kernel, m.goVersion, m.nodeVersion)
	for _, l := range m.libs {
		fmt.Fprintf(w, "| %s | %s |\n", l[0], l[1])
	}
	fmt.Fprintf(w, "| load average before measuring | %s |\n\n", m.loadStart)
}

// loadAvg is the 1, 5 and 15 minute load average.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

package main

import (
	"strings"
	"testing"
)

// events is a run as go test -json writes it: a package whose tests
// pass, skip for want of two things (one test twice) and fail, and a
// package without tests.
const events = `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestCLI"}
{"Action":"output","Package":"p","Test":"TestCLI","Output":"=== RUN   TestCLI\n"}
{"Action":"output","Package":"p","Test":"TestCLI","Output":"    cli_test.go:12: no Claude Code CLI found: run .ci/install-claude.sh\n"}
{"Action":"output","Package":"p","Test":"TestCLI","Output":"--- SKIP: TestCLI (0.00s)\n"}
{"Action":"skip","Package":"p","Test":"TestCLI"}
{"Action":"output","Package":"p","Test":"TestCLI2","Output":"    cli_test.go:40: no Claude Code CLI found: run .ci/install-claude.sh\n"}
{"Action":"skip","Package":"p","Test":"TestCLI2"}
{"Action":"output","Package":"p","Test":"TestRedis","Output":"    redis_test.go:9: no redis-server found: run .ci/install-redis.sh\n"}
{"Action":"skip","Package":"p","Test":"TestRedis"}
{"Action":"output","Package":"p","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"p","Test":"TestBad","Output":"    bad_test.go:3: got 1, want 2\n"}
{"Action":"output","Package":"p","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestBad"}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.01s\n"}
{"Action":"fail","Package":"p"}
{"Action":"output","Package":"q","Output":"?   \tq\t[no test files]\n"}
{"Action":"skip","Package":"q"}
`

// TestReport: a failing test's output and the packages' result lines
// are printed, passing tests are not, and the skips are counted by what
// they lacked, most first, with how to get it.
func TestReport(t *testing.T) {
	var out strings.Builder
	r := newReport(&out, false)
	if err := r.read(strings.NewReader(events)); err != nil {
		t.Fatal(err)
	}
	r.summary()
	want := `    bad_test.go:3: got 1, want 2
--- FAIL: TestBad (0.00s)
FAIL
FAIL	p	0.01s
?   	q	[no test files]

3 tests were skipped, for want of what they test against (.ci/run installs it all):
     2  no Claude Code CLI found: run .ci/install-claude.sh
     1  no redis-server found: run .ci/install-redis.sh
`
	if got := out.String(); got != want {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}

func TestHasPackages(t *testing.T) {
	for args, want := range map[string]bool{
		"":                         false,
		"-race":                    false,
		"-run TestX -count 1":      false,
		"-run=TestX ./runtime/...": true,
		"./gen":                    true,
		"-timeout 10m -v":          false,
	} {
		if got := hasPackages(strings.Fields(args)); got != want {
			t.Errorf("hasPackages(%q) = %v, want %v", args, got, want)
		}
	}
}

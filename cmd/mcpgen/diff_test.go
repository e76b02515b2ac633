package main

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	new := "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\n"
	want := `--- a/x
+++ b/x
@@ -1,6 +1,6 @@
 a
 b
-c
+C
 d
 e
 f
@@ -8,3 +8,4 @@
 h
 i
 j
+k
`
	if got := unifiedDiff("a/x", "b/x", old, new); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := unifiedDiff("a", "b", old, old); got != "" {
		t.Errorf("equal texts: got %q, want no diff", got)
	}
	if got := unifiedDiff("a", "b", "", "x\n"); got != "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Errorf("new file: got %q", got)
	}
	if got := unifiedDiff("a", "b", "x", "y"); !strings.Contains(got, "\\ No newline at end of file") {
		t.Errorf("missing final newline not marked: %q", got)
	}
}

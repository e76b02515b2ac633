package cli

import "testing"

// TestRedacted: the -redis URL an error names shows no password.
func TestRedacted(t *testing.T) {
	for in, want := range map[string]string{
		"redis://user:s3cret@host:6379/0": "redis://user:xxxxx@host:6379/0",
		"redis://host:6379":               "redis://host:6379",
		"redis://user:s3cret@bad host":    "(a URL that does not parse)",
	} {
		if got := redacted(in); got != want {
			t.Errorf("redacted(%q) = %q, want %q", in, got, want)
		}
	}
}

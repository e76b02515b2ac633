package otel

// For the tests of package otel_test.
var (
	WantHTTPCall = wantHTTPCall
	Mismatches   = mismatches
)

package served

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/testdata/golden/decoders"
)

// TestBadTimeReportedLikeOtherViolations: a date-time that time.Time
// would not parse is refused by the argument validator, in the words of
// every other violation and with them, not by encoding/json afterwards
// (`parsing time "tomorrow" as "2006-01-02T15:04:05Z07:00": …`).
func TestBadTimeReportedLikeOtherViolations(t *testing.T) {
	c := decoders.NewServer().NewConn(nil)
	var res struct {
		Content []struct{ Text string }
		IsError bool
	}
	req := revisions[0].request(1, "tools/call", `"name":"keep","arguments":{"when":"tomorrow","level":"middling"}`)
	revisions[0].open(t, c)
	if err := json.Unmarshal(call(t, c, req), &res); err != nil {
		t.Fatal(err)
	}
	want := "invalid arguments for tool keep:\n" +
		"- when: must be a date and time in RFC 3339 format, such as \"2026-07-28T09:30:00Z\"; got \"tomorrow\"\n" +
		"- level: must be one of"
	if !res.IsError || len(res.Content) != 1 || !strings.HasPrefix(res.Content[0].Text, want) {
		t.Errorf("result %+v; want an error starting %q", res, want)
	}
}

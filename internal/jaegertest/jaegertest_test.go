package jaegertest

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRoundTrip: spans sent to Jaeger's OTLP/HTTP receiver (in OTLP's JSON
// encoding, which needs no SDK) come back through the query API with
// their service, name, kind, parent, attributes, status and links; and
// Tree draws them.
func TestRoundTrip(t *testing.T) {
	s := Start(t)
	const trace = "5b8efff798038103d269b633813fc60c"
	at := func(ms int) string {
		return strconv.FormatInt(time.Now().Add(time.Duration(ms)*time.Millisecond).UnixNano(), 10)
	}
	body := `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"roundtrip"}}]},
"scopeSpans":[{"spans":[
{"traceId":"` + trace + `","spanId":"eee19b7ec3c1b174","name":"root","kind":3,"startTimeUnixNano":"` + at(-100) + `","endTimeUnixNano":"` + at(0) + `"},
{"traceId":"` + trace + `","spanId":"eee19b7ec3c1b175","parentSpanId":"eee19b7ec3c1b174","name":"tools/call greet","kind":2,
 "startTimeUnixNano":"` + at(-90) + `","endTimeUnixNano":"` + at(-10) + `",
 "attributes":[{"key":"gen_ai.tool.name","value":{"stringValue":"greet"}},{"key":"client.port","value":{"intValue":"4242"}}],
 "links":[{"traceId":"` + trace + `","spanId":"eee19b7ec3c1b174"}],
 "status":{"code":2,"message":"boom"}}]}]}]}`
	res, err := http.Post(s.OTLPHTTP()+"/v1/traces", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("OTLP/HTTP: %s", res.Status)
	}
	spans := s.Trace(t, trace, 2)
	var call Span
	for _, sp := range spans {
		if sp.Name == "tools/call greet" {
			call = sp
		}
	}
	if call.Service != "roundtrip" || call.Kind != "SERVER" || call.ParentSpanID != "eee19b7ec3c1b174" || call.StatusCode != "ERROR" || call.StatusMsg != "boom" {
		t.Errorf("span %+v", call)
	}
	if call.Attributes["gen_ai.tool.name"] != "greet" || call.Attributes["client.port"] != "4242" || len(call.Links) != 1 || call.Links[0] != "eee19b7ec3c1b174" {
		t.Errorf("attributes %v, links %v", call.Attributes, call.Links)
	}
	want := "roundtrip: root [client]\n  roundtrip: tools/call greet [server] status=ERROR \"boom\" client.port=4242 gen_ai.tool.name=greet\n"
	if got := Tree(spans); got != want {
		t.Errorf("Tree:\n%s\nwant:\n%s", got, want)
	}
	if ids := s.Traces(t, "roundtrip"); len(ids) != 1 || ids[0] != trace {
		t.Errorf("Traces: %v", ids)
	}
}

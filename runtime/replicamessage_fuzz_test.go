package runtime

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// Run the target with
//
//	go test ./runtime -run XXX -fuzz FuzzBusMessage -fuzztime 5m -parallel 1

// FuzzBusMessage delivers what arrives on the bus's channel to a replica
// with listeners of every kind: the bytes as they are (what another
// program publishes), and the same bytes sealed with the replicas' key
// (what a replica with the key could send), so that both the opening and
// the reading of what opens are fuzzed. Nothing may panic, and nothing
// but a message a replica could have sent may reach a listener: one
// whose kind, event and members deliver something.
func FuzzBusMessage(f *testing.F) {
	for _, seed := range []string{
		`{"o":"r1","k":"list","f":"tools"}`,
		`{"o":"r1","k":"list","f":"resources"}`,
		`{"o":"r1","k":"uri","u":"app://x/1"}`,
		`{"o":"r1","k":"task","t":"T1","e":"cancel"}`,
		`{"o":"r1","k":"task","t":"T1","e":"input"}`,
		`{"o":"r1","k":"task","t":"T1","w":"","e":"status","d":{"taskId":"T1","status":"completed","result":{"content":[]}}}`,
		`{"o":"r1","k":"task","t":"T1","w":"","e":"status"}`,
		`{"o":"r1","k":"task","t":"T1","w":"","e":"status","d":{}}`,
		`{"o":"r1","k":"task","t":"T1","w":"","e":"status","d":"x"}`,
		`{"o":"r1","k":"task","t":"T1","e":"status","e":"cancel"}`,
		`{"o":1,"k":"list","f":"tools"}`,
		`{"k":"list","f":"nothing"}`,
		`{"k":"uri"}`,
		`[]`, `null`, `"x"`, ``,
	} {
		f.Add([]byte(seed))
	}
	s := &Server{Name: "bus", Store: store.NewMemory(), StateKey: []byte("the replicas' key"), Logger: linepeer.DiscardLogger()}
	s.AddResource(&Resource{URI: "app://x/1", Name: "x", Handler: func(context.Context, *ResourceRequest) (*ResourceResult, error) { return nil, nil }})
	s.AddTool(&Tool{Name: "t", Handler: func(context.Context, *ToolRequest) (*ToolResult, error) { return TextResult(""), nil }})
	l := &listener{
		id:     []byte(`1`),
		client: "fuzz",
		lists:  map[feature]bool{tools: true, resources: true, prompts: true},
		uris:   []string{"app://x/1"},
		tasks:  []string{"T1"},
		owner:  "",
		wake:   make(chan struct{}, 1),
	}
	if err := s.addListener(l); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s.onBus(data)
		if queued, _ := l.take(); len(queued) > 0 {
			t.Fatalf("%q, not sealed, reached the listener: %q", data, queued)
		}
		s.onBus(s.busBox().Seal(data, busAD))
		queued, _ := l.take()
		m, err := readBusMessage(data)
		if len(queued) > 0 && (err != nil || m.Kind == "task" && m.Event != "status") {
			t.Fatalf("%q (%v) reached the listener: %q", data, err, queued)
		}
	})
}

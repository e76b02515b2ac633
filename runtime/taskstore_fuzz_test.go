package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/taskrecord"
)

// Run the target with
//
//	go test ./runtime -run XXX -fuzz FuzzStoredRecords -fuzztime 5m -parallel 1

// FuzzStoredRecords puts what a store returns in place of a task's record
// and of its client's ledger (sealed with the replicas' key, as a replica
// with the key could have written it, and as it is, as anything else
// could), then asks about the task and starts another, as a client of
// Streamable HTTP without a session or a token, whose tasks have no owner.
// Nothing may panic, and every request gets one JSON-RPC response.
func FuzzStoredRecords(f *testing.F) {
	for _, seed := range []string{
		`{"tool":"quick","s":"working","c":1,"u":1,"ttl":3600000,"p":1000,"l":9999999999999}`,
		`{"tool":"quick","s":"input_required","c":1,"u":1,"ttl":3600000,"p":1000,"q":[{"k":"a","m":"elicitation/create","p":{"message":"?"}}]}`,
		`{"tool":"quick","s":"completed","c":1,"u":1,"ttl":3600000,"p":1000,"r":{"content":[]}}`,
		`{"tool":"quick","s":"failed","c":1,"u":1,"ttl":3600000,"p":1000,"e":{"code":-32603,"message":"x"}}`,
		`{"tool":"quick","s":"completed","c":1,"u":1,"ttl":3600000,"p":1000,"r":"not an object"}`,
		`{"tool":"quick","s":"input_required","c":1,"u":1,"ttl":3600000,"p":1000,"q":[{"k":"a","m":"x","p":null}],"a":{"a":1}}`,
		`{"s":"working","c":-9223372036854775808,"ttl":9223372036854775807}`,
		`{"b":[{"x":9999999999999,"n":1024,"s":1}]}`,
		`{"b":[{"x":9999999999999,"n":-5,"s":-99999999999}]}`,
		`{"b":null}`,
		`[]`, `null`, ``,
	} {
		f.Add([]byte(seed))
	}
	s := &Server{Name: "records", Logger: linepeer.DiscardLogger(), Tasks: TaskOptions{Lease: time.Hour}}
	s.AddTool(&Tool{Name: "quick", Task: TaskOptional, TaskTTL: 50 * time.Millisecond, Handler: func(context.Context, *ToolRequest) (*ToolResult, error) {
		return TextResult("ok"), nil
	}})
	conn := &Conn{ss: &session{srv: s, transport: "http"}} // no session, no token: the owner is ""
	sh := s.shared()
	const id = "FUZZEDTASK"
	caps := `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
	put := func(t *testing.T, key string, value []byte) {
		_, version, _ := sh.store.Get(context.Background(), key)
		if _, err := sh.store.Put(context.Background(), key, version, value, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, sealed := range []bool{true, false} {
			taskKey, ledgerKey := taskrecord.Key(sh.box, id), taskrecord.LedgerKey(sh.box, "")
			if sealed {
				put(t, taskKey, sh.box.Seal(data, []byte(taskKey)))
				put(t, ledgerKey, sh.box.Seal(data, []byte(ledgerKey)))
			} else {
				put(t, taskKey, data)
				put(t, ledgerKey, data)
			}
			for i, req := range []string{
				mcptest.PerRequest(1, "tasks/get", `"taskId":"`+id+`"`, caps),
				mcptest.PerRequest(2, "tasks/update", `"taskId":"`+id+`","inputResponses":{"a":{"action":"decline"}}`, caps),
				mcptest.PerRequest(3, "tasks/cancel", `"taskId":"`+id+`"`, caps),
				mcptest.PerRequest(4, "tools/call", `"name":"quick","arguments":{}`, caps),
			} {
				resp := conn.Handle(context.Background(), []byte(req))
				v, err := jsonvalue.Parse(resp)
				if err != nil || !v.Get("result").Exists() && !v.Get("error").Exists() {
					t.Fatalf("request %d over %q: %s", i+1, data, resp)
				}
			}
		}
	})
}

package tickets_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/tickets"
	"github.com/mcpgen/mcpgen/runtime/runtimetest"
)

// TestCreateTicket lists and calls create_ticket in process, as a client
// would, under both forms of the protocol: the schema the client sees is
// want/createTicketInputSchema.json (the kind an enum from the const
// block, at most five labels), and arguments outside it are a failed
// result that says why, before CreateTicket runs.
func TestCreateTicket(t *testing.T) {
	wantSchema, err := os.ReadFile("want/createTicketInputSchema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []string{runtimetest.SessionRevision, runtimetest.RequestRevision} {
		t.Run(rev, func(t *testing.T) {
			ctx := t.Context()
			c := runtimetest.NewClient(t, tickets.NewServer(), &runtimetest.Options{Revision: rev})

			tools, err := c.ListTools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(tools) != 1 || tools[0].Name != "create_ticket" || tools[0].Description != "CreateTicket creates a ticket on the project board." {
				t.Fatalf("tools: %+v", tools)
			}
			if !sameJSON(t, tools[0].InputSchema, string(wantSchema)) {
				t.Errorf("input schema:\n%s\nwant\n%s", tools[0].InputSchema, wantSchema)
			}

			res, err := c.CallTool(ctx, "create_ticket", tickets.CreateTicketInput{Title: "Crash on start", Description: "It crashes.", Kind: tickets.Bug, Labels: []string{"p1"}})
			if err != nil || res.IsError || runtimetest.Text(res) != "Ticket 'Crash on start' created successfully (ID: TKT-42)" {
				t.Errorf("create_ticket: %q, %v", runtimetest.Text(res), err)
			}

			for _, bad := range []struct {
				args any
				want string
			}{
				{tickets.CreateTicketInput{Title: "t", Description: "d", Kind: "epic"}, `kind: must be one of "bug", "feature", "task"; got "epic"`},
				{tickets.CreateTicketInput{Title: "t", Description: "d", Kind: tickets.Task, Labels: strings.Fields("a b c d e f")}, "labels: must have at most 5 items; got 6"},
				{map[string]string{"title": "t"}, "description: is required"},
				{json.RawMessage(`{"title":"t","description":"d","kind":"bug","owner":"ada"}`), "owner: unknown property"},
			} {
				res, err := c.CallTool(ctx, "create_ticket", bad.args)
				if err != nil || !res.IsError || !strings.Contains(runtimetest.Text(res), bad.want) {
					t.Errorf("create_ticket with %+v: %q, %v; want a failed result with %s", bad.args, runtimetest.Text(res), err, bad.want)
				}
			}
		})
	}
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(va, vb)
}

package runtime

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestQuickToolTurnsSlow: calls of a quick tool run on the reading
// goroutine even when lines wait; when such a call blocks, the reading
// passes to another goroutine and the tool stops being quick, so that
// eight calls that each wait for all eight to have started all start.
func TestQuickToolTurnsSlow(t *testing.T) {
	var block atomic.Bool
	started, release := make(chan struct{}, 8), make(chan struct{})
	srv := &Server{Name: "quick", Logger: slog.New(slog.DiscardHandler)}
	srv.AddTool(&Tool{Name: "flip", Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
		if block.Load() {
			started <- struct{}{}
			<-release
		}
		return TextResult("ok"), nil
	}})
	inR, inW := io.Pipe()
	var out lockedBuffer
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), inR, &out) }()
	call := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"flip"}}`+"\n", id)
	}
	answered := func(n int) bool {
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if bytes.Count(out.Bytes(), []byte(`"result"`)) >= n {
				return true
			}
			time.Sleep(time.Millisecond)
		}
		return false
	}
	for i := range 20 {
		io.WriteString(inW, call(i))
		if !answered(i + 1) {
			t.Fatalf("call %d was not answered", i)
		}
	}
	tool, _ := srv.tools.Get("flip")
	if !tool.pace.Quick() {
		t.Fatalf("after 20 quick calls, flip is not quick (average %v)", tool.pace.Recent())
	}
	block.Store(true)
	var burst strings.Builder
	for i := range 8 {
		burst.WriteString(call(100 + i))
	}
	io.WriteString(inW, burst.String())
	for range 8 {
		<-started
	}
	if tool.pace.Quick() {
		t.Error("a quick tool's call blocked the reading, and the tool is still quick")
	}
	close(release)
	if !answered(28) {
		t.Fatalf("the burst was not answered: %s", out.Bytes())
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

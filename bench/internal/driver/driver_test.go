package driver

import (
	"os/exec"
	"runtime"
	"testing"
	"time"
)

func TestResponseID(t *testing.T) {
	for _, c := range []struct {
		line string
		id   int64
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":42,"result":{}}`, 42, true},
		{`{"result":{"content":[{"type":"text","text":"x"}]},"jsonrpc":"2.0","id":7}`, 7, true},
		{`{"jsonrpc":"2.0","id": 9,"error":{"code":-32601,"message":"m"}}`, 9, true},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, 0, false},
		{`{"jsonrpc":"2.0","id":3,"method":"roots/list"}`, 0, false},
		{`{"jsonrpc":"2.0","id":"s","result":{}}`, 0, false},
		{`{"result":{"tools":[{"name":"id","inputSchema":{"properties":{"id":{"type":"string"}}}}]},"jsonrpc":"2.0","id":12}`, 12, true},
	} {
		id, ok := responseID([]byte(c.line))
		if id != c.id || ok != c.ok {
			t.Errorf("responseID(%s) = %d, %v; want %d, %v", c.line, id, ok, c.id, c.ok)
		}
	}
}

func TestQuantile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i))
	}
	if q := Quantile(ds, 0.5); q != 50 {
		t.Errorf("p50 = %d", q)
	}
	if q := Quantile(ds, 0.99); q != 99 {
		t.Errorf("p99 = %d", q)
	}
	if q := Quantile(nil, 0.5); q != 0 {
		t.Errorf("empty p50 = %d", q)
	}
}

func TestCheck(t *testing.T) {
	if err := Greet.Check([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Hello, Ada! Welcome."}]}}`)); err != nil {
		t.Error(err)
	}
	if err := Greet.Check([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Hello, Ada! Welcome."}],"isError":true}}`)); err == nil {
		t.Error("an isError answer passed")
	}
	if err := BadGreet.Check([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"no"}]}}`)); err == nil {
		t.Error("an accepted invalid call passed")
	}
	if err := BadTicket.Check([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`)); err != nil {
		t.Error(err)
	}
}

// TestProcessCPU checks that a child's CPU time is read from its CPU
// clock, finer than /proc's 10 ms ticks, and is no more than wait4
// reports once the child has ended.
func TestProcessCPU(t *testing.T) {
	cmd := exec.Command("sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 5")
	if err := cmd.Start(); err != nil {
		t.Skip("no sh:", err)
	}
	defer cmd.Process.Kill()
	time.Sleep(100 * time.Millisecond)
	a := ProcessCPU(cmd.Process.Pid)
	if _, ok := processClock(cmd.Process.Pid); !ok && runtime.GOOS == "linux" {
		t.Fatal("no CPU clock for the child on Linux")
	}
	if a <= 0 {
		t.Fatalf("ProcessCPU = %v, want the child's CPU time so far", a)
	}
	if a%clockTick == 0 && runtime.GOOS == "linux" {
		t.Errorf("ProcessCPU = %v, a whole number of ticks: not the nanosecond clock", a)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if ps := cmd.ProcessState; ps != nil {
		if spent := ps.UserTime() + ps.SystemTime(); a > spent+2*clockTick {
			t.Errorf("ProcessCPU = %v before the child ended, more than the %v wait4 reports for its whole life", a, spent)
		}
	}
}

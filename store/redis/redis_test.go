package redis_test

import (
	"context"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/store"
	"github.com/mcpgen/mcpgen/runtime/store/storetest"
	"github.com/mcpgen/mcpgen/store/redis"
	goredis "github.com/redis/go-redis/v9"
)

// client returns a client of srv, closed when the test ends.
func client(t *testing.T, srv *redistest.Server) *goredis.Client {
	rdb := goredis.NewClient(&goredis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// TestStore: the store keeps the promises of store.Store, against a
// real Redis; each subtest has a prefix of its own.
func TestStore(t *testing.T) {
	srv := redistest.Start(t)
	rdb := client(t, srv)
	storetest.Run(t, func(t *testing.T) store.Store {
		return redis.New(rdb, &redis.Options{Prefix: "test-" + rand.Text()[:8] + ":"})
	})
}

// TestOpen: a URL names the server.
func TestOpen(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	s, err := redis.Open(ctx, srv.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := redis.Open(ctx, "http://nope", nil); err == nil {
		t.Error("a URL that is not Redis's was taken")
	}
	// An error never shows the password a URL holds.
	for _, bad := range []string{"redis://user:s3cret@bad host:6379", "redis://user:s3cret@host:6379/db", "redis://user:s3cret@host:port"} {
		if _, err := redis.Open(ctx, bad, nil); err == nil || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open(%q): %v", bad, err)
		}
	}
	srv.Stop()
	if _, err := redis.Open(ctx, srv.URL(), nil); err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("a Redis that does not answer: %v", err)
	}
}

// TestReplicas: two servers sharing one Redis behave as replicas: tasks,
// answers and cancellations cross from one to the other, and list
// changes and task statuses reach the listeners of both.
func TestReplicas(t *testing.T) {
	srv := redistest.Start(t)
	storetest.RunReplicas(t, redis.New(client(t, srv), nil))
}

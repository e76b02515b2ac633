package redis_test

import (
	"context"

	goredis "github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/store/redis"
)

// docsReplica holds the Go block of docs/replicas.md, a region woven in
// by internal/docs/weave, so that it compiles: it is not run, since it
// dials a Redis named redis and serves forever.
func docsReplica(ctx context.Context, srv *runtime.Server, key []byte) error {
	//docs:begin replica
	rdb := goredis.NewClient(&goredis.Options{Addr: "redis:6379"})
	srv.Store = redis.New(rdb, nil)
	srv.StateKey = key // the same on every replica
	err := srv.ListenAndServeHTTP(ctx, "0.0.0.0:8080", nil)
	//docs:end replica
	return err
}

var _ = docsReplica

// Package redis is a store.Store (package runtime/store) on Redis, for the
// replicas of an MCP server behind a load balancer: the records of tasks
// and the bus between replicas (Redis pub/sub) live in one Redis that
// every replica reaches.
//
// Start with Open, which connects to the Redis a URL names, or New, which
// takes a go-redis client of the program's own:
//
//	rdb := goredis.NewClient(&goredis.Options{Addr: "redis:6379"})
//	srv.Store = redis.New(rdb, nil)
//	srv.StateKey = key // the same 32 random bytes on every replica
//
// It is built on github.com/redis/go-redis/v9, the Redis project's own Go
// client, and takes any of its clients (one server, Sentinel, Cluster):
// every operation touches one key, so that it works on Redis Cluster too.
// Writes are atomic through Lua scripts, which Redis runs whole, one at a
// time. Pub/sub is at most once, as store.Store allows; go-redis
// reconnects a subscription that breaks, and the runtime keeps the truth
// in records. It imports runtime/store and nothing else of the runtime.
package redis

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	neturl "net/url"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/store"
	goredis "github.com/redis/go-redis/v9"
)

// A Store is a store.Store in Redis.
type Store struct {
	rdb    goredis.UniversalClient
	prefix string
}

// Options configure a Store.
type Options struct {
	// Prefix begins every key and channel the store uses, so that several
	// servers (not replicas of one server) can share a Redis. Default
	// "mcpgen:".
	Prefix string
}

// New returns a Store on the Redis that rdb reaches. opts may be nil. The
// Store does not own rdb: close it when the server is done.
func New(rdb goredis.UniversalClient, opts *Options) *Store {
	s := &Store{rdb: rdb, prefix: "mcpgen:"}
	if opts != nil && opts.Prefix != "" {
		s.prefix = opts.Prefix
	}
	return s
}

// Open returns a Store on the Redis a URL names, such as
// redis://user:password@host:6379/0 or rediss:// for TLS (see go-redis's
// ParseURL), with a client of its own that Close closes, once Redis has
// answered.
func Open(ctx context.Context, url string, opts *Options) (*Store, error) {
	o, err := goredis.ParseURL(url)
	if err != nil {
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err // which quotes the URL, password and all
		}
		return nil, fmt.Errorf("redis store: the URL: %w", err)
	}
	s := New(goredis.NewClient(o), opts)
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the store's client.
func (s *Store) Close() error { return s.rdb.Close() }

// Ping checks that Redis answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis store: %w", err)
	}
	return nil
}

// A value is a hash of two fields: v, its version, and d, its data.
// Versions of a new value start at Redis's clock in microseconds, and grow
// by one per write, so that a key that expired and was made again never
// repeats a version a client may still hold.

//go:embed put.lua
var putScript string

var put = goredis.NewScript(putScript)

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, key string) ([]byte, uint64, error) {
	vals, err := s.rdb.HMGet(ctx, s.prefix+key, "v", "d").Result()
	if err != nil {
		return nil, 0, fmt.Errorf("redis store: get %s: %w", key, err)
	}
	v, ok1 := vals[0].(string)
	d, ok2 := vals[1].(string)
	if !ok1 || !ok2 {
		return nil, 0, fmt.Errorf("redis store: get %s: %w", key, store.ErrNotFound)
	}
	version, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return nil, 0, fmt.Errorf("redis store: get %s: malformed version %.40q", key, v)
	}
	return []byte(d), version, nil
}

// Put implements store.Store.
func (s *Store) Put(ctx context.Context, key string, version uint64, value []byte, ttl time.Duration) (uint64, error) {
	n, err := put.Run(ctx, s.rdb, []string{s.prefix + key}, strconv.FormatUint(version, 10), value, max(ttl.Milliseconds(), 1)).Int64()
	switch {
	case err != nil:
		return 0, fmt.Errorf("redis store: put %s: %w", key, err)
	case n == 0:
		return 0, fmt.Errorf("redis store: put %s: %w", key, store.ErrConflict)
	}
	return uint64(n), nil
}

// Publish implements store.Store.
func (s *Store) Publish(ctx context.Context, channel string, msg []byte) error {
	if err := s.rdb.Publish(ctx, s.prefix+channel, msg).Err(); err != nil {
		return fmt.Errorf("redis store: publish on %s: %w", channel, err)
	}
	return nil
}

// subscriptionBuffer is how many messages wait for deliver; deliver does
// not block, so it is rarely more than one.
const subscriptionBuffer = 1024

// Subscribe implements store.Store. It returns once Redis has confirmed
// the subscription.
func (s *Store) Subscribe(ctx context.Context, channel string, deliver func([]byte)) (func(), error) {
	ps := s.rdb.Subscribe(ctx, s.prefix+channel)
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, fmt.Errorf("redis store: subscribe to %s: %w", channel, err)
	}
	msgs := ps.Channel(goredis.WithChannelSize(subscriptionBuffer))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m := range msgs {
			deliver([]byte(m.Payload))
		}
	}()
	return func() {
		ps.Close() // closes msgs
		<-done
	}, nil
}

var _ store.Store = (*Store)(nil)

// Package store is what a server shares beyond one request, and between
// the replicas of a server behind a load balancer: the Store interface,
// which a store adapter implements (the module
// github.com/mcpgen/mcpgen/store/redis does it on Redis), its errors, and
// Memory, the store a server without one keeps in its own memory. It
// imports nothing of the rest of the runtime, so an adapter needs nothing
// else; runtime/store/storetest checks that one does what Store says.
//
// Start with Store. A program only sets runtime.Server.Store to one that
// every replica shares (a *redis.Store of store/redis), and needs nothing
// else here. An adapter implements Store, returns errors wrapping
// ErrNotFound, ErrConflict and ErrFull where Store says, and passes
// storetest.Run and storetest.RunReplicas.
package store

import (
	"context"
	"errors"
	"sync"
	"time"
)

// A Store keeps what a server shares beyond one request, and between the
// replicas of a server behind a load balancer: the records of tasks (see
// runtime.Tool.Task) and a bus on which every replica hears what the
// others publish (so that a list change or a resource update made on one
// replica reaches the clients listening on another, and a task's
// cancellation or answers reach the replica that runs it). Set
// runtime.Server.Store to one that every replica shares; a Server without
// one keeps them in its own memory (NewMemory), which is enough for one
// process.
//
// The module github.com/mcpgen/mcpgen/store/redis implements a Store on
// Redis; runtime/store/storetest checks that an implementation does what
// this interface says. Every method may be called from many goroutines at
// once. Errors reaching the store (a connection refused, a timeout) are
// returned as they are; the runtime turns them into errors its clients
// can act on.
type Store interface {
	// Get returns the value stored under key and its version, or an
	// error wrapping ErrNotFound when key holds nothing (or its value
	// expired).
	Get(ctx context.Context, key string) (value []byte, version uint64, err error)
	// Put stores value under key, to expire after ttl (which is
	// positive), provided that key's version is still version (0: key
	// holds nothing), and returns the value's new version, never 0. When
	// the version differs it changes nothing and returns an error
	// wrapping ErrConflict. The check and the write are one atomic step,
	// for every replica at once.
	Put(ctx context.Context, key string, version uint64, value []byte, ttl time.Duration) (uint64, error)
	// Publish sends msg to every subscriber of channel, on every replica,
	// this one included. Delivery is at most once: a message published
	// while a subscriber's connection to the store is broken is lost to
	// it, so the runtime keeps the truth in records and publishes only to
	// save waiting.
	Publish(ctx context.Context, channel string, msg []byte) error
	// Subscribe calls deliver with each message published on channel
	// after Subscribe returns, in order, one at a time, until stop is
	// called; deliver must not block. ctx bounds the subscribing only.
	Subscribe(ctx context.Context, channel string, deliver func(msg []byte)) (stop func(), err error)
}

// ErrNotFound is the error a Store wraps for a key that holds nothing.
var ErrNotFound = errors.New("not found")

// ErrConflict is the error a Store wraps for a Put whose version is not
// the key's.
var ErrConflict = errors.New("the value changed meanwhile")

// ErrFull is the error a Store wraps for a Put that would hold more than
// it may.
var ErrFull = errors.New("the store holds as much as it may")

// DefaultMemoryBytes bounds what a Memory store holds unless told
// otherwise: 64 MiB of keys and values.
const DefaultMemoryBytes = 64 << 20

// A Memory store is a Store in the memory of one process: the one a
// runtime.Server without a Store of its own uses. Several Servers of one
// process can share one, as replicas share a store of their own. It holds
// at most MaxBytes of keys and values (DefaultMemoryBytes when zero); an
// expired value is dropped when it is read, and all of them when room is
// needed. Subscribers are called from the goroutine that publishes.
type Memory struct {
	// MaxBytes bounds what the store holds; set it before first use.
	MaxBytes int

	mu      sync.Mutex
	values  map[string]*memValue
	subs    map[string][]*memSub
	bytes   int
	version uint64 // the last version given: versions never repeat
}

type memValue struct {
	value   []byte
	version uint64
	expires time.Time
}

type memSub struct {
	deliver func([]byte)
}

// NewMemory returns an empty Memory store.
func NewMemory() *Memory {
	return &Memory{}
}

// memOverhead is what a key costs besides its bytes.
const memOverhead = 64

func (m *Memory) init() {
	if m.values == nil {
		m.values, m.subs = map[string]*memValue{}, map[string][]*memSub{}
	}
}

func (m *Memory) maxBytes() int {
	if m.MaxBytes > 0 {
		return m.MaxBytes
	}
	return DefaultMemoryBytes
}

// Get implements Store.
func (m *Memory) Get(ctx context.Context, key string) ([]byte, uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	v := m.values[key]
	if v == nil || !time.Now().Before(v.expires) {
		m.dropValue(key)
		return nil, 0, ErrNotFound
	}
	return append([]byte(nil), v.value...), v.version, nil
}

// Put implements Store.
func (m *Memory) Put(ctx context.Context, key string, version uint64, value []byte, ttl time.Duration) (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	now := time.Now()
	old := m.values[key]
	if old != nil && !now.Before(old.expires) {
		m.dropValue(key)
		old = nil
	}
	switch {
	case old == nil && version != 0, old != nil && old.version != version:
		return 0, ErrConflict
	}
	grow := len(value) + len(key) + memOverhead
	if old != nil {
		grow -= len(old.value) + len(key) + memOverhead
	}
	if !m.room(grow, now) {
		return 0, ErrFull
	}
	m.version++
	m.values[key] = &memValue{value: append([]byte(nil), value...), version: m.version, expires: now.Add(ttl)}
	m.bytes += grow
	return m.version, nil
}

// Bytes returns what the store holds, as MaxBytes counts it: its keys
// and values, and 64 bytes more per key, expired values included until
// they are dropped.
func (m *Memory) Bytes() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

// dropValue forgets key's value; m.mu is held.
func (m *Memory) dropValue(key string) {
	if v := m.values[key]; v != nil {
		m.bytes -= len(v.value) + len(key) + memOverhead
		delete(m.values, key)
	}
}

// room reports whether grow more bytes fit, dropping what expired if
// they do not at first; m.mu is held.
func (m *Memory) room(grow int, now time.Time) bool {
	if m.bytes+grow <= m.maxBytes() {
		return true
	}
	for k, v := range m.values {
		if !now.Before(v.expires) {
			m.dropValue(k)
		}
	}
	return m.bytes+grow <= m.maxBytes()
}

// Publish implements Store: every subscriber is called before it returns.
func (m *Memory) Publish(ctx context.Context, channel string, msg []byte) error {
	m.mu.Lock()
	m.init()
	subs := m.subs[channel]
	m.mu.Unlock()
	for _, s := range subs {
		s.deliver(msg)
	}
	return nil
}

// Subscribe implements Store.
func (m *Memory) Subscribe(ctx context.Context, channel string, deliver func([]byte)) (func(), error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	s := &memSub{deliver: deliver}
	// A new slice each time: Publish ranges over the one it read.
	m.subs[channel] = append(m.subs[channel][:len(m.subs[channel]):len(m.subs[channel])], s)
	var once sync.Once
	return func() {
		once.Do(func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			list := m.subs[channel]
			kept := make([]*memSub, 0, len(list))
			for _, x := range list {
				if x != s {
					kept = append(kept, x)
				}
			}
			if len(kept) == 0 {
				delete(m.subs, channel)
			} else {
				m.subs[channel] = kept
			}
		})
	}, nil
}

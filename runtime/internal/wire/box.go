package wire

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// A Box seals records that a server keeps where others can read them (a
// store shared by replicas, such as Redis): AES-256-GCM, so that whoever
// reads the store learns nothing of a record and cannot change it or
// pass one record off as another. Each record is bound to additional data
// (its key in the store), so that a sealed record copied under another
// key does not open. A Box also names records (Name), so that the names
// of a store's keys say nothing either.
type Box struct {
	aead  cipher.AEAD
	names []byte // the HMAC key of Name
}

// NewBox returns a Box whose keys derive from key and purpose (SHA-256 of
// both), so that boxes for different purposes never share a key even
// when they share key; an empty key means 32 random bytes, enough for
// one process.
func NewBox(key []byte, purpose string) *Box {
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	}
	return &Box{aead: newGCM(derive(key, purpose)), names: derive(key, purpose+" names")}
}

// derive is the 32-byte key for purpose: SHA-256 of purpose, a zero
// byte, and key.
func derive(key []byte, purpose string) []byte {
	h := sha256.New()
	h.Write([]byte(purpose))
	h.Write([]byte{0})
	h.Write(key)
	return h.Sum(nil)
}

// Name returns the name under which to keep the record of id in a store
// that others can list: HMAC-SHA256 of id under a key of the Box's own,
// in URL-safe base64 (43 bytes). Only a holder of the key can compute the
// name of an id, or tell which id a name stands for.
func (b *Box) Name(id string) string {
	m := hmac.New(sha256.New, b.names)
	m.Write([]byte(id))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// newGCM returns AES-256-GCM under key, 32 bytes.
func newGCM(key []byte) cipher.AEAD {
	block, err := aes.NewCipher(key)
	if err != nil {
		panic(err) // a 32-byte key is always valid
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return aead
}

// Seal encrypts and authenticates plain, bound to ad: a random nonce,
// then the ciphertext.
func (b *Box) Seal(plain, ad []byte) []byte {
	n := b.aead.NonceSize()
	out := make([]byte, n, n+len(plain)+b.aead.Overhead())
	rand.Read(out)
	return b.aead.Seal(out, out, plain, ad)
}

// ErrBadRecord is why a sealed record does not open: it was changed,
// sealed under another key or for other additional data.
var ErrBadRecord = errors.New("the record failed verification: it was changed, or sealed with another key (give every replica the same Server.StateKey)")

// Open decrypts what Seal returned for the same ad.
func (b *Box) Open(sealed, ad []byte) ([]byte, error) {
	n := b.aead.NonceSize()
	if len(sealed) < n+b.aead.Overhead() {
		return nil, ErrBadRecord
	}
	plain, err := b.aead.Open(nil, sealed[:n], sealed[n:], ad)
	if err != nil {
		return nil, ErrBadRecord
	}
	return plain, nil
}

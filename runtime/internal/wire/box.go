package wire

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"errors"
)

// A Box seals records that a server keeps where others can read them (a
// store shared by replicas, such as Redis): AES-256-GCM, so that whoever
// reads the store learns nothing of a record and cannot change it or
// pass one record off as another. Each record is bound to additional data
// (its key in the store), so that a sealed record copied under another
// key does not open.
type Box struct {
	aead cipher.AEAD
}

// NewBox returns a Box whose key derives from key and purpose (SHA-256 of
// both), so that boxes for different purposes never share a key even
// when they share key; an empty key means 32 random bytes, enough for
// one process.
func NewBox(key []byte, purpose string) *Box {
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	}
	h := sha256.New()
	h.Write([]byte(purpose))
	h.Write([]byte{0})
	h.Write(key)
	return &Box{aead: newGCM(h.Sum(nil))}
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

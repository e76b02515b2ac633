package schema

import (
	"net/mail"
	"net/netip"
	"net/url"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// A format is a "format" keyword that the validator asserts: a check of a
// string, and what a valid one looks like, for the message. The formats
// below are those whose meaning is plain and whose check is exact; any
// other format (hostname, uri-reference, time, …) is an annotation, as
// JSON Schema 2020-12 makes every format by default.
type format struct {
	name  string
	valid func(v jsonvalue.Value) bool
	like  string // the message's "must be …"
}

var formats = map[string]*format{
	"date-time": {"date-time", validDateTime, `a date and time in RFC 3339 format, such as "2026-07-28T09:30:00Z"`},
	"date":      {"date", validDate, `a date in RFC 3339 format, such as "2026-07-28"`},
	"email":     {"email", validEmail, `an email address, such as "ada@example.com"`},
	"uri":       {"uri", validURI, `an absolute URI, such as "https://example.com/a"`},
	"uuid":      {"uuid", validUUID, `a UUID, such as "123e4567-e89b-12d3-a456-426614174000"`},
	"ipv4":      {"ipv4", validIPv4, `an IPv4 address, such as "192.0.2.1"`},
	"ipv6":      {"ipv6", validIPv6, `an IPv6 address, such as "2001:db8::1"`},
}

// validDateTime accepts what a time.Time field decodes, with the strict
// RFC 3339 parser of package time (which JSON Schema's date-time also
// names, except that Go wants an upper-case T and Z and no leap second).
// Checking the same way means that a time the validator accepts decodes,
// and one it refuses is reported with the other violations, in their
// words, rather than by the decoder. (time.Time's UnmarshalJSON reads the
// JSON text undecoded, so a date-time with a character written as an
// escape, which no JSON encoder does for these characters, passes here and
// fails there.)
func validDateTime(v jsonvalue.Value) bool {
	var t time.Time
	return t.UnmarshalText([]byte(v.Str())) == nil
}

// validDate accepts an RFC 3339 full-date: four-digit year, two-digit
// month and day, a day that the month has.
func validDate(v jsonvalue.Value) bool {
	s := v.Str()
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && len(s) == len(time.DateOnly)
}

// validEmail accepts an RFC 5322 address without a display name or angle
// brackets: ada@example.com, not "Ada <ada@example.com>".
func validEmail(v jsonvalue.Value) bool {
	s := v.Str()
	a, err := mail.ParseAddress(s)
	return err == nil && a.Name == "" && a.Address == s
}

// validURI accepts an absolute URI: a scheme, and nothing that URL parsing
// refuses (spaces, bad escapes, a bad host).
func validURI(v jsonvalue.Value) bool {
	u, err := url.Parse(v.Str())
	return err == nil && u.Scheme != ""
}

// validUUID accepts the 8-4-4-4-12 hexadecimal form of RFC 9562.
func validUUID(v jsonvalue.Value) bool {
	s := v.Str()
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		default:
			return false
		}
	}
	return true
}

// validIPv4 accepts a dotted-quad IPv4 address, without leading zeros.
func validIPv4(v jsonvalue.Value) bool {
	a, err := netip.ParseAddr(v.Str())
	return err == nil && a.Is4()
}

// validIPv6 accepts an IPv6 address without a zone.
func validIPv6(v jsonvalue.Value) bool {
	a, err := netip.ParseAddr(v.Str())
	return err == nil && a.Is6() && a.Zone() == ""
}

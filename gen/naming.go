package gen

import (
	"strings"
	"unicode"
)

// snakeCase turns a Go name into the default name of a tool, resource or
// prompt: its words, lower-cased, joined by underscores. CreateTicket is
// create_ticket, GetHTTPStatus get_http_status, RecentURLs recent_urls,
// OAuthLogin oauth_login, IPv6Lookup ipv6_lookup, ID2Name id2_name.
func snakeCase(name string) string {
	ws := words(name)
	for i, w := range ws {
		ws[i] = strings.ToLower(w)
	}
	return strings.Join(ws, "_")
}

// words splits a Go identifier into words, as Go names are read:
//
//   - an upper-case letter starts a word, and a run of them is an
//     initialism, except that its last letter starts the next word when a
//     lower-case letter follows (HTTPServer: HTTP, Server);
//   - an s after an initialism is its plural, not a word (RecentURLs:
//     Recent, URLs; HTMLToPDFs: HTML, To, PDFs);
//   - a run of the common initialisms is split into them (JSONAPI: JSON,
//     API), and OAuth, IPv4 and IPv6 are one word each;
//   - digits stay with the word before them (ID2Name: ID2, Name);
//   - underscores separate words and are dropped.
func words(name string) []string {
	rs := []rune(name)
	var out []string
	word := func(w []rune) {
		if len(w) > 0 {
			out = append(out, string(w))
		}
	}
	for i := 0; i < len(rs); {
		if n := mixedInitialism(rs[i:]); n > 0 {
			word(rs[i : i+n])
			i += n
			continue
		}
		r := rs[i]
		switch {
		case r == '_':
			i++
		case unicode.IsUpper(r):
			j := i
			for j < len(rs) && unicode.IsUpper(rs[j]) {
				j++
			}
			k := j
			for k < len(rs) && unicode.IsLower(rs[k]) {
				k++
			}
			switch {
			case j-i == 1 || k == j: // Word, or an initialism alone
				if k == j {
					out = append(out, initialisms(string(rs[i:j]))...)
				} else {
					word(rs[i:k])
				}
			case k-j == 1 && rs[j] == 's': // URLs
				ws := initialisms(string(rs[i:j]))
				ws[len(ws)-1] += "s"
				out = append(out, ws...)
			default: // HTTPServer
				out = append(out, initialisms(string(rs[i:j-1]))...)
				word(rs[j-1 : k])
			}
			i = k
		default: // a lower-case word at the start, or digits
			j := i
			for j < len(rs) && rs[j] != '_' && !unicode.IsUpper(rs[j]) {
				j++
			}
			if unicode.IsDigit(r) && len(out) > 0 && i > 0 && rs[i-1] != '_' {
				out[len(out)-1] += string(rs[i:j]) // ID2, UTF8, Base64
			} else {
				word(rs[i:j])
			}
			i = j
		}
	}
	return out
}

// mixedInitialism returns the length of the initialism with lower-case
// letters that s starts with, if it ends there: OAuth, IPv4, IPv6.
func mixedInitialism(s []rune) int {
	for _, w := range []string{"OAuth", "IPv4", "IPv6"} {
		n := len(w)
		if len(s) >= n && string(s[:n]) == w && (len(s) == n || !unicode.IsLower(s[n]) && !unicode.IsDigit(s[n])) {
			return n
		}
	}
	return 0
}

// commonInitialisms are those of golint and staticcheck (ST1003).
var commonInitialisms = map[string]bool{
	"ACL": true, "AMQP": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DB": true,
	"DNS": true, "EOF": true, "GID": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true,
	"ID": true, "IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "RTP": true, "SIP": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true,
	"TCP": true, "TLS": true, "TS": true, "TTL": true, "UDP": true, "UI": true, "UID": true,
	"URI": true, "URL": true, "UUID": true, "VM": true, "XML": true, "XMPP": true, "XSRF": true,
	"XSS": true,
}

// initialisms splits a run of upper-case letters into common initialisms
// when it is made of nothing else (JSONAPI: JSON, API), trying the longest
// first; any other run is one word.
func initialisms(run string) []string {
	var split func(s string) []string
	split = func(s string) []string {
		for n := len(s); n > 0; n-- {
			if !commonInitialisms[s[:n]] {
				continue
			}
			if n == len(s) {
				return []string{s}
			}
			if rest := split(s[n:]); rest != nil {
				return append([]string{s[:n]}, rest...)
			}
		}
		return nil
	}
	if ws := split(run); ws != nil {
		return ws
	}
	return []string{run}
}

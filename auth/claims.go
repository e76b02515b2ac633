package auth

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// tokenInfo reads what the runtime needs from a token's claims, or from an
// introspection response, which uses the same names (RFC 7662 §2.2,
// RFC 9068 §2.2): sub; client_id, else azp (OpenID Connect); iss; aud, a
// string or a list; scope, a space-separated string (RFC 8693 §4.2), else
// scp, a list (Hydra, Azure AD) or a string; exp. A claim of the wrong JSON
// type makes the token invalid rather than silently empty.
func tokenInfo(claims map[string]any) (*runtime.TokenInfo, error) {
	ti := &runtime.TokenInfo{Claims: claims}
	var err error
	str := func(name string) string {
		v, ok := claims[name]
		if !ok || err != nil {
			return ""
		}
		s, ok := v.(string)
		if !ok {
			err = fmt.Errorf("%w: claim %s is not a string", runtime.ErrInvalidToken, name)
		}
		return s
	}
	ti.Subject = str("sub")
	ti.Issuer = str("iss")
	if ti.ClientID = str("client_id"); ti.ClientID == "" {
		ti.ClientID = str("azp")
	}
	if err != nil {
		return nil, err
	}
	if ti.Audience, err = stringList(claims, "aud", false); err != nil {
		return nil, err
	}
	name := "scope"
	if _, ok := claims[name]; !ok {
		name = "scp"
	}
	if ti.Scopes, err = stringList(claims, name, true); err != nil {
		return nil, err
	}
	if v, ok := claims["exp"]; ok {
		exp, ok := v.(float64)
		if !ok {
			return nil, fmt.Errorf("%w: claim exp is not a number", runtime.ErrInvalidToken)
		}
		ti.Expiry = time.Unix(int64(exp), 0)
	}
	return ti, nil
}

// stringList reads a claim that is a list of strings or one string: one
// value (aud, RFC 7519 §4.1.3), or space-separated values when split is
// set (scope).
func stringList(claims map[string]any, name string, split bool) ([]string, error) {
	switch v := claims[name].(type) {
	case nil:
		return nil, nil
	case string:
		if split {
			return strings.Fields(v), nil
		}
		return []string{v}, nil
	case []any:
		list := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%w: claim %s holds a %T, not a string", runtime.ErrInvalidToken, name, e)
			}
			list = append(list, s)
		}
		return list, nil
	}
	return nil, fmt.Errorf("%w: claim %s is neither a string nor a list of strings", runtime.ErrInvalidToken, name)
}

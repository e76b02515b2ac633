package auth

import (
	"slices"
	"testing"
)

func TestDiscoveryURLs(t *testing.T) {
	for _, tc := range []struct {
		issuer string
		want   []string
	}{
		{"https://as.example", []string{
			"https://as.example/.well-known/oauth-authorization-server",
			"https://as.example/.well-known/openid-configuration",
		}},
		{"https://as.example/", []string{
			"https://as.example/.well-known/oauth-authorization-server",
			"https://as.example/.well-known/openid-configuration",
		}},
		{"https://as.example/realms/mcp", []string{
			"https://as.example/.well-known/oauth-authorization-server/realms/mcp",
			"https://as.example/.well-known/openid-configuration/realms/mcp",
			"https://as.example/realms/mcp/.well-known/openid-configuration",
		}},
	} {
		got, err := discoveryURLs(tc.issuer)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("discoveryURLs(%q) = %q, %v; want %q", tc.issuer, got, err, tc.want)
		}
	}
}

package gen

import "testing"

func TestSnakeCase(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"CreateTicket", "create_ticket"},
		{"Greet", "greet"},
		{"greet", "greet"},
		{"GetHTTPStatus", "get_http_status"},
		{"ID2Name", "id2_name"},
		// The plural of an initialism belongs to it.
		{"RecentURLs", "recent_urls"},
		{"ListIDs", "list_ids"},
		{"MyAPIs", "my_apis"},
		{"HTMLToPDFs", "html_to_pdfs"},
		{"URLsToFetch", "urls_to_fetch"},
		{"GetAs", "get_as"},
		// Initialisms with lower-case letters are one word.
		{"OAuthLogin", "oauth_login"},
		{"IPv6Lookup", "ipv6_lookup"},
		{"LookupIPv4", "lookup_ipv4"},
		{"IPvX", "i_pv_x"},
		// Runs of initialisms are split into them; other runs stay whole.
		{"JSONAPIClient", "json_api_client"},
		{"HTTPAPIs", "http_apis"},
		{"ServeCSV", "serve_csv"},
		{"IDEConfig", "ide_config"},
		{"HTTPServer", "http_server"},
		{"HTTPSServer", "https_server"},
		{"APIStatus", "api_status"},
		// Digits, underscores.
		{"UTF8Decode", "utf8_decode"},
		{"Base64Encode", "base64_encode"},
		{"V2beta", "v2beta"},
		{"Get_Item", "get_item"},
		{"get_item", "get_item"},
		{"X", "x"},
		{"ÉtéTime", "été_time"},
	} {
		if got := snakeCase(c.in); got != c.want {
			t.Errorf("snakeCase(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

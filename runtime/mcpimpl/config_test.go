package mcpimpl

import (
	"strings"
	"testing"
	"time"
)

// testConfig is a configuration as a //mcp:config struct would be.
type testConfig struct {
	Key     string  `json:"key"`
	Dir     string  `json:"dir,omitempty"`
	Days    int     `json:"days,omitempty"`
	Ratio   float64 `json:"ratio,omitempty"`
	Verbose bool    `json:"verbose,omitempty"`
}

const testConfigSchema = `{
  "type": "object",
  "properties": {
    "key": {"type": "string", "minLength": 4},
    "dir": {"type": "string"},
    "days": {"type": "integer", "minimum": 1, "maximum": 14, "default": 3},
    "ratio": {"type": "number"},
    "verbose": {"type": "boolean"}
  },
  "required": ["key"],
  "additionalProperties": false
}`

var testConfigVars = []ConfigVar{
	{Name: "key", Env: "T_KEY", Kind: ConfigString},
	{Name: "dir", Env: "T_DIR", Kind: ConfigString},
	{Name: "days", Env: "T_DAYS", Kind: ConfigNumber, Default: "3"},
	{Name: "ratio", Env: "T_RATIO", Kind: ConfigNumber},
	{Name: "verbose", Env: "T_VERBOSE", Kind: ConfigBool},
}

func loadTestConfig(env map[string]string, c *testConfig) error {
	decode := func(v Value, dst *testConfig) error { return DecodeJSON(v, dst) }
	return LoadEnv(func(k string) string { return env[k] }, testConfigSchema, c, decode, testConfigVars...)
}

func TestLoadEnv(t *testing.T) {
	var c testConfig
	err := loadTestConfig(map[string]string{"T_KEY": "secret", "T_DIR": "/srv/notes", "T_DAYS": "7", "T_RATIO": "0.5", "T_VERBOSE": "true"}, &c)
	if want := (testConfig{Key: "secret", Dir: "/srv/notes", Days: 7, Ratio: 0.5, Verbose: true}); err != nil || c != want {
		t.Errorf("LoadEnv = %+v, %v; want %+v", c, err, want)
	}
}

// TestLoadEnvUnset checks that a variable that is not set, empty, or
// still the manifest's placeholder takes its default, or leaves its field
// as it was.
func TestLoadEnvUnset(t *testing.T) {
	c := testConfig{Dir: "/kept"}
	err := loadTestConfig(map[string]string{"T_KEY": "secret", "T_DIR": "${user_config.dir}", "T_VERBOSE": ""}, &c)
	if want := (testConfig{Key: "secret", Dir: "/kept", Days: 3}); err != nil || c != want {
		t.Errorf("LoadEnv = %+v, %v; want %+v", c, err, want)
	}
}

// TestLoadEnvProblems checks that every problem is reported at once, each
// naming its variable, in the validator's words.
func TestLoadEnvProblems(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{}, []string{"- T_KEY: is not set, and the server needs it"}},
		{map[string]string{"T_KEY": "${user_config.key}"}, []string{"- T_KEY: is not set, and the server needs it"}},
		{map[string]string{"T_KEY": "abc"}, []string{"- T_KEY: must be at least 4 characters long"}},
		{
			map[string]string{"T_KEY": "secret", "T_DAYS": "abc", "T_RATIO": "1,5", "T_VERBOSE": "maybe"},
			[]string{`- T_DAYS: must be a number; got "abc"`, `- T_RATIO: must be a number; got "1,5"`, `- T_VERBOSE: must be true or false; got "maybe"`},
		},
		{map[string]string{"T_KEY": "secret", "T_DAYS": "30"}, []string{"- T_DAYS: must be at most 14; got 30"}},
		{map[string]string{"T_KEY": "secret", "T_DAYS": "2.5"}, []string{"- T_DAYS: must be an integer; got 2.5"}},
	} {
		var c testConfig
		err := loadTestConfig(tc.env, &c)
		if err == nil {
			t.Errorf("%v: no error", tc.env)
			continue
		}
		if !strings.HasPrefix(err.Error(), "invalid configuration:\n") {
			t.Errorf("%v: error %q does not say what is wrong", tc.env, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q lacks %q", tc.env, err, w)
			}
		}
		if c != (testConfig{}) {
			t.Errorf("%v: a configuration with problems was decoded: %+v", tc.env, c)
		}
	}
}

// TestLoadEnvDuration: a time.Duration's variable holds a Go duration,
// which reaches the field as its nanoseconds; a number without a unit, or
// anything else, is refused in words that show the form.
func TestLoadEnvDuration(t *testing.T) {
	type config struct {
		Wait time.Duration `json:"wait,omitempty"`
	}
	const schemaText = `{"type":"object","properties":{"wait":{"type":"integer","minimum":1000000000}},"additionalProperties":false}`
	load := func(env map[string]string) (config, error) {
		var c config
		err := LoadEnv(func(k string) string { return env[k] }, schemaText, &c, DecodeJSON[config],
			ConfigVar{Name: "wait", Env: "T_WAIT", Kind: ConfigDuration, Default: "30s"})
		return c, err
	}
	for _, tc := range []struct {
		text string
		want time.Duration
	}{{"", 30 * time.Second}, {"1h30m", 90 * time.Minute}, {"2.5s", 2500 * time.Millisecond}} {
		c, err := load(map[string]string{"T_WAIT": tc.text})
		if err != nil || c.Wait != tc.want {
			t.Errorf("T_WAIT=%q: %v, %v; want %v", tc.text, c.Wait, err, tc.want)
		}
	}
	for text, want := range map[string]string{
		"30":    `- T_WAIT: must be a duration such as 30s or 1h30m; got "30"`,
		"soon":  `- T_WAIT: must be a duration such as 30s or 1h30m; got "soon"`,
		"500ms": `- T_WAIT: must be at least 1000000000; got 500000000`,
	} {
		if _, err := load(map[string]string{"T_WAIT": text}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("T_WAIT=%q: %v; want %q", text, err, want)
		}
	}
}

// TestLoadEnvSecret: an error about a Secret variable says what its value
// must be (a pattern, a format, one of some values, a length, a number)
// and nothing of the value, which hosts would otherwise log; a variable
// that is not secret is still quoted.
func TestLoadEnvSecret(t *testing.T) {
	const schemaText = `{
  "type": "object",
  "properties": {
    "token": {"type": "string", "pattern": "^tok_[a-z]+$"},
    "mail": {"type": "string", "format": "email"},
    "pin": {"type": "string", "enum": ["alpha", "beta"]},
    "key": {"type": "string", "minLength": 64},
    "n": {"type": "number"},
    "plain": {"type": "string", "pattern": "^[a-z]+$"}
  }
}`
	vars := []ConfigVar{
		{Name: "token", Env: "T_TOKEN", Kind: ConfigString, Secret: true},
		{Name: "mail", Env: "T_MAIL", Kind: ConfigString, Secret: true},
		{Name: "pin", Env: "T_PIN", Kind: ConfigString, Secret: true},
		{Name: "key", Env: "T_KEY", Kind: ConfigString, Secret: true},
		{Name: "n", Env: "T_N", Kind: ConfigNumber, Secret: true},
		{Name: "plain", Env: "T_PLAIN", Kind: ConfigString},
	}
	env := map[string]string{"T_TOKEN": "sk-SECRET1", "T_MAIL": "SECRET2", "T_PIN": "SECRET3", "T_KEY": "SECRET4", "T_N": "SECRET5", "T_PLAIN": "Shown"}
	var c struct{}
	err := LoadEnv(func(k string) string { return env[k] }, schemaText, &c, func(Value, *struct{}) error { return nil }, vars...)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`- T_TOKEN: must match the pattern "^tok_[a-z]+$" (the value is secret, and not shown)`,
		`- T_MAIL: must be an email address, such as "ada@example.com" (the value is secret, and not shown)`,
		`- T_PIN: must be one of "alpha", "beta" (the value is secret, and not shown)`,
		`- T_KEY: must be at least 64 characters long (the value is secret, and not shown)`,
		`- T_N: must be a number (the value is secret, and not shown)`,
		`- T_PLAIN: must match the pattern "^[a-z]+$"; got "Shown"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "SECRET") {
		t.Errorf("the error shows a secret:\n%v", err)
	}
}

package mcpimpl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
)

// A ConfigVar is one field of a struct marked //mcp:config, as LoadEnv
// reads it: the environment variable that holds it, and how its text
// becomes the JSON value the struct's schema checks.
type ConfigVar struct {
	Name    string     // the field's JSON name, a property of the schema
	Env     string     // the environment variable
	Kind    ConfigKind // how the variable's text is read
	Default string     // the text used when the variable is not set; "" for none
	// Secret says that the value is never shown (mcp:"secret"): an error
	// about it says what it must be, and nothing of what it is.
	Secret bool
}

// A ConfigKind says how the text of an environment variable is read.
type ConfigKind uint8

const (
	ConfigString   ConfigKind = iota // the text as it is
	ConfigNumber                     // a JSON number: 10, 2.5, -1e3
	ConfigBool                       // true or false (also 1, 0, t, f, TRUE, FALSE, …)
	ConfigDuration                   // a Go duration (30s, 1h30m), as nanoseconds
)

// LoadEnv fills dst from the environment variables vars name, read with
// getenv, as a server's install files pass its configuration: it reads
// each variable by its kind, checks the object against schemaText with the
// validator that checks tools' arguments, and decodes it. A variable that
// is not set takes its Default, if it has one. Every problem is reported,
// each naming its variable, in one error, which quotes no Secret value.
func LoadEnv[T any](getenv func(string) string, schemaText string, dst *T, decode func(Value, *T) error, vars ...ConfigVar) error {
	s, err := schema.Compile([]byte(schemaText))
	if err != nil {
		return fmt.Errorf("configuration schema: %w", err) // the generated code is broken
	}
	var problems []string
	obj := []byte{'{'}
	for _, cv := range vars {
		text := getenv(cv.Env)
		if unset(text, cv.Name) {
			if cv.Default == "" {
				continue
			}
			text = cv.Default
		}
		value, err := configValue(cv.Kind, text)
		if err != nil {
			problems = append(problems, cv.Env+": "+shown(cv, err.Error()))
			continue
		}
		if len(obj) > 1 {
			obj = append(obj, ',')
		}
		obj = jsonvalue.AppendString(obj, cv.Name)
		obj = append(obj, ':')
		obj = append(obj, value...)
	}
	obj = append(obj, '}')
	v, err := jsonvalue.Parse(obj)
	if err != nil {
		return fmt.Errorf("configuration: %w", err) // configValue writes valid JSON
	}
	for _, vio := range s.Validate(v) {
		problems = append(problems, configProblem(vio, vars))
	}
	if len(problems) > 0 {
		return errors.New("invalid configuration:\n- " + strings.Join(problems, "\n- "))
	}
	return decode(Value{v: v}, dst)
}

// unset reports whether a variable's text means that no value was given:
// it is empty, or it is still the placeholder ${user_config.<name>} of
// the MCP bundle's manifest, which a host may leave as it is for a setting
// the user left empty.
func unset(text, name string) bool {
	return text == "" || text == "${user_config."+name+"}"
}

// shown is msg, a problem with cv's text, as an error may show it: for a
// secret, what the text must be, without the text.
func shown(cv ConfigVar, msg string) string {
	if !cv.Secret {
		return msg
	}
	return schema.Violation{Msg: msg}.Rule() + " (the value is secret, and not shown)"
}

// configValue reads the text of a variable as the JSON value of its kind:
// a problem with it ends "; got" and the text, as a Violation's message
// does.
func configValue(kind ConfigKind, text string) ([]byte, error) {
	switch kind {
	case ConfigNumber:
		v, err := jsonvalue.Parse([]byte(text))
		if err != nil || v.Kind() != jsonvalue.Number {
			return nil, fmt.Errorf("must be a number; got %s", strconv.Quote(text))
		}
		return []byte(text), nil
	case ConfigBool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, fmt.Errorf("must be true or false; got %s", strconv.Quote(text))
		}
		return strconv.AppendBool(nil, b), nil
	case ConfigDuration:
		d, err := time.ParseDuration(text)
		if err != nil {
			return nil, fmt.Errorf("must be a duration such as 30s or 1h30m; got %s", strconv.Quote(text))
		}
		return strconv.AppendInt(nil, int64(d), 10), nil
	}
	return jsonvalue.AppendString(nil, text), nil
}

// configProblem words a violation of the configuration's schema for the
// person who sets the variables: it names the variable instead of the
// field, and says that a required one is not set.
func configProblem(vio schema.Violation, vars []ConfigVar) string {
	for _, cv := range vars {
		if vio.Path != cv.Name {
			continue
		}
		if vio.Msg == "is required" {
			return cv.Env + ": is not set, and the server needs it"
		}
		if cv.Secret {
			return cv.Env + ": " + vio.Rule() + " (the value is secret, and not shown)"
		}
		return cv.Env + ": " + vio.Msg
	}
	return "configuration: " + vio.Msg
}

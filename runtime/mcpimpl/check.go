package mcpimpl

import (
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// The runtime's own checks, which mcpgen runs when it generates a file so
// that what the server would refuse at start-up or at a call is reported
// at generate time, where the user's code is.

// CheckHeaderParams returns why runtime.Server.AddTool would refuse a
// tool whose input schema is inputSchema for its x-mcp-header
// annotations (a name that is not a header token, a property that is not
// a string, integer or boolean, a header named twice, an annotation
// clients cannot reach), or nil.
func CheckHeaderParams(inputSchema string) error {
	_, err := wire.HeaderParams([]byte(inputSchema))
	return err
}

// ValidSkillName reports whether name is a skill's name as
// runtime.Server.AddSkill takes it (the Agent Skills specification's
// rules).
func ValidSkillName(name string) bool { return wire.ValidSkillName(name) }

// CheckSchema returns why the runtime's validator would refuse to compile
// text as a JSON Schema, or nil.
func CheckSchema(text string) error {
	_, err := schema.Compile([]byte(text))
	return err
}

// CheckInstance returns why value, JSON text, is not an instance of the
// JSON Schema text, as the runtime's validator words it, or nil.
func CheckInstance(schemaText, value string) error {
	s, err := schema.Compile([]byte(schemaText))
	if err != nil {
		return err
	}
	v, err := jsonvalue.Parse([]byte(value))
	if err != nil {
		return err
	}
	var errs []error
	for _, vio := range s.Validate(v) {
		if vio.Path == "" {
			errs = append(errs, errors.New(vio.Msg))
		} else {
			errs = append(errs, fmt.Errorf("%s: %s", vio.Path, vio.Msg))
		}
	}
	return errors.Join(errs...)
}

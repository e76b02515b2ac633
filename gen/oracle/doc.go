// Package oracle holds the differential test of mcpgen's schemas: each
// golden schema, derived statically from go/types, is compared with what
// invopop/jsonschema's Reflector derives from the same Go type at run
// time. It is a separate package because it imports the golden packages,
// which must compile before the golden test can regenerate them.
package oracle

// Package v has the name of a local of the generated functions (the
// value a resource template's variable is parsed into): names_taken
// imports it, and its generated file must too, under another name.
package v

// Level is how loud a message is.
type Level string

const (
	Quiet Level = "quiet"
	Loud  Level = "loud"
)

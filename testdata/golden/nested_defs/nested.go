// Package nested_defs: named structs go to $defs, once each, and are
// referenced with $ref; anonymous structs are inlined.
package nested_defs

// Address is a postal address.
type Address struct {
	Street string `json:"street"`
	City   string `json:"city"` // City name.
}

// Person is someone with addresses.
type Person struct {
	Name string    `json:"name"`
	Home Address   `json:"home"` // Where the person lives.
	Work *Address  `json:"work,omitempty"`
	Past []Address `json:"past,omitempty"`
	Meta struct {
		Source string `json:"source"`
	} `json:"meta"`
}

type Input struct {
	Person Person   `json:"person"`
	Extra  []Person `json:"extra,omitempty"`
}

// Save saves people.
//
//mcp:tool
func Save(in Input) (Person, error) { return in.Person, nil }

// Package err_tags: malformed or misplaced jsonschema tags are errors,
// pointing at the keyword inside the tag.
package err_tags

type Input struct {
	Days    int     `json:"days" jsonschema:"minimum=one"`
	Name    string  `json:"name" jsonschema:"minimum=1"`
	Count   int     `json:"count" jsonschema:"minLength=2"`
	Code    string  `json:"code" jsonschema:"pattern=[a-z"`
	Unknown string  `json:"unknown" jsonschema:"colour=red"`
	Free    string  `json:"free" jsonschema:"The free-text form of google/jsonschema-go"`
	Typed   string  `json:"typed" jsonschema:"type=integer"`
	List    []int   `json:"list" jsonschema:"maxItems=-1"`
	Flag    bool    `json:"flag" jsonschema:"default=yes"`
	Enum    int     `json:"enum" jsonschema:"enum=x"`
	Step    float64 `json:"step" jsonschema:"multipleOf=0"`
	Len     string  `json:"len" jsonschema:"maxLength=ten"`
	Escaped string  `json:"escaped" jsonschema:"pattern=^a\,b$"`
}

// Tagged takes badly tagged fields.
//
//mcp:tool
func Tagged(in Input) (string, error) { return "", nil }

// Package tags honours invopop/jsonschema's tag conventions.
package tags

type Input struct {
	Name     string   `json:"name,omitempty" jsonschema:"title=Name,minLength=1,maxLength=40,pattern=^[a-z]+(\\,[a-z]+)*$,example=alice,default=bob"`
	Email    string   `json:"email" jsonschema:"format=email"`
	Age      int      `json:"age,omitempty" jsonschema:"minimum=0,maximum=150,default=30"`
	Ratio    float64  `json:"ratio" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1,multipleOf=0.25"`
	Tags     []string `json:"tags" jsonschema:"minItems=1,maxItems=3,uniqueItems=true,minLength=2"`
	Codes    []string `json:"codes,omitempty" jsonschema:"pattern=^[A-Z]{3}$,default=USD,default=EUR"`
	Enabled  bool     `json:"enabled,omitempty" jsonschema:"default=true"`
	Extra    string   `json:"extra" jsonschema_extras:"x-order=1,x-flag=true,x-list=a,x-list=b"`
	ReadOnly string   `json:"readOnly,omitempty" jsonschema:"readOnly=true"`
}

// Tagged takes tagged fields.
//
//mcp:tool
func Tagged(in Input) (string, error) { return "", nil }

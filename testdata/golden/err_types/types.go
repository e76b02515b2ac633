// Package err_types: types that have no JSON form are reported with the
// path of the field that holds them.
package err_types

import "net/url"

type Stringer interface{ String() string }

type Inner struct {
	Callback func() `json:"callback"`
}

type Input struct {
	Ch      chan int       `json:"ch"`
	Fn      func(int) bool `json:"fn"`
	C       complex128     `json:"c"`
	S       Stringer       `json:"s"`
	IntKeys map[int]string `json:"intKeys"`
	Inner   Inner          `json:"inner"`
	List    []chan string  `json:"list"`
	URL     url.URL        `json:"url"`
}

// Bad takes unsupported types.
//
//mcp:tool
func Bad(in Input) (string, error) { return "", nil }

// BadOut returns an unsupported type.
//
//mcp:tool
func BadOut() (chan int, error) { return nil, nil }

package main

//go:generate go tool mcpgen

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// Unit is a temperature unit.
type Unit string

const (
	Celsius    Unit = "celsius"
	Fahrenheit Unit = "fahrenheit"
)

type ConvertInput struct {
	Value float64 `json:"value"` // The temperature to convert.
	To    Unit    `json:"to"`    // The unit to convert to.
}

// Convert converts a temperature between Celsius and Fahrenheit.
//
//mcp:tool
func Convert(ctx context.Context, in ConvertInput) (string, error) {
	if in.To == Fahrenheit {
		return fmt.Sprintf("%.1f°F", in.Value*9/5+32), nil
	}
	return fmt.Sprintf("%.1f°C", (in.Value-32)*5/9), nil
}

func main() {
	// Bound the run: the CLI retries a failing API for minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := claude.Query(ctx, "What is 100°F in Celsius?", claude.Options{
		Servers:      map[string]*runtime.Server{"hello": NewServer()},
		AllowedTools: []string{"mcp__hello__convert"},
	}, func(m claude.Message) { fmt.Printf("%s\n", m.Raw()) })
	if err != nil {
		log.Fatal(err) // no CLI, the CLI failed, or ctx ended
	}
	if err := res.Err(); err != nil {
		log.Fatal(err) // the run failed: "Not logged in · Please run /login", an API error, …
	}
	fmt.Println(res.Result)
}

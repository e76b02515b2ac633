package main

import (
	"context"
	"fmt"
)

// Config is what a person sets when installing the server, read from the
// environment by the generated LoadEnv.
//
//mcp:config
type Config struct {
	// Greeting is the word a greeting begins with.
	Greeting string `json:"greeting,omitempty" jsonschema:"default=Hello,maxLength=40"`
}

// Greeter holds what the tools need: here, the configuration.
type Greeter struct {
	Config Config
}

// GreetInput names whom to greet.
type GreetInput struct {
	Name string `json:"name" jsonschema:"minLength=1,maxLength=100"` // The person's name.
}

// Greet a person by name, with the configured greeting.
//
//mcp:tool scopes=greet
func (g *Greeter) Greet(ctx context.Context, in GreetInput) (string, error) {
	return fmt.Sprintf("%s, %s!", g.Config.Greeting, in.Name), nil
}

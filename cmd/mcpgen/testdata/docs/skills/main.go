package main

import (
	"context"
	"embed"
	"log"
)

//go:embed skills
//mcp:skills
var skillFiles embed.FS

func main() {
	if err := NewServer().ServeStdio(context.Background()); err != nil {
		log.Fatal(err)
	}
}

// Package install serves forecasts from a weather service; its command,
// weather, is what the install files run.
//
//mcp:server name=weather version=1.2.0 title="Weather"
//mcp:install command=weather homepage=https://example.com/weather license=Apache-2.0 icon=https://example.com/weather.png
//mcp:install oci=ghcr.io/mcpgen/weather mcpb=https://github.com/mcpgen/mcpgen/releases/download/v{version}/weather.mcpb
//mcp:install remote=https://weather.example.com/mcp
package install

import (
	"context"
	"fmt"
	"os"
	"time"
)

// Unit is a temperature unit.
type Unit string

const (
	Celsius    Unit = "celsius"
	Fahrenheit Unit = "fahrenheit"
)

// Config is how the server reaches the weather service.
//
//mcp:config
type Config struct {
	// APIKey is the weather service's key.
	APIKey string `json:"api_key" mcp:"secret"`
	// Cache is a folder for answers already fetched.
	Cache string `json:"cache,omitempty" mcp:"directory,env=WEATHER_CACHE_DIR"`
	// Days of forecast to fetch.
	Days int `json:"days,omitempty" jsonschema:"title=Forecast days,minimum=1,maximum=14,default=3"`
	// Units the forecasts are given in.
	Units Unit `json:"units,omitempty" jsonschema:"default=celsius"`
	// Verbose logs every request.
	Verbose bool `json:"verbose,omitempty"`
	// Timeout bounds each request to the weather service.
	Timeout time.Duration `json:"timeout,omitempty" jsonschema:"default=30s,minimum=1s"`
}

// ForecastInput names a place.
type ForecastInput struct {
	City string `json:"city"` // The city, such as Lisbon.
}

// Forecast tells the weather of the coming days in a city.
//
//mcp:tool readOnly
func Forecast(ctx context.Context, in ForecastInput) (string, error) {
	return fmt.Sprintf("Sunny in %s.", in.City), nil
}

// PackInput names a trip.
type PackInput struct {
	City string `json:"city"` // Where the trip goes.
}

// Pack suggests what to pack for a trip.
//
//mcp:prompt
func Pack(ctx context.Context, in PackInput) (string, error) {
	return "What should I pack for " + in.City + "?", nil
}

// Serve reads the configuration from the environment and serves the
// tools on stdio, as the weather command does.
func Serve(ctx context.Context) error {
	var cfg Config
	if err := cfg.LoadEnv(os.Getenv); err != nil {
		return err
	}
	return NewServer().ServeStdio(ctx)
}

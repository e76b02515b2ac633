module github.com/mcpgen/mcpgen

go 1.26.0

require (
	github.com/dave/jennifer v1.7.1
	github.com/invopop/jsonschema v0.14.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/pb33f/ordered-map/v2 v2.3.1 // indirect
	go.uber.org/goleak v1.3.0 // indirect
	go.yaml.in/yaml/v4 v4.0.0-rc.2 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)

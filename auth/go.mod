module github.com/mcpgen/mcpgen/auth

go 1.26.0

require (
	github.com/golang-jwt/jwt/v5 v5.3.1
	github.com/mcpgen/mcpgen v0.0.0
)

replace github.com/mcpgen/mcpgen => ../

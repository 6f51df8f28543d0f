module github.com/noggin-go/noggin/surfaces/mcp

go 1.26.0

require github.com/noggin-go/noggin/core v0.0.0

require (
	github.com/fsnotify/fsnotify v1.10.1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/noggin-go/noggin/surfaces/rpc/remote v0.0.0
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.37.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

replace github.com/noggin-go/noggin/core => ../../core

replace github.com/noggin-go/noggin/surfaces/rpc/remote => ../rpc/remote

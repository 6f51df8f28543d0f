module github.com/noggin-go/noggin/e2e

go 1.26

require (
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/noggin-go/noggin/core v0.0.0
	github.com/noggin-go/noggin/surfaces/rpc v0.0.0
)

replace (
	github.com/noggin-go/noggin/core => ../core
	github.com/noggin-go/noggin/surfaces/rpc => ../surfaces/rpc
)

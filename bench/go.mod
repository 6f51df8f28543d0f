module github.com/noggin-go/noggin/bench

go 1.26.0

require (
	github.com/noggin-go/noggin/core v0.0.0
	golang.org/x/image v0.48.0
)

require go.yaml.in/yaml/v3 v3.0.6 // indirect

replace github.com/noggin-go/noggin/core => ../core

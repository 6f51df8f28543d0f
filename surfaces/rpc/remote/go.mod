module github.com/noggin-go/noggin/surfaces/rpc/remote

go 1.26.0

require github.com/noggin-go/noggin/core v0.0.0

require (
	github.com/fsnotify/fsnotify v1.10.1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace github.com/noggin-go/noggin/core => ../../../core

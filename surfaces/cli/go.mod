module github.com/noggin-go/noggin/surfaces/cli

go 1.26.0

require (
	github.com/noggin-go/noggin/core v0.0.0
	github.com/urfave/cli/v2 v2.27.7
)

require github.com/creack/pty v1.1.24

require (
	github.com/cpuguy83/go-md2man/v2 v2.0.7 // indirect
	github.com/fsnotify/fsnotify v1.10.1 // indirect
	github.com/noggin-go/noggin/surfaces/rpc/remote v0.0.0
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/xrash/smetrics v0.0.0-20240521201337-686a1a2994c1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.50.0
)

replace github.com/noggin-go/noggin/core => ../../core

replace github.com/noggin-go/noggin/surfaces/rpc/remote => ../rpc/remote

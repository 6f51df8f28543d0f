module github.com/noggin-go/noggin/surfaces/cli

go 1.26

require github.com/noggin-go/noggin/core v0.0.0

replace github.com/noggin-go/noggin/core => ../../core

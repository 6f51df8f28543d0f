module github.com/noggin-go/noggin/core

go 1.26

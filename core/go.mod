module github.com/noggin-go/noggin/core

go 1.26

require go.yaml.in/yaml/v3 v3.0.6

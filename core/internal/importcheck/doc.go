// Package importcheck holds a test that keeps core free of transport and
// surface dependencies: no non-test package of the core module may import
// net/http, protobuf, connect, urfave/cli or the MCP SDK (directly or
// transitively). The package itself has no code.
package importcheck

#!/bin/sh
# The plugin's MCP server: noggin-mcp from PATH. Without it, say how to
# install it: on stderr, and as the error of every request, so that the
# agent shows it. Claude Code runs this file (.mcp.json); Codex runs a copy
# of its text (.codex-mcp.json, rewritten by e2e TestPluginLauncher -update).
if command -v noggin-mcp >/dev/null 2>&1; then
	exec noggin-mcp "$@"
fi
hint='noggin-mcp is not on PATH: install it from https://github.com/noggin-go/noggin/releases (unpack it, put noggin-mcp on PATH) or from a clone with make install (then add $(go env GOPATH)/bin to PATH), and restart the agent.'
printf '%s\n' "$hint" >&2
while IFS= read -r line; do
	id=$(printf '%s' "$line" | sed -nE 's/.*"id" *: *([0-9]+|"[^"]*").*/\1/p')
	[ -z "$id" ] || printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"%s"}}\n' "$id" "$hint"
done
exit 127

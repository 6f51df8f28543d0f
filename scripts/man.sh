#!/usr/bin/env bash
# man.sh BIN OUT writes the man pages of noggin, noggin-mcp and noggin-rpc
# (built in BIN) into OUT/man1, from the help text each binary prints: one
# text for --help and the manual.
set -euo pipefail
bin=$1 out=$2/man1
mkdir -p "$out"
version=$("$bin/noggin" --version | head -n1)
page() { # name summary help-argument…
	local name=$1 summary=$2
	shift 2
	{
		printf '.TH %s 1 "" "%s" "User Commands"\n' "$(tr '[:lower:]' '[:upper:]' <<<"$name")" "$version"
		printf '.SH NAME\n%s \\- %s\n.SH DESCRIPTION\n.nf\n' "$name" "$summary"
		# roff: a backslash is \e; a line starting with . or ' is escaped.
		"$bin/$name" "$@" | sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
		printf '.fi\n.SH SEE ALSO\n'
		for other in noggin noggin-mcp noggin-rpc; do
			[ "$other" = "$name" ] || printf '.BR %s (1)\n' "$other"
		done
	} >"$out/$name.1"
}
page noggin "a working-memory tree of in-flight work, for people and coding agents" --help
page noggin-mcp "the noggin tools for coding agents, over MCP" --help
page noggin-rpc "the noggin server: Connect, gRPC and the web view, over files or PostgreSQL" help

#!/usr/bin/env bash
# make validate-plugins: the agent tools' own checks of the plugin, with the
# tools installed from npm (pinned) into a temporary directory:
#   - Claude Code: `claude plugin validate` of the marketplace and the plugin;
#   - Codex (no validate command): add the repository as a marketplace,
#     install the plugin and list its MCP server, in a throwaway CODEX_HOME;
#   - both, driven against stand-in model APIs (e2e TestAgentSessions).
# e2e/plugin_test.go checks the same manifests against the documented
# formats in `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
CLAUDE_CODE_VERSION=2.1.332
CODEX_VERSION=0.171.0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "installing @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION and @openai/codex@$CODEX_VERSION from npm" >&2
(cd "$tmp" && npm install --silent --no-audit --no-fund --prefix "$tmp" \
	"@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION" >/dev/null)
# Sessions of both CLIs against stand-in model APIs (required here).
NOGGIN_AGENT_BIN="$tmp/node_modules/.bin" go test -count=1 -run '^TestAgentSessions$' -v ./e2e/
export HOME="$tmp/home" CODEX_HOME="$tmp/home/codex"
mkdir -p "$CODEX_HOME"
claude="$tmp/node_modules/.bin/claude" codex="$tmp/node_modules/.bin/codex"
"$claude" --version
"$claude" plugin validate .
"$claude" plugin validate ./plugins/noggin
"$codex" --version
"$codex" plugin marketplace add "$PWD" 2>&1 | grep -v '^WARNING: proceeding'
"$codex" plugin add noggin@noggin 2>&1 | grep -v '^WARNING: proceeding'
list=$("$codex" plugin list 2>&1 | grep -v '^WARNING: proceeding')
echo "$list"
grep -q 'noggin@noggin *installed, enabled' <<<"$list" || { echo "plugins.sh: codex did not install the plugin" >&2; exit 1; }
mcp=$("$codex" mcp list 2>&1 | grep -v '^WARNING: proceeding')
grep -q '^noggin  *sh  *-c ' <<<"$mcp" || { echo "plugins.sh: codex does not see the plugin's MCP server:" >&2; echo "$mcp" >&2; exit 1; }
# Codex passes MCP servers only a few variables: the plugin forwards the
# remote noggin's server and token (env_vars), which Codex lists masked.
get=$("$codex" mcp get noggin 2>&1 | grep -v '^WARNING: proceeding')
for v in NOGGIN_SERVER NOGGIN_TOKEN; do
	grep -q "env:.*$v=" <<<"$get" || { echo "plugins.sh: codex does not forward $v to noggin-mcp:" >&2; echo "$get" >&2; exit 1; }
done
echo "plugins.sh: codex sees the noggin MCP server of the plugin, with NOGGIN_SERVER and NOGGIN_TOKEN forwarded"

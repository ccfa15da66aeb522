/** Entry of the downloadable MCP server (tooling/bundles/bundle.ts): `node veloxa-mcp.mjs [--data FILE] [--docs DIR]`. */
import {downloads} from '../../src/lib/downloads';
import {runMcpCli} from '../../src/sandbox/hosts/mcp/cli';

void runMcpCli(process.argv.slice(2), {command: `node ${downloads.mcp.file}`}).then((code) => {
  if (code !== undefined) process.exitCode = code;
});

/**
 * `npm run --silent mcp`: the portal's MCP server over stdio (src/sandbox/hosts/mcp/cli.ts), reading the docs from this
 * repository's build/ unless --docs names another built site. `npm run --silent mcp -- --help` lists the options.
 */
import path from 'node:path';
import {runMcpCli} from '../src/sandbox/hosts/mcp/cli';
import {repoRoot} from '../src/sandbox/hosts/server/loadEngine';

void runMcpCli(process.argv.slice(2), {command: 'npm run --silent mcp --', defaultDocsDir: path.join(repoRoot, 'build')}).then((code) => {
  if (code !== undefined) process.exitCode = code;
});

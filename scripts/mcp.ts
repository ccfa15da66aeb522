/**
 * `npm run mcp`: the portal's MCP server (src/mcp/server.ts) over stdio, for an MCP client to start.
 * stdout carries the protocol only; diagnostics go to stderr. `--docs <dir>` names the built site whose
 * Markdown twins the docs tools read (default build/, made by `npm run build`).
 */
import path from 'node:path';
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';
import {createPortalMcpServer} from '../src/mcp/server';

const usage = 'Usage: npm run --silent mcp [-- --docs <built site directory>]';

function docsDirectory(args: readonly string[]): string | undefined {
  let docs: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--docs') {
      docs = args[index + 1];
      if (!docs) throw new Error('--docs needs a directory, such as build-test.');
      index += 1;
    } else if (arg?.startsWith('--docs=')) docs = arg.slice('--docs='.length);
    else throw new Error(`Unknown option ${arg}. ${usage}`);
  }
  return docs === undefined ? undefined : path.resolve(docs);
}

async function main(): Promise<void> {
  let docsDir: string | undefined;
  try {
    docsDir = docsDirectory(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`mcp: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const server = createPortalMcpServer({...(docsDir ? {docsDir} : {})});
  await server.connect(new StdioServerTransport());
  process.stderr.write(`mcp: Veloxa Pay portal MCP server on stdio (docs from ${docsDir ?? 'build/'}; sandbox in memory).\n`);
}

void main();

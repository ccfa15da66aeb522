/**
 * The MCP server's command line, over stdio: `npm run --silent mcp` in the repository (scripts/mcp.ts) and
 * `node veloxa-mcp.mjs` from the portal's downloads. stdout carries the protocol only; everything else
 * goes to stderr. With --data the sandbox lives in a journal file (the local sandbox's format), so a
 * client that starts one server per call, such as the MCP Inspector CLI, continues where the last one
 * stopped; the journal's lock is given back when the client closes stdin or stops the process.
 */
import path from 'node:path';
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';
import {downloads, versionLine} from '../../../lib/downloads';
import {fileStore, type FileStore} from '../server/fileStore';
import {sandboxFiles} from '../server/loadEngine';
import {contractVersion} from '../server/sandboxFiles';
import {createPortalMcpServer} from './server';

export interface McpCliSetup {
  /** How the user starts it, for --help. */
  readonly command: string;
  /** The docs directory when --docs is not given (the repository's build/); none for the download. */
  readonly defaultDocsDir?: string;
}

interface McpOptions {
  readonly docs?: string;
  readonly data?: string;
  readonly help: boolean;
  readonly version: boolean;
}

/** How long a server waits for the journal's lock held by another (one that is exiting, or still running). */
const lockWaitMs = 5000;

class UsageError extends Error {}

const usage = (setup: McpCliSetup): string =>
  [
    `Usage: ${setup.command} [--data FILE] [--docs DIR]`,
    '',
    `The ${downloads.mcp.title} over stdio, for an MCP client to start: docs, contract and sandbox tools.`,
    '',
    'Options:',
    "  --data FILE   keep the sandbox and its notification inbox in FILE across runs (the local sandbox's",
    '                --data format); without it, the sandbox lives as long as the process',
    `  --docs DIR    a built portal directory for search_docs and read_page${setup.defaultDocsDir ? ` (default ${setup.defaultDocsDir})` : ''}`,
    '  --version     the API contract version this server implements',
    '  --help        this text',
  ].join('\n');

function parseArguments(args: readonly string[]): McpOptions {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    const equals = arg.indexOf('=');
    const name = arg.startsWith('--') && equals > 0 ? arg.slice(0, equals) : arg;
    const inline = name === arg ? undefined : arg.slice(equals + 1);
    if (name === '--help' || name === '-h' || name === '--version') {
      if (inline !== undefined) throw new UsageError(`${name} takes no value`);
      flags.add(name === '-h' ? '--help' : name);
    } else if (name === '--docs' || name === '--data') {
      if (values.has(name)) throw new UsageError(`${name} is given twice`);
      const value = inline ?? args[(index += 1)];
      if (value === undefined || value === '' || (inline === undefined && value.startsWith('--')))
        throw new UsageError(`${name} needs a ${name === '--docs' ? 'directory' : 'file'}`);
      values.set(name, value);
    } else {
      throw new UsageError(`unknown option ${arg}; --help lists the options`);
    }
  }
  const docs = values.get('--docs');
  const data = values.get('--data');
  return {
    ...(docs !== undefined ? {docs: path.resolve(docs)} : {}),
    ...(data !== undefined ? {data: path.resolve(data)} : {}),
    help: flags.has('--help'),
    version: flags.has('--version'),
  };
}

/** Serves MCP on stdio until the client closes stdin or a signal stops it. Returns an exit code for a bad command line, --help or --version. */
export async function runMcpCli(args: readonly string[], setup: McpCliSetup): Promise<number | undefined> {
  let options: McpOptions;
  try {
    options = parseArguments(args);
  } catch (error) {
    process.stderr.write(`mcp: ${(error as Error).message}\n${usage(setup)}\n`);
    return 2;
  }
  // --help and --version are for a person at a terminal: stdout, as any command line tool.
  if (options.help) {
    process.stdout.write(`${usage(setup)}\n`);
    return 0;
  }
  if (options.version) {
    process.stdout.write(`${versionLine(downloads.mcp, contractVersion(sandboxFiles()))}\n`);
    return 0;
  }
  const docsDir = options.docs ?? setup.defaultDocsDir;
  const store: FileStore | undefined = options.data
    ? fileStore(options.data, {lockWaitMs, log: (line) => process.stderr.write(`${line}\n`)})
    : undefined;
  const server = createPortalMcpServer({...(docsDir ? {docsDir} : {}), ...(store ? {store} : {})});

  let stopping: Promise<void> | undefined;
  const stop = () => {
    // Gives the journal's lock back before the process ends; every acknowledged batch is on disk already.
    stopping ??= server
      .close()
      .catch(() => undefined)
      .then(() => store?.close())
      .catch(() => undefined)
      .finally(() => process.exit(0));
    return stopping;
  };
  process.stdin.once('end', () => void stop());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop());

  await server.connect(new StdioServerTransport());
  process.stderr.write(
    `mcp: ${downloads.mcp.title} on stdio (docs ${docsDir ? `from ${docsDir}` : 'not available: no --docs'}; sandbox ${store ? `in ${store.file}` : 'in memory'}).\n`,
  );
  return undefined;
}

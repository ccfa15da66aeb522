/**
 * The MCP tests' client: the SDK's own Client over its in-memory transport, linked to a fresh
 * portal server (so each test file gets its own sandbox session). The docs come from the test build's
 * Markdown twins when build-test/ has them, else from the small fixture site beside this file.
 */
import {existsSync} from 'node:fs';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {InMemoryTransport} from '@modelcontextprotocol/sdk/inMemory.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {createPortalMcpServer} from '../../src/sandbox/hosts/mcp/server';
import {repoRoot} from '../../src/sandbox/hosts/server/loadEngine';

export const fixtureSite = path.join(__dirname, 'fixtures', 'site');
const testBuild = path.join(repoRoot, 'build-test');
/** The built test site when it has the twins, else the fixture. */
export const docsDir = existsSync(path.join(testBuild, 'markdown-twins.json')) ? testBuild : fixtureSite;

export async function connect(options: {docsDir?: string} = {}): Promise<{client: Client; close: () => Promise<void>; logs: string[]}> {
  const logs: string[] = [];
  const server = createPortalMcpServer({docsDir: options.docsDir ?? docsDir, log: (line) => logs.push(line)});
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({name: 'portal-tests', version: '1.0.0'});
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    logs,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Calls a tool; the text of its first block, and whether it was an error. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{isError: boolean; text: string; texts: string[]}> {
  const result = (await client.callTool({name, arguments: args})) as CallToolResult;
  const texts = result.content.map((block) => (block.type === 'text' ? block.text : ''));
  return {isError: result.isError === true, text: texts[0] ?? '', texts};
}

/** Calls a tool that must succeed; its first block parsed as JSON. */
export async function callJson<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} answered an error: ${result.text}`);
  return JSON.parse(result.text) as T;
}

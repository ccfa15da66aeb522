/**
 * The real thing an MCP client starts: `npm run --silent mcp` as a child process, spoken to through the
 * SDK's StdioClientTransport. Anything but protocol messages on stdout would break the client, so the
 * test fails on any transport error as well as on a wrong tool list.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {actionToolName} from '../../src/sandbox/hosts/mcp/actionTools';
import {sandboxActions} from '../../src/sandbox/actions';
import {repoRoot} from '../../src/sandbox/hosts/server/loadEngine';
import {fixtureSite} from './connect';

test('npm run --silent mcp answers over stdio: it lists the tools and reads the docs directory it was given', async () => {
  const transport = new StdioClientTransport({
    command: 'npm',
    args: ['run', '--silent', 'mcp', '--', '--docs', fixtureSite],
    cwd: repoRoot,
    stderr: 'pipe',
  });
  const errors: Error[] = [];
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({name: 'portal-stdio-test', version: '1.0.0'});
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  try {
    const {tools} = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'sandbox_request'));
    for (const action of sandboxActions)
      assert.ok(
        tools.some((tool) => tool.name === actionToolName(action)),
        `${actionToolName(action)} over stdio`,
      );
    const page = (await client.callTool({name: 'read_page', arguments: {path: '/docs/general/integration-guide'}})) as CallToolResult;
    assert.notEqual(page.isError, true);
    assert.match(page.content[0]?.type === 'text' ? page.content[0].text : '', /# Integration guide/);
    assert.deepEqual(
      errors.map((error) => error.message),
      [],
      'stdout carries nothing but protocol messages',
    );
    assert.match(stderr, /MCP server on stdio/, 'the start-up line goes to stderr');
  } finally {
    await client.close();
  }
});

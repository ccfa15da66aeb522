/**
 * The portal's downloads as an outside developer gets them (tooling/bundles/bundle.ts): each file copied
 * alone into an empty folder and run there with plain `node` and a bare environment, far from the
 * repository and its node_modules. The sandbox answers a signed create order and retrieve, signed with the
 * published test key; the MCP server keeps its sandbox in a --data journal across processes started one per
 * call (as the MCP Inspector CLI does), and the local sandbox reads the same journal.
 *
 * The files come from build-test/downloads when the test build has them, else they are built here (seconds).
 */
import assert from 'node:assert/strict';
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {createHash} from 'node:crypto';
import {copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {after, before, test} from 'node:test';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {checksumsFile, downloads, downloadsPath, versionLine} from '../../src/lib/downloads';
import {repoRoot, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {buildDownloads} from '../../tooling/bundles/bundle';
import {sandboxClient} from '../support/sandboxClient';

const testBuild = path.join(repoRoot, 'build-test');
const work = mkdtempSync(path.join(tmpdir(), 'portal-downloads-'));
/** The published test merchant key, as a developer downloads it from /test-vectors/. */
const merchantKeyFile =
  [
    path.join(testBuild, 'test-vectors', 'merchant-test-private.pem'),
    path.join(repoRoot, 'api', 'test-vectors', 'merchant-test-private.pem'),
  ].find((file) => existsSync(file)) ?? '';
const contractVersion = sandboxFiles().contract.document.info.version;

let built: string;
/** Each download alone in an empty folder. */
const folders = {sandbox: path.join(work, 'sandbox-only'), mcp: path.join(work, 'mcp-only')};
const children: ChildProcess[] = [];

before(async () => {
  const published = path.join(testBuild, downloadsPath);
  built = Object.values(downloads).every((download) => existsSync(path.join(published, download.file)))
    ? published
    : path.join(work, 'built');
  if (built !== published) await buildDownloads(built);
  for (const [name, folder] of Object.entries(folders)) {
    spawnSync('mkdir', [folder]);
    const file = downloads[name as keyof typeof folders].file;
    copyFileSync(path.join(built, file), path.join(folder, file));
  }
});

after(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, {recursive: true, force: true});
});

/** `node <file> args` in the file's folder with nothing from this environment (no NODE_PATH, no NODE_OPTIONS). */
function runNode(folder: string, args: readonly string[]): ReturnType<typeof spawnSync> {
  return spawnSync(process.execPath, args, {cwd: folder, env: {}, encoding: 'utf8', timeout: 30_000});
}

test('SHA256SUMS.txt names each download with its SHA-256', () => {
  const lines = readFileSync(path.join(built, checksumsFile), 'utf8').trim().split('\n');
  assert.deepEqual(
    lines,
    Object.values(downloads).map(
      (download) =>
        `${createHash('sha256')
          .update(readFileSync(path.join(built, download.file)))
          .digest('hex')}  ${download.file}`,
    ),
  );
});

test('--version of each download names the file and the API contract version it carries', () => {
  for (const [name, folder] of Object.entries(folders)) {
    const {file} = downloads[name as keyof typeof folders];
    const result = runNode(folder, [file, '--version']);
    assert.equal(result.status, 0, String(result.stderr));
    assert.match(
      String(result.stdout),
      new RegExp(`^${file.replace('.', '\\.')} \\(.+\\), API contract ${contractVersion.replaceAll('.', '\\.')}\\n$`),
    );
  }
});

test('the pages quote --version as the files print it, with the contract version they carry now', () => {
  for (const [page, download] of [
    ['local-sandbox.mdx', downloads.sandbox],
    ['mcp-server.mdx', downloads.mcp],
  ] as const) {
    const text = readFileSync(path.join(repoRoot, 'docs', page), 'utf8');
    const quoted = [...text.matchAll(new RegExp(`\`(${download.file.replace('.', '\\.')} \\([^)]*\\), API contract [^\`]*)\``, 'g'))].map(
      (match) => match[1],
    );
    assert.ok(quoted.length > 0, `${page} shows what --version prints`);
    for (const line of quoted) assert.equal(line, versionLine(download, contractVersion), `${page}: update the quoted --version line`);
  }
});

/** Headers as the sandbox client reads them: X-Signature, not x-signature. */
const headerCase = (name: string): string =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);

/** The sandbox download started on a free port in `cwd`; its origin. */
async function startSandbox(cwd: string, args: readonly string[]): Promise<{origin: string; child: ChildProcess}> {
  const child = spawn(process.execPath, [path.join(folders.sandbox, downloads.sandbox.file), '--port', '0', ...args], {
    cwd,
    env: {},
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /sandbox at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found?.[1]) resolve(found[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => reject(new Error(`sandbox: ${chunk.toString()}`)));
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${output}`)));
  });
  return {origin, child};
}

/** A merchant client of the sandbox at `origin`, signing with the published test key. */
function httpClient(origin: string) {
  return sandboxClient({
    privateKeyPem: readFileSync(merchantKeyFile, 'utf8'),
    now: () => Date.now(),
    handle: async (request) => {
      const response = await fetch(`${origin}${request.target}`, {
        method: request.method,
        headers: {'Content-Type': 'application/json', ...request.headers},
        ...(request.body ? {body: request.body} : {}),
      });
      return {
        status: response.status,
        headers: Object.fromEntries([...response.headers].map(([name, value]) => [headerCase(name), value])),
        body: await response.text(),
      };
    },
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

test('the sandbox download, alone in a folder, answers a signed create order and retrieve on the port it is given', async () => {
  const {origin, child} = await startSandbox(folders.sandbox, []);
  const client = httpClient(origin);
  const merchantOrderNo = `ORD-DL-${Date.now().toString(36)}`;
  const created = await client.call('POST', '/v1/orders', {
    merchantOrderNo,
    amount: {value: 1000, currency: 'USD'},
    scene: 'HOSTED_PAYPAGE',
    subject: 'Download test',
    returnUrl: 'https://shop.example.com/return',
  });
  assert.equal(created.json.code, 'SUCCESS', created.body);
  assert.deepEqual(created.problems, []);
  const retrieved = await client.call('GET', `/v1/orders/${merchantOrderNo}`);
  assert.equal(retrieved.json.code, 'SUCCESS', retrieved.body);
  assert.equal((retrieved.json.data as {merchantOrderNo?: string} | undefined)?.merchantOrderNo, merchantOrderNo);
  assert.deepEqual(retrieved.problems, []);
  await stop(child);
});

/** One MCP server process from the download, as a client that starts one per call does. */
async function mcpProcess(args: readonly string[]): Promise<{client: Client; close: () => Promise<void>}> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [downloads.mcp.file, ...args],
    cwd: folders.mcp,
    stderr: 'pipe',
  });
  const client = new Client({name: 'download-test', version: '1.0.0'});
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    client,
    close: async () => {
      await client.close();
      assert.deepEqual(
        errors.map((error) => error.message),
        [],
        'stdout carries nothing but protocol messages',
      );
    },
  };
}

async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{isError: boolean; json: Record<string, unknown>; text: string}> {
  const result = (await client.callTool({name, arguments: args})) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // A tool error's sentence.
  }
  return {isError: result.isError === true, json, text};
}

/** A call in a process of its own, with the journal. */
async function oneCall(
  name: string,
  args: Record<string, unknown>,
): Promise<{isError: boolean; json: Record<string, unknown>; text: string}> {
  const server = await mcpProcess(['--data', 'sandbox.journal']);
  try {
    return await callTool(server.client, name, args);
  } finally {
    await server.close();
  }
}

test('the MCP download keeps its sandbox in --data across processes: create, pay, advance and read notifications, one process each', async () => {
  const merchantOrderNo = `ORD-MCP-${Date.now().toString(36)}`;
  const created = await oneCall('sandbox_request', {
    method: 'POST',
    path: '/v1/orders',
    body: {
      merchantOrderNo,
      amount: {value: 1000, currency: 'USD'},
      scene: 'HOSTED_PAYPAGE',
      subject: 'Inspector journey',
      returnUrl: 'https://shop.example.com/return',
      notifyUrl: 'https://shop.example.com/payments/notify',
    },
  });
  assert.equal((created.json.body as {code?: string} | undefined)?.code, 'SUCCESS', created.text);
  assert.equal(created.json.responseSignatureVerified, true);

  const paid = await oneCall('sandbox_shopper_pay', {merchantOrderNo, method: 'CARD', cardNumber: '4000000000000002'});
  assert.equal(paid.isError, false, paid.text);
  await oneCall('sandbox_clock_advance', {seconds: 60});

  const inbox = await oneCall('sandbox_notifications', {});
  const notifications = (inbox.json.notifications ?? []) as Array<{
    seq: number;
    eventType?: string;
    verified?: boolean;
    body?: {data?: {merchantOrderNo?: string}};
  }>;
  const orderPaid = notifications.find(
    (entry) => entry.eventType === 'ORDER.PAID' && entry.body?.data?.merchantOrderNo === merchantOrderNo,
  );
  assert.ok(orderPaid, `ORDER.PAID reached the inbox kept in the journal: ${inbox.text.slice(0, 400)}`);
  assert.equal(orderPaid.verified, true);
  // The next process sees the same inbox, numbered on from where it stopped.
  const again = await oneCall('sandbox_notifications', {since: orderPaid.seq - 1});
  assert.equal((again.json.notifications as Array<{seq: number}>)[0]?.seq, orderPaid.seq);

  // The local sandbox reads the same journal: the order is PAID there too.
  const sandbox = await startSandbox(folders.mcp, ['--data', 'sandbox.journal']);
  const retrieved = await httpClient(sandbox.origin).call('GET', `/v1/orders/${merchantOrderNo}`);
  assert.equal((retrieved.json.data as {status?: string} | undefined)?.status, 'PAID', retrieved.body);
  await stop(sandbox.child);
});

test('an MCP process started while another holds the journal waits for it, and without --docs the docs tools say where the pages are', async () => {
  const first = await mcpProcess(['--data', 'sandbox.journal']);
  const holding = await callTool(first.client, 'sandbox_clock_advance', {seconds: 1});
  assert.equal(holding.isError, false, holding.text);
  const second = await mcpProcess(['--data', 'sandbox.journal']);
  try {
    const waiting = callTool(second.client, 'sandbox_clock_advance', {seconds: 1});
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.close();
    const answer = await waiting;
    assert.equal(answer.isError, false, answer.text);
    const docs = await callTool(second.client, 'search_docs', {query: 'refund'});
    assert.equal(docs.isError, true);
    assert.match(docs.text, /no copy of the docs: start it with --docs .*llms\.txt/);
  } finally {
    await second.close();
  }
});

/**
 * Benchmark of the local sandbox server (npm run bench -- --sandbox):
 *
 * 1. Throughput and latency. `npm run sandbox -- --no-rate-limits` in a child process, then 16 keep-alive
 *    clients for a fixed time with a signed mix: Create order 40%, Retrieve order detail 30%, Refund order
 *    (of a paid order) 15%, Query order page 15%. The same requests then go to `prism mock
 *    api/openapi.yaml`, stateless and checking no signature, as the reference figure. The requests are
 *    signed before each measured window, so the load generator's RSA work does not take the server's
 *    cores (2 on the reference machine); the server still verifies every request and signs every answer.
 * 2. Memory. A child process builds an engine, creates 100,000 orders through engine.handle() (no HTTP),
 *    half of them paid at once (QR_PAY: an ORDER.PAID event and a ledger entry each) and half hosted
 *    (closed at expiry: an ORDER.CLOSED event each), then reports RSS and heap once the process is idle and V8 has
 *    compacted its heap (idleMemory), and the earlier readings beside it. The
 *    child's engine and merchant sign with 1024-bit keys, to keep the run short: the state kept per order
 *    does not depend on the key size. Its clock jumps 601 seconds every 2,000 orders, so nonces expire as
 *    they would over the hours such a volume takes.
 *
 * Budgets: more requests per second than the Prism mock; p99 under 50 ms; 100,000 orders under 512 MB RSS.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {generateKeyPairSync, randomUUID} from 'node:crypto';
import {readFileSync} from 'node:fs';
import http from 'node:http';
import net, {type AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {constants as perfConstants, performance, PerformanceObserver} from 'node:perf_hooks';
import {importPrivateKey} from '../../src/lib/signing';
import {signRequest} from '../../src/sandbox/client/signing';
import {brand} from '../../src/brand';
import {fixedClock, isoSeconds} from '../../src/sandbox/engine/clock';
import {SandboxEngine} from '../../src/sandbox/engine/engine';
import {repoRoot, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';

export interface SandboxBenchOptions {
  /** Length of each measured window, in seconds (default 10). */
  readonly seconds?: number;
  /** Concurrent keep-alive clients (default 16). */
  readonly clients?: number;
  /** Orders for the memory figure (default 100,000). */
  readonly orders?: number;
  /** Progress lines. */
  readonly log?: (line: string) => void;
}

export interface LoadFigures {
  readonly target: string;
  readonly requests: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Answers other than HTTP 200, by status. */
  readonly notOk: Readonly<Record<string, number>>;
  readonly byOperation: Readonly<Record<string, {readonly count: number; readonly p50Ms: number; readonly p99Ms: number}>>;
  /** Requests per second in each whole second of the window: a falling series means work that grows with state. */
  readonly perSecondSeries: readonly number[];
  /** True when the prepared requests ran out before the time was up: the figures hold for the shorter window. */
  readonly exhausted: boolean;
}

export interface MemoryFigures {
  readonly orders: number;
  readonly events: number;
  readonly seconds: number;
  readonly baseline: {readonly rssMb: number; readonly heapUsedMb: number};
  /**
   * rssMb: the process left idle, after V8's memory reducer compacted the heap (idleMemory), the figure the budget
   * judges; reducerSeconds: when that began, after the work and the forced GCs (undefined: not within the wait).
   * rssSettledMb: once RSS stopped falling after the forced GCs, before the reducer, as the bench read it until
   * 2026-11-28; rssAtGcMb: right after the GC, as it read it until 2026-11-27.
   */
  readonly after: {
    readonly rssMb: number;
    readonly reducerSeconds: number | undefined;
    readonly rssSettledMb: number;
    readonly rssAtGcMb: number;
    readonly heapUsedMb: number;
    readonly heapTotalMb: number;
  };
}

export interface Budget {
  readonly name: string;
  readonly value: string;
  readonly limit: string;
  readonly met: boolean;
}

export interface SandboxBenchResult {
  readonly server: LoadFigures;
  readonly mock: LoadFigures;
  readonly memory: MemoryFigures;
  readonly budgets: readonly Budget[];
  /** Markdown: the figures and the budgets. */
  readonly table: string;
}

const mix = [
  {operation: 'createOrder', share: 0.4},
  {operation: 'retrieveOrderDetail', share: 0.3},
  {operation: 'refundOrder', share: 0.15},
  {operation: 'queryOrderPage', share: 0.15},
] as const;
type Operation = (typeof mix)[number]['operation'];

/** One signed request, ready to send: to the sandbox as it is, to the mock without the /v1 server path. */
interface Prepared {
  readonly operation: Operation;
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Prism's command line, node_modules/.bin/prism, found through its package. */
const prismPackage = require.resolve('@stoplight/prism-cli/package.json');
const prismCli = path.resolve(path.dirname(prismPackage), (JSON.parse(readFileSync(prismPackage, 'utf8')) as {bin: {prism: string}}).bin.prism);

const files = sandboxFiles();
const merchant = files.spec.sandbox.merchant.clientId;
const paymentCode = files.spec.sandbox.paymentCodes.codes[0]?.code ?? '';
/** Paid orders are refunded 100 at a time; each can take 5,000 refunds. */
const paidAmount = 500_000;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const megabytes = (bytes: number) => round(bytes / 1024 / 1024);

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? NaN;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const {port} = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a child process and waits until `ready` answers; stdout is discarded (both servers log every request). */
export async function startChild(command: string, args: readonly string[], ready: () => Promise<boolean>): Promise<{child: ChildProcess; stop: () => Promise<void>}> {
  const child = spawn(command, args, {cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'], env: {...process.env, FORCE_COLOR: '0'}});
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}: ${stderr}`);
    if (await ready().catch(() => false)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} did not start within 60 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export function send(agent: http.Agent, port: number, request: {method: string; target: string; headers: Readonly<Record<string, string>>; body: string}): Promise<{status: number; body: string}> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({host: '127.0.0.1', port, method: request.method, path: request.target, headers: {...request.headers, ...(request.body ? {'Content-Length': String(Buffer.byteLength(request.body))} : {})}, agent}, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8')}));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(request.body || undefined);
  });
}

/** Signs requests with the published test merchant's key, as that merchant or another registered with its public key. */
export async function signer() {
  const privateKey = await importPrivateKey(files.merchantPrivateKeyPem);
  return async (operation: Operation, method: string, target: string, body?: unknown, clientId = merchant): Promise<Prepared> => {
    const signed = await signRequest({clientId, keyVersion: 1, privateKey}, {method, target, body: body === undefined ? '' : JSON.stringify(body)}, Date.now(), randomUUID());
    return {operation, method, target, body: signed.body, headers: {'Content-Type': 'application/json', ...signed.headers}};
  };
}

const hostedOrder = (merchantOrderNo: string) => ({merchantOrderNo, amount: {value: 1250, currency: 'USD'}, scene: 'HOSTED_PAYPAGE', subject: `Order ${merchantOrderNo}`, returnUrl: `https://shop.example.com/orders/${merchantOrderNo}`});
export const paidOrder = (merchantOrderNo: string) => ({merchantOrderNo, amount: {value: paidAmount, currency: 'USD'}, scene: 'QR_PAY', subject: 'Store 12 basket', payerPaymentCode: paymentCode, storeId: 'store-12', terminalId: 'till-03'});

/**
 * `count` requests of the mix, in a shuffled order, signed now. Retrieves and refunds name the seeded
 * orders (paid); a quarter of the creates are QR_PAY orders, paid at once, the rest hosted pay pages.
 */
export async function prepareMix(count: number, seeded: readonly string[], merchants: readonly string[] = [merchant]): Promise<Prepared[]> {
  const signAs = await signer();
  // Each seeded order belongs to the merchant at its index modulo the merchants; new calls spread over them all.
  let picked = 0;
  let clientId = merchant;
  const pick = () => {
    picked = Math.floor(Math.random() * seeded.length);
    clientId = merchants[picked % merchants.length] ?? merchant;
    return seeded[picked] ?? '';
  };
  const sign = (operation: Operation, method: string, target: string, body?: unknown) => {
    const as = clientId;
    clientId = merchants[Math.floor(Math.random() * merchants.length)] ?? merchant;
    return signAs(operation, method, target, body, as);
  };
  const now = Date.now();
  const range = `createdFrom=${encodeURIComponent(isoSeconds(now - 3_600_000))}&createdTo=${encodeURIComponent(isoSeconds(now + 3_600_000))}`;
  const jobs: Array<() => Promise<Prepared>> = [];
  for (const {operation, share} of mix) {
    for (let index = 0; index < Math.round(count * share); index += 1) {
      const number = `BEN-${randomUUID().slice(0, 23)}`;
      if (operation === 'createOrder') jobs.push(() => sign(operation, 'POST', '/v1/orders', index % 4 === 0 ? paidOrder(number) : hostedOrder(number)));
      else if (operation === 'retrieveOrderDetail') jobs.push(() => sign(operation, 'GET', `/v1/orders/${pick()}`));
      else if (operation === 'refundOrder') jobs.push(() => sign(operation, 'POST', `/v1/orders/${pick()}/refunds`, {merchantRefundNo: number, amount: {value: 100, currency: 'USD'}, reason: 'Benchmark'}));
      else jobs.push(() => sign(operation, 'GET', `/v1/orders?${range}&pageSize=20`));
    }
  }
  for (let index = jobs.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [jobs[index], jobs[other]] = [jobs[other] as () => Promise<Prepared>, jobs[index] as () => Promise<Prepared>];
  }
  // Signed in batches: WebCrypto runs them on the thread pool, in parallel.
  const prepared: Prepared[] = [];
  for (let start = 0; start < jobs.length; start += 512) prepared.push(...(await Promise.all(jobs.slice(start, start + 512).map((job) => job()))));
  return prepared;
}

/** One measured answer: its operation, its latency and when it ended (ms after the window started). */
interface Sample {
  readonly operation: Operation;
  readonly ms: number;
  readonly at: number;
}

/** Counts an answer other than HTTP 200 under its status and code. */
function countNotOk(notOk: Record<string, number>, answer: {status: number; body: string}): void {
  if (answer.status === 200) return;
  const key = `${answer.status} ${/"code":"([A-Z_]+)"/.exec(answer.body)?.[1] ?? answer.body.slice(0, 60)}`;
  notOk[key] = (notOk[key] ?? 0) + 1;
}

/** The figures of a window from its samples; `windowSeconds` is how long it was meant to last. */
function figuresOf(target: string, samples: readonly Sample[], notOk: Readonly<Record<string, number>>, windowSeconds: number): LoadFigures {
  const seconds = (Math.max(...samples.map((sample) => sample.at)) || 1) / 1000;
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const byOperation: Record<string, {count: number; p50Ms: number; p99Ms: number}> = {};
  for (const {operation} of mix) {
    const times = samples.filter((sample) => sample.operation === operation).map((sample) => sample.ms).sort((a, b) => a - b);
    byOperation[operation] = {count: times.length, p50Ms: round(percentile(times, 0.5)), p99Ms: round(percentile(times, 0.99))};
  }
  const series = Array.from({length: Math.floor(seconds)}, (_, second) => samples.filter((sample) => sample.at >= second * 1000 && sample.at < (second + 1) * 1000).length);
  return {
    target,
    requests: samples.length,
    seconds: round(seconds, 2),
    perSecond: Math.round(samples.length / seconds),
    p50Ms: round(percentile(sorted, 0.5)),
    p99Ms: round(percentile(sorted, 0.99)),
    maxMs: round(sorted[sorted.length - 1] ?? NaN),
    notOk,
    byOperation,
    perSecondSeries: series,
    exhausted: seconds < windowSeconds * 0.95,
  };
}

/** Sends `requests` with `clients` keep-alive clients until they run out or `seconds` pass; the first `warmUp` are not measured. */
export async function load(target: string, port: number, requests: readonly Prepared[], options: {clients: number; seconds: number; warmUp: number; stripServerPath: boolean}): Promise<LoadFigures> {
  const agent = new http.Agent({keepAlive: true, maxSockets: options.clients});
  const samples: Sample[] = [];
  const notOk: Record<string, number> = {};
  let next = 0;
  let started = 0;
  let deadline = Infinity;
  const worker = async () => {
    for (let index = next++; index < requests.length && performance.now() < deadline; index = next++) {
      const request = requests[index] as Prepared;
      if (index === options.warmUp) {
        started = performance.now();
        deadline = started + options.seconds * 1000;
      }
      const begin = performance.now();
      const answer = await send(agent, port, {...request, target: options.stripServerPath ? request.target.replace(/^\/v1/, '') : request.target});
      const end = performance.now();
      if (index < options.warmUp) continue;
      samples.push({operation: request.operation, ms: end - begin, at: end - started});
      countNotOk(notOk, answer);
    }
  };
  await Promise.all(Array.from({length: options.clients}, worker));
  agent.destroy();
  return figuresOf(target, samples, notOk, options.seconds);
}

/**
 * The open-loop window: request i is sent when it is due, at start + i / rate, whatever has come back by then,
 * and its latency counts from that moment, so time spent waiting for a connection or in the server's queue
 * counts too (a closed loop of N clients would send the next request only after an answer, and its latency
 * would then be N / throughput by Little's law, set by N rather than by the server). The first `warmUpSeconds`
 * are sent at the same rate and not measured. `connections` bounds the keep-alive connections; a request
 * due while all are busy waits for one, its wait counted.
 */
export async function openLoad(target: string, port: number, requests: readonly Prepared[], options: {rate: number; seconds: number; warmUpSeconds: number; connections: number}): Promise<LoadFigures> {
  const agent = new http.Agent({keepAlive: true, maxSockets: options.connections});
  const samples: Sample[] = [];
  const notOk: Record<string, number> = {};
  const warmUp = Math.round(options.rate * options.warmUpSeconds);
  const total = Math.min(requests.length, warmUp + Math.round(options.rate * options.seconds));
  const interval = 1000 / options.rate;
  const begin = performance.now();
  const measuredFrom = begin + warmUp * interval;
  const sent: Promise<void>[] = [];
  for (let index = 0; index < total; ) {
    const now = performance.now();
    // Every request due by now goes out, so a late timer does not lower the offered rate.
    for (; index < total && begin + index * interval <= now; index += 1) {
      const request = requests[index] as Prepared;
      const due = begin + index * interval;
      const measured = index >= warmUp;
      sent.push(
        send(agent, port, request).then((answer) => {
          if (!measured) return;
          const end = performance.now();
          samples.push({operation: request.operation, ms: end - due, at: end - measuredFrom});
          countNotOk(notOk, answer);
        }),
      );
    }
    if (index < total) await new Promise((resolve) => setTimeout(resolve, Math.max(0, begin + index * interval - performance.now())));
  }
  await Promise.all(sent);
  agent.destroy();
  return figuresOf(target, samples, notOk, options.seconds);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The process's memory once RSS has stopped falling after the last GC: V8 hands back the pages a collection freed,
 * and the memory it collected with, on background threads after the pause, so RSS read at once counts memory
 * already given up (100,000 orders: 642.8 MB right after the GC, 525.7 MB 2 s later and still 40 s later; under a
 * load of 40, nothing had fallen 1 s after it). Read after at least 3 s, once RSS did not fall over the last 1 s,
 * at most 15 s after the GC.
 */
async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  await sleep(2000);
  let before = process.memoryUsage();
  for (let waited = 2000; waited < 15_000; waited += 1000) {
    await sleep(1000);
    const now = process.memoryUsage();
    if (now.rss >= before.rss) return now;
    before = now;
  }
  return before;
}


/**
 * The memory of the process left idle, as a server between bursts is. A forced GC frees the dead objects but leaves
 * the old-space pages they were spread over: after 100,000 orders, 157 MB live in 407 MB of old space. V8 compacts
 * them on its own once allocation stops, with its memory reducer: a few "reduce" mark-compacts that start some 10 to
 * 60 s later (2026-11-28, --trace-gc: 47 s; RSS 561 -> 353 MB, the live heap unchanged). Waits for a major GC this
 * code did not ask for, then for RSS to hold over 3 s; at most `limitMs`. `reducerSeconds` is undefined when V8 did
 * not compact within it, and the figure is then the RSS at the limit.
 */
async function idleMemory(limitMs = 120_000): Promise<{usage: NodeJS.MemoryUsage; reducerSeconds: number | undefined}> {
  const started = performance.now();
  let reducedAt: number | undefined;
  const observer = new PerformanceObserver((list) => {
    const major = list.getEntries().some((entry) => (entry as {readonly detail?: {readonly kind?: number}}).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR);
    if (major) reducedAt ??= performance.now();
  });
  observer.observe({entryTypes: ['gc']});
  try {
    let held = 0;
    let before = process.memoryUsage();
    while (performance.now() - started < limitMs) {
      await sleep(1000);
      const now = process.memoryUsage();
      held = reducedAt !== undefined && now.rss >= before.rss ? held + 1 : 0;
      before = now;
      if (held >= 3) break;
    }
    return {usage: before, reducerSeconds: reducedAt === undefined ? undefined : round((reducedAt - started) / 1000)};
  } finally {
    observer.disconnect();
  }
}

/**
 * The memory figure, measured in the process that calls it: run it in a child started with --expose-gc
 * (benchSandbox does). Creates `orders` orders through engine.handle(), eight at a time.
 */
export async function measureOrderMemory(orders: number): Promise<MemoryFigures> {
  const gc = (globalThis as {gc?: () => void}).gc;
  if (!gc) throw new Error('measureOrderMemory needs node --expose-gc');
  const pair = () => generateKeyPairSync('rsa', {modulusLength: 1024});
  const provider = pair();
  const bench = pair();
  const clientId = 'bench-merchant-0001';
  const engine = await SandboxEngine.create({
    spec: files.spec,
    validator: files.validator,
    providerKey: {privateKeyPem: provider.privateKey.export({type: 'pkcs8', format: 'pem'}).toString(), keyVersion: 1},
    defaultMerchantPublicKeyPem: files.merchantPublicKeyPem,
    hosts: {cashier: brand.hosts.sandboxCashier, files: brand.hosts.statementFiles},
    clock: fixedClock(Date.parse('2026-01-05T08:00:00Z')),
    rateLimits: false,
  });
  const registered = await engine.control.registerMerchant({clientId, publicKeyPem: bench.publicKey.export({type: 'spki', format: 'pem'}).toString()});
  if (!registered.ok) throw new Error(`registering the bench merchant: ${registered.message}`);
  const signer = {clientId, keyVersion: 1, privateKey: await importPrivateKey(bench.privateKey.export({type: 'pkcs8', format: 'pem'}).toString())};
  gc();
  const baseline = process.memoryUsage();
  const started = performance.now();
  const create = async (index: number) => {
    const number = `MEM-${String(index).padStart(8, '0')}`;
    const body = JSON.stringify(index % 2 === 0 ? paidOrder(number) : hostedOrder(number));
    const signed = await signRequest(signer, {method: 'POST', target: '/v1/orders', body}, engine.clock.now(), randomUUID());
    const response = await engine.handle(signed);
    if (response.status !== 200) throw new Error(`order ${index}: HTTP ${response.status} ${response.body}`);
  };
  const batch = 2000;
  for (let start = 0; start < orders; start += batch) {
    let next = start;
    const end = Math.min(orders, start + batch);
    await Promise.all(Array.from({length: 8}, async () => {
      for (let index = next++; index < end; index = next++) await create(index);
    }));
    // The clock moves on past the nonce window: due jobs run (hosted orders close at expiry, with ORDER.CLOSED).
    await engine.advance(files.spec.signing.nonceRetentionSeconds + 1);
  }
  // Past the default expiry of the last hosted orders: every order has its event.
  await engine.advance(1800 + 1);
  const seconds = (performance.now() - started) / 1000;
  // A full GC, a second idle for V8 to give back the pages it no longer needs, another GC: RSS then
  // reflects the state kept, not when the last collection happened to run.
  gc();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  gc();
  const atGc = process.memoryUsage();
  const settled = await settledMemory();
  const idle = await idleMemory();
  const after = idle.usage;
  // Read after the measurement, so the engine is alive while it is measured.
  const snapshot = engine.snapshot(clientId);
  return {
    orders: snapshot?.orders.length ?? 0,
    events: snapshot?.events.length ?? 0,
    seconds: round(seconds),
    baseline: {rssMb: megabytes(baseline.rss), heapUsedMb: megabytes(baseline.heapUsed)},
    after: {
      rssMb: megabytes(after.rss),
      reducerSeconds: idle.reducerSeconds,
      rssSettledMb: megabytes(settled.rss),
      rssAtGcMb: megabytes(atGc.rss),
      heapUsedMb: megabytes(after.heapUsed),
      heapTotalMb: megabytes(after.heapTotal),
    },
  };
}

/** Runs measureOrderMemory in a child process of its own, so the figure is that of an engine alone. */
function memoryInChild(orders: number): Promise<MemoryFigures> {
  return new Promise((resolve, reject) => {
    const script = `require(${JSON.stringify(__filename)}).measureOrderMemory(${orders}).then((figures) => console.log(JSON.stringify(figures)), (error) => { console.error(error); process.exit(1); });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', '-e', script], {cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe']});
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as MemoryFigures);
      else reject(new Error(`the memory child exited with ${code}: ${stderr}`));
    });
  });
}

function report(result: Omit<SandboxBenchResult, 'table'>, options: {clients: number}): string {
  const {server, mock, memory} = result;
  const row = (figures: LoadFigures) => `| ${figures.target} | ${figures.requests} | ${figures.seconds}${figures.exhausted ? ' (ran out of prepared requests)' : ''} | **${figures.perSecond}** | ${figures.p50Ms} | ${figures.p99Ms} | ${figures.maxMs} | ${Object.entries(figures.notOk).map(([status, count]) => `${status}: ${count}`).join(', ') || 'none'} |`;
  const operations = mix.map(({operation, share}) => `| ${operation} (${share * 100}%) | ${server.byOperation[operation]?.count ?? 0} | ${server.byOperation[operation]?.p50Ms ?? NaN} | ${server.byOperation[operation]?.p99Ms ?? NaN} | ${mock.byOperation[operation]?.p50Ms ?? NaN} | ${mock.byOperation[operation]?.p99Ms ?? NaN} |`);
  return [
    `Measured ${new Date().toISOString()} on ${process.platform}, Node ${process.version}, ${os.availableParallelism()} CPUs; ${options.clients} keep-alive clients, requests signed before each window.`,
    '',
    '| Target | Requests | Seconds | Requests/s | p50 ms | p99 ms | max ms | Not 200 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    row(server),
    row(mock),
    '',
    '| Operation | Count | Sandbox p50 ms | Sandbox p99 ms | Mock p50 ms | Mock p99 ms |',
    '| --- | --- | --- | --- | --- | --- |',
    ...operations,
    '',
    `Requests per second, second by second: sandbox ${server.perSecondSeries.join(', ')}; mock ${mock.perSecondSeries.join(', ')}.`,
    '',
    `Memory: ${memory.orders} orders and ${memory.events} events created through engine.handle() in ${memory.seconds} s; RSS ${memory.baseline.rssMb} MB before, ${memory.after.rssMb} MB idle after (${memory.after.reducerSeconds === undefined ? 'V8 did not compact the heap within the 120 s wait' : `V8's memory reducer compacting the heap ${memory.after.reducerSeconds} s after the work`}; ${memory.after.rssSettledMb} MB before it, once RSS had stopped falling after a full GC, a second's idle and another GC; ${memory.after.rssAtGcMb} MB right after the GC); heap used ${memory.baseline.heapUsedMb} MB before, ${memory.after.heapUsedMb} MB after (heap total ${memory.after.heapTotalMb} MB).`,
    '',
    '| Budget | Measured | Limit | Met |',
    '| --- | --- | --- | --- |',
    ...result.budgets.map((budget) => `| ${budget.name} | ${budget.value} | ${budget.limit} | ${budget.met ? 'yes' : '**no**'} |`),
  ].join('\n');
}

/** The whole benchmark: throughput and latency of the sandbox and of the Prism mock, then memory. */
export async function benchSandbox(options: SandboxBenchOptions = {}): Promise<SandboxBenchResult> {
  const seconds = options.seconds ?? 10;
  const clients = options.clients ?? 16;
  const orders = options.orders ?? 100_000;
  const log = options.log ?? (() => undefined);
  // Enough prepared requests for a server well beyond the reference machine's pace, and a warm-up.
  const warmUp = 500;
  const count = warmUp + 2500 * seconds;

  const sandboxPort = await freePort();
  log(`sandbox: npm run sandbox -- --no-rate-limits --port ${sandboxPort}`);
  const sandbox = await startChild(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts', 'sandbox.ts'), '--port', String(sandboxPort), '--no-rate-limits'], async () => (await fetch(`http://127.0.0.1:${sandboxPort}/_sandbox/health`)).ok);
  let server: LoadFigures;
  let prepared: Prepared[];
  try {
    const agent = new http.Agent({keepAlive: true, maxSockets: clients});
    const sign = await signer();
    const seeded = Array.from({length: 200}, () => `SEED-${randomUUID().slice(0, 22)}`);
    for (const number of seeded) {
      const answer = await send(agent, sandboxPort, await sign('createOrder', 'POST', '/v1/orders', paidOrder(number)));
      if (!answer.body.includes('"status":"PAID"')) throw new Error(`seeding a paid order failed: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
    }
    agent.destroy();
    log(`sandbox: ${seeded.length} paid orders seeded; signing ${count} requests`);
    prepared = await prepareMix(count, seeded);
    log(`sandbox: ${clients} clients for ${seconds} s`);
    server = await load('sandbox (npm run sandbox)', sandboxPort, prepared, {clients, seconds, warmUp, stripServerPath: false});
  } finally {
    await sandbox.stop();
  }

  const mockPort = await freePort();
  log(`mock: prism mock api/openapi.yaml --port ${mockPort}`);
  const prism = await startChild(process.execPath, [prismCli, 'mock', path.join(repoRoot, 'api', 'openapi.yaml'), '--port', String(mockPort), '--host', '127.0.0.1'], async () => {
    const response = await fetch(`http://127.0.0.1:${mockPort}/bank-corridors`, {headers: {'X-Signature': 'algorithm=RSA-SHA256, keyVersion=1, signature=AAAA'}});
    return response.status > 0;
  });
  let mock: LoadFigures;
  try {
    log(`mock: ${clients} clients for ${seconds} s, the same requests`);
    mock = await load('prism mock (stateless, no signatures)', mockPort, prepared, {clients, seconds, warmUp, stripServerPath: true});
  } finally {
    await prism.stop();
  }

  log(`memory: ${orders} orders in a child process`);
  const memory = await memoryInChild(orders);

  const budgets: Budget[] = [
    {name: 'throughput above the Prism mock', value: `${server.perSecond}/s`, limit: `> ${mock.perSecond}/s`, met: server.perSecond > mock.perSecond},
    {name: 'p99 latency of the mix', value: `${server.p99Ms} ms`, limit: '< 50 ms', met: server.p99Ms < 50},
    {name: 'every answer of the mix HTTP 200', value: `${Object.values(server.notOk).reduce((sum, count) => sum + count, 0)} not 200`, limit: '0', met: Object.keys(server.notOk).length === 0},
    {name: `RSS after ${memory.orders} orders`, value: `${memory.after.rssMb} MB`, limit: '< 512 MB', met: memory.orders === orders && memory.after.rssMb < 512},
  ];
  const result = {server, mock, memory, budgets};
  return {...result, table: report(result, {clients})};
}

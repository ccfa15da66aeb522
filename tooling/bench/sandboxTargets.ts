/**
 * The sandbox's throughput and p99 on each way of running it, in one run (npm run bench -- --sandbox; issue 33,
 * point 7): in memory, the journal (--data), PostgreSQL with one instance (--database), and two instances
 * sharing PostgreSQL behind nginx (--shared, hosting/sandbox/nginx.conf as the tests run it). A target with
 * signing worker threads was measured until 2026-11-27 (0.79x and 0.59x of in memory without them, bench/sandbox.md)
 * and removed with the threads: Node's WebCrypto already signs on libuv's thread pool, off the main thread.
 *
 * Every target gets the same prepared requests: the mix of tooling/bench/sandbox.ts (Create order 40%, Retrieve
 * order 30%, Refund 15%, Query order page 15%) spread over 8 merchants registered with the test merchant's public
 * key, signed before the windows so the load generator's RSA work does not take the server's cores. Each target
 * starts empty and is seeded with the same 200 paid orders. The in-memory target runs first and again last, so
 * the figure the others are compared with spans the run's slow and quiet moments; the load average is noted per target.
 *
 * Budgets (the issue's aims): PostgreSQL with one instance at least half the in-memory figure, p99 under 50 ms for every target, every answer HTTP 200.
 */
import {randomUUID} from 'node:crypto';
import {mkdtempSync, rmSync} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {repoRoot, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {freePort, load, paidOrder, prepareMix, send, signer, startChild, type Budget, type LoadFigures} from './sandbox';

/** A running target: where it listens, and how to stop it. */
export interface RunningTarget {
  readonly port: number;
  stop(): Promise<void>;
}

/** How the bench starts PostgreSQL and the nginx deployment: tests/support's helpers, passed in by scripts/bench.ts. */
export interface Deployments {
  startPostgres(): Promise<{createDatabase(name: string): Promise<string>; stop(): Promise<void>}>;
  startSharedSandbox(instanceFlags: ReadonlyArray<readonly string[]>): Promise<{url: string; stop(): Promise<void>}>;
}

export interface TargetFigures extends LoadFigures {
  readonly loadBefore: number;
  readonly loadAfter: number;
}

export interface SandboxTargetsResult {
  readonly figures: readonly TargetFigures[];
  readonly budgets: readonly Budget[];
  /** Markdown for bench/sandbox.md. */
  readonly report: string;
}

const merchantCount = 8;
const seededOrders = 200;
const clients = 16;
const warmUp = 500;
/** Requests are signed again when older than this: the sandbox takes timestamps within 300 s of its clock. */
const maxPreparedAgeMs = 200_000;
const files = sandboxFiles();
const merchants = Array.from({length: merchantCount}, (_, index) => `bench-merchant-${String(index + 1).padStart(2, '0')}`);

/** `npm run sandbox` with these flags, as a child process. */
async function sandboxProcess(flags: readonly string[]): Promise<RunningTarget> {
  const port = await freePort();
  const child = await startChild(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'scripts', 'sandbox.ts'), '--port', String(port), '--no-rate-limits', ...flags],
    async () => (await fetch(`http://127.0.0.1:${port}/_sandbox/health`)).ok,
  );
  return {port, stop: child.stop};
}

/** Registers the bench merchants and seeds paid orders, the i-th order for merchant i modulo their number. */
async function seed(port: number, orders: readonly string[]): Promise<void> {
  for (const clientId of merchants) {
    const response = await fetch(`http://127.0.0.1:${port}/_sandbox/merchants`, {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({clientId, publicKeyPem: files.merchantPublicKeyPem}),
    });
    if (!response.ok) throw new Error(`registering ${clientId}: HTTP ${response.status} ${await response.text()}`);
  }
  const sign = await signer();
  const agent = new http.Agent({keepAlive: true, maxSockets: 8});
  try {
    await Promise.all(
      Array.from({length: merchantCount}, async (_, lane) => {
        for (let index = lane; index < orders.length; index += merchantCount) {
          const request = await sign('createOrder', 'POST', '/v1/orders', paidOrder(orders[index] ?? ''), merchants[lane]);
          const answer = await send(agent, port, request);
          if (!answer.body.includes('"status":"PAID"')) throw new Error(`seeding failed: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
}

const loadAverage = () => Math.round((os.loadavg()[0] ?? 0) * 10) / 10;

export async function benchSandboxTargets(options: {
  readonly seconds?: number;
  readonly deployments: Deployments;
  readonly log?: (line: string) => void;
}): Promise<SandboxTargetsResult> {
  const seconds = options.seconds ?? 10;
  const log = options.log ?? (() => undefined);
  const orders = Array.from({length: seededOrders}, () => `SEED-${randomUUID().slice(0, 22)}`);
  const count = warmUp + 4000 * seconds;
  let prepared = {at: 0, requests: [] as Awaited<ReturnType<typeof prepareMix>>};
  const fresh = async () => {
    if (Date.now() - prepared.at > maxPreparedAgeMs) {
      log(`signing ${count} requests`);
      prepared = {at: Date.now(), requests: await prepareMix(count, orders, merchants)};
    }
    return prepared.requests;
  };

  const journalFolder = mkdtempSync(path.join(os.tmpdir(), 'sandbox-bench-'));
  let postgres: Awaited<ReturnType<Deployments['startPostgres']>> | undefined;
  let databases = 0;
  const targets: {name: string; start(): Promise<RunningTarget>}[] = [
    {name: 'in memory', start: () => sandboxProcess([])},
    {name: 'journal (--data)', start: () => sandboxProcess(['--data', path.join(journalFolder, `journal-${Date.now()}.jsonl`)])},
    {
      name: 'PostgreSQL, one instance (--database)',
      start: async () => {
        postgres ??= await options.deployments.startPostgres();
        const started = await sandboxProcess(['--database', await postgres.createDatabase(`bench${(databases += 1)}`)]);
        return {port: started.port, stop: started.stop};
      },
    },
    {
      name: 'PostgreSQL, two instances behind nginx (--shared)',
      start: async () => {
        await postgres?.stop();
        postgres = undefined;
        const shared = await options.deployments.startSharedSandbox([[], []]);
        return {port: Number(new URL(shared.url).port), stop: shared.stop};
      },
    },
  ];
  const order = [...targets, targets[0] as (typeof targets)[number]];

  const figures: TargetFigures[] = [];
  try {
    for (const target of order) {
      log(`${target.name}: starting`);
      const running = await target.start();
      try {
        await seed(running.port, orders);
        const requests = await fresh();
        const loadBefore = loadAverage();
        log(`${target.name}: ${clients} clients for ${seconds} s (load average ${loadBefore})`);
        const measured = await load(target.name, running.port, requests, {clients, seconds, warmUp, stripServerPath: false});
        figures.push({...measured, loadBefore, loadAfter: loadAverage()});
        log(`${target.name}: ${measured.perSecond}/s, p99 ${measured.p99Ms} ms`);
      } finally {
        await running.stop();
      }
    }
  } finally {
    await postgres?.stop();
    rmSync(journalFolder, {recursive: true, force: true});
  }
  return summarise(figures, seconds);
}

function summarise(figures: readonly TargetFigures[], seconds: number): SandboxTargetsResult {
  const mean = (name: string) => {
    const runs = figures.filter((entry) => entry.target === name);
    return Math.round(runs.reduce((sum, entry) => sum + entry.perSecond, 0) / Math.max(1, runs.length));
  };
  const names = [...new Set(figures.map((entry) => entry.target))];
  const [inMemoryName = '', , postgresOne = ''] = names;
  const [inMemory, database] = [mean(inMemoryName), mean(postgresOne)];
  const budgets: Budget[] = [
    {name: 'PostgreSQL (one instance) against in memory', value: `${(database / inMemory).toFixed(2)}x`, limit: '>= 0.5x', met: database >= 0.5 * inMemory},
    ...figures.map((entry) => ({name: `p99 of ${entry.target}`, value: `${entry.p99Ms} ms`, limit: '< 50 ms', met: entry.p99Ms < 50})),
    {
      name: 'every answer HTTP 200',
      value: `${figures.reduce((sum, entry) => sum + Object.values(entry.notOk).reduce((total, value) => total + value, 0), 0)} not 200`,
      limit: '0',
      met: figures.every((entry) => Object.keys(entry.notOk).length === 0),
    },
  ];
  const row = (entry: TargetFigures) =>
    `| ${entry.target} | ${entry.requests} | **${entry.perSecond}** | ${entry.p50Ms} | ${entry.p99Ms} | ${entry.maxMs} | ${entry.loadBefore} / ${entry.loadAfter} | ${Object.entries(entry.notOk).map(([status, number]) => `${status}: ${number}`).join(', ') || 'none'} |`;
  const report = [
    '# Sandbox throughput by way of running it',
    '',
    `Measured ${new Date().toISOString()} with \`npm run bench -- --sandbox\` (tooling/bench/sandboxTargets.ts) on ${process.platform}, Node ${process.version}, ${os.availableParallelism()} CPUs, shared with other work (the load average, 1 minute, is given before and after each window). ${clients} keep-alive clients for ${seconds} s per target after ${warmUp} warm-up requests; the mix is 40% Create order, 30% Retrieve order, 15% Refund, 15% Query order page over ${merchantCount} merchants, signed before the windows. The load generator runs on the same 2 cores as the server.`,
    '',
    '| Target | Requests | Requests/s | p50 ms | p99 ms | max ms | Load before / after | Not 200 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...figures.map(row),
    '',
    `Mean of the in-memory runs (first and last): ${inMemory}/s; PostgreSQL with one instance ${database}/s.`,
    '',
    '| Budget | Measured | Limit | Met |',
    '| --- | --- | --- | --- |',
    ...budgets.map((budget) => `| ${budget.name} | ${budget.value} | ${budget.limit} | ${budget.met ? 'yes' : '**no**'} |`),
    '',
  ].join('\n');
  return {figures, budgets, report};
}

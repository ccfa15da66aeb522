/**
 * The sandbox's throughput and latency on each way of running it, in one run (npm run bench -- --sandbox; issue 33,
 * points 2 and 7): in memory, the journal (--data), PostgreSQL with one instance (--database), and two instances
 * sharing PostgreSQL behind nginx (--shared, hosting/sandbox/nginx.conf as the tests run it). A target with
 * signing worker threads was measured until 2026-11-27 (0.79x and 0.59x of in memory without them, bench/sandbox.md)
 * and removed with the threads: Node's WebCrypto already signs on libuv's thread pool, off the main thread.
 *
 * Every target gets the same prepared requests: the mix of tooling/bench/sandbox.ts (Create order 40%, Retrieve
 * order 30%, Refund 15%, Query order page 15%) spread over 8 merchants registered with the test merchant's public
 * key, signed before the windows so the load generator's RSA work does not take the server's cores. Each window
 * starts on a fresh target seeded with the same 200 paid orders; the load average is noted per window.
 *
 * Two kinds of window:
 * - Saturation (closed loop): 16 keep-alive clients, each sending its next request when its answer arrives. This
 *   gives the most a target answers per second; its latency is about 16 / throughput by Little's law, set by
 *   the client count rather than the server, so no latency budget is judged on it. The in-memory target runs
 *   first and again last, so the figure the others are compared with spans the run's slow and quiet moments.
 * - Fixed rate (open loop): the same offered rate for every target (by default 60% of the slowest target's
 *   saturation throughput in this run; --rate N fixes it), requests sent on a schedule and their latency counted
 *   from when each was due, so queueing counts. The p99 budget is judged here: it says what a caller sees at a
 *   load every target can carry.
 *
 * With --merchants N, a many-merchant run follows (issue 33, point 2): two `--hosted --shared` instances behind
 * nginx on a database seeded with N registered merchants, the mix spread over all of them, a saturation and a
 * fixed-rate window; each instance's RSS and the merchants it holds are read before and after.
 *
 * Each window also records where the processor time went (Linux, from /proc/stat): the cores the whole machine kept
 * busy, the share of them the load generator (this process) took, and the rest per answer, which on a quiet machine is
 * the target's cost of a call (its processes, nginx and PostgreSQL included). A target that answers no faster while
 * cores stay idle is bound by one thread, not by the processor.
 *
 * Budgets (the issue's aims): PostgreSQL with one instance at least half the in-memory figure (saturation), p99
 * under 50 ms for every target at the fixed rate, every answer HTTP 200.
 */
import {randomUUID} from 'node:crypto';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type {RecordValue} from '../../src/sandbox/engine/store';
import {createNodeEngine, repoRoot, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {withCpu, type WindowCpu} from './windowCpu';
import {freePort, load, openLoad, paidOrder, prepareMix, send, signer, startChild, type Budget, type LoadFigures} from './sandbox';

/** A running target: where it listens, and how to stop it. */
export interface RunningTarget {
  readonly port: number;
  stop(): Promise<void>;
}

/** How the bench starts PostgreSQL and the nginx deployment: tests/support's helpers, passed in by scripts/bench.ts. */
export interface Deployments {
  startPostgres(): Promise<{createDatabase(name: string): Promise<string>; stop(): Promise<void>}>;
  startSharedSandbox(
    instanceFlags: ReadonlyArray<readonly string[]>,
    seed?: (database: string) => Promise<void>,
  ): Promise<{url: string; instances: ReadonlyArray<{readonly pid: number | undefined; readonly url: string}>; stop(): Promise<void>}>;
  /** Writes a sandbox's records into an empty database, as the instances' store holds them. */
  seedRecords(database: string, records: ReadonlyArray<readonly [string, RecordValue]>): Promise<void>;
}

export interface TargetFigures extends LoadFigures {
  /** Saturation (closed loop) or at the fixed rate (open loop). */
  readonly window: 'saturation' | 'fixed rate';
  readonly loadBefore: number;
  readonly loadAfter: number;
  /** Where the processor time of the window went; undefined where /proc/stat cannot be read. */
  readonly cpu: WindowCpu | undefined;
}


/** One instance's memory and the merchants it held, at a moment of the many-merchant run. */
export interface InstanceMemory {
  readonly when: string;
  readonly rssMb: readonly number[];
  readonly cachedMerchants: readonly number[];
}

export interface ManyMerchantsFigures {
  readonly merchants: number;
  readonly windows: readonly TargetFigures[];
  readonly memory: readonly InstanceMemory[];
}

export interface SandboxTargetsResult {
  readonly figures: readonly TargetFigures[];
  readonly rate: number;
  readonly many?: ManyMerchantsFigures;
  readonly budgets: readonly Budget[];
  /** Markdown for bench/sandbox.md. */
  readonly report: string;
}

/** What `--only` names each target by, in the order the targets run. */
export const targetKeys = ['memory', 'journal', 'postgres', 'shared'] as const;
export type TargetKey = (typeof targetKeys)[number];

const merchantCount = 8;
const seededOrders = 200;
const clients = 16;
const warmUp = 500;
/** Requests signed per second of window: over twice the best in-memory figure measured here (759/s), a window never runs out. */
const preparedPerSecond = 2000;
/** The fixed-rate window: a second of warm-up at the rate, then the window; connections enough never to be the limit at that rate. */
const openWarmUpSeconds = 1;
const openConnections = 64;
/** The default fixed rate, as a share of the slowest target's saturation throughput in the same run. */
const rateShare = 0.6;
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

/**
 * Registers the bench merchants (unless the database holds them already) and seeds paid orders, the i-th order
 * for merchant i modulo their number, as prepareMix expects.
 */
async function seed(port: number, orders: readonly string[], as: readonly string[] = merchants, register = true): Promise<void> {
  for (const clientId of register ? as : []) {
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
          const request = await sign('createOrder', 'POST', '/v1/orders', paidOrder(orders[index] ?? ''), as[index % as.length]);
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

/** The records of a sandbox with `count` merchants registered with the test merchant's public key (and the test merchant). */
async function merchantRecords(count: number): Promise<{ids: string[]; records: ReadonlyArray<readonly [string, RecordValue]>}> {
  const engine = await createNodeEngine({rateLimits: false});
  const ids = Array.from({length: count}, (_, index) => `bench-tenant-${String(index + 1).padStart(5, '0')}`);
  for (const clientId of ids) {
    const registered = await engine.control.registerMerchant({clientId, publicKeyPem: files.merchantPublicKeyPem});
    if (!registered.ok) throw new Error(`registering ${clientId}: ${registered.message}`);
  }
  return {ids, records: engine.exportState().records};
}

/** Resident memory of a process, from /proc (Linux). */
function rssMb(pid: number | undefined): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(pid === undefined ? '' : readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Math.round(Number(line[1]) / 102.4) / 10 : NaN;
}

export async function benchSandboxTargets(options: {
  readonly seconds?: number;
  /** The fixed rate of the open-loop windows, requests/s; default 60% of the slowest saturation throughput. */
  readonly rate?: number;
  /** Registered merchants of the many-merchant run; none without it. */
  readonly merchants?: number;
  /** Only these targets (keys of `targetKeys`), for profiling one of them; the others' windows are left out. */
  readonly only?: readonly TargetKey[];
  /** Leaves out the saturation windows (with `rate`, which they would otherwise choose). */
  readonly fixedRateOnly?: boolean;
  readonly deployments: Deployments;
  readonly log?: (line: string) => void;
}): Promise<SandboxTargetsResult> {
  const seconds = options.seconds ?? 10;
  const log = options.log ?? (() => undefined);
  const orders = Array.from({length: seededOrders}, () => `SEED-${randomUUID().slice(0, 22)}`);
  const count = warmUp + preparedPerSecond * seconds;
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
  const targets: {key: TargetKey; name: string; start(): Promise<RunningTarget>}[] = [
    {key: 'memory', name: 'in memory', start: () => sandboxProcess([])},
    {key: 'journal', name: 'journal (--data)', start: () => sandboxProcess(['--data', path.join(journalFolder, `journal-${Date.now()}.jsonl`)])},
    {
      key: 'postgres',
      name: 'PostgreSQL, one instance (--database)',
      start: async () => {
        postgres ??= await options.deployments.startPostgres();
        const started = await sandboxProcess(['--database', await postgres.createDatabase(`bench${(databases += 1)}`)]);
        return {port: started.port, stop: started.stop};
      },
    },
    {
      key: 'shared',
      name: 'PostgreSQL, two instances behind nginx (--shared)',
      start: async () => {
        await postgres?.stop();
        postgres = undefined;
        const shared = await options.deployments.startSharedSandbox([[], []]);
        return {port: Number(new URL(shared.url).port), stop: shared.stop};
      },
    },
  ];

  /** One window on a fresh start of the target. */
  const measure = async (
    target: (typeof targets)[number],
    window: (port: number, requests: Awaited<ReturnType<typeof fresh>>) => Promise<LoadFigures>,
    kind: TargetFigures['window'],
    warmUpAnswers: number,
  ) => {
    log(`${target.name}, ${kind}: starting`);
    const running = await target.start();
    try {
      await seed(running.port, orders);
      const requests = await fresh();
      const loadBefore = loadAverage();
      log(`${target.name}, ${kind}: ${seconds} s (load average ${loadBefore})`);
      const {result: measured, cpu} = await withCpu(() => window(running.port, requests), (figures) => figures.requests + warmUpAnswers);
      log(`${target.name}, ${kind}: ${measured.perSecond}/s, p50 ${measured.p50Ms} ms, p99 ${measured.p99Ms} ms${cpu ? `, ${cpu.busyCores} cores busy` : ''}`);
      return {...measured, window: kind, loadBefore, loadAfter: loadAverage(), cpu};
    } finally {
      await running.stop();
    }
  };

  const figures: TargetFigures[] = [];
  let rate = options.rate ?? 0;
  let many: ManyMerchantsFigures | undefined;
  try {
    const chosen = targets.filter((target) => options.only?.includes(target.key) ?? true);
    // In memory runs first and again last, so the figure the others are compared with spans the run.
    const saturated = chosen[0]?.key === 'memory' && chosen.length > 1 ? [...chosen, chosen[0]] : chosen;
    if (options.fixedRateOnly && !options.rate) throw new Error('Leaving out the saturation windows needs a fixed rate (--rate N).');
    for (const target of options.fixedRateOnly ? [] : saturated) {
      figures.push(await measure(target, (port, requests) => load(target.name, port, requests, {clients, seconds, warmUp, stripServerPath: false}), 'saturation', warmUp));
    }
    rate ||= Math.max(1, Math.round(rateShare * Math.min(...figures.map((entry) => entry.perSecond))));
    for (const target of chosen) {
      const fixed = (port: number, requests: Awaited<ReturnType<typeof fresh>>) =>
        openLoad(target.name, port, requests, {rate, seconds, warmUpSeconds: openWarmUpSeconds, connections: openConnections});
      figures.push(await measure(target, fixed, 'fixed rate', rate * openWarmUpSeconds));
    }
    await postgres?.stop();
    postgres = undefined;
    if (options.merchants) many = await manyMerchants(options.merchants, {seconds, rate, orders, deployments: options.deployments, log});
  } finally {
    await postgres?.stop();
    rmSync(journalFolder, {recursive: true, force: true});
  }
  return summarise(figures, seconds, rate, many);
}

/**
 * The many-merchant run: two `--hosted --shared` instances on a database holding `merchants` registered merchants,
 * the mix spread over all of them; a saturation window, then one at the fixed rate, on the same deployment (each
 * on its own slice of the prepared requests); each instance's RSS and held merchants before, between and after.
 */
async function manyMerchants(
  merchants: number,
  options: {seconds: number; rate: number; orders: readonly string[]; deployments: Deployments; log: (line: string) => void},
): Promise<ManyMerchantsFigures> {
  const {seconds, rate, orders, deployments, log} = options;
  const name = `PostgreSQL, two hosted instances behind nginx, ${merchants} merchants`;
  log(`${name}: registering`);
  const {ids, records} = await merchantRecords(merchants);
  const shared = await deployments.startSharedSandbox([['--hosted'], ['--hosted']], (database) => deployments.seedRecords(database, records));
  const memory: InstanceMemory[] = [];
  const readMemory = async (when: string) => {
    const cachedMerchants = await Promise.all(
      shared.instances.map(async (instance) => Number(((await (await fetch(`${instance.url}/_sandbox/health`)).json()) as {cachedMerchants?: number}).cachedMerchants)),
    );
    memory.push({when, rssMb: shared.instances.map((instance) => rssMb(instance.pid)), cachedMerchants});
  };
  const windows: TargetFigures[] = [];
  try {
    const port = Number(new URL(shared.url).port);
    await readMemory('started');
    await seed(port, orders, ids, false);
    log(`${name}: signing ${warmUp + preparedPerSecond * seconds} requests over ${merchants} merchants`);
    const requests = await prepareMix(warmUp + preparedPerSecond * seconds, orders, ids);
    await readMemory(`${orders.length} paid orders seeded`);
    let loadBefore = loadAverage();
    const {result: saturation, cpu} = await withCpu(
      () => load(name, port, requests, {clients, seconds, warmUp, stripServerPath: false}),
      (figures) => figures.requests + warmUp,
    );
    windows.push({...saturation, window: 'saturation', loadBefore, loadAfter: loadAverage(), cpu});
    log(`${name}, saturation: ${saturation.perSecond}/s, p99 ${saturation.p99Ms} ms`);
    await readMemory('after the saturation window');
    loadBefore = loadAverage();
    // Requests not sent yet: a request once answered would be a replay (its nonce is remembered).
    const rest = requests.slice(warmUp + saturation.requests);
    const {result: fixed, cpu: fixedCpu} = await withCpu(
      () => openLoad(name, port, rest, {rate, seconds, warmUpSeconds: openWarmUpSeconds, connections: openConnections}),
      (figures) => figures.requests + rate * openWarmUpSeconds,
    );
    windows.push({...fixed, window: 'fixed rate', loadBefore, loadAfter: loadAverage(), cpu: fixedCpu});
    log(`${name}, fixed rate: ${fixed.perSecond}/s, p99 ${fixed.p99Ms} ms`);
    await readMemory('after the fixed-rate window');
  } finally {
    await shared.stop();
  }
  return {merchants, windows, memory};
}

function summarise(figures: readonly TargetFigures[], seconds: number, rate: number, many: ManyMerchantsFigures | undefined): SandboxTargetsResult {
  const saturation = figures.filter((entry) => entry.window === 'saturation');
  const fixed = figures.filter((entry) => entry.window === 'fixed rate');
  const mean = (name: string) => {
    const runs = saturation.filter((entry) => entry.target === name);
    return Math.round(runs.reduce((sum, entry) => sum + entry.perSecond, 0) / Math.max(1, runs.length));
  };
  const names = [...new Set(saturation.map((entry) => entry.target))];
  const [inMemoryName = '', , postgresOne = ''] = names;
  const [inMemory, database] = [mean(inMemoryName), mean(postgresOne)];
  const every = [...figures, ...(many?.windows ?? [])];
  const notOk = every.reduce((sum, entry) => sum + Object.values(entry.notOk).reduce((total, value) => total + value, 0), 0);
  // A run of some targets only (--only) may lack one of the two compared.
  const ratio = inMemoryName === 'in memory' && postgresOne.startsWith('PostgreSQL, one') ? [{name: 'PostgreSQL (one instance) against in memory, at saturation', value: `${(database / inMemory).toFixed(2)}x`, limit: '>= 0.5x', met: database >= 0.5 * inMemory}] : [];
  const budgets: Budget[] = [
    ...ratio,
    ...fixed.map((entry) => ({name: `p99 of ${entry.target} at ${rate}/s`, value: `${entry.p99Ms} ms`, limit: '< 50 ms', met: entry.p99Ms < 50})),
    {name: 'every answer HTTP 200', value: `${notOk} not 200`, limit: '0', met: notOk === 0},
  ];
  const notOkText = (entry: LoadFigures) => Object.entries(entry.notOk).map(([status, number]) => `${status}: ${number}`).join(', ') || 'none';
  const cpuCells = (entry: TargetFigures) => (entry.cpu ? `${entry.cpu.busyCores} / ${entry.cpu.generatorCores} | ${entry.cpu.msPerAnswer}` : '- | -');
  const row = (entry: TargetFigures) =>
    `| ${entry.target} | ${entry.requests} | **${entry.perSecond}** | ${entry.p50Ms} | ${entry.p99Ms} | ${entry.maxMs} | ${cpuCells(entry)} | ${entry.loadBefore} / ${entry.loadAfter} | ${notOkText(entry)} |`;
  const header = (first: string, answered: string) => [
    `| ${first} | Requests | ${answered} | p50 ms | p99 ms | max ms | Cores busy (all / load generator) | CPU ms per answer | Load before / after | Not 200 |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const manySection = many
    ? [
        `## Many merchants: ${many.merchants} registered, two hosted instances behind nginx`,
        '',
        `\`--merchants ${many.merchants}\`: two \`--hosted --shared\` instances (the service unit's \`--cache-merchants 1000\` default) on a PostgreSQL database seeded with ${many.merchants} registered merchants; creates and lists spread over all of them, retrieves and refunds over the ${seededOrders} seeded paid orders (one merchant each). The saturation window, then the fixed-rate window at ${rate}/s, on the same deployment.`,
        '',
        ...header('Window', 'Requests/s'),
        ...many.windows.map(
          (entry) =>
            `| ${entry.window} | ${entry.requests} | **${entry.perSecond}** | ${entry.p50Ms} | ${entry.p99Ms} | ${entry.maxMs} | ${cpuCells(entry)} | ${entry.loadBefore} / ${entry.loadAfter} | ${notOkText(entry)} |`,
        ),
        '',
        '| Moment | RSS MB (instance 1 / 2) | Merchants held (1 / 2) |',
        '| --- | --- | --- |',
        ...many.memory.map((entry) => `| ${entry.when} | ${entry.rssMb.join(' / ')} | ${entry.cachedMerchants.join(' / ')} |`),
        '',
      ]
    : [];
  const report = [
    '# Sandbox throughput and latency by way of running it',
    '',
    `Measured ${new Date().toISOString()} with \`npm run bench -- --sandbox\` (tooling/bench/sandboxTargets.ts) on ${process.platform}, Node ${process.version}, ${os.availableParallelism()} CPUs, shared with other work (the load average, 1 minute, is given before and after each window). Each window lasts ${seconds} s on a fresh target seeded with ${seededOrders} paid orders; the mix is 40% Create order, 30% Retrieve order, 15% Refund, 15% Query order page over ${merchantCount} merchants, signed before the windows. The load generator runs on the same 2 cores as the server. Cores busy: the machine's average over the window (warm-up included, from /proc/stat), and the load generator's share of it; CPU ms per answer: the busy time less the generator's, per answer, which on a quiet machine is the target's cost of a call (nginx and PostgreSQL included where they serve it). Below saturation a call costs more of it than at saturation, most likely because the event loop and libuv's pool then wake for each call instead of taking calls in batches.`,
    '',
    `## At a fixed rate: ${rate} requests/s offered to every target (the latency budget)`,
    '',
    `Open loop: requests sent on a schedule at ${rate}/s (${rateChoice(rate, saturation)}) after ${openWarmUpSeconds} s of warm-up at that rate, each request's latency counted from when it was due, so time queued counts. The p99 budget is judged here.`,
    '',
    ...header('Target', 'Answered/s'),
    ...fixed.map(row),
    '',
    '## At saturation (throughput)',
    '',
    `Closed loop: ${clients} keep-alive clients, each sending its next request when its answer arrives, after ${warmUp} warm-up requests; in memory first and again last. Latency here is about ${clients} / throughput (Little's law), set by the client count: it is not judged.`,
    '',
    ...header('Target', 'Requests/s'),
    ...saturation.map(row),
    '',
    `Mean of the in-memory runs (first and last): ${inMemory}/s; PostgreSQL with one instance ${database}/s.`,
    '',
    ...manySection,
    '## Budgets',
    '',
    '| Budget | Measured | Limit | Met |',
    '| --- | --- | --- | --- |',
    ...budgets.map((budget) => `| ${budget.name} | ${budget.value} | ${budget.limit} | ${budget.met ? 'yes' : '**no**'} |`),
    '',
  ].join('\n');
  return {figures, rate, ...(many ? {many} : {}), budgets, report};
}

/** How the fixed rate was chosen, for the report. */
function rateChoice(rate: number, saturation: readonly TargetFigures[]): string {
  const slowest = Math.min(...saturation.map((entry) => entry.perSecond));
  return `${Math.round((rate / slowest) * 100)}% of the slowest saturation figure in this run, ${slowest}/s`;
}

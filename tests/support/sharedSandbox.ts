/**
 * The hosted sandbox as the provider runs it, on loopback for the tests: a throwaway PostgreSQL (postgres.ts),
 * instances of the bundled sandbox with `--database URL --shared` (as hosting/sandbox/veloxa-sandbox@.service starts
 * them; `npm run sandbox` runs the same command line), and Debian's nginx running hosting/sandbox/nginx.conf
 * as written but for its ports (free ones) and a temporary prefix. nginx is installed with apt-get when it is
 * missing and the tests run as root.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {httpTarget} from '../../src/sandbox/client/overHttp';
import {repoRoot} from '../../src/sandbox/hosts/server/loadEngine';
import {postgresStore} from '../../src/sandbox/hosts/server/postgresStore';
import type {RecordValue} from '../../src/sandbox/engine/store';
import pg from 'pg';
import {installDebianPackages} from '../../tooling/debianPackages';
import {findNginx} from '../../tooling/testPackages';
import {freePort, startPostgres, type TestPostgres} from './postgres';
import {sandboxBundle} from './sandboxBundle';
import {sandboxClient} from './sandboxClient';

export interface SandboxInstance {
  readonly port: number;
  /** The instance's process (the bench reads its memory). */
  readonly pid: number | undefined;
  readonly url: string;
  /** Everything it printed (the JSON request lines on stdout, problems on stderr). */
  output(): string;
  /** Sends a signal and resolves with the exit code once it has exited. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

export interface SharedSandbox {
  /** nginx, in front of every instance. */
  readonly url: string;
  readonly database: string;
  readonly postgres: TestPostgres;
  readonly instances: SandboxInstance[];
  /** Starts an instance on `port` (a stopped one's, to bring it back behind nginx). */
  startInstance(port: number, flags?: readonly string[]): Promise<SandboxInstance>;
  stop(): Promise<void>;
}

function nginxBinary(): string {
  const found = findNginx();
  if (found) return found;
  // npm test installs it first (scripts/provision.ts); this is for a test file run on its own.
  if (!installDebianPackages(['nginx'])) throw new Error('nginx is not installed: apt-get install -y nginx (Debian).');
  const installed = findNginx();
  if (!installed) throw new Error('apt-get installed nginx, but no nginx is in /usr/sbin or /usr/bin.');
  return installed;
}

/** hosting/sandbox/nginx.conf with the tests' ports: its `listen` line and one upstream `server` line per instance. */
function nginxConfig(listenPort: number, instancePorts: readonly number[]): string {
  const written = readFileSync(path.join(repoRoot, 'hosting', 'sandbox', 'nginx.conf'), 'utf8');
  const serverLines = /^(\s*)server 127\.0\.0\.1:\d+( [^;]*);\n(?:\s*server 127\.0\.0\.1:\d+[^;]*;\n)*/m;
  const match = serverLines.exec(written);
  if (!match) throw new Error('hosting/sandbox/nginx.conf has no upstream server lines');
  const [, indent = '', parameters = ''] = match;
  return written
    .replace(serverLines, instancePorts.map((port) => `${indent}server 127.0.0.1:${port}${parameters};\n`).join(''))
    .replace(/listen 127\.0\.0\.1:\d+;/, `listen 127.0.0.1:${listenPort};`);
}

async function waitFor(url: string, what: string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const status = await fetch(url)
      .then((response) => response.status)
      .catch(() => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url} in ${seconds} s (last status ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Every instance process still running. They are killed when this process exits: a test file whose set-up failed
 * half-way (one instance up, the other not) would otherwise leave a child whose pipes keep the file's process,
 * and so `node --test`, waiting for ever.
 */
const runningInstances = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of runningInstances) child.kill('SIGKILL');
});

/**
 * One `--shared` instance of `database`, resolved once it listens. On `port`, or with port 0 on a port the instance
 * binds itself and names in its first line: a port found free and then handed over can be taken in between (by the
 * local end of any outgoing connection), and the instance then fails to start.
 */
export async function startInstanceProcess(database: string, port: number, flags: readonly string[]): Promise<SandboxInstance> {
  // The bundled sandbox, as the service unit runs it (tests/support/sandboxBundle.ts).
  const child: ChildProcess = spawn(
    process.execPath,
    [await sandboxBundle(), '--database', database, '--shared', '--port', String(port), ...flags],
    {stdio: ['ignore', 'pipe', 'pipe']},
  );
  runningInstances.add(child);
  child.once('exit', () => runningInstances.delete(child));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const instanceOn = (listening: number): SandboxInstance => ({
    port: listening,
    pid: child.pid,
    url: `http://127.0.0.1:${listening}`,
    output: () => output,
    stop: (signal) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  });
  const which = port === 0 ? `of ${database} on a port of its own` : `on ${port}`;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the instance ${which} did not start in 60 s:\n${output}`));
    }, 60_000);
    const onExit = (code: number | null) => reject(new Error(`the instance ${which} exited with ${String(code)}:\n${output}`));
    child.once('exit', onExit);
    child.stdout?.on('data', () => {
      const listening = /sandbox at http:\/\/[^:/\s]+:(\d+)/.exec(output)?.[1];
      if (listening === undefined) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(instanceOn(Number(listening)));
    });
  });
}

/** The instances, once all have started; when one has not, the others stopped and its error thrown. */
export async function startedOrStopped(starting: ReadonlyArray<Promise<SandboxInstance>>): Promise<SandboxInstance[]> {
  const results = await Promise.allSettled(starting);
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed === undefined) return started;
  await Promise.all(started.map((instance) => instance.stop('SIGKILL')));
  throw failed.reason;
}

/**
 * PostgreSQL, `count` instances (each with its own extra flags) and nginx in front of them. `seed`, when
 * given, fills the empty database before any instance starts (the samples' merchants and objects).
 */
export async function startSharedSandbox(
  instanceFlags: ReadonlyArray<readonly string[]>,
  seed?: (database: string) => Promise<void>,
): Promise<SharedSandbox> {
  const nginx = nginxBinary();
  const postgres = await startPostgres();
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'sandbox-nginx-'));
  let proxy: ChildProcess | undefined;
  const instances: SandboxInstance[] = [];
  try {
    const database = await postgres.createDatabase('hosted');
    await seed?.(database);
    // Started together, as a service manager would: they migrate and create the test merchant once between them.
    // Each binds a free port itself (port 0); nginx is then given the ports they name. All that started are kept, so
    // that a failed start stops them below.
    instances.push(
      ...(await startedOrStopped(instanceFlags.map((flags) => startInstanceProcess(database, 0, ['--no-rate-limits', ...flags])))),
    );
    const ports = instances.map((instance) => instance.port);
    const listen = await freePort();
    mkdirSync(path.join(prefix, 'tmp'));
    writeFileSync(path.join(prefix, 'nginx.conf'), nginxConfig(listen, ports));
    proxy = spawn(nginx, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {stdio: ['ignore', 'ignore', 'pipe']});
    const url = `http://127.0.0.1:${listen}`;
    await waitFor(`${url}/_sandbox/health`, 'nginx', 15);
    const running = proxy;
    return {
      url,
      database,
      postgres,
      instances,
      startInstance: async (port, flags = []) => {
        const instance = await startInstanceProcess(database, port, ['--no-rate-limits', ...flags]);
        instances.push(instance);
        return instance;
      },
      async stop() {
        await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
        if (running.exitCode === null) {
          const exited = new Promise((resolve) => running.once('exit', resolve));
          running.kill('SIGQUIT');
          await exited;
        }
        await postgres.stop();
        rmSync(prefix, {recursive: true, force: true});
      },
    };
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    proxy?.kill('SIGKILL');
    await postgres.stop();
    rmSync(prefix, {recursive: true, force: true});
    throw error;
  }
}

/**
 * Writes `records` (a sandbox's, as its store holds them) into an empty database through the PostgreSQL store,
 * which applies the migrations, then gives each merchant a version, as migration 2 does for a database that
 * already had records: instances load a merchant whose version they have not seen.
 */
export async function seedRecords(database: string, records: ReadonlyArray<readonly [string, RecordValue]>): Promise<void> {
  const store = postgresStore(database);
  try {
    await store.replace(records);
  } finally {
    await store.close();
  }
  const client = new pg.Client({connectionString: database});
  await client.connect();
  try {
    await client.query(
      `INSERT INTO sandbox_merchant SELECT client_id, nextval('sandbox_version') FROM sandbox_record
       WHERE starts_with(key, '~/merchant/') ON CONFLICT (client_id) DO NOTHING`,
    );
  } finally {
    await client.end();
  }
}

/** A signed merchant client over HTTP, on a clock `offsetMs()` ahead of real time (the sandbox clock after an advance). */
export function remoteClient(url: string, offsetMs: () => number = () => 0, clientId?: string): ReturnType<typeof sandboxClient> {
  const target = httpTarget(url);
  return sandboxClient({
    handle: (request) =>
      target.call({
        ...request,
        headers: Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      }),
    now: () => Date.now() + offsetMs(),
    ...(clientId !== undefined ? {clientId} : {}),
  });
}

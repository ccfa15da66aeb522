/**
 * A throwaway PostgreSQL server for the tests: Debian's binaries (installed with apt-get when missing and
 * the tests run as root), a fresh cluster in a temporary folder, listening on a free loopback port, with
 * trust authentication. initdb refuses to run as root, so as root the cluster belongs to the `postgres`
 * user the package creates. stop() ends the server and deletes the folder.
 */
import {execFileSync, spawn, type ChildProcess} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {installDebianPackages} from '../../tooling/debianPackages';
import {findPostgresBin} from '../../tooling/testPackages';

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  /** A new empty database on this server; its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown: sessions end), waits `downMs`, and starts it again on the same port and data. */
  restart(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

const isRoot = process.getuid?.() === 0;

function binDirectory(): string {
  const found = findPostgresBin();
  if (found) return found;
  // npm test installs it first (scripts/provision.ts); this is for a test file run on its own.
  if (!installDebianPackages(['postgresql']))
    throw new Error(
      'PostgreSQL is not installed: apt-get install -y postgresql (Debian), or set PG_BIN to the folder of initdb and postgres.',
    );
  const installed = findPostgresBin();
  if (!installed) throw new Error('apt-get installed postgresql, but no initdb is under /usr/lib/postgresql/*/bin.');
  return installed;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The cluster's owner: `postgres` when the tests run as root (initdb refuses root), else this user. */
function owner(): {uid?: number; gid?: number} {
  if (!isRoot) return {};
  const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], {encoding: 'utf8'}).trim()));
  return {uid, gid};
}

async function ready(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`PostgreSQL exited while starting:\n${output()}`);
    const client = new pg.Client({connectionString: url});
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections in 30 s: ${(error as Error).message}\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDirectory();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'sandbox-postgres-'));
  if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', folder]);
  const data = path.join(folder, 'data');
  const user = owner();
  execFileSync(
    path.join(bin, 'initdb'),
    ['-D', data, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C', '--no-sync'],
    {stdio: 'pipe', cwd: folder, ...user},
  );
  const port = await freePort();
  // A throwaway cluster needs no durability against an operating-system crash: no fsync waits on a busy disk.
  // A restart (TestPostgres.restart) still keeps every committed row: the server writes it out as it shuts down.
  const settings = ['listen_addresses=127.0.0.1', 'max_connections=60', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];
  const serverArgs = ['-D', data, '-p', String(port), '-k', folder, ...settings.flatMap((setting) => ['-c', setting])];
  let log = '';
  const launch = () => {
    const child = spawn(path.join(bin, 'postgres'), serverArgs, {stdio: ['ignore', 'pipe', 'pipe'], cwd: folder, ...user});
    child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    return child;
  };
  let server = launch();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await ready(url, server, () => log);
  const halt = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    // SIGINT: PostgreSQL's fast shutdown (ends sessions, no wait for clients).
    server.kill('SIGINT');
    await exited;
  };
  return {
    url,
    async createDatabase(name) {
      const client = new pg.Client({connectionString: url});
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async restart(downMs) {
      await halt();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      server = launch();
      await ready(url, server, () => log);
    },
    async stop() {
      await halt();
      rmSync(folder, {recursive: true, force: true});
    },
  };
}

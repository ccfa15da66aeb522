/**
 * `npm run sandbox`: the sandbox engine as a local HTTP server (scripts/sandbox.ts runs this). Every
 * problem that stops it from starting (a bad flag, a port in use, a data file it cannot use) is one
 * line on stderr and exit code 2; SIGINT or SIGTERM stops it after the requests under way are answered
 * and their batches committed.
 */
import path from 'node:path';
import {fileStore, JournalFileError} from './fileStore';
import {postgresStore, SandboxDatabaseError} from './postgresStore';
import type {HostedSweep} from './hosted';
import {sharedInstance} from './sharedInstance';
import {sharedSweep} from './sharedSweep';
import {sharedStore, type SharedStore} from './sharedStore';
import type {SandboxStore} from '../../engine/store';
import {downloads, versionLine} from '../../../lib/downloads';
import {createNodeEngine, sandboxFiles} from './loadEngine';
import {contractVersion} from './sandboxFiles';
import {controlEndpoints, createHttpTransport, startSandboxServer, type SandboxServer} from './server';

interface CliOptions {
  readonly port: number;
  readonly host: string;
  readonly data?: string;
  /** A PostgreSQL URL, from --database or SANDBOX_DATABASE_URL. */
  readonly database?: string;
  readonly rateLimits: boolean;
  /** Many merchants on one server: signed test tools, each touching its caller alone (hosted.ts). */
  readonly hosted: boolean;
  /** Several instances serve the database (--shared), each holding at most cacheMerchants merchants in memory. */
  readonly shared: boolean;
  readonly cacheMerchants: number;
  readonly help: boolean;
  readonly version: boolean;
}

/** How often each instance asks whether the shared hosted sweep is due: one indexed row read, so cheap. */
const sharedSweepPollMs = 2000;

/** A problem the user fixes on the command line or in the environment: one line, exit code 2. */
class StartError extends Error {}

const usage = (command: string): string =>
  [
    `Usage: ${command} [options]`,
    '',
    'The Veloxa Pay sandbox on your machine: the API at /v1/..., signed with the published test keys,',
    'notifications POSTed to your URLs, and test tools under /_sandbox/.',
    '',
    'Options:',
    '  --port N           port to listen on (default 4010; 0 picks a free one)',
    '  --host H           address to listen on (default 127.0.0.1)',
    '  --data FILE        keep the sandbox in FILE across restarts (default: in memory)',
    '  --database URL     keep the sandbox in a PostgreSQL database, postgres://user:password@host:port/name',
    '                     (default: the SANDBOX_DATABASE_URL environment variable, if set); the schema is',
    '                     created and upgraded when it starts',
    '  --shared           with --database: several sandbox processes serve the same database (behind a load',
    '                     balancer); each call locks its merchant, jobs are claimed in the database',
    '  --cache-merchants N  with --shared: merchants kept in memory, least recently used dropped (default 1000)',
    '  --no-rate-limits   do not answer RATE_LIMITED (for load tests)',
    '  --hosted           serve many merchants: registration with a public key, every test tool below signed',
    '                     by the merchant and touching that merchant alone (its clock too), limits and retention',
    '                     enforced; with --shared, merchants and retention live in the database',
    '  --version          the API contract version this sandbox implements',
    '  --help             this text',
    '',
    'Test tools (JSON in and out; unsigned, but signed like API calls with --hosted):',
    ...controlEndpoints.flatMap((endpoint) => [
      `  ${endpoint.method} ${endpoint.path}`,
      `      ${[endpoint.input, endpoint.does].filter(Boolean).join('  ')}`,
    ]),
  ].join('\n');

function parseArguments(args: readonly string[], environment: NodeJS.ProcessEnv): CliOptions {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    const [name = '', inline] = arg.startsWith('--')
      ? arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg]
      : [arg];
    if (
      name === '--help' ||
      name === '-h' ||
      name === '--no-rate-limits' ||
      name === '--version' ||
      name === '--hosted' ||
      name === '--shared'
    ) {
      if (inline !== undefined) throw new StartError(`${name} takes no value`);
      flags.add(name === '-h' ? '--help' : name);
    } else if (name === '--port' || name === '--host' || name === '--data' || name === '--database' || name === '--cache-merchants') {
      if (values.has(name)) throw new StartError(`${name} is given twice`);
      const value = inline ?? args[(index += 1)];
      if (value === undefined || value === '' || (inline === undefined && value.startsWith('--')))
        throw new StartError(`${name} needs a value`);
      values.set(name, value);
    } else {
      throw new StartError(
        arg.startsWith('-') ? `unknown option ${name}; --help lists the options` : `unexpected argument "${arg}"; --help lists the options`,
      );
    }
  }
  const portText = values.get('--port') ?? '4010';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) throw new StartError(`--port must be a whole number from 0 to 65535, got "${portText}"`);
  const data = values.get('--data');
  const database =
    values.get('--database') ??
    (data === undefined && environment['SANDBOX_DATABASE_URL'] ? environment['SANDBOX_DATABASE_URL'] : undefined);
  if (data !== undefined && values.has('--database'))
    throw new StartError('--data and --database are two places to keep the sandbox; give one');
  if (database !== undefined && !/^postgres(ql)?:\/\//.test(database))
    throw new StartError(`--database must be a postgres:// URL, got "${database.slice(0, 40)}"`);
  const cacheText = values.get('--cache-merchants') ?? '1000';
  if (!/^[1-9]\d{0,6}$/.test(cacheText))
    throw new StartError(`--cache-merchants must be a whole number from 1 to 9999999, got "${cacheText}"`);
  if ((flags.has('--shared') || values.has('--cache-merchants')) && database === undefined)
    throw new StartError('--shared and --cache-merchants need --database: instances share a PostgreSQL database');
  return {
    port,
    shared: flags.has('--shared'),
    cacheMerchants: Number(cacheText),
    host: values.get('--host') ?? '127.0.0.1',
    ...(data !== undefined ? {data: path.resolve(data)} : {}),
    ...(database !== undefined ? {database} : {}),
    rateLimits: !flags.has('--no-rate-limits'),
    hosted: flags.has('--hosted'),
    help: flags.has('--help'),
    version: flags.has('--version'),
  };
}

/** Hosted retention in the shared database: asked for every few seconds, run once per sweep interval by one instance. */
function hostedSweepOf(shared: SharedStore): HostedSweep {
  const {spec} = sandboxFiles();
  const run = sharedSweep(shared, spec.sandbox.hosted, {
    eventRetentionDays: spec.delivery.eventRetentionDays,
    keepClientId: spec.sandbox.merchant.clientId,
  });
  return {run, everyMs: sharedSweepPollMs};
}

function listenProblem(error: unknown, options: CliOptions): StartError | undefined {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new StartError(`port ${options.port} is in use; pass --port to choose another`);
    case 'EACCES':
      return new StartError(`no permission to listen on port ${options.port}; pass --port with a number above 1023`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartError(`cannot listen on host ${options.host}: it is not an address of this machine; pass --host`);
    default:
      return undefined;
  }
}

/** Resolves at the first SIGINT or SIGTERM; a second one ends the process at once (every acknowledged batch is on disk already). */
function stopSignal(): Promise<void> {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  return new Promise((resolve) => {
    const first = () => {
      for (const signal of signals) {
        process.off(signal, first);
        process.on(signal, () => process.exit(1));
      }
      resolve();
    };
    for (const signal of signals) process.on(signal, first);
  });
}

/**
 * Runs the sandbox until a signal stops it; returns the exit code. Never throws. `command` is how the
 * user started it, for --help: npm run sandbox in the repository, node <file> for the download.
 */
export async function runCli(args: readonly string[], command = 'npm run sandbox --'): Promise<number> {
  let store: (SandboxStore & {close(): Promise<void>}) | undefined;
  let shared: SharedStore | undefined;
  let storage = 'in memory: nothing is kept after it stops';
  let server: SandboxServer | undefined;
  try {
    const options = parseArguments(args, process.env);
    if (options.help) {
      console.log(usage(command));
      return 0;
    }
    if (options.version) {
      console.log(versionLine(downloads.sandbox, contractVersion(sandboxFiles())));
      return 0;
    }
    if (options.data !== undefined) {
      const file = fileStore(options.data, {log: (line) => console.error(line)});
      [store, storage] = [file, `data in ${file.file}`];
    } else if (options.database !== undefined && options.shared) {
      shared = sharedStore(options.database, {preload: [sandboxFiles().spec.sandbox.merchant.clientId]});
      [store, storage] = [shared, `data in ${shared.database}, shared with other instances`];
    } else if (options.database !== undefined) {
      const database = postgresStore(options.database);
      [store, storage] = [database, `data in ${database.database}`];
    }
    const create = () => createNodeEngine({...(store ? {store} : {}), transport: createHttpTransport(), rateLimits: options.rateLimits});
    // Instances starting together: one creates the test merchant, the others find it.
    const engine = shared ? await shared.exclusive(create) : await create();
    const log = (line: string) => console.log(line);
    const instance =
      shared &&
      sharedInstance(engine, shared, {cacheMerchants: options.cacheMerchants, hosted: options.hosted, log: (line) => console.error(line)});
    try {
      server = await startSandboxServer({
        engine,
        port: options.port,
        host: options.host,
        log,
        hosted: options.hosted,
        ...(instance ? {around: instance.around, jobs: instance.jobs} : {}),
        ...(shared && options.hosted ? {hostedSweep: hostedSweepOf(shared)} : {}),
      });
    } catch (error) {
      throw listenProblem(error, options) ?? error;
    }
    console.log(
      `Veloxa Pay ${options.hosted ? 'hosted ' : ''}sandbox at ${server.url} (test merchant client ID ${sandboxFiles().spec.sandbox.merchant.clientId}; ${storage}). Ctrl-C stops it.`,
    );
    await stopSignal();
    await server.close();
    await store?.close();
    return 0;
  } catch (error) {
    await server?.close().catch(() => undefined);
    await store?.close().catch(() => undefined);
    const known = error instanceof StartError || error instanceof JournalFileError || error instanceof SandboxDatabaseError;
    console.error(`sandbox: ${known ? error.message : `could not start: ${(error as Error).message}`.split('\n')[0]}`);
    return known ? 2 : 1;
  }
}

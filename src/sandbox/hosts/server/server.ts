/**
 * The sandbox's local HTTP server (npm run sandbox, or the downloaded veloxa-sandbox.mjs): the API at /v1/... as the engine answers it, the
 * control endpoints under /_sandbox/ (listed in `controlEndpoints`, printed by --help), and a timer that
 * runs the engine's jobs on the sandbox clock, so delays, expiry and notification retries happen while
 * you watch.
 *
 * Control endpoints take and give JSON and are not signed: they are the sandbox's test tools, for
 * localhost. Their errors use the API's envelope {code, message, requestId}, with the HTTP status the
 * contract gives the code, so a client handles both the same way.
 *
 * Nothing a client sends makes this server fail: a body over the limit is 413 REQUEST_TOO_LARGE, a body
 * that is not UTF-8 or not the JSON an endpoint takes is 400 INVALID_PARAMETER, and anything unexpected
 * is caught and answered with INTERNAL_ERROR instead of ending the process.
 */
import http, {type IncomingMessage, type ServerResponse} from 'node:http';
import https from 'node:https';
import type {AddressInfo, Socket} from 'node:net';
import {dayStart, isoSeconds, utcDay} from '../../engine/clock';
import {ActionInputError, bodyMembers, readActionInput, sandboxActions, type SandboxAction} from '../../actions';
import type {ActionResult, SandboxEngine} from '../../engine/engine';
import type {DeliveryResult, NotificationTransport} from '../../engine/http';
import {randomId} from '../../engine/ids';
import {matchOperation, pathOf} from '../../engine/pipeline/route';
import {brand} from '../../../brand';
import {hostedMode, isSignedTool, type HostedDecision, type HostedSweep} from './hosted';
import {rateShedder} from './shedding';
import {sandboxFiles} from './loadEngine';

/** The contract's limit on a request body (REQUEST_TOO_LARGE): 64 KiB. */
export const requestBodyLimitBytes = 65_536;
/** The limit for POST /_sandbox/import alone: an exported state holds every record, far more than one request. */
export const importBodyLimitBytes = 64 * 1024 * 1024;
/** How often the job timer looks at the clock when no job is due sooner. */
const jobPollMs = 200;
/** How much of a notification receiver's answer is read: an acknowledgement is a few bytes. */
const maxAcknowledgementBytes = 64 * 1024;

export interface SandboxServerOptions {
  readonly engine: SandboxEngine;
  /** 0 picks a free port; SandboxServer.port tells which. */
  readonly port: number;
  readonly host?: string;
  readonly bodyLimitBytes?: number;
  /** One JSON line per request ({requestId, merchant, method, path, status, durationMs}), and what goes wrong inside the server. */
  readonly log?: (line: string) => void;
  /** Many merchants on one server (--hosted): signed test tools, each touching its caller alone (hosted.ts). */
  readonly hosted?: boolean;
  /** With hosted: retention run in a shared database rather than over this process's memory. */
  readonly hostedSweep?: HostedSweep;
  /** Wraps each request's work: several instances on one database run it in the merchant's transaction (sharedInstance.ts). */
  readonly around?: CallWrapper;
  /** Who runs the jobs on the sandbox clock: the engine itself, unless instances share a database. */
  readonly jobs?: JobDriver;
}

/** A request as the server read it, before it is answered. */
export interface ServerCall {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type CallWrapper = (call: ServerCall, work: () => Promise<Reply>) => Promise<Reply>;

export type JobDriver = Pick<SandboxEngine, 'runDue' | 'settle' | 'settleDelivery' | 'nextJobAt'> & {
  /**
   * Jobs are claimed in a shared database, each in a transaction of its own (sharedInstance.ts): a call, which
   * holds its merchant's transaction, must not wait for the job timer, which may be waiting for that transaction.
   */
  readonly claimedInDatabase?: boolean;
};

/** The merchant a request is for: the API's X-Client-Id, or a control call's clientId (JSON member, query or path). */
export function merchantOfCall(call: ServerCall): string | undefined {
  if (!call.target.startsWith('/_sandbox')) return call.headers['x-client-id'];
  const inPath = /^\/_sandbox\/merchants\/([^/?]+)/.exec(call.target)?.[1];
  if (inPath !== undefined) return safeDecode(inPath);
  const inQuery = new URLSearchParams(call.target.split('?')[1] ?? '').get('clientId');
  if (inQuery !== null) return inQuery;
  try {
    const body = JSON.parse(call.body) as unknown;
    const member = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['clientId'] : undefined;
    return typeof member === 'string' ? member : undefined;
  } catch {
    return undefined;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface SandboxServer {
  readonly port: number;
  /** http://host:port, without a trailing slash. */
  readonly url: string;
  /** Stops accepting requests, answers those under way, and waits for the job timer and pending commits. */
  close(): Promise<void>;
}

interface ControlEndpoint {
  readonly method: string;
  readonly path: string;
  /** The JSON members or query parameters it takes, as --help prints them. */
  readonly input: string;
  readonly does: string;
}

/** Reads and exports of this server; the actions that change the sandbox follow from src/sandbox/actions.ts. */
const readEndpoints = {
  health: {method: 'GET', path: '/_sandbox/health', input: '', does: 'answers {ok, contractVersion, now}'},
  clock: {method: 'GET', path: '/_sandbox/clock', input: '', does: 'answers {now}, the sandbox clock'},
  notifications: {
    method: 'GET',
    path: '/_sandbox/notifications',
    input: '?clientId=',
    does: 'every notification delivery attempt; answers {deliveries}',
  },
  statements: {
    method: 'GET',
    path: '/_sandbox/statements/{date}',
    input: '?clientId=&currency=',
    does: 'the statement file (gzip, X-Sha256 header)',
  },
  ledger: {method: 'GET', path: '/_sandbox/ledger', input: '?clientId=', does: 'the ledger; answers {clientId, entries}'},
  balances: {method: 'GET', path: '/_sandbox/balances', input: '?clientId=', does: 'balances by currency; answers {clientId, balances}'},
  export: {method: 'GET', path: '/_sandbox/export', input: '', does: 'the whole state as one JSON document (format veloxa-sandbox-state)'},
  import: {
    method: 'POST',
    path: '/_sandbox/import',
    input: '<an export>',
    does: 'replaces the whole state with an export; answers {ok, merchants, records}',
  },
} as const satisfies Record<string, ControlEndpoint>;

/** An action's JSON members as --help prints them: {clientId, merchantOrderNo, phone?}. */
function actionInputText(action: SandboxAction): string {
  const members = bodyMembers(action).map((name) => `${name}${'optional' in (action.input[name] ?? {}) ? '?' : ''}`);
  return members.length ? `{${members.join(', ')}}` : '';
}

/** The control endpoints: what --help prints and what the server routes. */
export const controlEndpoints: readonly ControlEndpoint[] = [
  readEndpoints.health,
  readEndpoints.clock,
  ...sandboxActions.map((action) => ({method: action.method, path: action.path, input: actionInputText(action), does: action.does})),
  readEndpoints.notifications,
  readEndpoints.statements,
  readEndpoints.ledger,
  readEndpoints.balances,
  readEndpoints.export,
  readEndpoints.import,
];

export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  readonly holdSeconds?: number;
}

interface ControlCall {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: string;
}

type ControlHandler = (call: ControlCall) => Reply | Promise<Reply>;

/** A request the server refuses itself, with a documented code. */
class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new Refusal('INVALID_PARAMETER', message);

function statusOf(code: string): number {
  return sandboxFiles().spec.resultCodes[code]?.httpStatus ?? 500;
}

export function errorReply(code: string, message: string): Reply {
  const requestId = randomId('req_', 20);
  return {
    status: statusOf(code),
    headers: {'Content-Type': 'application/json', 'X-Request-Id': requestId},
    body: JSON.stringify({code, message, requestId}),
  };
}

export function jsonReply(value: unknown): Reply {
  return {status: 200, headers: {'Content-Type': 'application/json'}, body: JSON.stringify(value)};
}

function hostedReply(decision: Exclude<HostedDecision, {kind: 'next'}>): Reply {
  if (decision.kind === 'answer') return jsonReply(decision.value);
  const reply = errorReply(decision.code, decision.message);
  return {...reply, headers: {...reply.headers, ...decision.headers}};
}

function actionReply<T>(result: ActionResult<T>, view: (value: T) => unknown = (value) => value): Reply {
  return result.ok ? jsonReply(view(result.value)) : errorReply(result.code, result.message);
}

/** The members of a control request (a JSON body or a query string), read by name with the field named in every refusal. */
class Fields {
  private constructor(private readonly values: Readonly<Record<string, unknown>>) {}

  static body(raw: string, allowed: readonly string[]): Fields {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw === '' ? '{}' : raw);
    } catch {
      throw invalid('The body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('The body must be a JSON object.');
    return new Fields(parsed as Record<string, unknown>).only(allowed, 'member');
  }

  static query(query: URLSearchParams, allowed: readonly string[]): Fields {
    const values: Record<string, string> = {};
    for (const [name, value] of query) {
      if (Object.hasOwn(values, name)) throw invalid(`The query parameter ${name.slice(0, 40)} is given more than once.`);
      values[name] = value;
    }
    return new Fields(values).only(allowed, 'query parameter');
  }

  /** The members as given, for an action to read by its schema. */
  get members(): Readonly<Record<string, unknown>> {
    return this.values;
  }

  private only(allowed: readonly string[], kind: string): this {
    const unknown = Object.keys(this.values).find((name) => !allowed.includes(name));
    if (unknown !== undefined)
      throw invalid(`Unknown ${kind} "${unknown.slice(0, 40)}"; this endpoint takes ${allowed.join(', ') || 'none'}.`);
    return this;
  }

  string(name: string): string {
    const value = this.values[name];
    if (typeof value !== 'string' || value === '') throw invalid(`${name} is required: a non-empty string.`);
    return value;
  }

  optionalString(name: string): string | undefined {
    return this.values[name] === undefined ? undefined : this.string(name);
  }

  /** A string, null (to remove a setting), or absent. */
  nullableString(name: string): string | null | undefined {
    return this.values[name] === null ? null : this.optionalString(name);
  }

  integer(name: string): number {
    const value = this.values[name];
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(`${name} is required: an integer.`);
    return value;
  }

  optionalInteger(name: string): number | undefined {
    return this.values[name] === undefined ? undefined : this.integer(name);
  }

  number(name: string, min: number, max: number): number {
    const value = this.values[name];
    if (typeof value !== 'number' || !(value >= min && value <= max)) throw invalid(`${name} is required: a number from ${min} to ${max}.`);
    return value;
  }

  /** A JSON object, or absent. */
  optionalObject(name: string): Record<string, unknown> | undefined {
    const value = this.values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`${name} must be a JSON object.`);
    return value as Record<string, unknown>;
  }

  optionalBoolean(name: string): boolean | undefined {
    const value = this.values[name];
    if (value !== undefined && typeof value !== 'boolean') throw invalid(`${name} must be true or false.`);
    return value as boolean | undefined;
  }

  choice<const T extends string>(name: string, options: readonly T[]): T {
    const value = this.values[name];
    if (!options.includes(value as T)) throw invalid(`${name} must be one of ${options.join(', ')}.`);
    return value as T;
  }
}

/**
 * A declared action as a route: the JSON members it takes (no others), the path members from the route,
 * read by the action's schema; refused input is INVALID_PARAMETER with the sentence that names the member.
 */
function actionHandler(engine: SandboxEngine, action: SandboxAction, exclusive: <T>(work: () => Promise<T>) => Promise<T>): ControlHandler {
  return async ({params, body}) => {
    const fields = Fields.body(body, bodyMembers(action));
    try {
      const input = readActionInput(action, {...fields.members, ...params});
      const run = async () => action.run(engine, input as never);
      return actionReply(await (action.exclusive ? exclusive(run) : run()));
    } catch (error) {
      if (error instanceof ActionInputError) throw invalid(error.message);
      throw error;
    }
  };
}

/** The control endpoints' handlers, over one engine. `exclusive` keeps clock moves and resets apart from the job timer. */
const simulate = sandboxActions.find((action) => action.name === 'control.simulateNotification') as SandboxAction;

function controlHandlers(
  engine: SandboxEngine,
  exclusive: <T>(work: () => Promise<T>) => Promise<T>,
  jobs: JobDriver,
): Record<string, ControlHandler> {
  const {spec} = sandboxFiles();
  const knownClient = (clientId: string): string => {
    if (!engine.merchantIds().includes(clientId)) throw new Refusal('UNKNOWN_CLIENT', `No sandbox merchant ${clientId.slice(0, 64)}.`);
    return clientId;
  };
  const key = (endpoint: {readonly method: string; readonly path: string}) => `${endpoint.method} ${endpoint.path}`;
  const handlers: Record<string, ControlHandler> = Object.fromEntries(
    sandboxActions.map((action) => [key(action), actionHandler(engine, action, exclusive)]),
  );
  return {
    ...handlers,
    [key(readEndpoints.health)]: () => jsonReply({ok: true, contractVersion: spec.contractVersion, now: isoSeconds(engine.clock.now())}),

    [key(readEndpoints.clock)]: () => jsonReply({now: isoSeconds(engine.clock.now())}),

    // The first attempt is due at once: this host delivers it before answering, so the answer can say how it went.
    'POST /_sandbox/notifications/simulate': async (call) => {
      const {clientId} = Fields.body(call.body, bodyMembers(simulate)).members;
      // A missing or malformed clientId is the action's to refuse, with its sentence.
      if (typeof clientId === 'string' && clientId !== '') knownClient(clientId);
      const reply = await (handlers['POST /_sandbox/notifications/simulate'] as ControlHandler)(call);
      if (reply.status !== 200) return reply;
      const simulated = JSON.parse(String(reply.body)) as {notificationId: string};
      if (!jobs.claimedInDatabase) await exclusive(() => jobs.runDue());
      // Only this notification's attempt: a slow receiver of another one must not hold up the answer.
      await jobs.settleDelivery(simulated.notificationId);
      const log = await engine.control.deliveries(typeof clientId === 'string' && clientId !== '' ? clientId : undefined);
      const delivery = log.find((entry) => entry.notificationId === simulated.notificationId);
      return jsonReply({...simulated, delivery: delivery ?? null});
    },

    [key(readEndpoints.notifications)]: async ({query}) => {
      const clientId = Fields.query(query, ['clientId']).optionalString('clientId');
      return jsonReply({deliveries: await engine.control.deliveries(clientId === undefined ? undefined : knownClient(clientId))});
    },

    [key(readEndpoints.statements)]: async ({params, query}) => {
      const fields = Fields.query(query, ['clientId', 'currency']);
      const clientId = fields.string('clientId');
      const day = params['date'] ?? '';
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(dayStart(day)) || utcDay(dayStart(day)) !== day)
        throw invalid(`The statement date must be a day YYYY-MM-DD, got "${day.slice(0, 20)}".`);
      const currency = fields.optionalString('currency');
      if (currency !== undefined && !/^[A-Z]{3}$/.test(currency))
        throw invalid('currency must be a three-letter ISO 4217 code such as USD.');
      const file = await engine.statementFile(clientId, day, currency);
      if (!file) throw new Refusal('UNKNOWN_CLIENT', `No sandbox merchant ${clientId.slice(0, 64)}.`);
      return {
        status: 200,
        headers: {
          'Content-Type': 'application/gzip',
          'Content-Disposition': `attachment; filename="${file.fileName}"`,
          'X-Sha256': file.sha256,
        },
        body: file.bytes,
      };
    },

    [key(readEndpoints.ledger)]: ({query}) => {
      const clientId = knownClient(Fields.query(query, ['clientId']).string('clientId'));
      return jsonReply({clientId, entries: engine.ledger(clientId)});
    },

    [key(readEndpoints.balances)]: ({query}) => {
      const clientId = knownClient(Fields.query(query, ['clientId']).string('clientId'));
      return jsonReply({clientId, balances: [...engine.balances(clientId)].map(([currency, balance]) => ({currency, ...balance}))});
    },

    [key(readEndpoints.export)]: ({query}) => {
      Fields.query(query, []);
      const document = engine.exportState();
      return {
        ...jsonReply(document),
        headers: {
          'Content-Type': 'application/json',
          'Content-Disposition': `attachment; filename="sandbox-state-${document.exportedAt.slice(0, 10)}.json"`,
        },
      };
    },

    [key(readEndpoints.import)]: async ({body}) => {
      let document: unknown;
      try {
        document = JSON.parse(body);
      } catch {
        throw invalid('The body is not valid JSON: send the document GET /_sandbox/export answered.');
      }
      // Apart from the job timer, as a reset is: no job runs against a half-replaced state.
      return actionReply(await exclusive(() => engine.importState(document)), (value) => ({ok: true, ...value}));
    },
  };
}

/** Headers as the engine takes them: one string per name (Node joins repeated ones, except Set-Cookie). */
function requestHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * The body, or undefined when it is over `limit`: refused from Content-Length before a byte is read,
 * or as soon as the bytes received pass the limit; the rest is left unread.
 */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (Number(request.headers['content-length']) > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length <= limit) {
        chunks.push(chunk);
        return;
      }
      request.off('data', onData);
      request.pause();
      resolve(undefined);
    };
    request.on('data', onData);
    request.on('end', () => resolve(Buffer.concat(chunks)));
    // The client went away before the end of its body (after 'end', or after a refusal, this changes nothing).
    request.on('close', () => reject(new Error('the client closed the connection before the end of the body')));
    request.on('error', reject);
  });
}

const utf8 = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true});

function send(response: ServerResponse, reply: Reply, closeAfter: boolean): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(reply.status, {
    ...reply.headers,
    'Content-Length': String(Buffer.byteLength(reply.body)),
    ...(closeAfter ? {Connection: 'close'} : {}),
  });
  response.end(reply.body);
}

/** A notifyUrl's host, for error texts. */
function hostOf(url: URL): string {
  return url.host || url.href;
}

function deliveryError(error: unknown, url: URL, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout';
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return `connection refused by ${hostOf(url)}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found: ${url.hostname}`;
  if (code === 'ECONNRESET') return `connection reset by ${hostOf(url)}`;
  return `connection failed: ${code ?? (error as Error).message}`;
}

/**
 * Notifications over HTTP: a POST to the URL with the engine's headers and body, within the contract's
 * timeout. Every attempt gets a connection of its own (no keep-alive): a receiver sees each delivery
 * as a new request, as it would from the provider. The engine records the result and schedules retries.
 */
export function createHttpTransport(): NotificationTransport {
  return {
    deliver: ({url, headers, body, timeoutSeconds}) =>
      new Promise<DeliveryResult>((resolve) => {
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          resolve({error: `not a URL: ${url.slice(0, 200)}`});
          return;
        }
        const signal = AbortSignal.timeout(timeoutSeconds * 1000);
        const client = target.protocol === 'https:' ? https : http;
        const request = client.request(
          target,
          {method: 'POST', headers: {...headers, 'Content-Length': String(Buffer.byteLength(body))}, signal, agent: false},
          (response) => {
            const chunks: Buffer[] = [];
            let length = 0;
            response.on('data', (chunk: Buffer) => {
              if (length >= maxAcknowledgementBytes) return;
              chunks.push(chunk);
              length += chunk.length;
            });
            response.on('end', () => resolve({status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8')}));
            // Closed before its end: the timeout, or the receiver hung up mid-answer.
            response.on('close', () =>
              resolve({error: signal.aborted ? 'timeout' : `connection closed by ${hostOf(target)} during the answer`}),
            );
            response.on('error', () => undefined);
          },
        );
        request.on('error', (error) => resolve({error: deliveryError(error, target, signal)}));
        request.end(body);
      }),
  };
}

/**
 * Pages that may call this server from a browser (the portal's Try it panel and console): the portal, and
 * any page served from this machine. Any other site the developer has open gets no CORS headers, so its
 * scripts cannot read this server's answers or send it signed JSON.
 */
export function isAllowedOrigin(origin: string): boolean {
  return origin === `https://${brand.hosts.portal}` || /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/.test(origin);
}

/** The headers a page reads from an answer: the signature and its inputs, rate limits, replays. */
const exposedHeaders =
  'X-Request-Id, X-Timestamp, X-Nonce, X-Signature, Idempotent-Replayed, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

/** CORS for allowed origins; answers a preflight itself and returns true, so the request goes no further. */
function allowCrossOrigin(request: IncomingMessage, response: ServerResponse): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || !isAllowedOrigin(origin)) return false;
  response.setHeader('Access-Control-Allow-Origin', origin);
  response.setHeader('Vary', 'Origin');
  response.setHeader('Access-Control-Expose-Headers', exposedHeaders);
  if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return false;
  response
    .writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, POST, PATCH',
      'Access-Control-Allow-Headers': 'Content-Type, X-Client-Id, X-Timestamp, X-Nonce, X-Signature',
      'Access-Control-Max-Age': '600',
    })
    .end();
  return true;
}

export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const {engine} = options;
  const limit = options.bodyLimitBytes ?? requestBodyLimitBytes;
  const log = options.log ?? (() => undefined);

  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const result = lock.then(work);
    lock = result.catch(() => undefined);
    return result;
  };

  const jobs = options.jobs ?? engine;
  const handlers = controlHandlers(engine, exclusive, jobs);
  const {spec} = sandboxFiles();
  const hosted = options.hosted
    ? hostedMode(engine, spec.sandbox.hosted, spec.sandbox.merchant.clientId, log, options.hostedSweep)
    : undefined;
  // One admission for API calls and signed test tools: the class a call would be counted in once verified.
  const admit = options.hosted
    ? rateShedder(engine, ({method, target}) => {
        if (!target.startsWith('/_sandbox')) {
          const match = matchOperation(spec.operations, method, pathOf(target));
          return match.found ? engine.limiter.rateClassOf(match.operation) : undefined;
        }
        const match = matchOperation(controlEndpoints, method, pathOf(target));
        return match.found && isSignedTool(`${match.operation.method} ${match.operation.path}`) ? engine.limiter.testTools : undefined;
      })
    : undefined;

  let closing = false;
  const inFlight = new Set<Promise<void>>();
  const holds = new Set<() => void>();
  /** Requests whose body is still arriving: close() does not wait for a client that stalls mid-body. */
  const reading = new Set<IncomingMessage>();

  // ---- The job timer: runDue() whenever a job is due, never two runs at once -------------------------

  let timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (performance time), so a request can bring it forward but never push it back. */
  let timerAt = Infinity;
  let running = false;
  let lastLoopError = '';

  // Called after every request: re-arming a poll 200 ms later each time would starve the jobs of an instance whose
  // requests come more often than that (instances sharing a database know no next due time, and poll).
  function planJobs(): void {
    if (closing || running) return;
    const next = jobs.nextJobAt();
    const wait = next === undefined ? jobPollMs : Math.min(jobPollMs, Math.max(0, next - engine.clock.now()));
    if (timer !== undefined && timerAt <= performance.now() + wait) return;
    clearTimeout(timer);
    timerAt = performance.now() + wait;
    timer = setTimeout(runJobs, wait);
  }

  function runJobs(): void {
    timer = undefined;
    timerAt = Infinity;
    running = true;
    exclusive(() => jobs.runDue())
      .then(
        () => {
          lastLoopError = '';
        },
        (error: unknown) => {
          // Logged once per distinct failure: the timer retries every 200 ms.
          const message = `sandbox: running due jobs failed: ${(error as Error).message}`;
          if (message !== lastLoopError) log(message);
          lastLoopError = message;
        },
      )
      .finally(() => {
        running = false;
        planJobs();
      });
  }

  // ---- Requests --------------------------------------------------------------------------------------

  async function control(request: IncomingMessage, method: string, target: string, body: string): Promise<Reply> {
    const pathOnly = pathOf(target);
    const match = matchOperation(controlEndpoints, method, pathOnly);
    if (!match.found && match.reason === 'path')
      throw invalid(`No sandbox control endpoint at ${pathOnly.slice(0, 120)}; --help lists them.`);
    if (!match.found && match.reason === 'method')
      throw invalid(`${pathOnly.slice(0, 120)} takes ${match.methods.join(' or ')}, not ${method.slice(0, 10)}.`);
    if (!match.found) throw invalid(`The path parameter ${match.parameter} is not valid percent-encoding.`);
    const endpoint = match.operation;
    const route = `${endpoint.method} ${endpoint.path}`;
    const handler = handlers[route];
    if (!handler) throw new Error(`No handler for the control endpoint ${route}.`);
    const call = {params: {...match.pathParams}, query: new URLSearchParams(target.slice(pathOnly.length + 1)), body};
    const remoteAddress = request.socket.remoteAddress ?? '';
    const decision = await hosted?.decide({...call, method, target, headers: requestHeaders(request), route, remoteAddress});
    return decision && decision.kind !== 'next' ? hostedReply(decision) : handler(call);
  }

  async function answer(request: IncomingMessage): Promise<{reply: Reply; closeAfter: boolean; merchant?: string}> {
    const method = request.method ?? 'GET';
    const target = request.url ?? '/';
    const bodyLimit = method === 'POST' && target === '/_sandbox/import' && !hosted ? Math.max(limit, importBodyLimitBytes) : limit;
    reading.add(request);
    const bytes = await readBody(request, bodyLimit).finally(() => reading.delete(request));
    // API calls are answered as the engine answers: signed, whatever the signing headers hold.
    const refuse = async (code: string, message: string): Promise<Reply> =>
      target.startsWith('/_sandbox')
        ? errorReply(code, message)
        : engine.refuse({method, target, headers: requestHeaders(request)}, code, message);
    if (!bytes)
      return {
        reply: await refuse('REQUEST_TOO_LARGE', `The body is larger than ${bodyLimit} bytes, so it was not read.`),
        closeAfter: true,
      };
    let body: string;
    try {
      body = utf8.decode(bytes);
    } catch {
      return {reply: await refuse('INVALID_PARAMETER', 'The body is not valid UTF-8.'), closeAfter: false};
    }
    const call: ServerCall = {method, target, headers: requestHeaders(request), body};
    const work = async (): Promise<Reply> => {
      if (!(target === '/_sandbox' || target.startsWith('/_sandbox/') || target.startsWith('/_sandbox?'))) return engine.handle(call);
      try {
        return await control(request, method, target, body);
      } catch (error) {
        if (error instanceof Refusal) return errorReply(error.code, error.message);
        throw error;
      }
    };
    const merchant = merchantOfCall(call);
    // Shed before the merchant's turn, so a shed call costs no transaction on a shared database.
    const run = () => options.around?.(call, work) ?? work();
    return {reply: await (admit ? admit(call, run) : run()), closeAfter: false, ...(merchant !== undefined ? {merchant} : {})};
  }

  function hold(seconds: number): Promise<void> {
    if (closing) return Promise.resolve();
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timeout);
        holds.delete(release);
        resolve();
      };
      const timeout = setTimeout(release, seconds * 1000);
      holds.add(release);
    });
  }

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = Date.now();
    let outcome: {reply: Reply; closeAfter: boolean; merchant?: string};
    try {
      outcome = await answer(request);
    } catch (error) {
      // The client went away mid-body: there is no one to answer.
      if (request.destroyed && !request.complete) return;
      log(`sandbox: ${request.method} ${request.url?.slice(0, 200)} failed inside the server: ${(error as Error).stack ?? String(error)}`);
      const message = 'The sandbox server failed on this request; the error is in its log.';
      const target = request.url ?? '/';
      // An API call is answered signed even here; only the control endpoints answer unsigned.
      const reply = target.startsWith('/_sandbox')
        ? errorReply('INTERNAL_ERROR', message)
        : await engine.refuse({method: request.method ?? 'GET', target, headers: requestHeaders(request)}, 'INTERNAL_ERROR', message);
      outcome = {reply, closeAfter: false};
    }
    // The call is carried out already; only the answer waits (Create order, amount ending 92).
    if (outcome.reply.holdSeconds) await hold(outcome.reply.holdSeconds);
    send(response, outcome.reply, outcome.closeAfter);
    log(
      JSON.stringify({
        requestId: outcome.reply.headers['X-Request-Id'] ?? null,
        merchant: outcome.merchant?.slice(0, 64) ?? null,
        method: request.method,
        path: pathOf(request.url ?? '/').slice(0, 200),
        status: outcome.reply.status,
        durationMs: Date.now() - started,
      }),
    );
    planJobs();
  }

  // requireHostHeader off: a request without Host is answered by the handler with the envelope, not a bare 400.
  const server = http.createServer({requireHostHeader: false}, (request, response) => {
    response.on('error', () => undefined);
    if (allowCrossOrigin(request, response)) return;
    const work = serve(request, response).catch((error: unknown) => log(`sandbox: ${(error as Error).message}`));
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });

  // A client that half-closes after its request (`nc -N`, a raw socket's end()) still gets the answer, which
  // now takes a signature's time: node:http would otherwise drop a pending answer on the client's FIN.
  (server as http.Server & {httpAllowHalfOpen: boolean}).httpAllowHalfOpen = true;

  // An Expect other than 100-continue, and CONNECT, would otherwise be answered by node:http (417) or not at all.
  // Both are answered as the engine answers an API call: signed over what the request carried.
  const refuseParsed = (request: IncomingMessage, message: string): Promise<Reply> =>
    engine.refuse(
      {method: request.method ?? 'GET', target: request.url ?? '/', headers: requestHeaders(request)},
      'INVALID_PARAMETER',
      message,
    );
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    void refuseParsed(request, 'The Expect header is not supported: send the request without it.').then((reply) =>
      send(response, reply, true),
    );
  });
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    void refuseParsed(request, 'CONNECT is not a method of this API.').then((reply) => {
      const headers = Object.entries({...reply.headers, 'Content-Length': String(Buffer.byteLength(reply.body)), Connection: 'close'})
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.end(`HTTP/1.1 ${reply.status} Bad Request\r\n${headers}\r\n${reply.body}`);
    });
  });

  // Requests Node cannot parse (a bad request line, headers too large) get the envelope too, not a bare 400.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const reply = errorReply('INVALID_PARAMETER', `The request is not HTTP this server can read (${error.code ?? error.message}).`);
    socket.end(
      `HTTP/1.1 ${reply.status} Bad Request\r\nContent-Type: application/json\r\nX-Request-Id: ${reply.headers['X-Request-Id'] ?? ''}\r\nContent-Length: ${Buffer.byteLength(reply.body)}\r\nConnection: close\r\n\r\n${String(reply.body)}`,
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Once listening, a server error (out of file descriptors, say) is logged; unheard, it would end the process.
  server.on('error', (error) => log(`sandbox: ${error.message}`));
  planJobs();

  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    port: address.port,
    url: `http://${host}:${address.port}`,
    async close() {
      closing = true;
      clearTimeout(timer);
      hosted?.close();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const release of [...holds]) release();
      for (const request of reading) request.destroy();
      await Promise.all(inFlight);
      // The job run under way, if any, finishes with its commit.
      await exclusive(async () => undefined);
      // Deliveries under way are recorded before the store is closed (each has its timeout).
      await jobs.settle();
      server.closeAllConnections();
      await stopped;
    },
  };
}

/**
 * A minimal stand-in for Postman's script sandbox, enough to run the collection's own scripts in a
 * Node `vm` context: `pm.request` (url, method, body, headers), `pm.variables` with `replaceIn`,
 * `pm.environment`, `pm.collectionVariables`, `pm.execution`, `pm.test`, `pm.response` and
 * `console`; no `pm.require`, which Newman does not have either. The clock (`Date`) and the
 * `{{$guid}}` generator are fixed by the test, so a run reproduces a signing vector exactly. The
 * canonical strings the scripts sign or verify are read from the console lines they write.
 *
 * The semantics follow the postman-collection and postman-sandbox packages: a URL's toString() is
 * built from its parts (host joined by ".", path by "/", query as key=value by "&"); replaceIn
 * leaves an unknown variable as written; variables resolve local, then environment, then
 * collection; header lists match names case-insensitively and upsert replaces a header's value.
 */
import vm from 'node:vm';
import type {PostmanCollection, PostmanUrl} from '../../src/contract/node/postman';

/** The scripts log the canonical string they sign or verify as `... canonical string: "<JSON string>"`. */
const canonicalLog = /canonical string: ("(?:[^"\\]|\\.)*")$/i;

/** postman-collection's Url.toString() for the parts this generator writes. */
export function urlToString(url: PostmanUrl): string {
  const query = url.query?.length ? `?${url.query.map(({key, value}) => `${key}=${value}`).join('&')}` : '';
  return `${url.host.join('.')}/${url.path.join('/')}${query}`;
}

class HeaderList {
  readonly entries: Array<{key: string; value: string}> = [];
  private find(key: string) {
    return this.entries.find((entry) => entry.key.toLowerCase() === key.toLowerCase());
  }
  get(key: string): string | undefined {
    return this.find(key)?.value;
  }
  has(key: string): boolean {
    return this.find(key) !== undefined;
  }
  upsert(header: {key: string; value: string}): void {
    const existing = this.find(header.key);
    if (existing) existing.value = header.value;
    else this.entries.push({...header});
  }
  toObject(): Record<string, string> {
    return Object.fromEntries(this.entries.map(({key, value}) => [key, value]));
  }
}

class VariableScope {
  constructor(readonly values = new Map<string, string>()) {}
  get(key: string): string | undefined {
    return this.values.get(key);
  }
  set(key: string, value: unknown): void {
    this.values.set(key, String(value));
  }
  has(key: string): boolean {
    return this.values.has(key);
  }
}

export interface SandboxRequest {
  readonly method: string;
  /** The request URL's parts as the collection has them, or a raw URL. */
  readonly url: PostmanUrl | string;
  readonly body?: string;
  readonly headers?: ReadonlyArray<{key: string; value: string}>;
}

export interface SandboxResponse {
  readonly code: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface SandboxOptions {
  readonly collection: PostmanCollection;
  /** Environment variables (the current values a developer sets, such as privateKeyPem). */
  readonly environment?: Readonly<Record<string, string>>;
  /** Extra collection variable values, over the collection's own. */
  readonly collectionValues?: Readonly<Record<string, string>>;
  /** What `new Date()` and `Date.now()` return, ISO 8601. */
  readonly now: string;
  /** The values `{{$guid}}` resolves to, in order. */
  readonly guids: readonly string[];
}

export interface TestResult {
  readonly name: string;
  readonly passed: boolean;
  readonly error?: string;
}

/**
 * One Postman session: collection and environment variables persist across Sends, like in the app;
 * local variables, the request and the response belong to one Send.
 */
export class PostmanSession {
  readonly collectionVariables: VariableScope;
  readonly environment: VariableScope;
  /** Every canonical string the scripts signed or verified, in order, read from their console lines. */
  readonly canonicalStrings: string[] = [];
  private readonly guids: string[];
  private nowMs: number;

  constructor(private readonly options: SandboxOptions) {
    this.collectionVariables = new VariableScope(new Map(options.collection.variable.map(({key, value}) => [key, value])));
    for (const [key, value] of Object.entries(options.collectionValues ?? {})) this.collectionVariables.set(key, value);
    this.environment = new VariableScope(new Map(Object.entries(options.environment ?? {})));
    this.guids = [...options.guids];
    this.nowMs = Date.parse(options.now);
  }

  setNow(iso: string): void {
    this.nowMs = Date.parse(iso);
  }

  addGuids(...guids: string[]): void {
    this.guids.push(...guids);
  }

  /** Starts a Send of `request`; run the collection's scripts on it with `prerequest` and `test`. */
  send(request: SandboxRequest): PostmanSend {
    return new PostmanSend(
      this,
      request,
      () => this.nowMs,
      () => {
        const guid = this.guids.shift();
        if (guid === undefined) throw new Error('The test gave the sandbox no more {{$guid}} values.');
        return guid;
      },
    );
  }

  script(listen: 'prerequest' | 'test'): string {
    const script = this.options.collection.event.find((event) => event.listen === listen)?.script.exec.join('\n');
    if (script === undefined) throw new Error(`The collection has no ${listen} script.`);
    return script;
  }
}

export class PostmanSend {
  readonly local = new VariableScope();
  readonly headers = new HeaderList();
  readonly tests: TestResult[] = [];
  readonly logs: string[] = [];
  readonly bodyUpdates: string[] = [];
  skipped = false;
  private body: {mode: 'raw'; raw: string; options: unknown; update: (options: unknown) => void} | undefined;
  private readonly context: vm.Context;
  private response: SandboxResponse | undefined;

  constructor(
    private readonly session: PostmanSession,
    private readonly request: SandboxRequest,
    now: () => number,
    nextGuid: () => string,
  ) {
    for (const header of request.headers ?? []) this.headers.upsert(header);
    if (request.body !== undefined) {
      const body = {
        mode: 'raw' as const,
        raw: request.body,
        options: {raw: {language: 'json'}} as unknown,
        update: (options: unknown) => {
          const next =
            typeof options === 'string'
              ? {raw: options, options: undefined}
              : (options as {mode?: string; raw?: string; options?: unknown});
          if (typeof options !== 'string' && next.mode !== 'raw') throw new Error('The fake only models raw bodies.');
          body.raw = next.raw ?? '';
          body.options = next.options;
          this.bodyUpdates.push(body.raw);
        },
      };
      this.body = body;
    }
    const variables = {
      get: (key: string) => this.local.get(key) ?? session.environment.get(key) ?? session.collectionVariables.get(key),
      set: (key: string, value: unknown) => this.local.set(key, value),
      has: (key: string) => this.local.has(key) || session.environment.has(key) || session.collectionVariables.has(key),
      replaceIn: (text: string) =>
        String(text).replace(/\{\{([^{}]+)\}\}/g, (whole, name: string) => {
          if (name === '$guid') return nextGuid();
          if (name === '$timestamp') return String(Math.floor(now() / 1000));
          if (name.startsWith('$')) return whole;
          return variables.get(name) ?? whole;
        }),
    };
    const url = request.url;
    const pm = {
      request: Object.defineProperty(
        {method: request.method, url: {toString: () => (typeof url === 'string' ? url : urlToString(url))}, headers: this.headers},
        'body',
        {get: () => this.body, enumerable: true},
      ),
      variables,
      environment: session.environment,
      collectionVariables: session.collectionVariables,
      execution: {
        skipRequest: () => {
          this.skipped = true;
        },
      },
      test: (name: string, check: () => void) => {
        try {
          check();
          this.tests.push({name, passed: true});
        } catch (error) {
          this.tests.push({
            name,
            passed: false,
            error: error instanceof Object && 'message' in error ? String(error.message) : String(error),
          });
        }
      },
    };
    Object.defineProperty(pm, 'response', {
      enumerable: true,
      get: () => {
        const response = this.response;
        if (!response) throw new Error('pm.response is only there in the test script.');
        const headers = new HeaderList();
        for (const [key, value] of Object.entries(response.headers)) headers.upsert({key, value});
        return {code: response.code, text: () => response.body, headers};
      },
    });
    class PostmanDate extends Date {
      constructor(...args: Array<string | number>) {
        if (args.length === 0) super(now());
        else super(args[0] ?? now());
      }
      static override now(): number {
        return now();
      }
    }
    const log = (...args: unknown[]) => {
      const line = args.map(String).join(' ');
      this.logs.push(line);
      const canonical = canonicalLog.exec(line)?.[1];
      if (canonical !== undefined) session.canonicalStrings.push(JSON.parse(canonical) as string);
    };
    this.context = vm.createContext({pm, console: {log}, Date: PostmanDate});
  }

  /** The request body as it will be sent (after any update by the script). */
  get sentBody(): string | undefined {
    return this.body?.raw;
  }

  /** Runs the collection's pre-request script, then the request's own (`itemScript`), as Postman does before sending; throws what they throw. */
  prerequest(itemScript?: string): this {
    vm.runInContext(this.session.script('prerequest'), this.context, {filename: 'collection pre-request script'});
    if (itemScript !== undefined) vm.runInContext(itemScript, this.context, {filename: 'request pre-request script'});
    return this;
  }

  /** Runs the collection's test script on `response`, as Postman does after receiving it. */
  test(response: SandboxResponse): this {
    this.response = response;
    vm.runInContext(this.session.script('test'), this.context, {filename: 'collection test script'});
    return this;
  }
}

/**
 * The portal's Model Context Protocol server: the docs (their Markdown twins), the contract (one operation
 * at a time, with its code sample) and the sandbox engine in this process, as tools. Transport-neutral:
 * src/sandbox/hosts/mcp/cli.ts connects it to stdio (npm run mcp, and the downloadable bundle), the tests to the SDK's in-memory transport.
 *
 * Nothing here touches the network or the reader's files: the docs are read from a built site directory,
 * the sandbox keeps its state in memory for the session (or in a --data journal) and delivers notifications to an inbox, and the
 * only keys are the published test keys. Bad input is a tool error (isError) with one clear sentence.
 */
import path from 'node:path';
import {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {z} from 'zod';
import {
  diagnose,
  KeyInputError,
  MessageInputError,
  parseRawRequest,
  parseRawResponse,
  partsOfRequest,
  partsOfResponse,
  readKey,
} from '../../../lib/signatureDiagnosis';
import {importPublicKey, SigningInputError} from '../../../lib/signing';
import {sampleEnvironment, sampleLanguages} from '../../../lib/samples';
import {encodeTargetComponent} from '../../../lib/samples/types';
import {shopperFixtures} from '../../actions';
import type {ActionResult} from '../../engine/engine';
import {matchOperation} from '../../engine/pipeline/route';
import type {SandboxStore} from '../../engine/store';
import {JournalFileError} from '../server/fileStore';
import {sandboxFiles} from '../server/loadEngine';
import {freeFormObject, registerActionTools} from './actionTools';
import {DocsLibrary, siteOrigin} from './docs';
import {operationSlice} from './operation';
import {createSandboxSession, type InboxEntry, type SandboxSession} from './sandboxSession';
import {ToolInputError} from './toolError';

export interface PortalMcpServerOptions {
  /** The built site whose Markdown twins the docs tools read; without one, the docs tools say so. */
  readonly docsDir?: string;
  /** Keeps the sandbox and its notification inbox across processes (--data); default: in memory for the session. */
  readonly store?: SandboxStore;
  /** Where to write diagnostics; never stdout, which carries the protocol. */
  readonly log?: (message: string) => void;
}

const sandboxOnly =
  'Sandbox only: the in-process test sandbox of this session (state in memory, or in the --data file the server was started with; published test keys), never production or the network.';

function text(value: unknown): CallToolResult {
  return {content: [{type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2)}]};
}

function toolError(message: string): CallToolResult {
  return {content: [{type: 'text', text: message}], isError: true};
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** An engine action's refusal as a tool error; its value otherwise. */
function actionValue<T>(result: ActionResult<T>): T {
  if (!result.ok) throw new ToolInputError(`${result.code}: ${result.message}`);
  return result.value;
}

export function createPortalMcpServer(options: PortalMcpServerOptions = {}): McpServer {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const docs = new DocsLibrary(options.docsDir === undefined ? undefined : path.resolve(options.docsDir));
  const server = new McpServer(
    {name: 'veloxa-pay-portal', version: '1.0.0'},
    {
      instructions: `Veloxa Pay developer portal: search and read its docs, read one API operation with a code sample, and drive a private sandbox (signed requests, shopper actions, clock, notifications, signature checks). ${sandboxOnly}`,
    },
  );

  let session: Promise<SandboxSession> | undefined;
  const sandbox = () => {
    session ??= createSandboxSession({...(options.store ? {store: options.store} : {})}).catch((error: unknown) => {
      session = undefined;
      throw error;
    });
    return session;
  };

  /** Runs a handler: input problems become tool errors with their sentence, anything else a tool error too (and a log line). */
  const run =
    <A>(handler: (args: A) => Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        return await handler(args);
      } catch (error) {
        if (
          error instanceof ToolInputError ||
          error instanceof KeyInputError ||
          error instanceof MessageInputError ||
          error instanceof SigningInputError
        )
          return toolError(error.message);
        if (error instanceof JournalFileError)
          return toolError(`The sandbox cannot start: ${error.message}. The docs and contract tools work without it.`);
        log(`mcp: tool failed: ${(error as Error).stack ?? String(error)}`);
        return toolError(
          `The tool failed unexpectedly: ${(error as Error).message}. The server keeps running; check the input and try again.`,
        );
      }
    };

  const entryView = async (current: SandboxSession, entry: InboxEntry) => {
    const body = parseJson(entry.body) as {eventType?: string; notificationId?: string};
    return {
      seq: entry.seq,
      receivedAt: entry.receivedAt,
      eventType: body.eventType,
      notificationId: body.notificationId,
      url: entry.url,
      headers: entry.headers,
      body,
      ...(await current.verifyNotification(entry)),
    };
  };

  // ---- Docs ---------------------------------------------------------------------------------------

  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description:
        "Searches the developer portal's pages (their Markdown twins from the site build). Every word of `query` must appear (case-insensitive); pages whose title or headings contain the words rank first. Returns up to `limit` pages (default 8), each with its title, page URL, path, Markdown twin URL and a snippet. Read a page in full with read_page. Needs the server started with --docs <a built portal directory> (npm run mcp in the portal repository uses its build/).",
      inputSchema: {
        query: z
          .string({error: 'query must be text: the words to look for, such as "refund notification".'})
          .trim()
          .min(1, {error: 'query is empty: give the words to look for, such as "refund notification".'})
          .max(200, {error: 'query is longer than 200 characters.'}),
        limit: z
          .number({error: 'limit must be a number from 1 to 25.'})
          .int({error: 'limit must be a whole number from 1 to 25.'})
          .min(1, {error: 'limit must be 1 to 25.'})
          .max(25, {error: 'limit must be 1 to 25.'})
          .optional(),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    run(async ({query, limit}) => {
      const hits = docs.search(query, limit ?? 8);
      return text(
        hits.length ? {query, results: hits} : {query, results: [], note: 'No page contains every word; try fewer or other words.'},
      );
    }),
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a docs page',
      description:
        "Returns the Markdown twin of one portal page: its text as Markdown, with the API reference sections and generated tables included. `path` is the page's path (/docs/createorder), its .md URL (/docs/createorder.md) or its full URL on the portal; / is the home page. An unknown path is an error that lists the closest paths. Needs the server started with --docs <a built portal directory> (npm run mcp in the portal repository uses its build/).",
      inputSchema: {
        path: z
          .string({error: 'path must be text, such as /docs/createorder.'})
          .trim()
          .min(1, {error: 'path is empty: give a page path such as /docs/createorder.'})
          .max(500, {error: 'path is longer than 500 characters.'}),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    run(async ({path: reference}) => {
      const {entry, markdown} = docs.read(reference);
      return {
        content: [
          {type: 'text', text: markdown},
          {
            type: 'text',
            text: JSON.stringify({title: entry.title, url: `${siteOrigin}${entry.path}`, markdownUrl: `${siteOrigin}${entry.markdown}`}),
          },
        ],
      };
    }),
  );

  // ---- Contract -------------------------------------------------------------------------------------

  server.registerTool(
    'get_operation',
    {
      title: 'Get an API operation',
      description: `Returns one operation (or notification) of the Veloxa Pay API contract by operationId, such as createOrder: method, full path, summary, description, parameters, request body schema and examples, responses, result codes, and what applies of idempotency, rate limits, state machines and notification delivery, with $refs resolved. A second text block holds the code sample in \`language\` (one of ${sampleLanguages.join(', ')}; default curl), as the API page shows it. Unknown operationIds are an error listing the valid ones.`,
      inputSchema: {
        operationId: z
          .string({error: 'operationId must be text, such as createOrder.'})
          .trim()
          .min(1, {error: 'operationId is empty: give one such as createOrder.'})
          .max(100, {error: 'operationId is longer than 100 characters.'}),
        language: z
          .string({error: `language must be one of ${sampleLanguages.join(', ')}.`})
          .trim()
          .toLowerCase()
          .optional(),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    run(async ({operationId, language}) => {
      const {slice, sample} = operationSlice(sandboxFiles().contract, operationId, language ?? 'curl');
      return {
        content: [
          {type: 'text', text: JSON.stringify(slice, null, 2)},
          {
            type: 'text',
            text: `Code sample (${sample.language}, ${sample.fileName}):\n\n\`\`\`${sample.language === 'curl' ? 'bash' : sample.language === 'node' ? 'javascript' : sample.language}\n${sample.code}\n\`\`\``,
          },
        ],
      };
    }),
  );

  // ---- Sandbox ------------------------------------------------------------------------------------

  server.registerTool(
    'sandbox_request',
    {
      title: 'Call the sandbox API',
      description: `Sends one API request to the sandbox as the published test merchant (${sandboxFiles().spec.sandbox.merchant.clientId}), signed exactly as the integration guide says. \`path\` starts with /v1/ and names an operation of the contract (such as /v1/orders or /v1/orders/ORD-1/refunds); \`query\` holds query parameters; \`body\` is the JSON body (an object, or a string sent as is). Returns the HTTP status, headers and body, whether the response signature verifies with the provider test key, and the canonical string that was signed. Notifications the call causes land in the inbox (sandbox_notifications). ${sandboxOnly}`,
      inputSchema: {
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], {error: 'method must be GET, POST, PUT, PATCH or DELETE (upper case).'}),
        path: z
          .string({error: 'path must be text starting with /v1/, such as /v1/orders.'})
          .min(1, {error: 'path is empty: give one starting with /v1/, such as /v1/orders.'})
          .max(500, {error: 'path is longer than 500 characters.'}),
        query: z
          .record(z.string(), z.string({error: 'query values must be text, such as {"pageNo": "2"}.'}), {
            error: 'query must be an object of parameter names to text values, such as {"pageNo": "2"}.',
          })
          .optional(),
        body: z
          .union([z.string(), freeFormObject('body must be a JSON object (or a string sent as is).')], {
            error: 'body must be a JSON object (or a string sent as is).',
          })
          .optional(),
      },
      annotations: {openWorldHint: false, destructiveHint: false},
    },
    run(async ({method, path: requestPath, query, body}) => {
      const {spec} = sandboxFiles();
      if (!requestPath.startsWith('/v1/'))
        throw new ToolInputError(`path must start with /v1/ (the API's base path), such as /v1/orders; got "${requestPath.slice(0, 80)}".`);
      if (/[\s?#]/.test(requestPath) || requestPath.includes('..'))
        throw new ToolInputError('path must be a plain path without spaces, "..", "?" or "#": put query parameters in `query`.');
      const match = matchOperation(spec.operations, method, requestPath);
      const operation = match.found || match.reason === 'encoding' ? match.operation : undefined;
      if (!operation) {
        const list = spec.operations.map((candidate) => `${candidate.method} ${candidate.path}`).join('; ');
        throw new ToolInputError(
          !match.found && match.reason === 'method'
            ? `${requestPath} takes ${match.methods.join(' or ')}, not ${method}.`
            : `${method} ${requestPath} is not an operation of the contract. The operations are: ${list}.`,
        );
      }
      if (method === 'GET' && body !== undefined)
        throw new ToolInputError(`${operation.operationId} is a GET: it takes no body; put parameters in \`query\`.`);
      const search = Object.entries(query ?? {}).map(
        ([name, value]) => `${encodeTargetComponent(name)}=${encodeTargetComponent(String(value))}`,
      );
      const target = search.length ? `${requestPath}?${search.join('&')}` : requestPath;
      const raw = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
      const current = await sandbox();
      const before = current.inbox.length;
      const result = await current.call(method, target, raw);
      return text({
        operationId: result.operationId,
        request: {method, target, headers: {'X-Client-Id': current.clientId, 'X-Signature': result.signatureHeader}, body: raw},
        status: result.response.status,
        headers: result.response.headers,
        body: parseJson(result.response.body),
        responseSignatureVerified: result.responseVerified,
        ...(result.responseProblem ? {responseSignatureProblem: result.responseProblem} : {}),
        canonicalRequest: result.canonicalRequest,
        ...(result.response.holdSeconds
          ? {holdSeconds: result.response.holdSeconds, note: 'A real sandbox would hold this answer that long; here it comes at once.'}
          : {}),
        notificationsReceived: current.inbox.length - before,
      });
    }),
  );

  server.registerTool(
    'sandbox_notifications',
    {
      title: 'Read the notification inbox',
      description: `Lists the notifications the sandbox delivered in this session, oldest first: seq, arrival time (sandbox clock), eventType, notificationId, URL, headers, body, and whether the signature verifies with the provider test key. \`since\` returns only those with a larger seq (pass the last seq you read). They go to this inbox, never to a real URL. ${sandboxOnly}`,
      inputSchema: {
        since: z
          .number({error: 'since must be a whole number: the seq of the last notification you read.'})
          .int({error: 'since must be a whole number.'})
          .min(0, {error: 'since must be 0 or more.'})
          .optional(),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    run(async ({since}) => {
      const current = await sandbox();
      const entries = current.inbox.filter((entry) => entry.seq > (since ?? 0));
      return text({count: entries.length, notifications: await Promise.all(entries.map((entry) => entryView(current, entry)))});
    }),
  );

  registerActionTools(server, {
    defaults: {
      clientId: {value: sandboxFiles().spec.sandbox.merchant.clientId, says: 'the test merchant sandbox_request signs as'},
      notifyUrl: {
        value: sampleEnvironment.notifyUrl.default,
        says: 'the endpoint the samples use; nothing is sent there, the notification lands in the inbox (sandbox_notifications)',
      },
    },
    fixtures: shopperFixtures(sandboxFiles().spec.sandbox),
    sandboxOnly,
    run,
    async act(action, input) {
      const current = await sandbox();
      const lastSeq = current.inbox.at(-1)?.seq ?? 0;
      const result = actionValue(await current.target.act(action.name, input));
      const received = current.inbox.filter((entry) => entry.seq > lastSeq);
      return text({
        action: action.name,
        result,
        notificationsReceived: received.length,
        notifications: await Promise.all(received.map((entry) => entryView(current, entry))),
      });
    },
  });

  server.registerTool(
    'verify_signature',
    {
      title: 'Verify a signature',
      description:
        "Checks the signature of a raw HTTP message with the signature debugger's library: kind request (a merchant's request, verified with the merchant public key), response (the provider's response; give the raw `request` it answers too) or notification (verified with the provider public key). `message` is the raw message: first line, headers, a blank line, the body byte for byte. `key` is a PEM public (or private) key. Returns whether it verifies, the canonical string, and when it does not, the likely cause (re-serialised body, trailing line feed, CRLF, path without /v1, re-encoded query, wrong key...) plus timestamp, nonce and key-version findings. Nothing is sent anywhere.",
      inputSchema: {
        kind: z.enum(['request', 'response', 'notification'], {error: 'kind must be request, response or notification.'}),
        message: z
          .string({error: 'message must be text: the raw HTTP message.'})
          .min(1, {error: 'message is empty: paste the raw HTTP message (first line, headers, a blank line, the body).'})
          .max(200_000),
        key: z
          .string({error: 'key must be text: a PEM key.'})
          .min(1, {error: 'key is empty: paste a PEM public key (-----BEGIN PUBLIC KEY-----...).'})
          .max(20_000),
        request: z.string().max(200_000).optional().describe('For kind response: the raw request it answers.'),
        keyVersion: z.number().int().min(1).optional().describe("The version of the key, to check against X-Signature's keyVersion."),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    run(async ({kind, message, key, request, keyVersion}) => {
      let parts;
      let signatureHeader: string | undefined;
      if (kind === 'response') {
        if (!request)
          throw new ToolInputError('A response signature covers the request it answers: give the raw request as `request` too.');
        const raw = parseRawRequest(request);
        const response = parseRawResponse(message);
        parts = partsOfResponse(raw, response);
        signatureHeader = response.headers.get('x-signature');
      } else {
        const raw = parseRawRequest(message, kind);
        parts = partsOfRequest(kind, raw);
        signatureHeader = raw.headers.get('x-signature');
      }
      if (signatureHeader === undefined) throw new ToolInputError(`The ${kind} has no X-Signature header: there is nothing to verify.`);
      const files = sandboxFiles();
      const otherKeys = [
        {
          label: 'the published provider test key (provider-test-private.pem)',
          publicKey: await importPublicKey(files.providerPublicKeyPem),
        },
        {
          label: 'the published test merchant key (merchant-test-private.pem)',
          publicKey: await importPublicKey(files.merchantPublicKeyPem),
        },
      ];
      const now = session ? (await session).engine.clock.now() : Date.now();
      const diagnosis = await diagnose({
        parts,
        signatureHeader,
        key: await readKey(key),
        ...(keyVersion ? {keyVersion} : {}),
        otherKeys,
        now: new Date(now),
      });
      return text({
        verified: diagnosis.verified,
        canonical: diagnosis.canonical,
        keyVersion: diagnosis.keyVersion,
        findings: diagnosis.findings,
        ...(diagnosis.expectedHeader ? {expectedHeader: diagnosis.expectedHeader} : {}),
      });
    }),
  );

  return server;
}

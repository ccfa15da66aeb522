/**
 * The portal's Model Context Protocol server: the docs (their Markdown twins), the contract (one operation
 * at a time, with its code sample) and the sandbox engine in this process, as tools. Transport-neutral:
 * src/mcp/cli.ts connects it to stdio (npm run mcp, and the downloadable bundle), the tests to the SDK's in-memory transport.
 *
 * Nothing here touches the network or the reader's files: the docs are read from a built site directory,
 * the sandbox keeps its state in memory for the session (or in a --data journal) and delivers notifications to an inbox, and the
 * only keys are the published test keys. Bad input is a tool error (isError) with one clear sentence.
 */
import path from 'node:path';
import {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {z} from 'zod';
import {diagnose, KeyInputError, MessageInputError, parseRawRequest, parseRawResponse, partsOfRequest, partsOfResponse, readKey} from '../lib/signatureDiagnosis';
import {importPublicKey, SigningInputError} from '../lib/signing';
import {sampleEnvironment, sampleLanguages} from '../lib/samples';
import {encodeTargetComponent} from '../lib/samples/types';
import {agentClockStepLimitSeconds, shopperFixtures} from '../sandbox/actions';
import {isoSeconds} from '../sandbox/engine/clock';
import type {ActionResult, SimulatedNotification} from '../sandbox/engine/engine';
import {matchOperation} from '../sandbox/engine/pipeline/route';
import type {SandboxStore} from '../sandbox/engine/store';
import {SandboxDataError} from '../sandbox/server/fileStore';
import {sandboxFiles} from '../sandbox/server/loadEngine';
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

/** The longest single clock step this tool takes (src/sandbox/actions.ts says why it is shorter than the sandbox's). */
const maxAdvanceSeconds = agentClockStepLimitSeconds;
const maxAdvanceDays = Math.floor(maxAdvanceSeconds / 86_400);

/** The test wallet and cards a shopper uses when none is named (api/sandbox.yaml). */
const {wallet: everydayWallet, payingCard: everydayCard, decliningCard} = shopperFixtures(sandboxFiles().spec.sandbox);

const sandboxOnly = 'Sandbox only: the in-process test sandbox of this session (state in memory, or in the --data file the server was started with; published test keys), never production or the network.';

/**
 * A JSON object with any members, spelled `{"type": "object", "additionalProperties": true}` in the tool
 * schema: zod writes `additionalProperties: {}` for a loose object, a schema with no validation keyword,
 * which the MCP Inspector's --strict lint flags as unportable (tests/mcp/toolSchemas.test.ts).
 */
const freeFormObject = (error: string) => z.looseObject({}, {error}).meta({additionalProperties: true});

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
  const server = new McpServer({name: 'veloxa-pay-portal', version: '1.0.0'}, {instructions: `Veloxa Pay developer portal: search and read its docs, read one API operation with a code sample, and drive a private sandbox (signed requests, shopper actions, clock, notifications, signature checks). ${sandboxOnly}`});

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
        if (error instanceof ToolInputError || error instanceof KeyInputError || error instanceof MessageInputError || error instanceof SigningInputError) return toolError(error.message);
        if (error instanceof SandboxDataError) return toolError(`The sandbox cannot start: ${error.message}. The docs and contract tools work without it.`);
        log(`mcp: tool failed: ${(error as Error).stack ?? String(error)}`);
        return toolError(`The tool failed unexpectedly: ${(error as Error).message}. The server keeps running; check the input and try again.`);
      }
    };

  const entryView = async (current: SandboxSession, entry: InboxEntry) => {
    const body = parseJson(entry.body) as {eventType?: string; notificationId?: string};
    return {seq: entry.seq, receivedAt: entry.receivedAt, eventType: body.eventType, notificationId: body.notificationId, url: entry.url, headers: entry.headers, body, ...(await current.verifyNotification(entry))};
  };

  // ---- Docs ---------------------------------------------------------------------------------------

  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description:
        'Searches the developer portal\'s pages (their Markdown twins from the site build). Every word of `query` must appear (case-insensitive); pages whose title or headings contain the words rank first. Returns up to `limit` pages (default 8), each with its title, page URL, path, Markdown twin URL and a snippet. Read a page in full with read_page. Needs the server started with --docs <a built portal directory> (npm run mcp in the portal repository uses its build/).',
      inputSchema: {
        query: z.string({error: 'query must be text: the words to look for, such as "refund notification".'}).trim().min(1, {error: 'query is empty: give the words to look for, such as "refund notification".'}).max(200, {error: 'query is longer than 200 characters.'}),
        limit: z.number({error: 'limit must be a number from 1 to 25.'}).int({error: 'limit must be a whole number from 1 to 25.'}).min(1, {error: 'limit must be 1 to 25.'}).max(25, {error: 'limit must be 1 to 25.'}).optional(),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    run(async ({query, limit}) => {
      const hits = docs.search(query, limit ?? 8);
      return text(hits.length ? {query, results: hits} : {query, results: [], note: 'No page contains every word; try fewer or other words.'});
    }),
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a docs page',
      description:
        'Returns the Markdown twin of one portal page: its text as Markdown, with the API reference sections and generated tables included. `path` is the page\'s path (/docs/createorder), its .md URL (/docs/createorder.md) or its full URL on the portal; / is the home page. An unknown path is an error that lists the closest paths. Needs the server started with --docs <a built portal directory> (npm run mcp in the portal repository uses its build/).',
      inputSchema: {
        path: z.string({error: 'path must be text, such as /docs/createorder.'}).trim().min(1, {error: 'path is empty: give a page path such as /docs/createorder.'}).max(500, {error: 'path is longer than 500 characters.'}),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    run(async ({path: reference}) => {
      const {entry, markdown} = docs.read(reference);
      return {content: [{type: 'text', text: markdown}, {type: 'text', text: JSON.stringify({title: entry.title, url: `${siteOrigin}${entry.path}`, markdownUrl: `${siteOrigin}${entry.markdown}`})}]};
    }),
  );

  // ---- Contract -------------------------------------------------------------------------------------

  server.registerTool(
    'get_operation',
    {
      title: 'Get an API operation',
      description: `Returns one operation (or notification) of the Veloxa Pay API contract by operationId, such as createOrder: method, full path, summary, description, parameters, request body schema and examples, responses, result codes, and what applies of idempotency, rate limits, state machines and notification delivery, with $refs resolved. A second text block holds the code sample in \`language\` (one of ${sampleLanguages.join(', ')}; default curl), as the API page shows it. Unknown operationIds are an error listing the valid ones.`,
      inputSchema: {
        operationId: z.string({error: 'operationId must be text, such as createOrder.'}).trim().min(1, {error: 'operationId is empty: give one such as createOrder.'}).max(100, {error: 'operationId is longer than 100 characters.'}),
        language: z.string({error: `language must be one of ${sampleLanguages.join(', ')}.`}).trim().toLowerCase().optional(),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    run(async ({operationId, language}) => {
      const {slice, sample} = operationSlice(sandboxFiles().contract, operationId, language ?? 'curl');
      return {
        content: [
          {type: 'text', text: JSON.stringify(slice, null, 2)},
          {type: 'text', text: `Code sample (${sample.language}, ${sample.fileName}):\n\n\`\`\`${sample.language === 'curl' ? 'bash' : sample.language === 'node' ? 'javascript' : sample.language}\n${sample.code}\n\`\`\``},
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
        path: z.string({error: 'path must be text starting with /v1/, such as /v1/orders.'}).min(1, {error: 'path is empty: give one starting with /v1/, such as /v1/orders.'}).max(500, {error: 'path is longer than 500 characters.'}),
        query: z.record(z.string(), z.string({error: 'query values must be text, such as {"pageNo": "2"}.'}), {error: 'query must be an object of parameter names to text values, such as {"pageNo": "2"}.'}).optional(),
        body: z.union([z.string(), freeFormObject('body must be a JSON object (or a string sent as is).')], {error: 'body must be a JSON object (or a string sent as is).'}).optional(),
      },
      annotations: {openWorldHint: false, destructiveHint: false},
    },
    run(async ({method, path: requestPath, query, body}) => {
      const {spec} = sandboxFiles();
      if (!requestPath.startsWith('/v1/')) throw new ToolInputError(`path must start with /v1/ (the API's base path), such as /v1/orders; got "${requestPath.slice(0, 80)}".`);
      if (/[\s?#]/.test(requestPath) || requestPath.includes('..')) throw new ToolInputError('path must be a plain path without spaces, "..", "?" or "#": put query parameters in `query`.');
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
      if (method === 'GET' && body !== undefined) throw new ToolInputError(`${operation.operationId} is a GET: it takes no body; put parameters in \`query\`.`);
      const search = Object.entries(query ?? {}).map(([name, value]) => `${encodeTargetComponent(name)}=${encodeTargetComponent(String(value))}`);
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
        ...(result.response.holdSeconds ? {holdSeconds: result.response.holdSeconds, note: 'A real sandbox would hold this answer that long; here it comes at once.'} : {}),
        notificationsReceived: current.inbox.length - before,
      });
    }),
  );

  server.registerTool(
    'sandbox_shopper',
    {
      title: 'Act as the shopper',
      description: `Does what a customer, store cashier or wallet user does in the sandbox. action: pay (pay order merchantOrderNo: method WALLET with phone/pin, default the everyday wallet ${everydayWallet.phone} PIN ${everydayWallet.pin}; CARD with cardNumber, default ${everydayCard}; or BANK_TRANSFER), decline (a failed attempt on merchantOrderNo: a wrong wallet PIN, or with method CARD the declining card ${decliningCard}), abandon (the shopper leaves the cashier of merchantOrderNo; the order stays PENDING until it expires), scan (pay a DYNAMIC_QR order by its qrContent with a wallet), pay_cash (a store records cash for a CASH_TOP_UP order by its paymentReference), authorize_agreement (approve, or with approve false decline, agreement merchantAgreementNo in wallet phone). Test wallets and cards: /docs/general/test-accounts. Returns the order or agreement as it is now. ${sandboxOnly}`,
      inputSchema: {
        action: z.enum(['pay', 'decline', 'abandon', 'scan', 'pay_cash', 'authorize_agreement'], {error: 'action must be one of pay, decline, abandon, scan, pay_cash, authorize_agreement.'}),
        merchantOrderNo: z.string().max(64).optional().describe('The order, for pay, decline and abandon.'),
        method: z.enum(['WALLET', 'CARD', 'BANK_TRANSFER'], {error: 'method must be WALLET, CARD or BANK_TRANSFER.'}).optional().describe('How to pay (pay, decline); default WALLET, or CARD when cardNumber is given.'),
        phone: z.string().max(20).optional().describe('A test wallet phone number (pay, decline, scan, authorize_agreement).'),
        pin: z.string().max(12).optional().describe('The wallet PIN (pay, scan).'),
        cardNumber: z.string().max(19).optional().describe('A test card number (pay with CARD).'),
        qrContent: z.string().max(2000).optional().describe('The qrContent of a DYNAMIC_QR order\'s nextAction (scan).'),
        paymentReference: z.string().max(64).optional().describe('The paymentReference of a CASH_TOP_UP order (pay_cash).'),
        merchantAgreementNo: z.string().max(64).optional().describe('The agreement (authorize_agreement).'),
        approve: z.boolean().optional().describe('authorize_agreement: false declines; default true.'),
      },
      annotations: {openWorldHint: false, destructiveHint: false},
    },
    run(async (input) => {
      const current = await sandbox();
      const act = async (name: string, values: Record<string, unknown>) => actionValue(await current.target.act(name, {clientId: current.clientId, ...values}));
      const need = (value: string | undefined, name: string) => {
        if (!value) throw new ToolInputError(`${input.action} needs ${name}.`);
        return value;
      };
      const before = current.inbox.length;
      let value: unknown;
      switch (input.action) {
        case 'pay': {
          const order = need(input.merchantOrderNo, 'merchantOrderNo, the order to pay');
          const method = input.method ?? (input.cardNumber ? 'CARD' : 'WALLET');
          const choice =
            method === 'CARD' ? {method, cardNumber: input.cardNumber ?? everydayCard} : method === 'WALLET' ? {method, phone: input.phone ?? everydayWallet.phone, pin: input.pin ?? everydayWallet.pin} : {method};
          value = await act('shopper.pay', {merchantOrderNo: order, ...choice});
          break;
        }
        case 'decline': {
          const order = need(input.merchantOrderNo, 'merchantOrderNo, the order whose payment fails');
          const choice = input.method === 'CARD' ? {method: 'CARD', cardNumber: decliningCard} : {method: 'WALLET', phone: input.phone ?? everydayWallet.phone, pin: '000000'};
          value = await act('shopper.pay', {merchantOrderNo: order, ...choice});
          break;
        }
        case 'abandon':
          value = await act('shopper.abandon', {merchantOrderNo: need(input.merchantOrderNo, 'merchantOrderNo, the order the shopper leaves')});
          break;
        case 'scan':
          value = await act('shopper.scan', {qrContent: need(input.qrContent, 'qrContent, from the DYNAMIC_QR order\'s nextAction'), phone: input.phone ?? everydayWallet.phone, pin: input.pin ?? everydayWallet.pin});
          break;
        case 'pay_cash':
          value = await act('shopper.payCash', {paymentReference: need(input.paymentReference, 'paymentReference, from the CASH_TOP_UP order')});
          break;
        case 'authorize_agreement':
          value = await act('shopper.authorizeAgreement', {merchantAgreementNo: need(input.merchantAgreementNo, 'merchantAgreementNo, the agreement to authorize'), wallet: input.phone ?? everydayWallet.phone, approve: input.approve ?? true});
          break;
      }
      return text({action: input.action, result: value, notificationsReceived: current.inbox.length - before});
    }),
  );

  server.registerTool(
    'sandbox_advance_clock',
    {
      title: 'Advance the sandbox clock',
      description: `Moves the sandbox clock forward by \`seconds\` (1 to ${maxAdvanceSeconds}, ${maxAdvanceDays} days) and runs every job that falls due, in time order: payment results, refunds completing, order expiry, settlement, payouts, notification retries. Returns the new sandbox time, the number of jobs run and the notifications received. ${sandboxOnly}`,
      inputSchema: {
        seconds: z.number({error: `seconds must be a number from 1 to ${maxAdvanceSeconds}.`}).int({error: 'seconds must be a whole number.'}).min(1, {error: 'seconds must be at least 1: the clock only moves forward.'}).max(maxAdvanceSeconds, {error: `seconds must be at most ${maxAdvanceSeconds} (${maxAdvanceDays} days); call again to go further.`}),
      },
      annotations: {openWorldHint: false, destructiveHint: false},
    },
    run(async ({seconds}) => {
      const current = await sandbox();
      const before = current.inbox.length;
      const {jobsRun} = actionValue(await current.target.act('clock.advance', {seconds})) as {jobsRun: number};
      return text({now: isoSeconds(current.engine.clock.now()), aheadOfRealTimeSeconds: Math.round(current.engine.clock.offsetMs / 1000), jobsRun, notificationsReceived: current.inbox.length - before});
    }),
  );

  server.registerTool(
    'sandbox_notifications',
    {
      title: 'Read the notification inbox',
      description: `Lists the notifications the sandbox delivered in this session, oldest first: seq, arrival time (sandbox clock), eventType, notificationId, URL, headers, body, and whether the signature verifies with the provider test key. \`since\` returns only those with a larger seq (pass the last seq you read). They go to this inbox, never to a real URL. ${sandboxOnly}`,
      inputSchema: {
        since: z.number({error: 'since must be a whole number: the seq of the last notification you read.'}).int({error: 'since must be a whole number.'}).min(0, {error: 'since must be 0 or more.'}).optional(),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    run(async ({since}) => {
      const current = await sandbox();
      const entries = current.inbox.filter((entry) => entry.seq > (since ?? 0));
      return text({count: entries.length, notifications: await Promise.all(entries.map((entry) => entryView(current, entry)))});
    }),
  );

  server.registerTool(
    'sandbox_simulate_notification',
    {
      title: 'Produce a signed notification',
      description: `Raises a notification of the contract as the sandbox would send it: \`notification\` is a webhook's operationId or key (such as paymentResultNotification), \`scenario\` one of its named examples (such as paid); \`data\` optionally replaces the example's data (it must match the contract); \`notifyUrl\` is the URL it is addressed to (default ${sampleEnvironment.notifyUrl.default}; nothing is sent there). The signed notification lands in the inbox; returns it with its verification. ${sandboxOnly}`,
      inputSchema: {
        notification: z.string({error: 'notification must be text: a webhook operationId such as paymentResultNotification.'}).trim().min(1, {error: 'notification is empty: give a webhook operationId such as paymentResultNotification.'}).max(100),
        scenario: z.string({error: 'scenario must be text: one of the webhook\'s example names, such as paid.'}).trim().min(1, {error: 'scenario is empty: give one of the webhook\'s example names, such as paid.'}).max(100),
        data: freeFormObject('data must be a JSON object: the notification\'s data member.').optional(),
        notifyUrl: z.string().max(500).optional(),
      },
      annotations: {openWorldHint: false, destructiveHint: false},
    },
    run(async ({notification, scenario, data, notifyUrl}) => {
      const current = await sandbox();
      const simulated = actionValue(await current.target.act('control.simulateNotification', {clientId: current.clientId, operationId: notification, scenario, ...(data ? {data} : {}), notifyUrl: notifyUrl ?? sampleEnvironment.notifyUrl.default})) as SimulatedNotification;
      const delivered = [...current.inbox].reverse().find((entry) => (parseJson(entry.body) as {notificationId?: string}).notificationId === simulated.notificationId);
      if (!delivered) throw new Error(`The notification ${simulated.notificationId} was raised but not delivered.`);
      return text({simulated: {operationId: simulated.operationId, scenario: simulated.scenario, eventType: simulated.eventType, notificationId: simulated.notificationId, notifyUrl: simulated.notifyUrl}, delivery: await entryView(current, delivered)});
    }),
  );

  server.registerTool(
    'verify_signature',
    {
      title: 'Verify a signature',
      description:
        'Checks the signature of a raw HTTP message with the signature debugger\'s library: kind request (a merchant\'s request, verified with the merchant public key), response (the provider\'s response; give the raw `request` it answers too) or notification (verified with the provider public key). `message` is the raw message: first line, headers, a blank line, the body byte for byte. `key` is a PEM public (or private) key. Returns whether it verifies, the canonical string, and when it does not, the likely cause (re-serialised body, trailing line feed, CRLF, path without /v1, re-encoded query, wrong key...) plus timestamp, nonce and key-version findings. Nothing is sent anywhere.',
      inputSchema: {
        kind: z.enum(['request', 'response', 'notification'], {error: 'kind must be request, response or notification.'}),
        message: z.string({error: 'message must be text: the raw HTTP message.'}).min(1, {error: 'message is empty: paste the raw HTTP message (first line, headers, a blank line, the body).'}).max(200_000),
        key: z.string({error: 'key must be text: a PEM key.'}).min(1, {error: 'key is empty: paste a PEM public key (-----BEGIN PUBLIC KEY-----...).'}).max(20_000),
        request: z.string().max(200_000).optional().describe('For kind response: the raw request it answers.'),
        keyVersion: z.number().int().min(1).optional().describe('The version of the key, to check against X-Signature\'s keyVersion.'),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    run(async ({kind, message, key, request, keyVersion}) => {
      let parts;
      let signatureHeader: string | undefined;
      if (kind === 'response') {
        if (!request) throw new ToolInputError('A response signature covers the request it answers: give the raw request as `request` too.');
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
        {label: 'the published provider test key (provider-test-private.pem)', publicKey: await importPublicKey(files.providerPublicKeyPem)},
        {label: 'the published test merchant key (merchant-test-private.pem)', publicKey: await importPublicKey(files.merchantPublicKeyPem)},
      ];
      const now = session ? (await session).engine.clock.now() : Date.now();
      const diagnosis = await diagnose({parts, signatureHeader, key: await readKey(key), ...(keyVersion ? {keyVersion} : {}), otherKeys, now: new Date(now)});
      return text({verified: diagnosis.verified, canonical: diagnosis.canonical, keyVersion: diagnosis.keyVersion, findings: diagnosis.findings, ...(diagnosis.expectedHeader ? {expectedHeader: diagnosis.expectedHeader} : {})});
    }),
  );

  return server;
}

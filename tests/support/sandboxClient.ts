/**
 * A merchant's side of the sandbox, for tests: signs each call with a merchant key exactly as the
 * integration guide says, sends it to an engine (or anything with the engine's handle()), verifies the
 * response signature with the provider test key and validates the response against the contract.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import type {SandboxEngine} from '../../src/sandbox/engine/engine';
import type {SandboxRequest, SandboxResponse} from '../../src/sandbox/engine/http';
import {matchOperation} from '../../src/sandbox/engine/pipeline/route';
import {sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {importPrivateKey, importPublicKey} from '../../src/lib/signing';
import {signRequest, verifyResponse} from '../../src/sandbox/client/signing';
import {pointerSegment} from '../../src/contract/validator';
import {resolvePointer, type OperationObject} from '../../src/contract/openapiTypes';
import {repoRoot} from './routeContract';

export const providerPublicKeyPem = readFileSync(path.join(repoRoot, 'api', 'test-vectors', 'provider-test-public.pem'), 'utf8');
const providerKey = importPublicKey(providerPublicKeyPem).then((key) => ({key, keyVersion: 1}));

export interface CallResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly json: {code: string; message: string; requestId: string; data?: Record<string, unknown>};
  /** Empty when the response is signed correctly and matches the contract. */
  readonly problems: readonly string[];
}

export interface SandboxClientOptions {
  readonly handle: (request: SandboxRequest) => Promise<SandboxResponse>;
  readonly now: () => number;
  readonly clientId?: string;
  readonly privateKeyPem?: string;
  readonly keyVersion?: number;
}

/** Checks a response as a careful merchant would: signature over the 8-line string, then the contract's schema. */
export async function responseProblems(
  request: {method: string; target: string; clientId: string; timestamp: string; nonce: string},
  response: SandboxResponse,
  operationPointer: string | undefined,
): Promise<string[]> {
  const problems: string[] = [];
  const verification = await verifyResponse(request, response, await providerKey);
  if (verification.outcome === 'otherKeyVersion') problems.push(`signed with provider key ${verification.keyVersion}`);
  if (verification.outcome === 'mismatch') problems.push('the response signature does not verify');
  if (verification.outcome === 'unreadable') problems.push(`response signature: ${verification.message}`);
  if (operationPointer) {
    const {validator, contract} = sandboxFiles();
    const status = String(response.status);
    const operation = resolvePointer(contract.document, `#${operationPointer}`) as OperationObject;
    const declared = operation.responses?.[status] ? status : 'default';
    let parsed: unknown;
    try {
      parsed = JSON.parse(response.body);
    } catch {
      problems.push('the body is not JSON');
    }
    // A status may name a shared response (components.responses) by $ref: validate against that one.
    const ref = (operation.responses?.[declared] as {$ref?: string} | undefined)?.$ref;
    const media = ref ? ref.slice(1) : `${operationPointer}/responses/${declared}`;
    const pointer =
      declared === 'default' && !ref
        ? '/components/responses/Error/content/application~1json/schema'
        : `${media}/content/${pointerSegment('application/json')}/schema`;
    if (parsed !== undefined) problems.push(...validator.problems(pointer, parsed).map((problem) => `${response.status} body ${problem}`));
  }
  return problems;
}

/** Where an operation lives in the contract, for a request line. */
export function operationPointerFor(method: string, target: string): string | undefined {
  const {spec} = sandboxFiles();
  const match = matchOperation(spec.operations, method, target);
  const operation = match.found || match.reason === 'encoding' ? match.operation : undefined;
  return operation ? `/paths/${pointerSegment(operation.path.slice(spec.basePath.length))}/${operation.method.toLowerCase()}` : undefined;
}

/**
 * Imported signing keys by PEM: a client is made per session (tests/sandbox/properties.test.ts makes 1,000), and
 * importing the same RSA key again each time was about a millisecond of CPU per client. A CryptoKey is immutable.
 */
const privateKeys = new Map<string, Promise<CryptoKey>>();

function privateKeyFor(pem: string): Promise<CryptoKey> {
  let key = privateKeys.get(pem);
  if (!key) privateKeys.set(pem, (key = importPrivateKey(pem)));
  return key;
}

export function sandboxClient(options: SandboxClientOptions) {
  const files = sandboxFiles();
  const clientId = options.clientId ?? files.spec.sandbox.merchant.clientId;
  const key = privateKeyFor(options.privateKeyPem ?? files.merchantPrivateKeyPem);
  return {
    clientId,
    async call(method: string, target: string, body?: unknown): Promise<CallResult> {
      const raw = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
      const signed = await signRequest(
        {clientId, keyVersion: options.keyVersion ?? 1, privateKey: await key},
        {method, target, body: raw},
        options.now(),
      );
      const response = await options.handle(signed);
      const problems = await responseProblems(signed, response, operationPointerFor(method, target));
      return {
        status: response.status,
        headers: response.headers,
        body: response.body,
        json: JSON.parse(response.body) as CallResult['json'],
        problems,
      };
    },
  };
}

/** A client of an engine in this process. */
export function engineClient(engine: SandboxEngine, options: Omit<SandboxClientOptions, 'handle' | 'now'> = {}) {
  return sandboxClient({...options, handle: (request) => engine.handle(request), now: () => engine.clock.now()});
}

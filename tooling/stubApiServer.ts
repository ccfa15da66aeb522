/**
 * A local stand-in for the payment API, for running the code samples: it
 * matches the request to an operation of the contract, checks the signature
 * headers with the committed test key (freshness, nonce reuse, RSA-SHA256),
 * validates the body against the operation's request schema and answers with
 * the operation's first success example. Every request is recorded.
 *
 * Like the sandbox, it signs every response with a provider key (the 8-line
 * response canonical string, bound to the request's nonce and the status). A
 * fault makes it answer in a way a sample must reject: the tests start one stub
 * per fault.
 */
import {randomUUID} from 'node:crypto';
import {createServer, type IncomingMessage, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import type {LoadedContract} from '../plugins/content/openapi-contract/loadContract';
import {createContractValidator, pointerSegment, type ContractValidator} from '../src/lib/contract/validator';
import {
  canonicalString,
  formatSignatureHeader,
  importPrivateKey,
  importPublicKey,
  isTimestampFresh,
  parseSignatureHeader,
  responseCanonicalString,
  signCanonical,
  timestampWindowSeconds,
  verifyCanonical,
} from '../src/lib/signing';
import type {OperationLocation} from '../src/lib/openapiTypes';

export interface RecordedRequest {
  readonly operationId: string | undefined;
  readonly method: string;
  readonly pathWithQuery: string;
  readonly body: string;
  readonly problems: readonly string[];
}

/**
 * How the stub answers wrongly, each a response a sample must reject:
 * - tamperedBody: the body is changed after signing (still valid JSON with the same content);
 * - staleTimestamp: signed correctly, but X-Timestamp is older than the freshness window;
 * - otherRequestNonce: signed correctly, but for another request's nonce (a replayed response);
 * - unsigned: an HTML 502 without signature headers, as a load balancer sends.
 * A key version the sample does not know is not a fault: sign with another providerKey.
 */
export type StubFault = 'tamperedBody' | 'staleTimestamp' | 'otherRequestNonce' | 'unsigned';

export interface StubApiOptions {
  readonly contract: LoadedContract;
  readonly merchantPublicKeyPem: string;
  readonly clientId: string;
  /** The provider key the responses are signed with, and the keyVersion their X-Signature names. */
  readonly providerKey: {readonly privateKeyPem: string; readonly keyVersion: number};
  readonly fault?: StubFault;
}

export interface StubApiServer {
  /** Scheme, host and port, without the contract's "/v1": the samples' VELOXA_API_HOST. */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** The path of the contract's servers ("/v1"), which the stub serves under too. */
function serverBasePath(contract: LoadedContract): string {
  const url = contract.document.servers?.[0]?.url;
  return url ? new URL(url).pathname.replace(/\/$/, '') : '';
}

function matchOperation(contract: LoadedContract, method: string, pathname: string): OperationLocation | undefined {
  const basePath = serverBasePath(contract);
  if (!pathname.startsWith(`${basePath}/`)) return undefined;
  const relative = pathname.slice(basePath.length);
  return [...contract.operations.values()].find((location) => {
    if (location.kind !== 'operation' || location.method.toUpperCase() !== method) return false;
    const pattern = new RegExp(`^${location.key.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(relative);
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function utcSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Compiling the contract's schemas takes a while: one validator per contract, shared by every stub. */
const validators = new WeakMap<LoadedContract, ContractValidator>();

function validatorFor(contract: LoadedContract): ContractValidator {
  let validator = validators.get(contract);
  if (!validator) {
    validator = createContractValidator(contract.document);
    validators.set(contract, validator);
  }
  return validator;
}

export async function startStubApiServer(options: StubApiOptions): Promise<StubApiServer> {
  const {contract, clientId, fault} = options;
  const merchantKey = await importPublicKey(options.merchantPublicKeyPem);
  const providerKey = await importPrivateKey(options.providerKey.privateKeyPem);
  const validator = validatorFor(contract);
  const seenNonces = new Set<string>();
  const requests: RecordedRequest[] = [];

  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const method = request.method ?? '';
      const pathWithQuery = request.url ?? '';
      const url = new URL(pathWithQuery, 'http://stub.invalid');
      const location = matchOperation(contract, method, url.pathname);
      const problems: string[] = [];
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
      };

      if (!location) problems.push(`no operation for ${method} ${url.pathname}`);
      if (header('x-client-id') !== clientId) problems.push(`X-Client-Id is "${header('x-client-id')}"`);
      const timestamp = header('x-timestamp');
      if (!isTimestampFresh(timestamp, new Date())) problems.push(`X-Timestamp "${timestamp}" is not fresh`);
      const nonce = header('x-nonce');
      if (seenNonces.has(nonce)) problems.push(`X-Nonce "${nonce}" reused`);
      seenNonces.add(nonce);
      try {
        const signature = parseSignatureHeader(header('x-signature'));
        const canonical = canonicalString({method, pathWithQuery, clientId: header('x-client-id'), timestamp, nonce, body});
        if (!(await verifyCanonical(canonical, signature.signature, merchantKey))) problems.push('signature does not verify');
      } catch (error) {
        problems.push(`signature headers: ${(error as Error).message}`);
      }

      const media = location?.operation.requestBody?.content['application/json'];
      if (location && media?.schema) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          problems.push('body is not JSON');
        }
        if (parsed !== undefined) {
          const bodyProblems = validator.problems(`${location.pointer}/requestBody/content/${pointerSegment('application/json')}/schema`, parsed);
          if (bodyProblems.length > 0) problems.push(`body: ${bodyProblems.join(', ')}`);
        }
      } else if (location && body !== '') {
        problems.push('this operation takes no body');
      }

      requests.push({operationId: location?.operationId, method, pathWithQuery, body, problems});
      if (fault === 'unsigned') {
        response.writeHead(502, {'Content-Type': 'text/html'}).end('<html><body>502 Bad Gateway</body></html>');
        return;
      }
      const success = location?.operation.responses?.['200']?.content?.['application/json']?.examples;
      const answer =
        problems.length === 0 && success
          ? Object.values(success)[0]?.value
          : {code: 'INVALID_SIGNATURE', message: problems.join('; '), requestId: 'req_stubStubStubStubStub'};
      const status = problems.length === 0 ? 200 : 400;
      const responseBody = JSON.stringify(answer);
      const signedAt = new Date(Date.now() - (fault === 'staleTimestamp' ? 2 * timestampWindowSeconds * 1000 : 0));
      const responseTimestamp = utcSeconds(signedAt);
      const responseNonce = randomUUID();
      const headers: Record<string, string> = {'Content-Type': 'application/json', 'X-Timestamp': responseTimestamp, 'X-Nonce': responseNonce};
      try {
        const canonical = responseCanonicalString({
          request: {method, pathWithQuery, clientId: header('x-client-id'), timestamp, nonce: fault === 'otherRequestNonce' ? randomUUID() : nonce},
          status,
          timestamp: responseTimestamp,
          nonce: responseNonce,
          body: responseBody,
        });
        const signature = await signCanonical(canonical, providerKey);
        headers['X-Signature'] = formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: options.providerKey.keyVersion, signature});
      } catch {
        // A request too malformed to bind a response to (bad timestamp or nonce) gets an unsigned answer.
      }
      response.writeHead(status, headers);
      // The tampered body has the same JSON content, so a sample that parses without verifying would accept it.
      response.end(fault === 'tamperedBody' ? responseBody.replace(/^\{/, '{ ') : responseBody);
    })();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

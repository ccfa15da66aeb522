/**
 * A local stand-in for the payment API, for running the code samples: it
 * matches the request to an operation of the contract, checks the signature
 * headers with the committed test key (freshness, nonce reuse, RSA-SHA256),
 * validates the body against the operation's request schema and answers with
 * the operation's first success example. Every request is recorded.
 */
import {createServer, type IncomingMessage, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import type {LoadedContract} from '../plugins/content/openapi-contract/loadContract';
import {createContractValidator, pointerSegment} from '../src/lib/contract/validator';
import {canonicalString, importPublicKey, isTimestampFresh, parseSignatureHeader, verifyCanonical} from '../src/lib/signing';
import type {OperationLocation} from '../src/lib/openapiTypes';

export interface RecordedRequest {
  readonly operationId: string | undefined;
  readonly method: string;
  readonly pathWithQuery: string;
  readonly problems: readonly string[];
}

export interface StubApiServer {
  readonly baseUrl: string;
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

export async function startStubApiServer(contract: LoadedContract, merchantPublicKeyPem: string, clientId: string): Promise<StubApiServer> {
  const publicKey = await importPublicKey(merchantPublicKeyPem);
  const validator = createContractValidator(contract.document);
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
        if (!(await verifyCanonical(canonical, signature.signature, publicKey))) problems.push('signature does not verify');
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

      requests.push({operationId: location?.operationId, method, pathWithQuery, problems});
      const success = location?.operation.responses?.['200']?.content?.['application/json']?.examples;
      const answer =
        problems.length === 0 && success
          ? Object.values(success)[0]?.value
          : {code: 'INVALID_SIGNATURE', message: problems.join('; '), requestId: 'req_stubStubStubStubStub'};
      response.writeHead(problems.length === 0 ? 200 : 400, {'Content-Type': 'application/json'});
      response.end(JSON.stringify(answer));
    })();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${serverBasePath(contract)}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

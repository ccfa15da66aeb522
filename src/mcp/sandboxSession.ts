/**
 * The sandbox engine of one MCP session, in this process: in memory only (no journal file), its own clock,
 * and an inbox instead of a network for notifications, as the in-browser host keeps them. Requests are
 * signed with the published test merchant key exactly as the integration guide says, and every response
 * and notification is verified with the provider test key, so a tool answer says whether the sandbox's
 * signatures hold up as a merchant would check them.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {createClock, isoSeconds} from '../sandbox/engine/clock';
import type {SandboxEngine} from '../sandbox/engine/engine';
import type {NotificationTransport, SandboxResponse} from '../sandbox/engine/http';
import type {OperationSpec} from '../sandbox/engine/spec';
import {createNodeEngine, repoRoot, sandboxFiles} from '../sandbox/server/loadEngine';
import {
  canonicalString,
  formatSignatureHeader,
  importPrivateKey,
  importPublicKey,
  parseSignatureHeader,
  responseCanonicalString,
  signCanonical,
  verifyCanonical,
} from '../lib/signing';

/** A notification the engine delivered to the session's inbox. */
export interface InboxEntry {
  /** 1, 2, 3...: the order of arrival in this session. */
  readonly seq: number;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** When it arrived, on the sandbox clock (ISO 8601). */
  readonly receivedAt: string;
}

export interface SignedCallResult {
  readonly operationId: string;
  readonly response: SandboxResponse;
  /** The six-line string the request signature covers. */
  readonly canonicalRequest: string;
  readonly signatureHeader: string;
  /** Whether the response's X-Signature verifies with the provider test key over the eight-line response string. */
  readonly responseVerified: boolean;
  readonly responseProblem?: string;
}

/** The published provider test public key, which verifies every sandbox response and notification. */
export const providerPublicKeyPem = readFileSync(path.join(repoRoot, 'api', 'test-vectors', 'provider-test-public.pem'), 'utf8');

/** The contract operation a method and path name, or undefined. */
export function operationFor(operations: readonly OperationSpec[], method: string, pathOnly: string): OperationSpec | undefined {
  return operations.find((operation) => operation.method === method && new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathOnly));
}

export interface SandboxSession {
  readonly engine: SandboxEngine;
  readonly clientId: string;
  readonly inbox: readonly InboxEntry[];
  /** Sends a signed request as the test merchant; deliveries due now land in the inbox before it returns. */
  call(method: string, target: string, body: string): Promise<SignedCallResult>;
  /** Runs the jobs due now and waits for their deliveries (after a shopper or control action). */
  settle(): Promise<void>;
  /** Verifies a notification in the inbox with the provider test key. */
  verifyNotification(entry: InboxEntry): Promise<{verified: boolean; problem?: string}>;
}

export async function createSandboxSession(): Promise<SandboxSession> {
  const files = sandboxFiles();
  const clock = createClock();
  const inbox: InboxEntry[] = [];
  const transport: NotificationTransport = {
    // Never a real URL: the notification is kept here and acknowledged, as the in-browser sandbox does.
    deliver: async (delivery) => {
      inbox.push({seq: inbox.length + 1, url: delivery.url, headers: {...delivery.headers}, body: delivery.body, receivedAt: isoSeconds(clock.now())});
      return {status: 200, body: '{"code":"SUCCESS"}'};
    },
  };
  const engine = await createNodeEngine({clock, transport});
  const clientId = files.spec.sandbox.merchant.clientId;
  const merchantKey = await importPrivateKey(files.merchantPrivateKeyPem);
  const providerKey = await importPublicKey(providerPublicKeyPem);

  const settle = async () => {
    await engine.runDue();
    await engine.settle();
  };

  return {
    engine,
    clientId,
    inbox,
    settle,
    async call(method, target, body) {
      const operation = operationFor(files.spec.operations, method, target.split('?')[0] ?? '');
      if (!operation) throw new Error(`${method} ${target} is not an operation of the contract.`);
      const timestamp = isoSeconds(clock.now());
      const nonce = crypto.randomUUID();
      const canonicalRequest = canonicalString({method, pathWithQuery: target, clientId, timestamp, nonce, body});
      const signatureHeader = formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: files.spec.sandbox.merchant.merchantKey.keyVersion, signature: await signCanonical(canonicalRequest, merchantKey)});
      const response = await engine.handle({
        method,
        target,
        body,
        headers: {'Content-Type': 'application/json', 'X-Client-Id': clientId, 'X-Timestamp': timestamp, 'X-Nonce': nonce, 'X-Signature': signatureHeader},
      });
      await settle();
      let responseVerified = false;
      let responseProblem: string | undefined;
      try {
        const header = parseSignatureHeader(response.headers['X-Signature'] ?? '');
        const canonical = responseCanonicalString({
          request: {method, pathWithQuery: target, clientId, timestamp, nonce},
          status: response.status,
          timestamp: response.headers['X-Timestamp'] ?? '',
          nonce: response.headers['X-Nonce'] ?? '',
          body: response.body,
        });
        responseVerified = await verifyCanonical(canonical, header.signature, providerKey);
        if (!responseVerified) responseProblem = 'The response signature does not verify with the provider test key.';
      } catch (error) {
        responseProblem = `The response signature cannot be checked: ${(error as Error).message}`;
      }
      return {operationId: operation.operationId, response, canonicalRequest, signatureHeader, responseVerified, ...(responseProblem ? {responseProblem} : {})};
    },
    async verifyNotification(entry) {
      try {
        const url = new URL(entry.url);
        const header = parseSignatureHeader(entry.headers['X-Signature'] ?? '');
        const canonical = canonicalString({
          method: 'POST',
          pathWithQuery: `${url.pathname}${url.search}`,
          clientId: entry.headers['X-Client-Id'] ?? '',
          timestamp: entry.headers['X-Timestamp'] ?? '',
          nonce: entry.headers['X-Nonce'] ?? '',
          body: entry.body,
        });
        const verified = await verifyCanonical(canonical, header.signature, providerKey);
        return verified ? {verified} : {verified, problem: 'The signature does not verify with the provider test key.'};
      } catch (error) {
        return {verified: false, problem: (error as Error).message};
      }
    },
  };
}

/**
 * The home page's live example, in its own chunk: loaded (with the sandbox engine, the contract's
 * Try it data and the validators) only when the reader presses "Create a sandbox order".
 *
 * As the test merchant: sign and send Create order (the contract's hosted pay page example with a new
 * order number), pay it as the shopper with the sandbox's paying card, retrieve it, and check the
 * ORDER.PAID notification that reached the in-browser inbox the way a merchant's handler would.
 */
import tryItJson from '@generated/sandbox-engine/tryit.json';
import type {InboxEntry, SignedRequest} from '@site/src/sandbox/hosts/browser/host';
import {loadBrowserHost} from '@site/src/sandbox/hosts/browser/load';
import {importPublicKey, isTimestampFresh} from '@site/src/lib/signing';
import {headerValue, verifyNotification} from '@site/src/sandbox/client/signing';
import {requestTarget, type TryItData} from '@site/src/lib/tryIt';

const tryIt = tryItJson as TryItData;

/** Each step as the panel shows it; the runner reports them as they happen. */
export type DemoEvent =
  | {readonly step: 'request'; readonly request: SignedRequest}
  | {readonly step: 'response'; readonly status: number; readonly code: string; readonly body: string; readonly state: string}
  | {readonly step: 'paid'; readonly card: string; readonly states: readonly string[]}
  | {
      readonly step: 'notification';
      readonly eventType: string;
      readonly notification: InboxEntry;
      readonly signatureVerifies: boolean;
      readonly timestampFresh: boolean;
    };

interface OrderData {
  readonly merchantOrderNo?: string;
  readonly status?: string;
  readonly order?: {readonly status?: string};
}

const statusOf = (data: unknown): string => {
  const order = (data ?? {}) as OrderData;
  return order.status ?? order.order?.status ?? 'unknown';
};

/** Runs the whole flow, calling `report` after each step; throws with a sentence a reader can act on. */
export async function runSandboxOrder(providerKeyUrl: string, report: (event: DemoEvent) => void): Promise<void> {
  const create = tryIt.operations.find((operation) => operation.operationId === 'createOrder');
  const retrieve = tryIt.operations.find((operation) => operation.operationId === 'retrieveOrderDetail');
  const example = create?.examples.find((candidate) => (candidate.value as {scene?: string}).scene === 'HOSTED_PAYPAGE');
  if (!create || !retrieve || !example) throw new Error('This build has no hosted pay page example of Create order.');

  const sandbox = await (await loadBrowserHost()).browserSandbox();
  const merchantOrderNo = `ORD-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  const body = {
    ...(example.value as Record<string, unknown>),
    merchantOrderNo,
    subject: `Order ${merchantOrderNo}`,
    returnUrl: `https://shop.example.com/orders/${merchantOrderNo}`,
  };

  const created = await sandbox.call(create.method, requestTarget(tryIt.basePath, create, {}), body);
  report({step: 'request', request: created.request});
  const state = statusOf(created.json.data);
  report({step: 'response', status: created.status, code: created.json.code, body: created.body, state});
  if (created.json.code !== 'SUCCESS') throw new Error(`Create order answered ${created.json.code}: ${created.json.message}`);

  const paid = await sandbox.target.act('shopper.pay', {
    clientId: sandbox.clientId,
    merchantOrderNo,
    method: 'CARD',
    cardNumber: tryIt.cards.pays,
  });
  if (!paid.ok) throw new Error(`The shopper could not pay: ${paid.code}: ${paid.message}`);
  // A card payment may be PROCESSING for a few sandbox seconds: move the sandbox clock to its next job
  // (not the reader's clock) until the order settles, and show every state it passed through.
  const states = [state];
  for (let round = 0; round < 5; round += 1) {
    const current = statusOf((await sandbox.call(retrieve.method, requestTarget(tryIt.basePath, retrieve, {merchantOrderNo}))).json.data);
    if (states.at(-1) !== current) states.push(current);
    const next = sandbox.engine.nextJobAt();
    if (current !== 'PENDING' && current !== 'PROCESSING') break;
    if (next === undefined) break;
    await sandbox.engine.advance(Math.max(1, Math.ceil((next - sandbox.engine.clock.now()) / 1000)));
    await sandbox.engine.settle();
  }
  report({step: 'paid', card: tryIt.cards.pays, states});

  const notification = [...sandbox.inbox].reverse().find((entry) => {
    const parsed = JSON.parse(entry.body) as {eventType?: string; data?: {merchantOrderNo?: string}};
    return parsed.data?.merchantOrderNo === merchantOrderNo && parsed.eventType === 'ORDER.PAID';
  });
  if (!notification) throw new Error(`No ORDER.PAID notification for ${merchantOrderNo} reached the inbox.`);
  const providerKey = await importPublicKey(await (await fetch(providerKeyUrl)).text());
  report({
    step: 'notification',
    eventType: 'ORDER.PAID',
    notification,
    signatureVerifies:
      (await verifyNotification(notification, {key: providerKey, keyVersion: sandbox.engine.providerKey.keyVersion})).outcome ===
      'verified',
    timestampFresh: isTimestampFresh(headerValue(notification.headers, 'X-Timestamp') ?? '', new Date(sandbox.engine.clock.now())),
  });
}

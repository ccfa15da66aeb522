/**
 * The live demos' runner over a Node engine for the unit tests: the test merchant's signing client, an
 * inbox every notification lands in, the console's checks, and counted order numbers.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import type {DemoPorts, RunView} from '../../src/components/demo/live/runner';
import {checkNotification, type InboxNotification} from '../../src/components/widgets/SandboxConsole/notificationChecks';
import {importPrivateKey, importPublicKey} from '../../src/lib/signing';
import {inPageTarget} from '../../src/sandbox/client/inPage';
import {merchantClient} from '../../src/sandbox/client/merchant';
import {fixedClock} from '../../src/sandbox/engine/clock';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {repoRoot} from './routeContract';

const vectorDir = path.join(repoRoot, 'api', 'test-vectors');
const pem = (file: string) => readFileSync(path.join(vectorDir, file), 'utf8');

export const sandboxData = sandboxFiles().spec.sandbox;

export async function demoSetUp() {
  const inbox: InboxNotification[] = [];
  const clock = fixedClock(Date.parse('2026-11-26T12:00:00Z'));
  const engine = await createNodeEngine({
    clock,
    transport: {
      deliver: async (delivery) => {
        inbox.push({
          url: delivery.url,
          headers: {...delivery.headers},
          body: delivery.body,
          receivedAt: new Date(clock.now()).toISOString(),
        });
        return {status: 200, body: '{"code":"SUCCESS"}'};
      },
    },
  });
  const target = inPageTarget(engine);
  const clientId = sandboxData.merchant.clientId;
  const providerKey = {key: await importPublicKey(pem('provider-test-public.pem')), keyVersion: 1};
  const client = merchantClient({
    target,
    signer: {clientId, keyVersion: 1, privateKey: await importPrivateKey(pem('merchant-test-private.pem'))},
    providerKey,
  });
  let counter = 0;
  const ports: DemoPorts = {
    target,
    client,
    inbox: () => inbox,
    check: (entry: InboxNotification) => checkNotification(entry, clientId, providerKey, []),
    data: sandboxData,
    newId: () => `T${(counter += 1).toString().padStart(4, '0')}`,
  };
  return {engine, ports, clientId, client};
}

export const notificationsOf = (view: RunView) => view.events.flatMap((event) => (event.kind === 'notification' ? [event] : []));
export const eventTypes = (view: RunView) =>
  notificationsOf(view).map((event) => (JSON.parse(event.entry.body) as {eventType: string}).eventType);
/** Every notification of the run verifies: signature, timestamp window and client ID. */
export const allVerify = (view: RunView) =>
  notificationsOf(view).every(
    (event) =>
      event.checked.signature.outcome === 'pass' && event.checked.timestamp.outcome === 'pass' && event.checked.clientId.outcome === 'pass',
  );

/**
 * The live demos' ports in the browser: the page's one in-browser sandbox (the same state as Try it and the
 * sandbox console), a client that signs as the published test merchant and verifies each response with the
 * provider test key, and the console's notification checks. Loaded with the demo panel, never before.
 */
import generated from '@generated/sandbox-engine/spec.json';
import tryItJson from '@generated/sandbox-engine/tryit.json';
import {checkNotification, notificationBodyValidators} from '@site/src/components/widgets/SandboxConsole/notificationChecks';
import type {StateMachine} from '@site/src/contract/openapiTypes';
import type {TryItData} from '@site/src/lib/tryIt';
import {importPrivateKey, importPublicKey} from '@site/src/lib/signing';
import {loadBrowserHost, loadSchemaChecks} from '@site/src/sandbox/hosts/browser/load';
import {merchantClient} from '@site/src/sandbox/client/merchant';
import type {BrowserSandboxData} from '@site/src/sandbox/engine/spec';
import type {SandboxData} from '@site/src/sandbox/engine/rules/types';
import type {DemoPorts} from './runner';

const engineData = generated as BrowserSandboxData;
const tryIt = tryItJson as TryItData;

/** The sandbox data the outcomes are built from. */
export const sandboxData: SandboxData = engineData.spec.sandbox;

/** The contract's state machine whose states include all of `states` (the order's, the refund's). */
export function machineWith(...states: string[]): StateMachine | undefined {
  return Object.values(tryIt.machines).find((machine) =>
    states.every((state) => machine.states.some((candidate) => candidate.name === state)),
  );
}

/** Ports over the page's sandbox; fetched afresh for each run, since another tab's change restarts the sandbox. */
export async function browserPorts(providerKeyUrl: string): Promise<DemoPorts> {
  const sandbox = await (await loadBrowserHost()).browserSandbox();
  const merchant = sandboxData.merchant;
  const keyResponse = await fetch(providerKeyUrl);
  if (!keyResponse.ok) throw new Error(`the provider test key could not be fetched (HTTP ${keyResponse.status})`);
  const providerKey = {key: await importPublicKey(await keyResponse.text()), keyVersion: merchant.providerKey.keyVersion};
  const client = merchantClient({
    target: sandbox.target,
    signer: {
      clientId: sandbox.clientId,
      keyVersion: merchant.merchantKey.keyVersion,
      privateKey: await importPrivateKey(engineData.merchantPrivateKeyPem),
    },
    providerKey,
  });
  const {byPointer} = await loadSchemaChecks();
  const validators = notificationBodyValidators(byPointer);
  return {
    target: sandbox.target,
    client,
    inbox: () => sandbox.inbox,
    check: (entry) => checkNotification(entry, sandbox.clientId, providerKey, validators),
    data: sandboxData,
    newId: () => crypto.randomUUID().slice(0, 8).toUpperCase(),
  };
}

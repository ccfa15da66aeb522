/**
 * Builds an engine in Node from the contract, the sandbox data, the published test keys and the brand's
 * hosts: read from api/ in the repository (repoFiles.ts), or from the snapshot a downloadable bundle
 * carries. The local server, the MCP server, the tests and the benchmark use it; the browser host
 * builds the same EngineSpec at build time instead.
 */
import {brand} from '../../../brand';
import type {SandboxClock} from '../../engine/clock';
import {SandboxEngine} from '../../engine/engine';
import type {NotificationTransport} from '../../engine/http';
import type {SandboxStore} from '../../engine/store';
import {readSandboxFiles} from './repoFiles';
import type {SandboxFiles} from './sandboxFiles';

export {repoRoot} from './repoFiles';
export type {SandboxFiles} from './sandboxFiles';

let cached: SandboxFiles | undefined;

/** Reads and checks the contract and the sandbox data once per process (compiling the validators takes a while). */
export function sandboxFiles(): SandboxFiles {
  cached ??= readSandboxFiles();
  return cached;
}

export interface NodeEngineOptions {
  readonly store?: SandboxStore;
  readonly clock?: SandboxClock;
  readonly transport?: NotificationTransport;
  readonly rateLimits?: boolean;
}

export function createNodeEngine(options: NodeEngineOptions = {}): Promise<SandboxEngine> {
  const files = sandboxFiles();
  return SandboxEngine.create({
    spec: files.spec,
    validator: files.validator,
    providerKey: {privateKeyPem: files.providerPrivateKeyPem, keyVersion: files.spec.sandbox.merchant.providerKey.keyVersion},
    defaultMerchantPublicKeyPem: files.merchantPublicKeyPem,
    hosts: {cashier: brand.hosts.sandboxCashier, files: brand.hosts.statementFiles},
    ...options,
  });
}

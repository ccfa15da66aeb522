/**
 * Builds an engine in Node from the repository's own files: the contract, the sandbox data, the
 * published test keys and the brand's hosts. The local server, the tests and the benchmark use it;
 * the browser host builds the same EngineSpec at build time instead.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {loadContract, type LoadedContract} from '../../../plugins/content/openapi-contract/loadContract';
import {loadSandboxData} from '../../../plugins/content/openapi-contract/sandboxData';
import {brand} from '../../brand';
import {createContractValidator, type ContractValidator} from '../../lib/contract/validator';
import type {SandboxClock} from '../engine/clock';
import {SandboxEngine} from '../engine/engine';
import type {NotificationTransport} from '../engine/http';
import {buildEngineSpec, type EngineSpec} from '../engine/spec';
import type {SandboxStore} from '../engine/store';

/** The repository root: this file is src/sandbox/server/loadEngine.ts. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');

export interface SandboxFiles {
  readonly contract: LoadedContract;
  readonly spec: EngineSpec;
  readonly validator: ContractValidator;
  readonly providerPrivateKeyPem: string;
  readonly merchantPublicKeyPem: string;
  readonly merchantPrivateKeyPem: string;
}

let cached: SandboxFiles | undefined;

/** Reads and checks the contract and the sandbox data once per process (compiling the validators takes a while). */
export function sandboxFiles(root = repoRoot): SandboxFiles {
  if (cached && root === repoRoot) return cached;
  const contract = loadContract(path.join(root, 'api', 'openapi.yaml'));
  const sandbox = loadSandboxData(path.join(root, 'api', 'sandbox.yaml'), contract);
  const vectors = path.join(root, 'api');
  const files: SandboxFiles = {
    contract,
    spec: buildEngineSpec(contract.document, sandbox),
    validator: createContractValidator(contract.document),
    providerPrivateKeyPem: readFileSync(path.join(vectors, 'test-vectors', 'provider-test-private.pem'), 'utf8'),
    merchantPublicKeyPem: readFileSync(path.join(vectors, sandbox.merchant.merchantKey.publicKey), 'utf8'),
    merchantPrivateKeyPem: readFileSync(path.join(vectors, sandbox.merchant.merchantKey.privateKey), 'utf8'),
  };
  if (root === repoRoot) cached = files;
  return files;
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

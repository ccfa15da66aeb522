/**
 * SandboxFiles read from the repository's api/ folder, checked by the contract and sandbox-data loaders.
 * The downloadable bundles replace this one module with the snapshot taken at build time
 * (tooling/bundles/bundle.ts), which keeps the loaders and the YAML parser out of them.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {loadContract} from '../../../contract/node/loadContract';
import {loadSandboxData} from '../../../contract/node/sandboxData';
import {createContractValidator} from '../../../contract/validator';
import {buildEngineSpec} from '../../engine/spec';
import type {SandboxFiles} from './sandboxFiles';

/** The repository root: this file is src/sandbox/hosts/server/repoFiles.ts. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');

export function readSandboxFiles(): SandboxFiles {
  const api = path.join(repoRoot, 'api');
  const contract = loadContract(path.join(api, 'openapi.yaml'));
  const sandbox = loadSandboxData(path.join(api, 'sandbox.yaml'), contract);
  return {
    contract,
    spec: buildEngineSpec(contract.document, sandbox, contract.statementColumns),
    validator: createContractValidator(contract.document),
    providerPrivateKeyPem: readFileSync(path.join(api, 'test-vectors', 'provider-test-private.pem'), 'utf8'),
    providerPublicKeyPem: readFileSync(path.join(api, 'test-vectors', 'provider-test-public.pem'), 'utf8'),
    merchantPublicKeyPem: readFileSync(path.join(api, sandbox.merchant.merchantKey.publicKey), 'utf8'),
    merchantPrivateKeyPem: readFileSync(path.join(api, sandbox.merchant.merchantKey.privateKey), 'utf8'),
  };
}

/**
 * The real contract, its engine spec and Try it's data as the build makes them, loaded once for the unit
 * tests that check Try it and the links into it against the contract.
 */
import path from 'node:path';
import {tryItData} from '../../plugins/content/sandbox-engine/index';
import {loadContract} from '../../src/contract/node/loadContract';
import {loadSandboxData} from '../../src/contract/node/sandboxData';
import {buildEngineSpec} from '../../src/sandbox/engine/spec';
import {repoRoot} from './routeContract';

export const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
export const spec = buildEngineSpec(
  contract.document,
  loadSandboxData(path.join(repoRoot, 'api', 'sandbox.yaml'), contract),
  contract.statementColumns,
);
export const data = tryItData(contract.document, spec, repoRoot);

/**
 * What an engine in Node is built from: the checked contract, the engine spec and the published test
 * keys. The repository reads them from api/ (repoFiles.ts); the downloadable bundles carry a snapshot
 * taken at build time (tooling/bundles), so they need no file beside them. The snapshot is plain JSON:
 * the contract's maps are rebuilt from its document, and the validators are compiled at start-up.
 */
import type {LoadedContract} from '../../../contract/node/loadContract';
import {createContractValidator, type ContractValidator} from '../../../contract/validator';
import {listOperations, type OpenApiDocument, type ResultCode, type StatementColumn} from '../../../contract/openapiTypes';
import type {EngineSpec} from '../../engine/spec';

export interface SandboxFiles {
  readonly contract: LoadedContract;
  readonly spec: EngineSpec;
  readonly validator: ContractValidator;
  readonly providerPrivateKeyPem: string;
  /** Verifies every sandbox response and notification (published at /test-vectors/provider-test-public.pem). */
  readonly providerPublicKeyPem: string;
  readonly merchantPublicKeyPem: string;
  readonly merchantPrivateKeyPem: string;
}

/** SandboxFiles as JSON, without what can be rebuilt from the document. */
export interface SandboxSnapshot {
  readonly contractFile: string;
  readonly document: OpenApiDocument;
  readonly resultCodes: readonly ResultCode[];
  readonly statementColumns: readonly StatementColumn[];
  readonly spec: EngineSpec;
  readonly providerPrivateKeyPem: string;
  readonly providerPublicKeyPem: string;
  readonly merchantPublicKeyPem: string;
  readonly merchantPrivateKeyPem: string;
}

export function snapshotOf(files: SandboxFiles): SandboxSnapshot {
  const {contract, spec, providerPrivateKeyPem, providerPublicKeyPem, merchantPublicKeyPem, merchantPrivateKeyPem} = files;
  return {
    contractFile: 'api/openapi.yaml',
    document: contract.document,
    resultCodes: [...contract.resultCodes.values()],
    statementColumns: contract.statementColumns,
    spec,
    providerPrivateKeyPem,
    providerPublicKeyPem,
    merchantPublicKeyPem,
    merchantPrivateKeyPem,
  };
}

export function filesFromSnapshot(snapshot: SandboxSnapshot): SandboxFiles {
  const {document} = snapshot;
  const operations = new Map(
    listOperations(document).flatMap((location) => (location.operationId ? [[location.operationId, location] as const] : [])),
  );
  return {
    contract: {
      file: snapshot.contractFile,
      document,
      operations,
      resultCodes: new Map(snapshot.resultCodes.map((code) => [code.code, code])),
      statementColumns: snapshot.statementColumns,
    },
    spec: snapshot.spec,
    validator: createContractValidator(document),
    providerPrivateKeyPem: snapshot.providerPrivateKeyPem,
    providerPublicKeyPem: snapshot.providerPublicKeyPem,
    merchantPublicKeyPem: snapshot.merchantPublicKeyPem,
    merchantPrivateKeyPem: snapshot.merchantPrivateKeyPem,
  };
}

/** The contract version (info.version of api/openapi.yaml), which --version prints. */
export const contractVersion = (files: SandboxFiles): string => files.contract.document.info.version;

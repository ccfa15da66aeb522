/**
 * Loads and validates the API contract (api/openapi.yaml) and the statement
 * column data (api/statement-columns.yaml). Every problem is reported as a
 * ContractError naming the file and the place in it, so a bad contract stops
 * the build with a message a person can act on.
 *
 * Synchronous and cached per file modification time: the Docusaurus plugin
 * and the remark plugin that feeds API pages both call it during one build.
 * A check that passed is also remembered on disk, by the bytes checked and the
 * checking code (checkedContractFile below), for the many processes of a test run.
 */
import {createHash} from 'node:crypto';
import {mkdirSync, readFileSync, renameSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {LineCounter, parseDocument} from 'yaml';
import {createContractValidator, pointerSegment} from '../validator';
import {
  listOperations,
  resolvePointer,
  type ExampleObject,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationLocation,
  type ResultCode,
  type SchemaObject,
  type StatementColumn,
} from '../openapiTypes';

export class ContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractError';
  }
}

export interface LoadedContract {
  readonly file: string;
  readonly document: OpenApiDocument;
  readonly operations: ReadonlyMap<string, OperationLocation>;
  readonly resultCodes: ReadonlyMap<string, ResultCode>;
  readonly statementColumns: readonly StatementColumn[];
}

/** Where the contract lives, relative to the site directory. */
export const contractRelativePath = path.join('api', 'openapi.yaml');

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new ContractError(`${file}: cannot read the file.`);
  }
}

function parseYaml(file: string, text: string): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {lineCounter, prettyErrors: false});
  const first = doc.errors[0];
  if (first) {
    const at = lineCounter.linePos(first.pos[0]);
    throw new ContractError(`${file}:${at.line}:${at.col}: invalid YAML: ${first.message.split('\n')[0]}`);
  }
  return doc.toJS();
}

/** Every `$ref` in the document must resolve. */
function checkReferences(file: string, doc: unknown): void {
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${pointer}/${index}`));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        try {
          resolvePointer(doc, value);
        } catch (error) {
          throw new ContractError(`${file}: ${pointer}/$ref: ${(error as Error).message}.`);
        }
      } else {
        walk(value, `${pointer}/${pointerSegment(key)}`);
      }
    }
  };
  walk(doc, '');
}

function checkResultCodes(file: string, doc: OpenApiDocument): Map<string, ResultCode> {
  const catalogue = doc['x-result-codes'];
  if (!Array.isArray(catalogue) || catalogue.length === 0) {
    throw new ContractError(`${file}: x-result-codes: the response code catalogue is missing or empty.`);
  }
  const codes = new Map<string, ResultCode>();
  catalogue.forEach((entry, index) => {
    const where = `${file}: x-result-codes[${index}]`;
    for (const field of ['code', 'message', 'meaning', 'action'] as const) {
      if (typeof entry[field] !== 'string' || entry[field] === '') throw new ContractError(`${where}.${field}: required text is missing.`);
    }
    if (!Number.isInteger(entry.httpStatus) || entry.httpStatus < 200 || entry.httpStatus > 599) {
      throw new ContractError(`${where}.httpStatus: must be an HTTP status code, got ${String(entry.httpStatus)}.`);
    }
    if (typeof entry.retry !== 'boolean') throw new ContractError(`${where}.retry: must be true or false.`);
    if (codes.has(entry.code)) throw new ContractError(`${where}.code: "${entry.code}" is listed twice.`);
    codes.set(entry.code, entry);
  });
  return codes;
}

function checkOperations(file: string, doc: OpenApiDocument, codes: Map<string, ResultCode>): Map<string, OperationLocation> {
  const operations = new Map<string, OperationLocation>();
  for (const location of listOperations(doc)) {
    const where = `${file}: ${location.kind === 'webhook' ? 'webhooks' : 'paths'}.${location.key}.${location.method}`;
    const {operationId, operation} = location;
    if (!operationId) throw new ContractError(`${where}.operationId: every operation needs an operationId.`);
    if (operations.has(operationId)) throw new ContractError(`${where}.operationId: "${operationId}" is used twice.`);
    if (!operation.summary) throw new ContractError(`${where}.summary: missing.`);
    if (!operation.description) throw new ContractError(`${where}.description: missing.`);
    const listed = operation['x-result-codes'];
    if (!Array.isArray(listed))
      throw new ContractError(`${where}.x-result-codes: list the response codes this operation can return (may be empty).`);
    for (const code of listed) {
      const entry = codes.get(code);
      if (!entry) throw new ContractError(`${where}.x-result-codes: "${code}" is not in the response code catalogue.`);
      if (entry.scope === 'common')
        throw new ContractError(`${where}.x-result-codes: "${code}" applies to every operation; do not list it.`);
    }
    operations.set(operationId, location);
  }
  return operations;
}

function checkStateMachines(file: string, doc: OpenApiDocument): void {
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    const machine = schema['x-state-machine'];
    if (!machine) continue;
    const where = `${file}: components.schemas.${name}.x-state-machine`;
    // Catches YAML slips such as an unquoted comma splitting a flow mapping into extra keys.
    const expectKeys = (value: object, keys: readonly string[], at: string) => {
      const extra = Object.keys(value).filter((key) => !keys.includes(key));
      if (extra.length > 0)
        throw new ContractError(
          `${where}${at}: unexpected keys ${extra.map((key) => `"${key}"`).join(', ')} (quote text that contains commas or colons).`,
        );
    };
    machine.states.forEach((state, index) => expectKeys(state, ['name', 'description', 'terminal'], `.states[${index}]`));
    machine.transitions.forEach((transition, index) => expectKeys(transition, ['from', 'to', 'trigger'], `.transitions[${index}]`));
    const states = new Set(machine.states.map((state) => state.name));
    const values = new Set((schema.enum ?? []).map(String));
    for (const state of states) {
      if (!values.has(state)) throw new ContractError(`${where}: state "${state}" is not a value of the enum.`);
    }
    for (const value of values) {
      if (!states.has(value)) throw new ContractError(`${where}: enum value "${value}" has no state.`);
    }
    if (!states.has(machine.initial)) throw new ContractError(`${where}.initial: "${machine.initial}" is not a state.`);
    machine.transitions.forEach((transition, index) => {
      for (const end of ['from', 'to'] as const) {
        if (!states.has(transition[end])) {
          throw new ContractError(`${where}.transitions[${index}].${end}: "${transition[end]}" is not a state.`);
        }
      }
    });
  }
}

/** Validates every request, response and notification example against its schema. */
function checkExamples(file: string, doc: OpenApiDocument, operations: Map<string, OperationLocation>): void {
  const validator = createContractValidator(doc);

  const check = (media: MediaTypeObject | undefined, pointer: string, label: string): void => {
    if (!media?.schema) return;
    const schemaPointer = `${pointer}/schema`;
    if (!validator.hasSchema(schemaPointer)) throw new ContractError(`${file}: ${label}: the schema could not be compiled.`);
    for (const [name, example] of Object.entries(media.examples ?? {}) as Array<[string, ExampleObject]>) {
      const problems = validator.problems(schemaPointer, example.value);
      if (problems.length > 0) {
        throw new ContractError(`${file}: ${label}, example "${name}" does not match its schema: ${problems.slice(0, 3).join('; ')}.`);
      }
    }
  };

  for (const location of operations.values()) {
    const {operation, pointer, operationId} = location;
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
      check(media, `${pointer}/requestBody/content/${pointerSegment(type)}`, `${operationId} request body`);
    }
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const responsePointer = response.$ref ? response.$ref.slice(1) : `${pointer}/responses/${status}`;
      const resolved = response.$ref ? (resolvePointer(doc, response.$ref) as typeof response) : response;
      for (const [type, media] of Object.entries(resolved.content ?? {})) {
        check(media, `${responsePointer}/content/${pointerSegment(type)}`, `${operationId} response ${status}`);
      }
    }
  }
}

function loadStatementColumns(file: string, text: string): StatementColumn[] {
  const data = parseYaml(file, text);
  const columns = (data as {columns?: unknown}).columns;
  if (!Array.isArray(columns) || columns.length === 0) {
    throw new ContractError(`${file}: columns: expected a non-empty list.`);
  }
  return columns.map((column: Record<string, unknown>, index) => {
    for (const field of ['name', 'type', 'example', 'meaning']) {
      if (typeof column[field] !== 'string' || column[field] === '') {
        throw new ContractError(`${file}: columns[${index}].${field}: required text is missing.`);
      }
    }
    return column as unknown as StatementColumn;
  });
}

/** Reads and checks the contract; throws ContractError on the first problem. */
export function validateContract(file: string, statementColumnsFile: string): LoadedContract {
  return validateContractText(file, readText(file), statementColumnsFile, readText(statementColumnsFile));
}

function validateContractText(file: string, text: string, statementColumnsFile: string, columnsText: string): LoadedContract {
  const raw = parseYaml(file, text);
  if (typeof raw !== 'object' || raw === null) throw new ContractError(`${file}: expected an OpenAPI document (a YAML mapping).`);
  const document = raw as OpenApiDocument;
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.1.')) {
    throw new ContractError(`${file}: openapi: must be 3.1.x, got ${JSON.stringify(document.openapi)}.`);
  }
  checkReferences(file, document);
  const resultCodes = checkResultCodes(file, document);
  const operations = checkOperations(file, document, resultCodes);
  checkStateMachines(file, document);
  checkExamples(file, document, operations);
  return {file, document, operations, resultCodes, statementColumns: loadStatementColumns(statementColumnsFile, columnsText)};
}

// ---- Checks that passed, remembered between processes -------------------------------------------------

/**
 * The test runner starts a process per test file and most of them load the contract; parsing its YAML and
 * compiling a validator for every example costs about two seconds of CPU each time, for the same answer.
 * So a check that passed is written down under a hash of everything the answer depends on: the two files'
 * bytes, the checking code (this loader and the validator it checks examples with) and package-lock.json
 * (the versions of yaml, Ajv and ajv-formats). Any change to any of them is a new key, checked afresh; a
 * contract that fails is never written down, so it fails every time. The entries live in
 * node_modules/.cache, which a fresh install does not have. PORTAL_CONTRACT_CACHE=off checks every time.
 */
const checkingCode = [
  'src/contract/node/loadContract.ts',
  'src/contract/openapiTypes.ts',
  'src/contract/validator.ts',
  'src/contract/sharedParts.ts',
  'src/contract/schemaErrors.ts',
  'package-lock.json',
];

/**
 * Where a passed check of these bytes by this code is written down; undefined when the cache is off or the
 * checking code is not on disk beside this module (a bundle that carries the loader).
 */
export function checkedContractFile(contractText: string, columnsText: string): string | undefined {
  if (process.env['PORTAL_CONTRACT_CACHE'] === 'off' || typeof __dirname === 'undefined') return undefined;
  const root = path.resolve(__dirname, '..', '..', '..');
  const hash = createHash('sha256');
  try {
    for (const file of checkingCode)
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(root, file)))
        .update('\0');
  } catch {
    return undefined;
  }
  hash.update(contractText).update('\0').update(columnsText);
  return path.join(root, 'node_modules', '.cache', 'portal-contract', `${hash.digest('hex')}.json`);
}

interface CheckedContract {
  readonly document: OpenApiDocument;
  readonly statementColumns: readonly StatementColumn[];
}

function readChecked(file: string, entry: string): LoadedContract | undefined {
  let checked: CheckedContract;
  try {
    checked = JSON.parse(readFileSync(entry, 'utf8')) as CheckedContract;
  } catch {
    return undefined;
  }
  const {document, statementColumns} = checked;
  // The maps are rebuilt by the same (cheap) checks that built them the first time.
  const resultCodes = checkResultCodes(file, document);
  return {file, document, operations: checkOperations(file, document, resultCodes), resultCodes, statementColumns};
}

function writeChecked(entry: string, contract: LoadedContract): void {
  const checked: CheckedContract = {document: contract.document, statementColumns: contract.statementColumns};
  try {
    mkdirSync(path.dirname(entry), {recursive: true});
    // Written whole under another name first, so a process reading at the same time never sees half of it.
    const partial = `${entry}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(checked));
    renameSync(partial, entry);
  } catch {
    // A cache that cannot be written only costs time.
  }
}

const cache = new Map<string, {mtimeMs: number; contract: LoadedContract}>();

/** validateContract, cached until either file changes (and on disk: checkedContractFile). */
export function loadContract(file: string): LoadedContract {
  const columnsFile = path.join(path.dirname(file), 'statement-columns.yaml');
  const mtimeMs = statSync(file).mtimeMs + statSync(columnsFile).mtimeMs;
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.contract;
  const text = readText(file);
  const columnsText = readText(columnsFile);
  const entry = checkedContractFile(text, columnsText);
  let contract = entry === undefined ? undefined : readChecked(file, entry);
  if (!contract) {
    contract = validateContractText(file, text, columnsFile, columnsText);
    if (entry !== undefined) writeChecked(entry, contract);
  }
  cache.set(file, {mtimeMs, contract});
  return contract;
}

export type {SchemaObject};

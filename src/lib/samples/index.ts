/**
 * Code samples for every operation and webhook, from the contract and one
 * template per language. Pure: used at build time for the pages and by the
 * tests that run or compile every sample.
 */
import {
  deref,
  listOperations,
  type JsonValue,
  type OpenApiDocument,
  type OperationLocation,
  type SchemaObject,
} from '../../contract/openapiTypes';
import {curlTemplate} from './curl';
import {goTemplate} from './go';
import {javaTemplate} from './java';
import {nodeTemplate} from './node';
import {phpTemplate} from './php';
import {pythonTemplate} from './python';
import {
  encodeTargetComponent,
  generatedValues,
  sampleEnvironment,
  type LanguageTemplate,
  type SampleInput,
  type SampleLanguage,
} from './types';

export * from './types';

export const templates: readonly LanguageTemplate[] = [curlTemplate, nodeTemplate, pythonTemplate, javaTemplate, phpTemplate, goTemplate];

/** Path of the merchant endpoint the notification samples listen on (the path of their default notifyUrl). */
export const sampleNotifyPath = new URL(sampleEnvironment.notifyUrl.default).pathname;

/** The path of the contract's first server URL ("/v1"), which every request target starts with. */
function serverPath(doc: OpenApiDocument): string {
  const url = doc.servers?.[0]?.url;
  return url ? new URL(url).pathname.replace(/\/$/, '') : '';
}

function exampleOf(doc: OpenApiDocument, schema: SchemaObject | undefined): JsonValue | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 10; depth += 1) {
    if (current.examples?.[0] !== undefined) return current.examples[0];
    current = current.$ref ? deref(doc, current) : undefined;
  }
  return undefined;
}

/** The concrete exchange a sample shows: the operation's first example, with parameter examples filled in. */
export function sampleInputFor(doc: OpenApiDocument, location: OperationLocation): SampleInput {
  const {operation, operationId} = location;
  const summary = operation.summary ?? operationId;
  const media = operation.requestBody?.content['application/json'];
  const firstExample = Object.values(media?.examples ?? {})[0]?.value;
  if (location.kind === 'webhook') {
    if (firstExample === undefined) throw new Error(`${operationId}: a webhook needs a payload example for its samples.`);
    return {
      kind: 'notification',
      operationId,
      summary,
      notifyUrl: sampleEnvironment.notifyUrl.default,
      notifyPath: sampleNotifyPath,
      body: firstExample,
    };
  }
  let path = location.key;
  const query: string[] = [];
  const pathParameters: string[] = [];
  for (const raw of operation.parameters ?? []) {
    const parameter = deref(doc, raw);
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const value = parameter.example ?? exampleOf(doc, parameter.schema);
    if (value === undefined) {
      if (parameter.in === 'path' || parameter.required) {
        throw new Error(`${operationId}: parameter "${parameter.name}" needs an example for the code samples.`);
      }
      continue;
    }
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (parameter.in === 'path') {
      path = path.replace(`{${parameter.name}}`, encodeTargetComponent(text));
      pathParameters.push(parameter.name);
    } else query.push(`${encodeTargetComponent(parameter.name)}=${encodeTargetComponent(text)}`);
  }
  if (media && firstExample === undefined) throw new Error(`${operationId}: the request body needs an example for the code samples.`);
  const pathWithQuery = query.length ? `${path}?${query.join('&')}` : path;
  const body = media ? firstExample : undefined;
  return {
    kind: 'request',
    operationId,
    summary,
    method: location.method.toUpperCase(),
    pathWithQuery,
    requestTarget: `${serverPath(doc)}${pathWithQuery}`,
    pathParameters,
    body,
    generated: generatedValues(body),
  };
}

export interface RenderedSample {
  readonly language: SampleLanguage;
  readonly label: string;
  readonly highlight: string;
  readonly fileName: string;
  readonly code: string;
}

function render(template: LanguageTemplate, input: SampleInput): RenderedSample {
  return {
    language: template.language,
    label: template.label,
    highlight: template.highlight,
    fileName: template.fileName(input),
    code: template.render(input),
  };
}

export function renderSamples(input: SampleInput): RenderedSample[] {
  return templates.map((template) => render(template, input));
}

/** The call the integration guide's quick start shows. */
export const quickStartOperationId = 'createOrder';

/**
 * The integration guide's first call: the curl sample of Create order, exactly as its API page shows it and
 * tests/samples runs it, so the snippet's signing is the tested one.
 */
export function quickStartSample(doc: OpenApiDocument): RenderedSample {
  const location = listOperations(doc).find((candidate) => candidate.operationId === quickStartOperationId);
  if (!location) throw new Error(`The contract has no operation "${quickStartOperationId}" for the integration guide's quick start.`);
  return render(curlTemplate, sampleInputFor(doc, location));
}

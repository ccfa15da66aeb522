/**
 * The API reference of an operation or webhook as Markdown, from the same view model and code
 * samples the page renders (src/contract/apiModel.ts, src/lib/samples). The web page shows one example
 * and one sample language at a time; the twin holds every field, example, result code and all
 * six sample languages.
 */
import type {BodyView, FieldView, OperationView, VariantView} from '../../contract/apiModel';
import type {RenderedSample} from '../samples';
import type {SampleLanguage} from '../samples/types';
import {blockMarkdown, inlineMarkdown, twinPath, type LinkContext} from './htmlToMarkdown';

const cell = (value: string): string => value.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
const code = (value: string): string => {
  const ticks = value.includes('`') ? '``' : '`';
  return `${ticks}${value}${ticks}`;
};

/** A fenced block whose fence is longer than any run of backticks inside. */
export function fenced(value: string, language: string, meta = ''): string {
  const longest = Math.max(2, ...[...value.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}${meta ? ` ${meta}` : ''}\n${value.replace(/\n+$/, '')}\n${fence}`;
}

function fieldNotes(field: FieldView): string {
  const notes: string[] = [];
  if (field.enumValues) notes.push(`One of: ${field.enumValues.map(code).join(', ')}`);
  if (field.constValue !== undefined) notes.push(`Always ${code(field.constValue)}`);
  if (field.defaultValue !== undefined) notes.push(`Default ${code(field.defaultValue)}`);
  notes.push(...field.constraints);
  return notes.join('; ');
}

interface FieldRow {
  readonly path: string;
  readonly field: FieldView;
  readonly variant?: string;
}

/** Every field with its dotted path (`amount.value`; `items[].name` inside arrays), depth first. */
export function flattenFields(fields: readonly FieldView[], prefix = '', variant?: string): FieldRow[] {
  return fields.flatMap((field) => {
    const path = prefix === '' ? field.name : `${prefix}.${field.name}`;
    const inner = field.type.startsWith('array') ? `${path}[]` : path;
    return [
      {path, field, variant},
      ...flattenFields(field.fields ?? [], inner, variant),
      ...(field.variants ?? []).flatMap((candidate) => flattenFields(candidate.fields, inner, candidate.title)),
    ];
  });
}

/** The field paths of an operation, for the check that the twin names them all. */
export function operationFieldPaths(operation: OperationView): string[] {
  const body = (view: BodyView | undefined): FieldRow[] => (view ? [...flattenFields(view.fields), ...variantRows(view.variants)] : []);
  return [
    ...flattenFields(operation.headerParameters),
    ...flattenFields(operation.pathParameters),
    ...flattenFields(operation.queryParameters),
    ...body(operation.requestBody),
    ...operation.responses.flatMap((response) => body(response.body)),
  ].map((row) => row.path);
}

const variantRows = (variants: readonly VariantView[] | undefined): FieldRow[] =>
  (variants ?? []).flatMap((variant) => flattenFields(variant.fields, '', variant.title));

function fieldTable(rows: readonly FieldRow[], context: LinkContext): string {
  if (rows.length === 0) return '';
  const lines = ['| Field | Type | Required | Description | Constraints |', '| --- | --- | --- | --- | --- |'];
  for (const {path, field, variant} of rows) {
    const type = field.typeName && field.typeName !== field.type ? `${field.type} (${field.typeName})` : field.type;
    const description = [variant ? `Only in: ${variant}.` : '', inlineMarkdown(field.descriptionHtml ?? '', context)]
      .filter(Boolean)
      .join(' ');
    lines.push(`| ${code(path)} | ${cell(type)} | ${field.required ? 'yes' : 'no'} | ${description} | ${cell(fieldNotes(field))} |`);
  }
  return lines.join('\n');
}

function bodySection(body: BodyView, context: LinkContext): string[] {
  const parts: string[] = [];
  if (body.descriptionHtml) parts.push(blockMarkdown(body.descriptionHtml, context));
  if (body.fields.length > 0) parts.push(fieldTable(flattenFields(body.fields), context));
  for (const variant of body.variants ?? []) {
    parts.push(`One of: **${variant.title}**`);
    if (variant.descriptionHtml) parts.push(blockMarkdown(variant.descriptionHtml, context));
    parts.push(fieldTable(flattenFields(variant.fields), context));
  }
  return parts.filter((part) => part !== '');
}

export interface ApiReferenceInput {
  readonly operation: OperationView;
  readonly samples: readonly RenderedSample[];
  /** The web page's URL, named where the page has something interactive. */
  readonly pageUrl: string;
  readonly context: LinkContext;
  /** Mermaid source of a state machine (the same function the page's diagram comes from). */
  readonly stateDiagram: (machine: OperationView['stateMachines'][number]) => string;
  /** For the bundled reference (/llms-api.txt) rather than the page's own twin: see CompactReference. */
  readonly compact?: CompactReference;
}

/**
 * How the reference is shortened when many pages are bundled into one file for a language model:
 * samples in `languages` only (the others are named with the file that holds them), the result codes
 * every call shares left to the response-code page, and a table or diagram already shown earlier in the
 * bundle replaced by a pointer to where it was (the signing headers, the Order object and OrderStatus
 * recur on most pages).
 */
export interface CompactReference {
  readonly languages: readonly SampleLanguage[];
  /** Blocks already in the bundle, to the Markdown link of where they first appeared; filled in as pages are added. */
  readonly shown: Map<string, string>;
  /** The page's title, for the pointers. */
  readonly title: string;
  /** The file that holds the samples of a language left out, e.g. `https://…/llms-samples-go.txt`. */
  readonly samplesFile: (language: SampleLanguage) => string;
  /** The twin of the response-code page, where the codes every call shares are listed. */
  readonly commonCodesUrl: string;
}

/** Blocks shorter than this are repeated as they are: a pointer would save little. */
const minimumSharedBlock = 300;

/** Replaces each long table or fence already shown (compact.shown) with a pointer to its first place. */
function pointToShownBlocks(parts: readonly string[], compact: CompactReference, twinUrl: string): string[] {
  let heading = '';
  return parts.map((part) => {
    if (part.startsWith('#')) {
      heading = part.replace(/^#+\s*/, '');
      return part;
    }
    if (part.length < minimumSharedBlock || !(part.startsWith('|') || part.startsWith('```'))) return part;
    const first = compact.shown.get(part);
    if (first) return `_The same as under ${first}, above._`;
    compact.shown.set(part, `"${heading}" of [${compact.title}](${twinUrl})`);
    return part;
  });
}

/** The endpoint line of an operation (`**Endpoint:** \`POST /v1/orders\``) or notification. */
export function endpointOf(operation: OperationView): string {
  if (operation.kind === 'webhook') return `**Notification:** ${code(operation.path)}`;
  // The path as the page shows it: with the servers' base path (/v1), which is also what is signed.
  const basePath = operation.servers[0] ? new URL(operation.servers[0].url).pathname.replace(/\/$/, '') : '';
  return `**Endpoint:** ${code(`${operation.method.toUpperCase()} ${basePath}${operation.path}`)}`;
}

/** The Markdown that stands for the page's endpoint header, request, response, states, result codes and samples. */
export function apiReferenceMarkdown({operation, samples, pageUrl, context, stateDiagram, compact}: ApiReferenceInput): string {
  const isWebhook = operation.kind === 'webhook';
  const parts: string[] = [endpointOf(operation)];
  const hosts = [
    ...operation.servers.map(
      (server) => `- ${server.description}: ${code(`${server.url.replace(/\/$/, '')}${isWebhook ? '' : operation.path}`)}`,
    ),
    `- Operation ID: ${code(operation.operationId)}`,
  ];
  parts.push(hosts.join('\n'));
  if (operation.descriptionHtml) parts.push(blockMarkdown(operation.descriptionHtml, context));
  parts.push(
    isWebhook
      ? `Interactive on the web page: a notification simulator that sends this notification, signed, to a URL you give (${pageUrl}).`
      : `Interactive on the web page: "Try it" sends this request to the in-browser sandbox and shows the response (${pageUrl}).`,
  );

  parts.push(isWebhook ? '## Notification' : '## Request');
  const parameterGroups: Array<[string, readonly FieldView[]]> = [
    ['Header parameters', operation.headerParameters],
    ['Path parameters', operation.pathParameters],
    ['Query parameters', operation.queryParameters],
  ];
  for (const [title, fields] of parameterGroups) {
    if (fields.length > 0) parts.push(`### ${title}`, fieldTable(flattenFields(fields), context));
  }
  if (operation.requestBody) parts.push('### Body', ...bodySection(operation.requestBody, context));
  if (operation.requestExamples.length > 0) {
    parts.push(isWebhook ? '### Notification examples' : '### Request examples');
    for (const example of operation.requestExamples)
      parts.push(`**${example.name}**${example.summary ? `: ${example.summary}` : ''}`, fenced(example.json, 'json'));
  }

  parts.push(isWebhook ? '## Acknowledgement' : '## Response');
  for (const response of operation.responses) {
    parts.push(`### ${response.status}`);
    if (response.sharedErrorStatuses?.length) parts.push(`Also the answer for HTTP ${response.sharedErrorStatuses.join(', ')}.`);
    if (response.descriptionHtml) parts.push(blockMarkdown(response.descriptionHtml, context));
    if (response.body) parts.push(...bodySection(response.body, context));
    for (const example of response.examples)
      parts.push(`**Example ${example.name}**${example.summary ? `: ${example.summary}` : ''}`, fenced(example.json, 'json'));
  }

  if (isWebhook && operation.delivery) {
    const delivery = operation.delivery;
    parts.push('## Delivery and retries');
    if (delivery.route) parts.push(`Sent to: ${delivery.route}. ${delivery.withoutUrl ?? ''}`.trim());
    parts.push(
      delivery.acknowledgement,
      delivery.summary,
      delivery.retrySchedule.map((delay, index) => `${index + 1}. Retry ${index + 1}: ${delay} after the previous attempt`).join('\n'),
    );
  }

  for (const machine of operation.stateMachines) {
    parts.push(`## States of ${machine.schemaName}`, fenced(stateDiagram(machine), 'mermaid'));
    parts.push(
      [
        '| State | Terminal | Meaning |',
        '| --- | --- | --- |',
        ...machine.states.map((state) => `| ${code(state.name)} | ${state.terminal ? 'yes' : 'no'} | ${cell(state.description)} |`),
      ].join('\n'),
      [
        '| From | To | Trigger |',
        '| --- | --- | --- |',
        ...machine.transitions.map((transition) => `| ${code(transition.from)} | ${code(transition.to)} | ${cell(transition.trigger)} |`),
      ].join('\n'),
    );
  }

  if (!isWebhook) {
    parts.push('## Response codes');
    if (compact)
      parts.push(`Besides the codes below, every call can answer with the codes listed in [Response codes](${compact.commonCodesUrl}).`);
    parts.push(
      [
        '| Code | HTTP status | Message | Meaning | Retry | What to do |',
        '| --- | --- | --- | --- | --- | --- |',
        ...operation.resultCodes
          .filter((result) => !compact || !result.common)
          .map(
            (result) =>
              `| ${code(result.code)} | ${result.httpStatus} | ${cell(result.message)} | ${cell(result.meaning)} | ${result.retry ? 'yes' : 'no'} | ${cell(result.action)} |`,
          ),
      ].join('\n'),
    );
  }

  parts.push('## Code samples');
  const shownSamples = compact ? samples.filter((sample) => compact.languages.includes(sample.language)) : samples;
  for (const sample of shownSamples)
    parts.push(`### ${sample.label}`, fenced(sample.code, sample.highlight, `title=${JSON.stringify(sample.fileName)}`));
  if (!compact) return parts.join('\n\n');
  const leftOut = samples.filter((sample) => !compact.languages.includes(sample.language));
  if (leftOut.length > 0)
    parts.push(`The same request in ${leftOut.map((sample) => `[${sample.label}](${compact.samplesFile(sample.language)})`).join(', ')}.`);
  return pointToShownBlocks(parts, compact, `${context.siteUrl}${twinPath(context.pagePath)}`).join('\n\n');
}

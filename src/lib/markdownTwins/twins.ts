/**
 * A page's Markdown twin (title, description, source URL, then the content) and the two files
 * that list the twins for language models: /llms.txt (the llmstxt.org format: title, summary,
 * instructions, sections of links) and /llms-full.txt (every twin in one file).
 */
import {brand} from '../../brand';
import {downloads, downloadsPath} from '../downloads';
import {contentToMarkdown, parsePage, replaceApiReference, twinPath, type LinkContext} from './htmlToMarkdown';

/** One entry of markdown-twins.json, the index the MCP server's docs tools read. */
export interface TwinEntry {
  /** URL path of the web page, e.g. "/docs/createorder" ("/" for the home page). */
  readonly path: string;
  /** URL path of its twin, e.g. "/docs/createorder.md". */
  readonly markdown: string;
  readonly title: string;
  readonly description: string;
  /** The route contract's section: "docs", "demos", "blog", "general". */
  readonly section: string;
}

export interface TwinInput {
  readonly html: string;
  readonly path: string;
  readonly section: string;
  readonly siteTitle: string;
  readonly context: LinkContext;
  /** On an API page, the reference Markdown built from the contract (replaces the HTML's one-tab-at-a-time version). */
  readonly apiReference?: string;
  /** What the web page offers interactively that the twin cannot, in one sentence. */
  readonly interactive?: string;
}

export function pageUrl(siteUrl: string, pagePath: string): string {
  return `${siteUrl}${pagePath === '/' ? '/' : pagePath}`;
}

/** The twin of one built page, and its index entry. */
export function buildTwin(input: TwinInput): {entry: TwinEntry; markdown: string} {
  const page = parsePage(input.html, input.siteTitle);
  const markerKey = 'api';
  const hasApi = input.apiReference !== undefined && replaceApiReference(page.content, markerKey);
  if (input.apiReference !== undefined && !hasApi) {
    throw new Error(`${input.path}: an API page without the endpoint header and code samples the twin replaces.`);
  }
  const body = contentToMarkdown(
    page.content,
    input.context,
    hasApi && input.apiReference !== undefined ? {[markerKey]: input.apiReference} : {},
  );
  const head = [`# ${page.title}`];
  if (page.description) head.push(`> ${page.description.replace(/\s*\n\s*/g, ' ')}`);
  head.push(`Source: ${pageUrl(input.context.siteUrl, input.path)}`);
  if (input.interactive) head.push(`Interactive on the web page: ${input.interactive}`);
  const markdown = `${[...head, body].filter((part) => part.trim() !== '').join('\n\n')}\n`;
  return {
    entry: {path: input.path, markdown: twinPath(input.path), title: page.title, description: page.description, section: input.section},
    markdown,
  };
}

/** Section headings of llms.txt, in order; "Optional" is the format's name for what an agent may skip. */
export const llmsSections: ReadonlyArray<{section: string; heading: string}> = [
  {section: 'docs', heading: 'Docs'},
  {section: 'demos', heading: 'Demos'},
  {section: 'general', heading: 'Site'},
  {section: 'blog', heading: 'Optional'},
];

export interface LlmsInput {
  readonly siteTitle: string;
  readonly summary: string;
  readonly siteUrl: string;
  readonly entries: readonly TwinEntry[];
}

/** Rules for coding agents that write an integration against this API. */
export function agentInstructions(siteUrl: string): string {
  const twin = (pagePath: string, anchor = '') => `${siteUrl}${twinPath(pagePath)}${anchor}`;
  return [
    'Instructions for coding agents writing a Veloxa Pay integration:',
    '',
    `- Sign every request with the \`createVeloxaClient\` helper of the integration guide (${twin('/docs/integration-guide', '#call-the-api')}); do not write your own canonical string. It signs, sends, and verifies the response before parsing it.`,
    '- Keep the merchant private key on the server: never in a browser, a mobile app, client-side code, a repository or logs. Clients talk to your server, and only your server calls the API.',
    `- Start in the sandbox: the test merchant and test accounts (${twin('/docs/general/test-accounts')}), the local sandbox server (${twin('/docs/local-sandbox')}) and the signature debugger (${twin('/docs/signature-debugger')}) when a signature is rejected. Switch hosts to production only when the sandbox flow passes.`,
    `- Run the local sandbox from one file, with Node.js 20 or later and nothing else: download ${siteUrl}${downloadsPath}${downloads.sandbox.file} and start it with \`node ${downloads.sandbox.file} --port 4010\`; sign as \`${brand.sandboxClientId}\` with ${siteUrl}/test-vectors/merchant-test-private.pem and verify with ${siteUrl}/test-vectors/provider-test-public.pem. The MCP server for assistants is ${siteUrl}${downloadsPath}${downloads.mcp.file}, started as \`node ${downloads.mcp.file} --data sandbox.journal\` (${twin('/docs/mcp-server')}).`,
    `- Make every write idempotent: generate the merchant number (\`merchantOrderNo\`, \`merchantRefundNo\`, ...) once, store it before the call, and resend the identical request with the same number after a timeout or 5xx (${twin('/docs/idempotency')}).`,
    '- Verify every response and every notification before acting on it: the `X-Signature` with the provider key of its version, `X-Timestamp` within 300 seconds, a nonce not seen in the last 600 seconds, and `X-Client-Id` equal to your own client ID; deduplicate notifications on `notificationId`.',
  ].join('\n');
}

function oneLine(description: string): string {
  return description.replace(/\s+/g, ' ').trim();
}

/** A file of /llms.txt's "Whole-site files" section: one of the bundles below, with what it holds. */
export interface LlmsFile {
  /** URL path, e.g. "/llms-api.txt". */
  readonly path: string;
  readonly title: string;
  readonly holds: string;
}

/** /llms.txt: the bundle files, then every twin linked once, under the heading of its section. */
export function llmsTxt(input: LlmsInput, files: readonly LlmsFile[] = []): string {
  const parts = [`# ${input.siteTitle}`, `> ${input.summary}`, agentInstructions(input.siteUrl)];
  if (files.length > 0)
    parts.push('## Whole-site files', files.map((file) => `- [${file.title}](${input.siteUrl}${file.path}): ${file.holds}`).join('\n'));
  const known = new Set(llmsSections.map((entry) => entry.section));
  const groups = [
    ...llmsSections,
    ...[...new Set(input.entries.map((entry) => entry.section))]
      .filter((section) => !known.has(section))
      .map((section) => ({section, heading: section})),
  ];
  for (const {section, heading} of groups) {
    const entries = input.entries.filter((entry) => entry.section === section);
    if (entries.length === 0) continue;
    parts.push(
      `## ${heading}`,
      entries
        .map(
          (entry) => `- [${entry.title}](${input.siteUrl}${entry.markdown})${entry.description ? `: ${oneLine(entry.description)}` : ''}`,
        )
        .join('\n'),
    );
  }
  return `${parts.join('\n\n')}\n`;
}

/**
 * A bundle of twins in one file (/llms-full.txt, /llms-api.txt): the summary and instructions, a note on
 * what the file holds and where the rest is, then the twins of input.entries, each after a separator naming it.
 */
export function llmsFullTxt(input: LlmsInput, twins: ReadonlyMap<string, string>, note = ''): string {
  const parts = [`# ${input.siteTitle}`, `> ${input.summary}`, ...(note ? [note] : []), agentInstructions(input.siteUrl)];
  for (const entry of input.entries) {
    const markdown = twins.get(entry.markdown);
    if (markdown === undefined) continue;
    parts.push(`---\n\n<!-- ${input.siteUrl}${entry.markdown} -->\n\n${markdown.trim()}`);
  }
  return `${parts.join('\n\n')}\n`;
}

/** One operation's sample in one language, for /llms-samples-<language>.txt. */
export interface SampleOfPage {
  readonly title: string;
  /** The twin of the API page, which holds the request and response it sends. */
  readonly twinUrl: string;
  readonly endpoint: string;
  readonly fenced: string;
}

/** /llms-samples-<language>.txt: every API page's code sample in one language, in the order of llms.txt. */
export function llmsSamplesTxt(siteTitle: string, language: string, samples: readonly SampleOfPage[]): string {
  const parts = [
    `# ${siteTitle} code samples: ${language}`,
    `> The code sample of every operation and notification of the ${siteTitle} API in ${language}, each ready to run against the sandbox. The fields, examples and result codes are in each operation's page, linked under its heading.`,
  ];
  for (const sample of samples) parts.push(`## ${sample.title}`, `${sample.endpoint}. Reference: ${sample.twinUrl}`, sample.fenced);
  return `${parts.join('\n\n')}\n`;
}

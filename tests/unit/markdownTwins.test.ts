import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {buildTwin, llmsFullTxt, llmsSamplesTxt, llmsTxt, type TwinEntry} from '../../src/lib/markdownTwins/twins';
import {rewriteUrl, twinPath, type LinkContext} from '../../src/lib/markdownTwins/htmlToMarkdown';
import {apiReferenceMarkdown, fenced, flattenFields, type CompactReference} from '../../src/lib/markdownTwins/apiReference';
import {linkProblems, llmsSizeProblems, maxLlmsFileBytes} from '../../tooling/markdownTwinsCheck';
import {apiPageReferences, bundledSampleLanguages, llmsFiles, samplesFilePath, twinPages} from '../../plugins/content/markdown-twins';
import {stateDiagram} from '../../plugins/content/openapi-contract/remarkApiReference';
import {repoRoot} from '../support/routeContract';

const siteUrl = 'https://developers.example.com';
const pages = new Set(['/', '/docs/refund', '/docs/createorder']);
const context: LinkContext = {siteUrl, pagePath: '/docs/createorder', isTwinPage: (pathname) => pages.has(pathname)};

/** A built doc page around some content, as Docusaurus writes it. */
function page(content: string, description = 'What the page is for.'): string {
  return `<!DOCTYPE html><html><head><title>Create order | Veloxa Pay</title><meta name="description" content="${description}"></head><body>
<nav aria-label="Main"><a href="/docs/refund">Navbar link</a></nav>
<main><article><nav class="theme-doc-breadcrumbs" aria-label="Breadcrumbs"><a href="/">Home</a></nav>
<div class="theme-doc-markdown markdown"><header><h1>Create order</h1></header>${content}</div></article></main>
<footer>Footer text</footer></body></html>`;
}

const convert = (content: string, extra: Partial<Parameters<typeof buildTwin>[0]> = {}) =>
  buildTwin({html: page(content), path: '/docs/createorder', section: 'docs', siteTitle: 'Veloxa Pay', context, ...extra});

describe('Markdown twins: converting a page', () => {
  test('starts with the title, the description and the source URL; leaves out navbar, breadcrumbs and footer', () => {
    const {markdown, entry} = convert('<p>Body text.</p>');
    assert.equal(
      markdown,
      '# Create order\n\n> What the page is for.\n\nSource: https://developers.example.com/docs/createorder\n\nBody text.\n',
    );
    assert.deepEqual(entry, {
      path: '/docs/createorder',
      markdown: '/docs/createorder.md',
      title: 'Create order',
      description: 'What the page is for.',
      section: 'docs',
    });
  });

  test('a code block keeps its language, title and plain text, without line numbers or button labels', () => {
    const {markdown} = convert(`<div class="language-bash codeBlockContainer_x theme-code-block"><div class="codeBlockTitle_y">send.sh</div>
<div class="codeBlockContent_z"><pre tabindex="0" class="prism-code language-bash"><code class="codeBlockLines_p"><div class="token-line"><span class="codeLineNumber_a"></span><span class="codeLineContent_b"><span class="token comment"># first</span></span><br></div><div class="token-line"><span class="codeLineNumber_a"></span><span class="codeLineContent_b">echo "a | b"</span><br></div></code></pre>
<div class="buttonGroup_q"><button type="button" aria-label="Copy code to clipboard">Copy</button></div></div></div>`);
    assert.match(markdown, /```bash title="send.sh"\n# first\necho "a \| b"\n```/);
    assert.doesNotMatch(markdown, /Copy/);
  });

  test('a table becomes a GFM table; an admonition becomes quoted text with its kind', () => {
    const {markdown} = convert(`<table><thead><tr><th>Code<th>Meaning<tbody><tr><td><code>SUCCESS</code><td>It worked</table>
<div class="theme-admonition theme-admonition-warning admonition_a alert alert--warning"><div class="admonitionHeading_h"><span class="admonitionIcon_i"><svg></svg></span>warning</div><div class="admonitionContent_c"><p>Never log the <strong>private key</strong>.</p></div></div>`);
    assert.match(markdown, /\| Code \| Meaning \|\n\| -+ \| -+ \|\n\| `SUCCESS` \| It worked \|/);
    assert.match(markdown, /> \*\*Warning:\*\* Never log the \*\*private key\*\*\./);
  });

  test('a diagram becomes a mermaid block with its source, not its images', () => {
    const {markdown} =
      convert(`<figure data-diagram=""><img src="/diagrams/a.svg" alt="Sequence diagram."><img src="/diagrams/b.svg" alt="Sequence diagram.">
<details><summary>Diagram as text</summary><pre><code>sequenceDiagram
    A->>B: Hello</code></pre></details></figure>`);
    assert.match(markdown, /```mermaid\nsequenceDiagram\n {4}A->>B: Hello\n```/);
    assert.doesNotMatch(markdown, /diagrams\/a\.svg|Diagram as text/);
  });

  test('internal page links point to twins, anchors kept; files and external links stay links of their own', () => {
    const {markdown} = convert(
      `<p><a href="/docs/refund#request">Refund</a>, <a href="/openapi.yaml">YAML</a>, <a href="https://example.org/x">out</a>, <a href="#local">here</a>, <a href="/">home</a></p><h2 id="x">Part<a href="#x" class="hash-link">&#8203;</a></h2>`,
    );
    assert.match(markdown, /\[Refund\]\(https:\/\/developers\.example\.com\/docs\/refund\.md#request\)/);
    assert.match(markdown, /\[YAML\]\(https:\/\/developers\.example\.com\/openapi\.yaml\)/);
    assert.match(markdown, /\[out\]\(https:\/\/example\.org\/x\)/);
    assert.match(markdown, /\[here\]\(#local\)/);
    assert.match(markdown, /\[home\]\(https:\/\/developers\.example\.com\/index\.md\)/);
    assert.match(markdown, /^## Part$/m);
  });

  test("a demo's mock screen reads as its name and its words one by one, fake buttons apart", () => {
    const {markdown} =
      convert(`<figure class="frame_a phone_b" aria-label="Phone screen: Veloxa Pay"><div class="screen_c"><p class="merchant_d">Corner Bakery</p>
<dl><div><dt>Total<dd>48.00 USD</div></dl><div class="row_e"><span class="button_f">Pay 48.00 USD</span><span class="button_f">Cancel</span></div><span aria-hidden="true">•••</span></div></figure>`);
    assert.match(markdown, /^> _Phone screen: Veloxa Pay:_ Corner Bakery · Total · 48\.00 USD · Pay 48\.00 USD · Cancel$/m);
    assert.doesNotMatch(markdown, /USDCancel|•/);
  });

  test('every tab of a tab group, each under its label; buttons are left out', () => {
    const {markdown} =
      convert(`<div class="theme-tabs-container tabs-container"><ul role="tablist"><li role="tab">Node.js<li role="tab">Python</ul>
<div><div role="tabpanel"><p>Node text</p></div><div role="tabpanel" hidden><p>Python text</p></div></div></div><button type="button">Try Create order in the sandbox</button>`);
    assert.match(markdown, /\*\*Node\.js\*\*\n\nNode text\n\n\*\*Python\*\*\n\nPython text/);
    assert.doesNotMatch(markdown, /Try Create order/);
  });

  test("an API page's reference is replaced by the contract's; an API page without one fails", () => {
    const reference = `<section data-operation-id="createOrder"><p>POST /v1/orders</p></section><div class="tryIt"><button>Try it</button></div>
<h2 id="api-request">Request</h2><p>One example tab</p><h2 id="api-code-samples">Code samples</h2>\n<div class="tabs-container"><p>One language</p></div>`;
    const {markdown} = convert(`<p>Intro.</p>${reference}<p>After.</p>`, {apiReference: '## Request\n\nFrom the contract.'});
    assert.match(markdown, /Intro\.\n\n## Request\n\nFrom the contract\.\n\nAfter\./);
    assert.doesNotMatch(markdown, /One example tab|One language/);
    assert.throws(() => convert('<p>No reference here.</p>', {apiReference: 'x'}), /API page without/);
  });
});

describe('Markdown twins: helpers', () => {
  test('twin paths and URL rewriting', () => {
    assert.equal(twinPath('/'), '/index.md');
    assert.equal(twinPath('/docs/refund/'), '/docs/refund.md');
    assert.equal(rewriteUrl('refund', {...context, pagePath: '/docs/createorder'}), `${siteUrl}/docs/refund.md`);
    assert.equal(rewriteUrl('https://developers.example.com/docs/refund', context), `${siteUrl}/docs/refund.md`);
    assert.equal(rewriteUrl('/docs/unknown-page', context), `${siteUrl}/docs/unknown-page`);
  });

  test('fields are listed with dotted paths; fences outgrow backticks in the code', () => {
    const rows = flattenFields([
      {
        name: 'amount',
        required: true,
        type: 'object',
        constraints: [],
        fields: [{name: 'value', required: true, type: 'integer', constraints: []}],
      },
      {
        name: 'items',
        required: false,
        type: 'array of object',
        constraints: [],
        fields: [{name: 'sku', required: true, type: 'string', constraints: []}],
      },
    ]);
    assert.deepEqual(
      rows.map((row) => row.path),
      ['amount', 'amount.value', 'items', 'items[].sku'],
    );
    assert.equal(fenced('a ``` b', 'md'), '````md\na ``` b\n````');
  });

  test('the link check accepts anchors, external links and what the build serves; rejects the rest', () => {
    const exists = (pathname: string) => pathname === '/docs/refund.md';
    assert.deepEqual(linkProblems(['#x', 'https://example.org/y', `${siteUrl}/docs/refund.md#a`], siteUrl, exists), []);
    assert.equal(linkProblems([`${siteUrl}/docs/gone.md`, '/docs/refund.md'], siteUrl, exists).length, 2);
  });

  test('llms.txt: title, summary, instructions, sections linking each twin once with one line', () => {
    const entries: TwinEntry[] = [
      {path: '/docs/refund', markdown: '/docs/refund.md', title: 'Refund', description: 'Give money\nback.', section: 'docs'},
      {path: '/blog/x', markdown: '/blog/x.md', title: 'A post', description: '', section: 'blog'},
    ];
    const input = {siteTitle: 'Veloxa Pay', summary: 'One API.', siteUrl, entries};
    const text = llmsTxt(input);
    assert.match(text, /^# Veloxa Pay\n\n> One API\.\n\n/);
    for (const rule of [/createVeloxaClient/, /private key/i, /sandbox/, /idempotent/i, /X-Timestamp/, /nonce/, /X-Client-Id/])
      assert.match(text, rule);
    assert.match(text, /## Docs\n\n- \[Refund\]\(https:\/\/developers\.example\.com\/docs\/refund\.md\): Give money back\.\n/);
    assert.match(text, /## Optional\n\n- \[A post\]\(https:\/\/developers\.example\.com\/blog\/x\.md\)\n/);
    const full = llmsFullTxt(input, new Map([['/docs/refund.md', '# Refund\n\nBody.\n']]));
    assert.match(full, /<!-- https:\/\/developers\.example\.com\/docs\/refund\.md -->\n\n# Refund\n\nBody\./);
  });
});

describe('Markdown twins: which pages get one', () => {
  test("the build's routes, less search, 404, pagination and test pages; home first, then the sidebars' order, then the rest", () => {
    const routes = [
      '/blog',
      '/blog/page/2',
      '/docs/refund/',
      '/404.html',
      '/search',
      '/tests/crash',
      '/docs/integration-guide',
      '/',
      '/demos/dynqr',
      '/markdown-page',
    ];
    const pages = twinPages(routes, ['/docs/integration-guide', '/docs/refund', '/docs/not-built']);
    assert.deepEqual(pages, [
      {path: '/', section: 'general'},
      {path: '/docs/integration-guide', section: 'docs'},
      {path: '/docs/refund', section: 'docs'},
      {path: '/blog', section: 'blog'},
      {path: '/demos/dynqr', section: 'demos'},
      {path: '/markdown-page', section: 'general'},
    ]);
  });
});

describe('Markdown twins: files an assistant can hold (issue 29, D15: llms-full.txt was 2.8 MB)', () => {
  test('the size check names each llms file over 1 MB with its size, and passes the rest', () => {
    assert.equal(maxLlmsFileBytes, 1_000_000);
    const problems = llmsSizeProblems([
      {name: 'llms-full.txt', bytes: 2_836_759},
      {name: 'llms-api.txt', bytes: 783_809},
      {name: 'llms-samples-go.txt', bytes: maxLlmsFileBytes},
    ]);
    assert.deepEqual(problems, [
      {page: '/llms-full.txt', message: 'is 2,836,759 bytes, over the 1,000,000-byte limit for a file an assistant loads whole'},
    ]);
  });

  test('llms.txt lists the bundle files with what each holds, before the pages; a bundle says what it holds', () => {
    const labels = new Map([
      ['curl', 'curl'],
      ['node', 'Node.js'],
      ['python', 'Python'],
      ['java', 'Java'],
      ['php', 'PHP'],
      ['go', 'Go'],
    ] as const);
    const files = llmsFiles(labels);
    assert.deepEqual(
      files.map((file) => file.path),
      [
        '/llms-full.txt',
        '/llms-api.txt',
        '/llms-samples-node.txt',
        '/llms-samples-python.txt',
        '/llms-samples-java.txt',
        '/llms-samples-php.txt',
        '/llms-samples-go.txt',
      ],
    );
    const entries: TwinEntry[] = [{path: '/docs/refund', markdown: '/docs/refund.md', title: 'Refund', description: '', section: 'docs'}];
    const text = llmsTxt({siteTitle: 'Veloxa Pay', summary: 'One API.', siteUrl, entries}, files);
    assert.match(
      text,
      /## Whole-site files\n\n- \[Guides\]\(https:\/\/developers\.example\.com\/llms-full\.txt\): every page except the API reference/,
    );
    assert.match(text, /- \[Code samples: Go\]\(https:\/\/developers\.example\.com\/llms-samples-go\.txt\): the Go code sample/);
    assert.ok(text.indexOf('## Whole-site files') < text.indexOf('## Docs'));
    const full = llmsFullTxt(
      {siteTitle: 'Veloxa Pay', summary: 'One API.', siteUrl, entries},
      new Map([['/docs/refund.md', '# Refund\n']]),
      'This file holds the guides.',
    );
    assert.match(full, /^# Veloxa Pay\n\n> One API\.\n\nThis file holds the guides\.\n\nInstructions/);
    const samples = llmsSamplesTxt('Veloxa Pay', 'Go', [
      {
        title: 'Refund',
        twinUrl: `${siteUrl}/docs/refund.md`,
        endpoint: '**Endpoint:** `POST /v1/refunds`',
        fenced: '```go\npackage main\n```',
      },
    ]);
    assert.match(samples, /^# Veloxa Pay code samples: Go\n/);
    assert.match(
      samples,
      /## Refund\n\n\*\*Endpoint:\*\* `POST \/v1\/refunds`\. Reference: https:\/\/developers\.example\.com\/docs\/refund\.md\n\n```go\npackage main\n```/,
    );
  });

  test('the bundled API reference: curl only, other languages named with their file, shared codes and repeated tables given once', () => {
    const references = apiPageReferences(repoRoot);
    const cancel = references.get('/docs/cancel');
    const retrieve = references.get('/docs/retrieveorderdetail');
    assert.ok(cancel && retrieve, 'the Cancel order and Retrieve order detail pages exist');
    const shown = new Map<string, string>();
    const compact = (title: string): CompactReference => ({
      languages: bundledSampleLanguages,
      shown,
      title,
      samplesFile: (language) => `${siteUrl}${samplesFilePath(language)}`,
      commonCodesUrl: `${siteUrl}/docs/response-code.md`,
    });
    const input = (pagePath: string, reference: NonNullable<typeof cancel>) => ({
      ...reference,
      pageUrl: `${siteUrl}${pagePath}`,
      context: {...context, pagePath},
      stateDiagram,
    });
    const full = apiReferenceMarkdown(input('/docs/cancel', cancel));
    const first = apiReferenceMarkdown({...input('/docs/cancel', cancel), compact: compact('Cancel order')});
    const second = apiReferenceMarkdown({...input('/docs/retrieveorderdetail', retrieve), compact: compact('Retrieve order detail')});
    assert.match(full, /### Go\n/);
    assert.match(first, /### curl\n/);
    assert.doesNotMatch(first, /### (Node\.js|Python|Java|PHP|Go)\n/);
    assert.match(first, /The same request in \[Node\.js\]\(https:\/\/developers\.example\.com\/llms-samples-node\.txt\)/);
    const common = cancel.operation.resultCodes.find((result) => result.common);
    assert.ok(common, 'an operation lists the codes every call shares');
    assert.match(full, new RegExp(`\\| \`${common.code}\` \\|`));
    assert.doesNotMatch(first, new RegExp(`\\| \`${common.code}\` \\|`));
    assert.match(first, /every call can answer with the codes listed in \[Response codes\]/);
    assert.match(
      second,
      /_The same as under "Header parameters" of \[Cancel order\]\(https:\/\/developers\.example\.com\/docs\/cancel\.md\), above\._/,
    );
    assert.doesNotMatch(first, /The same as under/);
    assert.ok(first.length < full.length / 2, `the bundled version (${first.length}) is under half the page's twin (${full.length})`);
  });
});

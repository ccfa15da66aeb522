import type {KnipConfig} from 'knip';

/**
 * `npm run check:deps`: every package the code imports or the config names is declared in
 * package.json, every declared one is used, and every binary a script runs is known.
 *
 * Knip's Docusaurus plugin is off: it loads docusaurus.config.ts and calls each function in
 * `plugins` with no arguments (knip 6.44), and ours read `context.siteDir` at once, so the plugin
 * fails and contributes nothing. What it would contribute is listed here instead: the files
 * Docusaurus loads by convention or by a path string, and the module names it resolves itself.
 */

/**
 * The `import ... from '...'` lines of a Markdown or MDX page, without its front matter and code
 * blocks (whose Java, Go or Node.js imports are sample code, not the page's). Docusaurus compiles
 * `.md` as MDX too, so both extensions go through this.
 */
function markdownImports(text: string): string {
  const prose = text.replace(/^---\n[\s\S]*?\n---\n/, '').replace(/^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm, '');
  return [...prose.matchAll(/^import\s[^'"]*['"][^'"]+['"];?/gm)].map(([line]) => line).join('\n');
}

/** Components the remark plugins insert into pages by module name (plugins/content/openapi-contract, plugins/content/mermaid-diagrams). */
const componentsInsertedByRemark = [
  'ApiReference',
  'OperationHeader',
  'ApiRequest',
  'ApiResponses',
  'NotificationDelivery',
  'StateMachineTable',
  'ResultCodeTable',
  'CodeSamples',
  'ResponseCodeCatalogue',
  'StatementColumns',
  'IdempotencyRules',
  'RateLimits',
  'MermaidDiagram',
  'Fold',
];

const config: KnipConfig = {
  // Dependencies, binaries, unresolved imports and files. Unused exports are left out for now: about
  // 60 findings, mostly helpers and prop types exported for tests and callers' annotations.
  include: ['dependencies', 'devDependencies', 'optionalPeerDependencies', 'unlisted', 'binaries', 'unresolved', 'files'],
  // An entry pattern that matches nothing (a file moved without this config) fails the check too.
  treatConfigHintsAsErrors: true,
  docusaurus: false,
  entry: [
    // Named by path in the config: sidebars (the custom CSS needs no entry).
    'docusaurus.config.ts',
    'sidebars/*.ts',
    // The generated client's integration: tests/clients/typescriptClient.test.ts type-checks and loads it by path.
    'tests/clients/typescript/integration.ts',
    // Pages and content: Docusaurus routes every file here.
    'src/pages/**/*.{ts,tsx,md,mdx}',
    '{docs,demos,blog}/**/*.{md,mdx}',
    // Theme overrides replace or wrap @theme/<Name>; nothing imports them by path.
    'src/theme/**/*.{ts,tsx}',
    `src/components/**/{${componentsInsertedByRemark.join(',')}}/index.tsx`,
    // Modules local plugins hand to the bundler by path (a page component, an entry, an alias
    // target, a module replacement, an inlined script): see each plugin's index.ts. The globs
    // allow plugins to be grouped in folders by kind.
    'plugins/**/test-routes/*.tsx',
    'plugins/**/page-script-loader/load-after-paint.js',
    '{src,plugins}/**/highlighter/{client.tsx,server.tsx,prismFacade.ts}',
    'plugins/**/search-on-demand/search-bar/{client,server}.tsx',
    'plugins/**/slim-docs-metadata/loader.js',
    'plugins/**/tslib-used-helpers/helpers.ts',
    // Entries esbuild bundles by path into the portal's downloads (tooling/bundles/bundle.ts).
    'tooling/bundles/*Entry.ts',
    // Forked by path: the HTML check's worker processes (tooling/htmlCheck.ts).
    'tooling/htmlCheckWorker.ts',
  ],
  // Code, and the content whose imports count (README and other Markdown are not code).
  project: ['**/*.{ts,tsx,js}', '{docs,demos,blog,src/pages}/**/*.{md,mdx}'],
  ignoreDependencies: [
    // Module names the Docusaurus bundler resolves itself: theme components (src/theme first,
    // then the installed theme), its generated modules and core's client API.
    /^@theme(-original|-init)?\//,
    /^@generated\//,
    // Loaded by name from .spectral.yaml's extends (npm run lint:contract), which knip does not read.
    '@stoplight/spectral-owasp-ruleset',
    /^@docusaurus\/(BrowserOnly|ComponentCreator|constants|ExecutionEnvironment|Head|Interpolate|isInternalUrl|Link|Noop|renderRoutes|router|Translate|useBaseUrl|useBrokenLinks|useDocusaurusContext|useGlobalData|useIsBrowser|useIsomorphicLayoutEffect|useRouteContext)$/,
    // scripts/bench.ts runs node_modules/.bin/lighthouse by path (its Node API breaks under tsx).
    'lighthouse',
    // Declared with @types/mdast for the syntax-tree types that replace the plugins' local MdNode
    // interfaces (issue 18). Once something imports it, knip reports this line as unneeded: delete it then.
    '@types/unist',
  ],
  // System tools the tests run, installed by scripts/ensure-toolchains.ts from Debian, not npm.
  ignoreBinaries: ['openssl'],
  compilers: {
    md: markdownImports,
    mdx: markdownImports,
  },
};

export default config;

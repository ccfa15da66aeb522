import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import {builtinModules} from 'node:module';

/**
 * The import directions of the layout (README "Repository layout"): contract -> plugins -> components -> pages.
 * Each group below is one arrow that must not be drawn; a folder's block lists every group that holds for it,
 * because a later block that sets no-restricted-imports replaces an earlier one instead of adding to it.
 */
type RestrictedImports = {paths?: {name: string; message: string}[]; patterns?: {regex: string; message: string}[]};
const importRules = {
  scripts: {
    patterns: [
      {regex: '(^|/)scripts(/|$)', message: 'scripts/ holds command-line entry points only: move what you want to share to tooling/.'},
    ],
  },
  themeInternals: {
    patterns: [
      {
        regex: '^@docusaurus/theme-common/internal$',
        message: 'Internal theme hooks are for src/theme/ only, where each override is listed with its upgrade risk (src/theme/README.md).',
      },
    ],
  },
  tests: {
    patterns: [
      {
        regex: '(^|/)tests/',
        message: 'tests/ holds tests and their fixtures: code that plugins, tooling or the site need lives in tooling/ or src/lib/.',
      },
    ],
  },
  tooling: {
    patterns: [
      {
        regex: '(^|/)tooling(/|$)',
        message: 'tooling/ is Node-only code for plugins, scripts and tests: the site cannot ship it. Build-time work belongs in a plugin.',
      },
    ],
  },
  plugins: {
    patterns: [
      {
        regex: '(^|/)plugins/',
        message: 'Plugins run in Node at build time: the site receives their output (props, generated modules), not their code.',
      },
    ],
  },
  node: {
    paths: builtinModules
      .filter((name) => !name.startsWith('_'))
      .map((name) => ({name, message: 'Node built-ins do not exist in the browser: Node-only code lives in tooling/ or a plugin.'})),
    patterns: [{regex: '^node:', message: 'Node built-ins do not exist in the browser: Node-only code lives in tooling/ or a plugin.'}],
  },
  hostsNoPlugins: {
    patterns: [
      {
        regex: '(^|/)plugins/',
        message: 'Hosts read the contract through src/contract/node: plugins hold Docusaurus glue only, and no host depends on the build.',
      },
    ],
  },
  contractNoPlugins: {
    patterns: [{regex: '(^|/)plugins/', message: 'src/contract is below the plugins: they import it, never the other way round.'}],
  },
  framework: {
    patterns: [
      {
        regex: '^(react|react-dom|react/.*|react-dom/.*|@docusaurus/.*|@theme(-original|-init)?/.*|@generated/.*|@site/.*)$',
        message:
          'src/lib, src/contract and src/sandbox/engine are isomorphic TypeScript (browser and Node, no React, no Docusaurus): put components in src/components and import them from there.',
      },
    ],
  },
} satisfies Record<string, RestrictedImports>;

/** One no-restricted-imports entry made of the given groups. */
function restrictImports(...groups: RestrictedImports[]): ['error', Required<RestrictedImports>] {
  return ['error', {paths: groups.flatMap((group) => group.paths ?? []), patterns: groups.flatMap((group) => group.patterns ?? [])}];
}

/** Browser and Node globals src/lib may not touch, so it runs unchanged in both. */
const hostGlobals = [
  ...['window', 'document', 'navigator', 'location', 'history', 'localStorage', 'sessionStorage', 'indexedDB'],
  ...['requestIdleCallback', 'cancelIdleCallback', 'requestAnimationFrame', 'cancelAnimationFrame', 'getComputedStyle', 'matchMedia'],
  ...['HTMLElement', 'Element', 'Node', 'customElements', 'IntersectionObserver', 'MutationObserver', 'ResizeObserver'],
  ...['process', 'Buffer', 'require', 'module', '__dirname', '__filename', 'global'],
].map((name) => ({
  name,
  message:
    'src/lib runs in the browser and in Node alike: take what you need from the host as a parameter, or move the code to src/components/ (browser) or tooling/ (Node).',
}));

/** Lint for the whole repository: config, sidebars, plugins, components, scripts and tests. */
export default tseslint.config(
  {
    ignores: ['build/**', 'build-test/**', '.docusaurus/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      globals: {...globals.browser, ...globals.node},
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', {fixStyle: 'inline-type-imports'}],
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_'}],
      'no-console': 'off',
    },
  },
  {
    // The rules of hooks where React code lives: the compiler-based rules cost a quarter of the lint's time, and
    // scripts, tooling and tests have no components or hooks.
    files: ['src/**/*.{ts,tsx}', 'plugins/**/*.tsx'],
    plugins: {'react-hooks': reactHooks},
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Accessibility of the markup components write, caught as it is written; the built pages are
    // checked again by scripts/checkHtml.ts and, for what needs layout and colour, by axe in the e2e suite.
    files: ['**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // Lists styled without bullets lose their list semantics in WebKit unless the role is explicit.
      'jsx-a11y/no-redundant-roles': ['error', {ul: ['list'], ol: ['list']}],
      // A scroll box must be reachable by keyboard to be scrolled (axe: scrollable-region-focusable):
      // labelled regions and the theme's code <pre> take tabIndex 0.
      'jsx-a11y/no-noninteractive-tabindex': ['error', {roles: ['region', 'tabpanel'], tags: ['pre']}],
    },
  },
  {
    // Copies of @docusaurus/theme-classic components, kept byte for byte outside their
    // "BEGIN/END portal change" fences so an upgrade can re-diff them (src/theme/README.md).
    // Upstream code uses non-null assertions, and disables a jsx-a11y rule this config
    // already relaxes for <pre>.
    files: [
      'src/theme/AnnouncementBar/index.tsx',
      'src/theme/BlogArchivePage/index.tsx',
      'src/theme/CodeBlock/index.tsx',
      'src/theme/CodeBlock/Content/index.tsx',
      'src/theme/NotFound/Content/index.tsx',
      'src/theme/Tabs/index.tsx',
    ],
    linterOptions: {reportUnusedDisableDirectives: 'off'},
    rules: {'@typescript-eslint/no-non-null-assertion': 'off'},
  },
  // Import directions (see importRules above): the most specific folder last.
  {
    files: ['**/*.{ts,tsx,js}'],
    rules: {'no-restricted-imports': restrictImports(importRules.scripts, importRules.themeInternals)},
  },
  {
    // Entry points do not import each other either.
    files: ['scripts/**'],
    rules: {
      'no-restricted-imports': restrictImports(importRules.themeInternals, {
        patterns: [
          ...importRules.scripts.patterns,
          {regex: '^\\./', message: 'scripts/ holds command-line entry points only: move what you want to share to tooling/.'},
        ],
      }),
    },
  },
  {
    files: ['tooling/**', 'plugins/**'],
    rules: {'no-restricted-imports': restrictImports(importRules.scripts, importRules.themeInternals, importRules.tests)},
  },
  {
    files: ['src/**'],
    rules: {
      'no-restricted-imports': restrictImports(
        importRules.scripts,
        importRules.themeInternals,
        importRules.tests,
        importRules.tooling,
        importRules.plugins,
        importRules.node,
      ),
    },
  },
  {
    files: ['src/theme/**'],
    rules: {
      'no-restricted-imports': restrictImports(
        importRules.scripts,
        importRules.tests,
        importRules.tooling,
        importRules.plugins,
        importRules.node,
      ),
    },
  },
  {
    // The sandbox's local server and the MCP server are Node programs beside the engine: they read the
    // contract through src/contract/node and files from disk, never through a build plugin.
    files: ['src/sandbox/hosts/server/**', 'src/sandbox/hosts/mcp/**'],
    rules: {
      'no-restricted-imports': restrictImports(
        importRules.scripts,
        importRules.themeInternals,
        importRules.tests,
        importRules.hostsNoPlugins,
      ),
    },
  },
  {
    // The contract's Node side (loading and checking the YAML, the API pages, Postman): used by plugins, hosts,
    // tooling and tests alike, so it imports none of them.
    files: ['src/contract/node/**'],
    rules: {
      'no-restricted-imports': restrictImports(
        importRules.scripts,
        importRules.themeInternals,
        importRules.tests,
        importRules.tooling,
        importRules.contractNoPlugins,
        importRules.framework,
      ),
    },
  },
  {
    // The sandbox engine, its declared actions and the merchant client run unchanged in the browser and in Node, like src/lib.
    files: ['src/lib/**', 'src/contract/*.ts', 'src/sandbox/engine/**', 'src/sandbox/actions.ts', 'src/sandbox/client/**'],
    rules: {
      'no-restricted-imports': restrictImports(
        importRules.scripts,
        importRules.tests,
        importRules.tooling,
        importRules.plugins,
        importRules.node,
        importRules.framework,
      ),
      'no-restricted-globals': ['error', ...hostGlobals],
    },
  },
  {
    // The page-script loader, inlined into every page as it is: browser globals only.
    files: ['plugins/performance/page-script-loader/*.js'],
    languageOptions: {globals: globals.browser, sourceType: 'script'},
  },
);

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

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
    plugins: {'react-hooks': reactHooks},
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': ['error', {fixStyle: 'inline-type-imports'}],
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_'}],
      'no-console': 'off',
    },
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
      'src/theme/CodeBlock/Content/String.tsx',
      'src/theme/NotFound/Content/index.tsx',
      'src/theme/Tabs/index.tsx',
    ],
    linterOptions: {reportUnusedDisableDirectives: 'off'},
    rules: {'@typescript-eslint/no-non-null-assertion': 'off'},
  },
  {
    // The page-script loader, inlined into every page as it is: browser globals only.
    files: ['plugins/performance/page-script-loader/*.js'],
    languageOptions: {globals: globals.browser, sourceType: 'script'},
  },
);

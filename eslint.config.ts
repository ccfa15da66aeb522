import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
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
    // The page-script loader, inlined into every page as it is: browser globals only.
    files: ['plugins/page-script-loader/*.js'],
    languageOptions: {globals: globals.browser, sourceType: 'script'},
  },
);

/**
 * Only the tslib helper the browser bundle uses, instead of all of tslib in every page's `main`.
 *
 * `@docusaurus/utils-common` (compiled CommonJS) does `const tslib_1 = require("tslib")` and calls one helper,
 * `__importDefault`. A `require` of a module gives the bundler the whole module object, so it kept every tslib
 * helper (about 3 KB Brotli on every page; stock Docusaurus pays it too). For that one issuer, `tslib` resolves to
 * `helpers.ts`, which re-exports the helper it calls, so the rest of tslib is dropped. Another package that
 * needs another helper keeps the real tslib: the alias applies to this issuer only.
 */
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/** The module whose `require("tslib")` is narrowed: its compiled entry (either path separator). */
export const utilsCommonEntry = /[\\/]@docusaurus[\\/]utils-common[\\/]lib[\\/]index\.js$/;

export default function tslibUsedHelpersPlugin(): Plugin {
  return {
    name: 'tslib-used-helpers',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      return {module: {rules: [{test: utilsCommonEntry, resolve: {alias: {tslib$: path.join(__dirname, 'helpers.ts')}}}]}};
    },
  };
}

/**
 * Leaves the fields of the site config that only the build reads (the SSR template, the presets', plugins' and
 * themes' options, Markdown and bundler settings) out of the config module every page's start-up script carries
 * (loader.js lists them and says why that is safe).
 */
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/** The module core generates for `@generated/docusaurus.config`: `<generated>/docusaurus.config.mjs`. */
export const siteConfigModule = /[\\/]docusaurus\.config\.mjs$/;

export default function slimSiteConfigPlugin(): Plugin {
  return {
    name: 'slim-site-config',
    configureWebpack() {
      // Server and client alike, so the server render reads what hydration reads.
      return {module: {rules: [{test: siteConfigModule, use: [{loader: path.join(__dirname, 'loader.js')}]}]}};
    },
  };
}

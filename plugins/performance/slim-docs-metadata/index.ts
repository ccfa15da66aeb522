/**
 * Leaves each doc's description out of the docs version metadata that every docs and demo page loads
 * (loader.js says why that is safe here). On 2026-11-27 that module was 4.9 KB of a docs page's
 * first-load JavaScript (Brotli), 3.7 KB of it the descriptions.
 */
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/** The version metadata modules plugin-content-docs writes: `<generated>/docusaurus-plugin-content-docs/<plugin id>/p/<version>.json`. */
export const versionMetadataModule = /[\\/]docusaurus-plugin-content-docs[\\/][^\\/]+[\\/]p[\\/][^\\/]+\.json$/;

export default function slimDocsMetadataPlugin(): Plugin {
  return {
    name: 'slim-docs-metadata',
    configureWebpack() {
      // Server and client alike: both render the same sidebars from it.
      return {module: {rules: [{test: versionMetadataModule, use: [{loader: path.join(__dirname, 'loader.js')}]}]}};
    },
  };
}

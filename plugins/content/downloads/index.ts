/**
 * Local plugin that builds the portal's downloads with the site (src/lib/downloads.ts): after the build,
 * the local sandbox and the MCP server as one file each under /downloads/, with SHA256SUMS. Glue only:
 * the bundling is tooling/bundles/bundle.ts. /docs/local-sandbox, /docs/mcp-server and /llms.txt link them.
 */
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {downloadsPath} from '../../../src/lib/downloads';
import {buildDownloads} from '../../../tooling/bundles/bundle';

export default function downloadsPlugin(context: LoadContext): Plugin {
  return {
    name: 'portal-downloads',
    async postBuild({outDir}) {
      const started = Date.now();
      const built = await buildDownloads(path.join(outDir, downloadsPath));
      const sizes = built.map((download) => `${download.file} ${Math.round(download.bytes / 1024)} KiB`).join(', ');
      console.log(`[downloads] ${sizes} in ${path.relative(context.siteDir, path.join(outDir, downloadsPath))} (${Date.now() - started} ms)`);
    },
  };
}

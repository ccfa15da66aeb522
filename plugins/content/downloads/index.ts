/**
 * Local plugin that builds the portal's downloads with the site (src/lib/downloads.ts): the local sandbox
 * and the MCP server as one file each under /downloads/, with SHA256SUMS.txt. Glue only: the bundling is
 * tooling/bundles/bundle.ts. /docs/local-sandbox, /docs/mcp-server and /llms.txt link them.
 *
 * A production build starts the bundling in loadContent, beside the site's own compilation, and only
 * copies the files in postBuild: built there, they could appear after the published-links check
 * (plugins/content/openapi-contract) has given up waiting for them. The dev server builds none.
 */
import {copyFile, mkdir, mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {checksumsFile, downloadsPath} from '../../../src/lib/downloads';
import {buildDownloads, type BuiltDownload} from '../../../tooling/bundles/bundle';

interface Bundled {
  readonly directory: string;
  readonly built: BuiltDownload[];
  readonly ms: number;
}

export default function downloadsPlugin(context: LoadContext): Plugin {
  let bundling: Promise<Bundled> | undefined;
  return {
    name: 'portal-downloads',
    loadContent() {
      if (process.env.NODE_ENV !== 'production') return;
      const started = Date.now();
      bundling = mkdtemp(path.join(tmpdir(), 'portal-downloads-')).then(async (directory) => ({
        directory,
        built: await buildDownloads(directory),
        ms: Date.now() - started,
      }));
      // Awaited in postBuild; a failure must not surface earlier as an unhandled rejection.
      bundling.catch(() => undefined);
    },
    async postBuild({outDir}) {
      if (!bundling) throw new Error('[downloads] the downloads were not built: loadContent did not run in this production build.');
      const {directory, built, ms} = await bundling;
      const target = path.join(outDir, downloadsPath);
      // File by file: the temporary folder is private (0700), the published one must not be.
      await mkdir(target, {recursive: true});
      for (const name of [...built.map((download) => download.file), checksumsFile])
        await copyFile(path.join(directory, name), path.join(target, name));
      await rm(directory, {recursive: true, force: true});
      const sizes = built.map((download) => `${download.file} ${Math.round(download.bytes / 1024)} KiB`).join(', ');
      console.log(`[downloads] ${sizes} in ${path.relative(context.siteDir, target)} (bundled in ${ms} ms)`);
    },
  };
}

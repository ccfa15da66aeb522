/**
 * Lists each page's own route chunks in its HTML, next to runtime and main.
 *
 * Docusaurus renders a page's script list from the client manifest: every
 * module the server render loaded (reported as its import request, such as
 * "@theme/DocItem" or a page's content JSON) is looked up in the manifest's
 * `origins`. The manifest plugin (react-loadable-ssr-addon) keys `origins` by
 * import request only under webpack 4; under webpack 5 and Rspack it keys them
 * by chunk name, so no lookup matches and the HTML carries runtime and main
 * alone. The browser then discovers the page's chunks only after main.js has
 * run, appends their script tags inside that long task, and waits for another
 * round trip before it can hydrate.
 *
 * After the manifest is written, this adds the import request of every named
 * async chunk as a second key with the same chunk list, so the stock lookup
 * finds the page's chunks and the template lists them. The loader in
 * plugins/performance/page-script-loader then fetches them alongside main.js, and the
 * router's preload finds them already in the page.
 */
import fs from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

type ClientManifest = {
  entrypoints: string[];
  origins: Record<string, string[]>;
  assets: Record<string, unknown>;
};

/** Chunk-group name → the import requests that create it (for example "17896441" → ["@theme/DocItem"]). */
export type ChunkRequests = ReadonlyMap<string, readonly string[]>;

/**
 * Returns the manifest with each import request added as a key of `origins`.
 * Fails when one request would point to two different chunk lists: the page
 * would then load the wrong code, which is worse than loading it late.
 */
export function addRequestOrigins(manifest: ClientManifest, requests: ChunkRequests): ClientManifest {
  const added: Record<string, string[]> = {};
  for (const [chunkName, chunkRequests] of requests) {
    const chunks = manifest.origins[chunkName];
    if (!chunks) continue;
    for (const request of chunkRequests) {
      // A request that is already a key (an entry point's name, say) keeps its own entry.
      if (request in manifest.origins) continue;
      const earlier = added[request];
      if (earlier && earlier.join() !== chunks.join()) {
        throw new Error(
          `route-scripts: the import request "${request}" leads to two chunk lists (${earlier.join(', ')} and ${chunks.join(', ')}).`,
        );
      }
      added[request] = chunks;
    }
  }
  return {...manifest, origins: {...manifest.origins, ...added}};
}

/** The part of a webpack or Rspack compilation this plugin reads. */
type NamedChunkGroups = {
  keys(): Iterable<string>;
  get(name: string): {readonly origins: ReadonlyArray<{readonly request?: string | null}>} | undefined;
};

function chunkRequests(namedChunkGroups: NamedChunkGroups): Map<string, string[]> {
  const requests = new Map<string, string[]>();
  // keys() and get() only: Rspack's map of named groups implements nothing else.
  for (const name of namedChunkGroups.keys()) {
    const list = (namedChunkGroups.get(name)?.origins ?? [])
      .map((origin) => origin.request)
      .filter((request): request is string => Boolean(request));
    if (list.length > 0) requests.set(name, [...new Set(list)]);
  }
  return requests;
}

export default function routeScriptsPlugin(context: LoadContext): Plugin {
  const manifestPath = path.join(context.generatedFilesDir, 'client-manifest.json');
  return {
    name: 'route-scripts',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      return {
        plugins: [
          {
            apply(compiler: {
              options: {mode?: string};
              hooks: {afterEmit: {tap(name: string, callback: (compilation: {namedChunkGroups: NamedChunkGroups}) => void): void}};
            }) {
              // Only the production client build writes a manifest; the dev server renders in the browser.
              if (compiler.options.mode !== 'production') return;
              compiler.hooks.afterEmit.tap('route-scripts', (compilation) => {
                if (!fs.existsSync(manifestPath)) {
                  throw new Error(
                    `route-scripts: ${manifestPath} was not written; Docusaurus's client manifest plugin must run before this one.`,
                  );
                }
                const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as ClientManifest;
                const requests = chunkRequests(compilation.namedChunkGroups);
                if (requests.size === 0) {
                  throw new Error(
                    'route-scripts: the client build reported no named async chunks; pages would ship without their route chunks.',
                  );
                }
                fs.writeFileSync(manifestPath, JSON.stringify(addRequestOrigins(manifest, requests), null, 2));
              });
            },
          },
        ],
      };
    },
  };
}

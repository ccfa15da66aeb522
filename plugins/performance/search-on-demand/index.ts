/**
 * Keeps the search bar's code (@easyops-cn/docusaurus-search-local's SearchBar: autocomplete templates,
 * the worker bridge; about 6 KB Brotli) out of every page's start-up bundle. src/theme/SearchBar renders
 * `@portal/search-bar`, which this plugin resolves per build:
 * - server: the plugin's own search bar (search-bar/server.tsx), so the HTML is unchanged;
 * - browser: a stand-in with the same markup that hydrates it (search-bar/client.tsx), replaced by the
 *   plugin's search bar when the reader reaches for search or the page has settled; what the reader typed
 *   and the focus are handed over.
 * Not a Suspense boundary on the server: React 19 streams a large completed boundary out of order with
 * inline scripts, which the Content-Security-Policy blocks.
 */
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

export default function searchOnDemandPlugin(): Plugin {
  return {
    name: 'search-on-demand',
    configureWebpack(_config, isServer) {
      const file = path.join(__dirname, 'search-bar', isServer ? 'server.tsx' : 'client.tsx');
      return {resolve: {alias: {'@portal/search-bar$': file}}};
    },
  };
}

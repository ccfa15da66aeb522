/**
 * Starts the app in stages, one task each, instead of in the one task that runs main.js.
 *
 * Running main.js evaluates every start-up module (React, the router, the route table, the
 * theme's layout) and then the client entry, all in one task: on API pages about 20 ms of CPU
 * here, which Lighthouse's 4x mobile slowdown turns into an 80 ms task, the one task of a page's
 * load long enough to block input on its own. webpack evaluates a module the first time it is
 * required, so an entry that requires the heavy groups one task at a time, and the stock client
 * entry last, spreads the same work over several short tasks without changing any of it.
 *
 * The stock entry (config.entry) stays what it is; it is reached through an alias so that no
 * path inside @docusaurus/core is written down here. Production builds only: the development
 * server's hot reloading expects the stock entry to be the entry.
 */
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/** The alias under which the staged entry imports the stock client entry. */
const stockClientEntryAlias = '@portal/stock-client-entry';

const stagedEntryPath = path.join(__dirname, 'stagedEntry.ts');

export default function stagedStartUpPlugin(): Plugin {
  return {
    name: 'staged-start-up',
    configureWebpack(config, isServer) {
      if (isServer || config.mode !== 'production') {
        return {};
      }
      const stockEntry = config.entry;
      if (typeof stockEntry !== 'string') {
        throw new Error(`staged-start-up expects the client entry to be one module path, as Docusaurus 3 sets it; found ${JSON.stringify(stockEntry)}.`);
      }
      return {
        mergeStrategy: {entry: 'replace'},
        entry: stagedEntryPath,
        resolve: {alias: {[stockClientEntryAlias]: stockEntry}},
      };
    },
  };
}

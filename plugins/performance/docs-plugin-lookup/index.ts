/**
 * Replaces the docs plugin's client-side lookup of the active docs instance
 * (getActivePlugin) with one that does not use String#localeCompare, whose
 * first call on a page costs tens of milliseconds of blocking time on a phone
 * (see ./docsClientUtils.ts). Only the docs client's own import of the module
 * is redirected; the replacement re-exports everything else from the original.
 */
import {createRequire} from 'node:module';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

export default function docsPluginLookupPlugin(context: LoadContext): Plugin {
  const replacement = path.join(__dirname, 'docsClientUtils.ts');
  const siteRequire = createRequire(path.join(context.siteDir, 'package.json'));
  const docsClientDir = path.dirname(siteRequire.resolve('@docusaurus/plugin-content-docs/lib/client/index.js'));
  return {
    name: 'docs-plugin-lookup',
    configureWebpack(_config, _isServer, {currentBundler}) {
      return {
        plugins: [
          new currentBundler.instance.NormalModuleReplacementPlugin(/^\.\/docsClientUtils(\.js)?$/, (resource: {context?: string; request: string}) => {
            if (resource.context === docsClientDir) {
              resource.request = replacement;
            }
          }),
        ],
      };
    },
  };
}

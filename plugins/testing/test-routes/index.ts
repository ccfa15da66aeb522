import type {LoadContext, Plugin} from '@docusaurus/types';

/**
 * Pages that only the end-to-end tests need, served under /tests/*.
 * Loaded by docusaurus.config.ts only when PORTAL_TEST_ROUTES=true, so readers
 * of the production build never get them (the dogfooding pattern of the
 * Docusaurus website, kept out of the published site).
 */
export default function testRoutesPlugin(_context: LoadContext): Plugin {
  return {
    // Named after its folder, like every local plugin.
    name: 'test-routes',
    contentLoaded({actions}) {
      actions.addRoute({
        path: '/tests/crash',
        component: '@site/plugins/testing/test-routes/CrashOnDemandPage.tsx',
        exact: true,
      });
    },
  };
}

/**
 * Marks the start-up bundle (main.js) for eager compilation.
 *
 * Nearly every function in main.js runs while the page starts: React, the
 * router and the theme's layout. V8 compiles a function lazily, on the main
 * thread, the first time it is called, which made up a third of main.js's
 * evaluation time. Chrome (136+) reads the magic comment
 * `//# allFunctionsCalledOnLoad` at the top of a script and compiles the
 * whole file on its background streaming thread instead. Other browsers
 * ignore the comment. It is added after minification, which would strip it.
 */
import type {Plugin} from '@docusaurus/types';

export default function compileHintsPlugin(): Plugin {
  return {
    name: 'compile-hints',
    configureWebpack(_config, isServer, {currentBundler}) {
      if (isServer) {
        return {};
      }
      const {BannerPlugin, Compilation} = currentBundler.instance;
      return {
        plugins: [
          new BannerPlugin({
            banner: '//# allFunctionsCalledOnLoad',
            raw: true,
            entryOnly: true,
            include: /^assets\/js\/main\.[0-9a-f]+\.js$/,
            stage: Compilation.PROCESS_ASSETS_STAGE_REPORT,
          }),
        ],
      };
    },
  };
}

/**
 * Hands the switches of performance.config.ts to the browser code: one build-time constant per
 * mechanism, true only in a benchmark build that leaves it out (PORTAL_WITHOUT). Read through
 * src/firstLoadSwitches.ts; false in every normal build, so the minifier drops the other branch.
 */
import type {LoadContext, Plugin} from '@docusaurus/types';
import {performanceMechanisms, switchConstant, type PerformanceMechanism} from '../../../performance.config';

export interface FirstLoadSwitchesOptions {
  readonly without: readonly PerformanceMechanism[];
}

export default function firstLoadSwitchesPlugin(_context: LoadContext, options: unknown): Plugin {
  const {without} = options as FirstLoadSwitchesOptions;
  return {
    name: 'first-load-switches',
    configureWebpack(_config, _isServer, {currentBundler}) {
      // Server and client alike, so hydration finds the markup it renders.
      const constants = Object.fromEntries(
        (Object.keys(performanceMechanisms) as PerformanceMechanism[]).map((mechanism) => [
          switchConstant(mechanism),
          JSON.stringify(without.includes(mechanism)),
        ]),
      );
      return {plugins: [new currentBundler.instance.DefinePlugin(constants)]};
    },
  };
}

/**
 * Moves route prefetching into idle time.
 *
 * Every internal link that scrolls into view asks Docusaurus to prefetch its
 * page's chunks (window.docusaurus.prefetch): route matching plus a
 * <link rel=prefetch> per chunk. Right after hydration a screenful of links
 * asks at once, in one task that blocks input on a phone. Prefetching is only
 * a hint, so here each request waits for an idle moment, and a burst is spread
 * over as many idle periods as it needs. Navigation itself (preload on hover,
 * touch or click) is untouched.
 */
import type {ClientModule} from '@docusaurus/types';
import {whenIdle} from '@site/src/browser/idle';

type Prefetch = Window['docusaurus']['prefetch'];

const idlePrefetch = Symbol('idlePrefetch');
/** Longest stretch of prefetching in one idle callback; inserting each <link> costs the main thread too. */
const maxSliceMs = 6;

function deferPrefetching(): void {
  const docusaurus = window.docusaurus as Window['docusaurus'] | undefined;
  if (!docusaurus || (docusaurus.prefetch as Prefetch & {[idlePrefetch]?: true})[idlePrefetch]) {
    return;
  }
  const prefetchNow = docusaurus.prefetch;
  const waiting: string[] = [];
  let scheduled = false;
  const drain = (deadline?: IdleDeadline) => {
    scheduled = false;
    const start = performance.now();
    do {
      const routePath = waiting.shift();
      if (routePath !== undefined) {
        void prefetchNow(routePath);
      }
      // An idle period can last 50 ms, but input that arrives meanwhile waits for the task: keep each one short.
    } while (waiting.length > 0 && deadline !== undefined && deadline.timeRemaining() > 4 && performance.now() - start < maxSliceMs);
    if (waiting.length > 0) {
      scheduled = true;
      whenIdle(drain);
    }
  };
  const prefetchWhenIdle: Prefetch = (routePath) => {
    waiting.push(routePath);
    if (!scheduled) {
      scheduled = true;
      whenIdle(drain);
    }
    return false;
  };
  // Docusaurus freezes this object, so the replacement is a copy with the one function changed.
  window.docusaurus = {...docusaurus, prefetch: Object.assign(prefetchWhenIdle, {[idlePrefetch]: true as const})};
}

const clientModule: ClientModule = {
  // Runs in the hydration commit, before any link has reported that it is visible; window.docusaurus exists by then.
  onRouteDidUpdate() {
    deferPrefetching();
  },
};

export default clientModule;

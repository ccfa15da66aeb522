/**
 * Renders the blocks that skip layout while off screen, one at a time, once the page is idle.
 *
 * The API reference tables carry `data-render-when-idle`: until rendered, CSS gives them
 * `content-visibility: auto` (src/css/custom.css), so the first layouts of a long API page, on a
 * phone the longest tasks of its load, cover only what is near the screen. Skipped blocks are
 * placeholders of a guessed height, and tools that read the position of text inside them get
 * boxes that overlap whatever follows: accessibility checkers then measure the text's contrast
 * against the wrong background. So after load, each block is rendered for good, in idle time and
 * one per slice, and from then on the page is laid out as if nothing had been skipped.
 */
import type {ClientModule} from '@docusaurus/types';
import {whenIdle} from '@site/src/browser/idle';

/** Blocks still waiting; rendering one sets data-rendered, which drops the CSS skip. */
const waitingBlocksSelector = '[data-render-when-idle]:not([data-rendered])';
/** Longest stretch of work in one idle callback: input that arrives meanwhile waits for it. */
const maxSliceMs = 8;

let scheduled = false;

function renderWaitingBlocks(deadline?: IdleDeadline): void {
  scheduled = false;
  const start = performance.now();
  for (let block = document.querySelector<HTMLElement>(waitingBlocksSelector); block; block = document.querySelector<HTMLElement>(waitingBlocksSelector)) {
    block.setAttribute('data-rendered', '');
    // Reading a size lays the block out now, inside this slice, rather than in the next frame together with the rest.
    void block.offsetHeight;
    if (deadline === undefined || deadline.timeRemaining() < 4 || performance.now() - start > maxSliceMs) {
      break;
    }
  }
  scheduleRendering();
}

function scheduleRendering(): void {
  if (scheduled || document.querySelector(waitingBlocksSelector) === null) {
    return;
  }
  scheduled = true;
  whenIdle(renderWaitingBlocks);
}

const clientModule: ClientModule = {
  // Runs after hydration and after every client-side navigation; on the first page, waits for load so the rendering work stays out of it.
  onRouteDidUpdate() {
    if (document.readyState === 'complete') {
      scheduleRendering();
    } else {
      window.addEventListener('load', scheduleRendering, {once: true});
    }
  },
};

export default clientModule;

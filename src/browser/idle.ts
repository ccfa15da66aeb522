/** Calls back in the browser's next idle period; the timeout keeps the work going on a page that is never idle. */
export function whenIdle(callback: (deadline?: IdleDeadline) => void): void {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback(callback, {timeout: 3000});
  } else {
    setTimeout(callback, 200);
  }
}

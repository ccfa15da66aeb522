import {useEffect, useState, type RefObject} from 'react';

/**
 * True once the element has come within a screen's margin of the viewport,
 * then stays true. Work that only matters for what the reader can see (code
 * block buttons, measuring overflow) waits for it instead of running for every
 * element at start-up. One IntersectionObserver serves every caller.
 */
export function useHasBeenVisible(ref: RefObject<Element | null>): boolean {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (visible || !element) {
      return undefined;
    }
    return whenVisible(element, () => setVisible(true));
  }, [ref, visible]);
  return visible;
}

const waiting = new Map<Element, Set<() => void>>();
let observer: IntersectionObserver | undefined;

/** Calls `callback` once, when `element` first intersects the viewport (200 px margin). Returns a cancel function. */
export function whenVisible(element: Element, callback: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    callback();
    return () => undefined;
  }
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) {
          continue;
        }
        const callbacks = waiting.get(entry.target);
        waiting.delete(entry.target);
        observer?.unobserve(entry.target);
        callbacks?.forEach((call) => call());
      }
    },
    {rootMargin: '200px 0px'},
  );
  const callbacks = waiting.get(element) ?? new Set();
  callbacks.add(callback);
  waiting.set(element, callbacks);
  observer.observe(element);
  return () => {
    callbacks.delete(callback);
    if (callbacks.size === 0) {
      waiting.delete(element);
      observer?.unobserve(element);
    }
  };
}

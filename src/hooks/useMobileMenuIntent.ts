import {useSyncExternalStore} from 'react';
import {withoutMobileMenuIntent} from '@site/src/browser/firstLoadSwitches';

/*
 * Whether the reader has shown they may open the navbar's mobile menu (pointer
 * over, touch on, or focus in its toggle). The theme renders that menu, with
 * the whole docs sidebar inside, on every phone page load although it is
 * closed; src/theme/Navbar/MobileSidebar waits for this signal instead.
 * The signal comes before the click, so the menu exists when it opens and
 * slides in as usual.
 */
let intended = false;
const listeners = new Set<() => void>();

export function announceMobileMenuIntent(): void {
  if (intended) {
    return;
  }
  intended = true;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useMobileMenuIntended(): boolean {
  const intendedNow = useSyncExternalStore(
    subscribe,
    () => intended,
    () => false,
  );
  // A benchmark build without mobile-menu-intent renders the menu at once, as the theme does.
  return withoutMobileMenuIntent || intendedNow;
}

import {useEffect, type ReactNode} from 'react';
import Toggle from '@theme-original/Navbar/MobileSidebar/Toggle';
import {announceMobileMenuIntent} from '@site/src/hooks/useMobileMenuIntent';

const intentEvents = ['pointerover', 'touchstart', 'focusin'] as const;

/**
 * The theme's menu toggle; pointer, touch or focus on it lets the menu render
 * before the click (src/hooks/useMobileMenuIntent.ts). The listeners sit on the
 * document: a wrapping element would change the toggle's layout, since the
 * theme's CSS gives the button `display: inherit` on narrow screens.
 */
export default function NavbarMobileSidebarToggleWrapper(): ReactNode {
  useEffect(() => {
    const onEvent = (event: Event) => {
      if (event.target instanceof Element && event.target.closest('.navbar__toggle')) {
        announceMobileMenuIntent();
        stop();
      }
    };
    const stop = () => intentEvents.forEach((type) => document.removeEventListener(type, onEvent, {capture: true}));
    intentEvents.forEach((type) => document.addEventListener(type, onEvent, {capture: true, passive: true}));
    return stop;
  }, []);
  return <Toggle />;
}

import {useCallback, useEffect, useRef, useState, type ComponentProps, type ComponentType, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import type OriginalSearchBar from '@theme-original/SearchBar';
import {getKeymapHints, matchesKeymap, parseKeymap} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/keymap';
import {isMacPlatform} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/platform';
// The plugin's own CSS modules: the same class names as its search bar, and no new CSS (the rules are already in the site's sheet).
import styles from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/SearchBar/SearchBar.module.css';
import ringStyles from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/LoadingRing/LoadingRing.module.css';

type Props = ComponentProps<typeof OriginalSearchBar>;

/** The plugin's default shortcut (docusaurus.config.ts sets searchBarShortcut and no keymap of its own). */
const shortcut = 'mod+k';

/** What the reader has done in the stand-in, kept up to date until the search bar takes its place. */
interface Handover {
  value: string;
  focused: boolean;
}

/**
 * The search plugin's search bar as its server markup shows it, with nothing behind it yet: the same
 * element tree and classes, so hydration keeps the served markup and nothing moves. The reader reaching
 * for search (pointer over it, focus, a touch, Ctrl or Cmd+K), or the page having loaded and settled,
 * calls for the real one.
 */
function SearchBarStandIn({
  input,
  onWanted,
  onChange,
}: {
  input: React.RefObject<HTMLInputElement | null>;
  onWanted: () => void;
  onChange: (change: Partial<Handover>) => void;
}): ReactNode {
  const isBrowser = useIsBrowser();
  useEffect(() => {
    const keymap = parseKeymap(shortcut);
    const onKey = (event: KeyboardEvent) => {
      if (!matchesKeymap(event, keymap)) return;
      // As the search bar does: its field takes the focus, not the browser's own Ctrl+K.
      event.preventDefault();
      input.current?.focus();
      onWanted();
    };
    const later = () => setTimeout(() => (window.requestIdleCallback ?? setTimeout)(onWanted), 2000);
    document.addEventListener('keydown', onKey);
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, {once: true});
    return () => {
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('load', later);
    };
  }, [input, onWanted]);
  return (
    <div
      className={`navbar__search ${styles.searchBarContainer}`}
      dir="ltr"
      onPointerOver={onWanted}
      onTouchStart={onWanted}
      onFocus={onWanted}
    >
      <svg aria-hidden="true" className={styles.searchIcon} focusable="false" viewBox="0 0 16 16">
        <path
          fill="currentColor"
          d="M6.02945 10.20327a4.17382 4.17382 0 1 1 4.17382-4.17382 4.15609 4.15609 0 0 1-4.17382 4.17382Zm9.69195 4.2199-4.8225-4.82338A5.88021 5.88021 0 0 0 12.058 6.02856 6.00467 6.00467 0 1 0 9.59979 10.8989l4.82338 4.82338a.89729.89729 0 0 0 1.29912 0 .89749.89749 0 0 0-.00087-1.29909Z"
        />
      </svg>
      <input
        ref={input}
        placeholder="Search"
        aria-label="Search"
        className={`navbar__search-input ${styles.searchInput}`}
        defaultValue=""
        onInput={(event) => onChange({value: event.currentTarget.value})}
        onFocus={() => onChange({focused: true})}
        // A field removed while focused may report a blur: only a blur while it is still in the page counts.
        onBlur={(event) => event.currentTarget.isConnected && onChange({focused: false})}
      />
      <div className={`${ringStyles.loadingRing} ${styles.searchBarLoadingRing}`}>
        <div />
        <div />
        <div />
        <div />
      </div>
      {isBrowser && (
        <div className={styles.searchHintContainer}>
          {getKeymapHints(shortcut, isMacPlatform()).map((hint) => (
            <kbd key={hint} className={styles.searchHint}>
              {hint}
            </kbd>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * Gives the arrived search bar what the reader typed, and the focus, through its own input and focus handlers.
 * Reads the stand-in's latest state at hand-over, so what was typed while the code loaded is not lost.
 */
function HandOver({typed}: {typed: React.RefObject<Handover>}): null {
  useEffect(() => {
    const field = document.querySelector<HTMLInputElement>('input.navbar__search-input');
    if (!field) return;
    const {value, focused} = typed.current;
    if (value) {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(field, value);
      field.dispatchEvent(new Event('input', {bubbles: true}));
    }
    // Only if nothing else has taken the focus since the stand-in's field left the page.
    if (focused && (document.activeElement === null || document.activeElement === document.body)) field.focus();
  }, [typed]);
  return null;
}

/**
 * The browser build: the search plugin's search bar (autocomplete templates, the worker bridge) arrives
 * when the reader reaches for it, or once the page has settled, instead of with every page's start-up
 * bundle. Until then a stand-in with the same markup holds its place. The arrived component replaces the
 * stand-in in one render (no Suspense fallback, which would mount a second, empty stand-in meanwhile).
 */
export default function SearchBar(props: Props): ReactNode {
  const input = useRef<HTMLInputElement>(null);
  const typed = useRef<Handover>({value: '', focused: false});
  const [Arrived, setArrived] = useState<ComponentType<Props> | undefined>(undefined);
  const wanted = useRef(false);
  const onWanted = useCallback(() => {
    if (wanted.current) return;
    wanted.current = true;
    // Fetch first, swap once it is here with the results' styles: the stand-in stays usable (typing, focus) meanwhile.
    void import('./arrived')
      .then((module) => module.arrived)
      .then(
        (Loaded) => setArrived(() => Loaded),
        () => {
          wanted.current = false;
        },
      );
  }, []);
  const onChange = useCallback((change: Partial<Handover>) => Object.assign(typed.current, change), []);
  if (!Arrived) return <SearchBarStandIn input={input} onWanted={onWanted} onChange={onChange} />;
  return (
    <>
      <Arrived {...props} />
      <HandOver typed={typed} />
    </>
  );
}

import type {ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/** The kind of device drawn around the screen. */
export type DeviceKind = 'phone' | 'desktop' | 'terminal';

export interface DeviceScreenProps {
  /** A phone, a desktop browser window, or a counter payment terminal. */
  readonly device: DeviceKind;
  /** Shown in the title bar: the app, page or terminal name. */
  readonly title: string;
  /** Shown in an address bar when the screen is a browser page, for example "shop.example.com/cart". */
  readonly address?: string;
  /** Accessible name of the mock-up; defaults to the device and the title. */
  readonly label?: string;
  /** The screen's content: the blocks a live flow draws (ShopperScreen). */
  readonly children?: ReactNode;
}

const deviceNames: Record<DeviceKind, string> = {
  phone: 'Phone screen',
  desktop: 'Browser window',
  terminal: 'Payment terminal',
};

function WindowDots(): ReactNode {
  return (
    <svg className={styles.dots} viewBox="0 0 40 10" width="40" height="10" aria-hidden="true" focusable="false">
      <circle cx="5" cy="5" r="4" />
      <circle cx="20" cy="5" r="4" />
      <circle cx="35" cy="5" r="4" />
    </svg>
  );
}

function LockIcon(): ReactNode {
  return (
    <svg className={styles.lock} viewBox="0 0 12 14" width="10" height="12" aria-hidden="true" focusable="false">
      <path d="M3 6V4a3 3 0 0 1 6 0v2h1a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H2a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1zm1.5 0h3V4a1.5 1.5 0 0 0-3 0z" />
    </svg>
  );
}

function Keypad(): ReactNode {
  const keys = Array.from({length: 12}, (_, index) => ({x: (index % 3) * 22 + 1, y: Math.floor(index / 3) * 12 + 1}));
  return (
    <svg className={styles.keypad} viewBox="0 0 66 48" width="99" height="72" aria-hidden="true" focusable="false">
      {keys.map((key) => (
        <rect key={`${key.x}-${key.y}`} x={key.x} y={key.y} width="20" height="10" rx="2" />
      ))}
    </svg>
  );
}

/**
 * A device frame with a title bar around mock screen content. Everything in it is
 * real text; the frame's decoration is hidden from assistive technology.
 */
export default function DeviceScreen({device, title, address, label, children}: DeviceScreenProps): ReactNode {
  return (
    <figure className={clsx(styles.frame, styles[device])} aria-label={label ?? `${deviceNames[device]}: ${title}`}>
      {device === 'phone' ? <span className={styles.notch} aria-hidden="true" /> : null}
      <div className={styles.bar}>
        {device === 'desktop' ? <WindowDots /> : null}
        <span className={styles.title}>{title}</span>
      </div>
      {address === undefined ? null : (
        <div className={styles.address}>
          <LockIcon />
          <span>{address}</span>
        </div>
      )}
      <div className={styles.content}>{children}</div>
      {device === 'terminal' ? <Keypad /> : null}
    </figure>
  );
}

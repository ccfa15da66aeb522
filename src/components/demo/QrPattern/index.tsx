import type {ReactNode} from 'react';
import styles from './styles.module.css';

export interface QrPatternProps {
  /** Any text; the same seed always draws the same pattern, for example the order number. */
  readonly seed: string;
  /** What the code stands for, read by screen readers, for example "QR code for order ORD-20250601-0002". */
  readonly label: string;
  /** Modules per side, from 21 to 41. Default 25. */
  readonly modules?: number;
  /** Width and height in CSS pixels. Default 160. */
  readonly size?: number;
}

const quietZone = 2;

/** 32-bit FNV-1a hash of the seed. */
function hashSeed(seed: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < seed.length; index += 1) {
    hash ^= seed.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Small deterministic generator (mulberry32): the same state gives the same sequence everywhere. */
function generator(initial: number): () => number {
  let state = initial;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whether a module of a corner finder (with its light separator) is dark, or undefined outside the finders. */
function finderModule(row: number, column: number, count: number): boolean | undefined {
  for (const [top, left] of [
    [0, 0],
    [0, count - 7],
    [count - 7, 0],
  ] as const) {
    const dy = row - top;
    const dx = column - left;
    if (dy >= -1 && dy <= 7 && dx >= -1 && dx <= 7) {
      if (dy < 0 || dy > 6 || dx < 0 || dx > 6) return false;
      const ring = Math.max(Math.abs(dy - 3), Math.abs(dx - 3));
      return ring !== 2;
    }
  }
  return undefined;
}

/**
 * The pattern as rows of dark (true) and light (false) modules: three corner
 * finders, timing lines and seeded noise. It looks like a QR code but encodes
 * nothing and cannot be scanned.
 */
export function qrPatternModules(seed: string, modules = 25): boolean[][] {
  const count = Math.min(41, Math.max(21, Math.round(modules)));
  const next = generator(hashSeed(seed));
  return Array.from({length: count}, (_, row) =>
    Array.from({length: count}, (__, column) => {
      const finder = finderModule(row, column, count);
      if (finder !== undefined) return finder;
      if (row === 6 || column === 6) return (row + column) % 2 === 0;
      return next() < 0.5;
    }),
  );
}

/** SVG path data drawing each horizontal run of dark modules as one rectangle. */
function pathData(grid: readonly (readonly boolean[])[]): string {
  const parts: string[] = [];
  grid.forEach((cells, row) => {
    let start = -1;
    cells.forEach((dark, column) => {
      if (dark && start < 0) start = column;
      const runEnds = start >= 0 && (!dark || column === cells.length - 1);
      if (runEnds) {
        const end = dark ? column + 1 : column;
        parts.push(`M${start} ${row}h${end - start}v1h${start - end}z`);
        start = -1;
      }
    });
  });
  return parts.join('');
}

/**
 * A decorative stand-in for a QR code, generated from a seed so it is stable
 * between builds and between server and client. It is labelled as an image for
 * screen readers; it is not a real, scannable code.
 */
export default function QrPattern({seed, label, modules = 25, size = 160}: QrPatternProps): ReactNode {
  const grid = qrPatternModules(seed, modules);
  const extent = grid.length + quietZone * 2;
  return (
    <svg
      className={styles.qr}
      role="img"
      aria-label={label}
      viewBox={`${-quietZone} ${-quietZone} ${extent} ${extent}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      focusable="false"
    >
      <rect className={styles.background} x={-quietZone} y={-quietZone} width={extent} height={extent} />
      <path d={pathData(grid)} fill="currentColor" />
    </svg>
  );
}

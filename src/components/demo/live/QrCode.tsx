import type {ReactNode} from 'react';
import qrcode from 'qrcode-generator';
import styles from './panel/styles.module.css';

/** Modules of white around the code, as the QR specification asks for. */
const quietZone = 4;

/** The dark modules of a QR code of `content` as one SVG path (error correction M, the smallest version that fits). */
export function qrPath(content: string): {size: number; path: string} {
  const code = qrcode(0, 'M');
  code.addData(content);
  code.make();
  const count = code.getModuleCount();
  let path = '';
  for (let row = 0; row < count; row += 1)
    for (let column = 0; column < count; column += 1)
      if (code.isDark(row, column)) path += `M${column + quietZone} ${row + quietZone}h1v1h-1z`;
  return {size: count + quietZone * 2, path};
}

/**
 * A real, scannable QR code of `content`: dark on white in both colour modes (scanners need the contrast),
 * with its text under it for readers who cannot scan.
 */
export default function QrCode({content, label}: {content: string; label: string}): ReactNode {
  const {size, path} = qrPath(content);
  return (
    <figure className={styles.qr} data-testid="qr-code" data-content={content}>
      <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width="168" height="168" shapeRendering="crispEdges">
        <rect width={size} height={size} fill="#fff" />
        <path d={path} fill="#000" />
      </svg>
      <figcaption className={styles.small}>
        Encodes <code className={styles.wrap}>{content}</code>
      </figcaption>
    </figure>
  );
}

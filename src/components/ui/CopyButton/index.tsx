import {useState, type ReactNode} from 'react';
import Button from '../Button';
import styles from './styles.module.css';

/**
 * A quiet Copy button for one value, and a status beside it that says whether the copy worked (a browser may
 * refuse the clipboard: the reader is told to select the value instead).
 */
export default function CopyButton({value, label, copiedText = 'Copied'}: {value: string; label?: string; copiedText?: string}): ReactNode {
  const [said, setSaid] = useState('');
  return (
    <>
      <Button
        variant="quiet"
        size="sm"
        aria-label={label ?? `Copy ${value}`}
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(
            () => setSaid(copiedText),
            () => setSaid('Copy refused by the browser: select the value instead'),
          );
        }}
      >
        Copy
      </Button>
      <span role="status" className={styles.said}>
        {said}
      </span>
    </>
  );
}

import {useId, useState, type FormEvent, type ReactNode} from 'react';
import Button from '@site/src/components/ui/Button';
import AmountSummary from '@site/src/components/demo/AmountSummary';
import DeviceScreen from '@site/src/components/demo/DeviceScreen';
import ScreenPanel from '@site/src/components/demo/ScreenPanel';
import StatusMessage from '@site/src/components/demo/StatusMessage';
import QrCode from './QrCode';
import {formatUsd} from './flow';
import type {Block, Screen} from './screen';
import styles from './panel/styles.module.css';

/** Reads "8.51", "8,51" or "8" as minor units; undefined for anything else or outside 1.00 to 999,999.99. */
export function parseAmount(text: string): number | undefined {
  const match = /^\s*(\d{1,6})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return undefined;
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
  return minor >= 100 ? minor : undefined;
}

function BlockView({block}: {block: Block}): ReactNode {
  switch (block.kind) {
    case 'summary':
      return (
        <AmountSummary
          merchant={block.merchant}
          {...(block.subject ? {subject: block.subject} : {})}
          total={{value: block.amount, currency: block.currency ?? 'USD'}}
        />
      );
    case 'text':
      return <p className={styles.small}>{block.text}</p>;
    case 'value':
      return (
        <p className={styles.small}>
          {block.label}: <code className={styles.wrap}>{block.value}</code>
        </p>
      );
    case 'status':
      return (
        <StatusMessage tone={block.tone} title={block.title}>
          <p>{block.text}</p>
        </StatusMessage>
      );
    case 'qr':
      return <QrCode content={block.content} label={block.label} />;
    case 'panel':
      return (
        <ScreenPanel kind={block.variant} label={block.label}>
          {block.blocks.map((inner, index) => (
            <BlockView key={index} block={inner} />
          ))}
        </ScreenPanel>
      );
    case 'amount-entry':
      // Drawn by ShopperScreen as a form with the action button.
      return null;
  }
}

export interface ShopperScreenProps {
  readonly screen: Screen;
  readonly amount: number;
  /** The button's press; an amount-entry screen passes the amount typed. */
  readonly onAct: (amount?: number) => void;
  /** False when there is no next step (the button is left out) or a step is running (disabled). */
  readonly canAct: boolean;
  readonly busy: boolean;
}

/** The customer's device, drawn from a flow's screen data. */
export default function ShopperScreen({screen, amount, onAct, canAct, busy}: ShopperScreenProps): ReactNode {
  const id = useId();
  const entry = screen.blocks.find((block) => block.kind === 'amount-entry');
  const [typed, setTyped] = useState((amount / 100).toFixed(2));
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseAmount(typed);
    setInvalid(parsed === undefined);
    if (parsed !== undefined) onAct(parsed);
  };
  const button =
    screen.action && canAct ? (
      <div className={styles.deviceAction}>
        <Button variant="primary" type={entry ? 'submit' : 'button'} onClick={entry ? undefined : () => onAct()} disabled={busy}>
          {screen.action}
        </Button>
      </div>
    ) : null;
  return (
    <DeviceScreen device={screen.device} title={screen.title} {...(screen.address ? {address: screen.address} : {})}>
      {screen.blocks.map((block, index) => (
        <BlockView key={index} block={block} />
      ))}
      {entry && canAct ? (
        <form onSubmit={submit} noValidate>
          <label htmlFor={`${id}-amount`} className={styles.label}>
            {entry.label}
          </label>
          <input
            id={`${id}-amount`}
            className={styles.amountInput}
            inputMode="decimal"
            value={typed}
            onChange={(change) => setTyped(change.target.value)}
            aria-invalid={invalid}
            aria-describedby={`${id}-amount-hint`}
            disabled={busy}
          />
          <p id={`${id}-amount-hint`} className={invalid ? styles.invalid : styles.small}>
            {invalid
              ? 'Enter an amount from 1.00, with at most two decimals, for example 8.51.'
              : `Its last two digits choose the sandbox outcome (now ${formatUsd(amount)}).`}
          </p>
          {button}
        </form>
      ) : (
        button
      )}
    </DeviceScreen>
  );
}

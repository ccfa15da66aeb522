import {loadBrowserHost} from '@site/src/sandbox/hosts/browser/load';
import {useCallback, useEffect, useId, useReducer, useRef, type ChangeEvent, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import useBaseUrl from '@docusaurus/useBaseUrl';
import TableScroller from '@site/src/components/ui/TableScroller';
import form from '@site/src/components/ui/WidgetForm/styles.module.css';
import type {BrowserSandbox} from '@site/src/sandbox/hosts/browser/host';
import type {Check} from './notificationChecks';
import {advanceSteps, consoleReducer, initialConsoleState, readSeconds, says} from './model';
import {loadCheckers, readConsole, type Checkers, type Row} from './view';
import styles from './styles.module.css';

const loadHost = loadBrowserHost;

/** Columns that hold money: right-aligned in tabular figures, so amounts line up by their last digit. */
const moneyColumns = new Set(['Amount', 'Fee', 'Available', 'Pending', 'Frozen']);

function Table({
  label,
  columns,
  rows,
  empty,
}: {
  label: string;
  columns: readonly string[];
  rows: readonly Row[];
  empty: ReactNode;
}): ReactNode {
  if (rows.length === 0) return <p className={styles.empty}>{empty}</p>;
  const money = (column: string | undefined) => (column !== undefined && moneyColumns.has(column) ? styles.money : undefined);
  return (
    <TableScroller label={label} cardsOnPhone>
      <table className={styles.table}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={money(column)}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, index) => (
                <td key={columns[index]} className={money(columns[index])} data-label={columns[index]}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}

function CheckItem({check}: {check: Check}): ReactNode {
  const mark = check.outcome === 'pass' ? '✓' : check.outcome === 'fail' ? '✗' : '–';
  return (
    <li className={check.outcome === 'fail' ? styles.checkFail : undefined}>
      <span aria-hidden="true">{mark} </span>
      {check.text}
    </li>
  );
}

const tryItHint = (
  <>
    Create one with Try it on <Link to="/docs/createorder">Create order</Link>: it uses the sandbox in this browser, and what you do there
    shows up here.
  </>
);

/**
 * The in-browser sandbox at a glance: merchants and keys, orders, refunds, payouts, balances, the ledger,
 * the notification inbox with each notification checked, and the clock; reset, export and import. Reads
 * the same IndexedDB state as Try it; nothing is sent anywhere.
 */
export default function SandboxConsole(): ReactNode {
  const id = useId();
  const providerKeyUrl = useBaseUrl('/test-vectors/provider-test-public.pem');
  const sandbox = useRef<BrowserSandbox | undefined>(undefined);
  const checkers = useRef<Checkers | undefined>(undefined);
  const [state, dispatch] = useReducer(consoleReducer, initialConsoleState);
  const {view, loadError, clientId, status, seconds, secondsError, importError, confirmingReset, ledgerShown, inboxShown} = state;
  const moreLedger = () => dispatch({type: 'moreLedger'});
  const moreInbox = () => dispatch({type: 'moreInbox'});
  const resetLists = () => dispatch({type: 'listsReset'});
  const resetButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);

  const refresh = useCallback(async (wanted: string) => {
    if (!sandbox.current || !checkers.current) return;
    // Afresh each time: after another tab changed the sandbox, the host starts a new engine from what is stored.
    sandbox.current = await (await loadHost()).browserSandbox();
    dispatch({type: 'read', view: await readConsole(sandbox.current, wanted, checkers.current)});
  }, []);

  useEffect(() => {
    let live = true;
    (async () => {
      const started = await (await loadHost()).browserSandbox();
      checkers.current = await loadCheckers(providerKeyUrl, started.engine.providerKey.keyVersion);
      sandbox.current = started;
      if (live) await refresh(started.clientId);
    })().catch((error: unknown) => {
      if (live) dispatch({type: 'loadFailed', message: error instanceof Error ? error.message : String(error)});
    });
    return () => {
      live = false;
    };
  }, [providerKeyUrl, refresh]);

  // What another tab does to the sandbox shows here without a reload.
  const shownClient = useRef(clientId);
  useEffect(() => {
    shownClient.current = clientId;
  }, [clientId]);
  useEffect(() => {
    let stop: (() => void) | undefined;
    let live = true;
    void loadHost().then((host) => {
      if (live) stop = host.onChangedElsewhere(() => void refresh(shownClient.current).catch(() => undefined));
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [refresh]);

  /** Runs an action, then reads everything again; the status line says what happened. */
  const act = async (busy: string, action: (started: BrowserSandbox) => Promise<string | undefined>) => {
    if (!sandbox.current) return;
    // The current engine: one another tab's change replaced must not act on (and write back) old state.
    const started = await (await loadHost()).browserSandbox();
    sandbox.current = started;
    dispatch({type: 'busy', text: busy});
    try {
      const done = await action(started);
      await refresh(clientId);
      dispatch({type: 'done', ...(done === undefined ? {} : {text: done})});
    } catch (error) {
      dispatch({type: 'done', text: says.failed(error)});
    }
  };

  const advance = (by: number, label: string) =>
    act(says.advancing(label), async (started) => {
      const advanced = await started.target.act('clock.advance', {seconds: by});
      if (!advanced.ok) throw new Error(advanced.message);
      return says.advanced(label, advanced.value as {jobsRun: number; now: string});
    });

  const advanceBySeconds = () => {
    const read = readSeconds(seconds);
    dispatch({type: 'secondsError', ...(read.ok ? {} : {message: read.message})});
    if (read.ok) void advance(read.seconds, read.label);
  };

  const exportState = () =>
    act('Exporting…', async (started) => {
      const document = started.exportState();
      const url = URL.createObjectURL(new Blob([`${JSON.stringify(document, null, 2)}\n`], {type: 'application/json'}));
      const link = window.document.createElement('a');
      link.href = url;
      link.download = says.exportFileName(document.exportedAt);
      link.click();
      // Revoked on the next turn, once the download has taken the URL.
      setTimeout(() => URL.revokeObjectURL(url), 0);
      return says.exported(document.records.length, document.inbox?.length ?? 0, link.download);
    });

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    dispatch({type: 'importError'});
    await act(says.importing(file.name), async (started) => {
      let document: unknown;
      try {
        document = JSON.parse(await file.text());
      } catch (error) {
        dispatch({type: 'importError', message: says.notJson(file.name, error instanceof Error ? error.message : String(error))});
        return undefined;
      } finally {
        input.value = '';
      }
      const result = await started.importState(document);
      if (!result.ok) {
        dispatch({type: 'importError', message: says.notImported(file.name, result.message)});
        return undefined;
      }
      resetLists();
      return says.imported(file.name, result.value);
    });
  };

  const reset = async () => {
    dispatch({type: 'confirmReset', open: false});
    resetLists();
    await act('Resetting…', async (started) => {
      await started.reset();
      return says.reset;
    });
  };

  // Focus follows the confirmation step: to its first button when it opens, back to Reset when it closes.
  const confirmationOpened = useRef(false);
  useEffect(() => {
    if (confirmingReset) confirmButton.current?.focus();
    else if (confirmationOpened.current) resetButton.current?.focus();
    confirmationOpened.current = confirmingReset;
  }, [confirmingReset]);

  if (loadError)
    return (
      <p className={form.fail} role="alert">
        {loadError}
      </p>
    );
  if (!view) {
    return (
      <p className={styles.loading} role="status">
        Opening the sandbox in this browser…
      </p>
    );
  }

  const busy = status.kind === 'busy';
  const selectId = `${id}-merchant`;
  const secondsId = `${id}-seconds`;
  const importId = `${id}-import`;

  return (
    <section className={styles.console} aria-label="Sandbox console">
      <div className={styles.toolbar}>
        <div className={form.field}>
          <label htmlFor={selectId}>Merchant</label>
          <select
            id={selectId}
            value={clientId}
            onChange={(event) => {
              resetLists();
              void refresh(event.currentTarget.value);
            }}
          >
            {view.merchants.map((merchant) => (
              <option key={merchant} value={merchant}>
                {merchant === view.testClientId ? `${merchant} (the test merchant)` : merchant}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={() => void act('Refreshing…', async () => 'Refreshed.')}
        >
          Refresh
        </button>
      </div>
      <p className={styles.status} role="status">
        {status.kind === 'idle' ? '' : status.text}
      </p>

      <h2>Merchant and keys</h2>
      {view.merchant && (
        <>
          <dl className={styles.facts}>
            <dt>Client ID</dt>
            <dd>
              <code>{view.merchant.clientId}</code>
            </dd>
            <dt>Created</dt>
            <dd>{view.merchant.createdAt}</dd>
            <dt>Default notification URL</dt>
            <dd>{view.merchant.defaultNotifyUrl ?? 'none'}</dd>
            <dt>Notification retries</dt>
            <dd>
              {view.merchant.compressedRetries ? 'compressed: ten attempts within 300 seconds' : 'the production schedule (about 46 hours)'}
            </dd>
          </dl>
          <ul className={styles.keys} aria-label="Public keys">
            {view.merchant.keys.map((key, index) => (
              <li key={key.keyVersion}>
                Key version {key.keyVersion}, SHA-256 <code className={styles.wrap}>{view.merchant?.fingerprints[index]}</code>
                <details className={styles.details}>
                  <summary>Public key (PEM)</summary>
                  <pre tabIndex={0}>{key.publicKeyPem}</pre>
                </details>
              </li>
            ))}
          </ul>
        </>
      )}

      <h2>Orders</h2>
      <Table
        label="Orders"
        columns={['Number', 'Scene', 'Amount', 'Status', 'Created', 'Expires']}
        rows={view.orders}
        empty={<>No orders yet. {tryItHint}</>}
      />

      <h2>Refunds</h2>
      <Table
        label="Refunds"
        columns={['Refund ID', 'Refund number', 'Order', 'Amount', 'Status', 'Created']}
        rows={view.refunds}
        empty={<>No refunds yet. Pay an order in Try it, then use its Refund order button.</>}
      />

      <h2>Payouts</h2>
      <Table
        label="Payouts"
        columns={['Product', 'Number', 'Amount', 'Fee', 'Status', 'Created']}
        rows={view.payouts}
        empty={
          <>
            No transfers, bank transfers or card payouts yet. Try <Link to="/docs/transfer/transfer">Transfer</Link> or the other payout
            pages.
          </>
        }
      />

      <h2>Balances</h2>
      <Table label="Balances" columns={['Currency', 'Available', 'Pending', 'Frozen']} rows={view.balances} empty="No balances." />

      <h2>Ledger</h2>
      <p>Every movement of money, newest first: the legs change the available, pending and frozen balances.</p>
      <Table
        label="Ledger entries"
        columns={['Time', 'Currency', 'Available', 'Pending', 'Frozen', 'What']}
        rows={view.ledger.slice(0, ledgerShown)}
        empty="No ledger entries."
      />
      {view.ledger.length > ledgerShown && (
        <button type="button" className="button button--secondary button--sm" onClick={moreLedger}>
          Show more ledger entries ({view.ledger.length - ledgerShown} more)
        </button>
      )}

      <h2>Notification inbox</h2>
      <p>
        Notifications the sandbox sent for this merchant, newest first, each checked as your handler should check it. Times are on the
        sandbox clock.
      </p>
      {view.inbox.length === 0 ? (
        <p className={styles.empty}>
          No notifications yet. Pay an order in Try it (its Pay as the shopper button) and ORDER.PAID arrives here.
        </p>
      ) : (
        <ol className={styles.inbox} aria-label="Notifications">
          {view.inbox.slice(0, inboxShown).map(({entry, checked}, index) => (
            <li key={`${checked.notificationId}-${entry.receivedAt}-${index}`} className={styles.notification}>
              <p className={styles.eventType}>
                <strong>{checked.eventType}</strong> <code className={styles.wrap}>{checked.notificationId}</code>
              </p>
              <p className={styles.wrap}>
                To {entry.url}, received {entry.receivedAt}
              </p>
              <ul className={styles.checks} aria-label={`Checks of ${checked.eventType} ${checked.notificationId}`}>
                <CheckItem check={checked.signature} />
                <CheckItem check={checked.timestamp} />
                <CheckItem check={checked.clientId} />
                <CheckItem check={checked.body} />
              </ul>
              <details className={styles.details}>
                <summary>Raw headers and body</summary>
                <pre tabIndex={0}>
                  {Object.entries(entry.headers)
                    .map(([name, value]) => `${name}: ${value}`)
                    .join('\n')}
                  {'\n\n'}
                  {entry.body}
                </pre>
              </details>
            </li>
          ))}
        </ol>
      )}
      {view.inbox.length > inboxShown && (
        <button type="button" className="button button--secondary button--sm" onClick={moreInbox}>
          Show more notifications ({view.inbox.length - inboxShown} more)
        </button>
      )}

      <h2>Clock</h2>
      <p>
        Sandbox time: <strong>{view.now}</strong>
        {view.aheadSeconds > 0 ? `, ${view.aheadSeconds} seconds ahead of this computer's clock` : ''}. {view.pendingJobs}{' '}
        {view.pendingJobs === 1 ? 'job waits' : 'jobs wait'} on the clock for this merchant. Advancing runs what falls due on the way:
        payments and refunds that take time, order expiry, settlement, notification retries.
      </p>
      <div className={styles.actions}>
        {advanceSteps.map((step) => (
          <button
            key={step.seconds}
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() => void advance(step.seconds, step.label)}
          >
            Advance {step.label}
          </button>
        ))}
      </div>
      <div className={styles.secondsRow}>
        <div className={form.field}>
          <label htmlFor={secondsId}>Seconds to advance</label>
          <input
            id={secondsId}
            inputMode="numeric"
            value={seconds}
            aria-invalid={secondsError ? true : undefined}
            aria-describedby={secondsError ? `${secondsId}-error` : undefined}
            onChange={(event) => dispatch({type: 'secondsEdited', seconds: event.currentTarget.value})}
            onKeyDown={(event) => {
              if (event.key === 'Enter') advanceBySeconds();
            }}
          />
          {secondsError && (
            <p id={`${secondsId}-error`} className={form.fieldError}>
              {secondsError}
            </p>
          )}
        </div>
        <button type="button" className="button button--secondary" disabled={busy} onClick={advanceBySeconds}>
          Advance
        </button>
      </div>

      <h2>State</h2>
      <p>Export saves the whole sandbox of this browser as a JSON file; import replaces it with such a file; reset starts again.</p>
      <div className={styles.actions}>
        <button type="button" className="button button--secondary" disabled={busy} onClick={() => void exportState()}>
          Export
        </button>
        {confirmingReset ? (
          <div className={styles.confirm} role="group" aria-label="Confirm reset">
            <p>Reset deletes every merchant you registered, every order, refund, payout and notification in this browser. Reset?</p>
            <button ref={confirmButton} type="button" className="button button--danger" disabled={busy} onClick={() => void reset()}>
              Yes, reset the sandbox
            </button>{' '}
            <button type="button" className="button button--secondary" onClick={() => dispatch({type: 'confirmReset', open: false})}>
              Cancel
            </button>
          </div>
        ) : (
          <button
            ref={resetButton}
            type="button"
            className="button button--secondary"
            onClick={() => dispatch({type: 'confirmReset', open: true})}
          >
            Reset…
          </button>
        )}
      </div>
      <div className={form.field}>
        <label htmlFor={importId}>Import a state file</label>
        <input
          id={importId}
          type="file"
          accept=".json,application/json"
          disabled={busy}
          aria-invalid={importError ? true : undefined}
          aria-describedby={importError ? `${importId}-error` : undefined}
          onChange={(event) => void importFile(event)}
        />
        {importError && (
          <p id={`${importId}-error`} className={form.fieldError} role="alert">
            {importError}
          </p>
        )}
      </div>
    </section>
  );
}

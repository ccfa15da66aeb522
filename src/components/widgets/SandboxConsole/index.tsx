import {loadBrowserHost} from '@site/src/sandbox/hosts/browser/load';
import {useCallback, useEffect, useId, useReducer, useRef, useState, useSyncExternalStore, type ChangeEvent, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import useBaseUrl from '@docusaurus/useBaseUrl';
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import Button from '@site/src/components/ui/Button';
import Field, {describedBy} from '@site/src/components/ui/Field';
import form from '@site/src/components/ui/WidgetForm/styles.module.css';
import {hostedMerchant, onHostedMerchantChange, type HostedMerchant} from '@site/src/lib/hostedMerchantStore';
import {useHostedSandboxOrigin} from '@site/src/components/widgets/HostedMerchantPanel/useHostedSandboxOrigin';
import type {BrowserSandbox} from '@site/src/sandbox/hosts/browser/host';
import type {Check} from './notificationChecks';
import {advanceSteps, consoleReducer, initialConsoleState, readSeconds, says} from './model';
import {BalanceCards, Table} from './Tables';
import type {Checkers} from './view';
import styles from './styles.module.css';

const loadHost = loadBrowserHost;
/** Reading the state into rows, with the links' operations: needed with the engine, not for the first draw (reader.ts). */
const loadReader = () => import(/* webpackChunkName: "sandbox-console-reader" */ './reader');
/** Signing and HTTP for the hosted merchant's export: only when the reader chooses the hosted sandbox. */
const loadHostedMerchant = () => import('@site/src/lib/hostedMerchant');

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
 *
 * When the reader has made a merchant on the hosted sandbox in this tab (HostedMerchantPanel), the console
 * can show that merchant instead: its export, signed as it (src/lib/hostedMerchant.ts), read through an
 * engine in memory (engineOfExport), so orders, payouts, events, balances and the ledger read the same.
 * The hosted sandbox has one clock and refuses imports, so the clock and state tools stay with this browser.
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
  const hostedOrigin = useHostedSandboxOrigin();
  const ownHosted = useSyncExternalStore(
    onHostedMerchantChange,
    () => hostedMerchant(hostedOrigin),
    () => undefined,
  );
  const [onHosted, setOnHosted] = useState(false);
  const [hostedError, setHostedError] = useState('');
  // Read by refresh, which another tab's change can call at any time: it must not put this browser's view back.
  const showingHosted = useRef(false);
  const hosted = onHosted ? ownHosted : undefined;

  const refresh = useCallback(async (wanted: string) => {
    if (!sandbox.current || !checkers.current || showingHosted.current) return;
    // Afresh each time: after another tab changed the sandbox, the host starts a new engine from what is stored.
    sandbox.current = await (await loadHost()).browserSandbox();
    dispatch({type: 'read', view: await (await loadReader()).read(sandbox.current, wanted, checkers.current)});
  }, []);

  useEffect(() => {
    let live = true;
    (async () => {
      const [host, reader] = await Promise.all([loadHost(), loadReader()]);
      const started = await host.browserSandbox();
      checkers.current = await reader.loadCheckers(providerKeyUrl, started.engine.providerKey.keyVersion);
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

  /** Reads the hosted merchant's export; a sandbox that does not answer or refuses is said in an alert. */
  const readHosted = async (merchant: HostedMerchant) => {
    if (!checkers.current) return;
    dispatch({type: 'busy', text: says.readingHosted(merchant.clientId)});
    try {
      const exported = await (await loadHostedMerchant()).exportHostedMerchant(merchant);
      const read = await (await loadHost()).engineOfExport(exported);
      if (!read.ok) throw new Error(says.hostedUnreadable(read.message));
      const reader = await loadReader();
      const found = await reader.read({engine: read.value, clientId: merchant.clientId, inbox: []}, merchant.clientId, checkers.current);
      if (!showingHosted.current) return;
      dispatch({type: 'read', view: {...found, merchants: [merchant.clientId]}});
      setHostedError('');
      dispatch({type: 'done', text: says.readHosted(merchant.clientId, merchant.origin)});
    } catch (error) {
      setHostedError(error instanceof Error ? error.message : String(error));
      dispatch({type: 'done'});
    }
  };

  /** Switches between this browser's sandbox and the hosted merchant. */
  const chooseTarget = (toHosted: boolean) => {
    showingHosted.current = toHosted;
    setOnHosted(toHosted);
    setHostedError('');
    resetLists();
    if (toHosted && ownHosted) void readHosted(ownHosted);
    else void refresh(sandbox.current?.clientId ?? '');
  };

  // The merchant forgotten in this tab: back to this browser's sandbox.
  useEffect(() => {
    if (!ownHosted && showingHosted.current) chooseTarget(false);
  });

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
  const targetId = `${id}-target`;
  const selectId = `${id}-merchant`;
  const secondsId = `${id}-seconds`;
  const importId = `${id}-import`;

  const tabLabel = (name: string, count: number) => `${name} (${count})`;
  // The objects' tabs, each a table with the status second; Notifications, a list of checks, follows them.
  const objectTabs = [
    {
      name: 'Orders',
      columns: ['Number', 'Status', 'Amount', 'Scene', 'Created', 'Expires'],
      rows: view.orders,
      empty: <>No orders yet. {tryItHint}</>,
    },
    {
      name: 'Refunds',
      columns: ['Refund number', 'Status', 'Amount', 'Order', 'Created'],
      rows: view.refunds,
      empty: <>No refunds yet. Pay an order in Try it, then use its Refund order button.</>,
    },
    {
      name: 'Payouts',
      columns: ['Number', 'Status', 'Amount', 'Fee', 'Product', 'Created'],
      rows: view.payouts,
      empty: (
        <>
          No transfers, bank transfers or card payouts yet. Try <Link to="/docs/transfer/transfer">Transfer</Link> or the other payout
          pages.
        </>
      ),
    },
    {
      name: 'Events',
      columns: ['Event', 'Delivery', 'Attempts', 'Notification ID', 'Created'],
      rows: view.events,
      empty: <>No events yet: each order, refund or payout that changes state raises one.</>,
    },
  ] as const;

  return (
    <section className={styles.console} aria-label="Sandbox console">
      <div className={styles.toolbar}>
        {ownHosted ? (
          <Field id={targetId} label="Sandbox">
            <select
              id={targetId}
              value={hosted ? 'hosted' : 'browser'}
              onChange={(event) => chooseTarget(event.currentTarget.value === 'hosted')}
            >
              <option value="browser">This browser</option>
              <option value="hosted">Hosted sandbox, as {ownHosted.clientId}</option>
            </select>
          </Field>
        ) : null}
        {hosted ? null : (
          <Field id={selectId} label="Merchant">
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
          </Field>
        )}
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() => void (hosted ? readHosted(hosted) : act('Refreshing…', async () => 'Refreshed.'))}
        >
          Refresh
        </Button>
        <p className={styles.status} role="status">
          {status.kind === 'idle' ? '' : status.text}
        </p>
      </div>
      {hosted && hostedError ? (
        <p className={form.fail} role="alert">
          {hostedError}
        </p>
      ) : (
        <>
          <h2>Balances</h2>
          <BalanceCards balances={view.balances} />

          <h2 className="sr-only">Objects</h2>
          <Tabs className={styles.tabs} lazy>
            {objectTabs.map((tab) => (
              <TabItem key={tab.name} value={tab.name.toLowerCase()} label={tabLabel(tab.name, tab.rows.length)}>
                <Table label={tab.name} columns={tab.columns} rows={tab.rows} empty={tab.empty} />
              </TabItem>
            ))}
            {hosted ? null : (
              <TabItem value="notifications" label={tabLabel('Notifications', view.inbox.length)}>
                <p className={styles.lead}>
                  Notifications the sandbox sent for this merchant, newest first, each checked as your handler should check it. Times are on
                  the sandbox clock.
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
                  <Button variant="quiet" onClick={moreInbox}>
                    Show more notifications ({view.inbox.length - inboxShown} more)
                  </Button>
                )}
              </TabItem>
            )}
          </Tabs>

          <h2>Ledger</h2>
          <p>Every movement of money, newest first: the legs change the available, pending and frozen balances.</p>
          <Table
            label="Ledger entries"
            columns={['Time', 'What', 'Available', 'Pending', 'Frozen']}
            rows={view.ledger.slice(0, ledgerShown)}
            empty="No ledger entries."
          />
          {view.ledger.length > ledgerShown && (
            <Button variant="quiet" onClick={moreLedger}>
              Show more ledger entries ({view.ledger.length - ledgerShown} more)
            </Button>
          )}

          {hosted ? null : (
            <>
              <h2>Clock</h2>
              <p>
                Sandbox time: <strong>{view.now}</strong>
                {view.aheadSeconds > 0 ? `, ${view.aheadSeconds} seconds ahead of this computer's clock` : ''}. {view.pendingJobs}{' '}
                {view.pendingJobs === 1 ? 'job waits' : 'jobs wait'} on the clock for this merchant. Advancing runs what falls due on the
                way: payments and refunds that take time, order expiry, settlement, notification retries.
              </p>
              <div className={styles.actions}>
                {advanceSteps.map((step) => (
                  <Button key={step.seconds} variant="secondary" disabled={busy} onClick={() => void advance(step.seconds, step.label)}>
                    Advance {step.label}
                  </Button>
                ))}
              </div>
              <div className={styles.secondsRow}>
                <Field id={secondsId} label="Seconds to advance" error={secondsError}>
                  <input
                    id={secondsId}
                    inputMode="numeric"
                    value={seconds}
                    aria-invalid={secondsError ? true : undefined}
                    aria-describedby={describedBy(secondsId, {error: secondsError})}
                    onChange={(event) => dispatch({type: 'secondsEdited', seconds: event.currentTarget.value})}
                    onKeyDown={(event) => {
                      if (event.key === 'Enter') advanceBySeconds();
                    }}
                  />
                </Field>
                <Button variant="secondary" disabled={busy} onClick={advanceBySeconds}>
                  Advance
                </Button>
              </div>
            </>
          )}
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
                  {view.merchant.compressedRetries
                    ? 'compressed: ten attempts within 300 seconds'
                    : 'the production schedule (about 46 hours)'}
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

          {hosted ? null : (
            <>
              <h2>State</h2>
              <p>Export saves the whole sandbox of this browser as a JSON file; import replaces it with such a file; reset starts again.</p>
              <div className={styles.actions}>
                <Button variant="secondary" disabled={busy} onClick={() => void exportState()}>
                  Export
                </Button>
                {confirmingReset ? (
                  <div className={styles.confirm} role="group" aria-label="Confirm reset">
                    <p>Reset deletes every merchant you registered, every order, refund, payout and notification in this browser. Reset?</p>
                    <div className={styles.actions}>
                      <Button ref={confirmButton} variant="primary" disabled={busy} onClick={() => void reset()}>
                        Yes, reset the sandbox
                      </Button>
                      <Button variant="secondary" onClick={() => dispatch({type: 'confirmReset', open: false})}>
                        Cancel
                      </Button>
                    </div>
                  </div>
                ) : (
                  <Button ref={resetButton} variant="secondary" onClick={() => dispatch({type: 'confirmReset', open: true})}>
                    Reset…
                  </Button>
                )}
              </div>
              <Field id={importId} label="Import a state file" error={importError} errorAlert>
                <input
                  id={importId}
                  type="file"
                  accept=".json,application/json"
                  disabled={busy}
                  aria-invalid={importError ? true : undefined}
                  aria-describedby={describedBy(importId, {error: importError})}
                  onChange={(event) => void importFile(event)}
                />
              </Field>
            </>
          )}
        </>
      )}
    </section>
  );
}

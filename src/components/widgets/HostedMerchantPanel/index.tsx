import {useId, useState, useSyncExternalStore, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Button from '@site/src/components/ui/Button';
import Field from '@site/src/components/ui/Field';
import form from '@site/src/components/ui/WidgetForm/styles.module.css';
import {
  createHostedMerchant,
  forgetHostedMerchant,
  hostedMerchant,
  HostedRegistrationError,
  onHostedMerchantChange,
  privateKeyFileName,
} from '@site/src/lib/hostedMerchant';
import {useHostedSandboxOrigin} from './useHostedSandboxOrigin';
import styles from './styles.module.css';

type Status = {readonly kind: 'idle'} | {readonly kind: 'working'} | {readonly kind: 'failed'; readonly message: string};

/**
 * Gets the reader a merchant of their own on the hosted sandbox: a key pair made in this browser, the public
 * key registered, the client ID shown, the private key offered once to download or copy. The merchant stays
 * in this tab's memory for Try it (src/lib/hostedMerchant.ts); nothing is stored.
 */
export default function HostedMerchantPanel(): ReactNode {
  const origin = useHostedSandboxOrigin();
  const isBrowser = useIsBrowser();
  const id = useId();
  const merchant = useSyncExternalStore(
    onHostedMerchantChange,
    () => hostedMerchant(origin),
    () => undefined,
  );
  const [status, setStatus] = useState<Status>({kind: 'idle'});
  // The PEM text lives in this component's state only, and goes when the merchant is forgotten.
  const [privateKeyPem, setPrivateKeyPem] = useState('');
  const [copied, setCopied] = useState('');

  /** Saves the key as a file: a link made for the click, its object URL revoked once the download has started. */
  const save = (clientId: string) => {
    const url = URL.createObjectURL(new Blob([privateKeyPem], {type: 'application/x-pem-file'}));
    const link = document.createElement('a');
    link.href = url;
    link.download = privateKeyFileName(clientId);
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  const create = async () => {
    setStatus({kind: 'working'});
    setCopied('');
    try {
      const made = await createHostedMerchant(origin);
      setPrivateKeyPem(made.privateKeyPem);
      setStatus({kind: 'idle'});
    } catch (error) {
      const message = error instanceof HostedRegistrationError ? error.message : `Something went wrong: ${(error as Error).message}`;
      setStatus({kind: 'failed', message});
    }
  };

  const copy = async (what: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(`${what} copied.`);
    } catch {
      setCopied(`Your browser did not allow copying: select the ${what.toLowerCase()} and copy it yourself.`);
    }
  };

  const forget = () => {
    forgetHostedMerchant();
    setPrivateKeyPem('');
    setCopied('');
  };

  return (
    <section className={styles.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.title}>
        Your hosted sandbox merchant
      </h2>
      <p className={form.privacy}>
        The key pair is generated in this browser. Only the public key is sent, to {origin}. The private key stays in this tab&apos;s memory
        until you close it or forget the merchant; download or copy it to keep it.
      </p>
      {merchant ? (
        <>
          <dl className={styles.facts}>
            <dt>Client ID</dt>
            <dd>
              <code data-testid="hosted-client-id">{merchant.clientId}</code>{' '}
              <Button variant="quiet" size="sm" onClick={() => void copy('Client ID', merchant.clientId)}>
                Copy client ID
              </Button>
            </dd>
            <dt>Key version</dt>
            <dd>{merchant.signer.keyVersion}</dd>
          </dl>
          {privateKeyPem ? (
            <>
              <Field id={`${id}-key`} label="Private key (PKCS #8 PEM): keep it secret">
                <textarea id={`${id}-key`} readOnly rows={6} value={privateKeyPem} className={styles.key} spellCheck={false} />
              </Field>
              <div className={styles.actions}>
                <Button variant="primary" onClick={() => save(merchant.clientId)}>
                  Download private key
                </Button>
                <Button onClick={() => void copy('Private key', privateKeyPem)}>Copy private key</Button>
              </div>
            </>
          ) : null}
          <div className={styles.actions}>
            <Button variant="quiet" onClick={forget}>
              Forget this merchant in this tab
            </Button>
          </div>
        </>
      ) : (
        <div className={styles.actions}>
          <Button variant="primary" disabled={!isBrowser || status.kind === 'working'} onClick={() => void create()}>
            {status.kind === 'working' ? 'Creating your merchant…' : 'Create my sandbox merchant'}
          </Button>
        </div>
      )}
      <p role="status" className={styles.status}>
        {copied || (merchant ? `Try it on any API page uses ${merchant.clientId} when you choose the hosted sandbox.` : '')}
      </p>
      {merchant && !copied ? (
        <p className={styles.status}>
          The <Link to="/docs/sandbox-console">sandbox console</Link> shows its orders, balances and events when you choose the hosted
          sandbox there.
        </p>
      ) : null}
      {status.kind === 'failed' ? (
        <p role="alert" className={form.fail}>
          {status.message}
        </p>
      ) : null}
    </section>
  );
}

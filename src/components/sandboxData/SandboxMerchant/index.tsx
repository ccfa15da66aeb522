import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {formatMoney} from '@site/src/lib/sandboxDataText';
import type {SandboxPageData} from '@site/src/sandbox/engine/rules/types';
import {OperationName} from '../OutcomeText';
import SandboxTable, {requireSandboxData} from '../SandboxTable';

/**
 * A key file from api/test-vectors/, as the build publishes it beside the site. Plain link text, not
 * code: link colour on code's tint over a striped dark row falls below 4.5:1.
 */
function KeyFile({file}: {file: string}): ReactNode {
  const name = file.split('/').pop() ?? file;
  return (
    <Link to={`pathname:///${file}`} download={name}>
      {name}
    </Link>
  );
}

/** The shared sandbox merchant: credentials, keys, notification URL and balances. */
export default function SandboxMerchant({data: given}: {data: SandboxPageData<'merchant' | 'clientReadTimeoutSeconds'>}): ReactNode {
  const data = requireSandboxData(given, 'SandboxMerchant');
  const {merchant} = data;
  const rows: Array<[string, ReactNode]> = [
    ['Client ID', <code key="id">{merchant.clientId}</code>],
    [
      'Merchant signing key',
      <>
        <KeyFile file={merchant.merchantKey.privateKey} /> (public half: <KeyFile file={merchant.merchantKey.publicKey} />
        ), registered as key version <code>{merchant.merchantKey.keyVersion}</code>. Published, so anyone can sign as this merchant.
      </>,
    ],
    [
      'Provider public key',
      <>
        <KeyFile file={merchant.providerKey.publicKey} />, provider key version <code>{merchant.providerKey.keyVersion}</code>. It signs all
        sandbox {merchant.providerKey.signs.join(' and ')}: verify them with it.
      </>,
    ],
    [
      'Default notification URL',
      merchant.defaultNotifyUrl === null ? (
        <>
          None. Send <code>notifyUrl</code> with each request, or read the events with{' '}
          <OperationName id="listEvents" operations={data.operations} />.
        </>
      ) : (
        <code>{merchant.defaultNotifyUrl}</code>
      ),
    ],
    [
      'Starting balances',
      merchant.balances.map((balance, index) => (
        <span key={balance.currency}>
          {index > 0 ? ', ' : ''}
          {formatMoney(balance.available, balance.currency)} available
        </span>
      )),
    ],
    [
      'Nightly restore (hosted sandbox only)',
      <>
        At {merchant.balanceRestore.atUtc} UTC. {merchant.balanceRestore.what}
      </>,
    ],
    [
      'Dashboard',
      merchant.dashboard === 'read-only'
        ? 'Read-only; Test tools are not available on this merchant.'
        : 'Full access, including Test tools.',
    ],
    ['Read timeout to use', `${data.clientReadTimeoutSeconds} seconds, as in production.`],
  ];
  return (
    <SandboxTable label="Shared sandbox merchant" caption="The shared sandbox merchant" columns={['Item', 'Value']}>
      {rows.map(([item, value]) => (
        <tr key={item}>
          <th scope="row">{item}</th>
          <td>{value}</td>
        </tr>
      ))}
    </SandboxTable>
  );
}

/**
 * The demos' test accounts page (SandboxTestValues) and overview (demoFlows.ts): every card, wallet, IBAN and
 * amount ending of the sandbox data is listed; each "Use in Try it" link opens the page of the operation that
 * takes the value with body fields the operation's request has; each "Use in a demo" link names a flow whose
 * page runs it and an outcome that flow offers; the overview's flows are the demo pages, scenes and events of
 * the contract.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {brand} from '../../src/brand';
import {demoFlows, demoPage} from '../../src/components/demo/demoFlows';
import {flows, isFlowId} from '../../src/components/demo/live/flows';
import {
  testValues,
  testValueSections,
  type TestValueData,
  type TestValueGroup,
} from '../../src/components/sandboxData/SandboxTestValues/testValues';
import {prefillFromSearch} from '../../src/components/widgets/TryItPanel/prefillFromUrl';
import {loadContract} from '../../src/contract/node/loadContract';
import {operationIdsIn, operationRefs, sandboxComponentSections} from '../../plugins/content/openapi-contract/remarkSandboxData';
import sidebars from '../../sidebars/demos';
import {sandboxData} from '../support/liveDemo';
import {repoRoot} from '../support/routeContract';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const picked = Object.fromEntries(testValueSections.map((section) => [section, sandboxData[section]]));
const data = {...picked, operations: operationRefs(contract, repoRoot, operationIdsIn(picked))} as unknown as TestValueData;
const groups: readonly TestValueGroup[] = ['cards', 'wallets', 'ibans', 'paymentEndings', 'refundEndings', 'payoutEndings', 'payoutCards'];
const contractText = readFileSync(path.join(repoRoot, 'api', 'openapi.yaml'), 'utf8');
const demoSource = (id: string) => readFileSync(path.join(repoRoot, 'demos', `${id}.mdx`), 'utf8');

/** The operation whose reference page is at this URL, and its first request example. */
function operationAt(url: string) {
  for (const [operationId, location] of contract.operations) {
    if (data.operations[operationId]?.url !== url) continue;
    const examples = (
      location.operation.requestBody as {content?: Record<string, {examples?: Record<string, {value?: unknown}>}>} | undefined
    )?.content?.['application/json']?.examples;
    return {operationId, example: Object.values(examples ?? {})[0]?.value};
  }
  return undefined;
}

const hasPath = (value: unknown, dotted: string): boolean =>
  dotted
    .split('.')
    .reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), value) !==
  undefined;

describe('the test accounts page', () => {
  test('the page gets the sections its model reads', () => {
    assert.deepEqual([...sandboxComponentSections.SandboxTestValues].sort(), [...testValueSections].sort());
  });

  test('every card, wallet, IBAN and amount ending of the sandbox data is listed', () => {
    const values = (group: TestValueGroup) => testValues(data, group).map((entry) => entry.value);
    assert.deepEqual(
      values('cards'),
      sandboxData.cards.cards.map((card) => card.number),
    );
    assert.deepEqual(
      values('wallets'),
      sandboxData.wallets.map((wallet) => wallet.phone),
    );
    assert.deepEqual(
      values('ibans'),
      [...sandboxData.bankAccounts.accounts, ...sandboxData.virtualAccounts.accounts].map((account) => account.iban),
    );
    assert.deepEqual(
      values('paymentEndings'),
      sandboxData.payments.endings.rules.map((rule) => rule.ending),
    );
    assert.deepEqual(
      values('refundEndings'),
      sandboxData.refunds.endings.rules.map((rule) => rule.ending),
    );
    assert.deepEqual(
      values('payoutEndings'),
      sandboxData.payouts.endings.rules.map((rule) => rule.ending),
    );
    assert.deepEqual(
      values('payoutCards'),
      sandboxData.payoutCards.cards.map((card) => card.number),
    );
  });

  test('each Try it link opens the operation that takes the value, prefilling fields its request has, with the value in them', () => {
    let links = 0;
    for (const group of groups)
      for (const entry of testValues(data, group)) {
        if (!entry.tryIt) {
          assert.ok(entry.noTryIt, `${group} ${entry.value} says why it has no Try it link`);
          continue;
        }
        links += 1;
        const [page, search = ''] = entry.tryIt.href.split('?');
        const operation = operationAt(page ?? '');
        assert.ok(operation, `${entry.tryIt.href} is an API page`);
        const prefill = prefillFromSearch(`?${search}`, {parameters: []});
        assert.ok(prefill, `${entry.tryIt.href} opens Try it`);
        for (const field of Object.keys(prefill.body))
          assert.ok(hasPath(operation.example, field), `${operation.operationId}'s request has ${field} (${entry.tryIt.href})`);
        if (group.endsWith('Endings'))
          assert.ok(prefill.body['amount.value']?.endsWith(entry.value), `${entry.tryIt.href} ends in ${entry.value}`);
        else if (group === 'wallets')
          assert.equal(prefill.body['payee.walletId'], sandboxData.wallets.find((wallet) => wallet.phone === entry.value)?.walletId);
        else assert.ok(Object.values(prefill.body).includes(entry.value), `${entry.tryIt.href} carries ${entry.value}`);
      }
    assert.ok(links >= 20, `${links} Try it links`);
  });

  test('each demo link plays an outcome its flow offers, on the page that runs that flow', () => {
    let links = 0;
    for (const group of groups)
      for (const entry of testValues(data, group)) {
        if (!entry.demo) continue;
        links += 1;
        const url = new URL(entry.demo.href, `https://${brand.hosts.portal}`);
        const flow = url.searchParams.get('demo') ?? '';
        assert.ok(isFlowId(flow), `${entry.demo.href} names a live flow`);
        const offered = flows[flow].outcomes(sandboxData).map((outcome) => outcome.id);
        assert.ok(offered.includes(url.searchParams.get('outcome') ?? ''), `${entry.demo.href}: ${offered.join(', ')}`);
        assert.match(demoSource(url.pathname.replace('/demos/', '')), new RegExp(`flow="${flow}"`));
        assert.equal(url.hash, `#live-demo-${flow}`);
      }
    const cardLinks = testValues(data, 'cards').filter((entry) => entry.demo);
    assert.ok(cardLinks.some((entry) => entry.demo?.href.includes('outcome=3ds-passed')));
    assert.ok(cardLinks.some((entry) => entry.demo?.href.includes('outcome=3ds-failed')));
    assert.ok(links >= 10, `${links} demo links`);
  });

  test('the USD test wallets open the e-wallet demo with the outcome each plays; the virtual account opens the invoice demo', () => {
    const wallets = testValues(data, 'wallets');
    const outcomeOf = (phone: string) => {
      const href = wallets.find((entry) => entry.value === phone)?.demo?.href;
      return href === undefined ? undefined : new URL(href, `https://${brand.hosts.portal}`).searchParams;
    };
    assert.equal(outcomeOf('+10000000001')?.get('outcome'), 'approve');
    assert.equal(outcomeOf('+10000000002')?.get('outcome'), 'wallet-low');
    assert.equal(outcomeOf('+10000000005')?.get('outcome'), 'wallet-frozen');
    assert.equal(outcomeOf('+10000000001')?.get('demo'), 'ewallet');
    // The demos take USD; the euro and pound wallets would be declined for their currency, not for themselves.
    assert.equal(outcomeOf('+10000000003'), undefined);
    const vam = testValues(data, 'ibans').find((entry) => entry.value === sandboxData.virtualAccounts.accounts[0]?.iban);
    assert.match(vam?.demo?.href ?? '', /^\/demos\/invoice\?demo=invoice&outcome=exact#live-demo-invoice$/);
  });
});

describe('the demos overview', () => {
  const sidebarIds = JSON.stringify(sidebars);
  test('one entry per demo page of the sidebar, each with a scene and events of the contract', () => {
    for (const flow of demoFlows) {
      assert.ok(sidebarIds.includes(`"${flow.id}"`), `${flow.id} is in the demos sidebar`);
      assert.ok(demoSource(flow.id).length > 0);
      assert.equal(demoPage(flow), `/demos/${flow.id}`);
      assert.match(contractText, new RegExp(`\\b${flow.scene}\\b`), `${flow.scene} is a scene of the contract`);
      for (const event of flow.endsWith)
        assert.match(contractText, new RegExp(event.replace('.', '\\.')), `${event} is an event of the contract`);
      if (flow.live) assert.match(demoSource(flow.id), new RegExp(`flow="${flow.live}"`), `${flow.id} runs the live flow ${flow.live}`);
    }
    const pages = ['hosted-paypage', 'iframe-paypage', 'paylink', 'invoice', 'ewallet', 'jsapi', 'dynqr', 'smart-code', 'cash-top-up'];
    assert.deepEqual(demoFlows.map((flow) => flow.id).sort(), pages.sort());
  });

  test('every page that runs a live flow is marked live in the overview', () => {
    for (const flow of demoFlows) {
      const runs = /<LiveDemo/.test(demoSource(flow.id));
      assert.equal(Boolean(flow.live), runs, `${flow.id}: live ${String(flow.live)}, page runs a live demo: ${String(runs)}`);
    }
  });
});

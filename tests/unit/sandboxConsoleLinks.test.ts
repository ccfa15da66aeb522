/**
 * The console's "Open in Try it" links (src/components/widgets/SandboxConsole/links.ts), on the real
 * contract: every collection the console lists finds its read operation and that operation's page, and an
 * object without the ID the read takes gets no link.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {consoleCollections, openLink, type ConsoleCollection} from '../../src/components/widgets/SandboxConsole/links';
import {data} from '../support/tryItFixture';

const {operations} = data;

describe('the console opens each object in Try it', () => {
  test('every collection finds its read operation and page, with the ID prefilled', () => {
    const objects: Record<ConsoleCollection, Record<string, string>> = {
      orders: {merchantOrderNo: 'ORD-1'},
      refunds: {merchantRefundNo: 'RF-1'},
      WALLET: {merchantTransferNo: 'TR-1'},
      BANK: {merchantTransferNo: 'TR-2'},
      CARD: {merchantTransferNo: 'TR-3'},
      events: {eventType: 'ORDER.PAID'},
    };
    const found = Object.fromEntries(
      (Object.keys(consoleCollections) as ConsoleCollection[]).map((collection) => [
        collection,
        openLink(operations, collection, objects[collection]),
      ]),
    );
    assert.deepEqual(Object.fromEntries(Object.entries(found).map(([collection, link]) => [collection, link?.summary])), {
      orders: 'Retrieve order detail',
      refunds: 'Query a refund',
      WALLET: operations.find((operation) => operation.operationId === 'queryTransfer')?.summary,
      BANK: operations.find((operation) => operation.operationId === 'queryTransferToBank')?.summary,
      CARD: operations.find((operation) => operation.operationId === 'queryBankCardTransfer')?.summary,
      events: 'List events',
    });
    assert.equal(found['orders']?.href, '/docs/retrieveorderdetail?try-it&merchantOrderNo=ORD-1');
    assert.match(found['events']?.href ?? '', /\?try-it&eventType=ORDER\.PAID$/);
  });

  test('a refund Revoke order started has no merchantRefundNo, so no link', () => {
    assert.equal(openLink(operations, 'refunds', {refundId: 'rf_1', origin: 'REVOKE'}), undefined);
  });
});

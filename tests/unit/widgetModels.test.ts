/**
 * The widgets' models without React: the notification simulator's and the sandbox console's state, checks
 * and sentences (src/components/widgets/{NotificationSimulatorPanel,SandboxConsole}/model.ts).
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {
  checkSimulatorInput,
  initialSimulatorState,
  localDeliveryOf,
  probeNotificationId,
  producedOf,
  simulatorReducer,
  type Produced,
} from '../../src/components/widgets/NotificationSimulatorPanel/model';
import {consoleReducer, initialConsoleState, pageRows, readSeconds, says} from '../../src/components/widgets/SandboxConsole/model';
import type {ConsoleView} from '../../src/components/widgets/SandboxConsole/view';
import {clockStepLimitSeconds} from '../../src/sandbox/actions';

const paid = {name: 'paid', value: {eventType: 'ORDER.PAID', data: {merchantOrderNo: 'ORD-1'}}};
const failed = {name: 'failed', value: {eventType: 'ORDER.FAILED', data: {merchantOrderNo: 'ORD-2'}}};
const now = new Date('2026-11-26T12:00:00Z');

describe('the notification simulator model', () => {
  test("starts from the first scenario's example; choosing another scenario starts over from its example", () => {
    let state = initialSimulatorState(paid, 'https://shop.example.com/payments/notify');
    assert.equal(state.scenarioName, 'paid');
    assert.deepEqual(JSON.parse(state.data), {merchantOrderNo: 'ORD-1'});
    state = simulatorReducer(state, {type: 'dataEdited', data: '{"x": 1}'});
    state = simulatorReducer(state, {type: 'checked', errors: {data: 'bad'}});
    state = simulatorReducer(state, {type: 'local', local: {status: 'delivering'}});
    state = simulatorReducer(state, {type: 'scenarioChosen', name: 'failed', example: failed.value});
    assert.deepEqual(
      {
        name: state.scenarioName,
        data: JSON.parse(state.data),
        errors: state.errors,
        outcome: state.outcome.status,
        local: state.local.status,
      },
      {name: 'failed', data: {merchantOrderNo: 'ORD-2'}, errors: {}, outcome: 'idle', local: 'idle'},
    );
    assert.equal(state.notifyUrl, 'https://shop.example.com/payments/notify', 'the URL the reader typed stays');
  });

  test('a produce run: bad input shows nothing produced, good input runs, then produced or failed', () => {
    let state = simulatorReducer(initialSimulatorState(paid, 'u'), {type: 'local', local: {status: 'failed', message: 'x'}});
    state = simulatorReducer(state, {type: 'produceStarted'});
    assert.equal(state.local.status, 'idle', "a new notification drops the last one's local delivery");
    assert.equal(simulatorReducer(state, {type: 'checked', errors: {notifyUrl: 'bad'}}).outcome.status, 'idle');
    state = simulatorReducer(state, {type: 'checked', errors: {}});
    assert.equal(state.outcome.status, 'running');
    const failedRun = simulatorReducer(state, {type: 'produceFailed', message: 'IndexedDB is off'});
    assert.deepEqual(failedRun.outcome, {status: 'failed', message: 'The sandbox in this browser could not produce it: IndexedDB is off'});
    const produced = simulatorReducer(state, {type: 'produced', produced: {notificationId: 'ntf_1'} as Produced});
    assert.equal(produced.outcome.status === 'produced' && produced.outcome.produced.notificationId, 'ntf_1');
  });

  test('checks the data against the contract (through the validator it is given) and the URL', () => {
    const seen: unknown[] = [];
    const contract = {
      eventType: 'ORDER.PAID',
      now,
      problems: (notification: unknown) => (
        seen.push(notification),
        (notification as {data: {amount?: unknown}}).data.amount === 'x' ? ['/data/amount must be object'] : []
      ),
    };
    const good = checkSimulatorInput({data: '{"merchantOrderNo": "ORD-1"}', notifyUrl: ' https://shop.example.com/n '}, contract);
    assert.deepEqual(good, {errors: {}, checked: {data: {merchantOrderNo: 'ORD-1'}, notifyUrl: 'https://shop.example.com/n'}});
    assert.deepEqual(
      seen[0],
      {notificationId: probeNotificationId, eventType: 'ORDER.PAID', createdAt: '2026-11-26T12:00:00Z', data: {merchantOrderNo: 'ORD-1'}},
      'checked as a whole notification',
    );
    assert.match(
      checkSimulatorInput({data: '{"amount": "x"}', notifyUrl: 'https://shop.example.com'}, contract).errors['data'] ?? '',
      /^The contract refuses this data:\n• \/data\/amount must be object$/,
    );
    assert.match(
      checkSimulatorInput({data: '[1]', notifyUrl: 'https://shop.example.com'}, contract).errors['data'] ?? '',
      /must be a JSON object/,
    );
    assert.match(
      checkSimulatorInput({data: '{', notifyUrl: 'https://shop.example.com'}, contract).errors['data'] ?? '',
      /^The data is not valid JSON: /,
    );
    const badUrls = checkSimulatorInput({data: '{}', notifyUrl: 'ftp://shop.example.com'}, contract);
    assert.equal(badUrls.checked, undefined);
    assert.match(badUrls.errors['notifyUrl'] ?? '', /must start with https:\/\//);
    assert.match(checkSimulatorInput({data: '{}', notifyUrl: 'shop'}, contract).errors['notifyUrl'] ?? '', /must be a whole URL/);
  });

  test('a produced notification: its raw request, timestamp check, and the local request carries data only when edited', () => {
    const delivery = {
      seq: 1,
      url: 'https://shop.example.com/n?x=1',
      headers: {
        'X-Client-Id': 'sandbox-merchant-0001',
        'X-Timestamp': '2026-11-26T11:59:00Z',
        'X-Nonce': 'n0nce-0123456789abcdef',
        'X-Signature': 'algorithm=RSA-SHA256, keyVersion=1, signature=c2ln',
      },
      body: '{"a":1}',
      receivedAt: '2026-11-26T11:59:00Z',
    };
    const base = {
      operationId: 'paymentResultNotification',
      scenario: paid,
      simulated: {notificationId: 'ntf_1', eventType: 'ORDER.PAID'},
      delivery,
      signatureVerifies: true,
      problems: [],
      now,
      windowSeconds: 300,
      clientId: 'sandbox-merchant-0001',
      localOrigin: 'http://127.0.0.1:4010',
    };
    const unedited = producedOf({...base, checked: {data: {merchantOrderNo: 'ORD-1'}, notifyUrl: delivery.url}});
    assert.equal(unedited.timestampFresh, true);
    assert.equal(unedited.timestamp, '2026-11-26T11:59:00Z');
    assert.deepEqual(unedited.localRequest, {operationId: 'paymentResultNotification', scenario: 'paid', notifyUrl: delivery.url});
    assert.match(unedited.rawRequest, /^POST \/n\?x=1 HTTP\/1\.1/);
    assert.match(unedited.commands.simulate, /127\.0\.0\.1:4010\/_sandbox\/notifications\/simulate/);
    const edited = producedOf({
      ...base,
      now: new Date('2026-11-26T13:00:00Z'),
      checked: {data: {merchantOrderNo: 'ORD-9'}, notifyUrl: delivery.url},
    });
    assert.deepEqual(edited.localRequest.data, {merchantOrderNo: 'ORD-9'});
    assert.equal(edited.timestampFresh, false, 'an hour later the timestamp is outside the window');
  });

  test("the local sandbox's answer: refused with its code and message, or delivered with this notification's log entries only", () => {
    assert.deepEqual(localDeliveryOf({ok: false, status: 400, json: {code: 'INVALID_PARAMETER', message: 'nope'}}, undefined), {
      status: 'failed',
      message: 'The local sandbox refused it: 400 INVALID_PARAMETER: nope',
    });
    assert.deepEqual(localDeliveryOf({ok: true, status: 200, json: {}}, undefined), {
      status: 'failed',
      message: 'The local sandbox refused it: 200 : no notificationId in the answer',
    });
    const entry = (notificationId: string) => ({
      clientId: 'c',
      notificationId,
      eventType: 'ORDER.PAID',
      url: 'u',
      at: 't',
      acknowledged: true,
    });
    const delivered = localDeliveryOf(
      {ok: true, status: 200, json: {notificationId: 'ntf_2'}},
      {deliveries: [entry('ntf_1'), entry('ntf_2')]},
    );
    assert.equal(delivered.status, 'delivered');
    assert.deepEqual(delivered.status === 'delivered' && delivered.entries.map((one) => one.notificationId), ['ntf_2']);
  });
});

describe('the sandbox console model', () => {
  test('the seconds field takes a whole number from 1 to the one clock-step limit', () => {
    assert.deepEqual(readSeconds(' 90 '), {ok: true, seconds: 90, label: '90 seconds'});
    assert.deepEqual(readSeconds('1'), {ok: true, seconds: 1, label: '1 second'});
    assert.deepEqual(readSeconds(String(clockStepLimitSeconds)), {
      ok: true,
      seconds: clockStepLimitSeconds,
      label: `${clockStepLimitSeconds} seconds`,
    });
    for (const bad of ['0', '1.5', '-3', 'ten', '', String(clockStepLimitSeconds + 1)]) {
      assert.deepEqual(
        readSeconds(bad),
        {ok: false, message: `Give a whole number of seconds from 1 to ${clockStepLimitSeconds} (a year).`},
        bad,
      );
    }
  });

  test('state: a read shows its merchant; the status line follows an action; long lists grow by a page and start short again', () => {
    let state = consoleReducer(initialConsoleState, {type: 'read', view: {clientId: 'shop-ci'} as ConsoleView});
    assert.equal(state.clientId, 'shop-ci');
    state = consoleReducer(state, {type: 'busy', text: 'Resetting…'});
    assert.deepEqual(state.status, {kind: 'busy', text: 'Resetting…'});
    assert.deepEqual(consoleReducer(state, {type: 'done'}).status, {kind: 'idle'});
    assert.deepEqual(consoleReducer(state, {type: 'done', text: says.reset}).status, {kind: 'done', text: says.reset});
    state = consoleReducer(consoleReducer(state, {type: 'moreLedger'}), {type: 'moreInbox'});
    state = consoleReducer(state, {type: 'moreInbox'});
    assert.deepEqual([state.ledgerShown, state.inboxShown], [2 * pageRows, 3 * pageRows]);
    state = consoleReducer(state, {type: 'listsReset'});
    assert.deepEqual([state.ledgerShown, state.inboxShown], [pageRows, pageRows]);
    state = consoleReducer(state, {type: 'importError', message: 'x was not imported'});
    assert.equal(consoleReducer(state, {type: 'importError'}).importError, undefined);
    assert.equal(consoleReducer(state, {type: 'confirmReset', open: true}).confirmingReset, true);
    assert.match(
      consoleReducer(state, {type: 'loadFailed', message: 'blocked'}).loadError ?? '',
      /^The sandbox in this browser could not start: blocked\. IndexedDB may be off/,
    );
  });

  test('the sentences each action ends with', () => {
    assert.equal(
      says.advanced('1 day', {jobsRun: 1, now: '2026-11-27T12:00:00Z'}),
      'Advanced the clock by 1 day: 1 job ran. Sandbox time is now 2026-11-27T12:00:00Z.',
    );
    assert.equal(says.advanced('1 hour', {jobsRun: 3, now: 'n'}), 'Advanced the clock by 1 hour: 3 jobs ran. Sandbox time is now n.');
    assert.equal(says.exportFileName('2026-11-26T12:00:00.000Z'), 'veloxa-sandbox-2026-11-26.json');
    assert.equal(
      says.imported('s.json', {merchants: 1, records: 4, notifications: 2}),
      'Imported s.json: 1 merchant, 4 records, 2 notifications.',
    );
    assert.equal(
      says.imported('s.json', {merchants: 2, records: 4, notifications: 0}),
      'Imported s.json: 2 merchants, 4 records, 0 notifications.',
    );
    assert.equal(says.failed(new Error('quota')), 'That did not work: quota');
  });
});

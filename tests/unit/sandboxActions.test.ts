/**
 * The shopper, clock and control actions are declared once (src/sandbox/actions.ts): every one is a route
 * of the local server, listed by --help, taking exactly its declared members, and runs in page through the
 * same declaration. An action added to the list and missing from a host fails here.
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {bodyMembers, clockStepLimitSeconds, pathMembers, sandboxActions, shopperFixtures} from '../../src/sandbox/actions';
import {inPageTarget} from '../../src/sandbox/client/inPage';
import {fixedClock} from '../../src/sandbox/engine/clock';
import type {SandboxEngine} from '../../src/sandbox/engine/engine';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {controlEndpoints, startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';

let engine: SandboxEngine;
let server: SandboxServer;

before(async () => {
  engine = await createNodeEngine({clock: fixedClock(Date.parse('2026-11-26T12:00:00Z'))});
  server = await startSandboxServer({engine, port: 0});
});

after(async () => {
  await server.close();
});

describe('declared sandbox actions', () => {
  test('names and routes are unique, and every {member} of a route is a declared path member', () => {
    assert.equal(new Set(sandboxActions.map((action) => action.name)).size, sandboxActions.length);
    assert.equal(new Set(sandboxActions.map((action) => `${action.method} ${action.path}`)).size, sandboxActions.length);
    for (const action of sandboxActions) {
      const inRoute = [...action.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      assert.deepEqual(inRoute, pathMembers(action), action.name);
    }
  });

  test('every action is a route of the local server and listed by --help', async () => {
    for (const action of sandboxActions) {
      assert.ok(
        controlEndpoints.some((endpoint) => endpoint.method === action.method && endpoint.path === action.path),
        `${action.name} is in --help`,
      );
      const route = action.path.replace(/\{[^}]+\}/g, 'probe');
      // A member no action declares: the route answers with the members this action takes, so it is this action's route.
      const answer = await fetch(`${server.url}${route}`, {
        method: action.method,
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({notAMember: 1}),
      });
      const json = (await answer.json()) as {code: string; message: string};
      assert.equal(answer.status, 400, `${action.name}: ${json.message}`);
      assert.equal(json.code, 'INVALID_PARAMETER', action.name);
      assert.equal(
        json.message,
        `Unknown member "notAMember"; this endpoint takes ${bodyMembers(action).join(', ') || 'none'}.`,
        action.name,
      );
    }
  });

  test("every action runs in page from the same declaration: a missing member is refused with the server's sentence", async () => {
    const target = inPageTarget(engine);
    for (const action of sandboxActions) {
      const required = Object.entries(action.input).find(([, spec]) => !('optional' in spec));
      if (!required) continue;
      const result = await target.act(action.name, {});
      assert.equal(result.ok, false, action.name);
      if (!result.ok) assert.equal(result.code, 'INVALID_PARAMETER', action.name);
    }
    const advanced = await target.act('clock.advance', {seconds: 60});
    assert.deepEqual(advanced, {ok: true, value: {now: '2026-11-26T12:01:00Z', jobsRun: 0}});
    const tooFar = await target.act('clock.advance', {seconds: clockStepLimitSeconds + 1});
    assert.deepEqual(tooFar, {
      ok: false,
      code: 'INVALID_PARAMETER',
      message: `seconds is required: a number from 0 to ${clockStepLimitSeconds}.`,
    });
  });

  test('the HTTP route and the in-page target answer an action alike', async () => {
    const {spec} = sandboxFiles();
    const clientId = spec.sandbox.merchant.clientId;
    const overHttp = await fetch(`${server.url}/_sandbox/shopper/auth-code`, {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({clientId, wallet: shopperFixtures(spec.sandbox).wallet.phone}),
    });
    const inPage = await inPageTarget(engine).act('shopper.authCode', {clientId, wallet: shopperFixtures(spec.sandbox).wallet.phone});
    assert.equal(overHttp.status, 200);
    assert.ok(inPage.ok);
    assert.deepEqual(Object.keys((await overHttp.json()) as object), Object.keys(inPage.value as object));
  });

  test('the shopper fixtures come from the sandbox data: an active wallet, a card that pays and one that is declined', () => {
    const fixtures = shopperFixtures(sandboxFiles().spec.sandbox);
    const {cards} = sandboxFiles().spec.sandbox.cards;
    assert.equal(cards.find((card) => card.number === fixtures.payingCard)?.behavior, 'ENDINGS');
    assert.equal((cards.find((card) => card.number === fixtures.decliningCard)?.behavior as {kind?: string}).kind, 'DECLINED');
    assert.ok(sandboxFiles().spec.sandbox.wallets.some((wallet) => wallet.phone === fixtures.wallet.phone && wallet.status === 'ACTIVE'));
  });
});

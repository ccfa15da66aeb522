/** The request key (values.ts): the digest started before the call's turn is the one the call would make, and only for its body. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {canonicalJson} from '../../src/sandbox/engine/spec';
import {requestKeyOf, startRequestKey} from '../../src/sandbox/engine/values';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

test('a body digested early gives the key of its canonical JSON; another value is digested on its own', async () => {
  const raw = '{"scene":"QR_PAY","merchantOrderNo":"A-1","amount":{"value":100,"currency":"USD"}}';
  const early = startRequestKey(raw);
  assert.ok(early);
  const body = JSON.parse(raw) as Record<string, never>;
  assert.equal(requestKeyOf(body, early), early.key, 'the early digest is taken, not made again');
  assert.equal(await requestKeyOf(body, early), sha256(canonicalJson(body)));
  assert.equal(await requestKeyOf(body), await requestKeyOf(body, early));
  const other = {merchantOrderNo: 'A-1', body};
  assert.equal(await requestKeyOf(other, early), sha256(canonicalJson(other)), 'a value other than the body is not given its key');
  assert.equal(startRequestKey(''), undefined);
  assert.equal(startRequestKey('not json'), undefined);
  assert.equal(startRequestKey('[1]'), undefined);
  assert.equal(startRequestKey('{"__proto__":{}}'), undefined);
});

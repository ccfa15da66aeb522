/**
 * The published contract keeps discriminator mappings and one named (common + scene) schema per Create order
 * branch, for generated clients; the portal's validators and pages read the factored equivalent
 * (src/contract/sharedParts.ts).
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {loadContract} from '../../src/contract/node/loadContract';
import {createContractValidator} from '../../src/contract/validator';
import {factorSharedParts, validatorDocument} from '../../src/contract/sharedParts';

const {document} = loadContract(path.join(__dirname, '..', '..', 'api', 'openapi.yaml'));
const schemas = document.components?.schemas ?? {};
const createOrder = '/components/schemas/CreateOrderRequest';

describe('discriminated one-ofs', () => {
  test('the published contract maps every tag to a schema, for generated clients', () => {
    for (const name of ['CreateOrderRequest', 'Payee', 'BankAccount']) {
      const mapping = schemas[name]?.discriminator?.mapping ?? {};
      assert.ok(Object.keys(mapping).length >= 2, `${name} has no discriminator mapping`);
      for (const target of Object.values(mapping))
        assert.ok(schemas[target.replace('#/components/schemas/', '')], `${name} maps to a missing ${target}`);
    }
  });

  test('the validators read it without mapping, the common part factored out', () => {
    const derived = validatorDocument(document).components?.schemas?.['CreateOrderRequest'];
    assert.equal(derived?.oneOf, undefined);
    const inner = derived?.allOf?.find((part) => part.oneOf);
    assert.deepEqual(inner?.discriminator, {propertyName: 'scene'});
    assert.equal(inner?.oneOf?.length, 9);
    assert.ok(schemas['CreateOrderRequest']?.discriminator?.mapping, 'deriving changed the published document');
    assert.equal(factorSharedParts(schemas['Payee'] ?? {}, document), schemas['Payee'], 'a one-of without a shared part is left as it is');
  });

  test('an invalid body gets the errors of its own scene only', () => {
    const validator = createContractValidator(document);
    const body = {merchantOrderNo: 'ORD-20261126-1', amount: {value: 100, currency: 'USD'}, scene: 'HOSTED_PAYPAGE', subject: 'x'};
    assert.deepEqual(validator.problems(createOrder, body), ["(top level) must have required property 'returnUrl'"]);
    assert.deepEqual(validator.problems(createOrder, {...body, returnUrl: 'https://shop.example.com/r'}), []);
    assert.deepEqual(validator.problems('/components/schemas/Payee', {payeeType: 'PHONE', walletId: '880000000003'}).length > 0, true);
  });
});

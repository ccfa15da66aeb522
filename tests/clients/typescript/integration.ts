/**
 * A merchant's integration written the way openapi-typescript and openapi-fetch users write one: types
 * generated from the published contract (./generated/veloxa.d.ts, written by ../typescriptClient.test.ts),
 * a client with one signing middleware, and call sites that pass only what the operation is about. Type-checked
 * with `tsc --strict` (./tsconfig.json), then run against the local sandbox. Nothing here names a schema or
 * casts a body: a scene field the generated types lose is a type error.
 */
import createClient, {type Middleware} from 'openapi-fetch';
import {
  canonicalString,
  formatSignatureHeader,
  parseSignatureHeader,
  responseCanonicalString,
  signCanonical,
  verifyCanonical,
} from '../../../src/lib/signing';
import type {components, paths} from './generated/veloxa';

export interface MerchantKeys {
  readonly clientId: string;
  readonly privateKey: CryptoKey;
  readonly providerPublicKey: CryptoKey;
  /** The timestamp to sign with: the sandbox clock in tests, `new Date()` in production. */
  readonly now: () => Promise<string>;
}

/** Signs every request (X-Client-Id, X-Timestamp, X-Nonce, X-Signature) and refuses a response whose signature does not verify. */
export function signingMiddleware(keys: MerchantKeys): Middleware {
  const signed = new Map<string, {method: string; pathWithQuery: string; clientId: string; timestamp: string; nonce: string}>();
  return {
    async onRequest({request, id}) {
      const url = new URL(request.url);
      const body = await request.clone().text();
      const input = {
        method: request.method,
        pathWithQuery: url.pathname + url.search,
        clientId: keys.clientId,
        timestamp: await keys.now(),
        nonce: crypto.randomUUID(),
      };
      const signature = await signCanonical(canonicalString({...input, body}), keys.privateKey);
      signed.set(id, input);
      request.headers.set('X-Client-Id', input.clientId);
      request.headers.set('X-Timestamp', input.timestamp);
      request.headers.set('X-Nonce', input.nonce);
      request.headers.set('X-Signature', formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: 1, signature}));
      return request;
    },
    async onResponse({response, id}) {
      const request = signed.get(id);
      signed.delete(id);
      if (!request) throw new Error('A response to a request this middleware did not sign.');
      const body = await response.clone().text();
      const header = parseSignatureHeader(response.headers.get('X-Signature') ?? '');
      const canonical = responseCanonicalString({
        request,
        status: response.status,
        timestamp: response.headers.get('X-Timestamp') ?? '',
        nonce: response.headers.get('X-Nonce') ?? '',
        body,
      });
      if (!(await verifyCanonical(canonical, header.signature, keys.providerPublicKey)))
        throw new Error(`The ${response.status} response to ${request.method} ${request.pathWithQuery} is not signed by the provider.`);
      return response;
    },
  };
}

export function veloxaClient(baseUrl: string, keys: MerchantKeys) {
  const client = createClient<paths>({baseUrl});
  client.use(signingMiddleware(keys));
  return client;
}

type Client = ReturnType<typeof veloxaClient>;

/** Create order for the hosted pay page, with the scene's own fields next to the common ones. */
export async function createHostedOrder(client: Client, merchantOrderNo: string) {
  const {data, error} = await client.POST('/orders', {
    body: {
      merchantOrderNo,
      amount: {value: 1250, currency: 'USD'},
      scene: 'HOSTED_PAYPAGE',
      subject: 'Café × 2 ☕',
      returnUrl: `https://shop.example.com/orders/${merchantOrderNo}`,
      locale: 'en-US',
    },
  });
  if (error) throw new Error(`Create order: ${error.code} ${error.message}`);
  return data.data;
}

/** Create order at a counter: the dynamic QR scene's own field. */
export async function createQrOrder(client: Client, merchantOrderNo: string) {
  const {data, error} = await client.POST('/orders', {
    body: {merchantOrderNo, amount: {value: 4800, currency: 'USD'}, scene: 'DYNAMIC_QR', subject: 'Two coffees', qrExpiresInSeconds: 120},
  });
  if (error) throw new Error(`Create order: ${error.code} ${error.message}`);
  return data.data;
}

/** Transfer to a wallet, by wallet ID. */
export async function payWallet(client: Client, merchantTransferNo: string) {
  const payee: components['schemas']['Payee'] = {payeeType: 'WALLET_ID', walletId: '880000000003'};
  const {data, error} = await client.POST('/transfers', {
    body: {merchantTransferNo, amount: {value: 2500, currency: 'EUR'}, payee, remark: 'Referral reward'},
  });
  if (error) throw new Error(`Transfer to wallet: ${error.code} ${error.message}`);
  return data.data;
}

/** A payout to a bank account by IBAN: price it, then send it with the quote. */
export async function payIban(client: Client, merchantTransferNo: string) {
  const quote = await client.POST('/bank-transfers/quotes', {
    body: {sourceCurrency: 'USD', destinationCountry: 'DE', destinationCurrency: 'EUR', sourceAmount: {value: 10000, currency: 'USD'}},
  });
  if (quote.error) throw new Error(`Rate calculator: ${quote.error.code} ${quote.error.message}`);
  const {data, error} = await client.POST('/bank-transfers', {
    body: {
      merchantTransferNo,
      quoteId: quote.data.data.quoteId,
      destinationCurrency: 'EUR',
      amount: {value: 10000, currency: 'USD'},
      beneficiary: {name: 'Lena Hartmann', country: 'DE', account: {accountType: 'IBAN', iban: 'DE89370400440532013000'}},
      purpose: 'SUPPLIER_PAYMENT',
    },
  });
  if (error) throw new Error(`Transfer to bank: ${error.code} ${error.message}`);
  return data.data;
}

/** Reading an order back; an unknown one is a typed error, not an exception. */
export async function orderStatus(client: Client, merchantOrderNo: string) {
  const {data, error} = await client.GET('/orders/{merchantOrderNo}', {params: {path: {merchantOrderNo}}});
  return error ? {code: error.code} : {code: data.code, status: data.data.status};
}

/** What the types must refuse: each line is a compile error, or tsc reports the directive as unused. */
export function refusedByTheTypes(client: Client) {
  // Each call stays on one line (prettier-ignore): tsc reports the error on the call's line, right under its directive.
  // prettier-ignore
  // @ts-expect-error The hosted pay page needs its returnUrl.
  void client.POST('/orders', {body: {merchantOrderNo: 'ORD-1', amount: {value: 1, currency: 'USD'}, scene: 'HOSTED_PAYPAGE', subject: 'x'}});
  // prettier-ignore
  // @ts-expect-error A scene's field belongs to that scene only: parentOrigin is the iframe's.
  void client.POST('/orders', {body: {merchantOrderNo: 'ORD-1', amount: {value: 1, currency: 'USD'}, scene: 'DYNAMIC_QR', subject: 'x', parentOrigin: 'https://shop.example.com'}});
  // @ts-expect-error A wallet ID payee has no phone number.
  const payee: components['schemas']['Payee'] = {payeeType: 'WALLET_ID', phoneNumber: '+10000000004'};
  return payee;
}

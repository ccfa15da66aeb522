/**
 * The published signing test vectors (api/test-vectors/signing.json): their
 * inputs are defined here, and `npm run vectors` writes the file with the
 * canonical strings and signatures computed by src/lib/signing.ts. The unit
 * tests check every committed signature with WebCrypto, node:crypto and
 * openssl, so the file cannot drift from this definition or from the keys.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {
  canonicalString,
  formatSignatureHeader,
  importPrivateKey,
  responseCanonicalString,
  signCanonical,
  type CanonicalInput,
} from '../src/lib/signing';

export const vectorDir = path.resolve(__dirname, '..', 'api', 'test-vectors');
export const vectorFile = path.join(vectorDir, 'signing.json');

export type Signer = 'merchant' | 'provider';

export interface KeyPair {
  readonly privateKeyFile: string;
  readonly publicKeyFile: string;
  readonly keyVersion: number;
}

export const vectorKeys: Readonly<Record<Signer, KeyPair>> = {
  merchant: {privateKeyFile: 'merchant-test-private.pem', publicKeyFile: 'merchant-test-public.pem', keyVersion: 1},
  provider: {privateKeyFile: 'provider-test-private.pem', publicKeyFile: 'provider-test-public.pem', keyVersion: 1},
};

interface VectorInputBase {
  readonly name: string;
  readonly description: string;
}

/** A request to the API (signed by the merchant) or a notification (signed by the provider). */
export interface RequestVectorInput extends VectorInputBase {
  readonly kind: 'request' | 'notification';
  readonly request: CanonicalInput;
}

/** A response, signed by the provider and bound to the request it answers. */
export interface ResponseVectorInput extends VectorInputBase {
  readonly kind: 'response';
  readonly request: CanonicalInput;
  readonly response: {readonly status: number; readonly timestamp: string; readonly nonce: string; readonly body: string};
}

export type VectorInput = RequestVectorInput | ResponseVectorInput;

export type Vector = VectorInput & {
  readonly signer: Signer;
  readonly keyVersion: number;
  readonly canonicalString: string;
  readonly signature: string;
  readonly signatureHeader: string;
};

export interface VectorFile {
  readonly description: string;
  readonly keys: Readonly<Record<Signer, KeyPair>>;
  readonly vectors: readonly Vector[];
}

const clientId = 'sandbox-merchant-0001';
const json = (value: unknown): string => JSON.stringify(value);

const asciiOrder = {
  merchantOrderNo: 'ORD-20250601-0001',
  amount: {value: 1250, currency: 'USD'},
  scene: 'HOSTED_PAYPAGE',
  subject: 'Order ORD-20250601-0001',
  notifyUrl: 'https://shop.example.com/payments/notify',
  returnUrl: 'https://shop.example.com/orders/ORD-20250601-0001',
};

const postAscii: CanonicalInput = {
  method: 'POST',
  pathWithQuery: '/v1/orders',
  clientId,
  timestamp: '2025-06-01T08:30:00Z',
  nonce: '5f2b8c1e-4a7d-4e9b-9c3f-1d2e3f4a5b6c',
  body: json(asciiOrder),
};

const getWithQuery: CanonicalInput = {
  method: 'GET',
  pathWithQuery: '/v1/orders?updatedFrom=2025-06-01T00%3A00%3A00Z&updatedTo=2025-06-02T00%3A00%3A00Z&status=PAID&pageSize=50',
  clientId,
  timestamp: '2025-06-02T06:00:00Z',
  nonce: '0c6a1f3e-92b4-4d57-8e21-6b7f0a9c3d18',
  body: '',
};

const redeliver: CanonicalInput = {
  method: 'POST',
  pathWithQuery: '/v1/events/ntf_9zY8xW7vU6tS5rQ4pO3n/redeliver',
  clientId,
  timestamp: '2025-06-03T09:15:00Z',
  nonce: 'b71d3c52-08e6-4f1a-a9c4-2e5d7f6b8a90',
  body: '',
};

export const vectorInputs: readonly VectorInput[] = [
  {
    name: 'request-post',
    kind: 'request',
    description: 'Create order: a POST with an ASCII JSON body. The worked example of the integration guide.',
    request: postAscii,
  },
  {
    name: 'request-post-non-ascii',
    kind: 'request',
    description:
      'Create order with a subject outside ASCII: the signature covers the UTF-8 bytes of the canonical string, so "é" is two bytes and "☕" three.',
    request: {
      method: 'POST',
      pathWithQuery: '/v1/orders',
      clientId,
      timestamp: '2025-06-01T08:31:00Z',
      nonce: '7d4e2a90-3b1c-4f6e-8a5d-c0b9e8f7a612',
      body: json({
        merchantOrderNo: 'ORD-20250601-0002',
        amount: {value: 480, currency: 'EUR'},
        scene: 'HOSTED_PAYPAGE',
        subject: 'Café crème × 2 ☕ Zürich',
        notifyUrl: 'https://shop.example.com/payments/notify',
        returnUrl: 'https://shop.example.com/orders/ORD-20250601-0002',
      }),
    },
  },
  {
    name: 'request-get-query',
    kind: 'request',
    description:
      'Query order page: a GET with a query string and no body. The colons of the timestamps are sent and signed as %3A, and the string ends in a line feed after the nonce because the body line is empty.',
    request: getWithQuery,
  },
  {
    name: 'request-post-no-body',
    kind: 'request',
    description: 'Redeliver event: a POST without a body. Like a GET, its last line is empty.',
    request: redeliver,
  },
  {
    name: 'response-success',
    kind: 'response',
    description:
      "The provider's 200 response to request-post. Its canonical string binds the request (method, target, client ID, the request's nonce) and the HTTP status to the response's own timestamp, nonce and body.",
    request: postAscii,
    response: {
      status: 200,
      timestamp: '2025-06-01T08:30:01Z',
      nonce: 'e4b8c2d6-1a3f-4e5b-9c7d-8f0a2b4c6d8e',
      body: json({
        code: 'SUCCESS',
        message: 'Success',
        requestId: 'req_3kT9xQ2mW7bN4vL8pZ1a',
        data: {
          order: {
            merchantOrderNo: 'ORD-20250601-0001',
            orderId: 'ord_7Fh2Kp9LmQ4xR8sT',
            status: 'PENDING',
            scene: 'HOSTED_PAYPAGE',
            amount: {value: 1250, currency: 'USD'},
            refundedAmount: {value: 0, currency: 'USD'},
            refundableAmount: {value: 0, currency: 'USD'},
            subject: 'Order ORD-20250601-0001',
            createdAt: '2025-06-01T08:30:01Z',
            updatedAt: '2025-06-01T08:30:01Z',
            version: 1,
            expiresAt: '2025-06-01T09:00:01Z',
          },
          nextAction: {type: 'REDIRECT', cashierUrl: 'https://sandbox-cashier.example.com/pay/ord_7Fh2Kp9LmQ4xR8sT?t=c2Vzc2lvbi0x'},
        },
      }),
    },
  },
  {
    name: 'response-error',
    kind: 'response',
    description:
      "The provider's 404 response to request-post-no-body. Error responses are signed the same way; verify them before you branch on the code.",
    request: redeliver,
    response: {
      status: 404,
      timestamp: '2025-06-03T09:15:00Z',
      nonce: '3a9f6e1c-5d2b-4c8a-b7e0-f1d2c3b4a596',
      body: json({
        code: 'EVENT_NOT_FOUND',
        message: 'No event ntf_9zY8xW7vU6tS5rQ4pO3n in the last 30 days',
        requestId: 'req_7pL2mN9qR4sT6vW8xY1z',
      }),
    },
  },
  {
    name: 'response-pre-authentication-error',
    kind: 'response',
    description:
      "The provider's 400 answer to a GET /v1/balances sent with no X-Client-Id, no X-Nonce and no signature (a bare curl). Answers refused before authentication are signed too: a header the request lacked is the empty string, so lines 3 and 6 are empty, and every value the request did carry is taken as sent, valid or not.",
    request: {method: 'GET', pathWithQuery: '/v1/balances', clientId: '', timestamp: '', nonce: '', body: ''},
    response: {
      status: 400,
      timestamp: '2025-06-04T10:00:00Z',
      nonce: '9b2e4c6a-8d0f-4a1b-b3c5-d7e9f1a3b5c7',
      body: json({
        code: 'INVALID_PARAMETER',
        message: 'The X-Client-Id header is missing.',
        requestId: 'req_2bN8vC4xZ6mL0kJ9hG7f',
      }),
    },
  },
  {
    name: 'notification',
    kind: 'notification',
    description:
      "A payment result notification (ORDER.PAID) delivered to https://shop.example.com/payments/notify. The target is the path of the notifyUrl as registered, and X-Client-Id is the merchant's own client ID.",
    request: {
      method: 'POST',
      pathWithQuery: '/payments/notify',
      clientId,
      timestamp: '2025-06-01T08:34:42Z',
      nonce: 'c5e7a9b1-2d4f-4a6c-8e0b-1f3a5c7e9b2d',
      body: json({
        notificationId: 'ntf_1aB2cD3eF4gH5iJ6kL7m',
        eventType: 'ORDER.PAID',
        createdAt: '2025-06-01T08:34:41Z',
        data: {
          merchantOrderNo: 'ORD-20250601-0001',
          orderId: 'ord_7Fh2Kp9LmQ4xR8sT',
          status: 'PAID',
          scene: 'HOSTED_PAYPAGE',
          amount: {value: 1250, currency: 'USD'},
          refundedAmount: {value: 0, currency: 'USD'},
          refundableAmount: {value: 1250, currency: 'USD'},
          subject: 'Order ORD-20250601-0001',
          paymentMethod: 'CARD',
          lastAttempt: {status: 'SUCCEEDED', paymentMethod: 'CARD', at: '2025-06-01T08:34:40Z'},
          createdAt: '2025-06-01T08:30:01Z',
          updatedAt: '2025-06-01T08:34:40Z',
          version: 2,
          expiresAt: '2025-06-01T09:00:01Z',
          paidAt: '2025-06-01T08:34:40Z',
        },
      }),
    },
  },
];

export function signerOf(input: VectorInput): Signer {
  return input.kind === 'request' ? 'merchant' : 'provider';
}

export function canonicalOf(input: VectorInput): string {
  return input.kind === 'response' ? responseCanonicalString({request: input.request, ...input.response}) : canonicalString(input.request);
}

export async function buildVectorFile(): Promise<VectorFile> {
  const privateKeys = {
    merchant: await importPrivateKey(readFileSync(path.join(vectorDir, vectorKeys.merchant.privateKeyFile), 'utf8')),
    provider: await importPrivateKey(readFileSync(path.join(vectorDir, vectorKeys.provider.privateKeyFile), 'utf8')),
  };
  const vectors: Vector[] = [];
  for (const input of vectorInputs) {
    const signer = signerOf(input);
    const canonical = canonicalOf(input);
    const signature = await signCanonical(canonical, privateKeys[signer]);
    const {keyVersion} = vectorKeys[signer];
    vectors.push({
      ...input,
      signer,
      keyVersion,
      canonicalString: canonical,
      signature,
      signatureHeader: formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion, signature}),
    });
  }
  return {
    description:
      'Veloxa Pay signing test vectors. Sign or verify the UTF-8 bytes of canonicalString with RSASSA-PKCS1-v1_5 and SHA-256; the signature is deterministic, so yours must match character for character. Requests are signed with the merchant key, responses and notifications with the provider key. The key pairs in this folder were generated for tests and are published on purpose: never use them for anything else.',
    keys: vectorKeys,
    vectors,
  };
}

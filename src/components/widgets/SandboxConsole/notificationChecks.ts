/**
 * What a merchant's notification handler checks, done for each notification in the browser sandbox's
 * inbox: the signature with the published provider key, the timestamp window, the client ID, and the
 * body against the contract when this build compiled a validator for notification bodies.
 */
import {isTimestampFresh, timestampWindowSeconds} from '@site/src/lib/signing';
import {headerValue, verifyNotification, type ProviderKey} from '@site/src/sandbox/client/signing';

export interface InboxNotification {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly receivedAt: string;
}

/** One check: passed, failed, or not made (with why), and the sentence that says so. */
export interface Check {
  readonly outcome: 'pass' | 'fail' | 'skipped';
  readonly text: string;
}

export interface CheckedNotification {
  readonly eventType: string;
  readonly notificationId: string;
  readonly signature: Check;
  readonly timestamp: Check;
  readonly clientId: Check;
  readonly body: Check;
}

type Validate = ((value: unknown) => boolean) & {errors?: unknown[] | null};

/** A header by name, whatever its case. */
export const header = headerValue;

/**
 * Checks one notification. `expectedClientId` is the merchant whose events hold its notification ID;
 * `providerKey` the published provider test key, or undefined when it could not be fetched;
 * `bodyValidators` the compiled validators of the contract's notification bodies (possibly none).
 */
export async function checkNotification(
  entry: InboxNotification,
  expectedClientId: string,
  providerKey: ProviderKey | undefined,
  bodyValidators: readonly Validate[],
): Promise<CheckedNotification> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(entry.body);
  } catch {
    parsed = undefined;
  }
  const fields = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const clientId = header(entry.headers, 'X-Client-Id') ?? '';
  const timestamp = header(entry.headers, 'X-Timestamp') ?? '';

  let signature: Check;
  if (!providerKey) {
    signature = {outcome: 'skipped', text: 'signature not checked: the provider test key could not be fetched'};
  } else {
    const verification = await verifyNotification(entry, providerKey);
    if (verification.outcome === 'verified') signature = {outcome: 'pass', text: 'signature verifies with the provider test key'};
    else if (verification.outcome === 'unreadable')
      signature = {outcome: 'fail', text: `signature cannot be checked: ${verification.message}`};
    else signature = {outcome: 'fail', text: `signature does NOT verify with the provider test key (version ${providerKey.keyVersion})`};
  }

  const fresh = isTimestampFresh(timestamp, new Date(entry.receivedAt));
  const timestampCheck: Check = fresh
    ? {outcome: 'pass', text: `timestamp within ${timestampWindowSeconds / 60} minutes of receipt`}
    : {outcome: 'fail', text: `timestamp ${timestamp || '(none)'} is not within ${timestampWindowSeconds / 60} minutes of receipt`};

  const clientCheck: Check =
    clientId === expectedClientId
      ? {outcome: 'pass', text: `client ID ${clientId} matches`}
      : {outcome: 'fail', text: `client ID ${clientId || '(none)'} is not ${expectedClientId}`};

  let body: Check;
  if (parsed === undefined) body = {outcome: 'fail', text: 'body is not JSON'};
  else if (bodyValidators.length === 0)
    body = {outcome: 'skipped', text: 'body not checked: this build has no compiled validator for notification bodies'};
  else
    body = bodyValidators.some((validate) => validate(parsed))
      ? {outcome: 'pass', text: 'body matches the contract'}
      : {outcome: 'fail', text: "body matches none of the contract's notification schemas"};

  return {
    eventType: typeof fields['eventType'] === 'string' ? fields['eventType'] : '(no eventType)',
    notificationId: typeof fields['notificationId'] === 'string' ? fields['notificationId'] : '(no notificationId)',
    signature,
    timestamp: timestampCheck,
    clientId: clientCheck,
    body,
  };
}

/** The compiled validators of notification bodies: the request bodies of the contract's webhooks. */
export function notificationBodyValidators(byPointer: Readonly<Record<string, Validate>>): Validate[] {
  return Object.entries(byPointer)
    .filter(([pointer]) => pointer.startsWith('/webhooks/') && pointer.endsWith('/requestBody/content/application~1json/schema'))
    .map(([, validate]) => validate);
}

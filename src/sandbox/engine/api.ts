/**
 * The engine's public types: what hosts pass in and get back. engine.ts re-exports them, so hosts import
 * them from there as before; the domain modules take them from here without importing the shell.
 */
import type {SandboxClock} from './clock';
import type {NotificationTransport} from './http';
import type {EngineSpec} from './spec';
import type {JsonObject, Json} from './state';
import type {SandboxStore} from './store';

/** Checks a value against the schema at a JSON pointer of the contract; one line per problem. */
export interface RequestValidator {
  problems(pointer: string, value: unknown): string[];
}

export interface SandboxOptions {
  readonly spec: EngineSpec;
  readonly validator: RequestValidator;
  /** The provider's test key, which signs every response and notification. */
  readonly providerKey: {readonly privateKeyPem: string; readonly keyVersion: number};
  /** The published test merchant's public key (the sandbox data names the client ID and version). */
  readonly defaultMerchantPublicKeyPem: string;
  /** Hosts of the hosted cashier and of statement files, from src/brand.ts. */
  readonly hosts: {readonly cashier: string; readonly files: string};
  readonly store?: SandboxStore;
  readonly clock?: SandboxClock;
  readonly transport?: NotificationTransport;
  /** Enforce the sandbox rate limits of x-rate-limits (default true); load tests turn them off. */
  readonly rateLimits?: boolean;
}

/** Result of the shopper and control actions: what changed, or why nothing did. */
export type ActionResult<T = Json> =
  | {readonly ok: true; readonly value: T}
  | {readonly ok: false; readonly code: string; readonly message: string};

/** What a reader can pay with in the sandbox cashier, SDK or wallet. */
export type PaymentMethodChoice =
  | {readonly method: 'WALLET'; readonly phone: string; readonly pin: string}
  | {readonly method: 'CARD'; readonly cardNumber: string}
  | {readonly method: 'BANK_TRANSFER'}
  | {readonly method: 'CASH'};

export interface DeliveryLogEntry {
  readonly clientId: string;
  readonly notificationId: string;
  readonly eventType: string;
  readonly url: string;
  readonly at: string;
  readonly acknowledged: boolean;
  readonly httpStatus?: number;
  readonly error?: string;
}

/** What the notification simulator is asked for: a webhook (operationId or key), one of its scenarios, and optionally other data and URL. */
export interface SimulateNotificationInput {
  readonly operationId: string;
  readonly scenario: string;
  readonly data?: unknown;
  readonly notifyUrl?: string;
}

/** A simulated notification, raised as an event: its delivery is due now. */
export interface SimulatedNotification {
  readonly operationId: string;
  readonly scenario: string;
  readonly notificationId: string;
  readonly eventType: string;
  readonly notifyUrl: string;
  /** The body as delivered: notificationId, eventType, createdAt and data. */
  readonly notification: JsonObject;
}

/** A merchant as the sandbox console shows it. */
export interface MerchantView {
  readonly clientId: string;
  /** Public keys (SPKI PEM) by key version, oldest first. */
  readonly keys: ReadonlyArray<{readonly keyVersion: number; readonly publicKeyPem: string}>;
  readonly defaultNotifyUrl: string | null;
  /** The ten delivery attempts within 300 seconds instead of about 46 hours. */
  readonly compressedRetries: boolean;
  readonly createdAt: string;
}

export interface Fault {
  readonly resultCode: string;
  /** Only this operation; every operation when absent. */
  readonly operationId?: string;
  /** Only this merchant's calls (the hosted sandbox); every merchant's when absent. */
  readonly clientId?: string;
  /** How many calls it answers. */
  remaining: number;
}

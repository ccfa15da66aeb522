/**
 * Input of the code-sample templates: one concrete HTTP exchange built from
 * the contract (operation + example). Templates turn it into runnable code per
 * language; nothing in a template is specific to one operation.
 */
import {brand} from '../../brand';
import type {JsonValue} from '../openapiTypes';

export interface RequestSampleInput {
  readonly kind: 'request';
  readonly operationId: string;
  readonly summary: string;
  readonly method: string;
  /** Path after the base URL, with the query string, e.g. "/orders?pageNo=1". */
  readonly pathWithQuery: string;
  /** Parsed example body, or undefined for calls without a body. */
  readonly body: JsonValue | undefined;
}

export interface NotificationSampleInput {
  readonly kind: 'notification';
  readonly operationId: string;
  readonly summary: string;
  /** Path of the merchant's notification endpoint used in the sample. */
  readonly notifyPath: string;
  /** An example notification body. */
  readonly body: JsonValue;
}

export type SampleInput = RequestSampleInput | NotificationSampleInput;

export const sampleLanguages = ['curl', 'node', 'python', 'java', 'php', 'go'] as const;
export type SampleLanguage = (typeof sampleLanguages)[number];

export interface LanguageTemplate {
  readonly language: SampleLanguage;
  /** Tab label. */
  readonly label: string;
  /** Prism language name for highlighting. */
  readonly highlight: string;
  /** File name the sample is saved as when run or compiled by the tests. */
  readonly fileName: (input: SampleInput) => string;
  readonly render: (input: SampleInput) => string;
}

/** Environment variables every sample reads, with their sandbox defaults (the contract's sandbox server, brand's sandbox merchant). */
export const sampleEnvironment = {
  base: {name: 'VELOXA_API_BASE', default: `https://${brand.hosts.sandboxApi}/v1`},
  clientId: {name: 'VELOXA_CLIENT_ID', default: brand.sandboxClientId},
  privateKey: {name: 'VELOXA_PRIVATE_KEY_PATH', default: 'merchant-private.pem'},
  keyVersion: {name: 'VELOXA_KEY_VERSION', default: '1'},
  providerPublicKey: {name: 'VELOXA_PROVIDER_PUBLIC_KEY_PATH', default: 'provider-public.pem'},
  notifyPort: {name: 'PORT', default: '8080'},
} as const;

/** Compact JSON, exactly the bytes a sample sends and signs. */
export function compactJson(value: JsonValue): string {
  return JSON.stringify(value);
}

/** Upper camel case name for classes and files, from an operationId. */
export function pascalCase(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

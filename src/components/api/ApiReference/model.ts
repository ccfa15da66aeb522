/**
 * The top of an API page, as data: what its endpoint block shows and what its pane's opener says. Pure, so
 * the unit tests read it without React (tests/unit/apiReferenceModel.test.ts).
 */
import type {PageOperationView} from '@site/src/contract/apiModel';

export interface EndpointBlock {
  readonly method: string;
  /** The path as sent, base path included (/v1/orders), or where a notification goes. */
  readonly path: string;
  /** The sandbox URL of the call, or undefined for a notification (it comes to the merchant). */
  readonly sandboxUrl?: string;
  readonly isWebhook: boolean;
  /** The panel the pane opens: Try it, or the notification simulator. */
  readonly panel: 'try-it' | 'notification-simulator';
  readonly openLabel: string;
  readonly closeLabel: string;
}

/** The sandbox server of the contract: the one whose host names the sandbox, else the first. */
function sandboxServer(operation: PageOperationView): string | undefined {
  return (operation.servers.find((server) => new URL(server.url).host.includes('sandbox')) ?? operation.servers[0])?.url;
}

export function endpointBlock(operation: PageOperationView): EndpointBlock {
  const isWebhook = operation.kind === 'webhook';
  if (isWebhook) {
    return {
      method: operation.method,
      path: 'your notification URL',
      isWebhook,
      panel: 'notification-simulator',
      openLabel: `Simulate a ${operation.summary.replace(/^[A-Z](?=[a-z])/, (first) => first.toLowerCase())}`,
      closeLabel: 'Close the simulator',
    };
  }
  const server = sandboxServer(operation);
  const basePath = server ? new URL(server).pathname.replace(/\/$/, '') : '';
  return {
    method: operation.method,
    path: `${basePath}${operation.path}`,
    ...(server ? {sandboxUrl: `${server.replace(/\/$/, '')}${operation.path}`} : {}),
    isWebhook,
    panel: 'try-it',
    openLabel: `Try ${operation.summary} in the sandbox`,
    closeLabel: 'Close Try it',
  };
}

/** The success example a reader sees first in the pane: the first 2xx response's first example. */
export function firstSuccessExample(operation: PageOperationView): {status: string; json: string} | undefined {
  for (const response of operation.responses) {
    if (!/^2\d\d$/.test(response.status)) continue;
    const example = response.examples[0];
    if (example) return {status: response.status, json: example.json};
  }
  return undefined;
}

/** Panels the reader opened on this page, by key: kept outside React, so a re-mount does not close them. */
const opened = new Set<string>();

export const openedPanels = {
  has: (key: string): boolean => opened.has(key),
  set(key: string, open: boolean): void {
    if (open) opened.add(key);
    else opened.delete(key);
  },
};

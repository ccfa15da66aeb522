/**
 * What a page does while a test drives it, collected from the start: the console errors it logs and the
 * scripts it fetches (to prove a widget came in its own chunk). Call before the first navigation.
 */
import type {Page} from '@playwright/test';

/** The text of every console error, in order; the array fills as the page runs. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/** The URL of every script the page requests, in order. */
export function requestedScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  return scripts;
}

/**
 * The colour-mode toggle has three states (system, light, dark: the theme respects the system
 * preference). Specs that need dark mode press it until the page is dark, whatever state it starts in.
 */
import {expect, type Page} from '@playwright/test';

export async function switchToDarkMode(page: Page): Promise<void> {
  const html = page.locator('html');
  const toggle = page.getByRole('button', {name: /dark and light mode/});
  for (let press = 0; press < 3 && (await html.getAttribute('data-theme')) !== 'dark'; press += 1) {
    const before = await html.getAttribute('data-theme-choice');
    await toggle.click();
    await expect(html).not.toHaveAttribute('data-theme-choice', before ?? '');
  }
  await expect(html).toHaveAttribute('data-theme', 'dark');
}

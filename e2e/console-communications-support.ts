// Helpers of the Communications and marketer browser tests (e2e/console-communications.e2e.ts,
// e2e/console-marketer.e2e.ts): picking from Mantine selects, reading the error a field shows,
// and full-page screenshots taken from the top.
import type { Locator, Page } from 'playwright-core';
import { screenshot as fullPage } from './console-support';

/** A Mantine select: open it, optionally type to filter (or to search, for the contact picker), pick the option. */
export async function choose(page: Page, scope: Locator | Page, label: string, option: string | RegExp, typed?: string): Promise<void> {
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await input.click();
  if (typed) await input.fill(typed);
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

/** The error a field shows: the element its aria-describedby names as its error (what a screen reader reads with it). */
export async function fieldError(field: Locator): Promise<string | null> {
  if ((await field.getAttribute('aria-invalid')) !== 'true') return null;
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter((id) => id.endsWith('-error'));
  if (ids.length !== 1) return null;
  return field.page().locator(`[id="${ids[0]}"]`).innerText();
}

/** Waits until the field is marked invalid, then answers its error. */
export async function waitForFieldError(field: Locator): Promise<string | null> {
  await field.page().waitForFunction((el) => el?.getAttribute('aria-invalid') === 'true', await field.elementHandle(), { timeout: 30_000 });
  return fieldError(field);
}

/** From the top of the page: a full-page shot of a scrolled page draws the fixed header in the middle. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await fullPage(page, name);
}

/** Whether the page scrolls sideways (a table too wide scrolls inside its own container instead). */
export const scrollsSideways = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');


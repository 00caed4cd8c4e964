/**
 * What the browser tests share: Debian's Chromium driven by playwright-core, signing in as a
 * person of a test organization, accessibility violations as axe reports them, where the focus
 * is, and screenshots at a desktop's and a phone's size to look at.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import type { TestOrganization, TestServer } from './harness.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumSkip: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is missing (apt-get install -y chromium): the browser tests are SKIPPED`;
if (chromiumSkip) console.log(`NOTE: ${chromiumSkip}`);

/** axe-core, injected into a page to find accessibility violations as a screen reader user would meet them. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The error a field shows, read through its aria-describedby as a screen reader does; the field must be marked invalid. */
export async function fieldError(page: Page, field: Locator): Promise<string> {
  await page.waitForFunction((element) => element?.getAttribute('aria-invalid') === 'true', await field.elementHandle());
  const describedBy = await field.getAttribute('aria-describedby');
  assert.ok(describedBy, 'an invalid field names its error with aria-describedby');
  return (await page.locator(`[id="${describedBy}"]`).textContent()) ?? '';
}

export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated by the browser's debugger, not injected as a script: the page's CSP allows no inline script.
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] }).then((result) => result.violations)')) as {
    id: string;
    impact: string;
    help: string;
    nodes: { target: string[] }[];
  }[];
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/**
 * Where the focus is, read in the page (as text, as this file is not compiled with the DOM's
 * types): the focused element's role, text and tag, and the aria-label of the section it is in.
 */
export async function focused(page: Page): Promise<{ role: string; text: string; tag: string; section: string }> {
  return (await page.evaluate(`(() => {
    const element = document.activeElement;
    return { role: String(element?.getAttribute('role')), text: element?.textContent ?? '', tag: element?.tagName ?? '', section: String(element?.closest('section')?.getAttribute('aria-label')) };
  })()`)) as { role: string; text: string; tag: string; section: string };
}

/** The row that has the focus, or that a focused cell is in: its aria-rowindex and its text. */
export async function focusedRow(page: Page): Promise<string> {
  return (await page.evaluate(`(() => {
    const row = document.activeElement?.closest('[role="row"]');
    return row ? row.getAttribute('aria-rowindex') + ': ' + row.textContent : 'no row has the focus (' + document.activeElement?.tagName + ')';
  })()`)) as string;
}

/** Waits until the focused row's text matches (its page of data may still be on its way), and returns it. */
export async function focusedRowMatching(page: Page, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  let text = await focusedRow(page);
  while (!pattern.test(text) && Date.now() < deadline) {
    await page.waitForTimeout(50);
    text = await focusedRow(page);
  }
  assert.match(text, pattern);
  return text;
}

/**
 * Screenshots of the page at a desktop's 1440×900 and a phone's 390×844, to look at, as
 * /tmp/NAME-1440.png and /tmp/NAME-390.png; the page is given back its test size.
 */
export async function screenshotsAt(page: Page, name: string, fullPage = false): Promise<void> {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `/tmp/${name}-${width}.png`, fullPage });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

/** Fails unless the web app is built: the server serves web/dist, which `npm install` builds. */
export function assertWebAppBuilt(): void {
  assert.ok(existsSync('web/dist/index.html'), 'the web app is not built: run "npm run web:build" (npm install does it)');
}

/** Debian's Chromium, headless, with nothing of its own talking to the network. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A new browser context signed in as the organization's person, on the first screen after sign-in.
 * `options` sets what a context can set: the time zone (`timezoneId`), the locale, the viewport.
 */
export async function signInPage(browser: Browser, server: TestServer, organization: TestOrganization, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 }, ...options });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/sign-in`);
  await page.getByLabel('Email').fill(organization.user!.email);
  await page.getByLabel('Password').fill(organization.user!.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Sources and datasets' }).waitFor();
  return page;
}

/**
 * What the page writes to the clipboard while `act` runs, as the page's own clipboard call
 * receives it (the call still goes through). Read from the call rather than from the clipboard:
 * browsers of test files running side by side share one clipboard, so what it holds when read may
 * be another test's.
 */
export async function copiedBy(page: Page, act: () => Promise<void>): Promise<string | undefined> {
  await page.evaluate(`(() => {
    const clipboard = navigator.clipboard;
    const write = clipboard.writeText.bind(clipboard);
    window.__copied = [];
    clipboard.writeText = (text) => { window.__copied.push(text); return write(text); };
  })()`);
  await act();
  return (await page.evaluate('window.__copied.at(-1)')) as string | undefined;
}

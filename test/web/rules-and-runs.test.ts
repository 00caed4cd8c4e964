import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * Rules and runs as the accountant reads them: on a phone the list of rules and the runs are
 * cards, with nothing sideways.
 */
describe('rules and runs', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);

  /** Starts a run and waits for it to finish. */
  const finishedRun = async (mode: 'dry-run' | 'commit') => {
    const started = await call('POST', '/runs', { mode });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    for (;;) {
      const run = await call('GET', `/runs/${started.body.id}`);
      if (run.body.status !== 'queued' && run.body.status !== 'running') return run.body as { id: string; status: string };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    const { datasetId: bank } = await createDataset(server, organization, { name: 'Operating account' });
    const { datasetId: ledger } = await createDataset(server, organization, { name: 'Cash at bank' });
    const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
    await addTransactions(server, organization, bank, [
      {
        externalId: 'kestrel',
        timestamp: day('2026-10-01'),
        amount: '950.00',
        currency: 'EUR',
        reference: 'INV-10424',
        description: 'KESTREL AVIATION INV-10424',
      },
      { externalId: 'fee', timestamp: day('2026-10-04'), amount: '-12.00', currency: 'EUR', reference: 'FEE-OCT', description: 'Account fee October' },
    ]);
    await addTransactions(server, organization, ledger, [
      {
        externalId: 'invoice',
        timestamp: day('2026-10-02'),
        amount: '950.00',
        currency: 'EUR',
        reference: 'inv-10424',
        description: 'Invoice 10424 Kestrel Aviation',
      },
    ]);
    for (const rule of [
      {
        name: 'Same reference and amount, booked within three days of each other on both sides',
        origin: { datasetIds: [bank] },
        target: { datasetIds: [ledger] },
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'equals', origin: { path: 'reference', normalize: ['casefold'] }, target: { path: 'reference', normalize: ['casefold'] } },
          { type: 'date', path: 'timestamp', min: '-P3D', max: 'P3D' },
        ],
      },
      {
        name: 'Bank fees',
        origin: { datasetIds: [bank], audience: [{ path: 'reference', search: { type: 'string', value: ['FEE'] } }] },
        outcome: { status: 'informative' },
      },
    ]) {
      const created = await call('POST', '/rules', rule);
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
    await finishedRun('dry-run');
    await finishedRun('commit');
    await finishedRun('dry-run');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Nothing on the page scrolls sideways: not the page, and not a card or table inside it. */
  const assertNothingSideways = async (page: Page, what: string) => {
    const sizes = (await page.evaluate('({ scroll: document.scrollingElement.scrollWidth, client: document.scrollingElement.clientWidth })')) as {
      scroll: number;
      client: number;
    };
    assert.ok(sizes.scroll <= sizes.client, `${what}: the page scrolls sideways (${sizes.scroll} > ${sizes.client})`);
    const wide = (await page.evaluate(`[...document.querySelectorAll('main .card, main table')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => element.tagName.toLowerCase() + '.' + element.className + ' (' + element.scrollWidth + ' > ' + element.clientWidth + ')')`)) as string[];
    assert.deepEqual(wide, [], `${what}: something scrolls sideways`);
  };

  /** A card's lines as shown: each cell's label (its column's name, drawn before it) and its text. */
  const labelledLines = (row: Locator) =>
    row.evaluate((element) => {
      const { getComputedStyle } = globalThis as unknown as { getComputedStyle: (cell: unknown, pseudo?: string) => { display: string; content: string } };
      return [...element.querySelectorAll('td')]
        .filter((cell) => getComputedStyle(cell).display !== 'none')
        .map(
          (cell) =>
            `${getComputedStyle(cell, '::before')
              .content.replace(/^"|"$/g, '')
              .replace(/^none$/, '')}: ${cell.innerText.replace(/\s+/g, ' ').trim()}`,
        );
    });

  it('shows the rules and the runs as cards on a phone, with nothing sideways', async () => {
    const page = await signInPage(browser, server, organization, { timezoneId: 'Europe/Berlin', locale: 'en-GB' });
    await page.getByRole('link', { name: 'Rules and runs' }).click();
    await page.getByRole('heading', { name: 'Rules and runs' }).waitFor();
    await page.getByRole('region', { name: 'Runs' }).getByRole('link').first().waitFor();
    await page.setViewportSize({ width: 390, height: 844 });

    // Each rule is a card: its name, then each of its facts on a labelled line, and its buttons.
    const rules = page.locator('table.rules-table tbody tr');
    assert.equal(await rules.count(), 2);
    assert.deepEqual(await labelledLines(rules.first()), [
      'Order: 1',
      'Name: Same reference and amount, booked within three days of each other on both sides',
      'How many on each side: One transaction to one',
      'Enabled: yes',
      'Version: 1',
      ': Edit ↑ ↓',
    ]);
    for (const row of await rules.all()) {
      const box = (await row.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `a rule's card at ${JSON.stringify(box)}`);
    }
    // Each run is a card too: when it started, how, what it did, and its button.
    const runs = page.locator('table.runs-table tbody tr');
    assert.equal(await runs.count(), 3);
    for (const row of await runs.all()) {
      const box = (await row.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `a run's card at ${JSON.stringify(box)}`);
      const lines = await labelledLines(row);
      assert.match(lines.join(' | '), /^Started: .+ \| Mode: (Dry run|Run and commit) \| Result: /);
    }
    await assertNothingSideways(page, 'rules and runs at 390 px');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'rules-and-runs', true);
    await page.context().close();
  });

  it('discards a dry run from its page after a confirmation that says it cannot be undone, and offers no discard for a committed run', async () => {
    const listed = (await call('GET', '/runs')).body.runs as { id: string; mode: string; status: string; committedAt: string | null }[];
    const dry = listed.find((run) => run.mode === 'dry-run' && run.status === 'completed' && run.committedAt === null)!;
    const committed = listed.find((run) => run.mode === 'commit')!;
    const page = await signInPage(browser, server, organization, { timezoneId: 'America/Los_Angeles', locale: 'en-US' });
    await page.goto(`${server.baseUrl}/runs/${committed.id}`);
    await page.getByRole('heading', { name: /^Run of / }).waitFor();
    await page.getByRole('button', { name: 'Revert…' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /Discard/ }).count(), 0, 'a committed run is reverted, not discarded');

    await page.goto(`${server.baseUrl}/runs/${dry.id}`);
    await page.getByRole('heading', { name: /^Dry run of / }).waitFor();
    await page.getByRole('button', { name: 'Discard…' }).click();
    const confirmation = page.getByRole('group', { name: 'Confirm the discard' });
    assert.match(await confirmation.innerText(), /Discarding throws this dry run away with its results[\s\S]*This cannot be undone/);
    assert.ok(await page.getByRole('button', { name: 'Commit' }).isDisabled(), 'no commit while a discard is being confirmed');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'run-discard');
    // Keeping it changes nothing.
    await confirmation.getByRole('button', { name: 'Keep it' }).click();
    await confirmation.waitFor({ state: 'detached' });
    assert.equal((await call('GET', `/runs/${dry.id}`)).status, 200);

    await page.getByRole('button', { name: 'Discard…' }).click();
    await confirmation.getByRole('button', { name: 'Discard the dry run' }).click();
    await page.getByText('The dry run is discarded: it and its results are gone, and nothing else changed.').waitFor();
    assert.match(page.url(), /\/rules$/);
    assert.equal((await call('GET', `/runs/${dry.id}`)).status, 404);
    assert.equal(await page.locator('table.runs-table tbody tr').count(), listed.length - 1);
    await page.context().close();
  });

  it('shows a View-only person a rule in sentences, with no form and no button to create or change one', async () => {
    const invited = await call('POST', '/invitations', { email: 'reader@example.com', role: 'View-only' });
    assert.equal(invited.status, 201);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const viewer = await context.newPage();
    await viewer.goto(invited.body.invitationUrl);
    await viewer.getByLabel('Password', { exact: true }).fill('three quiet harbours');
    await viewer.getByLabel('The same password again').fill('three quiet harbours');
    await viewer.getByRole('button', { name: 'Set the password and sign in' }).click();
    await viewer.getByRole('heading', { name: 'Developer' }).waitFor();
    await viewer.goto(`${server.baseUrl}/rules`);
    await viewer.getByRole('heading', { name: 'Rules and runs' }).waitFor();
    for (const write of ['New rule', 'Edit', 'Dry run', 'Run and commit', 'Commit', 'Revert'])
      assert.equal(await viewer.getByRole('button', { name: write, exact: true }).count(), 0, `a View-only person is offered "${write}"`);
    await viewer.getByRole('button', { name: 'View' }).first().click();
    const rule = viewer.getByRole('region', { name: /^Rule Same reference/ });
    await rule.waitFor();
    const text = (await rule.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /First side .*Operating account/);
    assert.match(text, /Second side .*Cash at bank/);
    assert.match(text, /Amounts equal, same sign/);
    assert.match(text, /first side, reference \(ignore case\) is equal to the second side’s reference \(ignore case\)/);
    assert.match(text, /Then Match them/);
    assert.equal(await viewer.locator('main input, main select, main textarea').count(), 0, 'no form fields');
    assert.equal(await viewer.getByRole('button', { name: /Save|Create rule|Try it/ }).count(), 0);
    assert.deepEqual(await seriousViolations(viewer), []);
    await screenshotsAt(viewer, 'rule-in-words', true);
    await context.close();
  });
});

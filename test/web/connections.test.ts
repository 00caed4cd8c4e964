import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import { assertWebAppBuilt, chromiumSkip, copiedBy, fieldError, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { startSshd, type TestSshd } from '../../support/sshd.ts';
import { EURO_STATEMENT } from '../../support/statement-files.ts';
import { UNFIT_FOR_PEOPLE } from '../../web/src/messages.ts';

/** What the page shows that no person can use (an id, a route, a JSON pointer...), each named. */
async function unfitOnScreen(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return UNFIT_FOR_PEOPLE.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name);
}

/** How wide the page is at a phone's width: 390 when nothing scrolls sideways. */
async function pageWidthOnAPhone(page: Page): Promise<number> {
  await page.setViewportSize({ width: 390, height: 844 });
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  await page.setViewportSize({ width: 1400, height: 900 });
  return width;
}

/**
 * The connections screen in a real Chromium, on a folder connection of a real server (its
 * CONNECTOR_FOLDER_ROOT a temporary directory): a folder that does not exist refused in words, the
 * connection added and tested, a pickup added, run now, and its history showing the file imported
 * with a link to the import on the imports page; then the folder taken away, the failure in words
 * on the connection and, once it has lasted a day, flagged on the dashboard with a link back.
 */
describe('connections in the web app', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let page: Page;
  let root: string;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'connections-web-'));
    await mkdir(path.join(root, 'bank', 'in'), { recursive: true });
    await mkdir(path.join(root, 'bank', 'done'), { recursive: true });
    await writeFile(path.join(root, 'bank', 'in', 'statement.xml'), EURO_STATEMENT);
    // A second look one second after the first, in the same run: a file that holds still is taken by the first run.
    server = await startTestServer('pglite', { connectorFolderRoot: root, connectorSettleSeconds: 1, secretEncryptionKey: null });
    organization = await createTestOrganization(server);
    const call = (method: string, url: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${url}`, body);
    const source = await call('POST', '/sources', { name: 'Folder bank' });
    assert.equal((await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Statements', columns: [] })).status, 201);
    assertWebAppBuilt();
    browser = await launchChromium();
    page = await signInPage(browser, server, organization, { timezoneId: 'Europe/Berlin' });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('adds a folder connection, refusing a folder that does not exist in words', async () => {
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
    await page.getByText('No connections yet.', { exact: false }).waitFor();
    const form = page.getByRole('form', { name: 'Add a connection' });
    // SFTP is the first choice: the key the service generates is proposed.
    assert.equal(await form.getByLabel('Generate a key').isChecked(), true);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'connections-add', true);

    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Shared folder');
    await form.getByLabel('In a folder of this server').check();
    await form.getByLabel('Folder', { exact: true }).fill('nowhere');
    await form.getByRole('button', { name: 'Add the connection' }).click();
    assert.equal(
      await fieldError(page, form.getByLabel('Folder', { exact: true })),
      'There is no folder of this name that the service can read. Create it, or check its name.',
    );
    await form.getByLabel('Folder', { exact: true }).fill('bank');
    await form.getByRole('button', { name: 'Add the connection' }).click();
    const card = page.getByRole('region', { name: 'Shared folder' });
    await card.getByText('Not run yet').waitFor();
    await card.getByText('No pickups yet', { exact: false }).waitFor();
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText('The connection works', { exact: false }).waitFor();
  });

  it('adds a pickup, runs it now, and shows the file imported with a link to its import', async () => {
    const card = page.getByRole('region', { name: 'Shared folder' });
    await card.getByRole('button', { name: 'Add a pickup to Shared folder' }).click();
    const form = card.getByRole('form', { name: 'New pickup of Shared folder' });
    await form.getByLabel('Folder', { exact: true }).fill('in');
    await form.getByLabel('File names').fill('*.xml');
    await form.getByLabel('Every').fill('5');
    await form.getByRole('combobox', { name: 'Dataset' }).selectOption({ label: 'Folder bank · Statements' });
    await form.getByLabel('Move it to an archive folder').check();
    await form.getByRole('textbox', { name: 'Archive folder' }).fill('done');
    await form.getByLabel('Delete it').check();
    await form.getByText('This cannot be undone', { exact: false }).waitFor();
    await form.getByLabel('Move it to an archive folder').check();
    await screenshotsAt(page, 'connections-pickup-form', true);
    await form.getByRole('button', { name: 'Add the pickup' }).click();

    const pickup = card.getByRole('article', { name: 'Files *.xml in folder in' });
    await pickup.getByText('every 5 minutes', { exact: false }).waitFor();
    await pickup.getByText('No runs yet', { exact: false }).waitFor();
    await pickup.getByRole('button', { name: 'Run now: Files *.xml in folder in' }).click();
    const link = pickup.getByRole('link', { name: 'See the import of statement.xml' });
    await link.waitFor({ timeout: 20_000 });
    const runs = pickup.getByRole('list', { name: 'Runs of the pickup: Files *.xml in folder in' });
    const text = (await runs.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /run now Done · 1 imported/);
    assert.match(text, /statement\.xml \([\d.]+ KB\): Imported into Folder bank · Statements, then moved to the archive folder done\./);
    assert.deepEqual(await readdir(path.join(root, 'bank', 'done')), ['statement.xml']);
    // The run's success reaches the connection.
    await card.getByText('Working').waitFor();
    assert.deepEqual(await unfitOnScreen(page), []);
    assert.deepEqual(await seriousViolations(page), []);
    assert.equal(await pageWidthOnAPhone(page), 390);
    await screenshotsAt(page, 'connections-history', true);

    // Changed: looked at every hour; paused, and on schedule again.
    await pickup.getByRole('button', { name: 'Edit the pickup: Files *.xml in folder in' }).click();
    const edit = pickup.getByRole('form', { name: 'Edit the pickup: files *.xml in folder in' });
    assert.equal(await edit.getByRole('textbox', { name: 'Archive folder' }).inputValue(), 'done');
    await edit.getByLabel('Every').fill('60');
    await edit.getByRole('button', { name: 'Save the pickup' }).click();
    await pickup.getByText('every hour', { exact: false }).waitFor();
    await pickup.getByRole('button', { name: 'Pause the pickup: Files *.xml in folder in' }).click();
    await pickup.getByText('Paused', { exact: true }).waitFor();
    await pickup.getByRole('button', { name: 'Resume the pickup: Files *.xml in folder in' }).click();
    await pickup.getByText('On schedule', { exact: true }).waitFor();

    await link.click();
    await page.getByRole('heading', { name: 'Import a file' }).waitFor();
    assert.match(page.url(), /\/imports\?import=/);
    const row = page.locator('tr[aria-current="true"]');
    await row.waitFor();
    const rowText = await row.innerText();
    assert.match(rowText, /statement\.xml/);
    assert.match(rowText, /picked up from Shared folder/);
    assert.deepEqual(await unfitOnScreen(page), []);
    // The audit trail names the connection that imported the file, not its id.
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    await page.getByRole('cell', { name: 'the connection Shared folder' }).first().waitFor();
    assert.deepEqual(await unfitOnScreen(page), []);
  });

  it('says in words why the connection fails, and flags it on the dashboard once it has failed for a day', async () => {
    await rm(path.join(root, 'bank'), { recursive: true, force: true });
    await page.getByRole('link', { name: 'Connections' }).click();
    const card = page.getByRole('region', { name: 'Shared folder' });
    await card.getByRole('button', { name: 'Run now: Files *.xml in folder in' }).click();
    await card.getByText('Failing since', { exact: false }).waitFor({ timeout: 20_000 });
    const notice = (await card.locator('.notice-danger').innerText()).replace(/\s+/g, ' ');
    assert.match(notice, /1 run in a row failed/);
    assert.match(notice, /The connection's folder is gone or cannot be read\. Check that it still exists/);
    // Failing for a day: the failure is real, its start moved back.
    await server.database.query(`UPDATE connections SET failing_since = now() - interval '2 days' WHERE organization_id = $1`, [organization.orgId]);

    await page.getByRole('link', { name: 'Dashboard' }).click();
    const flag = page.getByRole('region', { name: 'Failing connections' });
    await flag.waitFor();
    assert.match(await flag.innerText(), /Shared folder: failing since .*, 1 run in a row\. The connection's folder is gone/);
    await screenshotsAt(page, 'connections-dashboard-flag');
    await flag.getByRole('link', { name: 'Shared folder' }).click();
    await page.getByRole('heading', { name: 'Shared folder', level: 2 }).waitFor();
    assert.match(page.url(), /\/connections#connection-/);
    await page.waitForFunction(`document.activeElement?.textContent === 'Shared folder'`);
  });

  it('deletes the connection after saying what is lost', async () => {
    const card = page.getByRole('region', { name: 'Shared folder' });
    await card.getByRole('button', { name: 'Delete the connection Shared folder' }).click();
    const confirm = card.getByRole('group', { name: 'Delete the connection Shared folder' });
    assert.match(
      await confirm.innerText(),
      /Its pickup and the history of their runs are deleted with it.*The files already imported stay imported\. This cannot be undone\./s,
    );
    await confirm.getByRole('button', { name: 'Delete the connection' }).click();
    await page.getByText('No connections yet.', { exact: false }).waitFor();
  });
});

/**
 * An SFTP connection in a real Chromium against Debian's OpenSSH server: a pasted key that is not
 * one refused in words, a generated key whose public half is shown with a copy button and
 * installed on the server, the host key's fingerprint shown by the test and trusted, and a host
 * key that then changes shown as a stop.
 */
describe('SFTP connections in the web app', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let page: Page;
  let sshd: TestSshd;

  before(async () => {
    sshd = await startSshd();
    server = await startTestServer('pglite', {
      secretEncryptionKey: randomBytes(32).toString('base64'),
      connectorSettleSeconds: 0,
      connectorTimeoutSeconds: 5,
    });
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    page = await signInPage(browser, server, organization, { permissions: ['clipboard-read', 'clipboard-write'] });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await sshd?.stop();
  });

  it('generates a key to hand to the bank, shows the host key to check, trusts it, and stops on a changed one', async () => {
    await page.getByRole('link', { name: 'Connections' }).click();
    const form = page.getByRole('form', { name: 'Add a connection' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Bank SFTP');
    await form.getByRole('textbox', { name: 'Server', exact: true }).fill(sshd.host);
    await form.getByRole('textbox', { name: 'Port', exact: true }).fill(String(sshd.port));
    await form.getByRole('textbox', { name: 'User', exact: true }).fill(sshd.username);
    await form.getByLabel('Paste a private key').check();
    await form.getByRole('textbox', { name: 'Private key' }).fill('not a key');
    await form.getByRole('button', { name: 'Add the connection' }).click();
    assert.match(
      await fieldError(page, form.getByRole('textbox', { name: 'Private key' })),
      /^This is not a private key the service can use.*Paste an OpenSSH or PEM private key/,
    );
    await form.getByLabel('Generate a key').check();
    await form.getByRole('button', { name: 'Add the connection' }).click();

    const reveal = page.getByRole('region', { name: 'Bank SFTP: the public key to hand to the bank' });
    const publicKey = (await reveal.locator('pre').innerText()).trim();
    assert.match(publicKey, /^ssh-ed25519 AAAA/);
    assert.match(await reveal.innerText(), /Send this public key to the bank and ask them to allow it for the user/);
    const copied = await copiedBy(page, () => reveal.getByRole('button', { name: 'Copy the public key of Bank SFTP' }).click());
    assert.equal(copied, publicKey);
    await screenshotsAt(page, 'connections-public-key');
    await sshd.authorize(publicKey);
    await reveal.getByRole('button', { name: 'Done' }).click();

    const card = page.getByRole('region', { name: 'Bank SFTP' });
    await card.getByText('Host key to confirm').waitFor();
    await card.getByRole('button', { name: 'Test connection' }).click();
    const check = card.locator('.notice-check');
    await check.waitFor();
    assert.equal(await check.locator('.fingerprint code').innerText(), sshd.fingerprint);
    assert.match(await check.innerText(), /its host key is not confirmed yet, so nothing was sent to it/);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'connections-host-key', true);
    await check.getByRole('button', { name: 'I checked this with the bank — trust it' }).click();
    await card.getByText("The server's host key is confirmed.", { exact: false }).waitFor();
    await card.locator('.endpoint-facts code', { hasText: sshd.fingerprint }).waitFor();
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText('The connection works', { exact: false }).waitFor();

    await sshd.changeHostKey();
    await card.getByRole('button', { name: 'Test connection' }).click();
    const stop = card.getByRole('alert').filter({ hasText: 'Stop:' });
    await stop.waitFor();
    assert.match(
      await stop.innerText(),
      /Stop: the server's host key has changed, so the service sent it nothing\..*Ask the bank, not through this connection, whether they changed their key/s,
    );
    assert.match(await stop.innerText(), new RegExp(`Shown now: ${sshd.fingerprint.replace(/[+/]/g, '\\$&')}`));
    const trustNew = stop.getByRole('button', { name: 'Trust the new key' });
    assert.equal(await trustNew.isDisabled(), true);
    assert.equal(await pageWidthOnAPhone(page), 390);
    await screenshotsAt(page, 'connections-host-key-changed', true);
  });
});

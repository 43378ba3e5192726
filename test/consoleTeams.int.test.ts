import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCaller, apiSignIn, apiSignUp } from './consoleApi.ts';
import { type ConsoleBrowser, openConsoleBrowser } from './consoleBrowser.ts';
import {
  type ConsoleServer,
  type Credentials,
  newCredentials,
  projectCard,
  signIn,
  startConsoleServer,
} from './consoleFlows.ts';

/**
 * Teams and operators in the web console (SPEC §17, docs/teams.md), in a real browser against a
 * server started like `npm start` with `SIGNUP=invite` and one operator: an owner invites a member
 * and copies the link from the page; the invitee opens it, signs up (the sign-up carries the
 * invitation, which `invite` needs), and lands in the project with their role; a viewer sees no
 * create, run, release or delete controls and the env values masked; an operator disables and
 * enables an account on the operator page.
 */

let server: ConsoleServer;
const browsers: ConsoleBrowser[] = [];
const operator = newCredentials('operator');
/** The operator's HTTP caller; the operator invites the accounts the tests start from. */
let operatorApi: ApiCaller;

beforeAll(async () => {
  server = await startConsoleServer({ SIGNUP: 'invite', ADMIN_EMAILS: operator.email });
  // An operator is always admitted, whatever SIGNUP says.
  operatorApi = await apiSignUp(server.url, operator);
});

afterEach(async () => {
  for (const browser of browsers.splice(0)) await browser.close();
});

afterAll(async () => {
  await server?.stop();
});

async function browserAt(): Promise<ConsoleBrowser> {
  const opened = await openConsoleBrowser();
  browsers.push(opened);
  return opened;
}

/** Waits until the element is visible; fails the test if it does not become so in 10 s. */
const shown = (locator: Locator) => locator.waitFor({ state: 'visible', timeout: 10_000 });

/** An invitation as the API answers it (the fields this test reads). */
interface CreatedInvitation {
  url: string;
  token: string;
}

/** Signs up over HTTP with an invitation token, signs in and syncs. */
async function apiSignUpInvited(who: Credentials, invitation: string): Promise<ApiCaller> {
  const answer = await fetch(`${server.url}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...who, invitation }),
  });
  if (answer.status !== 201) throw new Error(`sign-up: ${answer.status} ${await answer.text()}`);
  const call = await apiSignIn(server.url, who);
  await call('POST', '/v1/auth/sync');
  return call;
}

/** An account the operator invited (as `SIGNUP=invite` needs), signed up over HTTP. */
async function invitedAccount(who: string): Promise<{ who: Credentials; call: ApiCaller }> {
  const credentials = newCredentials(who);
  const invitation = await operatorApi<CreatedInvitation>('POST', '/v1/admin/users', {
    email: credentials.email,
  });
  return { who: credentials, call: await apiSignUpInvited(credentials, invitation.token) };
}

/** The status of `POST /v1/auth/signin` for `who`. */
async function signInStatus(who: Credentials): Promise<number> {
  const answer = await fetch(`${server.url}/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  await answer.body?.cancel();
  return answer.status;
}

/** A project's tab from any of its screens. */
async function openTab(page: Page, tab: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Project' })
    .getByRole('link', { name: tab, exact: true })
    .click();
  await page.getByRole('heading', { level: 1, name: tab }).waitFor();
}

/** The names of a project's tabs as its navigation shows them. */
function tabNames(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Project' }).getByRole('link').allInnerTexts();
}

/** The row of a table (by its caption) that mentions `text`. */
function rowOf(page: Page, table: string, text: string): Locator {
  return page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });
}

describe('teams and operators in the web console, in a real browser', () => {
  it('an owner invites a member with the copied link; the invitee signs up, accepts and lands in the project', async () => {
    const owner = await invitedAccount('owner');
    const project = await owner.call<{ id: string }>('POST', '/v1/projects', { name: 'Shared checkout' });
    const ownerBrowser = await browserAt();
    await ownerBrowser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.url,
    });
    const { page } = ownerBrowser;
    await signIn(page, server.url, owner.who);
    await projectCard(page, 'Active projects', 'Shared checkout')
      .getByRole('link', { name: 'Shared checkout', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
    expect(await tabNames(page)).toEqual([
      'Sessions',
      'Stats',
      'Agents',
      'Runs',
      'API keys',
      'Members',
      'Audit log',
    ]);
    await openTab(page, 'Members');
    await shown(rowOf(page, 'Members, the owner first', owner.who.email));
    expect(await rowOf(page, 'Members, the owner first', owner.who.email).innerText()).toContain('owner');

    // Invite by e-mail and role: the link is shown once, with a copy button.
    const invitee = newCredentials('invitee');
    const invite = page.getByRole('region', { name: 'Invite a member' });
    await invite.getByLabel('E-mail').fill(invitee.email);
    await invite.getByLabel('Role').selectOption('developer');
    await invite.getByRole('button', { name: 'Invite', exact: true }).click();
    const linkField = invite.getByRole('textbox', { name: 'Invitation link' });
    await shown(linkField);
    await invite.getByRole('button', { name: 'Copy link' }).click();
    await shown(invite.getByText('Copied to the clipboard.'));
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(copied).toBe(await linkField.inputValue());
    expect(copied).toMatch(new RegExp(`^${server.url}/console/invitation#token=bdi_`));
    await shown(rowOf(page, 'Open invitations, newest first', invitee.email));

    // The invitee opens the link signed out, signs up on the page, and lands in the project.
    const inviteeBrowser = await browserAt();
    const guest = inviteeBrowser.page;
    await guest.goto(copied);
    await guest.getByRole('heading', { level: 1, name: 'Join a project' }).waitFor();
    await guest.getByLabel('E-mail').fill(invitee.email);
    await guest.getByLabel('Password').fill(invitee.password);
    await guest.getByRole('button', { name: 'Sign up', exact: true }).click();
    await guest.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
    expect(new URL(guest.url()).pathname).toBe(`/console/projects/${project.id}/sessions`);
    const name = guest.locator('.project-name');
    await expect.poll(() => name.innerText()).toContain('Shared checkout');
    expect(await name.innerText()).toContain('developer');
    // A developer starts sessions but manages no keys or members, and reads no audit log.
    await shown(guest.getByRole('button', { name: 'Start session' }));
    expect(await tabNames(guest)).toEqual(['Sessions', 'Stats', 'Agents', 'Runs', 'Members']);
    await openTab(guest, 'Members');
    await shown(rowOf(guest, 'Members, the owner first', invitee.email));
    expect(await guest.getByRole('region', { name: 'Invite a member' }).count()).toBe(0);
    expect(await guest.getByRole('combobox').count()).toBe(0);
    await shown(guest.getByRole('button', { name: 'Leave project' }));

    // The owner sees the new member with the role, and the invitation gone from the open ones.
    await page.reload();
    await shown(rowOf(page, 'Members, the owner first', invitee.email));
    expect(await page.getByRole('combobox', { name: `Role of ${invitee.email}` }).inputValue()).toBe(
      'developer',
    );
    await shown(page.getByRole('region', { name: 'Open invitations' }).getByText('No open invitations.'));

    // The audit log has the invitation and the join.
    await openTab(page, 'Audit log');
    const audit = page.getByRole('table', { name: 'Audit log, newest first' });
    await shown(audit.getByRole('row').filter({ hasText: 'member.join' }));
    expect(await audit.getByRole('row').filter({ hasText: 'member.invite' }).count()).toBe(1);
    await shown(audit.getByRole('row').filter({ hasText: invitee.email }));

    expect(ownerBrowser.problems()).toEqual([]);
    expect(inviteeBrowser.problems()).toEqual([]);
  });

  it('a viewer sees no create, run, release or delete controls, and env values masked', async () => {
    const owner = await invitedAccount('owner');
    const project = await owner.call<{ id: string }>('POST', '/v1/projects', { name: 'Watched project' });
    const agent = await owner.call<{ id: string }>('POST', `/v1/cloudbrowser/projects/${project.id}/agents`, {
      name: 'Secretive',
      script: 'return 1;',
      envVars: { API_TOKEN: 'very-secret-value' },
    });
    const viewer = newCredentials('viewer');
    const invitation = await owner.call<CreatedInvitation>('POST', `/v1/projects/${project.id}/members`, {
      email: viewer.email,
      role: 'viewer',
    });
    const viewerApi = await apiSignUpInvited(viewer, invitation.token);
    await viewerApi('POST', `/v1/invitations/${invitation.token}:accept`);

    const { page, problems } = await browserAt();
    await signIn(page, server.url, viewer);
    const card = projectCard(page, 'Active projects', 'Watched project');
    await shown(card);
    expect(await card.innerText()).toContain('Your role: viewer');
    expect(await card.getByRole('button').count()).toBe(0);

    await card.getByRole('link', { name: 'Watched project', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
    expect(await tabNames(page)).toEqual(['Sessions', 'Stats', 'Agents', 'Runs', 'Members']);
    await shown(page.getByText('No sessions yet.'));
    expect(await page.getByRole('button', { name: 'Start session' }).count()).toBe(0);

    await openTab(page, 'Agents');
    await shown(page.getByRole('link', { name: 'Secretive' }));
    expect(await page.getByRole('link', { name: 'New agent' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Secretive' }).click();
    await page.getByRole('heading', { level: 1, name: 'Secretive' }).waitFor();
    const value = page.getByLabel('Value of variable 1');
    await shown(value);
    // The server masks the value; the page shows it as it came, read-only, and offers no way back.
    expect(await value.inputValue()).toBe('********');
    expect(await value.getAttribute('type')).toBe('text');
    expect(await value.isEditable()).toBe(false);
    expect(await page.getByLabel('Name of variable 1').inputValue()).toBe('API_TOKEN');
    expect(await page.getByLabel('Name', { exact: true }).isEditable()).toBe(false);
    for (const button of ['Save agent', 'Delete', 'Run', 'Add variable', 'Show value of variable 1']) {
      expect(await page.getByRole('button', { name: button, exact: true }).count(), button).toBe(0);
    }
    expect(await page.getByRole('region', { name: 'Run this agent' }).count()).toBe(0);
    await shown(page.getByText('Read-only: a viewer sees this agent but does not change it.'));
    expect(
      JSON.stringify(await viewerApi('GET', `/v1/cloudbrowser/projects/${project.id}/agents/${agent.id}`)),
    ).not.toContain('very-secret-value');

    await openTab(page, 'Members');
    await shown(rowOf(page, 'Members, the owner first', viewer.email));
    expect(await page.getByRole('region', { name: 'Invite a member' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Remove|Make owner)/ }).count()).toBe(0);
    await shown(page.getByRole('button', { name: 'Leave project' }));

    // The tabs a viewer is not shown, reached by their address, say so instead of failing.
    await page.goto(`${server.url}/console/projects/${project.id}/api-keys`);
    await shown(page.getByText('Only an admin or the owner of this project sees this page'));
    expect(await page.getByRole('button', { name: 'Create API key' }).count()).toBe(0);
    expect(problems()).toEqual([]);
  });

  it('an operator disables and enables an account on the operator page, and invites one', async () => {
    const member = await invitedAccount('member');
    const { page, problems } = await browserAt();

    // Anyone else is told politely that the page is for operators.
    await signIn(page, server.url, member.who);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('heading', { level: 1, name: 'Operators' }).waitFor();
    await shown(page.getByText('your account is not one of them'));
    expect(await page.getByRole('table').count()).toBe(0);
    // The page's one request was refused with 403, which the browser reports; nothing else went wrong.
    expect(problems().filter((p) => !p.includes('403'))).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();

    const before = problems().length;
    await signIn(page, server.url, operator);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('heading', { level: 1, name: 'Operators' }).waitFor();
    const row = rowOf(page, 'Accounts, oldest first', member.who.email);
    await shown(row);
    expect(await row.innerText()).toContain('active');
    expect(await row.innerText()).toContain('Default Project (owner)');
    await shown(rowOf(page, 'Accounts, oldest first', operator.email).getByText('operator', { exact: true }));

    await row.getByRole('button', { name: `Disable ${member.who.email}` }).click();
    const dialog = page.getByRole('dialog', { name: `Disable ${member.who.email}?` });
    await shown(dialog);
    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await shown(row.getByRole('button', { name: `Enable ${member.who.email}` }));
    expect(await row.innerText()).toContain('disabled');
    expect(await signInStatus(member.who)).toBe(403);

    await row.getByRole('button', { name: `Enable ${member.who.email}` }).click();
    await shown(row.getByRole('button', { name: `Disable ${member.who.email}` }));
    expect(await row.innerText()).toContain('active');
    expect(await signInStatus(member.who)).toBe(200);

    // Invite an account: the sign-up link, shown once.
    const newcomer = newCredentials('newcomer');
    const invite = page.getByRole('region', { name: 'Invite an account' });
    await invite.getByLabel('E-mail').fill(newcomer.email);
    await invite.getByRole('button', { name: 'Invite account' }).click();
    const link = invite.getByRole('textbox', { name: 'Sign-up link' });
    await shown(link);
    expect(await link.inputValue()).toMatch(new RegExp(`^${server.url}/console/signup#invitation=bdi_`));
    await shown(page.getByRole('region', { name: 'Usage per account' }));
    expect(problems().slice(before)).toEqual([]);

    // The newcomer opens the sign-up link: the sign-up page passes the invitation on, which
    // SIGNUP=invite needs.
    const newcomerBrowser = await browserAt();
    const guest = newcomerBrowser.page;
    await guest.goto(await link.inputValue());
    await guest.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
    await shown(guest.getByText('You were invited'));
    await guest.getByLabel('E-mail').fill(newcomer.email);
    await guest.getByLabel('Password').fill(newcomer.password);
    await guest.getByRole('button', { name: 'Sign up', exact: true }).click();
    await guest.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await shown(projectCard(guest, 'Active projects', 'Default Project'));
    expect(newcomerBrowser.problems()).toEqual([]);
  });
});

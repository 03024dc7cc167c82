/**
 * Steps the browser tests share: the forms a new organization fills in (sign-up, the sales profile),
 * a call to the REST API with a key, and a new watch's first execution. Each test file keeps its own
 * server, page and screenshots; these only fill, call and wait.
 */
import type { Page } from 'playwright-core';

export const PASSWORD = 'correct horse battery staple';

/** Fills the sign-up form (Initech Labs, Ada Lovelace) with `email`; the caller submits it. */
export async function fillSignUp(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Organization').fill('Initech Labs');
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
}

/** Fills a complete sales profile (Initech Labs, initech.example) on the onboarding page; the caller saves it. */
export async function fillSalesProfile(page: Page, industries = 'Fintech'): Promise<void> {
  await page.getByLabel('Company name').fill('Initech Labs');
  await page.getByLabel('Company domain').fill('initech.example');
  await page.getByLabel('What you sell').fill('Workflow software for finance teams');
  await page.getByLabel('Industries you sell to').fill(industries);
  await page.getByLabel('Company sizes you sell to').fill('51-200');
  await page.getByLabel('Regions you sell in').fill('Europe');
  await page.getByLabel('Buyer personas').fill('CFO');
}

/** A REST call to the server at `origin` with `key`, JSON by default. */
export function callApi(origin: string, path: string, key: string, init: RequestInit = {}): Promise<Response> {
  return fetch(origin + path, { ...init, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers } });
}

/** Waits (at most 10 s) until the watch `id` has an execution: a new watch's first one runs at once. */
export async function untilFirstExecution(origin: string, key: string, id: string): Promise<void> {
  // The execution reads the company's site first (up to WATCH_SITE_READ_WAIT_MS), then researches:
  // wait for it as long as that may take on a loaded machine, and say so if it never comes.
  for (let i = 0; i < 1_000; i++) {
    const view = (await (await callApi(origin, `/api/v1/oms/watches?id=${id}`, key)).json()) as { executions: number };
    if (view.executions > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`watch ${id} has no execution after 100 s`);
}

/**
 * Listens to `page` as the suite's pages are judged: a CSP refusal (an inline script or style) or a
 * page error goes to `consoleErrors`; with `pwned`, what a hostile source's script would print or
 * show (a console line with "pwned", a dialog, dismissed) goes there.
 */
export function watchPage(page: Page, consoleErrors: string[], pwned?: string[]): void {
  page.on('console', (message) => {
    if (pwned && message.text().includes('pwned')) pwned.push(message.text());
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) consoleErrors.push(message.text());
  });
  if (pwned) {
    page.on('dialog', async (dialog) => {
      pwned.push(`dialog: ${dialog.message()}`);
      await dialog.dismiss();
    });
  }
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
}

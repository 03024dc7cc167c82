/**
 * What the page tests share: a signed-in, onboarded organization with an API key for setting up
 * its data through the REST API (as a script or agent would), and reading a page.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { RunObject } from '../../src/runs/run-object.ts';
import { SCOPES } from '../../src/ground/api-key.ts';
import { RUN_PLANS } from '../../src/runs/plans.ts';
import type { CoreContext } from '../../src/ground/context.ts';
import { createKey } from '../helpers/fixtures.ts';
import { Browser, finishedProfileForm, organizationOf, signUp } from './browser.ts';
import { requestDbOver } from '../helpers/request-db.ts';

export interface DashboardOrganization {
  browser: Browser;
  org: { id: string; slug: string };
  userId: string;
  /** An API key of the organization with every scope. */
  key: string;
  keyId: string;
}

export async function dashboardOrganization(options: { onboarded?: boolean } = {}): Promise<DashboardOrganization> {
  const browser = new Browser();
  await signUp(browser);
  if (options.onboarded !== false) expect((await browser.post('/dashboard/onboarding', finishedProfileForm())).status).toBe(303);
  const org = await organizationOf(browser);
  const { userId } = (await env.DB.prepare('SELECT user_id AS userId FROM memberships WHERE organization_id = ?').bind(org.id).first<{ userId: string }>())!;
  const { key, keyId } = await createKey(org.id);
  return { browser, org, userId, key, keyId };
}

/** The core context the dashboard builds for this person (coreContextFor in src/dashboard/session.ts). */
export function dashboardCoreContext(o: DashboardOrganization): CoreContext {
  return { env, db: requestDbOver(), requestId: 'test', principal: { organization: { id: o.org.id, slug: o.org.slug, name: 'Initech Labs' }, keyId: o.userId, scopes: SCOPES } };
}

/** GET a page: its status and HTML. */
export async function page(browser: Browser, path: string): Promise<{ status: number; html: string }> {
  const response = await browser.get(path);
  return { status: response.status, html: await response.text() };
}

/** Fires the run's alarms until it has finished. */
export async function finishRun(id: string): Promise<void> {
  const stub = env.RUNS.get(env.RUNS.idFromString(id));
  for (let i = 0; i < 30 && (await stub.read())?.status === 'running'; i++) await runDurableObjectAlarm(stub);
  expect((await stub.read())?.status).not.toBe('running');
}

/** The scripts of a page: only the dashboard's own file, never an inline one or another. */
export function expectOnlyDashboardScript(html: string): void {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)];
  expect(scripts).toHaveLength(1);
  expect(scripts[0]![1]).toMatch(/^ src="\/dashboard\/assets\/dashboard\.js\?v=[0-9a-f]{8}" defer(?:="")?$/);
  expect(scripts[0]![2]).toBe('');
}

/**
 * A gtm-audit of `organizationId` whose steps wait for `release()`: it stays running (with its D1
 * row, as a started run has) until then.
 */
export async function heldRun(organizationId: string, steps = ['pricing', 'icp']): Promise<{ id: string; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const stub = env.RUNS.get(env.RUNS.newUniqueId());
  await runInDurableObject(stub, (instance: RunObject) => {
    const real = RUN_PLANS['gtm-audit'];
    instance.plans = {
      ...RUN_PLANS,
      'gtm-audit': {
        ...real,
        async executeStep(runEnv, run, step, work) {
          await gate;
          return real.executeStep(runEnv, run, step, work);
        },
      },
    };
  });
  const id = (await runInDurableObject(stub, (_i, state) => state.id.toString())) as string;
  await stub.start({ id, kind: 'gtm-audit', organizationId, target: 'acme.com', args: { subject: { key: 'acme.com', name: 'Acme Analytics' } }, steps });
  return { id, release };
}

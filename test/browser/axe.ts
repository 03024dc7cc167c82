/**
 * axe-core in the browser suite: its source is evaluated in the page through the DevTools protocol
 * (page.evaluate), which the page's Content-Security-Policy does not govern, so the dashboard keeps
 * its strict policy while it is checked; a <script> tag with the source inline would be refused by
 * `script-src 'self'`, and bypassing the CSP would check a page no person ever gets.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts the suite refuses: every page was clean at moderate too, so the bar is moderate (the issue asks serious). */
export const BLOCKING_IMPACTS: ReadonlySet<string> = new Set(['moderate', 'serious', 'critical']);

/** A violation as the suite reports it: `rule-id (impact): target, target`. */
export type Finding = string;

/**
 * Runs every axe-core rule (its defaults: WCAG 2.x A and AA and the best practices) on the page as
 * it is now, and answers the moderate, serious and critical violations, one line each with the rule id and
 * the CSS selectors of the elements at fault.
 */
export async function blockingViolations(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(() =>
    (globalThis as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe.run(document, { resultTypes: ['violations'] }),
  )) as AxeResults;
  return results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

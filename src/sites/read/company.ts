import { getObject } from '../../db/objects.ts';
import { writeObjects } from '../../oms/store.ts';
import { escapeInline } from '../../research/markdown-escape.ts';
import type { RunRecord, StepResult, StepWork } from '../../runs/types.ts';
import { output, readArgs, SCRATCH, type HomeFacts, type Tally } from './state.ts';

/** The company step: the domain's company object, created or named from the site. */

export async function nameCompany(_env: Env, run: RunRecord, work: StepWork): Promise<StepResult> {
  const { domain } = readArgs(run);
  const tally = work.scratch.get<Tally>(SCRATCH.tally);
  const name = companyNameFrom(domain, tally?.home);
  const existing = await getObject(work.db, run.organizationId, 'company', domain);
  const properties: Record<string, unknown> = { domain };
  if (name && typeof existing?.properties.name !== 'string') properties.name = name;
  const [outcome] = (await writeObjects(work.db, run.organizationId, [{ type: 'company', key: domain, properties }], [], { kind: 'site-read', id: run.id, url: `https://${domain}/` })).objects;
  const shown = typeof existing?.properties.name === 'string' ? existing.properties.name : name;
  const what = outcome === 'created' ? 'created' : outcome === 'updated' ? 'updated' : 'unchanged';
  return output(`company ${domain} ${what}${shown ? ` (${shown})` : ''}`, [`- Company ${escapeInline(domain)}: ${what}${shown ? `, named ${escapeInline(String(shown))}` : ''}.`]);
}

/**
 * The company's name as its site gives it: `og:site_name` (or `application-name`) of the home page,
 * else the part of the home page's title (split at ` | `, ` - `, ` — `, `: `) that looks most like the domain's name.
 */
export function companyNameFrom(domain: string, home: HomeFacts | undefined): string | undefined {
  if (home?.siteName) return home.siteName.slice(0, 200);
  const title = home?.title?.trim();
  if (!title) return undefined;
  const parts = title.split(/\s+[|\-–—·]\s+|:\s+/).map((part) => part.trim()).filter(Boolean);
  const label = domain.split('.')[0]!.replace(/[^a-z0-9]/g, '');
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const named = parts.find((part) => squash(part).includes(label) || (label.includes(squash(part)) && squash(part).length >= 3));
  return (named ?? parts[0])?.slice(0, 200);
}


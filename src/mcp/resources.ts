import type { ReadResourceResult, Resource, ResourceTemplateType } from '@modelcontextprotocol/server';
import type { CoreContext } from '../ground/context.ts';
import { DomainError } from '../ground/errors.ts';
import { briefUri, runUri } from '../ground/resource-uris.ts';
import { getOmsObject, searchOmsObjects, SearchInput } from '../operations/oms/oms-reads.ts';
import { getRun, listRuns } from '../operations/runs/runs.ts';
import { McpError, RESOURCE_NOT_FOUND } from './json-rpc-error.ts';

/**
 * Briefs and run reports as MCP resources (resources/list, resources/read, resources/templates/list),
 * read through the same core calls as REST (oms-reads, runs), so the key's scopes and organization
 * apply: a key without `oms:read` lists no briefs, one without `commands` no runs.
 *
 *   recon://briefs/{key}        a stored brief's markdown (the object of type brief)
 *   recon://runs/{kind}/{id}    a run's report (or its status line while it runs)
 */

/** Briefs and runs listed each (the newest); older ones are read by their URI. */
export const RESOURCES_LISTED = 25;

export const RESOURCE_TEMPLATES: readonly ResourceTemplateType[] = [
  { uriTemplate: 'recon://briefs/{key}', name: 'brief', title: 'A stored brief', description: 'The markdown of a brief research or a watch stored (key: brf_... or an execution id).', mimeType: 'text/markdown' },
  { uriTemplate: 'recon://runs/{kind}/{id}', name: 'run-report', title: 'A run report', description: 'The report of a gtm-audit, audit or site-read run (its status line while it runs).', mimeType: 'text/markdown' },
];


/** resources/list: the newest briefs and runs the key may read. */
export async function listResources(ctx: CoreContext): Promise<{ resources: Resource[] }> {
  const resources: Resource[] = [];
  const scopes = ctx.principal.scopes;
  if (scopes.includes('oms:read')) {
    const page = await searchOmsObjects(ctx, SearchInput.parse({ type: 'brief', orderBy: { property: 'createdAt', direction: 'desc' }, pageSize: RESOURCES_LISTED }));
    for (const brief of page.objects) {
      const topic = typeof brief.properties.topic === 'string' ? brief.properties.topic : brief.key;
      resources.push({ uri: briefUri(brief.key), name: brief.key, title: `Brief: ${topic.slice(0, 200)}`, mimeType: 'text/markdown' });
    }
  }
  if (scopes.includes('commands')) {
    const { runs } = await listRuns(ctx, RESOURCES_LISTED);
    for (const run of runs) {
      resources.push({ uri: runUri(run.kind, run.id), name: `${run.kind}-${run.id.slice(0, 12)}`, title: `${run.kind} of ${run.target} (${run.status})`, mimeType: 'text/markdown' });
    }
  }
  return { resources };
}

const BRIEF = /^recon:\/\/briefs\/([^/]+)$/;
const RUN = /^recon:\/\/runs\/([^/]+)\/([^/]+)$/;

/** resources/read: the markdown at `uri`; -32002 for a URI that names nothing of the organization. */
export async function readResource(ctx: CoreContext, uri: string): Promise<ReadResourceResult> {
  try {
    return await readKnownResource(ctx, uri);
  } catch (error) {
    // A brief or run that is not the organization's (or not at all) is a resource not found, with the core's message.
    if (error instanceof DomainError && error.code === 'not_found') throw new McpError(RESOURCE_NOT_FOUND, error.message, { uri: uri.slice(0, 300) });
    throw error;
  }
}

async function readKnownResource(ctx: CoreContext, uri: string): Promise<ReadResourceResult> {
  const brief = BRIEF.exec(uri);
  if (brief) {
    const object = await getOmsObject(ctx, { type: 'brief', key: decodeURIComponent(brief[1]!) });
    return { contents: [{ uri, mimeType: 'text/markdown', text: String(object.properties.markdown ?? '') }] };
  }
  const run = RUN.exec(uri);
  if (run) {
    const view = await getRun(ctx, decodeURIComponent(run[1]!), decodeURIComponent(run[2]!));
    return { contents: [{ uri, mimeType: 'text/markdown', text: view.markdown }] };
  }
  throw new McpError(RESOURCE_NOT_FOUND, `No resource ${uri.slice(0, 300)}: Recon's resources are recon://briefs/{key} and recon://runs/{kind}/{id} (resources/templates/list).`, { uri: uri.slice(0, 300) });
}

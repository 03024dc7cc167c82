import { z } from 'zod';
import { readConfig } from '../../ground/config.ts';
import type { CoreContext } from '../../ground/context.ts';
import { assertScope } from '../../ground/scopes.ts';
import { parseInput } from '../../ground/validation.ts';
import { SOURCE_FETCH } from '../../oms/fetch-source.ts';
import { importPages, PAGES_IN_FLIGHT, type AddedSource } from '../../oms/import-pages.ts';
import { checkSourceUrl, SOURCE_URL_MAX_LENGTH, type SourceUrlOptions } from '../../oms/source-url-policy.ts';

/**
 * POST /api/v1/oms/sources and the MCP tool add-sources: fetch up to 20 web pages and import each
 * as a `source` object (scope oms:write, like the NDJSON import). Every URL is checked before
 * anything is fetched: one that is not http(s), carries credentials, points at a host that is not
 * public (src/ground/public-address.ts) or repeats another fails the whole request with 400 and a
 * detail per URL, and nothing is fetched or written. What the pages then do (time out, redirect
 * somewhere refused, answer 404 or a PDF) is reported per URL, and the others are imported.
 */

export const MAX_SOURCE_URLS = 20;

/** The body. Which hosts are allowed depends on the deployment (SOURCES_ALLOW_LOCAL_HTTP), so see addSourcesInput. */
export const AddSourcesInput = addSourcesInput({ allowLocalHttp: false });

/** The body as this deployment validates it: local http URLs only where SOURCES_ALLOW_LOCAL_HTTP allows them. */
export function addSourcesInputFor(env: Env) {
  return addSourcesInput({ allowLocalHttp: readConfig(env).SOURCES_ALLOW_LOCAL_HTTP });
}

function addSourcesInput(options: SourceUrlOptions) {
  return z.strictObject({
    urls: z
      .array(z.string().min(1).max(SOURCE_URL_MAX_LENGTH))
      .min(1)
      .max(MAX_SOURCE_URLS)
      .superRefine((urls, ctx) => {
        const first = new Map<string, number>();
        urls.forEach((sent, index) => {
          const check = checkSourceUrl(sent, options);
          if (!check.ok) {
            ctx.addIssue({ code: 'custom', path: [index], message: check.message });
            return;
          }
          const earlier = first.get(check.url);
          if (earlier !== undefined) ctx.addIssue({ code: 'custom', path: [index], message: `must not repeat urls.${earlier} (${check.url})` });
          else first.set(check.url, index);
        });
      })
      .describe(
        `The pages to add: 1 to ${MAX_SOURCE_URLS} absolute http(s) URLs of public hosts, each at most ${SOURCE_URL_MAX_LENGTH} characters, ` +
          `none twice, e.g. ["https://acme.com/pricing"]. Each page must be HTML or plain text, at most ${SOURCE_FETCH.maxBodyBytes / 1024 / 1024} MiB, ` +
          `and answer within ${SOURCE_FETCH.timeoutMs / 1000} s with at most ${SOURCE_FETCH.maxRedirects} redirects; ${PAGES_IN_FLIGHT} are fetched at a time.`,
      ),
  });
}

export interface AddSourcesResult {
  /** One per URL sent, in the same order. */
  results: AddedSource[];
}

/** For tests only: the outside world (fetch) and a shorter deadline; production uses neither. */
export interface AddSourcesDependencies {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export async function addSources(ctx: CoreContext, raw: unknown, dependencies: AddSourcesDependencies = {}): Promise<AddSourcesResult> {
  assertScope(ctx, 'oms:write');
  const options = { allowLocalHttp: readConfig(ctx.env).SOURCES_ALLOW_LOCAL_HTTP };
  const { urls } = parseInput(addSourcesInput(options), raw);
  const requests = urls.map((sent) => {
    const check = checkSourceUrl(sent, options);
    if (!check.ok) throw new Error(`unreachable: ${sent} passed the schema but not the policy`);
    return { sent, url: check.url };
  });
  const results = await importPages(ctx.db, ctx.principal.organization.id, requests, { ...options, ...dependencies });
  return { results };
}

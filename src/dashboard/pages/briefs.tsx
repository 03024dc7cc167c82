/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { parseInput } from '../../ground/validation.ts';
import { getOmsObject, getOmsProvenance, GetObjectInput, searchOmsObjects, SearchInput, type ObjectPage, type ObjectView } from '../../operations/oms/oms-reads.ts';
import { BriefArticle, briefPath } from '../brief-view.tsx';
import { NextPage, objectPath, Table, when, type Column } from '../components.tsx';
import type { SignedInEnv } from '../env.ts';
import { ErrorSummary, refused, type FormErrors } from '../refusal.tsx';

/**
 * Briefs (issue 26, part 2): every stored `brief` object of the organization, whoever wrote it
 * (a research call from the dashboard, the API or an MCP client; a watch execution), newest first,
 * searched by words of the topic, a page at a time (operations/oms/oms-reads.ts `searchOmsObjects`,
 * keyset pages by its page token); each opens rendered (brief-view.tsx) with what wrote it and when
 * (its provenance, `getOmsProvenance`).
 */
export const briefs = new Hono<SignedInEnv>();

const PATH = '/dashboard/briefs';
const PAGE_SIZE = 25;
/** At most this many words of a search are used (one `contains` filter each; the search takes 10). */
export const MAX_SEARCH_WORDS = 10;

function text(object: ObjectView, name: string): string {
  const value = object.properties[name];
  return typeof value === 'string' ? value : '';
}

/** The distinct words of a search, lower-cased, the first MAX_SEARCH_WORDS. */
function searchWords(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, MAX_SEARCH_WORDS);
}

function SearchForm({ query, errors }: { query: string; errors?: FormErrors }) {
  return (
    <form method="get" action={PATH} class="search" role="search">
      <ErrorSummary errors={errors} />
      <div class="field">
        <label for="field-q">Words of the topic</label>
        <p class="hint" id="field-q-hint">
          Briefs whose topic contains all of them (any case; the first {MAX_SEARCH_WORDS} words). Leave empty to list every brief.
        </p>
        <input type="search" id="field-q" name="q" value={query} maxlength={500} aria-describedby="field-q-hint" />
      </div>
      <button type="submit">Search</button>
    </form>
  );
}

const BRIEF_COLUMNS: Column<ObjectView>[] = [
  { header: 'Topic', cell: (object) => <a href={briefPath(object.key)}>{text(object, 'topic') || object.key}</a> },
  { header: 'Depth', cell: (object) => text(object, 'tier') || '—' },
  { header: 'Engine', cell: (object) => text(object, 'engine') || '—' },
  { header: 'Written', cell: (object) => when(text(object, 'createdAt') || object.createdAt) },
];

function BriefTable({ page, query }: { page: ObjectPage; query: string }) {
  if (page.objects.length === 0) {
    return query ? <p>No brief's topic has all of these words.</p> : <p>No briefs yet. <a href="/dashboard/research">Research a topic</a>, or create a watch.</p>;
  }
  return (
    <>
      <Table rows={page.objects} columns={BRIEF_COLUMNS} caption={`Your organization's briefs, newest first${query ? `, whose topic contains "${query}"` : ''}.`} />
      <NextPage path={PATH} params={{ q: query }} cursor={page.nextPageToken} label="Older briefs" />
    </>
  );
}

briefs.get('/', async (c) => {
  const ctx = c.var.core;
  const query = (c.req.query('q') ?? '').trim();
  const cursor = c.req.query('cursor');
  let page: ObjectPage | undefined;
  let errors: FormErrors | undefined;
  try {
    const filters = searchWords(query).map((word) => ({ property: 'topic', op: 'contains', value: word }));
    page = await searchOmsObjects(
      ctx,
      parseInput(SearchInput, { type: 'brief', filters, orderBy: { property: 'createdAt', direction: 'desc' }, pageSize: PAGE_SIZE, ...(cursor ? { pageToken: cursor } : {}) }),
    );
  } catch (error) {
    // A page token from another search or a forged one: 400, shown on top of the form.
    errors = refused(c, error);
  }
  return c.render(
    <>
      <SearchForm query={query} errors={errors} />
      {page ? <BriefTable page={page} query={query} /> : null}
    </>,
    { title: 'Briefs' },
  );
});

/** What wrote a brief, from the provenance of its markdown: a research call or a watch's execution. */
function WrittenBy({ source }: { source?: { kind: string; id: string } }) {
  if (!source) return <>unknown</>;
  if (source.kind === 'watch') {
    return (
      <>
        an execution of the watch{' '}
        <a href={`/dashboard/watches/${encodeURIComponent(source.id)}`}>
          <code>{source.id}</code>
        </a>
      </>
    );
  }
  if (source.kind === 'research') {
    return (
      <>
        a research call (the dashboard, the API or an MCP client) <code>{source.id}</code>
      </>
    );
  }
  return (
    <>
      {source.kind} <code>{source.id}</code>
    </>
  );
}

briefs.get('/:key', async (c) => {
  const ctx = c.var.core;
  const object = await getOmsObject(ctx, parseInput(GetObjectInput, { type: 'brief', key: c.req.param('key') }));
  const provenance = await getOmsProvenance(ctx, { type: 'brief', key: object.key });
  const source = provenance.properties.find((p) => p.name === 'markdown')?.source;
  const topic = text(object, 'topic') || object.key;
  return c.render(
    <>
      <p>
        <a href={PATH}>All briefs</a>
      </p>
      <dl class="facts">
        <dt>Written by</dt>
        <dd>
          <WrittenBy source={source} />
        </dd>
        <dt>Written</dt>
        <dd>{when(text(object, 'createdAt') || object.createdAt)}</dd>
        <dt>Depth</dt>
        <dd>{text(object, 'tier') || '—'}</dd>
        <dt>Engine</dt>
        <dd>{text(object, 'engine') || '—'}</dd>
        <dt>Brief key</dt>
        <dd>
          <code>{object.key}</code> (<a href={objectPath('brief', object.key)}>its properties, links and history</a>)
        </dd>
      </dl>
      <p class="muted">Source links open in a new tab.</p>
      <BriefArticle markdown={text(object, 'markdown')} label="Brief" />
    </>,
    { title: `Brief: ${topic}` },
  );
});

/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { parseInput } from '../../ground/validation.ts';
import { getMetadata, getOmsObject, getOmsProvenance, GetObjectInput, searchOmsObjects, SearchInput, type ObjectPage, type ObjectView, type Provenance } from '../../operations/oms/oms-reads.ts';
import { ExternalLink, NextPage, objectPath, Table, when, type Column } from '../components.tsx';
import type { SignedInEnv } from '../env.ts';
import { renderMarkdown } from '../markdown.ts';
import { ErrorSummary, refused, type FormErrors } from '../refusal.tsx';

/**
 * Objects (issue 14, part 7): a search over the OMS (a type and words, operations/oms/oms-reads.ts
 * `searchOmsObjects`) and a page per object with its properties, where each came from (kind, id,
 * url, when), its links and its history (`getOmsObject`, `getOmsProvenance`). A brief's markdown
 * is rendered as on a run's page.
 */
export const objects = new Hono<SignedInEnv>();

const PATH = '/dashboard/objects';
const PAGE_SIZE = 25;
/** A property value longer than this is shown folded (a source's content can be long). */
const FOLD_AFTER = 300;

/** What names an object in a list: the first of these properties it has, else its key. */
const LABEL_PROPERTIES = ['name', 'title', 'topic', 'email'];

function labelOf(object: ObjectView): string {
  for (const name of LABEL_PROPERTIES) {
    const value = object.properties[name];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return object.key;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? 'null';
}

/** A property value as text; a long one folded behind its first characters. */
function Value({ value }: { value: unknown }) {
  const text = asText(value);
  if (text.length <= FOLD_AFTER) return <span class="value">{text}</span>;
  return (
    <details>
      <summary>{`${text.slice(0, 200)}… (${text.length.toLocaleString('en-US')} characters)`}</summary>
      <div class="value">{text}</div>
    </details>
  );
}

/** Where a value came from: its kind and id, linked to the dashboard page of that id when there is one. */
function SourceOf({ source }: { source: { kind: string; id: string; url?: string } }) {
  const page =
    source.kind === 'action'
      ? `/dashboard/approvals/${encodeURIComponent(source.id)}`
      : source.kind === 'watch'
        ? `/dashboard/watches/${encodeURIComponent(source.id)}`
        : undefined;
  return (
    <>
      {source.kind}{' '}
      {page ? (
        <a href={page}>
          <code>{source.id}</code>
        </a>
      ) : (
        <code>{source.id}</code>
      )}
      {source.url ? (
        <>
          {' '}
          (<ExternalLink href={source.url} />)
        </>
      ) : null}
    </>
  );
}

function SearchForm({ types, type, query, errors }: { types: string[]; type: string; query: string; errors?: FormErrors }) {
  const queryError = errors?.fields.query;
  return (
    <form method="get" action={PATH} class="search" role="search">
      <ErrorSummary errors={errors} />
      <div class="field">
        <label for="field-type">Type</label>
        <select id="field-type" name="type">
          {types.map((t) => (
            <option value={t} selected={t === type}>
              {t}
            </option>
          ))}
        </select>
      </div>
      <div class={queryError ? 'field field-error' : 'field'}>
        <label for="field-q">Words</label>
        <p class="hint" id="field-q-hint">
          All of them must appear (sources: in title and text, by word stem; other types: in name, domain, email, title, topic and the like). Leave empty to list
          every object of the type.
        </p>
        {queryError ? (
          <p class="error" id="field-q-error">
            {queryError}
          </p>
        ) : null}
        <input
          type="search"
          id="field-q"
          name="q"
          value={query}
          maxlength={500}
          aria-describedby={queryError ? 'field-q-hint field-q-error' : 'field-q-hint'}
          aria-invalid={queryError ? 'true' : undefined}
        />
      </div>
      <button type="submit">Search</button>
    </form>
  );
}

const RESULT_COLUMNS: Column<ObjectView>[] = [
  { header: 'Object', cell: (object) => <a href={objectPath(object.type, object.key)}>{labelOf(object)}</a> },
  { header: 'Key', cell: (object) => <code>{object.key}</code> },
  { header: 'Updated', cell: (object) => when(object.updatedAt) },
];

function Results({ page, type, query }: { page: ObjectPage; type: string; query: string }) {
  if (page.objects.length === 0) return <p>No {type} matches.</p>;
  return (
    <>
      <Table rows={page.objects} columns={RESULT_COLUMNS} caption={`Objects of type ${type}${query ? ` matching "${query}"` : ''}.`} />
      <NextPage path={PATH} params={{ type, q: query }} cursor={page.nextPageToken} />
    </>
  );
}

objects.get('/', async (c) => {
  const ctx = c.var.core;
  const types = getMetadata(ctx).objectTypes.map((t) => t.type as string);
  const type = c.req.query('type') || 'company';
  const query = (c.req.query('q') ?? '').trim();
  let page: ObjectPage | undefined;
  let errors: FormErrors | undefined;
  try {
    page = await searchOmsObjects(ctx, parseInput(SearchInput, { type, ...(query ? { query } : {}), pageSize: PAGE_SIZE, ...(c.req.query('cursor') ? { pageToken: c.req.query('cursor') } : {}) }));
  } catch (error) {
    errors = refused(c, error, { fields: ['type', 'query'] });
    // The type is a choice, not typed: a refused one is said on top, with the choices.
    if (errors.fields.type) errors = { summary: `Choose a type: ${types.join(', ')}.`, fields: {} };
  }
  return c.render(
    <>
      <SearchForm types={types} type={types.includes(type) ? type : 'company'} query={query} errors={errors} />
      {page ? <Results page={page} type={type} query={query} /> : null}
    </>,
    { title: 'Objects' },
  );
});

function sourceCell(origin: Provenance['properties'][number] | undefined) {
  return origin ? <SourceOf source={origin.source} /> : 'derived';
}

function PropertyTable({ object, provenance }: { object: ObjectView; provenance: Provenance }) {
  const known = new Map(provenance.properties.map((p) => [p.name, p]));
  const names = [...new Set([...Object.keys(object.properties), ...known.keys()])].sort();
  return (
    <Table
      rows={names}
      caption="Each property with where its current value came from."
      empty={<p>No properties.</p>}
      columns={[
        { header: 'Property', cell: (name) => name, rowHeader: true },
        { header: 'Value', cell: (name) => <Value value={object.properties[name] ?? null} /> },
        { header: 'Source', cell: (name) => sourceCell(known.get(name)) },
        { header: 'When', cell: (name) => when(known.get(name)?.updatedAt) },
      ]}
    />
  );
}

const LINK_COLUMNS: Column<Provenance['relationships'][number]>[] = [
  { header: 'Link', cell: (r) => r.link },
  {
    header: 'To',
    cell: (r) => (
      <a href={objectPath(r.targetType, r.targetKey)}>
        {r.targetType} {r.targetKey}
      </a>
    ),
  },
  { header: 'Source', cell: (r) => <SourceOf source={r.source} /> },
  { header: 'Since', cell: (r) => when(r.createdAt) },
];

function LinkTable({ provenance }: { provenance: Provenance }) {
  return <Table rows={provenance.relationships} columns={LINK_COLUMNS} caption="Links both ways, newest first (at most 100)." empty={<p>No links.</p>} />;
}

const HISTORY_COLUMNS: Column<Provenance['history'][number]>[] = [
  { header: 'When', cell: (h) => when(h.at) },
  { header: 'Property', cell: (h) => h.property },
  { header: 'From', cell: (h) => (h.from === null ? <span class="muted">(not set)</span> : <Value value={h.from} />) },
  { header: 'To', cell: (h) => (h.to === null ? <span class="muted">(removed)</span> : <Value value={h.to} />) },
  { header: 'Source', cell: (h) => <SourceOf source={h.source} /> },
];

function HistoryTable({ provenance }: { provenance: Provenance }) {
  return <Table rows={provenance.history} columns={HISTORY_COLUMNS} caption="Changes, newest first (at most 100)." empty={<p>No changes recorded.</p>} />;
}

objects.get('/view', async (c) => {
  const ctx = c.var.core;
  const input = { type: c.req.query('type') ?? '', key: c.req.query('key') ?? '' };
  const object = await getOmsObject(ctx, parseInput(GetObjectInput, input));
  const provenance = await getOmsProvenance(ctx, { type: object.type, key: object.key });
  const markdown = object.type === 'brief' && typeof object.properties.markdown === 'string' ? object.properties.markdown : undefined;
  return c.render(
    <>
      <p>
        <a href={`${PATH}?${new URLSearchParams({ type: object.type }).toString()}`}>Search {object.type} objects</a>
      </p>
      <dl class="facts">
        <dt>Type</dt>
        <dd>{object.type}</dd>
        <dt>Key</dt>
        <dd>
          <code>{object.key}</code>
        </dd>
        <dt>Version</dt>
        <dd>{object.version}</dd>
        <dt>Created</dt>
        <dd>{when(object.createdAt)}</dd>
        <dt>Updated</dt>
        <dd>{when(object.updatedAt)}</dd>
      </dl>
      {markdown !== undefined ? (
        <section aria-labelledby="brief-title">
          <h2 id="brief-title">Brief</h2>
          <article class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(markdown, { citations: true }) }} />
        </section>
      ) : null}
      <h2>Properties</h2>
      <PropertyTable object={object} provenance={provenance} />
      <h2>Links</h2>
      <LinkTable provenance={provenance} />
      <h2>History</h2>
      <HistoryTable provenance={provenance} />
    </>,
    { title: `${object.type} ${labelOf(object)}` },
  );
});

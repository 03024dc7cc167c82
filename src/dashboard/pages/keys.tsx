/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { SCOPES, type Scope } from '../../ground/api-key.ts';
import { KEY_SETTINGS_PATH } from '../../ground/dashboard-paths.ts';
import { createApiKey, getApiKey, listApiKeys, replaceApiKey, revokeApiKey, type CreatedKey, type KeyListing } from '../../operations/account/keys.ts';
import { Field, Notice, Table, when, type Column } from '../components.tsx';
import type { SignedInEnv } from '../env.ts';
import { all, readForm, text } from '../form.ts';
import { ErrorSummary, refused, type FormErrors } from '../refusal.tsx';

/**
 * The API key settings page (decisions.md: keys are created, shown once, revoked and replaced
 * here): list, create, revoke and replace through src/operations/account/keys.ts.
 */
export const keys = new Hono<SignedInEnv>();

const SCOPE_TEXT: Record<Scope, string> = {
  commands: 'commands: run commands and read runs',
  'oms:read': 'oms:read: read objects and metadata',
  'oms:write': 'oms:write: import objects, request actions, manage watches',
  'oms:approve': 'oms:approve: approve or reject requested actions',
};

/** The full key, once, with a copy button and the warning that it will not be shown again. */
function NewKey({ created, origin }: { created: CreatedKey; origin: string }) {
  return (
    <section class="alert alert-ok" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Your new key "{created.listing.name}"</h2>
      <p>
        <strong>Copy it now: this key will not be shown again.</strong> Recon keeps only its hash.
      </p>
      <div class="secret">
        <code id="new-key">{created.key}</code>
        <button type="button" data-copy="new-key">
          Copy
        </button>
      </div>
      <p>Try it:</p>
      <pre>
        <code>{`curl -H "Authorization: Bearer ${created.key}" ${origin}/api/v1/commands`}</code>
      </pre>
    </section>
  );
}

const KEY_COLUMNS: Column<KeyListing>[] = [
  { header: 'Name', cell: (key) => key.name },
  { header: 'Key', cell: (key) => <code>{key.prefix}</code> },
  { header: 'Scopes', cell: (key) => key.scopes.join(', ') },
  { header: 'Created', cell: (key) => when(key.createdAt) },
  { header: 'Last used', cell: (key) => (key.lastUsedAt ? when(key.lastUsedAt) : 'never') },
  { header: 'Status', cell: (key) => (key.revokedAt ? `revoked ${when(key.revokedAt)}` : 'active') },
  {
    header: <span class="muted">Actions</span>,
    cell: (key) =>
      key.revokedAt ? null : (
        <div class="actions">
          <a href={`${KEY_SETTINGS_PATH}/${key.id}/replace`} aria-label={`Replace ${key.name}`}>
            Replace
          </a>
          <a href={`${KEY_SETTINGS_PATH}/${key.id}/revoke`} aria-label={`Revoke ${key.name}`}>
            Revoke
          </a>
        </div>
      ),
  },
];

function KeyTable({ list }: { list: KeyListing[] }) {
  return <Table rows={list} columns={KEY_COLUMNS} caption="Your organization's keys, active first." empty={<p>Your organization has no API keys yet.</p>} />;
}

function CreateForm({ values, errors }: { values?: { name: string; scopes: string[] }; errors?: FormErrors }) {
  const chosen = values?.scopes ?? [...SCOPES];
  const scopeError = errors?.fields.scopes;
  return (
    <section aria-labelledby="create-title">
      <h2 id="create-title">Create a key</h2>
      <ErrorSummary errors={errors} />
      <form method="post" action={KEY_SETTINGS_PATH} novalidate>
        <Field name="name" label="Name" hint='What the key is for, e.g. "CRM sync".' value={values?.name} errors={errors} required maxlength={100} />
        <fieldset aria-describedby={scopeError ? 'scopes-error' : undefined}>
          <legend>Scopes</legend>
          {scopeError ? (
            <p class="error" id="scopes-error">
              {scopeError}
            </p>
          ) : null}
          {SCOPES.map((scope) => (
            <div>
              <input type="checkbox" name="scopes" value={scope} id={`scope-${scope.replace(':', '-')}`} checked={chosen.includes(scope)} />{' '}
              <label for={`scope-${scope.replace(':', '-')}`}>{SCOPE_TEXT[scope]}</label>
            </div>
          ))}
        </fieldset>
        <button type="submit">Create key</button>
      </form>
    </section>
  );
}

function KeysPage({ list, created, origin, notice, values, errors }: { list: KeyListing[]; created?: CreatedKey; origin: string; notice?: string; values?: { name: string; scopes: string[] }; errors?: FormErrors }) {
  return (
    <>
      {notice ? <Notice>{notice}</Notice> : null}
      {created ? <NewKey created={created} origin={origin} /> : null}
      <p>
        Keys let scripts and agents use Recon's REST API and MCP server: send one as <code>Authorization: Bearer rk_live_…</code>. A revoked key stops
        working within 10 seconds.
      </p>
      <KeyTable list={list} />
      <CreateForm values={values} errors={errors} />
    </>
  );
}

const TITLE = 'API keys';

keys.get('/', async (c) => {
  const ctx = c.var.core;
  const done = c.req.query('done');
  const name = c.req.query('name');
  const notice = done === 'revoked' && name ? `Revoked "${name}". It stops working within 10 seconds.` : undefined;
  return c.render(<KeysPage list={await listApiKeys(ctx)} origin={new URL(c.req.url).origin} notice={notice} />, { title: TITLE });
});

keys.post('/', async (c) => {
  const ctx = c.var.core;
  const form = await readForm(c);
  const values = { name: text(form, 'name'), scopes: all(form, 'scopes') };
  try {
    const created = await createApiKey(ctx, values);
    c.status(201);
    return c.render(<KeysPage list={await listApiKeys(ctx)} created={created} origin={new URL(c.req.url).origin} />, { title: TITLE });
  } catch (error) {
    const errors = refused(c, error, { fields: ['name', 'scopes'] });
    return c.render(<KeysPage list={await listApiKeys(ctx)} origin={new URL(c.req.url).origin} values={values} errors={errors} />, { title: TITLE });
  }
});

/** The confirmation page of a revoke or a replace: what will happen, a button to do it, a way back. */
function Confirm({ keyListing, action }: { keyListing: KeyListing; action: 'revoke' | 'replace' }) {
  return (
    <>
      <p>
        {action === 'revoke'
          ? `Revoke "${keyListing.name}" (${keyListing.prefix})? Scripts and agents using it get 401 within 10 seconds. This cannot be undone.`
          : `Replace "${keyListing.name}" (${keyListing.prefix})? A new key with the same name and scopes (${keyListing.scopes.join(', ')}) is created and shown once, and this one is revoked: it stops working within 10 seconds.`}
      </p>
      <form method="post" action={`${KEY_SETTINGS_PATH}/${keyListing.id}/${action}`} class="actions">
        <button type="submit" class={action === 'revoke' ? 'danger' : undefined}>
          {action === 'revoke' ? 'Revoke key' : 'Replace key'}
        </button>
        <a class="button secondary" href={KEY_SETTINGS_PATH}>
          Cancel
        </a>
      </form>
    </>
  );
}

for (const action of ['revoke', 'replace'] as const) {
  const title = action === 'revoke' ? 'Revoke API key' : 'Replace API key';
  keys.get(`/:id/${action}`, async (c) => {
    const keyListing = await getApiKey(c.var.core, c.req.param('id'));
    if (keyListing.revokedAt) return c.redirect(KEY_SETTINGS_PATH, 303);
    return c.render(<Confirm keyListing={keyListing} action={action} />, { title });
  });
}

keys.post('/:id/revoke', async (c) => {
  await readForm(c);
  const revoked = await revokeApiKey(c.var.core, c.req.param('id'));
  return c.redirect(`${KEY_SETTINGS_PATH}?done=revoked&name=${encodeURIComponent(revoked.name)}`, 303);
});

keys.post('/:id/replace', async (c) => {
  const ctx = c.var.core;
  await readForm(c);
  const result = await replaceApiKey(ctx, c.req.param('id'));
  c.status(201);
  return c.render(
    <KeysPage list={await listApiKeys(ctx)} created={result} origin={new URL(c.req.url).origin} notice={`Replaced "${result.replaced.name}" (${result.replaced.prefix}); the old key stops working within 10 seconds.`} />,
    { title: TITLE },
  );
});

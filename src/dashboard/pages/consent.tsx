/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import type { Organization } from '../../ground/context.ts';
import { DomainError } from '../../ground/errors.ts';
import {
  allowAuthorization,
  AuthorizeRequestError,
  denyAuthorization,
  readAuthorization,
  type PendingAuthorization,
} from '../../oauth/consent.ts';
import { OAUTH_SCOPES, type OAuthScope } from '../../oauth/server.ts';
import { oauthOrigin } from '../../routes/oauth.ts';
import type { SignedInEnv } from '../env.ts';
import { all, readForm, text } from '../form.ts';
import { ErrorSummary, refused, type FormErrors } from '../refusal.tsx';

/**
 * The OAuth authorize endpoint (AUTHORIZE_PATH, /dashboard/oauth/authorize), behind sign-in: an
 * MCP client sends the person here; they pick one of their organizations and the scopes, and
 * allow (back to the client with a code) or deny (back with `access_denied`).
 *
 * The form posts to this same URL, query included: the POST reads and checks the client's
 * request again (client, registered redirect URI, PKCE, resource), so nothing about it travels in
 * form fields. Like every dashboard form it passes the CSRF check (Origin / Sec-Fetch-Site) and
 * needs the session; the page cannot be framed. Its Content-Security-Policy adds the client's
 * redirect origin to `form-action`, since browsers hold a form's redirects to that directive.
 */
export const consent = new Hono<SignedInEnv>();

const SCOPE_TEXT: Record<OAuthScope, string> = {
  commands: 'commands: run research, competitors and audits, read runs and the sales profile',
  'oms:read': 'oms:read: read objects (companies, people, sources, briefs) and their provenance',
  'oms:write': 'oms:write: import objects, request changes (a person approves them), manage watches',
};

const TITLE = 'Connect an MCP client';
const FIELDS = ['organization', 'scopes'] as const;

/** The dashboard's policy, with the client's redirect origin allowed as a form target (the redirect after Allow or Deny). */
function consentPolicy(redirectUri: string): string {
  const target = new URL(redirectUri);
  const formAction = target.protocol === 'https:' || target.protocol === 'http:' ? ` ${target.origin}` : '';
  return `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

function ConsentPage({ pending, action, chosen, errors }: { pending: PendingAuthorization; action: string; chosen: { organization: string; scopes: string[] }; errors?: FormErrors }) {
  const { description, organizations, refusedScopes } = pending;
  return (
    <>
      <ErrorSummary errors={errors} />
      <p>
        <strong>{description.clientName}</strong>
        {description.clientDomain ? ` (${description.clientDomain})` : ' (the name is the client’s own claim, not checked by Recon)'} wants to use Recon’s MCP
        server on your behalf.
      </p>
      <p>
        If you allow it, your browser goes on to <strong>{description.redirectHost}</strong>, which receives access to the organization and scopes you
        choose below until you revoke it or 30 days pass.
        {description.redirectIsLoopback ? ' That address is on your own computer: any program running there could receive the access, whatever the client calls itself.' : ''}
      </p>
      <form method="post" action={action} novalidate>
        <OrganizationChoice organizations={organizations} chosen={chosen.organization} error={errors?.fields.organization} />
        <fieldset aria-describedby={errors?.fields.scopes ? 'scopes-error scopes-hint' : 'scopes-hint'}>
          <legend>What it may do</legend>
          {errors?.fields.scopes ? (
            <p class="error" id="scopes-error">
              {errors.fields.scopes}
            </p>
          ) : null}
          {OAUTH_SCOPES.map((scope) => (
            <div>
              <input type="checkbox" name="scopes" value={scope} id={`scope-${scope.replace(':', '-')}`} checked={chosen.scopes.includes(scope)} />{' '}
              <label for={`scope-${scope.replace(':', '-')}`}>{SCOPE_TEXT[scope]}</label>
            </div>
          ))}
          <p class="hint" id="scopes-hint">
            Approving requested changes (oms:approve) is never granted to a client: people decide them in the dashboard.
            {refusedScopes.length ? ` The client also asked for ${refusedScopes.join(', ')}, which it cannot have.` : ''}
          </p>
        </fieldset>
        <div class="actions">
          <button type="submit" name="decision" value="allow">
            Allow
          </button>{' '}
          <button type="submit" name="decision" value="deny" class="secondary">
            Deny
          </button>
        </div>
      </form>
    </>
  );
}

function OrganizationChoice({ organizations, chosen, error }: { organizations: Organization[]; chosen: string; error?: string }) {
  return (
    <fieldset aria-describedby={error ? 'organization-error' : undefined}>
      <legend>For which organization</legend>
      {error ? (
        <p class="error" id="organization-error">
          {error}
        </p>
      ) : null}
      {organizations.map((organization) => (
        <div>
          <input type="radio" name="organization" value={organization.id} id={`organization-${organization.id}`} checked={organization.id === chosen} />{' '}
          <label for={`organization-${organization.id}`}>
            {organization.name} <span class="muted">({organization.slug})</span>
          </label>
        </div>
      ))}
    </fieldset>
  );
}

/**
 * A request that cannot go back to the client (unknown client, unregistered redirect URI, another
 * host): a refusal for the dashboard's error page (onError, under this page's title), never a redirect.
 */
function cannotComplete(code: 'invalid_input' | 'access_denied', message: string): DomainError {
  return new DomainError(code, `This connection request cannot be completed: ${message} Start again from your MCP client.`);
}

/** The OAuth request's origin, or 403 when OAuth is not served on this host. */
function originOf(c: Context): string {
  const origin = oauthOrigin(c);
  if (!origin) throw cannotComplete('access_denied', 'OAuth is not served on this host.');
  return origin;
}

consent.use(async function consentErrorTitle(c, next) {
  c.set('errorTitle', TITLE);
  await next();
});

consent.get('/authorize', async (c) => {
  const origin = originOf(c);
  const session = c.var.session;
  let pending: PendingAuthorization;
  try {
    pending = await readAuthorization(c.env, c.var.db, c.req.raw, origin, session.user.id);
  } catch (error) {
    if (!(error instanceof AuthorizeRequestError)) throw error;
    if (error.redirectTo) return c.redirect(error.redirectTo, 302);
    throw cannotComplete('invalid_input', error.message);
  }
  const url = new URL(c.req.url);
  c.header('Content-Security-Policy', consentPolicy(pending.request.redirectUri));
  return c.render(<ConsentPage pending={pending} action={url.pathname + url.search} chosen={{ organization: session.organization.id, scopes: pending.proposedScopes }} />, {
    title: TITLE,
  });
});

consent.post('/authorize', async (c) => {
  const origin = originOf(c);
  const session = c.var.session;
  const form = await readForm(c);
  const fields = { organization: text(form, 'organization'), scopes: all(form, 'scopes') };
  try {
    const { redirectTo } =
      text(form, 'decision') === 'deny'
        ? await denyAuthorization(c.env, c.req.raw, origin)
        : await allowAuthorization(c.env, c.var.db, c.req.raw, origin, session.user.id, fields);
    return c.redirect(redirectTo, 303);
  } catch (error) {
    if (error instanceof AuthorizeRequestError) {
      if (error.redirectTo) return c.redirect(error.redirectTo, 303);
      throw cannotComplete('invalid_input', error.message);
    }
    const errors = refused(c, error, { fields: FIELDS });
    const pending = await readAuthorization(c.env, c.var.db, c.req.raw, origin, session.user.id);
    const url = new URL(c.req.url);
    c.header('Content-Security-Policy', consentPolicy(pending.request.redirectUri));
    return c.render(<ConsentPage pending={pending} action={url.pathname + url.search} chosen={fields} errors={errors} />, { title: TITLE });
  }
});

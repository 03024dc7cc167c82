/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { DomainError } from '../../ground/errors.ts';
import { acceptInvite, createInvite, describeInvite, getTeam } from '../../operations/account-invites.ts';
import { ErrorSummary, Field, Notice, when } from '../components.tsx';
import type { DashboardEnv } from '../env.ts';
import { formErrors, readForm, text, type FormErrors } from '../form.ts';
import { requireSession } from '../middleware.ts';
import { writeSessionCookie } from '../session-cookie.ts';
import { accountContext, refusedWith } from '../status.ts';

/** The team page (members, invitation links) and the page an invitation link opens. */
export const team = new Hono<DashboardEnv>();

/**
 * The link an invitation is accepted at. The token travels in the query, not the path: the
 * access log records paths only, so tokens never reach the logs.
 */
function inviteUrl(origin: string, token: string): string {
  return `${origin}/dashboard/invite?token=${token}`;
}

function TeamPage({ view, link, expiresAt, errors }: { view: Awaited<ReturnType<typeof getTeam>>; link?: string; expiresAt?: string; errors?: FormErrors }) {
  return (
    <>
      {link ? (
        <section class="alert alert-ok" aria-labelledby="invite-title">
          <h2 id="invite-title">Invitation link</h2>
          <p>
            <strong>Send this link to your teammate now: it will not be shown again.</strong> It works once, until {when(expiresAt)}.
          </p>
          <div class="secret">
            <code id="invite-link">{link}</code>
            <button type="button" data-copy="invite-link">
              Copy
            </button>
          </div>
        </section>
      ) : null}
      <h2>Members</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Joined</th>
          </tr>
        </thead>
        <tbody>
          {view.members.map((member) => (
            <tr>
              <td>{member.name}</td>
              <td>{member.email}</td>
              <td>{when(member.joinedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Invite a teammate</h2>
      <ErrorSummary errors={errors} />
      <p>Create a one-time link and send it to your teammate; they choose their name and password and join your organization.</p>
      <form method="post" action="/dashboard/team/invites">
        <button type="submit">Create invitation link</button>
      </form>
      {view.invites.length ? (
        <>
          <h2>Invitations</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">By</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {view.invites.map((invite) => (
                <tr>
                  <td>{when(invite.createdAt)}</td>
                  <td>{invite.createdBy}</td>
                  <td>
                    {invite.usedAt
                      ? `used by ${invite.usedBy ?? 'someone'} ${when(invite.usedAt)}`
                      : Date.parse(invite.expiresAt) <= Date.now()
                        ? 'expired'
                        : `open until ${when(invite.expiresAt)}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </>
  );
}

team.get('/team', requireSession(), async (c) => c.render(<TeamPage view={await getTeam(accountContext(c))} />, { title: 'Team' }));

team.post('/team/invites', requireSession(), async (c) => {
  await readForm(c);
  const ctx = accountContext(c);
  try {
    const invite = await createInvite(ctx);
    c.status(201);
    return c.render(<TeamPage view={await getTeam(ctx)} link={inviteUrl(new URL(c.req.url).origin, invite.token)} expiresAt={invite.expiresAt} />, { title: 'Team' });
  } catch (error) {
    const errors = formErrors(error, []);
    refusedWith(c, error);
    return c.render(<TeamPage view={await getTeam(ctx)} errors={errors} />, { title: 'Team' });
  }
});

const INVITE_FIELDS = ['name', 'email', 'password'] as const;

function InvitePage({ token, organization, signedInAs, values = {}, errors }: { token: string; organization: string; signedInAs?: string; values?: Record<string, string>; errors?: FormErrors }) {
  return (
    <>
      <ErrorSummary errors={errors} />
      <form method="post" action="/dashboard/invite" novalidate>
        <input type="hidden" name="token" value={token} />
        {signedInAs ? (
          <>
            <p>
              You are signed in as {signedInAs}. Join {organization} with this account?
            </p>
            <button type="submit">Join {organization}</button>
          </>
        ) : (
          <>
            <p>
              You were invited to join {organization} on Recon. Choose your name and password. Already have an account?{' '}
              <a href={`/dashboard/sign-in?next=${encodeURIComponent(`/dashboard/invite?token=${token}`)}`}>Sign in</a> first, then open this link again.
            </p>
            <Field name="name" label="Your name" value={values.name} errors={errors} autocomplete="name" required maxlength={100} />
            <Field name="email" label="Email" type="email" value={values.email} errors={errors} autocomplete="email" required maxlength={254} />
            <Field name="password" label="Password" type="password" hint="At least 12 characters." errors={errors} autocomplete="new-password" required maxlength={256} />
            <button type="submit">Join {organization}</button>
          </>
        )}
      </form>
    </>
  );
}

function InvalidInvite({ message }: { message: string }) {
  return <Notice>{message}</Notice>;
}

team.get('/invite', async (c) => {
  const token = c.req.query('token') ?? '';
  try {
    const invite = await describeInvite(c.env, token);
    return c.render(<InvitePage token={token} organization={invite.organization.name} signedInAs={c.var.session?.user.email} />, { title: `Join ${invite.organization.name}` });
  } catch (error) {
    const errors = formErrors(error, []);
    refusedWith(c, error);
    return c.render(<InvalidInvite message={errors.summary ?? ''} />, { title: 'Invitation' });
  }
});

team.post('/invite', async (c) => {
  const form = await readForm(c);
  const token = text(form, 'token');
  const session = c.var.session;
  const values = Object.fromEntries(INVITE_FIELDS.map((name) => [name, text(form, name)]));
  const clientAddress = c.req.header('CF-Connecting-IP');
  try {
    const issued = await acceptInvite(c.env, token, session ? { session, previousToken: c.var.sessionToken } : { raw: values }, { clientAddress });
    writeSessionCookie(c, issued.token, issued.expiresAt);
    return c.redirect('/dashboard', 303);
  } catch (error) {
    const errors = formErrors(error, INVITE_FIELDS);
    refusedWith(c, error);
    if (error instanceof DomainError && error.code === 'not_found') return c.render(<InvalidInvite message={errors.summary ?? ''} />, { title: 'Invitation' });
    const invite = await describeInvite(c.env, token).catch(() => undefined);
    if (!invite) return c.render(<InvalidInvite message={errors.summary ?? ''} />, { title: 'Invitation' });
    return c.render(<InvitePage token={token} organization={invite.organization.name} values={{ ...values, password: '' }} errors={errors} />, { title: `Join ${invite.organization.name}` });
  }
});

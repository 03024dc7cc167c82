/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { DomainError } from '../../ground/errors.ts';
import { acceptInvite, createInvite, describeInvite, getTeam, type TeamView } from '../../operations/account/account-invites.ts';
import { Field, Notice, Table, when, type Column } from '../components.tsx';
import type { DashboardEnv } from '../env.ts';
import { readForm, text } from '../form.ts';
import { ErrorSummary, refused, type FormErrors } from '../refusal.tsx';
import { requireSession } from '../session.ts';
import { writeSessionCookie } from '../session-cookie.ts';

/** The team page (members, invitation links) and the page an invitation link opens. */
export const team = new Hono<DashboardEnv>();

/**
 * The link an invitation is accepted at. The token travels in the query, not the path: the
 * access log records paths only, so tokens never reach the logs.
 */
function inviteUrl(origin: string, token: string): string {
  return `${origin}/dashboard/invite?token=${token}`;
}

const MEMBER_COLUMNS: Column<TeamView['members'][number]>[] = [
  { header: 'Name', cell: (member) => member.name },
  { header: 'Email', cell: (member) => member.email },
  { header: 'Joined', cell: (member) => when(member.joinedAt) },
];

/** Where an invitation stands: used (by whom, when), expired, or open until when. */
function inviteStatus(invite: TeamView['invites'][number]): string {
  if (invite.usedAt) return `used by ${invite.usedBy ?? 'someone'} ${when(invite.usedAt)}`;
  return Date.parse(invite.expiresAt) <= Date.now() ? 'expired' : `open until ${when(invite.expiresAt)}`;
}

const INVITE_COLUMNS: Column<TeamView['invites'][number]>[] = [
  { header: 'Created', cell: (invite) => when(invite.createdAt) },
  { header: 'By', cell: (invite) => invite.createdBy },
  { header: 'Status', cell: inviteStatus },
];

function TeamPage({ view, link, expiresAt, errors }: { view: TeamView; link?: string; expiresAt?: string; errors?: FormErrors }) {
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
      <Table rows={view.members} columns={MEMBER_COLUMNS} />
      <h2>Invite a teammate</h2>
      <ErrorSummary errors={errors} />
      <p>Create a one-time link and send it to your teammate; they choose their name and password and join your organization.</p>
      <form method="post" action="/dashboard/team/invites">
        <button type="submit">Create invitation link</button>
      </form>
      {view.invites.length ? (
        <>
          <h2>Invitations</h2>
          <Table rows={view.invites} columns={INVITE_COLUMNS} />
        </>
      ) : null}
    </>
  );
}

team.get('/team', requireSession(), async (c) => c.render(<TeamPage view={await getTeam(c.var.core)} />, { title: 'Team' }));

team.post('/team/invites', requireSession(), async (c) => {
  await readForm(c);
  const ctx = c.var.core;
  try {
    const invite = await createInvite(ctx);
    c.status(201);
    return c.render(<TeamPage view={await getTeam(ctx)} link={inviteUrl(new URL(c.req.url).origin, invite.token)} expiresAt={invite.expiresAt} />, { title: 'Team' });
  } catch (error) {
    const errors = refused(c, error);
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
    const invite = await describeInvite(c.var.db, token);
    return c.render(<InvitePage token={token} organization={invite.organization.name} signedInAs={c.var.session?.user.email} />, { title: `Join ${invite.organization.name}` });
  } catch (error) {
    const errors = refused(c, error);
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
    const issued = await acceptInvite(c.env, c.var.db, token, session ? { userId: session.user.id, previousToken: c.var.sessionToken } : { raw: values }, { clientAddress });
    writeSessionCookie(c, issued.token, issued.expiresAt);
    return c.redirect('/dashboard', 303);
  } catch (error) {
    const errors = refused(c, error, { fields: INVITE_FIELDS });
    if (error instanceof DomainError && error.code === 'not_found') return c.render(<InvalidInvite message={errors.summary ?? ''} />, { title: 'Invitation' });
    const invite = await describeInvite(c.var.db, token).catch(() => undefined);
    if (!invite) return c.render(<InvalidInvite message={errors.summary ?? ''} />, { title: 'Invitation' });
    return c.render(<InvitePage token={token} organization={invite.organization.name} values={{ ...values, password: '' }} errors={errors} />, { title: `Join ${invite.organization.name}` });
  }
});

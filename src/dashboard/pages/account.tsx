/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { signIn, signOut, signUp } from '../../operations/account/account.ts';
import { Field } from '../components.tsx';
import type { DashboardEnv } from '../env.ts';
import { readForm, text } from '../form.ts';
import { safeNext } from '../middleware.ts';
import { ErrorSummary, refused, type FormErrors } from '../refusal.tsx';
import { clearSessionCookie, writeSessionCookie } from '../session-cookie.ts';

/** Sign up, sign in and sign out: the pages anyone can reach. */
export const account = new Hono<DashboardEnv>();

const SIGN_UP_FIELDS = ['organizationName', 'name', 'email', 'password'] as const;

function SignUpForm({ values = {}, errors }: { values?: Record<string, string>; errors?: FormErrors }) {
  return (
    <>
      <p>Create your organization's Recon account. You can invite teammates once you are in.</p>
      <ErrorSummary errors={errors} />
      <form method="post" action="/dashboard/sign-up" novalidate>
        <Field name="organizationName" label="Organization" value={values.organizationName} errors={errors} autocomplete="organization" required maxlength={100} />
        <Field name="name" label="Your name" value={values.name} errors={errors} autocomplete="name" required maxlength={100} />
        <Field name="email" label="Email" type="email" value={values.email} errors={errors} autocomplete="email" required maxlength={254} />
        <Field name="password" label="Password" type="password" hint="At least 12 characters." errors={errors} autocomplete="new-password" required maxlength={256} />
        <button type="submit">Create account</button>
      </form>
      <p>
        Already have an account? <a href="/dashboard/sign-in">Sign in</a>
      </p>
    </>
  );
}

account.get('/sign-up', (c) => (c.var.session ? c.redirect('/dashboard', 303) : c.render(<SignUpForm />, { title: 'Create your account' })));

account.post('/sign-up', async (c) => {
  const form = await readForm(c);
  const values = Object.fromEntries(SIGN_UP_FIELDS.map((name) => [name, text(form, name)]));
  try {
    const session = await signUp(c.env, c.var.db, values, { clientAddress: c.req.header('CF-Connecting-IP') });
    writeSessionCookie(c, session.token, session.expiresAt);
    return c.redirect('/dashboard/onboarding', 303);
  } catch (error) {
    const errors = refused(c, error, { fields: SIGN_UP_FIELDS });
    return c.render(<SignUpForm values={{ ...values, password: '' }} errors={errors} />, { title: 'Create your account' });
  }
});

function SignInForm({ email, next, errors }: { email?: string; next: string; errors?: FormErrors }) {
  return (
    <>
      <ErrorSummary errors={errors} />
      <form method="post" action="/dashboard/sign-in" novalidate>
        <input type="hidden" name="next" value={next} />
        <Field name="email" label="Email" type="email" value={email} errors={errors} autocomplete="username" required maxlength={254} />
        <Field name="password" label="Password" type="password" errors={errors} autocomplete="current-password" required maxlength={256} />
        <button type="submit">Sign in</button>
      </form>
      <p>
        New to Recon? <a href="/dashboard/sign-up">Create an account</a>
      </p>
    </>
  );
}

account.get('/sign-in', (c) => {
  const next = safeNext(c.req.query('next'));
  return c.var.session ? c.redirect(next, 303) : c.render(<SignInForm next={next} />, { title: 'Sign in' });
});

account.post('/sign-in', async (c) => {
  const form = await readForm(c);
  const next = safeNext(text(form, 'next'));
  const email = text(form, 'email');
  try {
    const session = await signIn(c.env, c.var.db, { email, password: text(form, 'password') }, { clientAddress: c.req.header('CF-Connecting-IP'), previousToken: c.var.sessionToken });
    writeSessionCookie(c, session.token, session.expiresAt);
    return c.redirect(next, 303);
  } catch (error) {
    const errors = refused(c, error, { fields: ['email', 'password'] });
    return c.render(<SignInForm email={email} next={next} errors={errors} />, { title: 'Sign in' });
  }
});

account.post('/sign-out', async (c) => {
  await readForm(c);
  await signOut(c.var.db, c.var.sessionToken);
  clearSessionCookie(c);
  return c.redirect('/dashboard/sign-in', 303);
});

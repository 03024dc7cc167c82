/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { KEY_SETTINGS_PATH, ONBOARDING_PATH } from '../../ground/dashboard-paths.ts';
import type { SignedInEnv } from '../env.ts';

/** The overview: where the organization stands and the three steps to a first command. */
export const home = new Hono<SignedInEnv>();

home.get('/', (c) => {
  const { session } = c.var;
  const origin = new URL(c.req.url).origin;
  return c.render(
    <>
      <p>
        Signed in as {session.user.name} ({session.user.email}) to <strong>{session.organization.name}</strong> (organization{' '}
        <code>{session.organization.slug}</code>).
      </p>
      <h2>Get started</h2>
      <ol>
        <li>
          {session.onboarded ? 'Your sales profile is complete. ' : 'Finish your sales profile: commands answer 428 until it is done. '}
          <a href={ONBOARDING_PATH}>{session.onboarded ? 'Edit the sales profile' : 'Finish the sales profile'}</a>
        </li>
        <li>
          <a href={KEY_SETTINGS_PATH}>Create an API key</a>; it is shown once.
        </li>
        <li>
          Call the API with it:
          <pre>
            <code>{`curl -X POST -H "Authorization: Bearer rk_live_..." -d '{"topic": "pricing"}' ${origin}/api/v1/commands/research`}</code>
          </pre>
        </li>
      </ol>
    </>,
    { title: 'Overview' },
  );
});

/** @jsxImportSource hono/jsx */
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import { jsxRenderer } from 'hono/jsx-renderer';
import { ONBOARDING_PATH } from '../ground/dashboard-paths.ts';
import { assetUrl } from './assets.ts';
import type { DashboardEnv, PageProps } from './env.ts';

/**
 * The navigation of signed-in pages, in order. A new page adds one entry here (its path under
 * /dashboard and its label); the current page is marked with aria-current.
 */
export const NAV: ReadonlyArray<{ path: string; label: string }> = [
  { path: '/dashboard', label: 'Overview' },
  { path: '/dashboard/research', label: 'Research' },
  { path: '/dashboard/briefs', label: 'Briefs' },
  { path: '/dashboard/runs', label: 'Runs' },
  { path: '/dashboard/watches', label: 'Watches' },
  { path: '/dashboard/changes', label: 'Changes' },
  { path: '/dashboard/approvals', label: 'Approvals' },
  { path: '/dashboard/objects', label: 'Objects' },
  { path: ONBOARDING_PATH, label: 'Sales profile' },
  { path: '/dashboard/settings/keys', label: 'API keys' },
  { path: '/dashboard/settings/connections', label: 'MCP clients' },
  { path: '/dashboard/team', label: 'Team' },
];

function isCurrent(path: string, current: string): boolean {
  return path === '/dashboard' ? current === '/dashboard' : current === path || current.startsWith(`${path}/`);
}

/** Every page: skip link, header with navigation and sign-out, main (the onboarding banner first), footer. */
function Page({ title, children }: PageProps & { children?: Child }, c: Context<DashboardEnv>) {
  const session = c.var.session;
  const current = c.req.path;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Recon`}</title>
        <link rel="stylesheet" href={assetUrl('dashboard.css')} />
        <script src={assetUrl('dashboard.js')} defer></script>
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <header class="site-header">
          <a class="brand" href="/dashboard">
            Recon
          </a>
          {session ? (
            <>
              <nav aria-label="Dashboard">
                <ul>
                  {NAV.map((item) => (
                    <li>
                      <a href={item.path} aria-current={isCurrent(item.path, current) ? 'page' : undefined}>
                        {item.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
              <div class="account">
                <span>
                  {session.user.name} · {session.organization.name}
                </span>
                <form method="post" action="/dashboard/sign-out">
                  <button type="submit" class="link-button">
                    Sign out
                  </button>
                </form>
              </div>
            </>
          ) : null}
        </header>
        <main id="main" tabindex={-1}>
          {/* Inside main, so it is in a landmark and read first after "Skip to content". */}
          {session && !session.onboarded ? (
            <div class="banner" role="note" aria-label="Onboarding">
              <p>
                Your organization has not finished its sales profile, so commands answer 428 until it does.{' '}
                <a href={ONBOARDING_PATH}>Finish the sales profile</a>
              </p>
            </div>
          ) : null}
          <h1>{title}</h1>
          {children}
        </main>
        <footer class="site-footer">
          <p>
            Recon · <a href="/api/v1/docs">API reference</a>
          </p>
        </footer>
      </body>
    </html>
  );
}

/** The dashboard's renderer: `c.render(content, { title })` wraps content in the page. */
export const renderer = jsxRenderer<DashboardEnv>(Page as never, { docType: true });

import type { AppEnv } from '../env.ts';
import type { CoreContext } from '../ground/context.ts';
import type { RequestSession } from '../ground/db-session.ts';
import type { SessionRecord } from '../operations/account/account.ts';

/**
 * The dashboard's types: the session on a request, the Hono environments of its pages, and what a
 * page passes to the layout. How a request gets its session and its core context is session.ts.
 */

/** A signed-in person, their current organization and whether it finished onboarding: what the cookie's session stands for. */
export type SessionView = SessionRecord;

/**
 * The Hono environment of every dashboard page: the app's bindings and request variables (not the
 * API key's `principal`: the dashboard has none), plus what loadSession() found.
 */
export interface DashboardEnv {
  Bindings: AppEnv['Bindings'];
  Variables: Omit<AppEnv['Variables'], 'principal' | 'core'> & {
    /** Set by loadSession(): the request's one D1 session, which everything the page does goes through. */
    db: RequestSession;
    /** The live session of the cookie, or null (signed out). */
    session: SessionView | null;
    /** The cookie's raw token, when it named a live session (for rotation and sign-out). */
    sessionToken?: string;
    /** Set by requireSession(): the core context of the signed-in person. */
    core?: CoreContext;
    /** The title of the error page a refusal on this page gets (default: by the error's code; index.tsx's onError). */
    errorTitle?: string;
  };
}

/**
 * The environment of a page behind requireSession(): the session is there, and `core` is what
 * every operation takes (coreContextFor in session.ts), so pages read it instead of building it.
 */
export interface SignedInEnv {
  Bindings: DashboardEnv['Bindings'];
  Variables: DashboardEnv['Variables'] & { session: SessionView; core: CoreContext };
}

/** Props every page passes to the layout through `c.render(content, props)`. */
export interface PageProps {
  title: string;
}

declare module 'hono' {
  interface ContextRenderer {
    (content: string | Promise<string>, props: PageProps): Response | Promise<Response>;
  }
}

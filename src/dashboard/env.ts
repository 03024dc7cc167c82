import type { AppEnv } from '../env.ts';
import type { SessionView } from '../operations/account.ts';

/** The dashboard's Hono environment: the app's, plus the session loadSession() found (null: none). */
export interface DashboardEnv {
  Bindings: AppEnv['Bindings'];
  Variables: AppEnv['Variables'] & {
    session: SessionView | null;
    /** The cookie's raw token, when it named a live session (for rotation and sign-out). */
    sessionToken?: string;
  };
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

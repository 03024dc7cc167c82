import type { RequestIdVariables } from 'hono/request-id';
import type { CoreContext, Principal } from './ground/context.ts';

/** The Hono environment of the app: bindings from `wrangler types`, variables set by middleware. */
export interface AppEnv {
  Bindings: Env;
  Variables: RequestIdVariables & {
    /** Set by apiKeyAuth: the calling key and its organization. */
    principal: Principal;
    /** Set by apiKeyAuth: what core operations take. */
    core: CoreContext;
    /** Set by the error funnel, read by the access log: the error code sent, if any. */
    errorCode?: string;
  };
}

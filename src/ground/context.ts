import type { Scope } from './api-key.ts';
import type { RequestSession } from './db-session.ts';

/** The organization a request acts for. */
export interface Organization {
  id: string;
  slug: string;
  name: string;
}

/** Who is calling: the key (by id, never its secret) and the organization it belongs to. */
export interface Principal {
  organization: Organization;
  keyId: string;
  scopes: readonly Scope[];
}

/**
 * Everything a core operation needs, whichever door the call came through. Doors build it once
 * per request; core functions take it first.
 */
export interface CoreContext {
  env: Env;
  /**
   * The request's one D1 session (./db-session.ts): every D1 statement of the call goes through it.
   * callOperation sets how fresh its reads must be from the operation's declaration; the doors send
   * its bookmark back to the client and hand it the one the client sent.
   */
  db: RequestSession;
  principal: Principal;
  requestId: string;
  /** The origin the request reached this deployment at (`https://recon.example.com`), when a request started the call: a site read names its /bot page by it. */
  origin?: string;
  /**
   * True once the request has spent its one rate-limit token: set by the MCP door, which spends it
   * as a message arrives (spendRateLimit, src/operations/call.ts), so the operations a tool call
   * runs spend no other. Unset, callOperation spends the operation's bucket.
   */
  rateLimitSpent?: boolean;
}

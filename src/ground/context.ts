import type { Scope } from './api-key.ts';

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
  principal: Principal;
  requestId: string;
  /** The origin the request reached this deployment at (`https://recon.example.com`), when a request started the call: a site read names its /bot page by it. */
  origin?: string;
}

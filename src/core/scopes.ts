import type { Scope } from '../auth/api-key.ts';
import type { CoreContext } from './context.ts';
import { DomainError } from './errors.ts';

/** Throws 403 `access_denied` unless the calling key carries `scope`. */
export function assertScope(ctx: CoreContext, scope: Scope): void {
  if (!ctx.principal.scopes.includes(scope)) {
    throw new DomainError(
      'access_denied',
      `This API key lacks the '${scope}' scope. Create a key with it: npm run keys -- create --org ${ctx.principal.organization.slug} --name <name> --scopes ${scope}`,
    );
  }
}

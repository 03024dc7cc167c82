import type { Scope } from './api-key.ts';
import type { CoreContext } from './context.ts';
import { DomainError } from './errors.ts';

/** Throws 403 `access_denied` unless the calling key carries `scope`. */
export function assertScope(ctx: CoreContext, scope: Scope): void {
  if (!ctx.principal.scopes.includes(scope)) {
    throw new DomainError(
      'access_denied',
      `This API key lacks the '${scope}' scope; ask your organization's admin for a key that has it (a key's scopes are chosen when it is created), and send that key instead.`,
    );
  }
}

import type { Scope } from './api-key.ts';
import type { CoreContext } from './context.ts';
import { KEY_SETTINGS_PATH } from './dashboard-paths.ts';
import { DomainError } from './errors.ts';

/** Throws 403 `access_denied` unless the calling key carries `scope`. */
export function assertScope(ctx: CoreContext, scope: Scope): void {
  if (!ctx.principal.scopes.includes(scope)) {
    throw new DomainError(
      'access_denied',
      `This API key lacks the '${scope}' scope; create a key that has it on the dashboard's API key settings page (${KEY_SETTINGS_PATH}; a key's scopes are chosen when it is created), and send that key instead.`,
    );
  }
}

import type { OperationDefinition } from './definition.ts';
import { ACTION_OPERATIONS } from './actions/action-operations.ts';
import { CHANGE_OPERATIONS } from './changes/change-operations.ts';
import { COMMAND_OPERATIONS } from './commands/command-operations.ts';
import { OMS_READ_OPERATIONS } from './oms/oms-read-operations.ts';
import { OMS_WRITE_OPERATIONS } from './oms/oms-write-operations.ts';
import { PROFILE_OPERATIONS } from './profile/profile-operations.ts';
import { RUN_OPERATIONS } from './runs/run-operations.ts';
import { WATCH_OPERATIONS } from './watches/watch-operations.ts';

/**
 * Every operation Recon serves, each declared once in the folder of its resource. The REST routes
 * and the OpenAPI document (src/routes/operations.ts), the MCP tools and tools/list
 * (src/mcp/tools/) and the catalog come from this list, and every call spends the rate bucket its
 * operation declares (callOperation, ./call.ts); a new operation is one declaration here plus its
 * function. Its order is the order of the OpenAPI document's paths and of tools/list.
 */
export const OPERATIONS: readonly OperationDefinition[] = [
  ...COMMAND_OPERATIONS,
  ...RUN_OPERATIONS,
  ...PROFILE_OPERATIONS,
  ...OMS_WRITE_OPERATIONS,
  ...OMS_READ_OPERATIONS,
  ...ACTION_OPERATIONS,
  ...WATCH_OPERATIONS,
  ...CHANGE_OPERATIONS,
];

const BY_ID = new Map(OPERATIONS.map((operation) => [operation.id, operation]));
if (BY_ID.size !== OPERATIONS.length) {
  const ids = OPERATIONS.map((operation) => operation.id);
  throw new Error(`Operation ids must be unique: ${ids.filter((id, at) => ids.indexOf(id) !== at).join(', ')} declared twice`);
}

/** The operation with this id (`gtm-audit`, `watch-create`); a mistake in the caller when there is none. */
export function operationById(id: string): OperationDefinition {
  const operation = BY_ID.get(id);
  if (!operation) throw new Error(`No operation has the id '${id}'.`);
  return operation;
}

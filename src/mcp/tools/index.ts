import { actionTools } from './actions.ts';
import { commandTools } from './commands.ts';
import { objectTools } from './objects.ts';
import { omsTools } from './oms.ts';
import { profileTools } from './profile.ts';
import { runTools } from './runs.ts';
import { sourceTools } from './sources.ts';
import { watchTools } from './watches.ts';
import { toListedTool, type ToolDefinition } from './registry.ts';

/** Every MCP tool Recon serves. Later resources append their `<resource>Tools` here. */
export const TOOLS: readonly ToolDefinition[] = [...commandTools, ...runTools, ...profileTools, ...objectTools, ...sourceTools, ...omsTools, ...actionTools, ...watchTools];

export const TOOLS_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));

/**
 * tools/list entries, computed once per isolate (building them per request is what costs): with
 * `execution.taskSupport` for protocol versions that have tasks, without it for older ones.
 */
export const LISTED_TOOLS = new Map(TOOLS.map((tool) => [tool.name, toListedTool(tool, true)]));
export const LISTED_TOOLS_WITHOUT_TASKS = new Map(TOOLS.map((tool) => [tool.name, toListedTool(tool, false)]));

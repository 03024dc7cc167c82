/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/operations/commands/command-operations.ts';
import { OPERATIONS, operationById } from '../../src/operations/index.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';

const OPERATION_FILES = Object.keys(import.meta.glob('/src/operations/**/*.{ts,tsx}'));

describe('the operations, each declared once', () => {
  it('have ids, unique and in kebab-case, by which they are found', () => {
    const ids = OPERATIONS.map((operation) => operation.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(-[a-z]+)*$/);
    for (const operation of OPERATIONS) expect(operationById(operation.id)).toBe(operation);
    expect(() => operationById('no-such-operation')).toThrow(/no-such-operation/);
  });

  it("name each MCP tool by its operation's id, and each command's route by it", () => {
    expect(TOOLS.map((tool) => tool.id)).toEqual(OPERATIONS.filter((operation) => operation.mcp).map((operation) => operation.id));
    for (const command of COMMANDS) {
      expect(command.command, command.id).toBeDefined();
      expect(command.rest?.path).toBe(`/commands/${command.id}`);
      expect(command.bucket).toBe('commands');
    }
    expect(OPERATIONS.filter((operation) => operation.command)).toEqual(COMMANDS);
  });

  it('live one folder per resource under src/operations/, with no file name repeated', () => {
    expect(OPERATION_FILES.length).toBeGreaterThan(20);
    const names = OPERATION_FILES.map((path) => path.slice(path.lastIndexOf('/') + 1));
    expect(names.filter((name, at) => names.indexOf(name) !== at)).toEqual([]);
    // Only the shape, the call and the list sit beside the folders.
    expect(OPERATION_FILES.filter((path) => path.split('/').length === 4).sort()).toEqual(
      ['/src/operations/call.ts', '/src/operations/definition.ts', '/src/operations/index.ts'],
    );
  });
});

import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { CoreContext } from '../../src/ground/context.ts';
import type { TestOrganization } from '../helpers/fixtures.ts';
import { contextOf } from './action-helpers.ts';
import { requestDbOver } from '../helpers/request-db.ts';

/** The SQL of a prepared statement (workerd's D1PreparedStatement keeps it in `statement`). */
export function sqlOf(statement: D1PreparedStatement): string {
  const sql = (statement as unknown as { statement?: unknown }).statement;
  expect(typeof sql, 'workerd D1PreparedStatement.statement').toBe('string');
  return sql as string;
}

/** Whether one of `statements` matches `pattern` (e.g. /^\s*INSERT INTO objects/). */
export const batchHas = (statements: readonly D1PreparedStatement[], pattern: RegExp) => statements.some((s) => pattern.test(sqlOf(s)));

/**
 * The real test database, with `before` run ahead of every batch: it may write through the real
 * database (a concurrent writer landing between an operation's reads and its batch) and may return
 * the statements to run instead.
 */
export function interposedDb(before: (statements: D1PreparedStatement[]) => Promise<D1PreparedStatement[] | void>): D1Database {
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'batch') return async (statements: D1PreparedStatement[]) => target.batch((await before(statements)) ?? statements);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The core context of `keyId` in `org`, with `db` as its database. */
export function contextWithDb(org: TestOrganization, keyId: string, db: D1Database): CoreContext {
  const ctx = contextOf(org, keyId);
  return { ...ctx, env: { ...ctx.env, DB: db }, db: requestDbOver(db) };
}

/** The statements that touch OMS data (objects or links), as opposed to reads and approval bookkeeping. */
export const CHANGES = /^\s*(INSERT INTO|DELETE FROM) (objects|links)\b/;

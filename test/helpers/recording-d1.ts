/** What an operation asked of D1 through `batch`, and the largest string it bound to any statement. */
export interface D1Work {
  batches: number;
  /** Statements sent in those batches, all together. */
  statements: number;
  /** UTF-8 bytes of the largest string bound to any statement (D1 refuses one over 2,000,000 bytes). */
  largestParameterBytes: number;
}

const encoder = new TextEncoder();

/**
 * The real D1 binding, with every bind and batch measured on the way through; the queries
 * still run against D1 as they would without it.
 */
export function recordingD1(db: D1Database): { db: D1Database; work: D1Work } {
  const work: D1Work = { batches: 0, statements: 0, largestParameterBytes: 0 };
  const watchStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        if (property === 'bind') {
          return (...values: unknown[]) => {
            for (const value of values) {
              if (typeof value === 'string') work.largestParameterBytes = Math.max(work.largestParameterBytes, encoder.encode(value).byteLength);
            }
            return target.bind(...values);
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const recorded = new Proxy(db, {
    get(target, property) {
      if (property === 'prepare') return (sql: string) => watchStatement(target.prepare(sql));
      if (property === 'batch') {
        return (statements: D1PreparedStatement[]) => {
          work.batches++;
          work.statements += statements.length;
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: recorded, work };
}

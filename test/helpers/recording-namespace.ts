/** One `get` or `getByName` a Durable Object namespace was asked for: the object and the options passed. */
export interface ObjectGet {
  method: 'get' | 'getByName';
  /** The id's string (`get`) or the name (`getByName`). */
  object: string;
  options: DurableObjectNamespaceGetDurableObjectOptions | undefined;
}

/**
 * The real namespace binding, with the options of every `get` and `getByName` recorded (the stubs
 * are the real ones, so the objects run as they would).
 */
export function recordingNamespace<T extends Rpc.DurableObjectBranded | undefined>(
  real: DurableObjectNamespace<T>,
): { namespace: DurableObjectNamespace<T>; gets: ObjectGet[] } {
  const gets: ObjectGet[] = [];
  const namespace = new Proxy(real, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (property === 'get' || property === 'getByName') {
          const [object, options] = args as [DurableObjectId | string, DurableObjectNamespaceGetDurableObjectOptions | undefined];
          gets.push({ method: property, object: object.toString(), options });
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { namespace, gets };
}

/**
 * Platforms that run many instances of a function at once, each with its own memory, told apart by
 * the markers each documents. There a store in memory is not one store but many: a code sent
 * through one instance is refused by the next, and every limit is multiplied by the instances.
 */

interface Platform {
  name: string;
  /** The shared store to use there. */
  store: string;
}

const UPSTASH = 'UpstashStore (Redis over HTTPS: new UpstashStore((options) => Redis.fromEnv(options)))';

/** An environment variable, where the runtime has them (Node, Bun, Deno with env access, Next's edge runtime). */
function env(name: string): string | undefined {
  const scope = globalThis as { process?: { env?: Record<string, string | undefined> }; Deno?: { env?: { get(name: string): string | undefined } } };
  try {
    return scope.process?.env?.[name] ?? scope.Deno?.env?.get(name);
  } catch {
    return undefined; // Deno without --allow-env
  }
}

/** The multi-instance platform this runs on, or null where one process may be the whole site. */
export function multiInstancePlatform(): Platform | null {
  const scope = globalThis as { EdgeRuntime?: unknown; Netlify?: unknown; navigator?: { userAgent?: string } };
  if (scope.navigator?.userAgent === 'Cloudflare-Workers') {
    return { name: 'Cloudflare Workers', store: `DurableObjectStore (new DurableObjectStore(env.VERIFY_STORE), with VerifyStoreObject exported and bound) or ${UPSTASH}` };
  }
  if (env('VERCEL') === '1') return { name: 'Vercel', store: `${UPSTASH}, with Upstash from the Vercel Marketplace` };
  if (typeof scope.EdgeRuntime === 'string') return { name: 'an Edge runtime', store: UPSTASH };
  if (env('NETLIFY') === 'true' || scope.Netlify !== undefined) return { name: 'Netlify', store: UPSTASH };
  if (env('AWS_LAMBDA_FUNCTION_NAME')) return { name: 'AWS Lambda', store: `RedisStore (ElastiCache or any Redis the function reaches) or ${UPSTASH}` };
  if (env('DENO_DEPLOYMENT_ID')) return { name: 'Deno Deploy', store: UPSTASH };
  if (env('K_SERVICE')) return { name: 'Google Cloud Run', store: `RedisStore (Memorystore or any Redis the service reaches) or ${UPSTASH}` };
  return null;
}

/** The reason a handler without a store may not start here, or null. */
export function memoryStoreRefusal(): string | null {
  const platform = multiInstancePlatform();
  if (!platform) return null;
  return (
    `verify handler: no store given, on ${platform.name}, which runs many instances, each with its own memory: a code sent through one would be refused by another, and every limit would count per instance. ` +
    `Pass a shared store: ${platform.store}. To keep state in one instance's memory anyway (one instance only), say so: store: new MemoryStore().`
  );
}

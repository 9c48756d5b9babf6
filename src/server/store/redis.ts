/**
 * A VerifyStore on Redis through an ioredis client that the host creates and owns. Counters are
 * one Lua script each, so increment-and-expire is atomic across handler instances.
 */
// Types only, and none in the declarations this file emits: a host without ioredis still compiles.
import type { ClusterOptions, RedisOptions } from 'ioredis';
import { withinTime } from '../../core/deadline.js';
import calculateSlot from 'cluster-key-slot';
import type { BudgetStep } from './budget.js';
import { StoreUnavailableError } from './deadline.js';
import { CLAIM, DECREMENT, INCREMENT, SPEND, spendAnswer, TAKE, wholeSeconds } from './scripts.js';
import { runWith, type PlanAnswer, type PlanStep } from './plan.js';
import { CANCEL, PLAN, planAnswer, planArguments, planLog } from './plan-script.js';
import type { VerifyStore } from './store.js';

/**
 * The ioredis options a RedisStore's client must have: `new Redis(url, REDIS_CLIENT_OPTIONS)`.
 * While Redis is down a command fails at once, rather than waiting in a queue for a minute and
 * then running long after its request was answered (a code used up, a count spent, by nobody).
 */
export const REDIS_CLIENT_OPTIONS = {
  enableOfflineQueue: false,
  // A command cut by a disconnect fails; it is never sent again after the reconnect.
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  connectTimeout: 1000,
  commandTimeout: 400,
  // Tried again at least twice a second, so service resumes within a second of Redis coming back.
  retryStrategy: (times: number) => Math.min(times * 100, 500),
  // The commands a request sends together (its reads, the steps it takes at once) go in one write: one round trip.
  enableAutoPipelining: true,
} satisfies RedisOptions;

/**
 * The ioredis `Cluster` options a RedisStore's cluster client must have:
 * `new Cluster(nodes, REDIS_CLUSTER_OPTIONS)`. Each node's connection fails fast as above, and so
 * does the cluster: a command cut by a master's death is not sent again to its successor. The slots
 * are read again every second, so a replica promoted in a failover serves its slots within that.
 */
export const REDIS_CLUSTER_OPTIONS = {
  enableOfflineQueue: false,
  // As above: a request's commands to one master go in one write.
  enableAutoPipelining: true,
  retryDelayOnFailover: 0,
  retryDelayOnClusterDown: 0,
  slotsRefreshInterval: 1000,
  slotsRefreshTimeout: 1000,
  clusterRetryStrategy: REDIS_CLIENT_OPTIONS.retryStrategy,
  // Each node's own queue holds a command only while that node first connects (ioredis sets it).
  redisOptions: {
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: REDIS_CLIENT_OPTIONS.connectTimeout,
    commandTimeout: REDIS_CLIENT_OPTIONS.commandTimeout,
  },
} satisfies ClusterOptions;

/** The options without which a command can run after its request was answered; the rest are tuning. */
const FAIL_FAST = ['enableOfflineQueue', 'maxRetriesPerRequest', 'autoResendUnfulfilledCommands'] as const;
const CLUSTER_FAIL_FAST = ['enableOfflineQueue', 'retryDelayOnFailover'] as const;
const NODE_FAIL_FAST = ['maxRetriesPerRequest', 'autoResendUnfulfilledCommands'] as const;

/** The fail-fast options a client lacks, by name (`redisOptions.x` for a cluster's nodes). */
function unsafeOptions(redis: RedisClient): string[] {
  if (!redis.isCluster) return FAIL_FAST.filter((name) => redis.options[name] !== REDIS_CLIENT_OPTIONS[name]);
  const nodes = redis.options.redisOptions ?? {};
  return [
    ...CLUSTER_FAIL_FAST.filter((name) => redis.options[name] !== REDIS_CLUSTER_OPTIONS[name]),
    ...NODE_FAIL_FAST.filter((name) => nodes[name] !== REDIS_CLUSTER_OPTIONS.redisOptions[name]).map((name) => `redisOptions.${name}`),
  ];
}

/**
 * The part of an ioredis client a RedisStore uses. An ioredis `Redis` is one; declared here so that
 * the package's types do not name ioredis, which only a host on Redis installs.
 */
export interface RedisClient {
  readonly options: { readonly [name in (typeof FAIL_FAST)[number] | (typeof CLUSTER_FAIL_FAST)[number]]?: unknown } & {
    readonly redisOptions?: { readonly [name in (typeof NODE_FAIL_FAST)[number]]?: unknown };
  };
  readonly status: string;
  /** True for an ioredis `Cluster`, whose masters each keep their own persistence. */
  readonly isCluster?: boolean;
  nodes?(role: 'master' | 'slave'): Pick<RedisClient, 'config' | 'status' | 'connect' | 'once'>[];
  /** A cluster's slots: each the node keys of its master and then its replicas, as last read. */
  readonly slots?: string[][];
  /** Commands sent together on one connection: to the node of their key's slot, on a cluster. */
  pipeline(): RedisPipeline;
  connect(): Promise<unknown>;
  once(event: 'ready', listener: () => void): unknown;
  config(subcommand: 'GET', parameter: string): Promise<unknown>;
  eval(script: string, numberOfKeys: number, ...keysAndArguments: (string | number)[]): Promise<unknown>;
  set(key: string, value: string, expiry: 'EX' | 'PX', time: number): Promise<unknown>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<unknown>;
}

/** The part of an ioredis pipeline a RedisStore uses. */
export interface RedisPipeline {
  eval(script: string, numberOfKeys: number, ...keysAndArguments: (string | number)[]): RedisPipeline;
  pttl(key: string): RedisPipeline;
  call(command: string, ...args: (string | number)[]): RedisPipeline;
  exec(): Promise<[Error | null, unknown][] | null>;
}

export interface RedisStoreOptions {
  /** Prefix of every key, so one Redis can serve several applications. */
  prefix?: string;
  /** How long a command waits for a connection being made or remade before it fails; 250 ms by default. */
  connectWaitMs?: number;
  /**
   * Replicas that must hold a claim or a take (a used receipt, a code's challenge used up) before it
   * counts: Redis replicates after it answers, so a master that dies at once takes the write with it,
   * and its promoted replica would let the receipt be used again. Each claim and take is followed by
   * `WAIT` on its connection; when fewer replicas confirm within `replicaWaitMs`, it is undone and
   * refused (StoreUnavailableError: a 503, the person tries again). By default 1 on a Redis Cluster
   * whose masters have replicas, 0 otherwise (a Redis with replicas behind Sentinel: set it).
   */
  replicas?: number;
  /** How long a claim or a take waits for its replicas; 200 ms by default, within the store call's deadline. */
  replicaWaitMs?: number;
}

/** Each client or node's wait for 'ready': one listener however many commands wait on it. */
const readyWaits = new WeakMap<object, Promise<void>>();

/** Resolves when a client (or a cluster's node) is ready; a lazy one is told to connect. */
function whenReady(client: Pick<RedisClient, 'status' | 'connect' | 'once'>): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  let wait = readyWaits.get(client);
  if (!wait) {
    // A lazy client connects on its first command, which fails without the offline queue.
    if (client.status === 'wait') client.connect().catch(() => {});
    wait = new Promise<void>((resolve) => client.once('ready', resolve)).finally(() => readyWaits.delete(client));
    readyWaits.set(client, wait);
  }
  return wait;
}

/** Redis expiries are whole seconds of at least one, so shorter windows are rounded up. */
export class RedisStore implements VerifyStore {
  readonly #prefix: string;
  readonly #connectWaitMs: number;
  readonly #replicas?: number;
  readonly #replicaWaitMs: number;
  #ready?: Promise<void>;

  constructor(
    private readonly redis: RedisClient,
    options: RedisStoreOptions = {},
  ) {
    const unsafe = unsafeOptions(redis);
    if (unsafe.length) {
      const fix = redis.isCluster ? 'new Cluster(nodes, REDIS_CLUSTER_OPTIONS)' : 'new Redis(url, REDIS_CLIENT_OPTIONS)';
      throw new TypeError(`RedisStore needs a client that fails fast while Redis is down (${unsafe.join(', ')}): ${fix}`);
    }
    this.#prefix = options.prefix ?? 'verify:';
    this.#connectWaitMs = options.connectWaitMs ?? 250;
    this.#replicas = options.replicas;
    this.#replicaWaitMs = options.replicaWaitMs ?? 200;
    void this.#checkPersistence();
  }

  /**
   * Used receipts and cooldowns must outlive a Redis restart, or a receipt used before a crash is
   * accepted again after it. Says so once when Redis (any master of a cluster) keeps no append-only
   * file; where CONFIG is refused (managed Redis often does), says once that it could not check.
   */
  async #checkPersistence(): Promise<void> {
    try {
      await this.#whenReady();
    } catch {
      return; // closed before it was ever ready: nothing to check
    }
    const servers = this.redis.isCluster && this.redis.nodes ? this.redis.nodes('master') : [this.redis];
    let settings: [string | undefined, string | undefined][];
    try {
      settings = await Promise.all(
        servers.map(async (server) => [((await server.config('GET', 'appendonly')) as string[])[1], ((await server.config('GET', 'appendfsync')) as string[])[1]] as [string | undefined, string | undefined]),
      );
    } catch (error) {
      // A connection lost meanwhile is not a refusal: the next start will check.
      if (this.redis.status !== 'ready') return;
      console.warn(`RedisStore: could not read Redis's persistence (CONFIG GET: ${(error as Error)?.message}); make sure it keeps an append-only file (appendonly yes, appendfsync everysec), or used receipts and cooldowns can come back after a crash.`);
      return;
    }
    const weak = settings.find(([appendonly, fsync]) => appendonly !== 'yes' || fsync === 'no');
    if (weak) {
      const [appendonly, fsync] = weak;
      console.warn(`RedisStore: Redis runs with appendonly ${appendonly}${appendonly === 'yes' ? `, appendfsync ${fsync}` : ''}: used receipts and cooldowns can come back after a crash. Set appendonly yes and appendfsync everysec (or always).`);
    }
  }

  #whenReady(): Promise<void> {
    const { status } = this.redis;
    if (status === 'end') return Promise.reject(new Error('Redis client is closed'));
    if (status === 'ready') return this.#mastersReady();
    this.#ready ??= whenReady(this.redis)
      .then(() => this.#mastersReady())
      .finally(() => (this.#ready = undefined));
    return this.#ready;
  }

  /**
   * A cluster's client connects to each master on its first command, and commands sent to a master
   * while it connects fail ("Connection is closed"): each master is connected first, at start and
   * after a failover brings a new one.
   */
  #mastersReady(): Promise<void> {
    // A client closed meanwhile connects nothing again: its host has let it go.
    if (this.redis.status === 'end') return Promise.reject(new Error('Redis client is closed'));
    const waiting = this.#waitingMasters();
    return waiting.length ? Promise.all(waiting.map(whenReady)).then(() => {}) : Promise.resolve();
  }

  #waitingMasters() {
    return this.redis.isCluster && this.redis.nodes ? this.redis.nodes('master').filter((node) => node.status !== 'ready') : [];
  }

  /** Waits a little for a connection being made or remade, never longer: a command is sent only on a live one. */
  #connected(): Promise<void> {
    if (this.redis.status === 'ready' && this.#waitingMasters().length === 0) return Promise.resolve();
    return withinTime(this.#whenReady(), this.#connectWaitMs, () => new Error('Redis is not connected'));
  }

  async increment(key: string, windowSeconds: number) {
    await this.#connected();
    const [count, ttl] = (await this.redis.eval(INCREMENT, 1, this.#prefix + key, wholeSeconds(windowSeconds))) as [number, number];
    return { count, ttl: Math.max(1, ttl) };
  }

  async spend(key: string, max: number, windowSeconds: number, step: BudgetStep = 1) {
    await this.#connected();
    return spendAnswer(await this.redis.eval(SPEND, 1, this.#prefix + key, max, windowSeconds * 1000, step));
  }

  async claim(key: string, seconds: number, value = '1') {
    await this.#connected();
    const full = this.#prefix + key;
    const args = [CLAIM, 1, full, wholeSeconds(seconds), value] as const;
    const wanted = this.#replicasWanted(full);
    const [claimed, ttl] = (
      wanted
        ? await this.#replicated(wanted, (pipeline) => pipeline.eval(...args), ([reply]) => ((reply as number[])[0] === 1 ? this.redis.del(full) : null))
        : await this.redis.eval(...args)
    ) as [number, number];
    return { claimed: claimed === 1, ttl: Math.max(1, ttl) };
  }

  /**
   * The replicas a claim or a take of `key` waits for: the host's number, else 1 on a cluster whose
   * master for the key has a replica. A master without one (its replica lost, or promoted in its
   * place) has nobody a failover would promote, so a write there is as lasting as its append-only file.
   */
  #replicasWanted(key: string): number {
    if (this.#replicas !== undefined) return this.#replicas;
    return this.redis.isCluster ? Math.min(1, (this.redis.slots?.[calculateSlot(key)]?.length ?? 1) - 1) : 0;
  }

  /**
   * Runs the commands `write` adds, then WAIT for `wanted` replicas on the same connection; too
   * few confirmations undo the write (`undo`, given the replies) and refuse. Answers the last reply
   * of `write`. (Without replicas to wait for, a claim or a take is one command, which goes in the
   * client's automatic pipeline with the rest of the request's: an explicit pipeline is a write of its own.)
   */
  async #replicated(wanted: number, write: (pipeline: RedisPipeline) => RedisPipeline, undo: (replies: unknown[]) => Promise<unknown> | null): Promise<unknown> {
    const results = (await write(this.redis.pipeline()).call('wait', wanted, this.#replicaWaitMs).exec()) ?? [];
    const failed = results.find(([error]) => error)?.[0];
    if (failed) throw failed;
    const replies = results.map(([, reply]) => reply);
    if (!(Number(replies.pop()) >= wanted)) {
      await undo(replies)?.catch(() => {});
      throw new StoreUnavailableError(`No Redis replica confirmed a claim within ${this.#replicaWaitMs} ms (WAIT ${wanted}): refused, so that a failover cannot give it back`);
    }
    return replies.at(-1);
  }

  async set(key: string, seconds: number, value: string) {
    await this.#connected();
    await this.redis.set(this.#prefix + key, value, 'EX', wholeSeconds(seconds));
  }

  async decrement(key: string) {
    await this.#connected();
    await this.redis.eval(DECREMENT, 1, this.#prefix + key);
  }

  async get(key: string) {
    await this.#connected();
    return this.redis.get(this.#prefix + key);
  }

  async take(key: string) {
    await this.#connected();
    const full = this.#prefix + key;
    const wanted = this.#replicasWanted(full);
    if (!wanted) return (await this.redis.eval(TAKE, 1, full)) as string | null;
    return (await this.#replicated(wanted, (pipeline) => pipeline.pttl(full).eval(TAKE, 1, full), ([pttl, value]) =>
      typeof value === 'string' ? this.redis.set(full, value, 'PX', Math.max(1, Number(pttl))) : null,
    )) as string | null;
  }

  async delete(key: string) {
    await this.#connected();
    await this.redis.del(this.#prefix + key);
  }

  /**
   * A plan in one script, on one Redis. A cluster's keys live on several masters, and a claim there
   * waits for replicas: there, and wherever the host asks for replicas, the plan runs with the single
   * operations above (a round trip per group), each as lasting as today.
   */
  async run(plan: PlanStep[]): Promise<PlanAnswer> {
    if (this.redis.isCluster || this.#replicas) return runWith(this, plan);
    await this.#connected();
    const log = planLog(this.#prefix);
    const { keys, args } = planArguments(plan, this.#prefix, log);
    try {
      return planAnswer(plan, await this.redis.eval(PLAN, keys.length, ...keys, ...args));
    } catch (error) {
      // Timed out, it may still run (a frozen Redis runs what it was sent when it wakes): never for nobody.
      this.redis.eval(CANCEL, 1, log).catch(() => {});
      throw error;
    }
  }
}

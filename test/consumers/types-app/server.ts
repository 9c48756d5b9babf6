// A server that uses the handler, the Node adapter and the emulator, without ioredis installed.
import { createVerifyHandler, MemoryStore, RedisStore, type RedisClient } from 'verify-widgets/server';
import { toNodeListener } from 'verify-widgets/server/node';
import { DEVELOPMENT_KEY } from 'verify-widgets/emulator';

export const handler = createVerifyHandler(() => ({ baseUrl: 'http://127.0.0.1:4010/api/v2', apiKey: DEVELOPMENT_KEY, receiptSecret: 'x'.repeat(32), getUser: () => null, allowedChannels: ['email'], store: new MemoryStore() }));
export const listener = toNodeListener(handler);
export const onRedis = (client: RedisClient) => new RedisStore(client);

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HostError } from '../../../src/internal/host-api.js';
import { onDemand } from '../../../src/internal/on-demand.js';

describe('code fetched on demand', () => {
  it('is fetched once, however many ask at once', async () => {
    let fetched = 0;
    const load = onDemand(async () => ({ n: ++fetched }));
    const [a, b] = await Promise.all([load(), load()]);
    assert.equal(a, b);
    assert.equal((await load()).n, 1);
    assert.equal(fetched, 1);
  });

  it('a fetch that fails fails as the network does, and the next call fetches again', async () => {
    let tries = 0;
    const load = onDemand(async () => {
      if (++tries === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return 'here';
    });
    await assert.rejects(load(), (error) => error instanceof HostError && error.code === 'upstream_unavailable' && error.status === 0);
    assert.equal(await load(), 'here');
    assert.equal(tries, 2);
  });
});

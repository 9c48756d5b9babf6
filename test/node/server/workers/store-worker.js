// The Worker that holds the store's Durable Objects, as a site's own Worker would export them.
export { VerifyStoreObject } from '../../../../src/server/index.ts';

export default {
  fetch: () => new Response('The verify store lives in its Durable Objects.'),
};

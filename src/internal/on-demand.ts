/**
 * Code a widget fetches when it is first needed (a dynamic import, a chunk of its own in bundles and
 * in the CDN build), so that a page that never reaches it does not carry it. A fetch that fails (the
 * network dropped in the middle) fails as the network would, which the person can try again; the
 * next call fetches again.
 */
import { HostError } from './host-api.js';

export function onDemand<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch(() => {
      loading = undefined;
      throw new HostError('upstream_unavailable', 'network', 0);
    }));
}

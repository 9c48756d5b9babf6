/**
 * What a Chromium page still holds, through the DevTools protocol: after two full collections,
 * the live instances of a class (Runtime.queryObjects on its prototype) and the DOM counters
 * (documents, nodes, JS event listeners). Browser side:
 * `executeServerCommand('heap-census', { prototype: 'customElements.get("voice-verify").prototype' })`.
 */
export function heapPlugin() {
  return {
    name: 'heap-census',
    async executeCommand({ command, payload, session }) {
      if (command !== 'heap-census') return undefined;
      if (session.browser.type !== 'puppeteer' || !session.browser.name.includes('Chrom')) throw new Error('heap-census needs Chromium');
      const cdp = await session.browser.getPage(session.id).createCDPSession();
      try {
        await cdp.send('HeapProfiler.enable');
        await cdp.send('HeapProfiler.collectGarbage');
        await cdp.send('HeapProfiler.collectGarbage');
        const { result: prototype } = await cdp.send('Runtime.evaluate', { expression: payload.prototype, objectGroup: 'census' });
        const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: prototype.objectId, objectGroup: 'census' });
        const { result: count } = await cdp.send('Runtime.callFunctionOn', { objectId: objects.objectId, functionDeclaration: 'function () { return this.length; }', returnByValue: true });
        await cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'census' });
        const counters = await cdp.send('Memory.getDOMCounters');
        return { instances: count.value, ...counters };
      } finally {
        await cdp.detach();
      }
    },
  };
}

// Test-only recorder: passes each 128-sample block of the first input channel to the page.
registerProcessor(
  'test-recorder',
  class extends AudioWorkletProcessor {
    process(inputs) {
      const channel = inputs[0]?.[0];
      if (channel) this.port.postMessage(channel.slice());
      return true;
    }
  },
);

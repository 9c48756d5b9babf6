/**
 * Real key presses in all three engines, chords included ("Shift+Home", "Control+a"): the stock
 * sendKeys command gives WebDriver one key name at a time, so it cannot hold a modifier there.
 * Browser side: `executeServerCommand('keys', { type: '123' })` or `{ press: 'Shift+Home' }`.
 */
export function keysPlugin() {
  return {
    name: 'keys-command',
    async executeCommand({ command, payload, session }) {
      if (command !== 'keys') return undefined;
      const { type, press } = payload ?? {};
      if (session.browser.type === 'puppeteer') {
        const { keyboard } = session.browser.getPage(session.id);
        if (type !== undefined) await keyboard.type(type);
        if (press !== undefined) {
          const keys = press.split('+');
          const key = keys.pop();
          for (const modifier of keys) await keyboard.down(modifier);
          await keyboard.press(key);
          for (const modifier of keys.reverse()) await keyboard.up(modifier);
        }
        return true;
      }
      if (session.browser.type === 'webdriver') {
        // One key at a time: WebDriver presses a whole array down together, then lets it go.
        for (const char of type ?? '') await session.browser.sendKeys(session.id, [char]);
        if (press !== undefined) await session.browser.sendKeys(session.id, press.split('+'));
        return true;
      }
      throw new Error(`keys: no support for ${session.browser.type}`);
    },
  };
}

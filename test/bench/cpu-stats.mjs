// CPU time this process spent (user + system) and requests seen, since the last `take()`.
export function cpuStats() {
  let since = process.cpuUsage();
  let requests = 0;
  return {
    count: () => requests++,
    take() {
      const { user, system } = process.cpuUsage(since);
      const taken = { cpuMicros: user + system, requests };
      since = process.cpuUsage();
      requests = 0;
      return taken;
    },
  };
}

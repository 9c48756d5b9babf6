// Preloaded into the Node test runner and each test file's process (`--import`). Under
// `--test-force-exit` a file's process exits as soon as its last test ends, while its results may
// still sit in the pipe to the runner; on Linux that pipe is non-blocking, and the runner then
// silently counts fewer tests than ran (nodejs/node#64833). A blocking stdout writes each result
// before the next line runs, so the summary counts every test.
process.stdout._handle?.setBlocking?.(true);

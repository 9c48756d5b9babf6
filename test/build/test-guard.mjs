#!/usr/bin/env node
/**
 * A guard against tests that cannot fail, run by `npm test` before anything else. It reads every
 * test file under test/ with TypeScript's parser and refuses:
 * - a test body with no assertion: no `assert`, `expect`, `throw`, `waitUntil`, `execFileSync` (which
 *   throws on a failed command) or `this.skip()`,
 *   in the body or in a helper it calls (a helper asserts when its own body does, or calls one that does);
 * - `assert.ok` (or `expect(…).to.be.ok / .to.exist`) of a literal, or of a browser handle
 *   (`evaluateHandle`, `$`, `waitForFunction`, `waitForSelector` answer a handle, truthy even around null);
 * - a sleep (`setTimeout` awaited, or `sleep`/`idle`/`delay`) followed in its block only by negative
 *   checks (equal to 0, null, undefined, false or [], `not`, `doesNotMatch`…): on a slow machine the
 *   thing checked for may simply not have happened yet. Wait for a state instead; where the sleep is
 *   the point, say why in a comment on the line before it: `guard-allow: sleep-then-negative: why`.
 *
 * Usage: node test/build/test-guard.mjs [files…] (all test files when none are named).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// execFileSync and execSync throw on a non-zero exit: a command that checks is an assertion.
const ASSERTING = new Set(['assert', 'expect', 'waitUntil', 'execFileSync', 'execSync']);
const HANDLES = new Set(['evaluateHandle', '$', 'waitForFunction', 'waitForSelector']);
const SLEEPS = new Set(['sleep', 'idle', 'delay']);
const ALLOW = 'guard-allow: sleep-then-negative:';

/** Every .ts and .mjs file under test/ but the installed apps' own packages. */
export function testSources(dir = join(ROOT, 'test')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testSources(path);
    return /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const parse = (file, text) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS);

/** Calls `visit` on every node under `node`. */
function walk(node, visit) {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** The name a call is made by: `f()` and `a.b.f()` are both `f`. */
function calleeName(call) {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** Whether `node` asserts by itself: an assertion call, a throw, or a skip. */
function assertsDirectly(node) {
  let found = false;
  walk(node, (n) => {
    if (found) return;
    if (ts.isThrowStatement(n)) found = true;
    else if (ts.isIdentifier(n) && ASSERTING.has(n.text)) found = true;
    else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'skip' && n.expression.expression.kind === ts.SyntaxKind.ThisKeyword) found = true;
  });
  return found;
}

/** The names a body calls. */
function callsIn(node) {
  const names = new Set();
  walk(node, (n) => {
    if (ts.isCallExpression(n)) {
      const name = calleeName(n);
      if (name) names.add(name);
    }
  });
  return names;
}

/** Named functions of a file: declarations, `const f = () => …`, and methods. */
function functionsOf(source) {
  const found = [];
  walk(source, (n) => {
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.name && n.body) found.push([n.name.getText(source), n.body]);
    else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) {
      found.push([n.name.text, n.initializer.body]);
    } else if (ts.isPropertyAssignment(n) && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) {
      found.push([n.name.getText(source), n.initializer.body]);
    }
  });
  return found;
}

/** The helpers that assert, over all the sources given: those whose body asserts or calls one that does. */
export function assertingHelpers(sources) {
  const bodies = sources.flatMap((source) => functionsOf(source));
  const asserting = new Set(bodies.filter(([, body]) => assertsDirectly(body)).map(([name]) => name));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, body] of bodies) {
      if (asserting.has(name)) continue;
      if ([...callsIn(body)].some((called) => asserting.has(called))) {
        asserting.add(name);
        grew = true;
      }
    }
  }
  return asserting;
}

/** The test callbacks of a file: the function given to `it(…)` or `test(…)`. */
function testsOf(source) {
  const found = [];
  walk(source, (n) => {
    if (!ts.isCallExpression(n) || !ts.isIdentifier(n.expression) || !['it', 'test'].includes(n.expression.text)) return;
    const [title, body] = [n.arguments[0], n.arguments.at(-1)];
    if (body && (ts.isArrowFunction(body) || ts.isFunctionExpression(body))) found.push({ title: title?.getText(source) ?? '', body, node: n });
  });
  return found;
}

const isLiteral = (node) =>
  ts.isStringLiteral(node) || ts.isNumericLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isObjectLiteralExpression(node) || ts.isArrayLiteralExpression(node) ||
  node.kind === ts.SyntaxKind.TrueKeyword || ts.isFunctionLike(node);

/**
 * Whether `node` is (an await of) a call answering a handle: a page's or element handle's own
 * (`page.$`, not a DOM helper `$`), or a helper of the file that answers one (`handleHelpers`).
 */
function isHandle(node, handleHelpers = new Set()) {
  const inner = ts.isAwaitExpression(node) ? node.expression : node;
  if (!ts.isCallExpression(inner)) return false;
  if (ts.isPropertyAccessExpression(inner.expression)) return HANDLES.has(inner.expression.name.text);
  return ts.isIdentifier(inner.expression) && handleHelpers.has(inner.expression.text);
}

/** The file's helpers whose body is, or returns, a handle call: `const live = (page) => page.evaluateHandle(…)`. */
function handleHelpersOf(source) {
  const names = new Set();
  for (const [name, body] of functionsOf(source)) {
    const returned = ts.isBlock(body) ? body.statements.find(ts.isReturnStatement)?.expression : body;
    if (returned && isHandle(returned)) names.add(name);
  }
  return names;
}

/** The value `assert.ok(x)` or `assert(x)` vouches for. */
function truthinessChecked(call) {
  const callee = call.expression;
  if (ts.isIdentifier(callee) && callee.text === 'assert') return call.arguments[0];
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'assert' && callee.name.text === 'ok') return call.arguments[0];
  return undefined;
}

/** The value `expect(x).to.be.ok` or `expect(x).to.exist` vouches for: a chain ending in ok or exist, rooted in expect(x). */
function expectTruthiness(node) {
  if (!ts.isPropertyAccessExpression(node) || !['ok', 'exist'].includes(node.name.text)) return undefined;
  let root = node.expression;
  while (ts.isPropertyAccessExpression(root)) root = root.expression;
  return ts.isCallExpression(root) && ts.isIdentifier(root.expression) && root.expression.text === 'expect' ? root.arguments[0] : undefined;
}

/**
 * Whether a statement is a sleep: an await of sleep/idle/delay, or of anything with a setTimeout
 * inside (a timer promise, or one run in the page), alone or as the body of an `if`.
 */
function isSleep(statement) {
  if (ts.isIfStatement(statement)) return isSleep(statement.thenStatement);
  if (!ts.isExpressionStatement(statement) || !ts.isAwaitExpression(statement.expression)) return false;
  const awaited = statement.expression.expression;
  if (ts.isCallExpression(awaited) && SLEEPS.has(calleeName(awaited) ?? '')) return true;
  let timer = false;
  walk(awaited, (n) => {
    if (ts.isCallExpression(n) && calleeName(n) === 'setTimeout') timer = true;
  });
  return timer;
}

const NEGATIVE_VALUE = /^(0|null|undefined|false|\[\]|''|"")$/;

/** The assertions in a statement, each as negative (true) or not. */
function assertionsIn(statement, source) {
  const found = [];
  // "Is still nothing" and "has not grown" hold just as well when nothing has happened yet.
  const negativeChain = (chain, expected) => /\.not\./.test(chain) || /\.(empty|false|null|undefined|most|below|lessThan|lt|lte)$/.test(chain) || NEGATIVE_VALUE.test(expected);
  walk(statement, (n) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const callee = n.expression;
      const expected = (index) => n.arguments[index]?.getText(source) ?? '';
      // assert.x(actual, expected)
      if (ts.isIdentifier(callee.expression) && callee.expression.text === 'assert') {
        const kind = callee.name.text;
        found.push(
          /^(doesNotMatch|notEqual|notDeepEqual|notStrictEqual|doesNotThrow|doesNotReject)$/.test(kind) ||
            (/^(equal|strictEqual|deepEqual|deepStrictEqual)$/.test(kind) && NEGATIVE_VALUE.test(expected(1))) ||
            (kind === 'ok' && expected(0).startsWith('!')),
        );
      } else if (/^expect\(/.test(callee.getText(source)) && !ts.isPropertyAccessExpression(n.parent)) {
        // The outermost call of a chain rooted in expect(): expect(x).to.equal(y).
        found.push(negativeChain(callee.getText(source), expected(0)));
      }
    } else if (ts.isExpressionStatement(n) && ts.isPropertyAccessExpression(n.expression) && /^expect\(/.test(n.expression.getText(source))) {
      // A chain ending in a property: expect(x).to.be.false.
      found.push(negativeChain(n.expression.getText(source), ''));
    }
  });
  return found;
}

/** The comment lines just above a statement. */
function commentBefore(statement, source) {
  const ranges = ts.getLeadingCommentRanges(source.text, statement.getFullStart()) ?? [];
  return ranges.map((r) => source.text.slice(r.pos, r.end)).join('\n');
}

/** What the guard refuses in one file, given the helpers known to assert. */
export function problemsIn(file, text, helpers) {
  const source = parse(file, text);
  const problems = [];
  const where = (node) => `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  for (const test of testsOf(source)) {
    const body = test.body.body;
    if (!assertsDirectly(body) && ![...callsIn(body)].some((name) => helpers.has(name))) {
      problems.push(`${where(test.node)}: the test ${test.title} asserts nothing (no assert, expect, throw or asserting helper)`);
    }
  }
  const handleHelpers = handleHelpersOf(source);
  walk(source, (n) => {
    const vouched = (ts.isCallExpression(n) && truthinessChecked(n)) || expectTruthiness(n);
    if (vouched && isHandle(vouched, handleHelpers)) problems.push(`${where(n)}: a truthiness check of a browser handle, truthy even around null`);
    else if (vouched && isLiteral(vouched)) problems.push(`${where(n)}: a truthiness check of a literal, always true`);
    if (ts.isBlock(n) || ts.isSourceFile(n)) {
      const statements = n.statements;
      statements.forEach((statement, i) => {
        if (!isSleep(statement) || commentBefore(statement, source).includes(ALLOW)) return;
        const after = statements.slice(i + 1).flatMap((s) => assertionsIn(s, source));
        if (after.length > 0 && after.every(Boolean)) problems.push(`${where(statement)}: a sleep followed only by negative checks: wait for a state, or say why with "${ALLOW}"`);
      });
    }
  });
  return problems;
}

function main(named) {
  const files = testSources();
  const sources = files.map((file) => parse(file, readFileSync(file, 'utf8')));
  const helpers = assertingHelpers(sources);
  const checked = named.length > 0 ? named.map((file) => join(process.cwd(), file)) : files.filter((file) => /\.test\.(ts|mjs)$/.test(file) || file.includes('/test/smoke/'));
  const problems = checked.flatMap((file) => problemsIn(file, readFileSync(file, 'utf8'), helpers));
  for (const problem of problems) console.error(problem);
  console.log(`test guard: ${checked.length} files read, ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));

// gridplay's browser tests: each file of e2e/tests on a real server of its own (SQLite in a temporary
// directory), in Debian's Chromium, headless, driven by playwright-core. Screenshots go to e2e/artifacts/.
//
//   node e2e/run.mjs [FILE...]   every file of e2e/tests, or the files named (each runs alone); GRIDPLAY_BIN
//                                names the gridplay binary, CHROMIUM the browser, E2E_ONLY a regular
//                                expression of the tests to run. A run in which no test ran fails.

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { ART, launch, suite } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const named = process.argv.slice(2);
const files = named.length
  ? named.map((f) => resolve(f))
  : readdirSync(join(here, 'tests')).filter((f) => f.endsWith('.mjs')).sort().map((f) => join(here, 'tests', f));
rmSync(ART, { recursive: true, force: true });
mkdirSync(ART, { recursive: true });

const run = { results: [], only: process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null };
const browser = await launch();
for (const file of files) {
  const s = suite(browser, file, run);
  const before = run.results.length;
  try {
    await s.startServer();
    await (await import(pathToFileURL(file).href)).default(s);
  } catch (e) {
    // A file that fails outside its tests (its server, its setup) fails the run.
    run.results.push([`${file}: setup`, 'FAILED', 0]);
    console.log(`FAIL ${file}, outside its tests\n${e.stack}`);
  } finally {
    await s.close();
  }
  if (run.results.length === before && !run.only) {
    run.results.push([`${file}: no test`, 'FAILED', 0]);
    console.log(`FAIL ${file} holds no test`);
  }
}
await browser.close();
const failed = run.results.filter((r) => r[1] === 'FAILED');
const skipped = run.results.filter((r) => r[1] === 'skipped');
console.log(`\n${run.results.length - failed.length - skipped.length} passed, ${failed.length} failed, ${skipped.length} skipped; screenshots in ${ART}`);
if (!run.results.length) console.log(`no test ran: E2E_ONLY=${process.env.E2E_ONLY ?? ''} matches none`);
process.exit(failed.length || !run.results.length ? 1 : 0);

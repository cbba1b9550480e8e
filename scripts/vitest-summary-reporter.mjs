// A Vitest reporter for `npm test` (scripts/test-all.mjs): per project, how many tests passed, failed
// and were skipped, from its first file's start to its last file's end, and how long each file took.
// Also each failed test's name and the first line of its error, so the end of a long log (all a CI
// page may keep) still says what failed. Written as JSON to the file named by VITEST_SUMMARY_FILE; the
// console output stays the default one.
import fs from 'node:fs';
import path from 'node:path';

export default class SummaryReporter {
  /** @type {Map<string, number>} when each file started, by module id and project */
  started = new Map();
  /** @type {Map<string, { startedAt: number, endedAt: number, file: string, project: string }>} */
  ended = new Map();

  onTestModuleStart(testModule) {
    this.started.set(keyOf(testModule), Date.now());
  }

  onTestModuleEnd(testModule) {
    const key = keyOf(testModule);
    this.ended.set(key, {
      startedAt: this.started.get(key) ?? Date.now(),
      endedAt: Date.now(),
      file: path.relative(process.cwd(), testModule.moduleId),
      project: testModule.project.name,
    });
  }

  onTestRunEnd(testModules, unhandledErrors) {
    const target = process.env.VITEST_SUMMARY_FILE;
    if (!target) return;
    const projects = {};
    const files = [];
    const failures = [];
    for (const testModule of testModules) {
      const name = testModule.project.name;
      projects[name] ??= { passed: 0, failed: 0, skipped: 0, files: 0, startedAt: null, endedAt: null };
      const p = projects[name];
      p.files += 1;
      if (testModule.state() === 'failed' && !hasFailedTest(testModule)) {
        p.failed += 1; // failed to load
        failures.push({
          project: name,
          file: path.relative(process.cwd(), testModule.moduleId),
          test: '(el archivo no cargó)',
          error: firstLine(testModule.errors?.()[0]?.message),
        });
      }
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') p.passed += 1;
        else if (state === 'failed') {
          p.failed += 1;
          failures.push({
            project: name,
            file: path.relative(process.cwd(), testModule.moduleId),
            test: test.fullName,
            error: firstLine(test.result().errors?.[0]?.message),
          });
        }
        else p.skipped += 1;
      }
      const times = this.ended.get(keyOf(testModule));
      if (times) {
        p.startedAt = Math.min(p.startedAt ?? times.startedAt, times.startedAt);
        p.endedAt = Math.max(p.endedAt ?? times.endedAt, times.endedAt);
        files.push({ project: name, file: times.file, ms: times.endedAt - times.startedAt });
      }
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, JSON.stringify({ projects, files, failures, unhandledErrors: unhandledErrors.length }, null, 2));
  }
}

const keyOf = (testModule) => `${testModule.project.name}\n${testModule.moduleId}`;

function hasFailedTest(testModule) {
  for (const test of testModule.children.allTests()) if (test.result().state === 'failed') return true;
  return false;
}

/** The first line of an error message, cut to 300 characters. */
function firstLine(message) {
  return (message ?? '').split('\n')[0].slice(0, 300);
}

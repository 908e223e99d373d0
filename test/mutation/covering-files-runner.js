// A jest test runner for mutation runs that loads only the test files holding a test Stryker
// asked for.
//
// Stryker runs each mutant with jest's --findRelatedTests and a test-name pattern listing the
// tests that reached the mutant. Jest then still loads every related test file (49 for the
// credential schema) and skips their tests one by one: about 30 s a mutant here before a single
// test runs. This runner does what jest would end up doing, sooner: a file none of whose tests
// matches the pattern would run nothing, so it is not loaded; and once a test has failed, the
// mutant is killed and the remaining files are not run either.
//
// The tests of each file, and how long each took, are learnt from the runs without a pattern
// (Stryker's initial test run) and kept in .stryker-tmp/jest-test-names.json, beside Stryker's
// sandboxes, which every worker of the run shares; each initial run rewrites the entries of the
// files it ran. A file not seen yet is always run, so a missing or partial record only costs
// time. Outside a Stryker sandbox it is jest's own runner.
const fs = require('fs');
const path = require('path');
const TestRunner = require('jest-runner').default;

class CoveringFilesRunner extends TestRunner {
	async runTests(tests, watcher, options) {
		const { rootDir, testNamePattern } = this._globalConfig;
		if (path.basename(path.dirname(rootDir)) !== '.stryker-tmp') {
			return super.runTests(tests, watcher, options);
		}
		const record = path.join(rootDir, '..', 'jest-test-names.json');
		const relative = (test) => path.relative(rootDir, test.path);
		if (!testNamePattern) {
			const seen = {};
			const stop = this.on('test-file-success', ([test, result]) => {
				seen[relative(test)] = result.testResults.map((assertion) => [assertion.fullName, assertion.duration ?? 0]);
			});
			try {
				return await super.runTests(tests, watcher, options);
			} finally {
				stop();
				const temporary = `${record}.${process.pid}`;
				fs.writeFileSync(temporary, JSON.stringify({ ...readRecord(record), ...seen }));
				fs.renameSync(temporary, record);
			}
		}
		// Jest matches the pattern the same way: case-insensitively, anywhere in the full name.
		const wanted = new RegExp(testNamePattern, 'i');
		const known = readRecord(record);
		// A file none of whose tests is wanted would run nothing: it is left out. The others run
		// quickest first (their wanted tests' time, plus about what loading a file takes here):
		// with the bail below, a mutant is usually killed by a short file.
		const cost = new Map();
		for (const test of tests) {
			const recorded = known[relative(test)];
			if (recorded === undefined) cost.set(test, Infinity);
			const hits = recorded?.filter(([name]) => wanted.test(name)) ?? [];
			if (hits.length > 0) cost.set(test, hits.reduce((sum, [, ms]) => sum + ms, 500));
		}
		const holding = tests.filter((test) => cost.has(test)).sort((a, b) => cost.get(a) - cost.get(b));
		if (!options.serial) return super.runTests(holding, watcher, options);
		// One failing test is enough to kill the mutant: the files after it are not run. (Stryker
		// turns jest's own bail off, as jest cannot bail when called from code.)
		let failed = false;
		const stops = [
			this.on('test-file-success', ([, result]) => {
				if (result.numFailingTests > 0 || result.testExecError) failed = true;
			}),
			this.on('test-file-failure', () => {
				failed = true;
			}),
		];
		try {
			for (const test of holding) {
				if (failed) break;
				await super.runTests([test], watcher, options);
			}
		} finally {
			for (const stop of stops) stop();
		}
	}
}

function readRecord(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return {};
	}
}

module.exports = CoveringFilesRunner;

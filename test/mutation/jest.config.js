// The jest set-up StrykerJS runs each mutant against (stryker.config.json points here).
//
// The project's own config, with these changes:
// - the folders whose tests cannot kill a mutant that Stryker runs are left out: the sandbox's
//   own tests, the test harness's check (a jest of its own on a fixture), and the release
//   checks on docs, links and the node's description (they list files with git, which
//   Stryker's copy of the project does not have). The operations' descriptions are built when
//   their modules load, so their mutants are static and not run; the node class's description is
//   built when the node is made, so its mutants are run, and survive without these checks: see
//   docs/mutation-testing.md.
// - no global set-up or teardown: Stryker calls jest again and again in one long-lived worker,
//   and the per-run temporary folder those make (and remove) would be gone by the second call.
// - one n8n user folder per Stryker worker, inside Stryker's copy of the project (which Stryker
//   removes when the run ends), instead of one in the temp folder per test file: a mutant run
//   cut short (a failed test ends it at once; a timed-out mutant's worker is killed) skips the
//   clean-up that removes a test file's folder, and a run left thousands behind.
const fs = require('fs');
const path = require('path');

const base = require('../../jest.config.js');

const { globalSetup: _setup, globalTeardown: _teardown, ...rest } = base;
const rootDir = path.resolve(__dirname, '../..');

if (rootDir.split(path.sep).includes('.stryker-tmp')) {
	// setup-env.js makes (and setup-after-env.js removes) a folder only when none is set.
	process.env.N8N_USER_FOLDER = path.join(rootDir, `.n8n-user-${process.pid}`);
	fs.mkdirSync(process.env.N8N_USER_FOLDER, { recursive: true });
}

/** @type {import('jest').Config} */
module.exports = {
	...rest,
	rootDir,
	// Stryker runs each mutant with jest's --findRelatedTests, which follows imports only through
	// files inside the roots: with test/ alone, a test reaching the mutated file through another
	// product file (connection.test.ts → transport/connection.ts → schemas/credential.schema.ts)
	// is not found, and the mutant "survives" tests that were never run.
	roots: ['<rootDir>/test', '<rootDir>/nodes', '<rootDir>/credentials'],
	// Stryker loads the test environment itself (to wrap it) and does not expand <rootDir>.
	testEnvironment: rest.testEnvironment.replace('<rootDir>', rootDir),
	// Loads only the test files holding a test that reached the mutant (see the file).
	runner: path.join(__dirname, 'covering-files-runner.js'),
	testPathIgnorePatterns: [
		'/node_modules/',
		'<rootDir>/test/sandbox/',
		'<rootDir>/test/package/',
		'<rootDir>/test/harness/',
		// 20,000 sends per run, and it reaches every line of the send path: Stryker would run it
		// for each surviving mutant there. What it asserts (each message exactly once, in order,
		// faulted items as errors) the focused delivery, send-once and fault tests assert too.
		'<rootDir>/test/reliability/load\\.test\\.ts',
	],
};

// The jest set-up StrykerJS runs each mutant against (stryker.config.json points here).
//
// The project's own config, with these changes:
// - the folders whose tests cannot kill a mutant that Stryker runs are left out: the sandbox's
//   own tests, the test harness's check (a jest of its own on a fixture), and the release
//   checks on docs, links and the node's description (the description is built when the module
//   loads, and such static mutants are not run: see docs/mutation-testing.md; these checks also
//   list files with git, which Stryker's copy of the project does not have).
// - no global set-up or teardown: Stryker calls jest again and again in one long-lived worker,
//   and the per-run temporary folder those make (and remove) would be gone by the second call.
//   Each test file still gets and removes its own n8n user folder (setup-env / setup-after-env).
const path = require('path');

const base = require('../../jest.config.js');

const { globalSetup: _setup, globalTeardown: _teardown, ...rest } = base;
const rootDir = path.resolve(__dirname, '../..');

/** @type {import('jest').Config} */
module.exports = {
	...rest,
	rootDir,
	// Stryker loads the test environment itself (to wrap it) and does not expand <rootDir>.
	testEnvironment: rest.testEnvironment.replace('<rootDir>', rootDir),
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

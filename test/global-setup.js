// Every test process gets its own temporary folder for the run (TMPDIR, which os.tmpdir() reads
// and jest's workers inherit), so the teardown can tell whether a test left anything behind.
// jest skips the teardown when it stops early, so the folder is also removed then (tmpRoot.js).
const fs = require('fs');
const os = require('os');
const path = require('path');

const { removeWhenStopped } = require('./tmpRoot');

module.exports = async () => {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcn-test-run-'));
	process.env.MCN_TEST_TMP_ROOT = root;
	process.env.TMPDIR = root;
	removeWhenStopped(root);
};

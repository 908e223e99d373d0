// Every test process gets its own temporary folder for the run (TMPDIR, which os.tmpdir() reads
// and jest's workers inherit), so the teardown can tell whether a test left anything behind.
// jest skips the teardown when it stops early (--bail with other files still running, Ctrl-C,
// a kill), so the folder is also removed when this process ends or is stopped by a signal.
const fs = require('fs');
const os = require('os');
const path = require('path');

module.exports = async () => {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcn-test-run-'));
	process.env.MCN_TEST_TMP_ROOT = root;
	process.env.TMPDIR = root;
	const remove = () => fs.rmSync(root, { recursive: true, force: true });
	process.once('exit', remove);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.once(signal, () => {
			remove();
			// Then end as the signal would have without this handler.
			process.kill(process.pid, signal);
		});
	}
};

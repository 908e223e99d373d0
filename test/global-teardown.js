// Fails the run when a test left files in the temporary folder (an n8n user folder holds an
// encryption key; a leak per test file adds up on a developer's machine), then removes it.
const fs = require('fs');

module.exports = async () => {
	const root = process.env.MCN_TEST_TMP_ROOT;
	if (!root) return;
	// tsx keeps its compile cache there (tsx-<uid>) when a test starts the sandbox's CLI: a cache,
	// not something a test made; it goes with the folder.
	const left = fs.readdirSync(root).filter((name) => !/^tsx-\d+$/.test(name));
	fs.rmSync(root, { recursive: true, force: true });
	if (left.length > 0) {
		throw new Error(`Tests left ${left.length} entries in the temporary folder: ${left.slice(0, 10).join(', ')}`);
	}
};

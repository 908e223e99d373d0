// The run's temporary folder (made by test/global-setup.js) when jest ends early: --bail while
// other files still run, Ctrl-C, a kill. jest skips its global teardown then. jest's own process
// removes the folder when it exits; for the ends where it cannot (a signal, a kill), a small
// process of its own removes it once jest is gone, and again for a few seconds after, in case a
// worker that outlived jest wrote there while it ended.
const fs = require('node:fs');
const { spawn } = require('node:child_process');

const JANITOR = `
const fs = require('node:fs');
const [jest, root] = [Number(process.argv[1]), process.argv[2]];
const alive = () => { try { process.kill(jest, 0); return true; } catch { return false; } };
const remove = () => fs.rmSync(root, { recursive: true, force: true });
const waiting = setInterval(() => {
	if (alive()) return;
	clearInterval(waiting);
	let times = 0;
	const removing = setInterval(() => { remove(); if (++times === 10) clearInterval(removing); }, 500);
	remove();
}, 200);
`;

function removeWhenStopped(root) {
	const remove = () => fs.rmSync(root, { recursive: true, force: true });
	process.once('exit', remove);
	spawn(process.execPath, ['-e', JANITOR, String(process.pid), root], { detached: true, stdio: 'ignore' }).unref();
}

module.exports = { removeWhenStopped };

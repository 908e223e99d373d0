/**
 * `npm run build` for `npm start` and `npm run demo`, as their first step: the TypeScript build is
 * silent for some 15 s, so the step says every 5 s that it is still building (lib/stack.ts).
 */
import { spawn } from 'node:child_process';

import { step } from './lib/stack';

async function build(): Promise<void> {
	await new Promise<void>((resolve, reject) => {
		const npm = spawn('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
		npm.on('error', reject);
		npm.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`npm run build failed (${signal ?? `exit ${code}`})`))));
	});
}

step('build the package (TypeScript, icons)', build).then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exit(1);
	},
);

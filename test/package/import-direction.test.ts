import { execFile } from 'node:child_process';
import path from 'node:path';

/**
 * The node's folders import only downwards (nodes/MultiChannelNotification/README.md). The lint
 * enforces it; these cases show that the rule really refuses a wrong-way import and lets a
 * right-way one through, so a change to the lint set-up cannot switch it off unnoticed.
 */
const NODE = path.join(__dirname, '../../nodes/MultiChannelNotification');
const ROOT = path.join(__dirname, '../..');
const RULE = 'import-x/no-restricted-paths';
/** Each case starts ESLint (about 3 s on an idle 2-core machine): room for one forty times busier. */
const LINT_RUN_MS = 120_000;

/** ESLint loads its config by dynamic import, which jest's module system refuses: run the CLI. */
function directionErrors(file: string, source: string): Promise<string[]> {
	return new Promise((resolve, reject) => {
		const eslint = path.join(ROOT, 'node_modules/eslint/bin/eslint.js');
		const args = [eslint, '--format', 'json', '--stdin', '--stdin-filename', path.join(NODE, file)];
		const child = execFile(process.execPath, args, { cwd: ROOT }, (error, stdout) => {
			// Exit code 1 means lint errors were found: the report is still on stdout.
			if (error && error.code !== 1) return reject(error);
			const [result] = JSON.parse(stdout) as Array<{ messages: Array<{ ruleId: string | null; message: string }> }>;
			resolve(result.messages.filter((message) => message.ruleId === RULE).map((message) => message.message));
		});
		child.stdin?.end(source);
	});
}

describe('import direction of the node folders', () => {
	it('refuses a run-time file importing an editor description', async () => {
		const errors = await directionErrors('delivery/example.ts', "import { optionsField } from '../editor/optionsField';\nexport const field = optionsField;\n");
		expect(errors).toEqual([expect.stringContaining('delivery/ may import only schemas, helpers, transport')]);
	}, LINT_RUN_MS);

	it('refuses the schemas importing anything else of the node', async () => {
		const errors = await directionErrors('schemas/example.ts', "import { resourceOf } from '../helpers/resource';\nexport const of = resourceOf;\n");
		expect(errors).toEqual([expect.stringContaining('schemas/ imports nothing else of the node')]);
	}, LINT_RUN_MS);

	it('refuses sendAndWait/ importing an operation', async () => {
		const errors = await directionErrors('sendAndWait/example.ts', "import { registry } from '../actions/registry';\nexport const all = registry;\n");
		expect(errors).toHaveLength(1);
	}, LINT_RUN_MS);

	it('lets an editor description read a run-time constant', async () => {
		const errors = await directionErrors('editor/example.ts', "import { MAX_ANSWER_CHARS } from '../sendAndWait/constants';\nexport const max = MAX_ANSWER_CHARS;\n");
		expect(errors).toEqual([]);
	}, LINT_RUN_MS);
});

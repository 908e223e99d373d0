// Lint setup mirroring @n8n/node-cli's (`n8n-node lint`), which does not install on Node 20:
// typescript-eslint recommended everywhere, n8n's community-node rules on what we publish
// (nodes/, credentials/, package.json), and eslint-plugin-n8n-nodes-base's community,
// credentials and nodes rule sets with the same few rules the CLI turns off.
import eslint from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesPlugin from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const published = ['credentials/**/*.ts', 'nodes/**/*.ts', 'index.ts', 'package.json'];

// The node's folders from the ground up; each may import only the folders before it
// (nodes/MultiChannelNotification/README.md says why). The node file comes last.
const NODE = 'nodes/MultiChannelNotification';
const FLOORS = ['schemas', 'helpers', 'transport', 'delivery', 'sendAndWait', 'editor', 'actions', 'MultiChannelNotification.node.ts'];
const importDirection = FLOORS.slice(0, -1).map((floor, at) => ({
	target: `${NODE}/${floor}`,
	from: FLOORS.slice(at + 1).map((above) => `${NODE}/${above}`),
	message: `${floor}/ ${at === 0 ? 'imports nothing else of the node' : `may import only ${FLOORS.slice(0, at).join(', ')}`}: see ${NODE}/README.md.`,
}));

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.cache/**', 'coverage/**', '.stryker-tmp/**', 'reports/**', '**/*.js', '**/*.mjs'] },
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: {
			'prefer-spread': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	{
		files: ['package.json'],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
		plugins: { 'n8n-nodes-base': n8nNodesPlugin },
		rules: { ...n8nNodesPlugin.configs.community.rules },
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: published,
		ignores: [],
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'import-x': importX },
		settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
		rules: {
			'import-x/no-restricted-paths': ['error', { zones: importDirection }],
			// n8n's packages first, then the node's own modules, each group alphabetical by path.
			'import-x/order': [
				'error',
				{ groups: ['builtin', 'external', ['parent', 'sibling', 'index']], 'newlines-between': 'always', alphabetize: { order: 'asc', caseInsensitive: true } },
			],
			// Every line counts: a function that needs more does more than one thing.
			'max-lines-per-function': ['error', { max: 50 }],
		},
	},
	{
		files: ['credentials/**/*.ts'],
		rules: { 'max-lines-per-function': ['error', { max: 50 }] },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesPlugin },
		rules: {
			...n8nNodesPlugin.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesPlugin },
		rules: {
			...n8nNodesPlugin.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);

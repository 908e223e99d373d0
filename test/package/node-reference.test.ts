/**
 * The docs say what the node's description says (scripts/release/node-reference.ts): first the
 * rule on made-up lines, then README.md's generated block and every claim of README.md and
 * docs/*.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MultiChannelNotification } from '../../nodes/MultiChannelNotification/MultiChannelNotification.node';
import { markdownFiles, repoFiles } from '../../scripts/release/markdown-links';
import {
	BLOCK_NAMES,
	blockEnd,
	blockOf,
	blockStart,
	checkClaims,
	formatClaim,
	nodeReference,
	renderBlock,
} from '../../scripts/release/node-reference';
import { REPO_ROOT } from '../../scripts/release/repository';

const reference = nodeReference(new MultiChannelNotification().description);
const problemsOf = (markdown: string): string[] => checkClaims('doc.md', markdown, reference).map(formatClaim);

describe('the node as the docs see it', () => {
	it('lists every resource and operation as the editor names them', () => {
		expect(reference.operations.map((operation) => `${operation.resource} → ${operation.name}`)).toEqual([
			'Chat Message → Send Template',
			'Chat Message → Send Media',
			'Chat Message → Send and Wait for Response',
			'SMS → Send SMS',
			'SMS → Send and Wait for Response',
			'Combined Notification → Send with Failover',
			'Combined Notification → Send and Wait for Response',
		]);
	});

	it('writes defaults as the editor shows them', () => {
		expect(reference.defaults.get('Dry Run')).toEqual(new Set(['on']));
		expect(reference.defaults.get('Phone Number Format')).toEqual(new Set(['Normalize']));
		expect(reference.defaults.get('Index')).toEqual(new Set(['Next Free Position', '0 (First Button)']));
		expect(reference.defaults.get('Send Once Per Key')).toEqual(new Set(['empty']));
	});
});

describe('claims in the docs', () => {
	it.each([
		'### Chat Message → Send Template',
		'**SMS → Send SMS**, **Combined Notification → Send with Failover**',
		'*SMS → Send and Wait for Response*',
		'set *Options → Dry Run* and run',
		'| Options → Limit Wait Time | … |',
		'URL Button: **Index** (default **0 (First Button)**); Quick Reply Buttons: **Index** defaults to **Next Free Position**',
		'the tool **Send order update** (Chat Message →\nSend Template)',
		'| Language Code | Default `id`. |',
		'**Rate Limit Max Wait (Seconds)** (default 120)',
		'Some text with no claims: On Error → Continue.',
	])('accepts %s', (line) => {
		expect(problemsOf(line)).toEqual([]);
	});

	it('names the file, the line and the claim of an operation the resource does not have', () => {
		expect(problemsOf('intro\n\n### SMS → Send\n')).toEqual([
			'doc.md:3: "SMS → Send": SMS\'s operations are "Send SMS", "Send and Wait for Response"',
		]);
		expect(problemsOf('**Chat Message → Send Text**, then more')).toEqual([
			'doc.md:1: "Chat Message → Send Text": Chat Message\'s operations are "Send Template", "Send Media", "Send and Wait for Response"',
		]);
	});

	it('reads a claim wrapped onto the next line', () => {
		expect(problemsOf('sends with SMS →\nSend, then')).toEqual([
			'doc.md:1: "SMS → Send": SMS\'s operations are "Send SMS", "Send and Wait for Response"',
		]);
	});

	it('refuses an option no operation has', () => {
		expect(problemsOf('x\n*Options → Rate Limit Retries* (5)')).toEqual([
			'doc.md:2: "Options → Rate Limit Retries": no operation has an option of that name',
		]);
	});

	it('refuses a default the node does not have', () => {
		expect(problemsOf('**Rate Limit Max Wait (Seconds)** (default 60)')).toEqual([
			'doc.md:1: "Rate Limit Max Wait (Seconds) (default 60": the node\'s default for Rate Limit Max Wait (Seconds) is "120"',
		]);
		expect(problemsOf('For the URL button: **Index** (default 1)')).toEqual([
			'doc.md:1: "Index (default 1": the node\'s default for Index is "Next Free Position" or "0 (First Button)"',
		]);
		expect(problemsOf('| Language Code | Default `en`. |')).toEqual([
			'doc.md:1: "Language Code | Default `en`": the node\'s default for Language Code is "id"',
		]);
	});

	it('leaves fenced code alone', () => {
		expect(problemsOf('```\nSMS → Send\n```')).toEqual([]);
	});
});

describe('this repository', () => {
	const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

	it.each(BLOCK_NAMES)("README.md's generated %s table is the node's (npx tsx scripts/release/node-reference.ts rewrites it)", (name) => {
		const block = blockOf(readme, name);
		if (!block) throw new Error(`README.md has no block between ${blockStart(name)} and ${blockEnd(name)}`);
		expect(block.text).toBe(renderBlock(reference, name));
	});

	it('README.md and docs/*.md name only operations, options and defaults the node has', () => {
		const repo = repoFiles();
		const files = markdownFiles(repo).filter((file) => file === 'README.md' || /^docs\/[^/]+\.md$/.test(file));
		expect(files).toContain('README.md');
		const problems = files.flatMap((file) => checkClaims(file, repo.read(file), reference)).map(formatClaim);
		expect(problems).toEqual([]);
	});
});

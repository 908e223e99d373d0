/**
 * The node's operations and Options as the editor shows them, for the docs. The one source is the
 * node's description (`description.properties`): the README's operations and options tables are
 * generated from it into a marked block, and the prose of README.md and docs/*.md is checked
 * against it. `npm test` (test/package/node-reference.test.ts) fails, naming the file, the line
 * and the claim, when
 *
 * - a generated block (the operations table, the Options table) differs from what the
 *   description gives now (rewrite them with this script);
 * - a `<Resource> → <Operation>` names an operation its resource does not have (`SMS → Send`
 *   where the editor shows `Send SMS`);
 * - an `Options → <Option>` names an option no operation has;
 * - a field or option followed by its default (`**Index** (default 0)`, `Index defaults to
 *   **Next Free Position**`, `| Language Code | Default \`id\``) states a default no field of that
 *   name has.
 *
 *   npx tsx scripts/release/node-reference.ts          rewrites the blocks in README.md
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { linesOutsideFences } from './markdown-links';
import { REPO_ROOT } from './repository';

/** The generated blocks of README.md: the operations table and the Options table. */
export type BlockName = 'operations' | 'options';
export const BLOCK_NAMES: BlockName[] = ['operations', 'options'];
export const blockStart = (name: BlockName): string =>
	`<!-- node-reference:${name}: generated from the node by \`npx tsx scripts/release/node-reference.ts\`; do not edit by hand -->`;
export const blockEnd = (name: BlockName): string => `<!-- node-reference:${name}:end -->`;

export interface Operation {
	resource: string;
	/** As the Operation field shows it (`Send SMS`). */
	name: string;
	/** As the node list shows it (`Send an SMS`). */
	action: string;
	description: string;
	options: INodeProperties[];
}

export interface NodeReference {
	operations: Operation[];
	/** Every display name of a field, a field's sub-field or an option, with each default it has (as the docs write it). */
	defaults: Map<string, Set<string>>;
}

const shownFor = (property: INodeProperties, resource: string, operation: string): boolean => {
	const show = property.displayOptions?.show ?? {};
	const matches = (key: string, value: string) => !(key in show) || (show[key] ?? []).includes(value);
	return matches('resource', resource) && matches('operation', operation) && !('@tool' in show);
};

/** A default as the docs write it: an option's name, on/off, "empty", an expression without its `=`. */
function formatDefault(property: INodeProperties): string {
	const value = property.default;
	if (property.type === 'options') {
		const option = (property.options as INodePropertyOptions[]).find((candidate) => candidate.value === value);
		return option ? option.name : String(value);
	}
	if (property.type === 'boolean') return value === true ? 'on' : 'off';
	if (property.type === 'fixedCollection' && value && typeof value === 'object') {
		// A single-value collection with its defaults (Limit Wait Time): "Limit Type: After Time Interval, …".
		const [group] = (property.options ?? []) as INodePropertyCollection[];
		const values = (value as Record<string, Record<string, unknown>>)[group?.name ?? ''];
		if (!values) return 'empty';
		return Object.entries(values)
			.map(([name, sub]) => {
				const field = group.values.find((candidate) => candidate.name === name);
				return field ? `${field.displayName}: ${formatDefault({ ...field, default: sub as INodeProperties['default'] })}` : `${name}: ${String(sub)}`;
			})
			.join(', ');
	}
	if (value === '' || value === undefined || value === null) return 'empty';
	if (typeof value === 'object') return Object.keys(value).length === 0 ? 'empty' : JSON.stringify(value);
	return String(value).replace(/^=/, '');
}

/** The operations and defaults of a node's description. */
export function nodeReference(description: INodeTypeDescription): NodeReference {
	const { properties } = description;
	const resourceField = properties.find((property) => property.name === 'resource');
	if (!resourceField) throw new Error('The node has no Resource field');
	const operations: Operation[] = [];
	const defaults = new Map<string, Set<string>>();
	const add = (property: INodeProperties): void => {
		defaults.set(property.displayName, (defaults.get(property.displayName) ?? new Set<string>()).add(formatDefault(property)));
	};
	for (const resource of resourceField.options as INodePropertyOptions[]) {
		const operationField = properties.find(
			(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource.value),
		);
		for (const operation of (operationField?.options ?? []) as INodePropertyOptions[]) {
			const shown = properties.filter(
				(property) => property !== operationField && property !== resourceField && shownFor(property, String(resource.value), String(operation.value)),
			);
			const optionsField = shown.find((property) => property.name === 'options' && property.type === 'collection');
			const options = (optionsField?.options ?? []) as INodeProperties[];
			operations.push({
				resource: resource.name,
				name: operation.name,
				action: operation.action ?? operation.name,
				description: operation.description ?? '',
				options,
			});
			// The defaults of the fields shown for it (notices and the Options collection excluded), their sub-fields and its options.
			for (const property of [...shown.filter((property) => property !== optionsField && property.type !== 'notice'), ...options]) {
				add(property);
				if (property.type === 'fixedCollection') {
					for (const group of (property.options ?? []) as INodePropertyCollection[]) group.values.forEach(add);
				}
			}
		}
	}
	return { operations, defaults };
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** Which operations offer an option, as short as it can be said. */
function offeredOn(operations: Operation[], having: Operation[]): string {
	if (having.length === operations.length) return 'every operation';
	const labels = having.map((operation) => {
		// The name alone when every operation of that name offers it, else with its resource.
		const everywhere = operations.every((other) => other.name !== operation.name || having.includes(other));
		return everywhere ? operation.name : `${operation.resource} → ${operation.name}`;
	});
	return [...new Set(labels)].join(', ');
}

/** The operations table: each resource's operations as the Operation field and the node list show them. */
function operationsTable({ operations }: NodeReference): string[] {
	return [
		'| Resource | Operation | In the node list | What it does |',
		'|---|---|---|---|',
		...operations.map((operation) => `| ${operation.resource} | **${operation.name}** | ${cell(operation.action)} | ${cell(operation.description)} |`),
	];
}

/** The Options table: every option, its value when added, where it is offered and the editor's text for it. */
function optionsTable({ operations }: NodeReference): string[] {
	const lines = ['| Option | Value when added | Offered on | What the editor says |', '|---|---|---|---|'];
	const names = new Set(operations.flatMap((operation) => operation.options.map((option) => option.displayName)));
	for (const name of [...names].sort((a, b) => a.localeCompare(b))) {
		const having = operations.filter((operation) => operation.options.some((option) => option.displayName === name));
		const option = having[0].options.find((candidate) => candidate.displayName === name) as INodeProperties;
		lines.push(`| ${name} | ${cell(formatDefault(option))} | ${cell(offeredOn(operations, having))} | ${cell(option.description ?? '')} |`);
	}
	return lines;
}

/** One generated block's Markdown, markers included. */
export function renderBlock(reference: NodeReference, name: BlockName): string {
	const table = name === 'operations' ? operationsTable(reference) : optionsTable(reference);
	return [blockStart(name), '', ...table, '', blockEnd(name)].join('\n');
}

export interface Claim {
	/** The Markdown file, relative to the repository root. */
	file: string;
	/** 1-based line. */
	line: number;
	claim: string;
	problem: string;
}

export function formatClaim({ file, line, claim, problem }: Claim): string {
	return `${file}:${line}: "${claim}": ${problem}`;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const longestFirst = (names: Iterable<string>): string[] => [...new Set(names)].sort((a, b) => b.length - a.length);

/** The text right after `at` with emphasis marks and spaces skipped. */
const after = (text: string, at: number): string => text.slice(at).replace(/^[*_`\s]+/, '');

/** The first of `names` the text starts with, as a whole word. */
const startsWithName = (text: string, names: string[]): string | undefined =>
	names.find((name) => text.startsWith(name) && !/^[\p{L}\p{N}]/u.test(text.slice(name.length)));

/** Every operation, option and default a Markdown file names that the node's description does not have. */
export function checkClaims(file: string, markdown: string, reference: NodeReference): Claim[] {
	const claims: Claim[] = [];
	const resources = longestFirst(reference.operations.map((operation) => operation.resource));
	const optionNames = longestFirst(reference.operations.flatMap((operation) => operation.options.map((option) => option.displayName)));
	const fieldNames = longestFirst(reference.defaults.keys());
	// Code spans are read too: the docs name fields in them.
	const lines = linesOutsideFences(markdown);
	lines.forEach((text, index) => {
		const line = index + 1;
		/** The text after a match; when the line ends there, the next line's (a claim wrapped in a paragraph). */
		const restAfter = (at: number): string => after(text, at) || after(lines[index + 1] ?? '', 0);
		const report = (claim: string, problem: string) => claims.push({ file, line, claim: claim.trim(), problem });
		for (const match of text.matchAll(new RegExp(`(${resources.map(escape).join('|')})[*_\\s]*→`, 'g'))) {
			const resource = match[1];
			const rest = restAfter((match.index ?? 0) + match[0].length);
			const labels = reference.operations.filter((operation) => operation.resource === resource).map((operation) => operation.name);
			if (!startsWithName(rest, longestFirst(labels))) {
				report(`${resource} → ${/^[^*_`|,;:(]*/.exec(rest)?.[0] ?? rest}`, `${resource}'s operations are ${labels.map((label) => `"${label}"`).join(', ')}`);
			}
		}
		for (const match of text.matchAll(/\bOptions[*_\s]*→/g)) {
			const rest = restAfter((match.index ?? 0) + match[0].length);
			if (!startsWithName(rest, optionNames)) report(`Options → ${/^[^*_`|,;:(]*/.exec(rest)?.[0] ?? rest}`, 'no operation has an option of that name');
		}
		for (const name of fieldNames) {
			for (const match of text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?![\\p{L}\\p{N}])`, 'gu'))) {
				const rest = text.slice((match.index ?? 0) + name.length).replace(/^[*_`]+/, '');
				// The value: up to its closing mark when it is marked (**0 (First Button)**), else up to punctuation.
				const stated = /^(?:\s+\(default\s+|\s+defaults to\s+|\s*\|\s*Default\s+)(?:(\*\*|`|\*)(.+?)\1|([^*`),.;|]+?)(?=[),.;|]|\s*$))/i.exec(rest);
				if (!stated) continue;
				const value = (stated[2] ?? stated[3]).trim();
				const known = reference.defaults.get(name) ?? new Set<string>();
				if (!known.has(value)) {
					report(`${name} ${stated[0].trim()}`, `the node's default for ${name} is ${[...known].map((known) => `"${known}"`).join(' or ')}`);
				}
			}
		}
	});
	return claims;
}

/** A generated block of a Markdown text (from its start marker to its end marker), or undefined when it has none. */
export function blockOf(markdown: string, name: BlockName): { start: number; end: number; text: string } | undefined {
	const start = markdown.indexOf(blockStart(name));
	const endMarker = markdown.indexOf(blockEnd(name));
	if (start === -1 || endMarker === -1 || endMarker < start) return undefined;
	const end = endMarker + blockEnd(name).length;
	return { start, end, text: markdown.slice(start, end) };
}

async function main(): Promise<number> {
	// tsx resolves `….node` to the codex file (….node.json): name the source file.
	const { MultiChannelNotification } = (await import(
		join(REPO_ROOT, 'nodes/MultiChannelNotification/MultiChannelNotification.node.ts')
	)) as typeof import('../../nodes/MultiChannelNotification/MultiChannelNotification.node');
	const reference = nodeReference(new MultiChannelNotification().description);
	const readmePath = join(REPO_ROOT, 'README.md');
	const readme = readFileSync(readmePath, 'utf8');
	let updated = readme;
	for (const name of BLOCK_NAMES) {
		const block = blockOf(updated, name);
		if (!block) {
			console.error(`README.md has no block between\n${blockStart(name)}\nand\n${blockEnd(name)}`);
			return 1;
		}
		updated = `${updated.slice(0, block.start)}${renderBlock(reference, name)}${updated.slice(block.end)}`;
	}
	if (updated === readme) {
		console.log("README.md's operations and Options tables already match the node");
		return 0;
	}
	writeFileSync(readmePath, updated);
	console.log("README.md's operations and Options tables rewritten from the node");
	return 0;
}

if (require.main === module) {
	main().then(
		(code) => process.exit(code),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}

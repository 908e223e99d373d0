import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { Logger as WorkflowLogger } from 'n8n-workflow';
import { LoggerProxy } from 'n8n-workflow';

/**
 * Captures everything n8n and the node could log during a test: n8n's LoggerProxy (the global
 * logger of n8n-workflow), n8n-core's injected Logger (which n8n-core asks its DI container for
 * and which would otherwise re-initialise LoggerProxy with its own), console.*, and raw writes to
 * stdout and stderr. Every level is captured, debug included, and metadata is serialised, so a
 * secret passed along in log metadata is found too.
 */

const LEVELS = ['error', 'warn', 'info', 'debug'] as const;
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

function serialise(value: unknown): string {
	if (typeof value === 'string') return value;
	try {
		return JSON.stringify(value, (_key, inner: unknown) =>
			inner instanceof Error ? { ...inner, name: inner.name, message: inner.message, stack: inner.stack } : inner,
		);
	} catch (error) {
		return `${String(value)} (not serialisable: ${error instanceof Error ? error.message : String(error)})`;
	}
}

export interface LogCapture {
	/** Every line captured so far. */
	lines: string[];
	/** All captured text as one string. */
	text(): string;
	clear(): void;
	/** Puts console and stdout/stderr back; the loggers stay captured for the rest of the file. */
	restore(): void;
}

export function captureLogs({ echo = false }: { echo?: boolean } = {}): LogCapture {
	const lines: string[] = [];
	const push = (source: string, args: unknown[]) => lines.push(`${source}: ${args.map(serialise).join(' ')}`);

	const logger = {} as Record<string, unknown>;
	for (const level of LEVELS) {
		logger[level] = (message: string, metadata?: unknown) => push(`logger.${level}`, [message, metadata]);
	}
	logger.scoped = () => logger;
	Container.set(Logger, logger as unknown as Logger);
	LoggerProxy.init(logger as unknown as WorkflowLogger);

	const restorers: Array<() => void> = [];
	for (const method of CONSOLE_METHODS) {
		const spy = jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
			push(`console.${method}`, args);
		});
		restorers.push(() => spy.mockRestore());
	}
	for (const stream of [process.stdout, process.stderr]) {
		const original = stream.write.bind(stream);
		const name = stream === process.stdout ? 'stdout' : 'stderr';
		stream.write = ((chunk: unknown, ...rest: unknown[]) => {
			push(name, [typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8')]);
			return echo ? (original as (...args: unknown[]) => boolean)(chunk, ...rest) : true;
		}) as typeof stream.write;
		restorers.push(() => {
			stream.write = original as typeof stream.write;
		});
	}

	return {
		lines,
		text: () => lines.join('\n'),
		clear: () => {
			lines.length = 0;
		},
		restore: () => restorers.forEach((restore) => restore()),
	};
}

/**
 * Where a secret shows up in `text`, whole or in part: any run of `window` consecutive characters
 * of it counts, so a key cut off by truncation is still found. Returns a short excerpt per find.
 */
export function findSecret(text: string, secret: string, window = 12): string[] {
	const found: string[] = [];
	const size = Math.min(window, secret.length);
	for (let start = 0; start + size <= secret.length; start++) {
		const piece = secret.slice(start, start + size);
		const at = text.indexOf(piece);
		if (at !== -1) {
			found.push(text.slice(Math.max(0, at - 40), at + size + 40));
			break;
		}
	}
	return found;
}

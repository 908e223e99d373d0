/**
 * Notices when the command that started us is gone. `npm start` is a chain of processes (npm →
 * sh → tsx → node → tsx → node); a stop button or a process manager signals only the top `npm`,
 * which passes the signal to its `sh`, which dies without passing it on, and the rest of the
 * chain would run on as orphans. Each long-running script therefore watches the processes above
 * it, up to and including the nearest npm, and stops itself as if it had received SIGTERM when
 * any of them has gone.
 *
 * Linux reads the chain from /proc; elsewhere only the direct parent is watched.
 */
import { readFileSync } from 'node:fs';

/** How often the chain is looked at: a stop takes at most this long to be noticed. */
const POLL_MS = 500;
/** Deeper than any chain of ours; a guard against a loop in a malformed /proc. */
const MAX_DEPTH = 12;

interface Ancestor {
	pid: number;
	/** The kernel's start time, so a recycled pid is not taken for the same process. */
	started: string;
}

/** Fields of /proc/<pid>/stat after the command name (which may itself hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return undefined;
	}
}

function isNpm(pid: number): boolean {
	try {
		// npm renames its process to its command line ("npm run sandbox"); started by path it is `node …/npm-cli.js`.
		const [title = '', script = ''] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
		return /(^|\/)np[mx]( |$)/.test(title) || /\/np[mx]-cli\.js$/.test(script);
	} catch {
		return false;
	}
}

/** Our ancestors from the parent up, ending with the nearest npm; just the parent if there is none. */
export function ancestors(): Ancestor[] {
	const chain: Ancestor[] = [];
	let pid = process.ppid;
	while (pid > 1 && chain.length < MAX_DEPTH) {
		const fields = statFields(pid);
		// Field 22 of stat (index 19 after pid, name and state) is the start time; field 4 the parent.
		if (!fields) break;
		chain.push({ pid, started: fields[19] });
		if (isNpm(pid)) return chain;
		pid = Number(fields[1]);
	}
	return chain.slice(0, 1);
}

function alive(ancestor: Ancestor): boolean {
	const fields = statFields(ancestor.pid);
	// state Z: exited, not yet reaped; the process is gone for our purposes.
	if (fields) return fields[0] !== 'Z' && fields[19] === ancestor.started;
	try {
		process.kill(ancestor.pid, 0);
		return true;
	} catch {
		return false;
	}
}

/**
 * Calls `onGone` once, when one of the processes above us (see {@link ancestors}) has exited or
 * our parent changed. Returns a function that stops watching. The timer does not keep the
 * process alive.
 */
export function watchLifeline(onGone: (why: string) => void): () => void {
	const parent = process.ppid;
	const chain = ancestors();
	const timer = setInterval(() => {
		const gone = chain.find((ancestor) => !alive(ancestor));
		if (process.ppid === parent && !gone) return;
		clearInterval(timer);
		onGone(gone ? `process ${gone.pid} above this one has exited` : `parent process ${parent} has exited`);
	}, POLL_MS);
	timer.unref();
	return () => clearInterval(timer);
}

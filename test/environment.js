// jest's node environment, plus a check that each test leaves nothing running: a timer or a
// listening server still holding the process open after a test fails that test, by name, and is
// stopped, so a leak shows as a failure rather than a jest that never exits. What a test file
// starts outside its tests (a sandbox in beforeAll, stopped in afterAll) is checked when the file
// ends. Timers are followed through the test context's own setTimeout and setInterval (what the
// tests and the node call), servers through net.Server's listen.
const fs = require('node:fs');
const net = require('node:net');
const { TestEnvironment } = require('jest-environment-node');

/**
 * How long a test's timers and servers may take to finish on their own once it ends: a short
 * timer fires, a server being closed closes. Only a machine too busy to turn its event loop
 * needs the whole of it.
 */
const GRACE_MS = 2000;

function describeHandle({ kind, handle }) {
	if (kind === 'server') return 'a listening server';
	const callback = handle._onTimeout && handle._onTimeout.name;
	return `a ${kind} of ${handle._idleTimeout} ms${callback ? ` (${callback})` : ''}`;
}

/** Whether the handle still holds the process open. */
function holdsProcess({ kind, handle }) {
	if (kind === 'server') return handle.listening && (typeof handle._handle?.hasRef !== 'function' || handle._handle.hasRef());
	return !handle._destroyed && handle.hasRef();
}

function stop({ kind, handle }) {
	if (kind === 'server') handle.close();
	else clearTimeout(handle);
}

function reverse(block) {
	block.children.reverse();
	for (const child of block.children) if (child.type === 'describeBlock') reverse(child);
}

class LeakCheckingEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.testPath = context.testPath;
		this.handles = new Set();
		this.owner = 'file';
		const track = (kind, handle) => {
			this.handles.add({ kind, handle, owner: this.owner });
			return handle;
		};
		const { setTimeout: realSetTimeout, setInterval: realSetInterval } = this.global;
		this.global.setTimeout = Object.assign((...args) => track('setTimeout', realSetTimeout(...args)), realSetTimeout);
		this.global.setInterval = Object.assign((...args) => track('setInterval', realSetInterval(...args)), realSetInterval);
		const realListen = net.Server.prototype.listen;
		this.restoreListen = () => {
			net.Server.prototype.listen = realListen;
		};
		net.Server.prototype.listen = function listen(...args) {
			track('server', this);
			return realListen.apply(this, args);
		};
	}

	async handleTestEvent(event, state) {
		// MCN_TEST_ORDER=reverse runs each file's tests last to first (jest's own --randomize
		// shuffles them): a test that passes only after another shows up.
		if (event.name === 'run_start' && process.env.MCN_TEST_ORDER === 'reverse') reverse(state.rootDescribeBlock);
		if (event.name === 'test_start') this.owner = event.test;
		if (event.name !== 'test_done') return;
		const test = event.test;
		this.owner = 'file';
		const left = await this.leftBy(test);
		if (left.length === 0) return;
		const described = left.map(describeHandle).join('; ');
		for (const handle of left) stop(handle);
		const names = [];
		for (let block = test; block && block.name !== 'ROOT_DESCRIBE_BLOCK'; block = block.parent) names.unshift(block.name);
		const error = new Error(
			`The test "${names.join(' › ')}" left ${left.length} thing(s) running ${GRACE_MS} ms after it ended: ${described}. Stop what the test starts (clearTimeout, close, await); they have been stopped now.`,
		);
		error.stack = error.message;
		test.errors.push(error);
	}

	/** The handles `owner` made that still hold the process open after the grace period; forgets the rest. */
	async leftBy(owner) {
		const deadline = Date.now() + GRACE_MS;
		for (;;) {
			for (const handle of this.handles) if (!holdsProcess(handle)) this.handles.delete(handle);
			const left = [...this.handles].filter((handle) => handle.owner === owner);
			if (left.length === 0 || Date.now() >= deadline) return left;
			await new Promise((resolve) => setTimeout(resolve, 20).unref());
		}
	}

	async teardown() {
		// setup-env.js made this file's n8n user folder (it holds an encryption key): removed here,
		// where it happens even when no test of the file ran (jest -t skips every afterAll then).
		const userFolder = this.global.process.env.MCN_TEST_USER_FOLDER;
		if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
		const left = await this.leftBy('file');
		const described = left.map(describeHandle).join('; ');
		for (const handle of left) stop(handle);
		this.restoreListen();
		await super.teardown();
		if (left.length > 0) {
			throw new Error(
				`${this.testPath} left ${left.length} thing(s) running after its last test and afterAll: ${described}. Stop in afterAll what beforeAll starts.`,
			);
		}
	}
}

module.exports = LeakCheckingEnvironment;

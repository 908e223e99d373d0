/**
 * `npm start` answers the refund example's question for the user, and nothing else: its answer
 * plan is kept to the example's manager number, which no other example uses, and to the
 * example's Send and Wait node, so a workflow the user builds (a node of its own, any number)
 * waits for the user's own answer on the phone page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { inScope } from '../../sandbox/answerLinks';
import { NODE_TYPE, REPO_ROOT } from '../../scripts/n8n/lib/config';
import { REFUND_EXAMPLE, REFUND_MANAGER, demoAnswerPlan, readExampleWorkflow } from '../../scripts/n8n/lib/examples';

const plan = demoAnswerPlan();
const refund = readExampleWorkflow(REFUND_EXAMPLE);
const askNode = refund.nodes.find((node) => node.type === NODE_TYPE && node.parameters.operation === 'sendAndWait');
const linkFrom = (nodeId: string) => `http://localhost:5678/webhook-waiting/17/${nodeId}?approved=true&signature=abc`;

describe("npm start's automatic answers", () => {
	it('approve, kept to the refund example\'s manager number and its Send and Wait node', () => {
		expect(askNode?.id).toEqual(expect.any(String));
		expect(plan).toEqual({ answer: 'approve', delayMs: 500, only: { recipient: REFUND_MANAGER, nodeId: askNode?.id } });
		expect(JSON.stringify(refund)).toContain(`manager: '${REFUND_MANAGER}'`);
	});

	it('the manager number is in no other example, so no other example is answered', () => {
		const others = readdirSync(join(REPO_ROOT, 'examples')).filter((file) => file.endsWith('.json') && file !== REFUND_EXAMPLE);
		expect(others.length).toBeGreaterThan(0);
		for (const file of others) expect(`${file}: ${readFileSync(join(REPO_ROOT, 'examples', file), 'utf8')}`).not.toContain(REFUND_MANAGER);
	});

	it("answers the example's link; the same number from the user's own node, or the example's node to another number, is left to the user", () => {
		const exampleNode = askNode?.id ?? 'missing';
		expect(inScope(plan.only, { link: linkFrom(exampleNode), recipient: REFUND_MANAGER })).toBe(true);
		expect(inScope(plan.only, { link: linkFrom('a-node-the-user-added'), recipient: REFUND_MANAGER })).toBe(false);
		expect(inScope(plan.only, { link: linkFrom(exampleNode), recipient: '+6281234567890' })).toBe(false);
	});

	it('start.ts starts the sandbox with this plan and the phone page', () => {
		const start = readFileSync(join(REPO_ROOT, 'scripts', 'n8n', 'start.ts'), 'utf8');
		expect(start).toMatch(/answerLinks: demoAnswerPlan\(\)/);
		expect(start).not.toMatch(/answerLinks: \{/);
		expect(start).toMatch(/phone: \{ port: /);
	});
});

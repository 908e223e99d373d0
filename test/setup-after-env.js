// n8n-core starts a 60 s cleanup interval (SSHClientsManager) the first time a node execution
// context is built, and only clears it on process exit. Clear it after each test file so jest
// can exit on its own. Every test file gets this through jest's setupFilesAfterEnv.
afterAll(() => {
	const { Container } = require('@n8n/di');
	const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager');
	Container.get(SSHClientsManager).onShutdown();
});

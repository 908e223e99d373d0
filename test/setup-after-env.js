// n8n-core starts a 60 s cleanup interval (SSHClientsManager) the first time a node execution
// context is built, and only clears it on process exit. Start it before the file's tests (so no
// test is taken for its owner by test/environment.js) and clear it after them, so jest can exit
// on its own. Every test file gets this through jest's setupFilesAfterEnv.
const sshClients = () => {
	const { Container } = require('@n8n/di');
	const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager');
	return Container.get(SSHClientsManager);
};
beforeAll(() => {
	sshClients();
});
afterAll(() => {
	sshClients().onShutdown();
});


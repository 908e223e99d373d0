/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: '<rootDir>/test/environment.js',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	globalSetup: '<rootDir>/test/global-setup.js',
	globalTeardown: '<rootDir>/test/global-teardown.js',
	setupFiles: ['<rootDir>/test/setup-env.js'],
	setupFilesAfterEnv: ['<rootDir>/test/setup-after-env.js'],
	testTimeout: 30000,
};

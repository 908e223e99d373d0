/**
 * The credential's checks word for word: each Base URL and API key problem as the user reads
 * it, where a key's bad character is, and the Base URL as it is used (no trailing slashes, no
 * doubled /v1). The engine tests (apiKey.test.ts, baseUrl.test.ts) show that such a credential
 * sends nothing; these pin what it says and what it keeps.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import type { Verdict } from '../../../../nodes/MultiChannelNotification/helpers/validation';
import {
	checkApiKey,
	checkBaseUrl,
	checkCredential,
	credentialProblem,
	getConnection,
} from '../../../../nodes/MultiChannelNotification/transport/connection';

/** A verdict as the user reads it: the credential's problem as a sentence, or what was kept. */
const read = <T>(verdict: Verdict<T>) => ('problems' in verdict ? { problem: credentialProblem(verdict.problems) } : { ok: verdict.data });

describe('checkApiKey', () => {
	it.each([
		['a line feed', 'abc\ndef', 'the API key contains a line break (character 4 of 7)'],
		['a carriage return', 'abc\rdef', 'the API key contains a line break (character 4 of 7)'],
		['an inner space', 'ab cd', 'the API key contains a space or tab inside it (character 3 of 5)'],
		['a tab', 'ab\tcd', 'the API key contains a space or tab inside it (character 3 of 5)'],
		['a NUL', 'a\u0000', 'the API key contains a control character (character 2 of 2)'],
		['the last control character below space', 'a\u001f', 'the API key contains a control character (character 2 of 2)'],
		['DEL', '\u007fa', 'the API key contains a control character (character 1 of 2)'],
		['a non-ASCII character', 'kéy', 'the API key contains a non-ASCII character (character 2 of 3); an HTTP header cannot carry it'],
		['blank', '  \t ', 'the API key is empty'],
		['not text', { key: 'x' }, 'the API key is empty'],
	])('%s: %j', (_name, raw, problem) => {
		expect(read(checkApiKey(raw))).toEqual({ problem });
	});

	it('keeps every printable ASCII character, space and ~ included at the edges of the range, trimmed outside', () => {
		expect(read(checkApiKey('  !key~0123 '))).toEqual({ ok: '!key~0123' });
		expect(read(checkApiKey(12345))).toEqual({ ok: '12345' });
	});
});

describe('checkBaseUrl', () => {
	it.each([
		['blank', '   ', 'the Base URL is empty'],
		['not text', 42, 'the Base URL is empty'],
		['a space inside', 'https://notify example.com', 'the Base URL "https://notify example.com" contains a space or line break'],
		[
			'a user and password, never echoed',
			'https://me:s3cret@notify.example.com',
			'the Base URL "https://***@notify.example.com" must not contain a user name or password (user:password@): put the key in the API Key field',
		],
		[
			'a user and password with a space, still not echoed',
			'https://me:s3 cret@notify.example.com',
			'the Base URL "https://***@notify.example.com" contains a space or line break',
		],
		['a query', 'https://notify.example.com/?v=1', 'the Base URL "https://notify.example.com/?v=1" must not contain a query (?…) or fragment (#…)'],
		[
			'no scheme',
			'//notify.example.com',
			'the Base URL "//notify.example.com" must start with https://, e.g. https://notify.example.com',
		],
		[
			'a scheme further in',
			'notify.example.com/https://x',
			'the Base URL "notify.example.com/https://x" must start with https://, e.g. https://notify.example.com/https://x',
		],
		['another scheme', 'ftp://notify.example.com', 'the Base URL "ftp://notify.example.com" must use https://'],
	])('%s', (_name, raw, problem) => {
		expect(read(checkBaseUrl(raw))).toEqual({ problem });
	});

	it('names plain http as the other choice once Allow Plain HTTP is on', () => {
		expect(read(checkBaseUrl('ftp://notify.example.com', { allowPlainHttp: true }))).toEqual({
			problem: 'the Base URL "ftp://notify.example.com" must use https:// (or http://)',
		});
		expect(read(checkBaseUrl('http://10.0.0.5:8080/', { allowPlainHttp: true }))).toEqual({
			ok: { baseUrl: 'http://10.0.0.5:8080', origin: 'http://10.0.0.5:8080' },
		});
	});

	it.each([
		['  https://notify.example.com  ', 'https://notify.example.com'],
		['https://notify.example.com///', 'https://notify.example.com'],
		['https://notify.example.com/v1', 'https://notify.example.com'],
		['https://notify.example.com/api/v1//', 'https://notify.example.com/api'],
		['https://notify.example.com/api//v1', 'https://notify.example.com/api'],
		['https://notify.example.com/v1/api', 'https://notify.example.com/v1/api'],
		['https://notify.example.com/v10', 'https://notify.example.com/v10'],
		['https://notify.example.com/a//b/', 'https://notify.example.com/a//b'],
	])('%s is used as %s', (raw, baseUrl) => {
		expect(read(checkBaseUrl(raw))).toEqual({ ok: { baseUrl, origin: 'https://notify.example.com' } });
	});
});

describe('checkCredential', () => {
	const GOOD = { baseUrl: 'https://notify.example.com/', apiKey: ' key-123 ' };

	it('the Base URL first, then the key; Ignore SSL Issues only when it is exactly on', () => {
		expect(read(checkCredential({ baseUrl: '', apiKey: '' }))).toEqual({ problem: 'the Base URL is empty' });
		expect(read(checkCredential({ ...GOOD, apiKey: '' }))).toEqual({ problem: 'the API key is empty' });
		const ok = { baseUrl: 'https://notify.example.com', origin: 'https://notify.example.com', apiKey: 'key-123' };
		expect(read(checkCredential(GOOD))).toEqual({ ok: { ...ok, ignoreSslIssues: false } });
		expect(read(checkCredential({ ...GOOD, ignoreSslIssues: true }))).toEqual({ ok: { ...ok, ignoreSslIssues: true } });
		expect(read(checkCredential({ ...GOOD, ignoreSslIssues: 'true' }))).toEqual({ ok: { ...ok, ignoreSslIssues: false } });
	});

	it('plain http only with Allow Plain HTTP exactly on', () => {
		const plain = { ...GOOD, baseUrl: 'http://localhost:8080' };

		expect(read(checkCredential({ ...plain, allowPlainHttp: 'true' }))).toHaveProperty('problem');
		expect(read(checkCredential({ ...plain, allowPlainHttp: true }))).toHaveProperty('ok.origin', 'http://localhost:8080');
	});
});

describe('getConnection', () => {
	const saved = { baseUrl: 'https://notify.example.com/v1', apiKey: ' key-123 ' };
	const contextWith = (credentials: INode['credentials']) =>
		({ getCredentials: async () => saved, getNode: () => ({ name: 'Notify', credentials }) }) as unknown as IExecuteFunctions;

	it('hands n8n the credential as saved, with the key as sent, under its reference', async () => {
		const connection = await getConnection.call(contextWith({ multiChannelNotificationApi: { id: 'c-1', name: 'Notify account' } }));

		expect(connection).toMatchObject({ baseUrl: 'https://notify.example.com', origin: 'https://notify.example.com', apiKey: 'key-123' });
		expect(connection.credential).toEqual({
			id: 'c-1',
			name: 'Notify account',
			type: 'multiChannelNotificationApi',
			data: { ...saved, apiKey: 'key-123' },
		});
		expect(connection.scrub('said key-123')).toBe('said ***');
	});

	it('an empty id and name when the node holds no reference to it', async () => {
		const { credential } = await getConnection.call(contextWith(undefined));

		expect({ id: credential.id, name: credential.name }).toEqual({ id: '', name: '' });
	});
});

/**
 * The https rule as the user reads it, phrased for the link given: what to change, not only
 * what is wrong.
 */
import { HTTPS_RULE, httpsRuleFor } from '../../../../nodes/MultiChannelNotification/schemas/common';

describe('httpsRuleFor', () => {
	it.each([
		['http://', 'http://cdn.example.com/a.jpg', 'must use https://, not http:// (the service only fetches https links)'],
		['HTTP:// with spaces around', '  HTTP://cdn.example.com/a.jpg ', 'must use https://, not http:// (the service only fetches https links)'],
		['no scheme', 'cdn.example.com/a.jpg', 'must be a full link starting with https:// — e.g. https://cdn.example.com/a.jpg'],
		['no scheme, a colon further in', 'cdn.example.com/a:b.jpg', 'must be a full link starting with https:// — e.g. https://cdn.example.com/a:b.jpg'],
		['leading slashes', '///cdn.example.com/a.jpg', 'must be a full link starting with https:// — e.g. https://cdn.example.com/a.jpg'],
		['http:// further in', 'see http://cdn.example.com', 'must be a full link starting with https:// — e.g. https://see http://cdn.example.com'],
		['another scheme', 'ftp://cdn.example.com/a.jpg', HTTPS_RULE],
		['a scheme with digits and signs', 'web+a1.b-c:cdn', HTTPS_RULE],
		['a one-letter scheme', 'x:cdn', HTTPS_RULE],
		['empty', '   ', HTTPS_RULE],
		['not text', 42, HTTPS_RULE],
	])('%s', (_name, value, rule) => {
		expect(httpsRuleFor(value)).toBe(rule);
	});
});

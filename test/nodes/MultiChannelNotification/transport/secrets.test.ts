/**
 * The key masking itself, word for word: each form in which a service may echo the key, the
 * length thresholds (8 characters for a key masked wherever it appears, 16 for pieces of a key
 * cut short, 12 for such a piece), and the walk through a parsed answer. The engine-level proof
 * that no key reaches an output, error or log is test/reliability/secrets.test.ts.
 */
import { makeScrubber, scrubValue } from '../../../../nodes/MultiChannelNotification/transport/secrets';

/** 12 characters, with every character the escapes change: masked whole, never in pieces. */
const KEY = `Ab1'"<&> /é%`;

describe('a key of 8 to 15 characters is masked in each form a service may echo it', () => {
	it.each([
		['as typed', `Ab1'"<&> /é%`],
		['percent-encoded as a URL component', `Ab1'%22%3C%26%3E%20%2F%C3%A9%25`],
		['percent-encoded in lower case', `ab1'%22%3c%26%3e%20%2f%c3%a9%25`],
		['percent-encoded as a URL', `Ab1'%22%3C&%3E%20/%C3%A9%25`],
		['escaped inside a JSON string', `Ab1'\\"<&> /é%`],
		['HTML-escaped, apostrophe as &#39;', `Ab1&#39;&quot;&lt;&amp;&gt; /é%`],
		['HTML-escaped, apostrophe as &#x27;', `Ab1&#x27;&quot;&lt;&amp;&gt; /é%`],
		['HTML-escaped, apostrophe as &apos;', `Ab1&apos;&quot;&lt;&amp;&gt; /é%`],
	])('%s', (_form, echoed) => {
		expect(makeScrubber(KEY)(`key=${echoed}; again:${echoed}.`)).toBe('key=***; again:***.');
	});

	it('is masked next to letters and digits too, and a text holding only the key becomes the mask', () => {
		const eight = makeScrubber('abcd1234');

		expect(eight('xxabcd1234yy')).toBe('xx***yy');
		expect(eight('abcd1234')).toBe('***');
	});

	it('is masked whole when one of its forms holds another: the longer form goes first', () => {
		// Typed, this key is the start of its percent-encoded form: masking the typed key first
		// would leave "25" of the encoded one behind.
		expect(makeScrubber('abcd123%')('id=abcd123%25;')).toBe('id=***;');
	});

	it('is not masked in pieces: 11 of its characters stay as they are', () => {
		expect(makeScrubber(KEY)(`Ab1'"<&> /é`)).toBe(`Ab1'"<&> /é`);
	});
});

describe('a key under 8 characters is masked only where it stands alone', () => {
	it('alone, or between punctuation and spaces', () => {
		const scrub = makeScrubber('abc12');

		expect(scrub('abc12')).toBe('***');
		expect(scrub('key (abc12).')).toBe('key (***).');
		expect(scrub('abc12, again abc12')).toBe('***, again ***');
	});

	it('in each form a service may echo it', () => {
		const scrub = makeScrubber('a&b c');

		expect(scrub('a&b c, a&amp;b c, a%26b%20c')).toBe('***, ***, ***');
	});

	it('not inside a longer word or number', () => {
		expect(makeScrubber('abc12')('abc12def 9abc12 abc123')).toBe('abc12def 9abc12 abc123');
	});

	it('its characters are matched literally, not as a pattern', () => {
		const dotted = makeScrubber('a.b*c');

		expect(dotted('x a.b*c y')).toBe('x *** y');
		expect(dotted('x aXbc y abbbc')).toBe('x aXbc y abbbc');
	});
});

describe('a key of 16 characters or more is masked also when cut short', () => {
	const KEY20 = 'Zq8-Lm3vR7tY2wXk9pB4';

	it('any 12 consecutive characters of it, at its start, middle or end', () => {
		const scrub = makeScrubber(KEY20);

		expect(scrub('Zq8-Lm3vR7tY')).toBe('***');
		expect(scrub('see m3vR7tY2wXk9 here')).toBe('see *** here');
		expect(scrub(`end: ${KEY20.slice(-12)}`)).toBe('end: ***');
	});

	it('two pieces apart are two masks; overlapping pieces one', () => {
		const scrub = makeScrubber(KEY20);

		expect(scrub('a Zq8-Lm3vR7tY b 2wXk9pB4 c tY2wXk9pB4Zq8-Lm3vR7tY2 d')).toBe('a *** b 2wXk9pB4 c tY2wXk9pB4*** d');
		expect(scrub(`<${KEY20.slice(0, 14)}>`)).toBe('<***>');
	});

	it('11 characters of it stay as they are', () => {
		expect(makeScrubber(KEY20)('Zq8-Lm3vR7t')).toBe('Zq8-Lm3vR7t');
	});

	it('from exactly 16 characters; a key of 15 is masked only whole', () => {
		const sixteen = 'Zq8-Lm3vR7tY2wXk';
		const fifteen = sixteen.slice(0, 15);

		expect(makeScrubber(sixteen)('id Zq8-Lm3vR7tY')).toBe('id ***');
		expect(makeScrubber(fifteen)('id Zq8-Lm3vR7tY')).toBe('id Zq8-Lm3vR7tY');
	});
});

describe('an empty key masks nothing', () => {
	it('the text is unchanged', () => {
		expect(makeScrubber('')('any text, empty too')).toBe('any text, empty too');
		expect(makeScrubber('')('')).toBe('');
	});
});

describe('scrubValue: every string of a parsed answer, names of fields included', () => {
	// Made in each test, not here: code run while the file loads is not counted as reached by a
	// test, and mutation testing would not try these tests against the scrubber's mutants.
	const scrub = (text: string) => makeScrubber('abcd1234')(text);

	it('masks strings in objects and arrays, and the names of fields', () => {
		const answer = { message: 'bad key abcd1234', abcd1234: ['abcd1234', 7, true, null], data: { id: 'm-1' } };

		expect(scrubValue(answer, scrub)).toEqual({ message: 'bad key ***', '***': ['***', 7, true, null], data: { id: 'm-1' } });
	});

	it('returns numbers, booleans and null as they are', () => {
		expect(scrubValue(5, scrub)).toBe(5);
		expect(scrubValue(false, scrub)).toBe(false);
		expect(scrubValue(null, scrub)).toBeNull();
	});

	it('walks 64 levels deep and drops what is deeper', () => {
		let nested: unknown = ['abcd1234'];
		for (let level = 0; level < 65; level++) nested = [nested];
		let expected: unknown = '(omitted: nested too deeply)';
		for (let level = 0; level < 65; level++) expected = [expected];

		expect(scrubValue(nested, scrub)).toEqual(expected);
	});
});

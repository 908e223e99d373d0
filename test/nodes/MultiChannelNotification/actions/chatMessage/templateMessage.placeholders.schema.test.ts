/**
 * Template Content placeholders (spec: "Content"): {{1}}…{{N}} numbered without gaps, one body
 * parameter each, counted in fields mode and in Components (JSON), and not counted at all when
 * the template has no Template Content.
 */
import { body, templateItem, without } from '../../../../fixtures/values';
import { check, fields, json } from '../../../../helpers/templateVerdict';

describe('Template Content: placeholders numbered {{1}}…{{N}}, one body parameter each', () => {
	test.each<[string, string, unknown[]]>([
		['no placeholders, no parameters', 'Thanks!', []],
		['one repeated placeholder', 'Hi {{1}}, yes {{1}}', ['Budi']],
		['out of order', '{{2}} then {{1}}', ['a', 'b']],
	])('accepts %s', (_name, templateContent, bodyParameters) => {
		expect(check(templateItem({ templateContent, bodyParameters })).problems).toEqual([]);
	});

	test.each<[string, string, unknown[], string]>([
		['too few', 'Hi {{1}} {{2}}', ['a'], "Body Parameters must have 2 entries, one for each placeholder of Template Content ({{1}} to {{2}}), but 1 was given"],
		['too many for none', 'Thanks!', ['a'], 'Body Parameters must be empty: Template Content has no {{1}}-style placeholders, but 1 was given'],
		['a gap', 'Hi {{1}} {{3}}', ['a', 'b'], 'Template Content must number its placeholders {{1}} to {{3}} without gaps, but {{2}} is missing — got "Hi {{1}} {{3}}"'],
		['a zero', 'Hi {{0}}', ['a'], 'Template Content must number its placeholders from {{1}}, but uses {{0}} — got "Hi {{0}}"'],
		[
			'a stray huge number (named at once, the first five gaps shown)',
			'Hi {{1}} {{3}} {{999999999}}',
			['a'],
			'Template Content must number its placeholders {{1}} to {{999999999}} without gaps, but {{2}}, {{4}}, {{5}}, {{6}}, {{7}} are missing — got "Hi {{1}} {{3}} {{999999999}}"',
		],
	])('refuses %s', (_name, templateContent, bodyParameters, line) => {
		const [problem] = check(templateItem({ templateContent, bodyParameters })).problems;
		expect(`${problem.field} ${problem.rule}${problem.value === undefined ? '' : ` — got ${problem.value}`}`).toBe(line);
	});

	test('JSON mode counts the body component’s parameters', () => {
		expect(fields(json([body(['a'])], { templateContent: 'Hi {{1}} {{2}}' }))).toEqual(['Components (JSON)']);
	});

	test('checked even when another field is wrong, so one run shows both', () => {
		expect(fields(templateItem({ to: 42, templateContent: 'Hi {{1}} {{2}}' }))).toEqual(['To', 'Body Parameters']);
	});
});

test('a template without Template Content is not counted', () => {
	expect(check(without(templateItem({ bodyParameters: ['a', 'b', 'c'] }), 'templateContent')).problems).toEqual([]);
});

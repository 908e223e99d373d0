/**
 * The Resource values a resource's fields show for (helpers/resource.ts): SMS fields also show for
 * the human-review tool, whose Resource is its own value; every other resource's only for itself.
 * Called inside the tests: the node's description calls it as the module loads, out of a test.
 */
import { HUMAN_REVIEW_RESOURCE, resourceOf, shownFor } from '../../../../nodes/MultiChannelNotification/helpers/resource';

test('SMS fields show for SMS and for the human-review tool; others for their own resource only', () => {
	expect(shownFor('sms')).toEqual(['sms', HUMAN_REVIEW_RESOURCE]);
	expect(shownFor('email')).toEqual(['email']);
});

test('the human-review tool runs as SMS', () => {
	expect(resourceOf(HUMAN_REVIEW_RESOURCE)).toBe('sms');
	expect(resourceOf('email')).toBe('email');
});

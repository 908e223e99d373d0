/**
 * Debian's Chromium, headless, as every browser check here starts it (CHROMIUM_PATH overrides
 * /usr/bin/chromium), and where screenshots go (SCREENSHOT_DIR overrides docs/images/).
 */
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';

import { REPO_ROOT } from './install';

export const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? join(REPO_ROOT, 'docs', 'images');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Without the background-networking flags Chromium keeps calling out, which this network refuses.
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
	return await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

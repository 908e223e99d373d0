const path = require('path');
const { src, dest } = require('gulp');

// tsc compiles the TypeScript; the icons n8n shows for the node and the credential are copied
// next to the compiled files, where `file:` icon paths resolve.
function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: path.resolve('.'),
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
exports.default = buildIcons;

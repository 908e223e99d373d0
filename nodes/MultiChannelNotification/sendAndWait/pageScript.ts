import { createHash } from 'node:crypto';

/**
 * The answer page's one script, on a Custom Form with a File element only. n8n 2.8 and 1.x stop
 * reading a form at a file input left empty (form.ts), so on submit the script disables every
 * file input with no file chosen: a disabled input is not posted, and n8n never sees an empty
 * file part. It enables them again on pageshow, so a person who comes back to the page (the back
 * button, the browser's page cache) can still choose files. Nothing else: without JavaScript the
 * page works as before (the only optional File element last, the form's end marker).
 */
export const EMPTY_FILES_SCRIPT = [
	'(function(){',
	"function fileInputs(){return document.querySelectorAll('input[type=file]')}",
	"document.addEventListener('submit',function(){fileInputs().forEach(function(input){if(input.files.length===0)input.disabled=true})});",
	"window.addEventListener('pageshow',function(){fileInputs().forEach(function(input){input.disabled=false})});",
	'})();',
].join('');

/** The Content-Security-Policy source that allows exactly that script, and no other, by its sha256. */
export const EMPTY_FILES_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(EMPTY_FILES_SCRIPT, 'utf8').digest('base64')}'`;

// n8n-core writes an instance encryption key under N8N_USER_FOLDER on first use. Point it at a
// throw-away folder so tests never touch the developer's real ~/.n8n.
const fs = require('fs');
const os = require('os');
const path = require('path');

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'mcn-n8n-'));
	process.env.MCN_TEST_USER_FOLDER = process.env.N8N_USER_FOLDER;
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

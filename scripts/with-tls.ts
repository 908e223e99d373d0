/**
 * Runs a command with the sandbox's TLS for the run:
 *
 *   tsx scripts/with-tls.ts <command> [args...]     e.g. tsx scripts/with-tls.ts jest test/sandbox
 *
 * Makes a throwaway CA and a server certificate for localhost / 127.0.0.1 / ::1 (sandbox/tls.ts),
 * runs the command with SANDBOX_TLS_DIR (where the sandbox finds its key and certificate) and
 * NODE_EXTRA_CA_CERTS (the CA; Node reads it only at start-up) in its environment, so the command
 * and every process it starts (jest workers, n8n, bench legs) trust the sandbox's https. Removes
 * the material when the command ends and exits with its code. Under an outer with-tls it reuses
 * that run's material. The command is looked up in node_modules/.bin first, as in an npm script.
 */
import { runWithTls } from '../sandbox/tls';

const [command, ...args] = process.argv.slice(2);
if (!command) {
	process.stderr.write('Usage: tsx scripts/with-tls.ts <command> [args...]\n');
	process.exit(2);
}
void runWithTls(command, args).then((code) => process.exit(code));

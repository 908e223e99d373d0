const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY'];

/**
 * Sets HTTP_PROXY and HTTPS_PROXY to `proxyUrl` with NO_PROXY unset (lower-case spellings and
 * npm's too, which proxy-from-env also reads), and returns a function that puts every one back.
 */
export function useProxyEnvironment(proxyUrl: string): () => void {
	const names = PROXY_VARIABLES.flatMap((name) => [name, name.toLowerCase(), `npm_config_${name.toLowerCase()}`]);
	names.push('npm_config_proxy');
	const saved = new Map(names.map((name) => [name, process.env[name]]));
	for (const name of names) delete process.env[name];
	process.env.HTTP_PROXY = proxyUrl;
	process.env.HTTPS_PROXY = proxyUrl;
	return () => {
		for (const [name, value] of saved) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	};
}

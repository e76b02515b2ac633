// The official TypeScript SDK's client, with an OAuth provider of the
// kind its documentation shows for the authorization code flow, calling
// the notes server of TestTypeScriptClient. The user's browser is the
// test's: redirectToAuthorization hands the URL to BROWSER, which plays
// the user at Hydra and answers with the URL Hydra sends the browser back
// to. Prints one JSON line per step to stdout.
//
// Environment: MCPGEN_TS_SDK (the folder .ci/install-mcp-sdk-ts.sh
// installs into), SERVER (the MCP endpoint), BROWSER, CLIENT_ID,
// CLIENT_SECRET, REDIRECT_URI.
import { pathToFileURL } from 'node:url';

const env = process.env;
const sdk = (path) => import(pathToFileURL(`${env.MCPGEN_TS_SDK}/node_modules/@modelcontextprotocol/sdk/dist/esm/${path}`).href);
const { Client } = await sdk('client/index.js');
const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
const { UnauthorizedError } = await sdk('client/auth.js');

const log = (step, value) => console.log(JSON.stringify({ step, ...value }));

// A pre-registered confidential client that keeps what the SDK gives it
// in memory.
class Provider {
	authorizations = [];
	get redirectUrl() { return env.REDIRECT_URI; }
	get clientMetadata() {
		return { client_name: 'mcpgen e2e (TypeScript)', redirect_uris: [env.REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };
	}
	clientInformation() { return { client_id: env.CLIENT_ID, client_secret: env.CLIENT_SECRET }; }
	tokens() { return this._tokens; }
	saveTokens(tokens) { this._tokens = tokens; }
	saveCodeVerifier(v) { this._verifier = v; }
	codeVerifier() { return this._verifier; }
	redirectToAuthorization(url) { this.authorizations.push(url.href); }
	// Without state() the SDK sends none, and Hydra refuses a request
	// without a state of 8 characters or more.
	state() { return crypto.randomUUID(); }
}

// browse gives the last authorization URL to the test's browser and
// returns the code Hydra sent back.
async function browse(provider) {
	const url = provider.authorizations.at(-1);
	const res = await fetch(`${env.BROWSER}?url=${encodeURIComponent(url)}`);
	if (!res.ok) throw new Error(`browser: ${res.status} ${await res.text()}`);
	const back = new URL(await res.text());
	if (back.searchParams.get('error')) throw new Error(`authorization refused: ${back.search}`);
	return back.searchParams.get('code');
}

// authorized runs f, and if it needs the user's authorization (a 401, or
// a 403 asking for more scopes), gets it and runs f again.
async function authorized(provider, transport, f) {
	try {
		return await f();
	} catch (e) {
		if (!(e instanceof UnauthorizedError)) throw e;
		const asked = new URL(provider.authorizations.at(-1));
		log('authorize', { resource: asked.searchParams.get('resource'), scope: asked.searchParams.get('scope') });
		await transport.finishAuth(await browse(provider));
		return await f();
	}
}

const provider = new Provider();
const server = new URL(env.SERVER);
let transport = new StreamableHTTPClientTransport(server, { authProvider: provider });
const client = new Client({ name: 'mcpgen-e2e-ts', version: '1.0.0' });
try {
	await client.connect(transport);
} catch (e) {
	if (!(e instanceof UnauthorizedError)) throw e;
	const asked = new URL(provider.authorizations.at(-1));
	log('authorize', { resource: asked.searchParams.get('resource'), scope: asked.searchParams.get('scope') });
	await transport.finishAuth(await browse(provider));
	// The documented way on: a new transport, with the tokens the
	// provider now holds.
	transport = new StreamableHTTPClientTransport(server, { authProvider: provider });
	await client.connect(transport);
}
const tools = await client.listTools();
log('tools', { names: tools.tools.map((t) => t.name) });
const text = (r) => r.content.map((c) => c.text).join('');
let r = await client.callTool({ name: 'list_notes', arguments: {} });
log('list_notes', { text: text(r) });
r = await authorized(provider, transport, () => client.callTool({ name: 'add_note', arguments: { text: 'bread' } }));
log('add_note', { text: text(r) });
r = await client.callTool({ name: 'list_notes', arguments: {} });
log('list_notes', { text: text(r) });
await client.close();

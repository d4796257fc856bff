// A local OpenID provider standing in for RIA's TARA in the tests (issue 36, decision 0150), on npm's
// `oidc-provider`: discovery, JWKS, the authorization code flow, and a sign-in page where a test types
// who signs in (personal code, names), with which method and level of assurance, and how the answer
// should go wrong. Its ID tokens are TARA-shaped: `sub` "EE" + the personal code, `profile_attributes`
// { given_name, family_name, date_of_birth }, `amr`, `acr`, and `at_hash` in standard Base64 (TARA's
// quirk). The answers that must be refused are made by re-signing the token on its way out: another
// audience, expired, another nonce or issuer, a key the JWKS does not have, a broken at_hash.
// Plain JavaScript: tests/e2e/serve.mjs starts it beside the portal; the integration tests import it.
import { createHash, createPublicKey, createSign, generateKeyPairSync, randomBytes } from 'node:crypto'
import Provider from 'oidc-provider'

/** How the provider's answer goes wrong, chosen on its sign-in page. */
export const answers = ['normal', 'audience', 'expired', 'nonce', 'issuer', 'unknown-key', 'at-hash']

const b64url = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')

function signingKey(kid) {
	const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
	const about = { kid, alg: 'RS256', use: 'sig' }
	return { kid, privateKey, jwk: { ...privateKey.export({ format: 'jwk' }), ...about }, publicJwk: { ...createPublicKey(privateKey).export({ format: 'jwk' }), ...about } }
}

function sign(payload, key) {
	const input = `${b64url({ alg: 'RS256', typ: 'JWT', kid: key.kid })}.${b64url(payload)}`
	const signature = createSign('RSA-SHA256').update(input).sign(key.privateKey).toString('base64url')
	return `${input}.${signature}`
}

const escape = (text) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

function page(title, body) {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}label{display:block;margin:.75rem 0 .25rem}input,select{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}button{font:inherit;margin:1rem .5rem 0 0;padding:.5rem 1rem}</style>
</head><body><main>${body}</main></body></html>`
}

async function formBody(req) {
	const chunks = []
	for await (const chunk of req) chunks.push(chunk)
	return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

/**
 * Starts the provider on 127.0.0.1 (a free port unless one is given) for one client. Answers its
 * issuer, the client's id and secret, and `stop()`.
 */
export async function startTestOpenIdProvider({ redirectUris, port = 0, clientId = 'autohub-test', clientSecret = randomBytes(24).toString('hex') }) {
	let key = signingKey('tara-test-key-1')
	/** The keys the JWKS publishes: the signing one, and those it signed with before a rotation. */
	const published = [key]
	const unknownKey = signingKey('not-in-the-jwks')
	/** Who signed in as whom, and how their answer is to go (by sub). */
	const people = new Map()
	const { createServer } = await import('node:http')
	const server = createServer()
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
	const issuer = `http://127.0.0.1:${server.address().port}`

	const provider = new Provider(issuer, {
		clients: [
			{
				client_id: clientId,
				client_secret: clientSecret,
				redirect_uris: redirectUris,
				grant_types: ['authorization_code'],
				response_types: ['code'],
				token_endpoint_auth_method: 'client_secret_basic',
			},
		],
		jwks: { keys: [key.jwk] },
		acrValues: ['low', 'substantial', 'high'],
		// TARA puts the person into the ID token under the scope openid.
		claims: { openid: ['sub', 'profile_attributes'] },
		conformIdTokenClaims: false,
		features: { devInteractions: { enabled: false } },
		pkce: { required: () => true },
		// Its own cookie names: the portal's pages on the same host must not meet them.
		cookies: { names: { session: 'op_session', interaction: 'op_interaction', resume: 'op_resume' }, keys: [randomBytes(16).toString('hex')] },
		interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
		findAccount: async (_ctx, sub) => ({
			accountId: sub,
			claims: async () => ({ sub, profile_attributes: people.get(sub)?.profile ?? {} }),
		}),
		ttl: { Interaction: 600, Session: 600, Grant: 600, AuthorizationCode: 30, AccessToken: 600, IdToken: 600 },
	})

	// The sign-in page, as TARA's would be, and what it sends.
	provider.use(async (ctx, next) => {
		const match = /^\/interaction\/([\w-]+)$/.exec(ctx.path)
		if (!match) return next()
		const details = await provider.interactionDetails(ctx.req, ctx.res)
		if (ctx.method === 'GET') {
			ctx.type = 'html'
			ctx.body = page(
				'Test eID',
				`<h1>Test eID (TARA)</h1><form method="post">
<label for="code">Personal code</label><input id="code" name="code" required value="38001085718">
<label for="given">Given name</label><input id="given" name="given_name" required value="MARY ÄNN">
<label for="family">Family name</label><input id="family" name="family_name" required value="O’CONNEŽ-ŠUSLIK TESTNUMBER">
<label for="method">Method</label><select id="method" name="method"><option>smartid</option><option>mID</option><option>idcard</option></select>
<label for="acr">Level of assurance</label><select id="acr" name="acr"><option>high</option><option>substantial</option><option>low</option></select>
<label for="answer">Answer</label><select id="answer" name="answer">${answers.map((answer) => `<option>${answer}</option>`).join('')}</select>
<button type="submit" name="action" value="login">Sign in</button><button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</form>`,
			)
			return
		}
		const form = await formBody(ctx.req)
		let result
		if (form.get('action') === 'cancel') {
			result = { error: 'user_cancel', error_description: 'The user cancelled' }
		} else {
			const code = (form.get('code') ?? '').trim().toUpperCase()
			const sub = /^[A-Z]{2}/.test(code) ? code : `EE${code}`
			people.set(sub, {
				profile: { given_name: form.get('given_name'), family_name: form.get('family_name'), date_of_birth: '1980-01-08' },
				answer: answers.includes(form.get('answer')) ? form.get('answer') : 'normal',
				acr: form.get('acr') ?? 'high',
				amr: [form.get('method') ?? 'smartid'],
			})
			const grant = new provider.Grant({ accountId: sub, clientId: details.params.client_id })
			grant.addOIDCScope(String(details.params.scope))
			grant.addOIDCClaims(['profile_attributes'])
			result = { login: { accountId: sub, acr: form.get('acr') ?? 'high', amr: [form.get('method') ?? 'smartid'] }, consent: { grantId: await grant.save() } }
		}
		const to = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false })
		ctx.status = 303
		ctx.redirect(to)
	})

	// The token endpoint's answer, TARA-shaped, or spoilt as the sign-in page asked; the JWKS with every published key.
	provider.use(async (ctx, next) => {
		await next()
		if (ctx.path === '/jwks' && ctx.body) {
			ctx.body = { keys: published.map((each) => each.publicJwk) }
			return
		}
		if (ctx.path !== '/token' || !ctx.body || typeof ctx.body.id_token !== 'string') return
		const [, payload] = ctx.body.id_token.split('.')
		const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
		const person = people.get(claims.sub)
		const answer = person?.answer ?? 'normal'
		const now = Math.floor(Date.now() / 1000)
		// TARA always says how and how surely the person was identified.
		if (person) Object.assign(claims, { acr: person.acr, amr: person.amr })
		// TARA's at_hash: standard Base64 (padded) where the specification says base64url.
		claims.at_hash = createHash('sha256').update(ctx.body.access_token).digest().subarray(0, 16).toString('base64')
		if (answer === 'audience') claims.aud = 'another-service'
		if (answer === 'expired') Object.assign(claims, { iat: now - 3600, exp: now - 1800 })
		if (answer === 'nonce') claims.nonce = 'not-the-nonce-of-this-flow'
		if (answer === 'issuer') claims.iss = 'https://tara.example'
		if (answer === 'at-hash') claims.at_hash = 'AAAAAAAAAAAAAAAAAAAAAA=='
		ctx.body = { ...ctx.body, id_token: sign(claims, answer === 'unknown-key' ? unknownKey : key) }
	})

	const callback = provider.callback()
	server.on('request', callback)
	return {
		issuer,
		clientId,
		clientSecret,
		/** Key rotation: a new key signs from now on; the JWKS publishes it beside the old one. */
		rotate() {
			key = signingKey(`tara-test-key-${published.length + 1}`)
			published.unshift(key)
			return key.kid
		},
		stop: () => new Promise((resolve) => server.close(() => resolve())),
	}
}

/** A personal code no other test uses (11 digits, as an Estonian one). */
export function uniquePersonalCode() {
	return `3${String(Date.now()).slice(-6)}${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`
}

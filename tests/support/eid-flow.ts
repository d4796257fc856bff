import { expect } from 'vitest'
import { loader as callbackLoader } from '~/routes/_public.eid.callback'
import { loader as startLoader } from '~/routes/eid.start'
import { forgetProvider } from '~/identity/oidc.server'
import { resetEidCookie } from '~/identity/eid-cookie.server'
import { resetEnvCache } from '~/utils/env.server'
import { startTestOpenIdProvider } from './openid-provider.mjs'
import { ROUTER_ARGS } from './router-args'

/**
 * eID sign-in in the integration tests (decision 0150): the tests' OpenID provider started for this
 * file and named in the environment, and one whole flow driven as a browser would: /eid/start, the
 * provider's sign-in page filled in, and /eid/callback with the answer, each cookie carried along.
 */

export const EID_ENV = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_SCOPES', 'EID_HASH_SECRET'] as const

export async function useTestProvider() {
	const provider = await startTestOpenIdProvider({ redirectUris: ['http://localhost:3000/eid/callback'] })
	Object.assign(process.env, {
		OIDC_ISSUER: provider.issuer,
		OIDC_CLIENT_ID: provider.clientId,
		OIDC_CLIENT_SECRET: provider.clientSecret,
		EID_HASH_SECRET: 'integration-tests-eid-hash-secret-0123456789',
	})
	forgetConfiguration()
	return provider
}

/** After the environment changed: read it again, and the provider with it. */
export function forgetConfiguration() {
	resetEnvCache()
	forgetProvider()
	resetEidCookie()
}

/** Cookies as a browser keeps them: by name, updated by each answer's Set-Cookie. */
export class CookieJar {
	private readonly cookies = new Map<string, string>()
	constructor(initial?: string | null) {
		for (const pair of (initial ?? '').split(';')) {
			const [name, ...value] = pair.trim().split('=')
			if (name) this.cookies.set(name, value.join('='))
		}
	}
	take(response: Response) {
		for (const header of response.headers.getSetCookie()) {
			const [pair, ...attributes] = header.split(';')
			const [name, ...value] = pair!.trim().split('=')
			const gone = attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute) || /^\s*expires=Thu, 01 Jan 1970/i.test(attribute))
			if (gone || value.join('=') === '') this.cookies.delete(name!)
			else this.cookies.set(name!, value.join('='))
		}
		return response
	}
	has(name: string) {
		return this.cookies.has(name)
	}
	header() {
		return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
	}
}

export type ProviderForm = {
	code: string
	given_name?: string
	family_name?: string
	method?: 'smartid' | 'mID' | 'idcard'
	acr?: 'high' | 'substantial' | 'low'
	answer?: 'normal' | 'audience' | 'expired' | 'nonce' | 'issuer' | 'unknown-key' | 'at-hash'
	action?: 'login' | 'cancel'
}

/** A loader's answer as the browser gets it: a Response, or `data(value, init)` as one (JSON body). */
async function answerOf(answer: unknown): Promise<Response> {
	if (answer instanceof Response) return answer
	const reply = answer as { type?: string; data?: unknown; init?: ResponseInit | null }
	if (reply?.type === 'DataWithResponseInit') return new Response(JSON.stringify(reply.data), reply.init ?? undefined)
	throw new Error(`expected a Response, got ${JSON.stringify(answer)}`)
}

/** What a loader threw or returned: a Response either way. */
export async function settled(run: () => Promise<unknown>): Promise<Response> {
	try {
		return await answerOf(await run())
	} catch (error) {
		return answerOf(error)
	}
}

/**
 * Starts a flow at /eid/start (`query`: purpose, role…) in a browser holding `jar`, signs in at the
 * provider with `form`, and answers the callback's address, to be opened with `callback`.
 */
export async function throughProvider(jar: CookieJar, query: string, form: ProviderForm): Promise<string> {
	const start = jar.take(await settled(() => startLoader({ request: new Request(`http://localhost:3000/eid/start?${query}`, { headers: { Cookie: jar.header() } }), params: {}, ...ROUTER_ARGS, context: {} })))
	expect(start.status, 'the start redirects to the provider').toBe(302)
	const op = new CookieJar()
	const get = async (url: string) => op.take(await fetch(url, { redirect: 'manual', headers: { Cookie: op.header() } }))
	const authorization = await get(start.headers.get('Location')!)
	const interaction = new URL(authorization.headers.get('Location')!, start.headers.get('Location')!)
	expect((await (await get(interaction.toString())).text()).includes('Test eID')).toBe(true)
	const body = new URLSearchParams({ given_name: 'MARI', family_name: 'MAASIKAS', method: 'smartid', acr: 'high', answer: 'normal', action: 'login', ...form })
	const sent = op.take(await fetch(interaction, { method: 'POST', redirect: 'manual', headers: { Cookie: op.header(), 'Content-Type': 'application/x-www-form-urlencoded' }, body }))
	const resume = await get(new URL(sent.headers.get('Location')!, interaction).toString())
	const back = resume.headers.get('Location')!
	expect(back.startsWith('http://localhost:3000/eid/callback?'), back).toBe(true)
	return back
}

/** Opens the callback's address in the browser holding `jar`. */
export async function callback(jar: CookieJar, url: string) {
	return jar.take(await settled(() => callbackLoader({ request: new Request(url, { headers: { Cookie: jar.header(), 'User-Agent': 'vitest' } }), params: {}, ...ROUTER_ARGS, context: {} })))
}

/** The refusal a callback page shows: its status and text key. */
export async function refusalOf(response: Response) {
	return { status: response.status, key: ((await response.clone().json()) as { key: string }).key }
}

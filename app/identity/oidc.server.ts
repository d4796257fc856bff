import { createHash, createHmac } from 'node:crypto'
import type * as OpenIdClient from 'openid-client'
import { getEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'

/**
 * The relying party of eID sign-in (decision 0150): OpenID Connect's authorization code flow with
 * PKCE, state and nonce, through `openid-client`, shaped for RIA's TARA (specification 1.20) and
 * working with a broker (eID Easy, Signicat, Dokobit's gateway) by configuration alone.
 *
 * - The provider is read from its discovery document once per process; its keys from its JWKS,
 *   fetched again when they are five minutes old or a token names a key not among them (rotation).
 * - The ID token's signature is checked against those keys (`enableNonRepudiationChecks`: by
 *   default the library trusts TLS for a token it fetched itself), and its `iss`, `aud`, `exp`,
 *   `nonce` by the library; `iat` (issued just now), `at_hash` and the level of assurance (`acr`,
 *   at least substantial) here.
 * - TARA's quirks: the code is redeemed at once (TARA takes it for 30 seconds) with a 10-second
 *   timeout; its `at_hash` is standard Base64 where the specification says base64url, so either
 *   is accepted; its names are in `profile_attributes`, its subject is "EE" and the personal code.
 *
 * Nothing of the personal code leaves this module: `verifiedPerson` answers its keyed hash.
 */

/** Why an answer signed nobody in; each has its text (`auth:eid.refused.<reason>`) and status. */
export const eidRefusals = {
	/** No flow in this browser, another state, or one used before. */
	state: 400,
	/** The person cancelled at the provider. */
	cancelled: 400,
	/** The provider answered with an error, or something the library could not read. */
	provider: 502,
	/** The provider could not be reached. */
	unavailable: 503,
	/** The code was refused at the token endpoint: used before, or older than the provider allows. */
	code: 400,
	audience: 400,
	issuer: 400,
	expired: 400,
	nonce: 400,
	signature: 400,
	/** Below the required level of assurance (acr). */
	assurance: 403,
	/** The token did not say who the person is (no personal code, no names). */
	identity: 400,
} as const
export type EidRefusal = keyof typeof eidRefusals

export class EidRefused extends Error {
	constructor(
		public readonly reason: EidRefusal,
		public readonly detail?: unknown,
	) {
		super(`eID refused: ${reason}`)
	}
}

/** A person the provider vouched for: their eID's keyed hash, the issuing country and their names. */
export type VerifiedPerson = {
	subjectHash: string
	country: string
	firstName: string
	lastName: string
	/** How they signed in at the provider (amr: mID, smartid, idcard, eIDAS), when it says. */
	method: string | null
}

/** Where the provider sends the person back; registered with it as the redirect URI. */
export const callbackUrl = () => new URL('/eid/callback', getEnv().APP_URL).toString()

const loopback = new Set(['localhost', '127.0.0.1', '[::1]'])

type Provider = { client: typeof OpenIdClient; config: OpenIdClient.Configuration }
let provider: Promise<Provider> | null = null

/** The provider's configuration, discovered once per process; a failed discovery is tried again next time. */
function currentProvider(): Promise<Provider> {
	const eid = getEnv().eid
	if (!eid) return Promise.reject(new EidRefused('unavailable'))
	if (provider) return provider
	const discovering = (async () => {
		const client = await import('openid-client')
		const issuer = new URL(eid.issuer)
		// Plain http only for a provider on this machine (the tests' own); anything else must be https.
		const local = issuer.protocol === 'http:' && loopback.has(issuer.hostname)
		const config = await client
			.discovery(issuer, eid.clientId, undefined, client.ClientSecretBasic(eid.clientSecret), {
				execute: local ? [client.allowInsecureRequests] : [],
				timeout: TIMEOUT_SECONDS,
			})
			.catch((error: unknown) => {
				throw new EidRefused('unavailable', error)
			})
		client.enableNonRepudiationChecks(config)
		config.timeout = TIMEOUT_SECONDS
		return { client, config }
	})()
	provider = discovering
	discovering.catch(() => {
		if (provider === discovering) provider = null
	})
	return discovering
}

/** TARA takes a code for 30 seconds: a provider that does not answer in ten is as good as down. */
const TIMEOUT_SECONDS = 10

/** The flow's secrets: state and nonce for the answer, the PKCE verifier for the token request. */
export async function newFlowSecrets(): Promise<{ state: string; nonce: string; verifier: string }> {
	const client = await import('openid-client')
	return { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier() }
}

/** Where to send the person to sign in at the provider, in their language. */
export async function authorizationUrl(input: { state: string; nonce: string; verifier: string; language: string; fresh?: boolean }): Promise<string> {
	const { client, config } = await currentProvider()
	const eid = getEnv().eid!
	return client
		.buildAuthorizationUrl(config, {
			redirect_uri: callbackUrl(),
			scope: eid.scopes,
			response_type: 'code',
			state: input.state,
			nonce: input.nonce,
			code_challenge: await client.calculatePKCECodeChallenge(input.verifier),
			code_challenge_method: 'S256',
			// TARA shows its pages in et, en or ru, and lets through only methods of this level or higher.
			ui_locales: input.language,
			acr_values: 'substantial',
			// A confirmation (a step-up) or a link is a fresh authentication, never a session the
			// provider kept: the person proves it now (decision 0156; TARA keeps none, a broker may).
			...(input.fresh ? { prompt: 'login' } : {}),
		})
		.toString()
}

/** The levels of assurance in order (eIDAS; TARA names them so, brokers may send eIDAS's URIs). */
const assuranceLevels: Record<string, number> = { low: 1, substantial: 2, high: 3 }
const REQUIRED_LEVEL = assuranceLevels.substantial!
/** How old a freshly issued ID token may be (TARA's live 40 seconds), and how far in the future a clock may put it. */
const MAX_TOKEN_AGE_SECONDS = 5 * 60
const CLOCK_SKEW_SECONDS = 60

/**
 * Redeems the answer's code and checks the ID token: the answer's query (`code`, `state`, or
 * `error`), checked against this browser's flow. Throws `EidRefused`; answers the verified person.
 */
export async function redeemAnswer(query: URLSearchParams, flow: { state: string; nonce: string; verifier: string }): Promise<VerifiedPerson> {
	const error = query.get('error')
	// TARA's "user_cancel"; OpenID's access_denied is the same for a broker.
	if (error) throw new EidRefused(error === 'user_cancel' || error === 'access_denied' ? 'cancelled' : 'provider', error)
	if (query.get('state') !== flow.state) throw new EidRefused('state')
	const { client, config } = await currentProvider()
	const answer = new URL(callbackUrl())
	answer.search = query.toString()
	let tokens: Awaited<ReturnType<typeof OpenIdClient.authorizationCodeGrant>>
	try {
		tokens = await client.authorizationCodeGrant(config, answer, {
			expectedState: flow.state,
			expectedNonce: flow.nonce,
			pkceCodeVerifier: flow.verifier,
			idTokenExpected: true,
		})
	} catch (cause) {
		throw new EidRefused(refusalOf(cause), cause)
	}
	const claims = tokens.claims()
	if (!claims) throw new EidRefused('identity')
	const now = Math.floor(Date.now() / 1000)
	if (claims.iat > now + CLOCK_SKEW_SECONDS || claims.iat < now - MAX_TOKEN_AGE_SECONDS) throw new EidRefused('expired', { iat: claims.iat })
	if (typeof claims.at_hash === 'string' && !atHashMatches(claims.at_hash, tokens.access_token, tokens.id_token)) throw new EidRefused('signature', 'at_hash')
	const level = assuranceLevel(claims.acr)
	if (level < REQUIRED_LEVEL) throw new EidRefused('assurance', { acr: claims.acr })
	return verifiedPerson(claims)
}

/** The level an `acr` names: "substantial", or an eIDAS URI ending in it; unknown or missing is 0. */
export function assuranceLevel(acr: unknown): number {
	if (typeof acr !== 'string') return 0
	const name = acr.trim().toLowerCase().split('/').pop() ?? ''
	return assuranceLevels[name] ?? 0
}

/**
 * `at_hash`: the left half of the access token's hash (of the ID token's algorithm), base64url by
 * the specification, standard Base64 (padded or not) from TARA.
 */
export function atHashMatches(atHash: string, accessToken: string, idToken: string | undefined): boolean {
	const alg = headerAlg(idToken)
	const bits = alg?.endsWith('384') ? 384 : alg?.endsWith('512') ? 512 : 256
	const digest = createHash(`sha${bits}`).update(accessToken, 'ascii').digest()
	const half = digest.subarray(0, digest.length / 2)
	const unpadded = atHash.replace(/=+$/, '')
	return unpadded === half.toString('base64url') || unpadded === half.toString('base64').replace(/=+$/, '')
}

function headerAlg(jwt: string | undefined): string | null {
	try {
		const header = JSON.parse(Buffer.from(jwt?.split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg?: unknown }
		return typeof header.alg === 'string' ? header.alg : null
	} catch {
		return null
	}
}

/**
 * The person in the claims: the country and personal code from `sub` (TARA: "EE38001085718"; an
 * ETSI identifier "PNOEE-38001085718" too), or a broker's `nin` and `nin_issuing_country`; names from
 * TARA's `profile_attributes`, or the standard `given_name` and `family_name`.
 */
export function verifiedPerson(claims: Record<string, unknown>): VerifiedPerson {
	// A broker that names the code apart (nin) is read so first: its `sub` may be its own opaque id.
	const subject = parseNin(claims.nin, claims.nin_issuing_country) ?? parseSubject(claims.sub)
	const profile = isObject(claims.profile_attributes) ? claims.profile_attributes : {}
	const firstName = personName(profile.given_name ?? claims.given_name)
	const lastName = personName(profile.family_name ?? claims.family_name)
	if (!subject || !firstName || !lastName) throw new EidRefused('identity')
	const amr = Array.isArray(claims.amr) ? claims.amr.find((value): value is string => typeof value === 'string') : undefined
	return {
		subjectHash: subjectHash(subject.country, subject.code),
		country: subject.country,
		firstName,
		lastName,
		method: amr?.slice(0, 40) ?? null,
	}
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })
/** A country code that is one (ISO 3166-1 alpha-2), so an opaque id is not read as a country and a code. */
const isCountry = (code: string) => {
	try {
		return Boolean(regions.of(code))
	} catch {
		return false
	}
}
/**
 * A personal code or an eIDAS identifier (TARA: up to 256 characters): printable, no spaces, with a
 * digit in it. Kept as given but for the country, so two foreign identifiers never become one.
 */
const CODE = /^(?=.*\d)[\x21-\x7e]{1,256}$/

function parseSubject(sub: unknown) {
	if (typeof sub !== 'string') return null
	const match = /^(?:PNO)?([A-Za-z]{2})-?(.+)$/.exec(sub.trim())
	const country = match?.[1]!.toUpperCase() ?? ''
	return match && isCountry(country) && CODE.test(match[2]!) ? { country, code: match[2]! } : null
}

function parseNin(nin: unknown, country: unknown) {
	if (typeof nin !== 'string' || typeof country !== 'string') return null
	const [code, region] = [nin.trim(), country.trim().toUpperCase()]
	return /^[A-Z]{2}$/.test(region) && isCountry(region) && CODE.test(code) ? { country: region, code } : null
}

/** A name as people write it: TARA gives ID-card names in capitals ("MARY ÄNN"), shown "Mary Änn". */
export function personName(value: unknown): string {
	if (typeof value !== 'string') return ''
	const name = value.normalize('NFC').replace(/\s+/g, ' ').trim().slice(0, 100)
	if (name !== name.toLocaleUpperCase('et') || name === name.toLocaleLowerCase('et')) return name
	return name.toLocaleLowerCase('et').replace(/(^|[\s\-'’])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toLocaleUpperCase('et'))
}

/** The eID's keyed hash: HMAC-SHA-256 of "COUNTRY:code" with EID_HASH_SECRET, hex. */
export function subjectHash(country: string, code: string): string {
	const secret = getEnv().eid?.hashSecret
	if (!secret) throw new Error('eID is not configured')
	return createHmac('sha256', secret).update(`${country.toUpperCase()}:${code}`).digest('hex')
}

/** Which refusal a library error is: by its code and message, and those of its causes. */
function refusalOf(error: unknown): EidRefusal {
	const seen: Array<{ code?: unknown; message?: unknown; name?: unknown; error?: unknown }> = []
	for (let current: unknown = error; isObject(current) || current instanceof Error; current = (current as { cause?: unknown }).cause) {
		seen.push(current as never)
		if (seen.length > 6) break
	}
	const text = seen.map((each) => `${String(each.code ?? '')} ${String(each.name ?? '')} ${String(each.message ?? '')} ${String(each.error ?? '')}`).join(' | ')
	const reason = ((): EidRefusal => {
		if (/invalid_grant/.test(text)) return 'code'
		if (/"nonce"/.test(text)) return 'nonce'
		if (/"aud"|"azp"/.test(text)) return 'audience'
		if (/"iss"/.test(text)) return 'issuer'
		if (/TIMESTAMP_CHECK|"exp"|"nbf"|"iat"/.test(text)) return 'expired'
		if (/KEY_SELECTION|signature/i.test(text)) return 'signature'
		if (/"state"/.test(text)) return 'state'
		if (/fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|Timeout|AbortError|RESPONSE_IS_NOT_CONFORM/i.test(text)) return 'unavailable'
		return 'provider'
	})()
	logger.warn('eID answer refused', { reason, error: text.slice(0, 500) })
	return reason
}

/** Tests start a provider per file: forget the one discovered before. */
export function forgetProvider() {
	provider = null
}

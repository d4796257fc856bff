import { createCookie } from 'react-router'
import { getSessionSecrets } from '~/utils/env.server'
import { cookiesAreSecure } from '~/utils/session.server'

/**
 * The eID cookie (decision 0150): while a person is away at the provider, what the answer must
 * match (`flow`: state, nonce, PKCE verifier, and what they came for); after an answer for an eID
 * no account has yet, the verified person (`pending`) until they register or link it with their
 * password. Signed with the session's secrets, httpOnly, SameSite=Lax (the provider's redirect
 * back is a top-level GET, which carries it), for fifteen minutes; the personal code is never in
 * it, only its keyed hash.
 */
export const EID_COOKIE = '__eid'
const MAX_AGE_SECONDS = 15 * 60

/**
 * What the person started an eID sign-in for: log in, register, link the eID to the signed-in
 * account, or confirm the signed-in session with the account's own eID (a step-up, decision 0156).
 */
export const eidPurposes = ['login', 'register', 'link', 'confirm'] as const
export type EidPurpose = (typeof eidPurposes)[number]

export type EidFlow = {
	state: string
	nonce: string
	verifier: string
	purpose: EidPurpose
	role: 'customer' | 'workshop'
	redirectTo: string | null
	/** For `link` and `confirm`: the account that asked; the answer counts only if it is still the one signed in. */
	userId: string | null
	startedAt: number
}

/** A verified person without an account yet: the keyed hash of their eID and their names as the provider gave them. */
export type PendingEid = {
	subjectHash: string
	country: string
	firstName: string
	lastName: string
	method: string | null
	role: 'customer' | 'workshop'
	redirectTo: string | null
	verifiedAt: number
}

export type EidCookie = { flow?: EidFlow; pending?: PendingEid }

let cookie: ReturnType<typeof make> | undefined

function make() {
	return createCookie(EID_COOKIE, {
		path: '/',
		httpOnly: true,
		sameSite: 'lax',
		secure: cookiesAreSecure(),
		secrets: getSessionSecrets(),
		maxAge: MAX_AGE_SECONDS,
	})
}

const eidCookie = () => (cookie ??= make())

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null
const fresh = (at: unknown) => typeof at === 'number' && Date.now() - at < MAX_AGE_SECONDS * 1000 && at <= Date.now() + 60_000

/** The cookie's content, if it is ours (signed) and not stale; anything else reads as empty. */
export async function readEidCookie(request: Request): Promise<EidCookie> {
	const value: unknown = await eidCookie().parse(request.headers.get('Cookie'))
	if (!isObject(value)) return {}
	const flow = isObject(value.flow) && typeof value.flow.state === 'string' && fresh(value.flow.startedAt) ? (value.flow as EidFlow) : undefined
	const pending = isObject(value.pending) && typeof value.pending.subjectHash === 'string' && fresh(value.pending.verifiedAt) ? (value.pending as PendingEid) : undefined
	return { flow, pending }
}

/** The verified person waiting for an account, if any. */
export async function pendingEid(request: Request): Promise<PendingEid | null> {
	return (await readEidCookie(request)).pending ?? null
}

/** A Set-Cookie header holding `value`, or removing the cookie (null). */
export async function eidCookieHeader(value: EidCookie | null): Promise<string> {
	return value ? eidCookie().serialize(value) : eidCookie().serialize('', { maxAge: 0, expires: new Date(0) })
}

/** Tests switch the environment between files. */
export function resetEidCookie() {
	cookie = undefined
}

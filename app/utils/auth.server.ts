import { createHash, randomBytes } from 'node:crypto'
import { redirect } from 'react-router'
import { and, eq, gt, ne } from 'drizzle-orm'
import { sessions, users, workshops } from '~/db/schema'
import { db, type DbOrTx } from '~/db/db.server'
import { combineHeaders } from './http'
import { REDIRECT_TO, wayBack, withRedirectTo } from './safe-redirect'
import { rolesFor, ruleFor, STEP_UP_PATH, type Role } from './route-access'

export { STEP_UP_PATH }
import { getSession, getSessionStorage } from './session.server'
import { pagePath } from './seo.server'
import { forgetUsers, userCache } from '~/caching/user-cache.server'

/**
 * Sign-in state. A browser holds a random token in the signed `__session` cookie, an API
 * client holds one as a Bearer token; the database keeps only its SHA-256 in `sessions`, so
 * logout, a password change and blocking end a session at once.
 */
export const WEB_SESSION_DAYS = 30
export const API_TOKEN_DAYS = 30

/**
 * How a session was opened and then confirmed (`sessions.sign_in_method`, decision 0156): its
 * factors joined by '+', the one that opened it first ("password", "eid", "passkey"), then each
 * confirmation ("password+passkey"); a one-time enrolment link is `link` ("password+link"); a widget
 * request's link opened by a guest is `email-link` (decision 0153). Null
 * for sessions older than the column: no factor known.
 */
export const signInFactors = ['password', 'eid', 'passkey', 'link', 'email-link'] as const
export type SignInFactor = (typeof signInFactors)[number]
/** The ways a session is opened (every sign-in writes one to the audit log). */
export type SignInMethod = Exclude<SignInFactor, 'link'>

/** The factors that prove more than a password: each is a device or an eID with its PIN or biometrics. */
const SECOND_FACTORS: readonly SignInFactor[] = ['eid', 'passkey']
/** An administrator's confirmation holds this long (NIST SP 800-63B AAL2, OWASP ASVS: 12 hours), then /admin asks again. */
export const ADMIN_CONFIRMATION_HOURS = 12
/** A confirmation this fresh stands in for a password where one is asked (deleting an account). */
export const RECENT_CONFIRMATION_MINUTES = 10

export function factorsOf(method: string | null | undefined): SignInFactor[] {
	if (!method) return []
	return method.split('+').filter((each): each is SignInFactor => (signInFactors as readonly string[]).includes(each))
}

/** The method of a session confirmed by `factor` after `method` (each factor once, in the order they came). */
export function withFactor(method: string | null | undefined, factor: SignInFactor): string {
	return [...new Set([...factorsOf(method), factor])].join('+')
}

export type SessionUser = {
	id: string
	email: string
	role: Role
	firstName: string
	lastName: string
	mobile: string
	preferredLanguage: 'et' | 'en' | 'ru' | null
	workshop: { id: string; workshopName: string } | null
	sessionId: string
	/** How this session was opened and confirmed (`factorsOf(sessions.sign_in_method)`); empty for an old session. */
	factors: SignInFactor[]
	/** When this session was opened, or last confirmed (a confirmation opens a new one): ms since the epoch. */
	openedAt: number
}

export function hashToken(token: string) {
	return createHash('sha256').update(token).digest('hex')
}

function newToken() {
	return randomBytes(32).toString('base64url')
}

/** Starts a session for a user and returns its token (kept by the caller, never stored). */
export async function createSessionToken(
	tx: DbOrTx,
	input: { userId: string; kind: 'web' | 'api'; userAgent?: string | null; method: SignInMethod | string; expiresAt?: Date },
): Promise<string> {
	const token = newToken()
	const days = input.kind === 'web' ? WEB_SESSION_DAYS : API_TOKEN_DAYS
	await tx.insert(sessions).values({
		userId: input.userId,
		kind: input.kind,
		tokenHash: hashToken(token),
		expiresAt: input.expiresAt ?? new Date(Date.now() + days * 24 * 60 * 60 * 1000),
		userAgent: input.userAgent?.slice(0, 300) ?? null,
		signInMethod: input.method,
	})
	return token
}

/**
 * Replaces a browser's session by a new one confirmed by `factor` (OWASP: a new session id at every
 * change of privilege): the old row goes, the new one keeps its user agent and its end, and its
 * method gains the factor. Null when the old session ended meanwhile. The caller puts the token
 * into the cookie (`redirectSignedIn`) and writes the audit row in the same transaction.
 */
export async function renewSession(
	tx: DbOrTx,
	input: { userId: string; sessionId: string; factor: SignInFactor },
): Promise<{ token: string; before: string | null; method: string } | null> {
	const [old] = await tx
		.delete(sessions)
		.where(and(eq(sessions.id, input.sessionId), eq(sessions.userId, input.userId), eq(sessions.kind, 'web'), gt(sessions.expiresAt, new Date())))
		.returning()
	if (!old) return null
	const method = withFactor(old.signInMethod, input.factor)
	const token = await createSessionToken(tx, { userId: old.userId, kind: 'web', userAgent: old.userAgent, method, expiresAt: old.expiresAt })
	await forgetUsers(tx, 'user', [old.userId])
	return { token, before: old.signInMethod, method }
}

/** Whether the session was opened or confirmed by more than a password (eID, a passkey). */
export function hasSecondFactor(user: Pick<SessionUser, 'factors'>): boolean {
	return user.factors.some((factor) => SECOND_FACTORS.includes(factor))
}

const ageMs = (user: Pick<SessionUser, 'openedAt'>) => Date.now() - user.openedAt

/**
 * Whether this administrator's session may use an administrator's powers: confirmed by eID or a
 * passkey (at sign-in or since), within the last 12 hours (decision 0156). False for anyone else.
 */
export function isConfirmedAdministrator(user: SessionUser): boolean {
	return user.role === 'admin' && hasSecondFactor(user) && ageMs(user) < ADMIN_CONFIRMATION_HOURS * 60 * 60 * 1000
}

/**
 * Whether this session may add a way in (a passkey, a linked eID): anyone's may, but an
 * administrator's only once confirmed (a second factor) or through a one-time enrolment link of
 * the last 12 hours, so a leaked password alone cannot add the thief's own passkey (decision 0156).
 */
export function mayAddWayIn(user: SessionUser): boolean {
	if (user.role !== 'admin') return true
	return isConfirmedAdministrator(user) || (user.factors.includes('link') && ageMs(user) < ADMIN_CONFIRMATION_HOURS * 60 * 60 * 1000)
}

/** Confirmed by eID or a passkey in the last few minutes: it stands in for a password where one is asked. */
export function isRecentlyConfirmed(user: SessionUser): boolean {
	return hasSecondFactor(user) && ageMs(user) < RECENT_CONFIRMATION_MINUTES * 60 * 1000
}

/**
 * Live sessions' users by token hash, kept while nothing the session shows changed (a session
 * ended, the account blocked or renamed: migration 0013's triggers, user-cache.server.ts). Each
 * signed-in page and poll asks; the database is asked once per token and change.
 */
type KeptSession = { user: SessionUser | null; userId: string | null; expiresAt: number }
const sessionUsers = userCache<KeptSession>('user', { maxEntries: 100_000 })

/** The user behind a token, if the session is live and the account is not blocked (one query, or none while kept). */
export async function findUserByToken(token: string, kind: 'web' | 'api'): Promise<SessionUser | null> {
	const tokenHash = hashToken(token)
	const key = `${kind}:${tokenHash}`
	const kept = await sessionUsers.load(key, () => readSessionUser(tokenHash, kind), (found) => found.userId)
	if (kept.expiresAt <= Date.now()) {
		sessionUsers.forget(key)
		return null
	}
	return kept.user
}

async function readSessionUser(tokenHash: string, kind: 'web' | 'api'): Promise<KeptSession> {
	const [row] = await db
		.select({
			sessionId: sessions.id,
			expiresAt: sessions.expiresAt,
			signInMethod: sessions.signInMethod,
			openedAt: sessions.createdAt,
			id: users.id,
			email: users.email,
			role: users.role,
			firstName: users.firstName,
			lastName: users.lastName,
			mobile: users.mobile,
			preferredLanguage: users.preferredLanguage,
			blocked: users.blocked,
			workshopId: workshops.id,
			workshopName: workshops.workshopName,
		})
		.from(sessions)
		.innerJoin(users, eq(users.id, sessions.userId))
		.leftJoin(workshops, eq(workshops.userId, users.id))
		.where(and(eq(sessions.tokenHash, tokenHash), eq(sessions.kind, kind), gt(sessions.expiresAt, new Date())))
	// Unknown tokens and blocked accounts are not kept (userId null): a guess costs a query, as before.
	if (!row || row.blocked) return { user: null, userId: null, expiresAt: 0 }
	return {
		userId: row.id,
		expiresAt: row.expiresAt.getTime(),
		user: {
			sessionId: row.sessionId,
			factors: factorsOf(row.signInMethod),
			openedAt: row.openedAt.getTime(),
			id: row.id,
			email: row.email,
			role: row.role,
			firstName: row.firstName,
			lastName: row.lastName,
			mobile: row.mobile,
			preferredLanguage: row.preferredLanguage,
			workshop: row.workshopId && row.workshopName ? { id: row.workshopId, workshopName: row.workshopName } : null,
		},
	}
}

// Loaders of one request share the same Request object: look the session up once per request.
const perRequest = new WeakMap<Request, Promise<{ user: SessionUser | null; staleToken: boolean }>>()

async function lookUp(request: Request) {
	let cached = perRequest.get(request)
	if (!cached) {
		cached = userOfCookie(request.headers.get('Cookie'))
		perRequest.set(request, cached)
	}
	return cached
}

/** The user of the session a Cookie header carries, and whether its token has ended. */
async function userOfCookie(cookieHeader: string | null) {
	const token = (await getSessionStorage().getSession(cookieHeader)).get('token')
	if (!token) return { user: null, staleToken: false }
	const user = await findUserByToken(token, 'web')
	return { user, staleToken: !user }
}

/** The signed-in user, or null. */
export async function getOptionalUser(request: Request): Promise<SessionUser | null> {
	return (await lookUp(request)).user
}

/** Whether the cookie carries a token whose session has ended (logged out elsewhere, blocked, expired). */
export async function hasStaleToken(request: Request): Promise<boolean> {
	return (await lookUp(request)).staleToken
}

/**
 * The guard every signed-in loader and action calls (spec §6): no session → `/` with
 * "Please log in to continue."; a role that does not match → `/dashboard` with
 * "You do not have permission.". An administrator on an administrator's page (its roles include
 * 'admin' but not every signed-in role: /admin, an invoice of any workshop) whose session was
 * opened by a password alone, or confirmed more than 12 hours ago, goes to the step-up page
 * (`/admin/verify`, decision 0156), which comes back here once confirmed; `secondFactor: false`
 * is that page's own way past.
 */
export async function requireUser(request: Request, options: { role?: Role | readonly Role[]; secondFactor?: false } = {}): Promise<SessionUser> {
	const user = await getOptionalUser(request)
	if (!user) throw await guardRedirect(request, loginRequiredPath(request), 'auth:guard.loginRequired')
	const allowed = options.role === undefined ? null : Array.isArray(options.role) ? options.role : [options.role]
	if (allowed && !allowed.includes(user.role)) throw await guardRedirect(request, '/dashboard', 'auth:guard.noPermission')
	if (allowed && options.secondFactor !== false && isAdministratorsPage(allowed) && !isConfirmedAdministrator(user)) {
		throw redirect(stepUpPath(request), { headers: { 'Cache-Control': 'no-store' } })
	}
	return user
}

/** A page of the administrator's powers: open to administrators, and not to every signed-in person (their own settings, profile, dashboard). */
function isAdministratorsPage(roles: readonly Role[]): boolean {
	return roles.includes('admin') && !allSignedIn.every((role) => roles.includes(role))
}
const allSignedIn: readonly Role[] = ['customer', 'workshop', 'admin']

/** The step-up page, coming back to the page asked for (a form's page, for a form: it is not sent again). */
function stepUpPath(request: Request) {
	const url = new URL(request.url)
	return withRedirectTo(STEP_UP_PATH, pagePath(url.pathname, request.method === 'GET' ? url.search : ''))
}

/** A workshop making a move: its id, the signed-in user's, and the name its customers are told. */
export type WorkshopActor = { workshopId: string; userId: string; workshopName: string }

/** A workshop owner as the actor of the workshop's moves; an owner without a workshop row is a 404. */
export function workshopActor(user: SessionUser): WorkshopActor {
	if (!user.workshop) throw new Response('Not found', { status: 404 })
	return { workshopId: user.workshop.id, userId: user.id, workshopName: user.workshop.workshopName }
}

/** `requireUser(request, { role: 'workshop' })` plus the workshop the domain functions act as. */
export async function requireWorkshop(request: Request): Promise<{ user: SessionUser; actor: WorkshopActor }> {
	const user = await requireUser(request, { role: 'workshop' })
	return { user, actor: workshopActor(user) }
}

/**
 * Pages for visitors only (login, registration, forgotten password) send a signed-in user on: to
 * the page they were on their way to, or the dashboard.
 */
export async function requireAnonymous(request: Request) {
	const user = await getOptionalUser(request)
	if (user) throw redirect(wayOn(user.role, redirectToOf(request)))
}

/**
 * Where a user goes once signed in: the way back when their role may open that page (a workshop
 * that pressed "Ask for an offer" as a visitor may not), else the dashboard.
 */
export function wayOn(role: Role, wayBackTo: string | null): string {
	if (!wayBackTo) return '/dashboard'
	const roles = rolesFor(new URL(wayBackTo, 'http://portal').pathname)
	return roles && !roles.includes(role) ? '/dashboard' : wayBackTo
}

/** The safe `?redirectTo=` of a request, or null. */
export function redirectToOf(request: Request): string | null {
	return wayBack(new URL(request.url).searchParams.get(REDIRECT_TO))
}

/**
 * Where the route guard sends a visitor (spec §2: home, with "Please log in to continue."),
 * remembering the page they asked for so that logging in leads back to it. Only pages: a form
 * posted without a session cannot be replayed.
 */
function loginRequiredPath(request: Request) {
	if (request.method !== 'GET') return '/'
	const url = new URL(request.url)
	return withRedirectTo('/', pagePath(url.pathname, url.search))
}

/** Applies the route table of spec §2 to any path (the root loader calls it for every page). */
export async function enforceRouteAccess(request: Request) {
	const rule = ruleFor(new URL(request.url).pathname)
	if (!rule) return
	if (!rule.othersNotFound) {
		await requireUser(request, { role: rule.roles, ...(rule.secondFactor === false ? { secondFactor: false as const } : {}) })
		return
	}
	const user = await requireUser(request)
	if (!rule.roles.includes(user.role)) throw new Response('Not found', { status: 404 })
	// An administrator's way in to another's page (an invoice of any workshop) asks for the second factor too.
	if (user.role === 'admin') await requireUser(request, { role: rule.roles })
}

async function guardRedirect(request: Request, to: string, key: string) {
	const session = await getSession(request)
	// A token that no longer opens a session is dropped; a live one is kept.
	if ((await lookUp(request)).staleToken) session.unset('token')
	session.flash('toast', { type: 'warning', key, id: crypto.randomUUID() })
	return redirect(to, { headers: { 'Set-Cookie': await getSessionStorage().commitSession(session) } })
}

/** Puts a new session's token into the cookie, with a toast (a success, unless it says otherwise), and redirects. */
export async function redirectSignedIn(
	request: Request,
	token: string,
	to: string,
	toast: string | { type: 'success' | 'warning' | 'error' | 'info'; key: string },
	extraHeaders?: HeadersInit,
) {
	const session = await getSession(request)
	session.set('token', token)
	const { type, key } = typeof toast === 'string' ? { type: 'success' as const, key: toast } : toast
	session.flash('toast', { type, key, id: crypto.randomUUID() })
	const cookie = await getSessionStorage().commitSession(session)
	return redirect(to, { headers: combineHeaders({ 'Set-Cookie': cookie }, extraHeaders) })
}

/**
 * Ends this browser's session, whatever the database says, and says so on the home page (with
 * another message after the account was deleted).
 */
export async function logout(request: Request, toastKey = 'auth:logout.success') {
	const session = await getSession(request)
	const token = session.get('token')
	if (token) {
		const tokenHash = hashToken(token)
		await db
			.delete(sessions)
			.where(eq(sessions.tokenHash, tokenHash))
			.catch(() => {})
		sessionUsers.forget(`web:${tokenHash}`)
	}
	session.unset('token')
	session.flash('toast', { type: 'success', key: toastKey, id: crypto.randomUUID() })
	return redirect('/', { headers: { 'Set-Cookie': await getSessionStorage().commitSession(session) } })
}

/** Ends one session (an API client's logout). */
export async function endSession(user: SessionUser) {
	await db.delete(sessions).where(eq(sessions.id, user.sessionId))
	await forgetUsers(undefined, 'user', [user.id])
}

/** Ends every session of a user, or every one but `keepSessionId` (after a password change). */
export async function endSessions(tx: DbOrTx, userId: string, keepSessionId?: string) {
	await tx
		.delete(sessions)
		.where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId))
	await forgetUsers(tx, 'user', [userId])
}

/** The API client's user from `Authorization: Bearer <token>`, or null. */
export async function getApiUser(request: Request): Promise<SessionUser | null> {
	const header = request.headers.get('Authorization') ?? ''
	const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header.trim())
	return match ? findUserByToken(match[1]!, 'api') : null
}

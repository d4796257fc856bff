import { createHash, randomBytes } from 'node:crypto'
import { redirect } from '@remix-run/node'
import { and, eq, gt, ne } from 'drizzle-orm'
import { sessions, users, workshops } from '~/db/schema'
import { db, type DbOrTx } from '~/db/db.server'
import { combineHeaders } from './http'
import { REDIRECT_TO, wayBack, withRedirectTo } from './safe-redirect'
import { rolesFor, ruleFor, type Role } from './route-access'
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
	input: { userId: string; kind: 'web' | 'api'; userAgent?: string | null },
): Promise<string> {
	const token = newToken()
	const days = input.kind === 'web' ? WEB_SESSION_DAYS : API_TOKEN_DAYS
	await tx.insert(sessions).values({
		userId: input.userId,
		kind: input.kind,
		tokenHash: hashToken(token),
		expiresAt: new Date(Date.now() + days * 24 * 60 * 60 * 1000),
		userAgent: input.userAgent?.slice(0, 300) ?? null,
	})
	return token
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
 * "You do not have permission.".
 */
export async function requireUser(request: Request, options: { role?: Role | readonly Role[] } = {}): Promise<SessionUser> {
	const user = await getOptionalUser(request)
	if (!user) throw await guardRedirect(request, loginRequiredPath(request), 'auth:guard.loginRequired')
	const allowed = options.role === undefined ? null : Array.isArray(options.role) ? options.role : [options.role]
	if (allowed && !allowed.includes(user.role)) throw await guardRedirect(request, '/dashboard', 'auth:guard.noPermission')
	return user
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
		await requireUser(request, { role: rule.roles })
		return
	}
	const user = await requireUser(request)
	if (!rule.roles.includes(user.role)) throw new Response('Not found', { status: 404 })
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

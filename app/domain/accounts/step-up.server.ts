/**
 * An administrator's one-time enrolment link (issue 36, part 4; decision 0156). An administrator
 * needs a second factor (eID or a passkey) for /admin, and a session opened by a password alone
 * may not add one: a thief with the password would add their own. The link proves the account's
 * e-mail too: e-mailed from the step-up page, bound to the session that asked for it (opened in
 * another browser it does nothing, so the owner who clicks a link a thief asked for helps no one),
 * or printed by `npm run admin:create`, bound to the account. Opening it confirms the session with
 * `link` (`confirmSession`), which lets it add a passkey or link an eID and nothing else; /admin
 * still wants the passkey or eID itself.
 *
 * The link is signed with the session secret (as the unsubscribe links are) and names the account,
 * the session (or none) and its end; it is used once, counted in the shared rate-limit table
 * under its hash, as an eID state is (decision 0150). Nothing else is stored.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { users } from '~/db/schema'
import { db, transaction } from '~/db/db.server'
import { fallbackLanguage, type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { letter } from '~/domain/messaging/email-templates.server'
import { readerLanguage, sendEmail } from '~/domain/messaging/emails.server'
import { getEnv, getSessionSecrets } from '~/utils/env.server'
import { DomainError, notFound, tooManyAttempts } from '~/utils/errors'
import { decodeId, encodeId } from '~/utils/public-id'
import { hitRateLimit, hitsSoFar } from '~/utils/rate-limit.server'
import { STEP_UP_PATH } from '~/utils/auth.server'
import { confirmSession } from './accounts.server'

/** How long an e-mailed link works: a person reads their mail now. */
export const EMAILED_LINK_MINUTES = 30
/** How long a printed link (`npm run admin:create`) works: the operator hands it on. */
export const PRINTED_LINK_HOURS = 24
/** E-mails a person can ask for, per hour: enough for a lost one, too few to flood the inbox. */
const LINKS_PER_HOUR = { limit: 3, windowSeconds: 60 * 60 }

type LinkPayload = { userId: string; sessionId: string | null; expiresAt: number }

function signature(payload: string, secret: string) {
	return createHmac('sha256', secret).update(`enrolment:${payload}`).digest('base64url').slice(0, 32)
}

/** `<account>.<session or ->.<end, seconds in base 36>.<signature>` */
export function enrolmentToken(link: LinkPayload): string {
	const payload = `${encodeId(link.userId)}.${link.sessionId ? encodeId(link.sessionId) : '-'}.${Math.floor(link.expiresAt / 1000).toString(36)}`
	return `${payload}.${signature(payload, getSessionSecrets()[0]!)}`
}

/** What a token names, if it is ours (signed by any current secret) and not past its end; else null. */
export function readEnrolmentToken(token: string, now = Date.now()): LinkPayload | null {
	const parts = token.split('.')
	if (parts.length !== 4 || token.length > 200) return null
	const [user, session, end, given] = parts as [string, string, string, string]
	const payload = `${user}.${session}.${end}`
	const signed = getSessionSecrets().some((secret) => {
		const expected = Buffer.from(signature(payload, secret))
		const actual = Buffer.from(given)
		return expected.length === actual.length && timingSafeEqual(expected, actual)
	})
	if (!signed) return null
	const expiresAt = parseInt(end, 36) * 1000
	const userId = decodeId(user)
	const sessionId = session === '-' ? null : decodeId(session)
	if (!userId || (session !== '-' && !sessionId) || !Number.isSafeInteger(expiresAt) || expiresAt <= now) return null
	return { userId, sessionId, expiresAt }
}

const linkUrl = (token: string, language: Language) => `${getEnv().APP_URL}${STEP_UP_PATH}?link=${encodeURIComponent(token)}&lng=${language}`

/**
 * E-mails the administrator a link for this session (30 minutes, used once), in their language,
 * saying what to do if they did not ask: someone has their password. Three an hour per account.
 */
export async function sendEnrolmentLink(session: { userId: string; sessionId: string }, language: Language): Promise<{ email: string }> {
	const hit = await hitRateLimit(`enrolment-link:${session.userId}`, LINKS_PER_HOUR)
	if (!hit.allowed) throw tooManyAttempts(hit.retryAfterSeconds)
	const [user] = await db
		.select({ email: users.email, firstName: users.firstName, role: users.role, preferredLanguage: users.preferredLanguage })
		.from(users)
		.where(and(eq(users.id, session.userId), isNull(users.deletedAt), eq(users.blocked, false)))
	if (!user || user.role !== 'admin') throw notFound()
	const reader = user.preferredLanguage ? readerLanguage(user.preferredLanguage) : language
	const token = enrolmentToken({ ...session, expiresAt: Date.now() + EMAILED_LINK_MINUTES * 60 * 1000 })
	const t = getFixedT(reader, 'auth')
	const subject = t('stepUp.email.subject')
	const text = t('stepUp.email.text', { name: user.firstName, url: linkUrl(token, reader), minutes: EMAILED_LINK_MINUTES, settings: `${getEnv().APP_URL}/settings?lng=${reader}` })
	await transaction((tx) => sendEmail(tx, { to: user.email, language: reader, subject, content: letter(subject, text) }))
	return { email: user.email }
}

/** `npm run admin:create`'s link for an administrator: any of their sessions may use it, once, within 24 hours. */
export function printedEnrolmentLink(userId: string, language: Language = fallbackLanguage): string {
	return linkUrl(enrolmentToken({ userId, sessionId: null, expiresAt: Date.now() + PRINTED_LINK_HOURS * 60 * 60 * 1000 }), language)
}

const usedKey = (token: string) => `enrolment-link:used:${createHash('sha256').update(token).digest('hex')}`

/** Why a link does nothing here, before anything is used up: null when it may be used by this session. */
export async function enrolmentLinkProblem(token: string, session: { userId: string; sessionId: string }): Promise<string | null> {
	const link = readEnrolmentToken(token)
	if (!link || (await hitsSoFar(usedKey(token))) > 0) return 'auth:stepUp.linkInvalid'
	if (link.userId !== session.userId) return 'auth:stepUp.linkOtherAccount'
	if (link.sessionId && link.sessionId !== session.sessionId) return 'auth:stepUp.linkOtherBrowser'
	return null
}

/**
 * Uses a link for this administrator's session: checked as above, then used up (a second use, in
 * any process, is refused as invalid), and the session confirmed with `link`. Answers the new token.
 */
export async function redeemEnrolmentLink(token: string, session: { userId: string; sessionId: string }): Promise<string> {
	const problem = await enrolmentLinkProblem(token, session)
	if (problem) throw new DomainError(problem, problem === 'auth:stepUp.linkInvalid' ? 400 : 403)
	const link = readEnrolmentToken(token)!
	const [user] = await db.select({ role: users.role }).from(users).where(eq(users.id, session.userId))
	if (user?.role !== 'admin') throw new DomainError('auth:stepUp.linkInvalid', 400)
	const once = await hitRateLimit(usedKey(token), {
		limit: 1,
		windowSeconds: Math.max(60, Math.ceil((link.expiresAt - Date.now()) / 1000) + 60),
	})
	if (!once.allowed) throw new DomainError('auth:stepUp.linkInvalid', 400)
	return confirmSession(session, 'link')
}

import { createHmac, timingSafeEqual } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { users } from '~/db/schema'
import { type Language } from '~/i18n/config'
import { db } from '~/db/db.server'
import { getSessionSecrets } from '~/utils/env.server'
import { decodeId, encodeId } from '~/utils/public-id'
import type * as z from 'zod/mini'
import { type Role } from '~/utils/route-access'
import { emailKinds, emailKindsFor, preferencesFromForm, type EmailKind, type EmailPreferences, type EmailPreferencesSchema } from './email-preferences'

/**
 * The one-click unsubscribe link of an e-mail (RFC 8058): `/unsubscribe/{token}`, where the token
 * names the person and the kind and is signed with the session secret, so that it works without
 * signing in and cannot be made for someone else. It is good for a year: long enough for an old
 * e-mail, short enough that a leaked one does not last.
 */
const VALID_DAYS = 365
const DAY_MS = 24 * 60 * 60 * 1000

function signature(payload: string, secret: string) {
	return createHmac('sha256', secret).update(`unsubscribe:${payload}`).digest('base64url').slice(0, 32)
}

export function unsubscribeToken(userId: string, kind: EmailKind, now = new Date()): string {
	const issued = Math.floor(now.getTime() / DAY_MS).toString(36)
	const payload = `${encodeId(userId)}.${kind}.${issued}`
	return `${payload}.${signature(payload, getSessionSecrets()[0]!)}`
}

export type UnsubscribeTarget = { userId: string; kind: EmailKind }

/** The person and kind a token names; null for anything unknown, tampered with or expired. */
export function readUnsubscribeToken(token: string, now = new Date()): UnsubscribeTarget | null {
	const parts = token.split('.')
	if (parts.length !== 4) return null
	const [slug, kind, issued, given] = parts as [string, string, string, string]
	const payload = `${slug}.${kind}.${issued}`
	const signed = getSessionSecrets().some((secret) => {
		const expected = Buffer.from(signature(payload, secret))
		const actual = Buffer.from(given)
		return expected.length === actual.length && timingSafeEqual(expected, actual)
	})
	if (!signed) return null
	const day = parseInt(issued, 36)
	if (!Number.isSafeInteger(day) || now.getTime() - day * DAY_MS > VALID_DAYS * DAY_MS) return null
	const userId = decodeId(slug)
	if (!userId || !(emailKinds as readonly string[]).includes(kind)) return null
	return { userId, kind: kind as EmailKind }
}

/** Who a token is for, to say so on the confirmation page; null when the account is gone. */
export async function unsubscribeSubject(target: UnsubscribeTarget): Promise<{ email: string; language: Language | null; off: boolean } | null> {
	const [user] = await db
		.select({ email: users.email, language: users.preferredLanguage, preferences: users.emailPreferences })
		.from(users)
		.where(eq(users.id, target.userId))
	if (!user) return null
	return { email: maskEmail(user.email), language: user.language, off: user.preferences[target.kind] === 'off' }
}

/** Turns the kind off; answers false when the account is gone. Doing it twice changes nothing. */
export async function unsubscribe(target: UnsubscribeTarget): Promise<boolean> {
	const changed = await db
		.update(users)
		.set({ emailPreferences: sql`${users.emailPreferences} || ${JSON.stringify({ [target.kind]: 'off' })}::jsonb` })
		.where(eq(users.id, target.userId))
		.returning({ id: users.id })
	return changed.length > 0
}

/** "ka…@example.com": enough for its owner to recognise, not enough to harvest. */
function maskEmail(email: string) {
	const [local = '', domain = ''] = email.split('@')
	return `${local.slice(0, 2)}…@${domain}`
}

// ------------------------------------------------------------------ the settings page

/** A person's stored preferences (absent kinds are on). */
export async function getEmailPreferences(userId: string): Promise<EmailPreferences> {
	const [user] = await db.select({ preferences: users.emailPreferences }).from(users).where(eq(users.id, userId))
	return (user?.preferences ?? {}) as EmailPreferences
}

/** Saves the settings form for a person of this role; kinds of other roles are left as they were. */
export async function saveEmailPreferences(userId: string, role: Role, input: z.infer<typeof EmailPreferencesSchema>) {
	const current = await getEmailPreferences(userId)
	const others = Object.fromEntries(Object.entries(current).filter(([kind]) => !emailKindsFor[role].includes(kind as EmailKind)))
	await db
		.update(users)
		.set({ emailPreferences: { ...others, ...preferencesFromForm(role, input) } })
		.where(eq(users.id, userId))
}

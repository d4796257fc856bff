import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { db, queryRows } from '~/db/db.server'
import { workshopCalendars, workshops } from '~/db/schema'
import { readerLanguage } from '~/domain/messaging/emails.server'
import { getFixedT } from '~/i18n/i18n.server'
import { getEnv } from '~/utils/env.server'
import { notFound } from '~/utils/errors'
import { workshopBookingsBetween } from './agenda.server'
import { bookingCalendar } from './booking-ics.server'

/**
 * The workshop's private calendar feed (RFC 5545, issue 33): a secret link a phone's or an office
 * calendar subscribes to, made anew (the old one stops working) or turned off on /workshop-calendar.
 * It holds the bookings from 30 days ago on, each with its booking's UID and SEQUENCE, so a change
 * moves the same event and a cancelled booking is dropped (STATUS:CANCELLED).
 */

const FEED_DAYS_BACK = 30
/** What a token looks like (24 random bytes, base64url): anything else is not looked up. */
export const FEED_TOKEN = /^[A-Za-z0-9_-]{32}$/

/** The feed's address for a token: https for the eye, webcal for calendars that subscribe on a click. */
export function feedUrls(token: string) {
	const https = `${getEnv().APP_URL}/workshop-calendar/feed/${token}.ics`
	return { https, webcal: https.replace(/^https?:\/\//, 'webcal://') }
}

/** A new secret link, replacing any old one; answers the token. */
export async function startFeed(workshopId: string): Promise<string> {
	const token = randomBytes(24).toString('base64url')
	const [workshop] = await db.select({ id: workshops.id }).from(workshops).where(eq(workshops.id, workshopId))
	if (!workshop) throw notFound()
	await db
		.insert(workshopCalendars)
		.values({ workshopId, feedToken: token })
		.onConflictDoUpdate({ target: workshopCalendars.workshopId, set: { feedToken: token, updatedAt: new Date() } })
	return token
}

/** Turns the link off: calendars subscribed to it get "not found". */
export async function revokeFeed(workshopId: string) {
	await db.update(workshopCalendars).set({ feedToken: null, updatedAt: new Date() }).where(eq(workshopCalendars.workshopId, workshopId))
}

/** The .ics text of the workshop whose link this is, in its owner's language; an unknown or revoked token is "not found". */
export async function workshopFeed(token: string, now = new Date()): Promise<string> {
	if (!FEED_TOKEN.test(token)) throw notFound()
	const [owner] = await queryRows<{ workshopId: string; workshopName: string; language: string | null }>(
		db,
		sql`select w.id as "workshopId", w.workshop_name as "workshopName", u.preferred_language as language
		    from workshop_calendars c join workshops w on w.id = c.workshop_id join users u on u.id = w.user_id
		    where c.feed_token = ${token}`,
	)
	if (!owner) throw notFound()
	const language = readerLanguage(owner.language)
	const t = getFixedT(language, 'booking')
	const from = new Date(now.getTime() - FEED_DAYS_BACK * 24 * 3600_000)
	// The far end: whatever is booked, however far ahead the window reaches.
	const until = new Date(now.getTime() + 400 * 24 * 3600_000)
	const rows = await workshopBookingsBetween(owner.workshopId, from, until, language, { withCancelled: true })
	const appUrl = getEnv().APP_URL
	return bookingCalendar(
		rows.map((row) => ({
			id: row.id,
			sequence: row.sequence,
			status: row.status,
			startsAt: row.startsAt,
			endsAt: row.endsAt,
			summary: t('feed.summary', { vehicle: row.vehicle, plate: row.plate, services: row.services.join(', ') }),
			description: t('feed.description', { customer: row.customer, phone: row.phone, bay: row.bayName || String(row.bayPosition) }),
			url: `${appUrl}/workshop-bid-details/${row.offerSlug}`,
		})),
		{ name: t('feed.name', { workshop: owner.workshopName }), language, now },
	)
}

import { randomUUID } from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { chatMessages, consents, contactMessages, contentPages, emailOutbox, notifications, sessions } from '~/db/schema'
import { monthsBefore, RETENTION_MONTHS, SENT_EMAIL_DAYS } from '~/domain/privacy/retention'
import { applyRetention, SENT_EMAILS_BATCH } from '~/domain/privacy/retention.server'
import { makeOffer } from '~/domain/service-flow/offer-moves.server'
import { cancelRequest } from '~/domain/service-flow/request-moves.server'
import { demoContentPages } from '~/db/seed/content-pages'
import { languageCookie } from '~/i18n/i18n.server'
import { db } from '~/db/db.server'
import { SESSION_COOKIE } from '~/utils/http-cache'
import { EID_COOKIE } from '~/identity/eid-cookie.server'
import { createAdmin, createCustomer } from '#tests/support/accounts'
import { saveContentPage } from '~/domain/admin/content.server'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'
import { demoData } from '#tests/support/demo-data'

/**
 * Issue 21, privacy. Consents: registering records the terms and privacy policy accepted, with their
 * versions. Retention: what the portal no longer needs goes, with the clock moved (decision 0106):
 * read notifications after 12 months, chats of requests no longer under way after 24, contact
 * messages after 24, log-in records 12 months after they expired. Nothing younger, nothing unread,
 * no chat of a request still under way.
 */

// The demo data first, from the run's template: once a test has made an account, a later load takes a minute.
beforeAll(() => demoData())

const now = new Date()
const monthsAgo = (months: number, days = 0) => new Date(monthsBefore(now, months).getTime() - days * 86_400_000)
const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id)

describe('retention', () => {
	test('months are calendar months, the day clamped to the shorter month', () => {
		expect(monthsBefore(new Date('2027-03-31T10:00:00Z'), 1).toISOString()).toBe('2027-02-28T10:00:00.000Z')
		expect(monthsBefore(new Date('2027-03-15T10:00:00Z'), 12).toISOString()).toBe('2026-03-15T10:00:00.000Z')
		expect(RETENTION_MONTHS).toEqual({ readNotifications: 12, closedChats: 24, contactMessages: 24, logIns: 12 })
	})

	test('read notifications go 12 months after they were read; unread ones and younger ones stay', async () => {
		const user = await createCustomer()
		const base = { userId: user.id, type: 1, messageKey: 'notifications.newOffer', receivedId: randomUUID() }
		const rows = await db
			.insert(notifications)
			.values([
				{ ...base, isRead: true, readAt: monthsAgo(12, 1), createdAt: monthsAgo(13) },
				{ ...base, isRead: true, readAt: monthsAgo(11), createdAt: monthsAgo(13) },
				{ ...base, isRead: false, readAt: null, createdAt: monthsAgo(30) },
			])
			.returning({ id: notifications.id })
		await applyRetention(now)
		const left = await db.select({ id: notifications.id }).from(notifications).where(inArray(notifications.id, ids(rows)))
		expect(ids(left).sort()).toEqual([rows[1]!.id, rows[2]!.id].sort())
	})

	test('a chat goes 24 months on once no request the two share is under way', async () => {
		const owner = await customerWithVehicle()
		const workshop = await workshopOffering([owner.refs.brakes])
		const requestId = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
		await makeOffer(workshop, requestId, { price: 10000 }, null)
		const rows = await db
			.insert(chatMessages)
			.values([
				{ senderId: owner.customer.id, receiverId: workshop.userId, message: 'Kas homme sobib?', createdAt: monthsAgo(24, 1) },
				{ senderId: workshop.userId, receiverId: owner.customer.id, message: 'Sobib.', createdAt: monthsAgo(23) },
			])
			.returning({ id: chatMessages.id })
		const leftOf = async () => ids(await db.select({ id: chatMessages.id }).from(chatMessages).where(inArray(chatMessages.id, ids(rows))))

		// The request is still open: the whole chat stays, however old.
		await applyRetention(now)
		expect((await leftOf()).sort()).toEqual(ids(rows).sort())

		// Cancelled: the message older than 24 months goes, the younger stays.
		await cancelRequest(owner.customer.id, requestId)
		await applyRetention(now)
		expect(await leftOf()).toEqual([rows[1]!.id])
	})

	test('contact messages go after 24 months; log-in records 12 months after they expired', async () => {
		const user = await createCustomer()
		const contact = await db
			.insert(contactMessages)
			.values([
				{ name: 'Old', email: 'old@example.com', message: 'Tere', createdAt: monthsAgo(24, 1) },
				{ name: 'New', email: 'new@example.com', message: 'Tere', createdAt: monthsAgo(23) },
			])
			.returning({ id: contactMessages.id })
		const logIns = await db
			.insert(sessions)
			.values([
				{ userId: user.id, tokenHash: randomUUID(), expiresAt: monthsAgo(12, 1), createdAt: monthsAgo(13) },
				{ userId: user.id, tokenHash: randomUUID(), expiresAt: monthsAgo(11), createdAt: monthsAgo(12) },
			])
			.returning({ id: sessions.id })
		const result = await applyRetention(now)
		expect(result.contactMessages).toBeGreaterThanOrEqual(1)
		expect(result.logIns).toBeGreaterThanOrEqual(1)
		expect(ids(await db.select({ id: contactMessages.id }).from(contactMessages).where(inArray(contactMessages.id, ids(contact))))).toEqual([contact[1]!.id])
		expect(ids(await db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, ids(logIns))))).toEqual([logIns[1]!.id])
		// A second run finds nothing more of them.
		await applyRetention(now)
		expect(await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, logIns[1]!.id))).toHaveLength(1)
	})

	test('sent e-mails leave the outbox 90 days after they were sent, in batches; younger, unsent and failed ones stay', async () => {
		expect(SENT_EMAIL_DAYS).toBe(90)
		const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000)
		const mail = (key: string, status: 'pending' | 'sent' | 'logged' | 'failed', sentDaysAgo: number | null, madeDaysAgo: number) => ({
			to: `${key}@example.com`,
			subject: key,
			text: key,
			dedupeKey: `retention-test:${randomUUID()}:${key}`,
			status,
			sentAt: sentDaysAgo === null ? null : daysAgo(sentDaysAgo),
			createdAt: daysAgo(madeDaysAgo),
		})
		const rows = await db
			.insert(emailOutbox)
			.values([
				mail('sent-91', 'sent', 91, 91),
				mail('logged-91', 'logged', 91, 92),
				mail('sent-89', 'sent', 89, 95),
				mail('pending-200', 'pending', null, 200),
				mail('failed-200', 'failed', null, 200),
			])
			.returning({ id: emailOutbox.id, subject: emailOutbox.subject })
		// More than a batch of old sent e-mails: the job goes on until none is left.
		const many = Array.from({ length: SENT_EMAILS_BATCH + 5 }, (_, i) => mail(`bulk-${i}`, 'sent', 100, 100))
		await db.insert(emailOutbox).values(many)

		const result = await applyRetention(now)
		expect(result.sentEmails).toBeGreaterThanOrEqual(SENT_EMAILS_BATCH + 7)
		const left = await db.select({ subject: emailOutbox.subject }).from(emailOutbox).where(inArray(emailOutbox.id, ids(rows)))
		expect(left.map((row) => row.subject).sort()).toEqual(['failed-200', 'pending-200', 'sent-89'])
		const bulkLeft = await db.select({ id: emailOutbox.id }).from(emailOutbox).where(inArray(emailOutbox.subject, many.map((row) => row.subject)))
		expect(bulkLeft).toEqual([])
	})
})

describe('the privacy page (demo text)', () => {
	test('says in each language how long each kind is kept and names every cookie the portal sets', () => {
		for (const [language, page] of Object.entries(demoContentPages['privacy-policy']!)) {
			for (const cookie of [SESSION_COOKIE, 'csrf', languageCookie.name, EID_COOKIE]) expect(page.bodyHtml, `${language}: ${cookie}`).toContain(`<code>${cookie}</code>`)
			for (const months of new Set(Object.values(RETENTION_MONTHS))) expect(page.bodyHtml, `${language}: ${months}`).toContain(`${months} `)
		}
	})
})

describe('consents', () => {
	test('registering records the terms and the privacy policy accepted, at the versions of their pages in that language', async () => {
		const admin = await createAdmin()
		await saveContentPage(admin.id, 'privacy-policy', 'en', { title: 'Privacy policy', bodyHtml: '<p>What we keep.</p>' })
		const [page] = await db.select().from(contentPages).where(and(eq(contentPages.slug, 'privacy-policy'), eq(contentPages.language, 'en')))
		const user = await createCustomer()
		const rows = await db.select().from(consents).where(eq(consents.userId, user.id))
		const byKind = Object.fromEntries(rows.map((row) => [row.kind, row]))
		expect(Object.keys(byKind).sort()).toEqual(['privacy', 'terms'])
		expect(byKind.privacy).toMatchObject({ language: 'en', version: page!.updatedAt.toISOString() })
		// The terms at their page's version, or 'none' on a site without that page (never an invented one).
		const [terms] = await db.select().from(contentPages).where(and(eq(contentPages.slug, 'terms-and-conditions'), eq(contentPages.language, 'en')))
		expect(byKind.terms).toMatchObject({ language: 'en', version: terms ? terms.updatedAt.toISOString() : 'none' })
		expect(Date.now() - byKind.privacy!.acceptedAt.getTime()).toBeLessThan(60_000)
	})
})

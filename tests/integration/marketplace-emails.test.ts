import { randomUUID } from 'node:crypto'
import { and, eq, isNotNull } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { chatMessages, emailOutbox, notifications, users } from '~/db/schema'
import { sendAnswerReminders, sendNewRequestDigests, sendNoOfferNudges, sendUnreadChatEmails } from '~/domain/messaging/email-jobs.server'
import { emailNotifications } from '~/domain/messaging/emails.server'
import { readUnsubscribeToken, saveEmailPreferences, unsubscribe, unsubscribeToken } from '~/domain/messaging/email-preferences.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { addReview, replyToReview } from '~/domain/service-flow/review-moves.server'
import { db } from '~/db/db.server'
import { processOutbox } from '~/email/outbox.server'
import { encodeId } from '~/utils/public-id'
import { dateToTallinnInput, tallinnToDate } from '~/utils/time'
import { dictionaryText } from '#tests/support/dictionary'
import { customerWithVehicle, openRequest, referenceData, workshopOffering } from '#tests/support/flow'
import { useSmtpSink } from '#tests/support/use-smtp-sink'

/**
 * Issue 15: each marketplace event is an e-mail to the person it concerns, in their language,
 * with the link to the page it is about, a plain-text part, and an unsubscribe link and headers;
 * once per event; none for a kind the person turned off. Delivered through a real SMTP server.
 */
const APP_URL = 'http://portal.test'
const sink = useSmtpSink({ APP_URL })

/** The e-mails of marketplace events queued for `email` (the welcome e-mail is not one). */
const outboxTo = (email: string) => db.select().from(emailOutbox).where(and(eq(emailOutbox.to, email), isNotNull(emailOutbox.dedupeKey)))
const emailOf = async (userId: string) => (await db.select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]!.email
const speaks = (userId: string, language: 'et' | 'en' | 'ru') => db.update(users).set({ preferredLanguage: language }).where(eq(users.id, userId))

/** Delivers what is queued and answers what reached `to` over SMTP. */
async function delivered(to: string) {
	await processOutbox()
	return sink.received.filter((mail) => mail.to.includes(to))
}

describe('marketplace e-mails', () => {
	test('the whole flow reaches each side in its own language, with the link to the page and a way out', { timeout: 90_000 }, async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		await speaks(customer.id, 'ru')
		const chosen = await workshopOffering([refs.brakes])
		const other = await workshopOffering([refs.brakes])
		const unrelated = await workshopOffering([refs.bodywork])
		await speaks(chosen.userId, 'et')
		const [chosenEmail, otherEmail, unrelatedEmail] = await Promise.all([emailOf(chosen.userId), emailOf(other.userId), emailOf(unrelated.userId)])

		// A new request reaches the workshops that offer its service, and only them.
		const requestId = await openRequest(customer.id, vehicleId, [refs.brakes])
		const slug = encodeId(requestId)
		const about = (mails: Awaited<ReturnType<typeof delivered>>, path: string) => mails.filter((mail) => mail.html.includes(path))
		const [toChosen, ...more] = about(await delivered(chosenEmail), `/customer-request-details/${slug}`)
		expect(more).toHaveLength(0)
		expect(toChosen!.subject).toMatch(/^Uus päring: /)
		expect(toChosen!.html).toContain(`${APP_URL}/customer-request-details/${slug}?lng=et`)
		expect(toChosen!.text).toContain(`${APP_URL}/customer-request-details/${slug}?lng=et`)
		expect(toChosen!.text).toContain('Vaata päringut')
		expect(toChosen!.headers['list-unsubscribe']).toMatch(new RegExp(`^<${APP_URL}/unsubscribe/[^>]+\\?lng=et>$`))
		expect(toChosen!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
		expect(about(await delivered(otherEmail), `/customer-request-details/${slug}`)).toHaveLength(1)
		expect(about(await delivered(unrelatedEmail), `/customer-request-details/${slug}`)).toHaveLength(0)

		// Two offers: the customer hears of each, in Russian, with the price formatted for Russian.
		const chosenOffer = await makeOffer(chosen, requestId, { price: 18_550 }, null)
		await makeOffer(other, requestId, { price: 21_000 }, null)
		const offers = about(await delivered(customer.email), `/compaire-offers/${slug}?lng=ru`)
		expect(offers).toHaveLength(2)
		// Each names the car and the request after the price (issue 32).
		expect(offers.map((mail) => mail.subject)).toEqual(expect.arrayContaining([expect.stringMatching(/185,50\s€ — Toyota Corolla/), expect.stringMatching(/210,00\s€ — Toyota Corolla/)]))
		expect(offers[0]!.text).toContain('Сравнить предложения')

		// The choice: the chosen workshop is told in Estonian, the other one in English.
		await selectOffer(customer.id, requestId, chosenOffer)
		const chosenMails = await delivered(chosenEmail)
		expect(chosenMails.at(-1)!.html).toContain(`/workshop-bid-details/${encodeId(chosenOffer)}?lng=et`)
		const otherMails = await delivered(otherEmail)
		expect(otherMails.at(-1)!.subject).toMatch(/^Your offer was not selected — Toyota Corolla \(\w+\), Brake repair/)

		// The job done, with its final price (below the offer: no bill to confirm), leads the customer to the feedback form.
		await completeJob(chosen, chosenOffer, 18_000)
		const done = (await delivered(customer.email)).at(-1)!
		expect(done.html).toContain(`/leave-feedback/${slug}?lng=ru`)
		expect(done.text).toMatch(/180,00\s€/)

		// The review reaches the workshop; the reply leads the customer to the workshop's page.
		const reviewId = await addReview(customer.id, requestId, { rating: 5, body: 'Kiire ja korralik töö.' })
		expect((await delivered(chosenEmail)).at(-1)!.html).toContain(`${APP_URL}/customer-reviews?lng=et`)
		await replyToReview(chosen, reviewId, 'Aitäh!')
		expect((await delivered(customer.email)).at(-1)!.html).toContain(`/workshop-details/${encodeId(chosen.workshopId)}?lng=ru`)

		// Every e-mail names the site and carries the address block and the preferences link.
		expect(done.text).toContain('Autohub')
		expect(done.html).toContain(`${APP_URL}/settings?lng=ru#emails`)
	})

	test('one e-mail per event, however often it is queued', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const garage = await workshopOffering([refs.tyres])
		const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
		await makeOffer(garage, requestId, { price: 5_000 }, null)
		const [stored] = await db
			.select()
			.from(notifications)
			.where(and(eq(notifications.userId, customer.id), eq(notifications.messageKey, 'notifications.newOffer')))
		await emailNotifications(db, [stored!])
		await emailNotifications(db, [stored!])
		expect(await outboxTo(customer.email)).toHaveLength(1)
	})

	test('a kind turned off in the settings, or set to the digest, is not e-mailed at once', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const digest = await workshopOffering([refs.bodywork])
		const off = await workshopOffering([refs.bodywork])
		const byDefault = await workshopOffering([refs.bodywork])
		await saveEmailPreferences(digest.userId, 'workshop', { emails: ['offerOutcomes', 'reviews', 'chat'], newRequests: 'digest' })
		await saveEmailPreferences(off.userId, 'workshop', { emails: [], newRequests: 'off' })
		await saveEmailPreferences(customer.id, 'customer', { emails: ['jobUpdates', 'reviews', 'chat'] })
		const requestId = await openRequest(customer.id, vehicleId, [refs.bodywork])
		expect(await outboxTo(await emailOf(digest.userId))).toHaveLength(0)
		expect(await outboxTo(await emailOf(off.userId))).toHaveLength(0)
		// The control: a workshop that kept the defaults has its e-mail at once.
		expect(await outboxTo(await emailOf(byDefault.userId))).toHaveLength(1)
		await makeOffer(digest, requestId, { price: 9_900 }, null)
		expect(await outboxTo(customer.email)).toHaveLength(0)
		// The bell still has them.
		expect(await db.select().from(notifications).where(eq(notifications.userId, customer.id))).toHaveLength(1)
	})
})

describe('the unsubscribe link', () => {
	test('names its person and kind, and turns that kind off, once', async () => {
		const { customer } = await customerWithVehicle()
		const token = unsubscribeToken(customer.id, 'offers')
		expect(readUnsubscribeToken(token)).toEqual({ userId: customer.id, kind: 'offers' })
		expect(await unsubscribe(readUnsubscribeToken(token)!)).toBe(true)
		expect(await unsubscribe(readUnsubscribeToken(token)!)).toBe(true)
		const [user] = await db.select({ preferences: users.emailPreferences }).from(users).where(eq(users.id, customer.id))
		expect(user!.preferences).toEqual({ offers: 'off' })
	})

	test('a tampered, foreign, unknown or expired token names nobody', async () => {
		const { customer } = await customerWithVehicle()
		const token = unsubscribeToken(customer.id, 'offers')
		const [slug, kind, issued, signature] = token.split('.') as [string, string, string, string]
		expect(readUnsubscribeToken(`${slug}.chat.${issued}.${signature}`)).toBeNull()
		// Its last character changed (to another one: a signature may end in 'A' already).
		expect(readUnsubscribeToken(`${slug}.${kind}.${issued}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`)).toBeNull()
		expect(readUnsubscribeToken(`${slug}.${kind}.${issued}`)).toBeNull()
		expect(readUnsubscribeToken('')).toBeNull()
		expect(readUnsubscribeToken('a.b.c.d')).toBeNull()
		const old = unsubscribeToken(customer.id, 'offers', new Date(Date.now() - 400 * 24 * 3600 * 1000))
		expect(readUnsubscribeToken(old)).toBeNull()
		// A kind that is not an e-mail kind, even signed, is refused.
		expect(readUnsubscribeToken(unsubscribeToken(customer.id, 'passwordReset' as never))).toBeNull()
	})

	test('an account that is not there changes nothing', async () => {
		const before = await db.select({ id: users.id, preferences: users.emailPreferences }).from(users)
		const target = readUnsubscribeToken(unsubscribeToken(randomUUID(), 'chat'))!
		expect(await unsubscribe(target)).toBe(false)
		expect(await db.select({ id: users.id, preferences: users.emailPreferences }).from(users)).toEqual(before)
	})
})

/** The next time the clock in Tallinn reads `hhmm`. */
function nextInTallinn(hhmm: string, after = new Date()) {
	for (let hours = 0; hours <= 48; hours++) {
		const day = dateToTallinnInput(new Date(after.getTime() + hours * 3_600_000)).slice(0, 10)
		const candidate = tallinnToDate(`${day}T${hhmm}`)
		if (candidate > after) return candidate
	}
	throw new Error('no such time')
}

describe('e-mails that wait for the clock', () => {
	test('the morning digest lists the day’s matching open requests once, from 07:00 in Tallinn, and the next day those still unanswered', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const digest = await workshopOffering([refs.brakes])
		const instant = await workshopOffering([refs.brakes])
		await saveEmailPreferences(digest.userId, 'workshop', { emails: ['offerOutcomes', 'reviews', 'chat'], newRequests: 'digest' })
		const [digestEmail, instantEmail] = await Promise.all([emailOf(digest.userId), emailOf(instant.userId)])
		const requestId = await openRequest(customer.id, vehicleId, [refs.brakes])
		const morning = nextInTallinn('07:30')

		await sendNewRequestDigests(new Date(morning.getTime() - 40 * 60_000))
		expect(await outboxTo(digestEmail)).toHaveLength(0)

		await sendNewRequestDigests(morning)
		await sendNewRequestDigests(new Date(morning.getTime() + 10 * 60_000))
		const [mail, ...more] = await outboxTo(digestEmail)
		expect(more).toHaveLength(0)
		expect(mail!.subject).toMatch(/^\d+ new requests? for your workshop$/)
		expect(mail!.html).toContain(`/customer-request-details/${encodeId(requestId)}?lng=en`)
		expect(mail!.headers['List-Unsubscribe']).toContain('/unsubscribe/')
		// The instant one had its e-mail when the request came, and no digest.
		expect((await outboxTo(instantEmail)).map((row) => row.dedupeKey)).toEqual([expect.stringMatching(/^notification:/)])

		// The next morning nothing is new, but the request still waits for this workshop's offer:
		// the digest is its reminder, under its own lead.
		await sendNewRequestDigests(new Date(morning.getTime() + 24 * 3_600_000))
		const [, reminder, ...later] = await outboxTo(digestEmail)
		expect(later).toHaveLength(0)
		expect(reminder!.subject).toBe('Customers are still waiting for your offer')
		expect(reminder!.html).toContain(dictionaryText('en', 'common', 'email.digest.waiting'))
		expect(reminder!.html).toContain(`/customer-request-details/${encodeId(requestId)}?lng=en`)
		// The morning after, nothing new and nothing waiting from the day before: nothing is sent.
		await sendNewRequestDigests(new Date(morning.getTime() + 48 * 3_600_000))
		expect(await outboxTo(digestEmail)).toHaveLength(2)
	})

	test('a chat message unread for ten minutes is e-mailed, at most once an hour per conversation', async () => {
		const { customer } = await customerWithVehicle()
		const garage = await workshopOffering([(await referenceData()).tyres])
		const now = new Date()
		const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000)
		await db.insert(chatMessages).values([
			{ senderId: garage.userId, receiverId: customer.id, message: 'Tere! Millal auto tuua?', createdAt: minutesAgo(15) },
			{ senderId: garage.userId, receiverId: customer.id, message: 'Reede sobib?', createdAt: minutesAgo(12) },
		])
		await sendUnreadChatEmails(minutesAgo(6))
		expect(await outboxTo(customer.email)).toHaveLength(0)
		await sendUnreadChatEmails(now)
		const [mail] = await outboxTo(customer.email)
		expect(mail!.subject).toBe(`New message from ${garage.workshopName}`)
		expect(mail!.text).toContain('2 unread messages')
		expect(mail!.text).toContain('Reede sobib?')
		expect(mail!.html).toContain(`/chat/${encodeId(garage.userId)}?lng=en`)

		// Another unread message within the hour: no second e-mail; after the hour, one more.
		await db.insert(chatMessages).values({ senderId: garage.userId, receiverId: customer.id, message: 'Või laupäev?', createdAt: minutesAgo(11) })
		await sendUnreadChatEmails(now)
		expect(await outboxTo(customer.email)).toHaveLength(1)
		await sendUnreadChatEmails(new Date(now.getTime() + 2 * 3_600_000))
		expect(await outboxTo(customer.email)).toHaveLength(2)

		// Read, they are not e-mailed again.
		await db.update(chatMessages).set({ readAt: new Date() }).where(eq(chatMessages.receiverId, customer.id))
		await db.insert(chatMessages).values({ senderId: garage.userId, receiverId: customer.id, message: 'Uus', createdAt: minutesAgo(1) })
		await sendUnreadChatEmails(new Date(now.getTime() + 5 * 3_600_000))
		expect(await outboxTo(customer.email)).toHaveLength(3)
		await db.update(chatMessages).set({ readAt: new Date() }).where(eq(chatMessages.receiverId, customer.id))
		await sendUnreadChatEmails(new Date(now.getTime() + 8 * 3_600_000))
		expect(await outboxTo(customer.email)).toHaveLength(3)
	})

	test('a workshop that has not answered in a day is reminded once; a request with no offer in two days tells its customer', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const silent = await workshopOffering([refs.bodywork])
		const quick = await workshopOffering([refs.bodywork])
		const requestId = await openRequest(customer.id, vehicleId, [refs.bodywork])
		const [silentEmail, quickEmail] = await Promise.all([emailOf(silent.userId), emailOf(quick.userId)])
		const later = (hours: number) => new Date(Date.now() + hours * 3_600_000)
		const reminders = async (email: string) => (await outboxTo(email)).filter((row) => row.dedupeKey!.startsWith('reminder:'))
		const nudges = async () => (await outboxTo(customer.email)).filter((row) => row.dedupeKey!.startsWith('nudge:'))

		// Nobody has answered for two days: the customer hears of it, with workshops that do the work.
		await sendAnswerReminders(later(12))
		expect(await reminders(silentEmail)).toHaveLength(0)
		await sendNoOfferNudges(later(47))
		expect(await nudges()).toHaveLength(0)
		await sendNoOfferNudges(later(49))
		await sendNoOfferNudges(later(50))
		const [nudge, ...moreNudges] = await nudges()
		expect(moreNudges).toHaveLength(0)
		expect(nudge!.subject).toMatch(/^No offers for your request yet — Toyota Corolla \(\w+\), \w/)
		expect(nudge!.text).toMatch(/Car: Toyota Corolla \(\w+\)/)
		expect(nudge!.html).toContain(`/request-details/${encodeId(requestId)}?lng=en`)
		expect(nudge!.html).toMatch(/\/workshop-details\/[A-Za-z0-9_-]+\?lng=en/)

		// One workshop answers; a day after the request the other is reminded, once.
		await makeOffer(quick, requestId, { price: 30_000 }, null)
		await sendAnswerReminders(later(25))
		await sendAnswerReminders(later(26))
		const [reminder, ...moreReminders] = await reminders(silentEmail)
		expect(moreReminders).toHaveLength(0)
		expect(reminder!.subject).toBe('A customer is still waiting for your offer')
		expect(reminder!.html).toContain(`/customer-request-details/${encodeId(requestId)}?lng=en`)
		expect(await reminders(quickEmail)).toHaveLength(0)
	})
})

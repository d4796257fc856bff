import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { chatMessages, notifications } from '~/db/schema'
import { makeOffer } from '~/domain/service-flow/offer-moves.server'
import { action as getChatAction } from '~/routes/admin.api.get-chat'
import { action as getNotificationAction } from '~/routes/admin.api.get-notification'
import { action as readNotificationAction } from '~/routes/admin.api.read-notification'
import { action as sendChatAction } from '~/routes/admin.api.send-chat'
import { createSessionToken } from '~/utils/auth.server'
import { commitCsrfToken } from '~/utils/csrf.server'
import { db } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { createCustomer, requestWithToken } from '#tests/support/accounts'
import { customerWithVehicle, openRequest, referenceData, workshopOffering } from '#tests/support/flow'
import { ROUTER_ARGS } from '#tests/support/router-args'

type Handler = typeof getNotificationAction
const call = async (handler: Handler, request: Request) => {
	const response = (await handler({ request, params: {}, ...ROUTER_ARGS, context: { clientIp: '10.7.0.1' } })) as Response
	return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const apiToken = (userId: string) => createSessionToken(db, { userId, kind: 'api', method: 'password' })

/** An API client's call: Bearer token, JSON body (or form data when `form` is set). */
function bearer(path: string, token: string | null, body: Record<string, string> = {}, form = false) {
	const headers: Record<string, string> = { Accept: 'application/json' }
	if (token) headers.Authorization = `Bearer ${token}`
	if (form) {
		const data = new FormData()
		for (const [key, value] of Object.entries(body)) data.set(key, value)
		return new Request(`http://localhost${path}?lng=en`, { method: 'POST', headers, body: data })
	}
	headers['Content-Type'] = 'application/json'
	return new Request(`http://localhost${path}?lng=en`, { method: 'POST', headers, body: JSON.stringify(body) })
}

let scene: Awaited<ReturnType<typeof setUp>>

async function setUp() {
	const refs = await referenceData()
	const { customer, vehicleId } = await customerWithVehicle()
	const workshop = await workshopOffering([refs.tyres])
	const stranger = await createCustomer()
	const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
	await makeOffer(workshop, requestId, { price: 18500, notes: '', description: 'New tyres' }, null)
	return {
		customer,
		workshop,
		stranger,
		requestId,
		tokens: { customer: await apiToken(customer.id), workshop: await apiToken(workshop.userId), stranger: await apiToken(stranger.id) },
	}
}

beforeAll(async () => {
	scene = await setUp()
})

describe('POST /admin/api/get-notification', () => {
	test('answers { status, notifications: [{ id, message, is_read, type, received_id }], unreadNotifications }', async () => {
		const { status, body } = await call(getNotificationAction, bearer('/admin/api/get-notification', scene.tokens.customer))
		expect(status).toBe(200)
		expect(Object.keys(body).sort()).toEqual(['notifications', 'status', 'unreadNotifications'])
		expect(body.status).toBe(200)
		expect(body.unreadNotifications).toBe(1)
		const list = body.notifications as Array<Record<string, unknown>>
		expect(list).toHaveLength(1)
		expect(list[0]).toEqual({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			message: expect.stringContaining('sent an offer: €185.00'),
			is_read: false,
			type: 2,
			received_id: scene.requestId,
			created_at: expect.any(String),
		})
	})

	test('speaks the language asked for', async () => {
		const request = bearer('/admin/api/get-notification', scene.tokens.customer)
		const estonian = new Request(request.url.replace('lng=en', 'lng=et'), { method: 'POST', headers: request.headers })
		const { body } = await call(getNotificationAction, estonian)
		expect((body.notifications as Array<{ message: string }>)[0]!.message).toContain('saatis pakkumise')
	})

	test('without a token, or with a bad one, answers 401 "Please login to continue!"', async () => {
		for (const token of [null, 'not-a-real-token-at-all-0123456789']) {
			const { status, body } = await call(getNotificationAction, bearer('/admin/api/get-notification', token))
			expect(status).toBe(401)
			expect(body).toEqual({ status: 401, message: 'Please login to continue!' })
		}
	})

	test('with the session cookie, needs the page CSRF token', async () => {
		const session = await createSessionToken(db, { userId: scene.customer.id, kind: 'web', method: 'password' })
		const signedIn = await requestWithToken(session)
		const [csrf, csrfCookie] = await commitCsrfToken(new Request('http://localhost/'))
		const cookie = `${signedIn.headers.get('Cookie')}; ${csrfCookie!.split(';')[0]}`
		const form = (withToken: boolean) => {
			const data = new FormData()
			if (withToken) data.set('csrf', csrf)
			return new Request('http://localhost/admin/api/get-notification?lng=en', { method: 'POST', headers: { Cookie: cookie }, body: data })
		}
		expect((await call(getNotificationAction, form(false))).status).toBe(403)
		const ok = await call(getNotificationAction, form(true))
		expect(ok.status).toBe(200)
		expect(ok.body.unreadNotifications).toBe(1)
	})
})

describe('POST /admin/api/read-notification', () => {
	test('marks one read and answers the same fields; another user cannot read it', async () => {
		const [row] = await db.select().from(notifications).where(eq(notifications.userId, scene.customer.id))
		const strangers = await call(readNotificationAction, bearer('/admin/api/read-notification', scene.tokens.stranger, { id: row!.id }))
		expect(strangers.status).toBe(404)
		expect((await db.select().from(notifications).where(eq(notifications.id, row!.id)))[0]!.isRead).toBe(false)

		// The id may come raw or base64-encoded, as in the portal's links.
		const { status, body } = await call(readNotificationAction, bearer('/admin/api/read-notification', scene.tokens.customer, { id: encodeId(row!.id) }))
		expect(status).toBe(200)
		expect(Object.keys(body).sort()).toEqual(['notifications', 'status', 'unreadNotifications'])
		expect(body.unreadNotifications).toBe(0)
		expect((body.notifications as Array<{ is_read: boolean }>)[0]!.is_read).toBe(true)
	})

	test('answers 401 without a token and 404 for a made-up id', async () => {
		const anonymous = await call(readNotificationAction, bearer('/admin/api/read-notification', null, { id: 'x' }))
		expect(anonymous).toEqual({ status: 401, body: { status: 401, message: 'Please login to continue!' } })
		const madeUp = await call(readNotificationAction, bearer('/admin/api/read-notification', scene.tokens.customer, { id: 'nonsense' }))
		expect(madeUp.status).toBe(404)
	})
})

describe('chat', () => {
	test('send-chat (form data) answers { status, message } and get-chat lists { sender_id, message, created_at } oldest first', async () => {
		const first = await call(
			sendChatAction,
			bearer('/admin/api/send-chat', scene.tokens.customer, { receiver_id: scene.workshop.userId, message: 'Kas homme sobib?' }, true),
		)
		expect(first).toEqual({ status: 200, body: { status: 200, message: 'Message sent' } })
		const second = await call(
			sendChatAction,
			bearer('/admin/api/send-chat', scene.tokens.workshop, { receiver_id: scene.customer.id, message: 'Sobib, kell 10.' }, true),
		)
		expect(second.status).toBe(200)

		const { status, body } = await call(getChatAction, bearer('/admin/api/get-chat', scene.tokens.workshop, { receiver_id: scene.customer.id }))
		expect(status).toBe(200)
		expect(Object.keys(body).sort()).toEqual(['chats', 'status'])
		expect(body.chats).toEqual([
			{ sender_id: scene.customer.id, message: 'Kas homme sobib?', created_at: expect.any(String) },
			{ sender_id: scene.workshop.userId, message: 'Sobib, kell 10.', created_at: expect.any(String) },
		])
	})

	test('a stranger can neither read nor write: "You do not have permission."', async () => {
		const before = (await db.select().from(chatMessages)).length
		const write = await call(
			sendChatAction,
			bearer('/admin/api/send-chat', scene.tokens.stranger, { receiver_id: scene.workshop.userId, message: 'Tere' }, true),
		)
		expect(write).toEqual({ status: 403, body: { status: 403, message: 'You do not have permission.' } })
		const read = await call(getChatAction, bearer('/admin/api/get-chat', scene.tokens.stranger, { receiver_id: scene.customer.id }))
		expect(read).toEqual({ status: 403, body: { status: 403, message: 'You do not have permission.' } })
		// A made-up receiver and oneself are refused the same way.
		for (const receiver of ['nonsense', scene.customer.id]) {
			const refused = await call(sendChatAction, bearer('/admin/api/send-chat', scene.tokens.customer, { receiver_id: receiver, message: 'x' }, true))
			expect(refused.status).toBe(403)
		}
		expect((await db.select().from(chatMessages)).length).toBe(before)
	})

	test('an empty message sends nothing; no token is 401', async () => {
		const before = (await db.select().from(chatMessages)).length
		const empty = await call(
			sendChatAction,
			bearer('/admin/api/send-chat', scene.tokens.customer, { receiver_id: scene.workshop.userId, message: '   ' }, true),
		)
		expect(empty.status).toBe(422)
		expect((empty.body.errors as Record<string, string[]>).message).toEqual(['This field is required.'])
		const anonymous = await call(sendChatAction, bearer('/admin/api/send-chat', null, { receiver_id: scene.workshop.userId, message: 'Tere' }, true))
		expect(anonymous).toEqual({ status: 401, body: { status: 401, message: 'Please login to continue!' } })
		expect((await db.select().from(chatMessages)).length).toBe(before)
	})
})

describe('a type-1 notification', () => {
	test('opens what it is about: the request for a workshop, the subscription for a billing notice', async () => {
		const { getNotificationDetail } = await import('~/domain/messaging/notifications.server')
		const [newRequest] = await db
			.select()
			.from(notifications)
			.where(and(eq(notifications.userId, scene.workshop.userId), eq(notifications.messageKey, 'notifications.newRequest')))
		expect(newRequest!.type).toBe(1)
		const detail = await getNotificationDetail(scene.workshop.userId, newRequest!.id, 'en')
		expect(detail.message).toMatch(/^New request: /)
		expect(detail.link).toEqual({ to: `/customer-request-details/${encodeId(scene.requestId)}`, labelKey: 'notifications.openRequest' })
		// Someone else's notification is not found.
		await expect(getNotificationDetail(scene.customer.id, newRequest!.id, 'en')).rejects.toMatchObject({ status: 404 })

		const [billing] = await db
			.insert(notifications)
			.values({ userId: scene.workshop.userId, type: 1, messageKey: 'billing:notifications.ended', receivedId: scene.requestId })
			.returning()
		expect((await getNotificationDetail(scene.workshop.userId, billing!.id, 'en')).link?.to).toBe('/subscription')
	})
})

describe('a chat message on the bell', () => {
	test('tells the receiver once per conversation, opens the chat, and is read with it', async () => {
		const { getNotificationDetail } = await import('~/domain/messaging/notifications.server')
		const chatNotices = () =>
			db
				.select()
				.from(notifications)
				.where(and(eq(notifications.userId, scene.customer.id), eq(notifications.messageKey, 'notifications.newChatMessage')))
		for (const text of ['Auto on valmis.', 'Võite tulla.']) {
			const sent = await call(sendChatAction, bearer('/admin/api/send-chat', scene.tokens.workshop, { receiver_id: scene.customer.id, message: text }, true))
			expect(sent.status).toBe(200)
		}
		const [notice, ...more] = await chatNotices()
		expect(more).toHaveLength(0)
		expect(notice).toMatchObject({ type: 1, receivedId: scene.workshop.userId, isRead: false })
		const listed = await call(getNotificationAction, bearer('/admin/api/get-notification', scene.tokens.customer))
		expect((listed.body.notifications as Array<{ message: string }>)[0]!.message).toBe(`New message from ${scene.workshop.workshopName}`)
		const detail = await getNotificationDetail(scene.customer.id, notice!.id, 'en')
		expect(detail.chat).toEqual({ id: scene.workshop.userId, name: scene.workshop.workshopName })
		expect(detail.link?.to).toBe(`/chat/${encodeId(scene.workshop.userId)}`)

		// Reading the conversation reads the notice.
		await call(getChatAction, bearer('/admin/api/get-chat', scene.tokens.customer, { receiver_id: scene.workshop.userId }))
		expect((await chatNotices())[0]!.isRead).toBe(true)
	})
})

import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { setBlocked } from '~/domain/admin/users.server'
import { listNotifications, notify, NotificationType, readNotification } from '~/domain/messaging/notifications.server'
import { cacheBusHeardAll, cacheListenerReady, startCacheListener, stopCacheListener } from '~/caching/cache-bus.server'
import { createSessionToken, findUserByToken } from '~/utils/auth.server'
import { db, transaction } from '~/db/db.server'
import { forgetUsers, userCache } from '~/caching/user-cache.server'
import { createCustomer } from '#tests/support/accounts'

/**
 * Issue 18, goal 1: the bell's list and the token → user lookup are kept in memory per user and
 * forgotten when the database says the user's rows changed (docs/decisions/0089). "Elsewhere" is a
 * plain connection of its own, as another process or psql would write: only the triggers tell.
 */

const until = async <T>(check: () => Promise<T>, done: (value: T) => boolean, ms = 5_000) => {
	const deadline = Date.now() + ms
	for (;;) {
		const value = await check()
		if (done(value) || Date.now() > deadline) return value
		await new Promise((resolve) => setTimeout(resolve, 25))
	}
}

async function elsewhere(text: string, values: unknown[] = [], options: { triggers?: boolean } = {}) {
	const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
	await client.connect()
	try {
		if (options.triggers === false) await client.query('set session_replication_role = replica')
		await client.query(text, values)
	} finally {
		await client.end()
	}
}

/** A write the triggers do not see (replication role): what a cache keeps shows until something says otherwise. */
const unseen = (text: string, values: unknown[] = []) => elsewhere(text, values, { triggers: false })

async function newItem(userId: string, key = 'notifications.newReview') {
	await transaction((tx) => notify(tx, { userId, type: NotificationType.newReview, messageKey: key, messageParams: { rating: 5 }, receivedId: userId }))
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL, with the cache listener', () => {
	beforeAll(async () => {
		startCacheListener()
		await until(async () => cacheListenerReady(), Boolean)
		expect(cacheListenerReady()).toBe(true)
	})
	afterAll(() => stopCacheListener())

	test('the bell’s list is kept until a notification of that user changes, whoever writes it', async () => {
		const user = await createCustomer()
		await newItem(user.id)
		// The trigger's message of that write reaches this process too, and would empty what is kept.
		await cacheBusHeardAll()
		expect((await listNotifications(user.id, 'en')).unreadNotifications).toBe(1)

		// Kept: a row written where no trigger tells is not seen.
		await unseen(`insert into notifications (user_id, type, message_key, message_params, received_id) values ($1, 5, 'notifications.newReview', '{}', $1)`, [user.id])
		expect((await listNotifications(user.id, 'en')).unreadNotifications).toBe(1)

		// Through the domain: this process forgets at the commit, at once.
		await newItem(user.id)
		expect((await listNotifications(user.id, 'en')).unreadNotifications).toBe(3)

		// From another connection: the trigger tells every listener.
		await elsewhere(`insert into notifications (user_id, type, message_key, message_params, received_id) values ($1, 5, 'notifications.newReview', '{}', $1)`, [user.id])
		expect((await until(() => listNotifications(user.id, 'en'), (list) => list.unreadNotifications === 4)).unreadNotifications).toBe(4)
		await elsewhere(`update notifications set is_read = true where user_id = $1`, [user.id])
		expect((await until(() => listNotifications(user.id, 'en'), (list) => list.unreadNotifications === 0)).unreadNotifications).toBe(0)
	})

	test('a notification read stops counting in the answer to the read itself, and in the next poll', async () => {
		const user = await createCustomer()
		await newItem(user.id)
		await newItem(user.id, 'notifications.reviewReply')
		const before = await listNotifications(user.id, 'et')
		expect(before.unreadNotifications).toBe(2)
		const { list } = await readNotification(user.id, before.notifications[0]!.id, 'et')
		expect(list.unreadNotifications).toBe(1)
		expect((await listNotifications(user.id, 'et')).unreadNotifications).toBe(1)
		// Each language is its own text of the same kept rows.
		const english = await listNotifications(user.id, 'en')
		expect(english.notifications.map((item) => item.id)).toEqual(list.notifications.map((item) => item.id))
		expect(english.notifications[0]!.message).not.toBe(list.notifications[0]!.message)
	})

	test('a token’s user is kept; a block, a logout elsewhere or a rename elsewhere ends it', async () => {
		const admin = await createCustomer()
		const user = await createCustomer()
		const token = await createSessionToken(db, { userId: user.id, kind: 'api', method: 'password' })
		await cacheBusHeardAll()
		expect((await findUserByToken(token, 'api'))?.id).toBe(user.id)

		// Kept: a rename no trigger tells of is not seen.
		await unseen(`update users set first_name = 'Unseen' where id = $1`, [user.id])
		expect((await findUserByToken(token, 'api'))?.firstName).toBe('Kati')

		// Renamed elsewhere: seen once the trigger's message arrives.
		await elsewhere(`update users set first_name = 'Renamed' where id = $1`, [user.id])
		expect((await until(() => findUserByToken(token, 'api'), (found) => found?.firstName === 'Renamed'))?.firstName).toBe('Renamed')


		// Blocked through the domain: refused at once in this process.
		await db.execute(sql`update users set role = 'admin' where id = ${admin.id}`)
		await setBlocked(admin.id, user.id, true)
		expect(await findUserByToken(token, 'api')).toBeNull()

		// A second user's token ended elsewhere (psql, another process): refused once the message arrives.
		const other = await createCustomer()
		const otherToken = await createSessionToken(db, { userId: other.id, kind: 'web', method: 'password' })
		await cacheBusHeardAll()
		expect((await findUserByToken(otherToken, 'web'))?.id).toBe(other.id)
		await elsewhere(`delete from sessions where user_id = $1`, [other.id])
		expect(await until(() => findUserByToken(otherToken, 'web'), (found) => found === null)).toBeNull()
	})

	test('the triggers say which user changed, and say nothing for a change no session shows', async () => {
		const user = await createCustomer()
		const heard: string[] = []
		const listening = new pg.Client({ connectionString: process.env.DATABASE_URL })
		await listening.connect()
		listening.on('notification', (message) => heard.push(message.payload ?? ''))
		await listening.query('listen autohub_cache')
		try {
			const said = async (write: () => Promise<unknown>) => {
				heard.length = 0
				await write()
				await elsewhere(`select pg_notify('autohub_cache', 'end')`)
				await until(async () => heard.includes('end'), Boolean)
				return heard.filter((payload) => payload !== 'end')
			}
			expect(await said(() => elsewhere(`update users set email_preferences = '{"offers":"off"}' where id = $1`, [user.id]))).not.toContain(`user:${user.id}`)
			expect(await said(() => elsewhere(`update users set last_name = 'Other' where id = $1`, [user.id]))).toContain(`user:${user.id}`)
			expect(await said(() => newItem(user.id))).toContain(`notifications:${user.id}`)
			// No whole pages are kept any more (migration 0030 dropped their triggers): a change to
			// what only pages show says nothing, nor does a password rehashed at login.
			expect(await said(() => elsewhere(`update content_pages set title = title where slug = 'about-us'`))).toEqual([])
			expect(await said(() => elsewhere(`update workshops set rating_average = rating_average`))).toEqual([])
			expect(await said(() => elsewhere(`update users set password_hash = password_hash where id = $1`, [user.id]))).toEqual([])
			expect(await said(() => elsewhere(`update uploads set variant_widths = variant_widths where false`))).toEqual([])
		} finally {
			await listening.end()
		}
	})

	test('a read that began before a change does not keep what it read', async () => {
		const cache = userCache<{ userId: string; value: number }>('notifications', { maxEntries: 10 })
		const userId = '00000000-0000-4000-8000-000000000001'
		const read = await cache.load(
			'race',
			async () => {
				// The change commits while the read is under way.
				await forgetUsers(undefined, 'notifications', [userId])
				return { userId, value: 1 }
			},
			(kept) => kept.userId,
		)
		expect(read.value).toBe(1)
		expect(cache.get('race')).toBeUndefined()
		await cache.load('race', async () => ({ userId, value: 2 }), (kept) => kept.userId)
		expect(cache.get('race')?.value).toBe(2)
	})
})

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('on the embedded database, listening through PGlite', () => {
	test('the bell’s list is kept, and forgotten by the triggers of a write that told no cache', async () => {
		startCacheListener()
		await until(async () => cacheListenerReady(), Boolean)
		try {
			const user = await createCustomer()
			await newItem(user.id)
			await cacheBusHeardAll()
			expect((await listNotifications(user.id, 'en')).unreadNotifications).toBe(1)
			const insert = sql`insert into notifications (user_id, type, message_key, message_params, received_id) values (${user.id}, 5, 'notifications.newReview', '{}', ${user.id})`
			// Kept: a row written where no trigger tells is not seen.
			await db.execute(sql`set session_replication_role = replica`)
			try {
				await db.execute(insert)
			} finally {
				await db.execute(sql`set session_replication_role = origin`)
			}
			expect((await listNotifications(user.id, 'en')).unreadNotifications).toBe(1)
			// A plain write (a job's, a script's) is told by migration 0013's trigger, through PGlite's listen.
			await db.execute(insert)
			await cacheBusHeardAll()
			expect((await listNotifications(user.id, 'en')).unreadNotifications).toBe(3)
		} finally {
			await stopCacheListener()
		}
	})
})

describe('without a cache listener', () => {
	test('nothing is kept: every call reads the database', async () => {
		if (cacheListenerReady()) await stopCacheListener()
		const user = await createCustomer()
		await newItem(user.id)
		expect((await listNotifications(user.id, 'en')).unreadNotifications).toBe(1)
		await db.execute(sql`insert into notifications (user_id, type, message_key, message_params, received_id) values (${user.id}, 5, 'notifications.newReview', '{}', ${user.id})`)
		expect((await listNotifications(user.id, 'en')).unreadNotifications).toBe(2)
	})
})

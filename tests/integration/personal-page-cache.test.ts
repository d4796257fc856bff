import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import { cacheBusHeardAll, cacheListenerReady } from '~/utils/cache-bus.server'
import { db, queryRows } from '~/utils/db.server'
import { isKeptPersonalRead } from '~/utils/http-cache'
import { forgetUsers } from '~/utils/user-cache.server'
import { MAX_PERSONAL_PAGES, personalPageCache, personalPageKey } from '~/utils/page-cache.server'
import { listenToCacheBus } from '#tests/support/cache-listener'

/**
 * The signed-in pages a process keeps per browser (docs/decisions/0112): which requests, what a
 * key is made of, and that every table such a page could show says when it changes (migration
 * 0029), so that a table added later without its trigger fails here. server/app.ts checks the
 * owner on every use; tests/e2e/http-caching.spec.ts follows a page through a browser.
 */
const page = (owner: string, text: string) => ({ owner, headers: [['content-type', 'text/html']] as Array<[string, string]>, parts: [text], bytes: text.length })
const keep = (key: string, text: string, owner = 'owner') => personalPageCache.keep(key, page(owner, text), personalPageCache.generation())
const shown = (key: string) => personalPageCache.get(key)?.parts.join('')

/** Tables no kept page shows that change all the time (migration 0029); every other one tells. */
const SILENT = ['audit_log', 'email_outbox', 'rate_limits', 'sessions', 'visits']

test('only the listed signed-in pages, read with a session, as documents or their single-fetch data', () => {
	const session = '__session=abc; lng=ImVuIg%3D%3D'
	for (const path of ['/dashboard', '/my-requests', '/my-vehicle', '/compaire-offers/x1', '/customer-requests', '/workshop-bid-history', '/workshop-bid-details/x1']) {
		expect(isKeptPersonalRead('GET', path, session), path).toBe(true)
		expect(isKeptPersonalRead('POST', path, session), path).toBe(false)
		expect(isKeptPersonalRead('HEAD', path, session), path).toBe(false)
		expect(isKeptPersonalRead('GET', path, 'lng=ImVuIg%3D%3D'), path).toBe(false)
		expect(isKeptPersonalRead('GET', `${path}.data`, session), path).toBe(true)
		expect(isKeptPersonalRead('GET', `${path}.data`, 'lng=ImVuIg%3D%3D'), path).toBe(false)
	}
	// Pages whose loaders write (a chat read, a notification opened) or show a form's one-off state.
	for (const path of ['/chat/x1', '/notifications', '/settings', '/profile', '/add-vehicle', '/dashboard/x', '/_root.data', '/chat/x1.data']) expect(isKeptPersonalRead('GET', path, session), path).toBe(false)
})

test('a key is the address and every cookie the browser sent', () => {
	expect(personalPageKey('/dashboard', '__session=a; csrf=b')).not.toBe(personalPageKey('/dashboard', '__session=a; csrf=c'))
	expect(personalPageKey('/dashboard', '__session=a')).not.toBe(personalPageKey('/dashboard?lng=ru', '__session=a'))
	expect(personalPageKey('/dashboard', '__session=a')).toBe(personalPageKey('/dashboard', '__session=a'))
})

test('every table but the silent ones says when it changes', async () => {
	const rows = await queryRows<{ table: string; tells: boolean }>(
		db,
		sql`select t.tablename as "table", exists (select 1 from pg_trigger g where g.tgrelid = (quote_ident(t.tablename))::regclass and g.tgname = t.tablename || '_personal_pages') as tells
		    from pg_tables t where t.schemaname = current_schema() order by 1`,
	)
	expect(rows.length).toBeGreaterThan(30)
	expect(rows.filter((row) => !row.tells).map((row) => row.table)).toEqual(SILENT)
})

test('without a listener nothing is kept: a change elsewhere would go unheard', () => {
	if (cacheListenerReady()) return
	keep('/dashboard\n__session=unheard', 'page')
	expect(personalPageCache.get('/dashboard\n__session=unheard')).toBeUndefined()
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL, with the cache listener', () => {
	listenToCacheBus()
	afterEach(() => personalPageCache.forget())

	test('a change to any table a page could show, written anywhere, forgets every kept page', async () => {
		for (const table of ['offers', 'service_requests', 'vehicles', 'notifications', 'workshops', 'reviews', 'chat_messages']) {
			await cacheBusHeardAll()
			keep('/dashboard\n__session=a', 'before')
			expect(shown('/dashboard\n__session=a')).toBe('before')
			await db.execute(sql.raw(`delete from ${table} where false`))
			await cacheBusHeardAll()
			expect(shown('/dashboard\n__session=a'), table).toBeUndefined()
		}
	})

	test('a visit, a rate limit or a session says nothing: the pages stay', async () => {
		await cacheBusHeardAll()
		keep('/dashboard\n__session=b', 'kept')
		for (const table of SILENT) await db.execute(sql.raw(`delete from ${table} where false`))
		await cacheBusHeardAll()
		expect(shown('/dashboard\n__session=b')).toBe('kept')
	})

	test('a user\'s session or bell forgotten in this process (a notification read here) forgets the pages too', async () => {
		keep('/dashboard\n__session=d', 'kept')
		await forgetUsers(undefined, 'notifications', ['00000000-0000-4000-8000-000000000001'])
		expect(shown('/dashboard\n__session=d')).toBeUndefined()
	})

	test('a page rendered before a change is not kept after it', () => {
		const renderedAt = personalPageCache.generation()
		personalPageCache.forget()
		personalPageCache.keep('/my-vehicle\n__session=c', page('owner', 'stale'), renderedAt)
		expect(shown('/my-vehicle\n__session=c')).toBeUndefined()
	})

	test(`at most ${MAX_PERSONAL_PAGES} pages: the least recently used goes first`, () => {
		for (let n = 0; n < MAX_PERSONAL_PAGES; n++) keep(`/dashboard\n__session=${n}`, `page ${n}`)
		expect(shown('/dashboard\n__session=0')).toBe('page 0')
		keep('/dashboard\n__session=more', 'one more')
		expect(shown('/dashboard\n__session=1')).toBeUndefined()
		expect(shown('/dashboard\n__session=0')).toBe('page 0')
	})
})

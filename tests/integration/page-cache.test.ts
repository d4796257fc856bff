import { afterEach, describe, expect, test, vi } from 'vitest'
import { cacheBusHeardAll, cacheListenerReady } from '~/utils/cache-bus.server'
import { db } from '~/utils/db.server'
import { MAX_PAGES, pageCache, pageKey } from '~/utils/page-cache.server'
import { sql } from 'drizzle-orm'
import { listenToCacheBus } from '#tests/support/cache-listener'

/**
 * The shared pages a process keeps (docs/decisions/0091): what a key is made of, how long a page
 * is kept, what is forgotten, and the bound. Kept only while the process listens to PostgreSQL.
 */
const page = (text: string) => ({ headers: [['Content-Type', 'text/html']] as Array<[string, string]>, body: Buffer.from(text) })
const keep = (key: string, text: string) => pageCache.keep(key, page(text), pageCache.generation())
const shown = (key: string) => pageCache.get(key)?.body.toString()

test('a key is the address and the `lng` cookie, nothing else a visitor carries', () => {
	const lng = 'lng=ImVuIg%3D%3D'
	expect(pageKey('/cities', `${lng}; csrf=one`)).toBe(pageKey('/cities', `csrf=two; ${lng}`))
	expect(pageKey('/cities', lng)).not.toBe(pageKey('/cities', 'lng=InJ1Ig%3D%3D'))
	expect(pageKey('/cities', lng)).not.toBe(pageKey('/cities', undefined))
	expect(pageKey('/cities', lng)).not.toBe(pageKey('/cities?lng=en', lng))
	// A cookie whose name merely ends in lng is another cookie.
	expect(pageKey('/cities', 'xlng=ImVuIg%3D%3D')).toBe(pageKey('/cities', undefined))
})

test('without a listener nothing is kept: a change elsewhere would go unheard', () => {
	if (cacheListenerReady()) return
	keep('/unheard', 'page')
	expect(pageCache.get('/unheard')).toBeUndefined()
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL, with the cache listener', () => {
	listenToCacheBus()
	afterEach(() => {
		vi.restoreAllMocks()
		pageCache.forget()
	})

	test('a page is kept for a minute, and not when it was rendered before a change', () => {
		keep('/a', 'first')
		expect(shown('/a')).toBe('first')
		const now = Date.now()
		vi.spyOn(Date, 'now').mockReturnValue(now + 61_000)
		expect(shown('/a')).toBeUndefined()
		vi.restoreAllMocks()

		const renderedAt = pageCache.generation()
		pageCache.forget()
		pageCache.keep('/b', page('stale'), renderedAt)
		expect(shown('/b')).toBeUndefined()
	})

	test('a change to what the pages show, written anywhere, forgets them all', async () => {
		await cacheBusHeardAll()
		keep('/about', 'before')
		await db.execute(sql`update content_pages set updated_at = updated_at where false`)
		await cacheBusHeardAll()
		expect(shown('/about')).toBeUndefined()
	})

	test(`at most ${MAX_PAGES} pages: the least recently used goes first`, () => {
		for (let n = 0; n < MAX_PAGES; n++) keep(`/page/${n}`, `page ${n}`)
		expect(shown('/page/0')).toBe('page 0')
		keep('/one-more', 'one more')
		// /page/0 was just used, so /page/1 went.
		expect(shown('/page/1')).toBeUndefined()
		expect(shown('/page/0')).toBe('page 0')
		expect(shown('/one-more')).toBe('one more')
	})
})

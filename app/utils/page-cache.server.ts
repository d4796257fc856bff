import { cacheListenerReady, registerCache, type CacheName } from './cache-bus.server'
import { singleton } from './singleton.server'

/**
 * The shared pages (app/utils/http-cache.ts: the directory and the content pages, for anonymous
 * visitors) as last rendered, kept by this process for as long as a CDN may keep them (s-maxage,
 * a minute), and forgotten sooner when anything they show may have changed (issue 18, goal 2;
 * docs/decisions/0091):
 * - any write this process answers (a POST, …: server/app.ts empties it when one finishes);
 * - any message on the cache bus: the settings, ads, lists or counts changed, or a table the pages
 *   show changed in any process (migration 0014's triggers send `pages`).
 * Only while this process listens (PostgreSQL): otherwise a change elsewhere would go unheard.
 * A page is kept with the headers it was sent with, its ETag and its CSP with the nonce derived
 * from the page (server/http-cache.ts), so a kept answer is byte for byte the one it repeats.
 *
 * The pages people live in once signed in (their dashboard, requests, offers: `isKeptPersonalRead`
 * in app/utils/http-cache.ts) are kept the same way, per browser (docs/decisions/0112): forgotten
 * by the same writes and messages, and by migration 0029's triggers (`personal-pages`), which fire
 * on a change to any table those pages could show.
 */
export type KeptPage = { headers: Array<[string, string]>; body: Buffer }

/**
 * A signed-in person's page as this process keeps it (docs/decisions/0112): whose it is, and its
 * HTML cut where the nonce of the render was, so each answer gets its own request's nonce.
 */
export type KeptPersonalPage = { owner: string; headers: Array<[string, string]>; parts: string[]; bytes: number }

/** At most this many shared pages and bytes, the least recently used going first. */
export const MAX_PAGES = 500
/** The same for personal pages: a few for each of the people signed in at the same time. */
export const MAX_PERSONAL_PAGES = 2_000
const MAX_BYTES = 64 * 1024 * 1024
const KEEP_MS = 60_000

type Entry<Page> = { page: Page; bytes: number; keptAt: number }
type Store<Page> = { pages: Map<string, Entry<Page>>; bytes: number; generation: number }

/**
 * Pages kept by this process until a change may have altered them (`forget`, the cache bus), for
 * at most a minute, bounded in number and bytes, the least recently used going first. Used and
 * kept only while this process listens to PostgreSQL: otherwise a change elsewhere would go unheard.
 */
function keptPages<Page>(name: string, options: { maxPages: number; size: (page: Page) => number }) {
	const store = singleton<Store<Page>>(name, () => {
		const created: Store<Page> = { pages: new Map(), bytes: 0, generation: 0 }
		// Migration 0014's triggers say `pages`, 0029's `personal-pages`; a personal page also shows
		// what the shared ones do (a workshop's name, the lists), so every message forgets it.
		const names: CacheName[] = ['pages', 'site-settings', 'ads', 'reference-lists', 'directory-counts']
		for (const cache of name === 'personal-page-cache' ? [...names, 'personal-pages' as const] : names) registerCache(cache, () => forget(created))
		return created
	})
	function forget(current: Store<Page>) {
		current.pages.clear()
		current.bytes = 0
		current.generation++
	}
	return {
		/** Whether this process keeps pages now (it listens to PostgreSQL). */
		ready: () => cacheListenerReady(),
		/** A page kept and still fresh, when this process may trust what it keeps. */
		get(key: string): Page | undefined {
			if (!cacheListenerReady()) return undefined
			const kept = store.pages.get(key)
			if (!kept) return undefined
			store.pages.delete(key)
			if (Date.now() - kept.keptAt > KEEP_MS) {
				store.bytes -= kept.bytes
				return undefined
			}
			// Used: the last to go.
			store.pages.set(key, kept)
			return kept.page
		},
		/** The generation to hand back to `keep`: a page rendered before a change is not kept after it. */
		generation: () => store.generation,
		keep(key: string, page: Page, renderedAt: number) {
			if (!cacheListenerReady() || renderedAt !== store.generation) return
			const previous = store.pages.get(key)
			if (previous) store.bytes -= previous.bytes
			store.pages.delete(key)
			const bytes = options.size(page)
			store.pages.set(key, { page, bytes, keptAt: Date.now() })
			store.bytes += bytes
			for (const [oldestKey, oldest] of store.pages) {
				if (store.pages.size <= options.maxPages && store.bytes <= MAX_BYTES) break
				store.pages.delete(oldestKey)
				store.bytes -= oldest.bytes
			}
		},
		/** After a write this process answered. */
		forget: () => forget(store),
	}
}

/**
 * The key of a page: its address and the one thing besides it a shared page varies on, the `lng`
 * cookie (app/i18n/i18n.server.ts: ?lng=, then the cookie; Accept-Language is not read). Other
 * cookies (a visitor's CSRF token) must not give each visitor a copy of their own.
 */
export const pageKey = (url: string, cookieHeader: string | undefined) => `${url}\n${/(?:^|;\s*)lng=([^;]*)/.exec(cookieHeader ?? '')?.[1] ?? ''}`

export const pageCache = keptPages<KeptPage>('page-cache', { maxPages: MAX_PAGES, size: (page) => page.body.byteLength })

/**
 * The key of a personal page: its address and every cookie the browser sent, as sent. The session,
 * the CSRF token in the page's forms and the language all come from them; another browser, a new
 * sign-in or a flashed message is another key. The owner is checked again on every use.
 */
export const personalPageKey = (url: string, cookieHeader: string) => `${url}\n${cookieHeader}`

export const personalPageCache = keptPages<KeptPersonalPage>('personal-page-cache', { maxPages: MAX_PERSONAL_PAGES, size: (page) => page.bytes })

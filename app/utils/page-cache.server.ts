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
 */
export type KeptPage = { headers: Array<[string, string]>; body: Buffer }
type Entry = KeptPage & { keptAt: number }

/** At most this many pages and bytes, the least recently used going first. */
export const MAX_PAGES = 500
const MAX_BYTES = 64 * 1024 * 1024
const KEEP_MS = 60_000

type State = { pages: Map<string, Entry>; bytes: number; generation: number }

const state = singleton<State>('page-cache', () => {
	const created: State = { pages: new Map(), bytes: 0, generation: 0 }
	const forget = () => forgetPages(created)
	for (const name of ['pages', 'site-settings', 'ads', 'reference-lists', 'directory-counts'] satisfies CacheName[]) registerCache(name, forget)
	return created
})

function forgetPages(current: State) {
	current.pages.clear()
	current.bytes = 0
	current.generation++
}

/**
 * The key of a page: its address and the one thing besides it a shared page varies on, the `lng`
 * cookie (app/i18n/i18n.server.ts: ?lng=, then the cookie; Accept-Language is not read). Other
 * cookies (a visitor's CSRF token) must not give each visitor a copy of their own.
 */
export const pageKey = (url: string, cookieHeader: string | undefined) => `${url}\n${/(?:^|;\s*)lng=([^;]*)/.exec(cookieHeader ?? '')?.[1] ?? ''}`

export const pageCache = {
	/** A page kept and still fresh, when this process may trust what it keeps. */
	get(key: string): KeptPage | undefined {
		if (!cacheListenerReady()) return undefined
		const kept = state.pages.get(key)
		if (!kept) return undefined
		state.pages.delete(key)
		if (Date.now() - kept.keptAt > KEEP_MS) {
			state.bytes -= kept.body.byteLength
			return undefined
		}
		// Used: the last to go.
		state.pages.set(key, kept)
		return kept
	},
	/** The generation to hand back to `keep`: a page rendered before a change is not kept after it. */
	generation: () => state.generation,
	keep(key: string, page: KeptPage, renderedAt: number) {
		if (!cacheListenerReady() || renderedAt !== state.generation) return
		const previous = state.pages.get(key)
		if (previous) state.bytes -= previous.body.byteLength
		state.pages.delete(key)
		state.pages.set(key, { ...page, keptAt: Date.now() })
		state.bytes += page.body.byteLength
		for (const [oldestKey, oldest] of state.pages) {
			if (state.pages.size <= MAX_PAGES && state.bytes <= MAX_BYTES) break
			state.pages.delete(oldestKey)
			state.bytes -= oldest.body.byteLength
		}
	},
	/** After a write this process answered. */
	forget: () => forgetPages(state),
}

import { type Page } from '@playwright/test'

/**
 * The walks over every page a role reaches by its links (phone-width.spec.ts, accessibility.spec.ts):
 * each kind of page is opened once, a request's page once, not every request.
 */

/** Not pages: files, e-mail previews (a mail client's width), the log-out form's target, APIs, the widgets, eID's way out to its provider (another site). */
export const notPages = [/^\/eid\/start/, /^\/uploads\//, /\.(ics|pdf|xml)$/, /^\/settings\/export/, /^\/admin\/emails\/preview\//, /^\/logout/, /^\/resources\//, /^\/sitemap/, /^\/robots/, /^\/unsubscribe\//, /^\/subscription\/stripe-return/, /^\/webhooks\//, /^\/admin\/api\//, /^\/widgets/]

/** The kind of a path: its segments with the ids and slugs left out (a price page's service and city codes too). */
export function pathKind(pathname: string) {
	const prices = /^\/prices\/[^/]+(\/[^/]+)?$/.exec(pathname)
	if (prices) return prices[1] ? '/prices/:service/:city' : '/prices/:service'
	return pathname
		.split('/')
		.map((segment) => (/\d/.test(segment) && segment.length > 3 ? ':id' : segment))
		.join('/')
}

/** The kind of a page: its path's kind and the names of its query's parameters (a filter, a page, a workshop named), the language left out. */
export function kindOf(path: string) {
	const url = new URL(path, 'http://portal')
	return `${pathKind(url.pathname)}?${[...url.searchParams.keys()].filter((key) => key !== 'lng').sort().join('&')}`
}

/** The page's links within the portal, without their language, whose kind the walk has not seen. */
export async function unseenLinks(page: Page, seen: Set<string>) {
	const links = await page.locator('a[href^="/"]').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')!))
	return links
		.map((href) => {
			const url = new URL(href, 'http://portal')
			url.searchParams.delete('lng')
			return url.pathname + url.search
		})
		.filter((path) => !seen.has(kindOf(path)))
}

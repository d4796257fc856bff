import { sql } from 'drizzle-orm'
import { listedCityCodes } from '~/domain/directory/cities.server'
import { cityPagePath } from '~/domain/directory/workshops'
import { pricePagePaths } from '~/domain/pricing/price-pages.server'
import { supportedLanguages } from '~/i18n/config'
import { db, queryRows } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { pageUrl, publicOrigin } from '~/utils/seo.server'
import { listedWorkshop } from '~/db/sql'

/**
 * sitemap.xml: the public pages, the city pages, the price pages and every workshop, each with its `hreflang` alternates.
 * A sitemap may hold at most 50,000 addresses, so beyond SITEMAP_CHUNK addresses /sitemap.xml
 * becomes a sitemap index of /sitemap/pages.xml and /sitemap/workshops-N.xml (docs/decisions/0025).
 */
export const SITEMAP_CHUNK = 10_000

export const publicPagePaths = ['/', '/workshop-list', '/cities', '/about', '/terms-conditions', '/privacy-poicy', '/contact-us'] as const

/**
 * The public pages, the list of each city that has listed workshops (an empty city's page is not
 * worth indexing), and the price pages (issue 35): every service's, and each service's in every
 * city where a listed workshop does it.
 */
async function pagePaths(): Promise<string[]> {
	const [cities, prices] = await Promise.all([listedCityCodes(), pricePagePaths()])
	return [...publicPagePaths, ...cities.map(cityPagePath), ...prices]
}

const escapeXml = (value: string) =>
	value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')

/** One address (a path, with a query for a city page) and its language versions. */
function urlEntry(path: string, lastModified?: string) {
	const [pathname = path, search = ''] = path.split('?')
	const alternates = [
		...supportedLanguages.map((language) => [language, pageUrl(pathname, search, language)] as const),
		['x-default', pageUrl(pathname, search, null)] as const,
	]
	return [
		'<url>',
		`<loc>${escapeXml(pageUrl(pathname, search, null))}</loc>`,
		lastModified ? `<lastmod>${lastModified}</lastmod>` : '',
		...alternates.map(([hreflang, href]) => `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(href)}"/>`),
		'</url>',
	].join('')
}

function urlset(entries: string[]) {
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
		...entries,
		'</urlset>',
		'',
	].join('\n')
}

async function workshopCount() {
	const [row] = await queryRows<{ total: number }>(db, sql`select count(*)::int as total from workshops w where ${listedWorkshop}`)
	return Number(row?.total ?? 0)
}

async function workshopEntries(offset: number, limit: number) {
	const rows = await queryRows<{ id: string; updated_at: string | Date }>(
		db,
		sql`select w.id, w.updated_at from workshops w where ${listedWorkshop} order by w.id limit ${limit} offset ${offset}`,
	)
	return rows.map((row) => urlEntry(`/workshop-details/${encodeId(row.id)}`, new Date(row.updated_at).toISOString().slice(0, 10)))
}

/** /sitemap.xml: every address in one file while they fit, otherwise the index of the parts. */
export async function sitemapXml(): Promise<string> {
	const [pages, total] = await Promise.all([pagePaths(), workshopCount()])
	if (pages.length + total <= SITEMAP_CHUNK) {
		return urlset([...pages.map((path) => urlEntry(path)), ...(await workshopEntries(0, total))])
	}
	const parts = ['pages', ...Array.from({ length: Math.ceil(total / SITEMAP_CHUNK) }, (_, i) => `workshops-${i + 1}`)]
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
		...parts.map((part) => `<sitemap><loc>${escapeXml(`${publicOrigin()}/sitemap/${part}.xml`)}</loc></sitemap>`),
		'</sitemapindex>',
		'',
	].join('\n')
}

/** One part of a large sitemap (/sitemap/pages.xml, /sitemap/workshops-N.xml), or null when there is no such part. */
export async function sitemapPart(name: string): Promise<string | null> {
	if (name === 'pages.xml') return urlset((await pagePaths()).map((path) => urlEntry(path)))
	const match = /^workshops-([1-9][0-9]{0,4})\.xml$/.exec(name)
	if (!match) return null
	const part = Number(match[1])
	const total = await workshopCount()
	if ((part - 1) * SITEMAP_CHUNK >= total) return null
	return urlset(await workshopEntries((part - 1) * SITEMAP_CHUNK, SITEMAP_CHUNK))
}

/** robots.txt: everything public may be indexed; accounts, the API and the thank-you page not. */
export function robotsTxt() {
	return [
		'User-agent: *',
		'Allow: /',
		'Disallow: /admin/',
		'Disallow: /resources/',
		'Disallow: /thank-you',
		// Every public review links to its report page, which asks to sign in.
		'Disallow: /report-review/',
		'Disallow: /dashboard',
		'Disallow: /profile',
		'Disallow: /settings',
		'',
		`Sitemap: ${publicOrigin()}/sitemap.xml`,
		'',
	].join('\n')
}
